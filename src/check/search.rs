//! Random-schedule search: many short runs, each a random configuration with
//! random faults, all checked by the monitors.
//!
//! Schedule `i` of a search with base seed `s` is the scenario generated from
//! seed `s + i` — so a failure is reproduced with `--seed <that seed>
//! --schedules 1`, and its trace written with `--out`.

use super::Mutation;
use crate::scenario::names::{DECREES, GREEK};
use crate::scenario::run::Run;
use crate::scenario::Scheduled;
use crate::scenario::{builtin, NodeSpec, Proposal, Role, Scenario};
use crate::sim::dist::Latency;
use crate::sim::fault::Fault;
use crate::sim::rng::{Rng, Stream};
use crate::trace::EventKind;

/// Which kinds of trouble random schedules may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultSet {
    pub crash: bool,
    pub pause: bool,
    pub loss: bool,
    pub duplicate: bool,
    pub reorder: bool,
    pub partition: bool,
    pub drift: bool,
}

impl FaultSet {
    pub const ALL: FaultSet = FaultSet {
        crash: true,
        pause: true,
        loss: true,
        duplicate: true,
        reorder: true,
        partition: true,
        drift: true,
    };
    pub const NONE: FaultSet = FaultSet {
        crash: false,
        pause: false,
        loss: false,
        duplicate: false,
        reorder: false,
        partition: false,
        drift: false,
    };
    pub const WORDS: &'static str =
        "crash, pause, loss, duplicate, reorder, partition, drift, all, none";

    /// Parse "crash,loss,partition" (or "all", "none").
    pub fn parse(list: &str) -> Result<FaultSet, String> {
        let mut s = FaultSet::NONE;
        for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "all" => s = FaultSet::ALL,
                "none" => s = FaultSet::NONE,
                "crash" | "restart" => s.crash = true,
                "pause" | "stall" => s.pause = true,
                "loss" => s.loss = true,
                "duplicate" | "dup" => s.duplicate = true,
                "reorder" => s.reorder = true,
                "partition" => s.partition = true,
                "drift" | "clock" => s.drift = true,
                other => {
                    return Err(format!(
                        "unknown fault {other:?}; choose from: {}",
                        Self::WORDS
                    ))
                }
            }
        }
        Ok(s)
    }
}

/// The first violation a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The seed of the failing schedule (reproduce with `--seed` and `--schedules 1`).
    pub seed: u64,
    /// Simulator step and trace sequence number of the violation.
    pub step: u64,
    pub seq: u64,
    pub t_us: u64,
    pub invariant: super::Invariant,
    pub detail: String,
    pub scenario: Scenario,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub schedules: u64,
    /// Schedules in which the rule looked for broke (any rule, if none was named).
    pub violating: u64,
    /// Schedules in which a decree was chosen (Paxos), or every RM learned
    /// the outcome (commit): a search whose runs decide nothing proves little.
    pub decided: u64,
    /// Simulator steps over all schedules.
    pub steps: u64,
    pub first: Option<Failure>,
}

/// A random faulty Synod configuration.
pub fn random_paxos(seed: u64, faults: FaultSet, mutation: Option<Mutation>) -> Scenario {
    let mut r = Rng::new(seed, Stream::Schedule);
    let n = *r.pick(&[3usize, 3, 5, 5, 5, 7]).unwrap_or(&5);
    let proposers = r.range_inclusive(1, 3).min(n as u64) as usize;
    // Proposers are distinct legislators, spread over the chamber.
    let mut who: Vec<(usize, u64)> = Vec::new();
    while who.len() < proposers {
        let i = r.below(n as u64) as usize;
        if !who.iter().any(|(p, _)| *p == i) {
            who.push((i, r.below(400)));
        }
    }
    who.sort_unstable();
    let mut s = builtin::parliament("random", n, &[]);
    s.seed = seed;
    s.mutation = mutation;
    s.nodes = (0..n)
        .map(|i| NodeSpec {
            id: GREEK[i].to_string(),
            roles: if who.iter().any(|(p, _)| *p == i) {
                vec![Role::Proposer, Role::Acceptor, Role::Learner]
            } else {
                vec![Role::Acceptor, Role::Learner]
            },
        })
        .collect();
    let timeout = r.range_inclusive(80, 800) * 1_000;
    if let Some(p) = s.paxos.as_mut() {
        p.proposals = who
            .iter()
            .map(|&(i, start_ms)| Proposal {
                node: GREEK[i].to_string(),
                value: DECREES[i].to_string(),
                start_us: start_ms * 1_000,
            })
            .collect();
        p.timeout_us = timeout;
        p.backoff = r.chance(0.7);
        p.learn_from_votes = r.chance(0.3);
    }
    s.network.latency = match r.below(4) {
        0 => Latency::Uniform {
            min_us: 1_000,
            max_us: r.range_inclusive(5, 250) * 1_000,
        },
        1 => Latency::Exponential {
            mean_us: r.range_inclusive(5, 120) * 1_000,
            min_us: 1_000,
        },
        2 => Latency::LogNormal {
            median_us: r.range_inclusive(5, 100) * 1_000,
            sigma: 1.0,
        },
        _ => Latency::Constant {
            us: r.range_inclusive(10, 150) * 1_000,
        },
    };
    if faults.loss {
        s.network.loss = r.below(30) as f64 / 100.0;
    }
    if faults.duplicate {
        s.network.duplicate = r.below(30) as f64 / 100.0;
    }
    if faults.reorder {
        s.network.reorder = r.below(30) as f64 / 100.0;
    }
    let horizon_ms = 3_000;
    let name = |r: &mut Rng| GREEK[r.below(n as u64) as usize].to_string();
    let count = r.below(7);
    for _ in 0..count {
        let at = r.below(horizon_ms) * 1_000;
        match r.below(4) {
            0 if faults.crash => {
                let node = name(&mut r);
                s.faults.push(Scheduled {
                    at_us: at,
                    fault: Fault::Crash { node: node.clone() }.into(),
                });
                if r.chance(0.8) {
                    s.faults.push(Scheduled {
                        at_us: at + r.range_inclusive(1, 1_500) * 1_000,
                        fault: Fault::Restart { node }.into(),
                    });
                }
            }
            1 if faults.pause => s.faults.push(Scheduled {
                at_us: at,
                fault: Fault::Pause {
                    node: name(&mut r),
                    for_us: r.range_inclusive(10, 2_000) * 1_000,
                }
                .into(),
            }),
            2 if faults.partition => {
                let mut a = Vec::new();
                let mut b = Vec::new();
                for i in 0..n {
                    if r.chance(0.5) {
                        a.push(GREEK[i].to_string())
                    } else {
                        b.push(GREEK[i].to_string())
                    }
                }
                if a.is_empty() || b.is_empty() {
                    continue;
                }
                s.faults.push(Scheduled {
                    at_us: at,
                    fault: Fault::Partition {
                        groups: vec![a, b],
                        oneway: r.chance(0.25),
                    }
                    .into(),
                });
                s.faults.push(Scheduled {
                    at_us: at + r.range_inclusive(50, 2_000) * 1_000,
                    fault: Fault::Heal.into(),
                });
            }
            3 if faults.drift => s.faults.push(Scheduled {
                at_us: at,
                fault: Fault::SetDrift {
                    node: name(&mut r),
                    ppm: r.range_inclusive(0, 100_000) as i64 - 50_000,
                }
                .into(),
            }),
            _ => {}
        }
    }
    s.faults.sort_by_key(|f| f.at_us);
    s.stop_at_us = 6_000_000;
    s
}

