//! Native: the `paxos-island` command-line tool. Browser: mount the app.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = paxos_island::cli::main(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}

#[cfg(target_arch = "wasm32")]
fn main() {
    paxos_island::ui::start();
}
