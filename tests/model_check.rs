//! The model checker (`check::explore`) on the Synod: every schedule of a
//! small configuration, over the REAL handlers, on a lossy, duplicating,
//! reordering network. The unmutated protocol must be clean, every mutation
//! must break agreement itself, and each counterexample must replay in the
//! simulator, break agreement there too, and pass `replay --verify`.
//!
//! `cargo test --release --test model_check -- --nocapture` prints the
//! numbers and the counterexamples.

use paxos_island::check::explore::paxos::{PaxosExplorer, PaxosModel};
use paxos_island::check::explore::{Action, Stop};
use paxos_island::check::Invariant;
use paxos_island::protocol::paxos::PaxosMutation;
use paxos_island::scenario::run::Run;
use paxos_island::trace::import::{self, Verdict};
use paxos_island::trace::{json, EventKind};

fn search(model: PaxosModel, stop: Stop) -> PaxosExplorer {
    let mut x = model.explorer(stop);
    while !x.run(100_000) {}
    x
}

/// A clean search: done (not cut short), no violation, every witness
/// reached, and at least `min_states` states — a search that silently
/// explored nothing would pass the rest.
fn assert_clean(model: PaxosModel, min_states: usize) {
    let mut x = search(model, Stop::Never);
    let p = x.progress().clone();
    println!(
        "{model:?}: {} states, {} transitions, depth {}, {} past the bound",
        p.states, p.transitions, p.depth, p.cut
    );
    if let Some(v) = x.violations().first().cloned() {
        panic!(
            "{} violated: {}\ncounterexample:{}",
            v.invariant,
            v.detail,
            x.render(&v.path)
        );
    }
    assert!(p.done && !p.truncated, "the search did not finish");
    assert!(
        p.states >= min_states,
        "only {} states explored (expected ≥ {min_states})",
        p.states
    );
    for (w, path) in x.witnesses() {
        let path = path.unwrap_or_else(|| panic!("the search never reached a state where {w}"));
        println!("  reached \"{w}\" in {} steps", path.len());
    }
}

#[test]
fn the_synod_is_safe_in_every_schedule_with_three_ballots() {
    // The default bounds: 3 acceptors, 2 proposers, 3 ballots, no crash.
    assert_clean(PaxosModel::default(), 1_500_000);
}

#[test]
fn the_synod_is_safe_in_every_schedule_with_a_crash_and_restart() {
    assert_clean(
        PaxosModel {
            ballots: 2,
            crashes: 1,
            ..PaxosModel::default()
        },
        200_000,
    );
}

/// The bound a mutation needs: a crash for the ledger kept in pencil.
fn model_for(m: PaxosMutation) -> PaxosModel {
    let crashes = (m == PaxosMutation::ForgetOnRestart) as u8;
    PaxosModel {
        mutation: Some(m),
        crashes,
        ..PaxosModel::default()
    }
}

#[test]
fn every_paxos_mutation_breaks_agreement_and_its_counterexample_replays() {
    for m in PaxosMutation::ALL {
        let model = model_for(m);
        let mut x = search(model, Stop::When(Invariant::Agreement));
        let v = x
            .violations()
            .iter()
            .find(|v| v.invariant == Invariant::Agreement)
            .cloned()
            .unwrap_or_else(|| {
                panic!(
                    "{}: agreement never broke in {} states",
                    m.as_str(),
                    x.progress().states
                )
            });
        println!(
            "{}: agreement broken in {} steps:{}",
            m.as_str(),
            v.path.len(),
            x.render(&v.path)
        );
        assert!(
            v.path.len() <= 16,
            "{}: the shortest counterexample is longer than expected",
            m.as_str()
        );

        // The simulator, run on the script, breaks agreement too: its own
        // monitor, not the checker's, says so.
        let scenario = model.counterexample(&mut x, &v.path, "counterexample");
        let run = Run::record(&scenario).expect("a counterexample is a valid scenario");
        let broken: Vec<Invariant> = run
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Violation { invariant, .. } => Some(*invariant),
                _ => None,
            })
            .collect();
        assert!(
            broken.contains(&Invariant::Agreement),
            "{}: the replay broke {broken:?}, not agreement",
            m.as_str()
        );

        // And the trace file it makes is one `replay --verify` accepts.
        let text = json::export(&run.scenario, &run.names, &run.trace);
        let imported = import::parse(&text).expect("our own trace parses");
        let scenario = imported
            .scenario
            .expect("the envelope carries the scenario");
        assert!(
            matches!(
                import::verify(&scenario, &imported.events),
                Verdict::Identical { .. }
            ),
            "{}",
            m.as_str()
        );
    }
}

