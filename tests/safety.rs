//! Random-schedule safety: thousands of faulty runs, zero violations — and
//! every deliberately broken variant is caught, so the monitors can fail.

use paxos_island::protocol::storage::Fencing;
use paxos_island::check::Mutation;
use paxos_island::check::search::{self, FaultSet};
use paxos_island::protocol::Kind;
use paxos_island::scenario::lease_spec::{random_lease, random_lease_with};

#[test]
fn paxos_survives_ten_thousand_faulty_schedules() {
    let rep = search::check(|s| search::random_paxos(s, FaultSet::ALL, None), 1, 10_000, false);
    assert_eq!(rep.schedules, 10_000);
    assert_eq!(rep.violating, 0, "first failure: {:?}", rep.first.map(|f| (f.seed, f.invariant, f.detail)));
    // The schedules did real work: many steps each, with faults.
    assert!(rep.steps > 500_000, "only {} steps", rep.steps);
}

#[test]
fn random_paxos_schedules_contain_the_faults_asked_for() {
    let kinds: Vec<&str> = (0..200)
        .flat_map(|s| search::random_paxos(s, FaultSet::ALL, None).faults)
        .map(|f| f.fault.kind())
        .collect();
    for k in ["crash", "restart", "pause", "partition", "heal", "set_drift"] {
        assert!(kinds.contains(&k), "no {k} in 200 schedules");
    }
    let none: usize = (0..200).map(|s| search::random_paxos(s, FaultSet::NONE, None).faults.len()).sum();
    assert_eq!(none, 0);
}

#[test]
fn every_paxos_mutation_is_caught() {
    for m in Mutation::of(Kind::Paxos) {
        let rep = search::check(|s| search::random_paxos(s, FaultSet::ALL, Some(m)), 1, 20_000, true);
        let f = rep.first.unwrap_or_else(|| panic!("{m}: no violation in {} schedules", rep.schedules));
        // The reported seed reproduces the failure on its own.
        let again = search::check(|s| search::random_paxos(s, FaultSet::ALL, Some(m)), f.seed, 1, true);
        assert_eq!(again.violating, 1, "{m}: seed {} does not reproduce", f.seed);
    }
}

#[test]
fn leases_with_fencing_survive_random_schedules() {
    let rep = search::check(|s| random_lease(s, FaultSet::ALL, None), 1, 2_000, false);
    assert_eq!(rep.violating, 0, "first failure: {:?}", rep.first.map(|f| (f.seed, f.invariant, f.detail)));
}

#[test]
fn without_fencing_a_stale_write_is_accepted_somewhere() {
    let rep = search::check(|s| random_lease_with(s, FaultSet::ALL, None, Fencing::Off), 1, 2_000, true);
    let f = rep.first.expect("with fencing off, some schedule must accept a stale write");
    assert_eq!(f.invariant, paxos_island::check::Invariant::FencingMonotonic);
}

#[test]
fn with_the_token_alone_no_stale_write_overwrites_newer_data() {
    let rep = search::check(|s| random_lease_with(s, FaultSet::ALL, None, Fencing::Token), 1, 2_000, false);
    assert_eq!(rep.violating, 0, "first failure: {:?}", rep.first.map(|f| (f.seed, f.invariant, f.detail)));
}

#[test]
fn every_lease_mutation_is_caught() {
    for m in Mutation::of(Kind::Lease) {
        let rep = search::check(|s| random_lease(s, FaultSet::ALL, Some(m)), 1, 5_000, true);
        assert!(rep.first.is_some(), "{m}: no violation in {} schedules", rep.schedules);
    }
}
