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
    Watch {
        scenario: &'static str,
        at_us: u64,
        mutation: Option<Mutation>,
    },
    /// The same with every control unlocked: free play from that moment.
    Try { scenario: &'static str, at_us: u64 },
    /// A built-in transaction and, beside it, the same under the other
    /// commit protocol, on one time cursor, paused at `at_us`.
    Compare { scenario: &'static str, at_us: u64 },
    /// A question answered *before* the run reveals it. The run waits at
    /// `at_us`; once the learner has answered, it plays to `reveal_us` and the
    /// explanation appears. `answer` is the index of the right option.
    Predict {
        scenario: &'static str,
        at_us: u64,
        reveal_us: u64,
        options: u8,
        answer: u8,
    },
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
    Stage::Watch {
        scenario,
        at_us,
        mutation: None,
    }
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
            // The cut first with Paxos's rule: only the side of three decides.
            Stage::Predict {
                scenario: "partition-heal",
                at_us: 500_000,
                reveal_us: 2_600_000,
                options: 3,
                answer: 2,
            },
            Stage::Watch {
                scenario: "partition-heal",
                at_us: 0,
                mutation: Some(Mutation::Paxos(PaxosMutation::MinorityQuorum)),
            },
        ],
    },
    LessonDef {
        id: "latency",
        steps: &[
            read(),
            Stage::Latency,
            // What one decree costs: Α knows α passed after two round trips.
            Stage::Predict {
                scenario: "calm",
                at_us: 0,
                reveal_us: 370_000,
                options: 3,
                answer: 1,
            },
            read(),
        ],
    },
    LessonDef {
        id: "network",
        steps: &[
            read(),
            fig(Figure::Progression),
            // Lost, duplicated, overtaken: α still passes, and nothing else.
            Stage::Predict {
                scenario: "lossy",
                at_us: 150_000,
                reveal_us: 520_000,
                options: 3,
                answer: 0,
            },
            read(),
        ],
    },
    LessonDef {
        id: "parliament",
        steps: &[
            fig(Figure::Island),
            watch("calm", 0),
            Stage::Try {
                scenario: "calm",
                at_us: 0,
            },
            // Γ and Δ came back at 1.2 s; Β, who wants β, has just asked for promises.
            Stage::Predict {
                scenario: "restart",
                at_us: 1_550_000,
                reveal_us: 1_950_000,
                options: 3,
                answer: 2,
            },
        ],
    },
    LessonDef {
        id: "ballots",
        steps: &[
            read(),
            Stage::Ballots,
            read(),
            // The Lemma in a run: after the heal, Α's ballot (3,Α) is forced to ε.
            Stage::Predict {
                scenario: "partition-heal",
                at_us: 5_300_000,
                reveal_us: 5_640_000,
                options: 3,
                answer: 0,
            },
        ],
    },
    LessonDef {
        id: "phases",
        steps: &[
            // The cast first: proposer, acceptor, learner, and P1–P3.
            watch("calm", 0),
            watch("calm", 0),
            watch("calm", 185_300),
            Stage::Predict {
                scenario: "forced",
                at_us: 1_600_000,
                reveal_us: 1_900_000,
                options: 3,
                answer: 1,
            },
            Stage::Watch {
                scenario: "forced",
                at_us: 0,
                mutation: Some(Mutation::Paxos(PaxosMutation::SkipB3)),
            },
        ],
    },
    LessonDef {
        id: "fault-tolerance",
        steps: &[
            watch("crash-f", 0),
            Stage::Predict {
                scenario: "crash-f-plus-1",
                at_us: 0,
                reveal_us: 8_000_000,
                options: 3,
                answer: 1,
            },
            watch("partition-heal", 0),
        ],
    },
    LessonDef {
        id: "dueling",
        steps: &[
            // Α was pre-empted at 150 ms and started (2,Α) at once.
            Stage::Predict {
                scenario: "dueling",
                at_us: 200_000,
                reveal_us: 6_000_000,
                options: 3,
                answer: 1,
            },
            watch("dueling-backoff", 0),
            watch("dueling-leader", 0),
            read(),
        ],
    },
    LessonDef {
        id: "multi-paxos",
        steps: &[
            watch("multi-calm", 0),
            // Α crashed at 215 ms with three slots in flight.
            Stage::Predict {
                scenario: "multi-leader-crash",
                at_us: 300_000,
                reveal_us: 1_250_000,
                options: 3,
                answer: 1,
            },
            watch("multi-catch-up", 0),
        ],
    },
    LessonDef {
        id: "master-lease",
        steps: &[
            // Β leads since 1.15 s and C2 wrote x = 2 through it at 1.84 s.
            Stage::Predict {
                scenario: "two-masters",
                at_us: 2_150_000,
                reveal_us: 2_225_000,
                options: 3,
                answer: 1,
            },
            Stage::Predict {
                scenario: "master-lease",
                at_us: 2_150_000,
                reveal_us: 3_745_000,
                options: 3,
                answer: 1,
            },
            Stage::Watch {
                scenario: "master-lease",
                at_us: 0,
                mutation: Some(Mutation::Multipaxos(
                    crate::protocol::multipaxos::MpMutation::NoLeaseWait,
                )),
            },
        ],
    },
    // The seminar's Part 2 (where Paxos lives), bridging to Part 3's cast.
    // What runs is a small Chubby cell: a Multi-Paxos group with a master
    // lease, client sessions kept alive, and a file server checking sequencers.
    LessonDef {
        id: "where-paxos-lives",
        steps: &[
            read(),
            watch("multi-calm", 0),
            // Five replicas; the master Α crashed at 215 ms, and the promises
            // its last heartbeat won (received at 130 ms) last until 1.13 s:
            // Β (0.82 s) and Γ (1.02 s) are refused, Δ is elected at 1.24 s
            // and holds the lease from 1.26 s.
            Stage::Predict {
                scenario: "multi-leader-crash",
                at_us: 800_000,
                reveal_us: 1_280_000,
                options: 3,
                answer: 1,
            },
            watch("chubby-failover", 0),
            // C1 woke at 3.9 s and sent its write with generation 1; F's
            // verdict comes at 3.93 s, C2's write passes at 4.53 s.
            Stage::Predict {
                scenario: "chubby-sequencer",
                at_us: 3_905_000,
                reveal_us: 4_600_000,
                options: 3,
                answer: 1,
            },
            // The lease lab's store as such a group: its master S1 crashed at
            // 4 s; W2's renewal at 5.2 s, through the new master S2, is the answer.
            Stage::Predict {
                scenario: "replicated-store",
                at_us: 4_050_000,
                reveal_us: 5_300_000,
                options: 3,
                answer: 1,
            },
            read(),
        ],
    },
    LessonDef {
        id: "two-masters",
        steps: &[
            read(),
            Stage::Predict {
                scenario: "kleppmann",
                at_us: 10_900_000,
                reveal_us: 11_300_000,
                options: 3,
                answer: 1,
            },
            watch("clock-drift", 0),
            read(),
        ],
    },
    LessonDef {
        id: "commit",
        steps: &[
            watch("commit-2pc", 0),
            // The TM's node crashed at 140 ms; the RMs have prepared.
            Stage::Predict {
                scenario: "commit-2pc-tm-crash",
                at_us: 150_000,
                reveal_us: 3_110_000,
                options: 3,
                answer: 2,
            },
            watch("commit-paxos", 0),
            Stage::Predict {
                scenario: "commit-paxos-tm-crash",
                at_us: 150_000,
                reveal_us: 1_700_000,
                options: 3,
                answer: 1,
            },
            Stage::Compare {
                scenario: "commit-paxos-f0",
                at_us: 0,
            },
            fig(Figure::CommitCosts),
        ],
    },
    LessonDef {
        id: "llm-lease",
        steps: &[
            fig(Figure::LeaseLoop),
            Stage::Predict {
                scenario: "llm-in-loop",
                at_us: 6_000_000,
                reveal_us: 20_000_000,
                options: 3,
                answer: 2,
            },
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
    use crate::protocol::paxos::{Choice, Members, PaxosMsg, PaxosNote};
    use crate::protocol::{Msg, Note};
    use crate::scenario::builtin;
    use crate::scenario::run::Run;
    use crate::sim::{fault::Fault, NodeId};
    use crate::trace::EventKind;

    #[test]
    fn every_step_names_a_real_scenario_and_a_moment_inside_it() {
        for l in LESSONS {
            for s in l.steps {
                let Some(name) = s.scenario() else { continue };
                let sc =
                    builtin::get(name).unwrap_or_else(|| panic!("{}: no scenario {name}", l.id));
                let (at, reveal) = match *s {
                    Stage::Watch { at_us, .. }
                    | Stage::Try { at_us, .. }
                    | Stage::Compare { at_us, .. } => (at_us, at_us),
                    Stage::Predict {
                        at_us,
                        reveal_us,
                        options,
                        answer,
                        ..
                    } => {
                        assert!(
                            answer < options,
                            "{}: the answer is not one of the options",
                            l.id
                        );
                        assert!(
                            reveal_us > at_us,
                            "{}: the reveal must come after the question",
                            l.id
                        );
                        (at_us, reveal_us)
                    }
                    _ => unreachable!(),
                };
                // Not the scenario's stop time: the moment its run really ends
                // (a run with nothing left to do ends early, and a question
                // waiting past it would never be explained).
                let end = Run::record(&sc).expect("built-ins run").end.0;
                assert!(
                    at < end && reveal <= end,
                    "{}: {name} ends at {end} µs, the step needs {at}…{reveal}",
                    l.id
                );
            }
        }
    }

    /// A lesson's one question about `scenario`, checked to have the right
    /// answer at `answer`, and a replay of its run: (at, reveal, run). What
    /// the run shows is then the answer, not a hard-coded index.
    fn question(id: &str, scenario: &str, answer: u8) -> (u64, u64, Run) {
        let l = find(id).expect("the lesson");
        let mut asked = l.steps.iter().filter_map(|s| match *s {
            Stage::Predict {
                scenario: sc,
                at_us,
                reveal_us,
                answer,
                ..
            } if sc == scenario => Some((at_us, reveal_us, answer)),
            _ => None,
        });
        let (at, reveal, right) = asked
            .next()
            .unwrap_or_else(|| panic!("{id}: no question about {scenario}"));
        assert!(
            asked.next().is_none(),
            "{id}: more than one question about {scenario}"
        );
        assert_eq!(right, answer, "{id}: the question's answer");
        (
            at,
            reveal,
            Run::record(&builtin::get(scenario).unwrap()).unwrap(),
        )
    }

    fn name(run: &Run, n: NodeId) -> &str {
        run.names.get(n.index()).map_or("net", |s| s.as_str())
    }

    fn who(run: &Run, m: Members) -> Vec<&str> {
        m.iter().map(|n| name(run, n)).collect()
    }

    /// The Synod's facts of a run: (time, legislator, fact).
    fn notes(run: &Run) -> Vec<(u64, &str, &PaxosNote)> {
        run.trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Note(Note::Paxos(n)) => Some((e.t.0, name(run, e.node), n)),
                _ => None,
            })
            .collect()
    }

    /// "Why Paxos", the cut under Paxos's rule: before the heal only the side
    /// of three decides (ε, at 900 ms), and Α, two ballots started with only
    /// Β answering, never asks anyone to vote.
    #[test]
    fn why_paxos_only_the_majority_side_of_the_cut_decides() {
        let (at, reveal, run) = question("why-paxos", "partition-heal", 2);
        let heal = run
            .trace
            .iter()
            .find(|e| matches!(e.kind, EventKind::Fault { fault: Fault::Heal }))
            .unwrap()
            .t
            .0;
        assert!(
            reveal < heal,
            "the reveal comes before the heal at {heal} µs"
        );
        let notes: Vec<_> = notes(&run)
            .into_iter()
            .filter(|&(t, ..)| t <= reveal)
            .collect();
        let chosen: Vec<_> = notes
            .iter()
            .filter_map(|&(t, _, n)| match n {
                PaxosNote::Chosen { value, members, .. } => {
                    Some((t / 1000, value.to_string(), who(&run, *members)))
                }
                _ => None,
            })
            .collect();
        assert!(at < 900_000);
        assert_eq!(chosen, [(900, "ε".to_string(), vec!["Γ", "Δ", "Ε"])]);
        let learned: Vec<_> = notes
            .iter()
            .filter(|(.., n)| matches!(n, PaxosNote::Learned { .. }))
            .map(|&(_, w, _)| w)
            .collect();
        assert_eq!(learned, ["Ε", "Δ", "Γ"]);
        let alpha =
            |f: fn(&PaxosNote) -> bool| notes.iter().filter(|&&(_, w, n)| w == "Α" && f(n)).count();
        assert_eq!(alpha(|n| matches!(n, PaxosNote::BallotStarted { .. })), 2);
        assert_eq!(
            alpha(|n| matches!(n, PaxosNote::ValuePicked { .. })),
            0,
            "Α asked for votes"
        );
    }

    /// "1 ns = 1 s", what one decree costs: Α's promises are in at 185 ms,
    /// α is chosen at 300 ms and Α knows at 368 ms; before it knows, it has
    /// sent the others two kinds of request, each answered: two round trips.
    #[test]
    fn latency_the_proposer_knows_its_decree_passed_after_two_round_trips() {
        let (at, reveal, run) = question("latency", "calm", 1);
        let notes = notes(&run);
        let first = |f: fn(&PaxosNote) -> bool| {
            notes
                .iter()
                .find(|(.., n)| f(n))
                .map(|&(t, w, _)| (t, w))
                .unwrap()
        };
        let promised = first(|n| matches!(n, PaxosNote::PromiseQuorum { .. }));
        let chosen = first(|n| matches!(n, PaxosNote::Chosen { .. }));
        let knows = first(|n| matches!(n, PaxosNote::AcceptedQuorum { .. }));
        assert_eq!((promised.1, knows.1), ("Α", "Α"));
        assert_eq!(
            (promised.0 / 1000, chosen.0 / 1000, knows.0 / 1000),
            (185, 300, 368)
        );
        assert!(at < promised.0 && knows.0 <= reveal);
        let asked: std::collections::BTreeSet<_> = run
            .trace
            .iter()
            .filter(|e| e.t.0 < knows.0 && name(&run, e.node) == "Α")
            .filter_map(|e| match &e.kind {
                EventKind::Send {
                    to,
                    msg: Msg::Paxos(m),
                    ..
                } if name(&run, *to) != "Α" => Some(m.type_name()),
                _ => None,
            })
            .collect();
        assert_eq!(asked, ["accept", "prepare"].into());
    }

    /// "Why the network is different", the lossy run: no messenger is lost by
    /// the question; by the reveal some are, α alone is chosen, four ledgers
    /// hold it and Β's stays blank to the end; Γ never asks for a vote.
    #[test]
    fn network_only_alpha_passes_on_the_lossy_network() {
        let (at, reveal, run) = question("network", "lossy", 0);
        let count = |until: u64, f: fn(&EventKind) -> bool| {
            run.trace
                .iter()
                .filter(|e| e.t.0 <= until && f(&e.kind))
                .count()
        };
        assert_eq!(
            count(at, |k| matches!(
                k,
                EventKind::Drop { .. } | EventKind::Duplicate { .. }
            )),
            0
        );
        assert!(
            count(reveal, |k| matches!(k, EventKind::Drop { .. })) > 0
                && count(reveal, |k| matches!(k, EventKind::Duplicate { .. })) > 0
        );
        let s = run.summary();
        assert!(s.decided_at_us.is_some_and(|t| t > at && t <= reveal));
        assert!(
            !s.chosen.is_empty() && s.chosen.iter().all(|v| v == "α"),
            "chosen: {:?}",
            s.chosen
        );
        let mut learned: Vec<_> = s
            .learned
            .iter()
            .map(|(w, v, t)| (w.as_str(), v.as_str(), *t <= reveal))
            .collect();
        learned.sort();
        assert_eq!(
            learned,
            [
                ("Α", "α", true),
                ("Γ", "α", true),
                ("Δ", "α", true),
                ("Ε", "α", true)
            ]
        );
        assert!(!notes(&run)
            .iter()
            .any(|&(_, w, n)| w == "Γ" && matches!(n, PaxosNote::ValuePicked { .. })));
    }

    /// "The Paxos parliament", back from a crash: Γ and Δ came back at 1.2 s,
    /// before the question; their promises to Β report the vote for α, so Β
    /// is forced to α; nothing but α is ever chosen, and Β and Ε learn it.
    #[test]
    fn parliament_legislators_back_from_a_crash_still_report_their_votes() {
        let (at, reveal, run) = question("parliament", "restart", 2);
        let back: Vec<_> = run
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Fault {
                    fault: Fault::Restart { node },
                } => Some((e.t.0, name(&run, *node))),
                _ => None,
            })
            .collect();
        assert_eq!(back, [(1_200_000, "Γ"), (1_200_000, "Δ")]);
        assert!(back[0].0 < at);
        let mut reports: Vec<_> = run
            .trace
            .iter()
            .filter(|e| e.t.0 > at && e.t.0 <= reveal && ["Γ", "Δ"].contains(&name(&run, e.node)))
            .filter_map(|e| match &e.kind {
                EventKind::Send {
                    to,
                    msg: Msg::Paxos(PaxosMsg::Promise { last_vote, .. }),
                    ..
                } if name(&run, *to) == "Β" => {
                    Some((name(&run, e.node), last_vote.map(|v| v.value.to_string())))
                }
                _ => None,
            })
            .collect();
        reports.sort();
        assert_eq!(reports, [("Γ", Some("α".into())), ("Δ", Some("α".into()))]);
        let picked: Vec<_> = notes(&run)
            .into_iter()
            .filter_map(|(t, w, n)| match n {
                PaxosNote::ValuePicked { value, choice, .. } if w == "Β" => Some((
                    t,
                    value.to_string(),
                    matches!(choice, Choice::Forced { .. }),
                )),
                _ => None,
            })
            .collect();
        assert_eq!(picked.len(), 1);
        assert!(picked[0].0 > at && picked[0].0 <= reveal);
        assert_eq!((picked[0].1.as_str(), picked[0].2), ("α", true));
        let s = run.summary();
        assert!(s.chosen.iter().all(|v| v == "α") && s.learned.iter().all(|l| l.1 == "α"));
        assert!(["Β", "Ε"]
            .iter()
            .all(|w| s.learned.iter().any(|l| l.0 == *w && l.2 <= reveal)));
    }

    /// "Ballots and B1–B3", the Lemma in a run: (1,Ε) succeeded with ε before
    /// the question and Α's ballot (3,Α) had started with no vote reported
    /// yet; its quorum then meets (1,Ε)'s (B2) and B3 forces it to ε.
    #[test]
    fn ballots_after_the_heal_the_lemma_forces_the_new_ballot_to_epsilon() {
        let (at, reveal, run) = question("ballots", "partition-heal", 0);
        let notes = notes(&run);
        let succeeded: Vec<_> = notes
            .iter()
            .filter_map(|&(t, _, n)| match n {
                PaxosNote::Chosen {
                    ballot,
                    value,
                    members,
                } => Some((t, *ballot, value.to_string(), who(&run, *members))),
                _ => None,
            })
            .collect();
        assert_eq!(succeeded.len(), 1);
        let (t, first, ref value, ref quorum) = succeeded[0];
        assert!(
            t < at
                && first.round == 1
                && name(&run, first.node) == "Ε"
                && value == "ε"
                && *quorum == ["Γ", "Δ", "Ε"]
        );
        let third = notes.iter().find_map(|&(t, w, n)| match n {
            PaxosNote::BallotStarted { ballot } if w == "Α" && ballot.round == 3 => {
                Some((t, *ballot))
            }
            _ => None,
        });
        let (started, third) = third.expect("Α's third ballot");
        assert!(started < at);
        let votes_to_alpha = run
            .trace
            .iter()
            .filter(|e| e.t.0 <= at)
            .any(|e| match &e.kind {
                EventKind::Send {
                    to,
                    msg:
                        Msg::Paxos(PaxosMsg::Promise {
                            last_vote: Some(_), ..
                        }),
                    ..
                } => name(&run, *to) == "Α",
                _ => false,
            });
        assert!(
            !votes_to_alpha,
            "a vote was reported to Α before the question"
        );
        let quorum = notes.iter().find_map(|&(t, _, n)| match n {
            PaxosNote::PromiseQuorum { ballot, members } if *ballot == third => {
                Some((t, who(&run, *members)))
            }
            _ => None,
        });
        let (t, quorum) = quorum.expect("a quorum for (3,Α)");
        assert!(
            t > at && quorum.iter().any(|w| ["Γ", "Δ", "Ε"].contains(w)),
            "{quorum:?}"
        );
        let picked = notes.iter().find_map(|&(t, _, n)| match n {
            PaxosNote::ValuePicked {
                ballot,
                value,
                choice: Choice::Forced { by, .. },
            } if *ballot == third => Some((t, value.to_string(), *by)),
            _ => None,
        });
        assert_eq!(
            picked.map(|(t, v, by)| (t <= reveal, v, by)),
            Some((true, "ε".into(), first))
        );
        let s = run.summary();
        assert!(["Α", "Β"].iter().all(|w| s
            .learned
            .iter()
            .any(|l| l.0 == *w && l.1 == "ε" && l.2 <= reveal)));
    }

    /// "Dueling proposers": one pre-emption before the question (Α's, at
    /// 150 ms); then, to the end of the run, 61 ballots and not one quorum
    /// of promises, so no vote and no decree — and no broken rule.
    #[test]
    fn dueling_the_duel_passes_nothing_in_the_whole_run() {
        let (at, reveal, run) = question("dueling", "dueling", 1);
        assert_eq!(reveal, run.end.0, "the answer is the whole run");
        let notes = notes(&run);
        let early: Vec<_> = notes
            .iter()
            .filter(|&&(t, _, n)| t <= at && matches!(n, PaxosNote::Preempted { .. }))
            .map(|&(t, w, _)| (t, w))
            .collect();
        assert_eq!(early, [(150_000, "Α")]);
        assert!(!notes.iter().any(|(.., n)| matches!(
            n,
            PaxosNote::PromiseQuorum { .. }
                | PaxosNote::ValuePicked { .. }
                | PaxosNote::Chosen { .. }
                | PaxosNote::Learned { .. }
        )));
        let s = run.summary();
        assert_eq!(s.ballots_started, 61);
        assert!(s.violations.is_empty());
    }

    /// "Where Paxos lives", the master dies: what the run shows by the reveal
    /// is the answer. Every candidate is refused while the promises to the
    /// dead master last (until 1.13 s), and the one election after the
    /// question comes after them and before the reveal.
    #[test]
    fn where_paxos_lives_the_new_master_waits_for_the_promises() {
        use crate::protocol::multipaxos::MpNote;
        let (at_us, reveal_us, run) = question("where-paxos-lives", "multi-leader-crash", 1);
        let (mut refused, mut elected) = (Vec::new(), Vec::new());
        for e in &run.trace {
            match &e.kind {
                EventKind::Note(Note::Multipaxos(MpNote::LeaseRefused { .. })) => {
                    refused.push(e.t.0)
                }
                EventKind::Note(Note::Multipaxos(MpNote::Elected { .. })) if e.t.0 > at_us => {
                    elected.push(e.t.0)
                }
                _ => {}
            }
        }
        assert!(
            !refused.is_empty() && refused.iter().all(|&t| t > at_us && t < 1_130_000),
            "refusals at {refused:?}"
        );
        assert_eq!(
            elected.len(),
            1,
            "elections after the question: {elected:?}"
        );
        assert!(
            elected[0] > 1_130_000 && elected[0] <= reveal_us,
            "elected at {} µs",
            elected[0]
        );
    }

    /// "Where Paxos lives", the store as a Paxos group: when the question is
    /// asked S1, the master, has crashed and W2 holds epoch 33; by the reveal
    /// the replicas have refused candidates under S1's master lease, another
    /// replica has been elected after the last refusal, and it has renewed
    /// W2's epoch 33 — W2 never stopped believing.
    #[test]
    fn where_paxos_lives_the_lease_outlives_the_store_masters_crash() {
        use crate::protocol::lease::LeaseNote;
        use crate::protocol::multipaxos::MpNote;
        let (at_us, reveal_us, run) = question("where-paxos-lives", "replicated-store", 1);
        let name = |n: crate::sim::NodeId| run.names[n.index()].as_str();
        let (mut refused, mut elected, mut renewed, mut lost) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for e in run.trace.iter().filter(|e| e.t.0 <= reveal_us) {
            match &e.kind {
                EventKind::Note(Note::Multipaxos(MpNote::LeaseRefused { grantee, .. }))
                    if name(*grantee) == "S1" =>
                {
                    refused.push(e.t.0)
                }
                EventKind::Note(Note::Multipaxos(MpNote::Elected { .. })) if e.t.0 > at_us => {
                    elected.push((e.t.0, name(e.node)))
                }
                EventKind::Note(Note::Lease(LeaseNote::Renewed {
                    holder, epoch: 33, ..
                })) if e.t.0 > at_us => renewed.push((e.t.0, name(e.node), name(*holder))),
                EventKind::Note(Note::Lease(LeaseNote::Belief { holding: false, .. }))
                    if name(e.node) == "W2" =>
                {
                    lost.push(e.t.0)
                }
                _ => {}
            }
        }
        assert!(run.trace.iter().any(|e| e.t.0 < at_us && matches!(&e.kind, EventKind::Fault { fault: crate::sim::fault::Fault::Crash { node } } if name(*node) == "S1")));
        assert!(
            !refused.is_empty() && refused.iter().all(|&t| t > at_us),
            "refusals at {refused:?}"
        );
        let last_refusal = *refused.iter().max().unwrap();
        assert_eq!(elected.len(), 1, "{elected:?}");
        assert!(
            elected[0].0 > last_refusal && elected[0].1 != "S1",
            "{elected:?}"
        );
        assert!(
            renewed
                .iter()
                .any(|&(t, by, holder)| t > elected[0].0 && by == elected[0].1 && holder == "W2"),
            "{renewed:?}"
        );
        assert!(lost.is_empty(), "W2 lost its lease at {lost:?}");
    }

    /// "Where Paxos lives", the paused lock holder: when the question is
    /// asked C1 has sent its write with generation 1 while F has seen no
    /// higher one; before the reveal F refuses it as not current (the live
    /// check), then accepts C2's generation 2.
    #[test]
    fn where_paxos_lives_the_file_server_refuses_the_stale_sequencer_by_asking_the_cell() {
        use crate::protocol::multipaxos::{MpMsg, MpNote, Verdict};
        use crate::protocol::Msg;
        let (at_us, reveal_us, run) = question("where-paxos-lives", "chubby-sequencer", 1);
        let sent = run.trace.iter().find(|e| {
            matches!(
                &e.kind,
                EventKind::Send {
                    msg: Msg::Multipaxos(MpMsg::Write { generation: 1, .. }),
                    ..
                }
            ) && e.t.0 > 900_000
        });
        let sent = sent
            .expect("C1 writes with generation 1 after its pause")
            .t
            .0;
        assert!(
            sent <= at_us,
            "the write left at {sent} µs, before the question at {at_us} µs"
        );
        let verdicts: Vec<(u64, u32, Verdict)> = run
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Note(Note::Multipaxos(MpNote::WriteChecked {
                    generation,
                    verdict,
                    ..
                })) => Some((e.t.0, *generation, *verdict)),
                _ => None,
            })
            .collect();
        let after: Vec<_> = verdicts.iter().filter(|v| v.0 > at_us).collect();
        assert_eq!(after.len(), 2, "{verdicts:?}");
        assert_eq!((after[0].1, after[0].2), (1, Verdict::NotCurrent));
        assert_eq!((after[1].1, after[1].2), (2, Verdict::Accepted));
        assert!(after[1].0 <= reveal_us, "the reveal shows C2's write too");
        // Comparing alone would have let it in: F had accepted nothing above 1.
        assert!(verdicts.iter().filter(|v| v.0 < at_us).all(|v| v.1 <= 1));
    }
}
