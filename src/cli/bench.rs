//! `paxos-island bench`: throughput figures worth reading.
//!
//! Each figure comes from at least a second of work, repeated five times;
//! the line gives the median and the spread (min–max), so one lucky or
//! unlucky run on a busy two-core machine cannot make the figure.

use super::{parse_flags, Out, Usage};
use crate::check::explore::paxos::PaxosModel;
use crate::check::explore::Stop;
use crate::scenario::builtin;
use crate::scenario::lease_mc::{sweep, Grid};
use crate::scenario::run::Run;
use std::time::Instant;

/// Repetitions of each figure.
const REPS: usize = 5;
/// The least work in one repetition, in seconds.
const MIN_SECS: f64 = 1.0;

/// Rates of the repetitions of one figure (units per second).
struct Figure {
    rates: Vec<f64>,
    units: u64,
    secs: f64,
}

impl Figure {
    fn sorted(&self) -> Vec<f64> {
        let mut r = self.rates.clone();
        r.sort_by(|a, b| a.total_cmp(b));
        r
    }
    fn median(&self) -> f64 {
        let r = self.sorted();
        r[r.len() / 2]
    }
    /// "min–max", scaled by `k` (1e6 for millions).
    fn spread(&self, k: f64) -> String {
        let r = self.sorted();
        format!("{:.2}–{:.2}", r[0] / k, r[r.len() - 1] / k)
    }
    fn line(&self, k: f64) -> String {
        format!(
            "{REPS} repetitions of {:.2} s on average (spread {})",
            self.secs / REPS as f64,
            self.spread(k)
        )
    }
}

/// Time `work` (which returns the units it did) [`REPS`] times, each
/// repetition calling it until at least [`MIN_SECS`] have passed.
fn measure(mut work: impl FnMut() -> u64) -> Figure {
    work(); // warm up: caches, allocator, page faults
    let mut f = Figure {
        rates: Vec::new(),
        units: 0,
        secs: 0.0,
    };
    for _ in 0..REPS {
        let t = Instant::now();
        let mut units = 0;
        while t.elapsed().as_secs_f64() < MIN_SECS {
            units += work();
        }
        let secs = t.elapsed().as_secs_f64();
        f.rates.push(units as f64 / secs);
        f.units += units;
        f.secs += secs;
    }
    f
}

pub fn cmd_bench(args: &[String], out: Out) -> Result<i32, Usage> {
    let f = parse_flags(args, &[], &["quick"])?;
    f.no_positional()?;
    let base = builtin::get("bench-lossy").expect("built in");

    // The simulator alone, as checks and sweeps run it.
    let mut seed = 0u64;
    let fig = measure(|| {
        let mut steps = 0;
        for _ in 0..200 {
            let mut s = base.clone();
            s.seed = seed;
            seed += 1;
            steps += Run::execute(&s).map(|sim| sim.steps()).unwrap_or(0);
        }
        steps
    });
    let _ = writeln!(
        out,
        "bench-lossy (5 acceptors, 3 proposers, 10% loss): {} = {:.2} M events/s",
        fig.line(1e6),
        fig.median() / 1e6
    );

    // The same with the trace recorded, as the app does.
    let fig = measure(|| {
        let mut events = 0;
        for i in 0..50 {
            let mut s = base.clone();
            s.seed = i;
            events += Run::record(&s).map(|r| r.trace.len() as u64).unwrap_or(0);
        }
        events
    });
    let _ = writeln!(
        out,
        "recording with checkpoints: {} = {:.2} M trace events/s",
        fig.line(1e6),
        fig.median() / 1e6
    );

    // The lease lab's Monte Carlo sweep.
    let grid = Grid::standard_bench();
    let fig = measure(|| sweep(&grid, |_| {}).iter().map(|c| c.steps).sum());
    let _ = writeln!(
        out,
        "lease Monte Carlo ({} s simulated per run): {} = {:.2} M events/s",
        grid.duration_us / 1_000_000,
        fig.line(1e6),
        fig.median() / 1e6
    );

    // The model checker, on the default bounds and on the configuration
    // comparable to stateright's `paxos check-dfs 3` (3 servers that each
    // lead at most one ballot: 3 proposers, 3 ballots).
    let mut models = vec![(
        "default: 3 acceptors, 2 proposers, 3 ballots",
        PaxosModel::default(),
    )];
    if !f.has("quick") {
        models.push((
            "comparable to stateright paxos check-dfs 3: 3 proposers",
            PaxosModel {
                proposers: 3,
                ..PaxosModel::default()
            },
        ));
    }
    for (what, model) in models {
        let mut states = 0;
        let fig = measure(|| {
            let mut x = model.explorer(Stop::Never);
            while !x.run(1 << 20) {}
            states = x.progress().states as u64;
            states
        });
        let _ = writeln!(
            out,
            "model-check paxos ({what}, {states} states): {} = {:.0} K states/s",
            fig.line(1e3),
            fig.median() / 1e3
        );
    }

    // Issue 11's safety figure: a million random faulty Multi-Paxos
    // schedules (crashes, partitions, loss, duplication, drift, every client
    // operation), on both cores. Its result is the violation count, not a
    // speed; the time is one run's.
    if !f.has("quick") {
        use crate::check::search::{self, FaultSet};
        use crate::scenario::multipaxos_spec::random_multipaxos;
        const N: u64 = 1_000_000;
        let t0 = Instant::now();
        let halves: Vec<search::Report> = std::thread::scope(|s| {
            let h: Vec<_> = (0..2u64)
                .map(|k| {
                    s.spawn(move || {
                        search::check(
                            |seed| random_multipaxos(seed, FaultSet::ALL, None),
                            1 + k * N / 2,
                            N / 2,
                            false,
                        )
                    })
                })
                .collect();
            h.into_iter()
                .map(|h| h.join().expect("a search thread"))
                .collect()
        });
        let (schedules, violating, decided) = halves.iter().fold((0, 0, 0), |a, r| {
            (a.0 + r.schedules, a.1 + r.violating, a.2 + r.decided)
        });
        let _ = writeln!(
            out,
            "check multipaxos: {schedules} random faulty schedules, {violating} violations, a slot chosen in {decided}; one run of {:.0} s on 2 threads",
            t0.elapsed().as_secs_f64()
        );
        if violating > 0 {
            let first = halves
                .iter()
                .find_map(|r| r.first.as_ref())
                .map(|f| (f.seed, f.invariant, f.detail.clone()));
            let _ = writeln!(out, "  first violation: {first:?}");
        }
    }
    Ok(0)
}
