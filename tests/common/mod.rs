//! Helpers shared by the command-line tests.

use paxos_island::cli;

/// Run the CLI in-process: exit code, standard output, standard error.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cli::main(&args, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// A path in a scratch folder of this test binary (`suite` keeps the test
/// binaries, which run in parallel, out of each other's files).
pub fn tmp(suite: &str, name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("paxos-island-{suite}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}
