//! Random-schedule safety: thousands of faulty runs, zero violations — and
//! every deliberately broken variant is caught, so the monitors can fail.

use paxos_island::check::search::{self, FaultSet};
use paxos_island::check::{liveness, Invariant, Mutation};
use paxos_island::protocol::storage::Fencing;
use paxos_island::protocol::Kind;
use paxos_island::scenario::builtin;
use paxos_island::scenario::commit_spec::random_commit;
use paxos_island::scenario::lease_spec::{random_lease, random_lease_with};
use paxos_island::scenario::run::Run;

#[test]
fn paxos_survives_ten_thousand_faulty_schedules() {
    let rep = search::check(
        |s| search::random_paxos(s, FaultSet::ALL, None),
        1,
        10_000,
        false,
    );
    assert_eq!(rep.schedules, 10_000);
    assert_eq!(
        rep.violating,
        0,
        "first failure: {:?}",
        rep.first.map(|f| (f.seed, f.invariant, f.detail))
    );
    // The schedules did real work: most of them chose a decree (a Synod
    // that never reached phase 2 would break no rule either).
    assert!(
        rep.decided * 100 >= rep.schedules * 85,
        "only {} of {} schedules decided",
        rep.decided,
        rep.schedules
    );
}

/// Without faults most runs decide; the rest are duels that FLP allows —
/// two proposers, no backoff, no president (see the liveness tests below).
#[test]
fn fault_free_schedules_mostly_decide() {
    let rep = search::check(
        |s| search::random_paxos(s, FaultSet::NONE, None),
        1,
        2_000,
        false,
    );
    assert_eq!(rep.violating, 0);
    assert!(
        rep.decided * 100 >= rep.schedules * 90,
        "only {} of {} schedules decided",
        rep.decided,
        rep.schedules
    );
}

/// DOMAIN §9: once the faults are over and the network delivers within
/// bounded delay, a president passes a decree within a bound.
#[test]
fn after_the_last_fault_a_president_passes_a_decree_within_the_bound() {
    for seed in 1..=500 {
        let s = liveness::stabilizing(seed);
        let l = liveness::check(&s, liveness::bound_for(&s));
        assert!(l.holds(), "seed {seed}: {l:?}");
    }
}

/// …and without a president or backoff, two proposers can duel for ever:
/// the same check fails on `dueling`, as FLP allows.
#[test]
fn without_backoff_or_a_president_the_duel_never_ends() {
    let s = builtin::get("dueling").unwrap();
    let l = liveness::check(&s, liveness::bound_for(&s));
    assert!(!l.holds() && l.decided_us.is_none(), "{l:?}");
    let s = builtin::get("dueling-leader").unwrap();
    assert!(
        liveness::check(&s, liveness::bound_for(&s)).holds(),
        "a president ends the duel"
    );
}

/// The scenario offered beside each mutation really shows the harm: its
/// run breaks agreement (the simulator's own monitor says so).
#[test]
fn every_paxos_showcase_breaks_agreement() {
    for m in Mutation::of(Kind::Paxos) {
        let (name, s) = builtin::showcase(m).unwrap_or_else(|| panic!("{m}: no showcase"));
        let run = Run::record(&s).unwrap();
        let broken = run
            .summary()
            .violations
            .iter()
            .any(|v| v.0 == Invariant::Agreement);
        assert!(
            broken,
            "{m}: the showcase {name} (seed {}) does not break agreement",
            s.seed
        );
    }
}

#[test]
fn random_paxos_schedules_contain_the_faults_asked_for() {
    let kinds: Vec<&str> = (0..200)
        .flat_map(|s| search::random_paxos(s, FaultSet::ALL, None).faults)
        .map(|f| f.fault.kind())
        .collect();
    for k in [
        "crash",
        "restart",
        "pause",
        "partition",
        "heal",
        "set_drift",
    ] {
        assert!(kinds.contains(&k), "no {k} in 200 schedules");
    }
    let none: usize = (0..200)
        .map(|s| search::random_paxos(s, FaultSet::NONE, None).faults.len())
        .sum();
    assert_eq!(none, 0);
}

/// Each bug must break agreement itself — two decrees chosen — in some
/// random schedule, not only a side rule (a promise going down is how
/// forget-on-restart starts, not the harm it does).
#[test]
fn every_paxos_mutation_breaks_agreement_in_some_random_schedule() {
    for m in Mutation::of(Kind::Paxos) {
        let gen = |s| search::random_paxos(s, FaultSet::ALL, Some(m));
        let rep = search::check_for(gen, 1, 100_000, Some(Invariant::Agreement), true);
        let f = rep
            .first
            .unwrap_or_else(|| panic!("{m}: agreement never broke in {} schedules", rep.schedules));
        println!(
            "{m}: agreement broken in schedule {} of {}",
            f.seed, rep.schedules
        );
        assert_eq!(f.invariant, Invariant::Agreement);
        // The reported seed reproduces the failure on its own.
        let again = search::check_for(gen, f.seed, 1, Some(Invariant::Agreement), true);
        assert_eq!(
            again.violating, 1,
            "{m}: seed {} does not reproduce",
            f.seed
        );
    }
}