/// Why the default is three ballots: with two, a proposer never hears of
/// votes from two different earlier ballots, so "the first vote" and "the
/// highest vote" are the same one and the careless B3 goes unnoticed.
#[test]
fn pick_first_vote_hides_below_three_ballots() {
    let model = PaxosModel {
        ballots: 2,
        ..model_for(PaxosMutation::PickFirstVote)
    };
    let x = search(model, Stop::Never);
    assert!(x.progress().done && !x.progress().truncated);
    assert!(
        x.violations().is_empty(),
        "with two ballots: {:?}",
        x.violations().first().map(|v| &v.detail)
    );
}

/// Prints the table of `check::explore::sizes` (every configuration the page
/// offers whose full search stays under its state limit).
/// `cargo test --release --test model_check -- --ignored --nocapture size_table`
#[test]
#[ignore]
fn size_table() {
    for a in 1..=5 {
        for p in 1..=3.min(a) {
            for b in 1..=4u32 {
                for c in 0..=2u8 {
                    let model = PaxosModel {
                        acceptors: a,
                        proposers: p,
                        ballots: b,
                        crashes: c,
                        mutation: None,
                    };
                    let mut x = model.explorer(Stop::Never);
                    x.set_max_states(6_000_000);
                    while !x.run(1 << 20) {}
                    let pr = x.progress();
                    if !pr.truncated {
                        println!("    ({a}, {p}, {b}, {c}, {}),", pr.states);
                    }
                }
            }
        }
    }
}

/// The page's table of search sizes agrees with the checker (every entry
/// under 300,000 states is searched again here).
#[test]
fn the_size_table_matches_the_checker() {
    use paxos_island::check::explore::sizes::STATES;
    let mut checked = 0;
    for &(a, p, b, c, n) in STATES.iter().filter(|r| r.4 < 300_000) {
        let model = PaxosModel {
            acceptors: a,
            proposers: p,
            ballots: b,
            crashes: c,
            mutation: None,
        };
        let x = search(model, Stop::Never);
        assert_eq!(x.progress().states, n, "{model:?}");
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} entries checked");
}

/// The page's worker protocol (`check::explore::job`): a request as JSON
/// in, replies as JSON out — progress, then the verdict with a
/// counterexample the time machine can open and whose replay breaks the
/// same rule.
#[test]
fn the_worker_job_finds_a_mutation_and_sends_a_replayable_counterexample() {
    use paxos_island::check::explore::job::{self, Reply, Request};
    use paxos_island::scenario::Scenario;
    let request = Request::of(&model_for(PaxosMutation::SkipB3));
    let mut job =
        job::start(&serde_json::to_string(&request).unwrap()).unwrap_or_else(|r| panic!("{r:?}"));
    let mut progress = 0;
    let reply = loop {
        // Replies cross the worker boundary as text: read them back as the page does.
        let r = Reply::from_json(&job.step(100).to_json()).unwrap();
        if !r.is_final() {
            progress += 1;
            continue;
        }
        break r;
    };
    assert!(
        progress > 0,
        "a search of hundreds of states sent no progress in slices of 100"
    );
    let Reply::Found {
        invariant,
        steps,
        counterexample,
        ..
    } = reply
    else {
        panic!("no violation found: {reply:?}")
    };
    assert_eq!(invariant, Invariant::Agreement);
    assert!(steps > 0 && steps <= 16);
    let scenario = Scenario::from_json(&counterexample).expect("the counterexample is a scenario");
    let run = Run::record(&scenario).expect("a counterexample is a valid scenario");
    assert!(
        run.trace.iter().any(|e| matches!(
            &e.kind,
            EventKind::Violation {
                invariant: Invariant::Agreement,
                ..
            }
        )),
        "the replay does not break agreement"
    );
}

