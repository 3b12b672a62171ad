//! The model checker (`check::explore`) on transaction commit: every
//! schedule of two-phase commit and of Paxos Commit in small
//! configurations, over the REAL handlers, on a lossy, duplicating,
//! reordering network where any timeout may fire at any moment and any RM
//! may give up while working. The unmutated protocols must be clean and
//! reach both outcomes; `commit-without-all-prepared` must break validity,
//! and its counterexample must replay in the simulator and pass `replay --verify`.
//!
//! `cargo test --release --test model_check_commit -- --nocapture` prints
//! the numbers and the counterexamples.

use paxos_island::check::explore::commit::{CommitExplorer, CommitModel};
use paxos_island::check::explore::Stop;
use paxos_island::check::Invariant;
use paxos_island::protocol::commit::{Algorithm, CommitMutation};
use paxos_island::scenario::run::Run;
use paxos_island::trace::import::{self, Verdict};
use paxos_island::trace::{json, EventKind};

fn search(model: CommitModel, stop: Stop) -> CommitExplorer {
    let mut x = model.explorer(stop);
    while !x.run(100_000) {}
    x
}

const TWO_PC: CommitModel = CommitModel {
    algorithm: Algorithm::TwoPhaseCommit,
    faster: false,
    rms: 3,
    f: 0,
    ballots: 1,
    crashes: 1,
    mutation: None,
};
const PAXOS: CommitModel = CommitModel {
    algorithm: Algorithm::PaxosCommit,
    faster: false,
    rms: 2,
    f: 1,
    ballots: 1,
    crashes: 0,
    mutation: None,
};

/// A clean search: done, no violation, every witness reached — both
/// outcomes among them — and at least `min_states` states.
fn assert_clean(model: CommitModel, min_states: usize) {
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
    let names: Vec<&str> = x.witnesses().iter().map(|w| w.0).collect();
    assert!(names.contains(&"every RM committed") && names.contains(&"every RM aborted"));
    for (w, path) in x.witnesses() {
        let path = path.unwrap_or_else(|| panic!("the search never reached a state where {w}"));
        println!("  reached \"{w}\" in {} steps", path.len());
    }
}

#[test]
fn two_phase_commit_is_atomic_and_valid_in_every_schedule_with_a_tm_restart() {
    assert_clean(TWO_PC, 900);
}

#[test]
fn paxos_commit_is_atomic_valid_and_agreed_in_every_schedule() {
    assert_clean(PAXOS, 50_000);
}

#[test]
fn paxos_commit_is_safe_in_every_schedule_with_a_crash_and_restart() {
    assert_clean(
        CommitModel {
            crashes: 1,
            ..PAXOS
        },
        100_000,
    );
}

/// Two coordinator ballots: two coordinators at once, the second forced by
/// the first's votes. About 13 million states (a minute on two cores):
/// `cargo test --release --test model_check_commit -- --ignored`.
#[test]
#[ignore]
fn paxos_commit_is_safe_with_two_coordinator_ballots() {
    assert_clean(
        CommitModel {
            ballots: 2,
            ..PAXOS
        },
        10_000_000,
    );
}

#[test]
fn faster_paxos_commit_is_safe_in_every_schedule() {
    assert_clean(
        CommitModel {
            faster: true,
            ballots: 1,
            ..PAXOS
        },
        10_000,
    );
}

#[test]
fn paxos_commit_with_f_zero_is_safe_in_every_schedule() {
    assert_clean(
        CommitModel {
            f: 0,
            rms: 3,
            ballots: 1,
            crashes: 1,
            ..PAXOS
        },
        2_000,
    );
}

#[test]
fn commit_without_all_prepared_breaks_validity_and_its_counterexample_replays() {
    for base in [TWO_PC, PAXOS] {
        let model = CommitModel {
            mutation: Some(CommitMutation::CommitWithoutAllPrepared),
            crashes: 0,
            ..base
        };
        let mut x = search(model, Stop::When(Invariant::CommitValidity));
        let v = x
            .violations()
            .iter()
            .find(|v| v.invariant == Invariant::CommitValidity)
            .cloned()
            .unwrap_or_else(|| {
                panic!(
                    "{:?}: validity never broke in {} states",
                    base.algorithm,
                    x.progress().states
                )
            });
        println!(
            "{:?}: validity broken in {} steps: {}{}",
            base.algorithm,
            v.path.len(),
            v.detail,
            x.render(&v.path)
        );
        assert!(
            v.path.len() <= 12,
            "the shortest counterexample is longer than expected"
        );

        // The simulator, run on the script, breaks validity too: its own
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
            broken.contains(&Invariant::CommitValidity),
            "{:?}: the replay broke {broken:?}",
            base.algorithm
        );

        let text = json::export(&run.scenario, &run.names, &run.trace);
        let imported = import::parse(&text).expect("our own trace parses");
        let scenario = imported
            .scenario
            .expect("the envelope carries the scenario");
        assert!(matches!(
            import::verify(&scenario, &imported.events),
            Verdict::Identical { .. }
        ));
    }
}
