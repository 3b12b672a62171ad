//! How long does seeking take natively in a long run? (cargo run --release --example seek)
use paxos_island::scenario::run::Run;
use paxos_island::sim::SimTime;
use std::time::Instant;
fn main() {
    let text = std::fs::read_to_string("tests/e2e/bench/long.json").unwrap();
    let s = paxos_island::trace::import::scenario_from_text(&text).unwrap();
    let t0 = Instant::now();
    let run = Run::record(&s).unwrap();
    println!(
        "record: {} events, {} checkpoints in {:?}",
        run.trace.len(),
        run.checkpoints.len(),
        t0.elapsed()
    );
    let mut worst = 0f64;
    let mut total = 0f64;
    for k in 0..100u64 {
        let t = SimTime(run.end.0 * ((k * 7919) % 100) / 100);
        let t0 = Instant::now();
        let sim = run.state_at(t);
        let d = t0.elapsed().as_secs_f64() * 1e3;
        std::hint::black_box(sim);
        worst = worst.max(d);
        total += d;
    }
    println!(
        "state_at: mean {:.3} ms, worst {:.3} ms",
        total / 100.0,
        worst
    );
    let t0 = Instant::now();
    let c = run.checkpoints.last().unwrap().sim.clone();
    std::hint::black_box(c);
    println!("clone of the last checkpoint: {:?}", t0.elapsed());
    let t0 = Instant::now();
    let f = paxos_island::viz::flights::Flights::from_trace(&run.trace, run.end);
    println!(
        "flights index: {:?} ({} flights)",
        t0.elapsed(),
        f.list.len()
    );
    let mut opts = paxos_island::viz::spacetime::Options::new(
        run.end.0 / 2,
        run.end.0 / 2 + 3_000_000,
        1200.0,
        300.0,
    );
    opts.max_arrows = 300;
    let t0 = Instant::now();
    let d =
        paxos_island::viz::spacetime::layout_indexed(&run.names, &run.trace, &f, run.end, &opts);
    println!(
        "space-time layout of a 3 s window (indexed): {:?} ({} arrows)",
        t0.elapsed(),
        d.arrows.len()
    );
    let t0 = Instant::now();
    let svg = paxos_island::trace::svg::render(&d, "x");
    println!("its SVG: {:?} ({} bytes)", t0.elapsed(), svg.len());
}
