//! Lessons are data: a list of steps, each opening a scenario at a moment
//! (or a figure, the ballot explorer, the latency table) — and, kept apart in
//! `i18n::{en,ja}::lessons`, the words of each step in each language. The
//! lesson player reads both; nothing about a lesson is a code path.
//!
//! The roadmap follows the seminar outline (`seeds/004_…`): why consensus
//! still matters (its Part 0), why the network
//! is different, the parliament, ballots and B1–B3, the phases, fault
//! tolerance, dueling proposers, Multi-Paxos and the master lease, where
//! Paxos lives (its Part 2), leases and two masters, commit — and then
//! the article (`seeds/000_…`): the lease loop is not a chat completion.

use crate::check::Mutation;
use crate::protocol::paxos::PaxosMutation;

/// A static drawing a step may show.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    /// The seminar's SEQ → MT → MP → MM → MMU steps, with what each loses and gains.
    Progression,
    /// The allegory mapped to systems: legislator ↔ process, ink ↔ stable storage …
    Island,
    /// What two-phase commit and Paxos Commit cost, measured from runs of 5
    /// RMs and F = 1, beside Gray and Lamport's formulas.
    CommitCosts,
    /// The boring lease loop next to the loop with an LLM inside.
    LeaseLoop,
}

/// What a step puts on stage.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Words only (and maybe a figure).
    Read { figure: Option<Figure> },
    /// A built-in scenario, paused at `at_us`; the learner plays it.
    Watch { scenario: &'static str, at_us: u64, mutation: Option<Mutation> },
    /// The same with every control unlocked: free play from that moment.
    Try { scenario: &'static str, at_us: u64 },
    /// A built-in transaction and, beside it, the same under the other
    /// commit protocol, on one time cursor, paused at `at_us`.
    Compare { scenario: &'static str, at_us: u64 },
    /// A question answered *before* the run reveals it. The run waits at
    /// `at_us`; once the learner has answered, it plays to `reveal_us` and the
    /// explanation appears. `answer` is the index of the right option.
    Predict { scenario: &'static str, at_us: u64, reveal_us: u64, options: u8, answer: u8 },
    /// The editable ballot explorer, loaded with Lamport's Figure 1.
    Ballots,
    /// The "1 ns = 1 s" table with its slider.
    Latency,
}

impl Stage {
    pub fn scenario(&self) -> Option<&'static str> {
        match *self {
            Stage::Watch { scenario, .. }
            | Stage::Try { scenario, .. }
            | Stage::Compare { scenario, .. }
            | Stage::Predict { scenario, .. } => Some(scenario),
            _ => None,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LessonDef {
    pub id: &'static str,
    pub steps: &'static [Stage],
}

const fn read() -> Stage {
    Stage::Read { figure: None }
}
const fn fig(f: Figure) -> Stage {
    Stage::Read { figure: Some(f) }
}
const fn watch(scenario: &'static str, at_us: u64) -> Stage {
    Stage::Watch { scenario, at_us, mutation: None }
}

/// Every lesson, in teaching order.
pub const LESSONS: &[LessonDef] = &[
    // The seminar's Part 0: why consensus still matters, ending in a run
    // without it (each side of a partition decides alone: two laws).
    LessonDef {
        id: "why-paxos",
        steps: &[
            read(),
            read(),
            Stage::Watch { scenario: "partition-heal", at_us: 0, mutation: Some(Mutation::Paxos(PaxosMutation::MinorityQuorum)) },
        ],
    },
    LessonDef {
        id: "latency",
        steps: &[read(), Stage::Latency, read()],
    },
    LessonDef {
        id: "network",
        steps: &[read(), fig(Figure::Progression), watch("lossy", 0), read()],
    },
    LessonDef {
        id: "parliament",
        steps: &[fig(Figure::Island), watch("calm", 0), Stage::Try { scenario: "calm", at_us: 0 }, watch("restart", 0)],
    },
    LessonDef {
        id: "ballots",
        steps: &[read(), Stage::Ballots, read()],
    },
    LessonDef {
        id: "phases",
        steps: &[
            // The cast first: proposer, acceptor, learner, and P1–P3.
            watch("calm", 0),
            watch("calm", 0),
            watch("calm", 185_300),
            Stage::Predict { scenario: "forced", at_us: 1_600_000, reveal_us: 1_900_000, options: 3, answer: 1 },
            Stage::Watch { scenario: "forced", at_us: 0, mutation: Some(Mutation::Paxos(PaxosMutation::SkipB3)) },
        ],
    },
    LessonDef {
        id: "fault-tolerance",
        steps: &[
            watch("crash-f", 0),
            Stage::Predict { scenario: "crash-f-plus-1", at_us: 0, reveal_us: 8_000_000, options: 3, answer: 1 },
            watch("partition-heal", 0),
        ],
    },
    LessonDef {
        id: "dueling",
        steps: &[watch("dueling", 0), watch("dueling-backoff", 0), watch("dueling-leader", 0), read()],
    },
    LessonDef {
        id: "multi-paxos",
        steps: &[
            watch("multi-calm", 0),
            // Α crashed at 215 ms with three slots in flight.
            Stage::Predict { scenario: "multi-leader-crash", at_us: 300_000, reveal_us: 1_250_000, options: 3, answer: 1 },
            watch("multi-catch-up", 0),
        ],
    },
    LessonDef {
        id: "master-lease",
        steps: &[
            // Β leads since 1.15 s and C2 wrote x = 2 through it at 1.84 s.
            Stage::Predict { scenario: "two-masters", at_us: 2_150_000, reveal_us: 2_225_000, options: 3, answer: 1 },
            Stage::Predict { scenario: "master-lease", at_us: 2_150_000, reveal_us: 3_745_000, options: 3, answer: 1 },
            Stage::Watch {
                scenario: "master-lease",
                at_us: 0,
                mutation: Some(Mutation::Multipaxos(crate::protocol::multipaxos::MpMutation::NoLeaseWait)),
            },
        ],
    },
    // The seminar's Part 2 (where Paxos lives), bridging to Part 3's cast.
    // What runs is the core of a Chubby cell, a Multi-Paxos group with a
    // master lease; sessions, KeepAlives and sequencers are told, not run
    // (the lease lab's fencing token stands in for the sequencer).
    LessonDef {
        id: "where-paxos-lives",
        steps: &[
            read(),
            watch("multi-calm", 0),
            // Five replicas; the master Α crashed at 215 ms, and the promises
            // its last heartbeat won (received at 130 ms) last until 1.13 s:
            // Β (0.82 s) and Γ (1.02 s) are refused, Δ is elected at 1.24 s
            // and holds the lease from 1.26 s.
            Stage::Predict { scenario: "multi-leader-crash", at_us: 800_000, reveal_us: 1_280_000, options: 3, answer: 1 },
            read(),
            watch("kleppmann", 0),
            read(),
        ],
    },
    LessonDef {
        id: "two-masters",
        steps: &[
            read(),
            Stage::Predict { scenario: "kleppmann", at_us: 10_900_000, reveal_us: 11_300_000, options: 3, answer: 1 },
            watch("clock-drift", 0),
            read(),
        ],
    },
    LessonDef {
        id: "commit",
        steps: &[
            watch("commit-2pc", 0),
            // The TM's node crashed at 140 ms; the RMs have prepared.
            Stage::Predict { scenario: "commit-2pc-tm-crash", at_us: 150_000, reveal_us: 3_110_000, options: 3, answer: 2 },
            watch("commit-paxos", 0),
            Stage::Predict { scenario: "commit-paxos-tm-crash", at_us: 150_000, reveal_us: 1_700_000, options: 3, answer: 1 },
            Stage::Compare { scenario: "commit-paxos-f0", at_us: 0 },
            fig(Figure::CommitCosts),
        ],
    },
    LessonDef {
        id: "llm-lease",
        steps: &[
            fig(Figure::LeaseLoop),
            Stage::Predict { scenario: "llm-in-loop", at_us: 6_000_000, reveal_us: 20_000_000, options: 3, answer: 2 },
            watch("llm-in-loop-unfenced", 0),
            read(),
            // The other two objections, each alone: non-determinism, authority.
            watch("llm-flaky", 0),
            watch("llm-throttled", 0),
            watch("llm-beside", 0),
            watch("llm-outage-drill", 0),
            // Red flags 2 and 3: the article's cadence, a stretched TTL.
            watch("llm-article-cadence", 0),
            watch("llm-ttl-stretched", 0),
            read(),
        ],
    },
];

pub fn find(id: &str) -> Option<&'static LessonDef> {
    LESSONS.iter().find(|l| l.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::builtin;

    #[test]
    fn every_step_names_a_real_scenario_and_a_moment_inside_it() {
        for l in LESSONS {
            for s in l.steps {
                let Some(name) = s.scenario() else { continue };
                let sc = builtin::get(name).unwrap_or_else(|| panic!("{}: no scenario {name}", l.id));
                let (at, reveal) = match *s {
                    Stage::Watch { at_us, .. } | Stage::Try { at_us, .. } | Stage::Compare { at_us, .. } => (at_us, at_us),
                    Stage::Predict { at_us, reveal_us, options, answer, .. } => {
                        assert!(answer < options, "{}: the answer is not one of the options", l.id);
                        assert!(reveal_us > at_us, "{}: the reveal must come after the question", l.id);
                        (at_us, reveal_us)
                    }
                    _ => unreachable!(),
                };
                // Not the scenario's stop time: the moment its run really ends
                // (a run with nothing left to do ends early, and a question
                // waiting past it would never be explained).
                let end = crate::scenario::run::Run::record(&sc).expect("built-ins run").end.0;
                assert!(at < end && reveal <= end, "{}: {name} ends at {end} µs, the step needs {at}…{reveal}", l.id);
            }
        }
    }

    /// "Where Paxos lives", the master dies: what the run shows by the reveal
    /// is the answer. Every candidate is refused while the promises to the
    /// dead master last (until 1.13 s), and the one election after the
    /// question comes after them and before the reveal.
    #[test]
    fn where_paxos_lives_the_new_master_waits_for_the_promises() {
        use crate::protocol::multipaxos::MpNote;
        use crate::protocol::Note;
        use crate::sim::EventKind;
        let l = find("where-paxos-lives").expect("the lesson");
        let Some(&Stage::Predict { scenario, at_us, reveal_us, answer, .. }) = l.steps.iter().find(|s| matches!(s, Stage::Predict { .. })) else {
            panic!("no question")
        };
        assert_eq!((scenario, answer), ("multi-leader-crash", 1));
        let run = crate::scenario::run::Run::record(&builtin::get(scenario).unwrap()).unwrap();
        let (mut refused, mut elected) = (Vec::new(), Vec::new());
        for e in &run.trace {
            match &e.kind {
                EventKind::Note(Note::Multipaxos(MpNote::LeaseRefused { .. })) => refused.push(e.t.0),
                EventKind::Note(Note::Multipaxos(MpNote::Elected { .. })) if e.t.0 > at_us => elected.push(e.t.0),
                _ => {}
            }
        }
        assert!(!refused.is_empty() && refused.iter().all(|&t| t > at_us && t < 1_130_000), "refusals at {refused:?}");
        assert_eq!(elected.len(), 1, "elections after the question: {elected:?}");
        assert!(elected[0] > 1_130_000 && elected[0] <= reveal_us, "elected at {} µs", elected[0]);
    }
}