/// Run `schedules` random schedules from `seed`, stopping at the first
/// violation if `stop_at_first`.
pub fn check(
    generate: impl Fn(u64) -> Scenario,
    seed: u64,
    schedules: u64,
    stop_at_first: bool,
) -> Report {
    check_for(generate, seed, schedules, None, stop_at_first)
}

/// The same, counting only schedules that break `want` (when given): a
/// mutation is caught when the rule it is meant to break breaks, not when
/// some side rule does.
pub fn check_for(
    generate: impl Fn(u64) -> Scenario,
    seed: u64,
    schedules: u64,
    want: Option<super::Invariant>,
    stop_at_first: bool,
) -> Report {
    let mut rep = Report::default();
    for i in 0..schedules {
        let sched_seed = seed.wrapping_add(i);
        let scenario = generate(sched_seed);
        let Ok(sim) = Run::execute(&scenario) else {
            continue; // generators only make valid scenarios; skip defensively
        };
        rep.schedules += 1;
        rep.steps += sim.steps();
        let m = sim.monitors();
        if m.paxos.as_ref().is_some_and(|p| !p.chosen.is_empty())
            || m.commit.as_ref().is_some_and(|c| c.all_decided().is_some())
            || m.multipaxos
                .as_ref()
                .is_some_and(|mp| !mp.chosen.is_empty())
        {
            rep.decided += 1;
        }
        let hit = match want {
            None => m.violations > 0,
            Some(inv) => m.broken().contains(&inv),
        };
        if hit {
            rep.violating += 1;
            if rep.first.is_none() {
                rep.first = Some(locate(sched_seed, &scenario, want));
            }
            if stop_at_first {
                break;
            }
        }
    }
    rep
}

/// Re-run a failing schedule with the trace on to find where it broke (where
/// `want` broke, when given).
fn locate(seed: u64, scenario: &Scenario, want: Option<super::Invariant>) -> Failure {
    let run = Run::record(scenario).expect("the scenario ran once already");
    let (mut step, mut seq, mut t_us, mut invariant, mut detail) =
        (0, 0, 0, super::Invariant::Agreement, String::new());
    // Map trace positions to simulator steps through the checkpoints.
    let wanted = |e: &&crate::trace::TraceEvent| match &e.kind {
        EventKind::Violation { invariant, .. } => want.is_none_or(|w| w == *invariant),
        _ => false,
    };
    if let Some(e) = run.trace.iter().find(wanted) {
        if let EventKind::Violation {
            invariant: inv,
            detail: d,
        } = &e.kind
        {
            invariant = *inv;
            detail = d.clone();
        }
        seq = e.seq;
        t_us = e.t.0;
        let cp = run
            .checkpoints
            .partition_point(|c| c.trace_len <= e.seq as usize)
            .saturating_sub(1);
        let mut sim = run.checkpoints[cp].sim.clone();
        let mut emitted = run.checkpoints[cp].trace_len as u64;
        sim.set_recording(false);
        while emitted <= e.seq && sim.step() {
            emitted = sim.events_emitted();
        }
        step = sim.steps();
    }
    Failure {
        seed,
        step,
        seq,
        t_us,
        invariant,
        detail,
        scenario: scenario.clone(),
    }
}