#[test]
fn leases_with_fencing_survive_random_schedules() {
    let rep = search::check(|s| random_lease(s, FaultSet::ALL, None), 1, 2_000, false);
    assert_eq!(
        rep.violating,
        0,
        "first failure: {:?}",
        rep.first.map(|f| (f.seed, f.invariant, f.detail))
    );
}

#[test]
fn a_write_judged_within_the_least_hop_of_an_epoch_bump_is_concurrent_with_it_not_a_violation() {
    // Seed 17,919: a renewal that bumps the epoch (bump_epoch_on_renew) and
    // a write with the old epoch reach `orders` in the same microsecond, one
    // least hop after the store changed the row. One database would have
    // serialized the two statements either way; the monitor used to call it
    // live-lease broken.
    let rep = search::check(|s| random_lease(s, FaultSet::ALL, None), 17_919, 1, false);
    assert_eq!(
        rep.violating,
        0,
        "{:?}",
        rep.first.map(|f| (f.seed, f.invariant, f.detail))
    );
}

#[test]
fn without_fencing_a_stale_write_is_accepted_somewhere() {
    let rep = search::check(
        |s| random_lease_with(s, FaultSet::ALL, None, Fencing::Off),
        1,
        2_000,
        true,
    );
    let f = rep
        .first
        .expect("with fencing off, some schedule must accept a stale write");
    assert_eq!(
        f.invariant,
        paxos_island::check::Invariant::FencingMonotonic
    );
}

#[test]
fn with_the_token_alone_no_stale_write_overwrites_newer_data() {
    let rep = search::check(
        |s| random_lease_with(s, FaultSet::ALL, None, Fencing::Token),
        1,
        2_000,
        false,
    );
    assert_eq!(
        rep.violating,
        0,
        "first failure: {:?}",
        rep.first.map(|f| (f.seed, f.invariant, f.detail))
    );
}

#[test]
fn every_lease_mutation_is_caught() {
    for m in Mutation::of(Kind::Lease) {
        let rep = search::check(|s| random_lease(s, FaultSet::ALL, Some(m)), 1, 5_000, true);
        assert!(
            rep.first.is_some(),
            "{m}: no violation in {} schedules",
            rep.schedules
        );
    }
}

#[test]
fn multipaxos_survives_random_faulty_schedules() {
    use paxos_island::scenario::multipaxos_spec::random_multipaxos;
    let rep = search::check(
        |s| random_multipaxos(s, FaultSet::ALL, None),
        1,
        20_000,
        false,
    );
    assert_eq!(rep.schedules, 20_000);
    assert_eq!(
        rep.violating,
        0,
        "first failure: {:?}",
        rep.first.map(|f| (f.seed, f.invariant, f.detail))
    );
}

/// Each Multi-Paxos mutation breaks the invariant it was written to break
/// (a lease without a drift margin breaks single-master, skipping phase 1
/// breaks per-slot agreement), not merely some invariant.
#[test]
fn every_multipaxos_mutation_breaks_its_own_invariant() {
    use paxos_island::scenario::multipaxos_spec::random_multipaxos;
    for m in Mutation::of(Kind::Multipaxos) {
        let meant = paxos_island::check::meant(m);
        let rep = search::check_for(
            |s| random_multipaxos(s, FaultSet::ALL, Some(m)),
            1,
            5_000,
            meant,
            true,
        );
        let f = rep
            .first
            .unwrap_or_else(|| panic!("{m}: no violation in {} schedules", rep.schedules));
        assert_eq!(Some(f.invariant), meant, "{m}");
    }
}

#[test]
fn commit_survives_ten_thousand_faulty_schedules() {
    let rep = search::check(|s| random_commit(s, FaultSet::ALL, None), 1, 10_000, false);
    assert_eq!(rep.schedules, 10_000);
    assert_eq!(
        rep.violating,
        0,
        "first failure: {:?}",
        rep.first.map(|f| (f.seed, f.invariant, f.detail))
    );
    // Not vacuous: in most schedules every RM learned the outcome (the rest
    // end blocked, or with a node down for good).
    assert!(
        rep.decided * 100 >= rep.schedules * 50,
        "only {} of {} schedules decided",
        rep.decided,
        rep.schedules
    );
}