#[test]
fn the_worker_job_is_clean_on_the_synod_and_refuses_nonsense_with_a_reason() {
    use paxos_island::check::explore::job::{self, Reply};
    let small = r#"{"acceptors":3,"proposers":2,"ballots":2,"crashes":0,"mutation":null}"#;
    let mut job = job::start(small).unwrap_or_else(|r| panic!("{r:?}"));
    let reply = loop {
        let r = job.step(50_000);
        if r.is_final() {
            break r;
        }
    };
    assert!(
        matches!(reply, Reply::Clean { states, truncated: false, .. } if states > 1_000),
        "{reply:?}"
    );

    let refused = |text: &str| match job::start(text) {
        Err(Reply::Failed { message }) => message,
        Err(r) => panic!("{r:?}"),
        Ok(_) => panic!("accepted {text}"),
    };
    assert!(refused("{").contains("bad request"));
    assert!(
        refused(r#"{"acceptors":3,"proposers":2,"ballots":2,"crashes":0,"mutation":"lie"}"#)
            .contains("unknown mutation \"lie\"")
    );
    assert!(
        !refused(r#"{"acceptors":0,"proposers":2,"ballots":2,"crashes":0,"mutation":null}"#)
            .is_empty()
    );
}

// ----- Multi-Paxos (check::explore::multipaxos) -----------------------------

use paxos_island::check::explore::multipaxos::{MultiExplorer, MultiModel};
use paxos_island::protocol::multipaxos::MpMutation;

fn search_multi(model: MultiModel, stop: Stop) -> MultiExplorer {
    let mut x = model.explorer(stop);
    while !x.run(100_000) {}
    x
}

#[test]
fn multipaxos_is_safe_in_every_schedule_of_twelve_steps_with_two_slots_and_a_takeover() {
    let model = MultiModel::default();
    let mut x = search_multi(model, Stop::Never);
    let p = x.progress().clone();
    println!(
        "{model:?}: {} states, {} transitions, depth {}, {} past the bound",
        p.states, p.transitions, p.depth, p.cut
    );
    if let Some(v) = x.violations().first().cloned() {
        panic!(
            "{} violated: {}\ncounterexample:{}",
            v.invariant,
            v.detail,
            x.render(&v.path)
        );
    }
    // Bounded: done, and cut at the depth bound, not at the state limit.
    assert!(
        p.done && p.depth == model.depth && p.states < 60_000_000,
        "the search did not reach its depth: {p:?}"
    );
    assert!(p.states >= 1_000_000, "only {} states explored", p.states);
    for (w, path) in x.witnesses() {
        let path = path.unwrap_or_else(|| panic!("the search never reached a state where {w}"));
        println!("  reached \"{w}\" in {} steps", path.len());
    }
}

#[test]
fn every_log_mutation_breaks_multipaxos_in_the_model_and_its_counterexample_replays() {
    for m in [MpMutation::SkipPhase1OnTakeover, MpMutation::NoOpFreeGaps] {
        let model = MultiModel {
            mutation: Some(m),
            ..MultiModel::default()
        };
        let mut x = search_multi(model, Stop::First);
        let v = x.violations().first().cloned().unwrap_or_else(|| {
            panic!(
                "{}: nothing broke in {} states",
                m.as_str(),
                x.progress().states
            )
        });
        println!(
            "{}: {} broken in {} steps ({}):{}",
            m.as_str(),
            v.invariant,
            v.path.len(),
            v.detail,
            x.render(&v.path)
        );
        assert!(
            matches!(v.invariant, Invariant::Agreement | Invariant::LogPrefix),
            "{}: {}",
            m.as_str(),
            v.invariant
        );
        assert!(
            v.path.len() <= 10,
            "{}: the shortest counterexample is {} steps",
            m.as_str(),
            v.path.len()
        );
        let scenario = model.counterexample(&mut x, &v.path, "counterexample");
        let run = Run::record(&scenario).expect("a counterexample is a valid scenario");
        let broken: Vec<Invariant> = run
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Violation { invariant, .. } => Some(*invariant),
                _ => None,
            })
            .collect();
        assert!(
            broken
                .iter()
                .any(|i| matches!(i, Invariant::Agreement | Invariant::LogPrefix)),
            "{}: the replay broke {broken:?}, not the log's safety",
            m.as_str()
        );
    }
}

#[test]
fn the_lease_mutations_need_the_timed_model_and_the_untimed_one_says_how_to_ask_for_it() {
    for m in [MpMutation::NoLeaseWait, MpMutation::LeaseNoDriftMargin] {
        let why = MultiModel {
            mutation: Some(m),
            ..MultiModel::default()
        }
        .validate()
        .unwrap_err();
        assert!(
            why.contains("statement about time") && why.contains("--lease"),
            "{why}"
        );
        let model = MultiModel::for_mutation(Some(m));
        assert!(model.lease && model.validate().is_ok(), "{model:?}");
    }
}