/// The mutation must break validity itself — a Commit decided before every
/// RM voted "prepared" — and, where an RM had voted "aborted", atomicity.
#[test]
fn commit_without_all_prepared_breaks_validity_and_atomicity_in_random_schedules() {
    for m in Mutation::of(Kind::Commit) {
        let gen = |s| random_commit(s, FaultSet::ALL, Some(m));
        for want in [Invariant::CommitValidity, Invariant::Atomicity] {
            let rep = search::check_for(gen, 1, 100_000, Some(want), true);
            let f = rep.first.unwrap_or_else(|| {
                panic!("{m}: {want} never broke in {} schedules", rep.schedules)
            });
            println!(
                "{m}: {want} broken in schedule {} of {}: {}",
                f.seed, rep.schedules, f.detail
            );
            assert_eq!(f.invariant, want);
            let again = search::check_for(gen, f.seed, 1, Some(want), true);
            assert_eq!(
                again.violating, 1,
                "{m}: seed {} does not reproduce",
                f.seed
            );
        }
    }
}

/// Gray & Cheriton's lease rule, as the lab models it: while every clock
/// stays within the drift bound ρ the worker assumes (here ±200 ppm against
/// ρ = 1000 ppm) and no worker is frozen (no pause, no LLM call it waits
/// on), at most one worker believes it holds the lease at any instant —
/// through crashes, partitions, loss, duplication and reordering. The
/// `clock-drift` and `kleppmann` scenarios show the same rule broken when
/// either condition fails.
#[test]
fn within_the_drift_bound_and_without_pauses_at_most_one_worker_believes() {
    use paxos_island::protocol::lease::Design;
    let faults = FaultSet {
        pause: false,
        ..FaultSet::ALL
    };
    let mut runs = 0;
    let mut grants = 0;
    for seed in 1..=1_500u64 {
        let mut s = random_lease_with(seed, faults, None, Fencing::Article);
        let spec = s.lease.as_mut().unwrap();
        if spec.design == Design::InLoop {
            spec.design = Design::Beside; // the loop never waits on the LLM
        }
        let run = Run::record(&s).unwrap();
        let st = run
            .last
            .monitors()
            .lease
            .as_ref()
            .unwrap()
            .stats_at(run.end);
        assert_eq!(
            st.split_brain_windows, 0,
            "seed {seed}: two workers believed at once: {st:?}"
        );
        runs += 1;
        grants += st.grants;
    }
    // Not vacuous: the lease changed hands many times in these runs.
    assert!(grants > 2 * runs, "{grants} grants in {runs} runs");
    // And the same search with a clock beyond the bound finds a split brain.
    let mut broken = builtin::get("clock-drift").unwrap();
    broken.seed = 1;
    let run = Run::record(&broken).unwrap();
    assert!(
        run.last
            .monitors()
            .lease
            .as_ref()
            .unwrap()
            .stats_at(run.end)
            .split_brain_windows
            >= 1
    );
}

/// A third of the random lease schedules put the store on a Multi-Paxos
/// group, whose replicas crash and are cut off; the fenced lease survives
/// them, and every lease mutation is still caught there.
#[test]
fn random_lease_schedules_with_a_replicated_store_survive_its_failures() {
    let replicated = |seed: u64, m: Option<Mutation>| {
        (0..)
            .map(|k| random_lease(seed + k * 1_000_003, FaultSet::ALL, m))
            .find(|s| s.nodes.iter().filter(|n| n.id.starts_with('S')).count() > 1)
            .unwrap()
    };
    let (mut groups, mut store_crashes) = (0, 0);
    for seed in 0..300 {
        let s = random_lease(seed, FaultSet::ALL, None);
        if s.nodes.iter().any(|n| n.id == "S1") {
            groups += 1;
            let crash = |f: &paxos_island::scenario::Scheduled<String>| {
                format!("{:?}", f.fault).contains("Crash")
                    && format!("{:?}", f.fault).contains("\"S")
            };
            if s.faults.iter().any(crash) {
                store_crashes += 1;
            }
        }
    }
    assert!(
        groups >= 60,
        "{groups} of 300 schedules have a replicated store"
    );
    assert!(
        store_crashes >= 20,
        "a store replica crashes in only {store_crashes} of them"
    );
    let rep = search::check(|s| replicated(s, None), 1, 1_000, false);
    assert_eq!(
        rep.violating,
        0,
        "first failure: {:?}",
        rep.first.map(|f| (f.seed, f.invariant, f.detail))
    );
    for m in Mutation::of(Kind::Lease) {
        let rep = search::check(|s| replicated(s, Some(m)), 1, 5_000, true);
        assert!(
            rep.first.is_some(),
            "{m}: no violation in {} schedules with a replicated store",
            rep.schedules
        );
    }
}