#[test]
fn the_master_lease_holds_in_every_schedule_of_twelve_steps_with_time_passing() {
    let model = MultiModel::with_lease();
    let mut x = search_multi(model, Stop::Never);
    let p = x.progress().clone();
    println!(
        "{model:?}: {} states, {} transitions, depth {}, {} past the bound",
        p.states, p.transitions, p.depth, p.cut
    );
    if let Some(v) = x.violations().first().cloned() {
        panic!(
            "{} violated: {}\ncounterexample:{}",
            v.invariant,
            v.detail,
            x.render(&v.path)
        );
    }
    assert!(
        p.done && p.depth == model.depth && p.states >= 1_000_000,
        "the search did not reach its depth: {p:?}"
    );
    // The witnesses: a lease held, and a takeover once the first ran out —
    // which takes time passing (ticks) as well as messages.
    let witnesses: Vec<(&str, Option<Vec<Action>>)> = x
        .witnesses()
        .into_iter()
        .map(|(w, p)| (w, p.cloned()))
        .collect();
    for (w, path) in witnesses {
        let path = path.unwrap_or_else(|| panic!("the search never reached a state where {w}"));
        println!(
            "  reached \"{w}\" in {} steps:{}",
            path.len(),
            x.render(&path)
        );
    }
    let takeover = x.witnesses()[1]
        .1
        .cloned()
        .expect("a takeover under the lease");
    assert!(
        takeover.iter().filter(|a| **a == Action::Tick).count() >= 2,
        "a takeover before the old lease ran out"
    );
}

#[test]
fn every_lease_mutation_breaks_the_single_master_in_the_timed_model_and_its_counterexample_replays()
{
    for m in [MpMutation::NoLeaseWait, MpMutation::LeaseNoDriftMargin] {
        // The issue's small configuration: 2 slots, 3 acceptors.
        let model = MultiModel {
            slots: 2,
            ..MultiModel::for_mutation(Some(m))
        };
        let mut x = search_multi(model, Stop::First);
        let v = x.violations().first().cloned().unwrap_or_else(|| {
            panic!(
                "{}: nothing broke in {} states",
                m.as_str(),
                x.progress().states
            )
        });
        println!(
            "{}: {} broken in {} steps ({}):{}",
            m.as_str(),
            v.invariant,
            v.path.len(),
            v.detail,
            x.render(&v.path)
        );
        assert_eq!(v.invariant, Invariant::SingleMaster, "{}", m.as_str());
        let ticks = v.path.iter().filter(|a| **a == Action::Tick).count();
        match m {
            // A new master that does not wait needs no time to pass.
            MpMutation::NoLeaseWait => assert_eq!(ticks, 0, "{}", m.as_str()),
            // A lease counted from the reply outlives the promises only
            // when the reply was late: time passed while it travelled.
            _ => assert!(ticks >= 1, "{}: no time passed", m.as_str()),
        }
        let scenario = model.counterexample(&mut x, &v.path, "counterexample");
        let run = Run::record(&scenario).expect("a counterexample is a valid scenario");
        let broken: Vec<Invariant> = run
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Violation { invariant, .. } => Some(*invariant),
                _ => None,
            })
            .collect();
        assert!(
            broken.contains(&Invariant::SingleMaster),
            "{}: the replay broke {broken:?}, not the single master",
            m.as_str()
        );
    }
}

/// Sizes of Multi-Paxos configurations (a table for the docs).
/// `cargo test --release --test model_check -- --ignored --nocapture multipaxos_size_table`
#[test]
#[ignore]
fn multipaxos_size_table() {
    for (slots, ballots, heartbeats, depth) in [
        (2, 2, 1, 9),
        (2, 2, 1, 10),
        (2, 2, 1, 11),
        (1, 2, 1, 11),
        (2, 1, 1, 40),
    ] {
        let model = MultiModel {
            slots,
            ballots,
            heartbeats,
            ..MultiModel::default()
        };
        let mut x = model.explorer(Stop::Never);
        x.set_max_states(8_000_000);
        x.set_max_depth(depth);
        let t = std::time::Instant::now();
        while !x.run(1 << 20) {}
        let p = x.progress();
        let w: Vec<bool> = x
            .witnesses()
            .into_iter()
            .map(|(_, p)| p.is_some())
            .collect();
        println!("slots {slots} ballots {ballots} heartbeats {heartbeats} depth ≤ {depth}: {} states{} depth {} in {:.1?}, witnesses {w:?}, violations {}", p.states, if p.truncated { " (cut)" } else { "" }, p.depth, t.elapsed(), x.violations().len());
    }
}
