//! The built-in scenarios: data, not code paths. Each is a plain `Scenario`
//! that could equally have been loaded from a file or a share link.

use super::names::{DECREES, GREEK};
use super::{NodeSpec, PaxosSpec, Proposal, Role, Scenario};
use super::{Scheduled, Step};
use crate::check::Mutation;
use crate::protocol::paxos::PaxosMutation;
use crate::protocol::Kind as Protocol;
use crate::sim::dist::Latency;
use crate::sim::fault::Fault;
use crate::sim::network::NetworkConfig;

/// The scenarios every front end lists, in teaching order.
pub const PAXOS_NAMES: [&str; 11] = [
    "calm",
    "forced",
    "crash-f",
    "crash-f-plus-1",
    "dueling",
    "dueling-backoff",
    "dueling-leader",
    "lossy",
    "partition-heal",
    "restart",
    "bench-lossy",
];

/// Look a built-in scenario up by name. (In the split page the other
/// protocols' built-ins come with their builders: before those are here,
/// only the parliament's are found — [`kind_of`] tells which protocol a name
/// would need without building it.)
pub fn get(name: &str) -> Option<Scenario> {
    if let Some(s) = paxos(name) {
        return Some(s);
    }
    others()?(name)
}

/// The other protocols' built-ins, installed with their builders
/// (`scenario::install_builders`).
pub(super) fn others_builtin(name: &str) -> Option<Scenario> {
    crate::scenario::lease_spec::builtin(name)
        .or_else(|| crate::scenario::multipaxos_spec::builtin(name))
        .or_else(|| crate::scenario::commit_spec::builtin(name))
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
static OTHERS: std::sync::OnceLock<fn(&str) -> Option<Scenario>> = std::sync::OnceLock::new();

/// Makes the other protocols' built-ins findable (with their builders).
pub(super) fn install_others() {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    let _ = OTHERS.set(others_builtin);
}

fn others() -> Option<fn(&str) -> Option<Scenario>> {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return OTHERS.get().copied();
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    Some(others_builtin)
}

/// The protocol a built-in name runs, from the lists of names alone (so
/// the page can fetch that protocol's part before it builds the scenario).
pub fn kind_of(name: &str) -> Option<Protocol> {
    use crate::scenario::{commit_spec, lease_spec, multipaxos_spec};
    [
        (Protocol::Paxos, &PAXOS_NAMES[..]),
        (Protocol::Lease, &lease_spec::BUILTIN_NAMES[..]),
        (Protocol::Multipaxos, &multipaxos_spec::BUILTIN_NAMES[..]),
        (Protocol::Commit, &commit_spec::BUILTIN_NAMES[..]),
    ]
    .into_iter()
    .find(|(_, names)| names.contains(&name))
    .map(|(kind, _)| kind)
}

/// Every built-in name (Paxos first, then the lease lab, Multi-Paxos, commit).
pub fn names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = PAXOS_NAMES.to_vec();
    v.extend(crate::scenario::lease_spec::BUILTIN_NAMES);
    v.extend(crate::scenario::multipaxos_spec::BUILTIN_NAMES);
    v.extend(crate::scenario::commit_spec::BUILTIN_NAMES);
    v
}

fn f(at_ms: u64, fault: impl Into<Step<String>>) -> Scheduled<String> {
    Scheduled {
        at_us: at_ms * 1_000,
        fault: fault.into(),
    }
}

fn node(i: usize) -> String {
    GREEK[i].to_string()
}

/// `n` legislators, all acceptors and learners; the listed ones also propose
/// (index, start time in ms), each with its own decree (α for Α, β for Β …).
pub fn parliament(name: &str, n: usize, proposers: &[(usize, u64)]) -> Scenario {
    let nodes = (0..n)
        .map(|i| {
            let mut roles = vec![Role::Acceptor, Role::Learner];
            if proposers.iter().any(|(p, _)| *p == i) {
                roles.insert(0, Role::Proposer);
            }
            NodeSpec { id: node(i), roles }
        })
        .collect();
    Scenario {
        name: name.to_string(),
        protocol: Protocol::Paxos,
        seed: 42,
        nodes,
        network: NetworkConfig {
            latency: Latency::Uniform {
                min_us: 60_000,
                max_us: 140_000,
            },
            ..NetworkConfig::default()
        },
        clocks: Vec::new(),
        faults: Vec::new(),
        paxos: Some(PaxosSpec {
            proposals: proposers
                .iter()
                .map(|&(i, start_ms)| Proposal {
                    node: node(i),
                    value: DECREES[i].to_string(),
                    start_us: start_ms * 1_000,
                })
                .collect(),
            timeout_us: 1_000_000,
            backoff: true,
            leader: None,
            learn_from_votes: false,
        }),
        lease: None,
        multipaxos: None,
        commit: None,
        mutation: None,
        stop_at_us: 10_000_000,
    }
}

fn paxos(name: &str) -> Option<Scenario> {
    let s = match name {
        // One proposer, five legislators, a quiet network.
        "calm" => parliament(name, 5, &[(0, 0)]),
        // Α's ballot gets votes, then Α leaves the chamber before anyone learns
        // the result; Γ later must re-propose Α's decree (B3), not its own.
        "forced" => {
            let mut s = parliament(name, 5, &[(0, 0), (2, 1_500)]);
            s.faults = vec![f(260, Fault::Crash { node: node(0) })];
            s
        }
        // F = 2 of 2F+1 = 5 acceptors are away: the other three still pass a decree.
        "crash-f" => {
            let mut s = parliament(name, 5, &[(0, 300)]);
            s.faults = vec![
                f(0, Fault::Crash { node: node(3) }),
                f(0, Fault::Crash { node: node(4) }),
            ];
            s
        }
        // F + 1 = 3 are away: no quorum, no decree — but nothing unsafe either.
        "crash-f-plus-1" => {
            let mut s = parliament(name, 5, &[(0, 300)]);
            s.faults = (2..5)
                .map(|i| f(0, Fault::Crash { node: node(i) }))
                .collect();
            s.stop_at_us = 8_000_000;
            s
        }
        // Two proposers who retry at once when pre-empted: a livelock.
        "dueling" => dueling(name, false, None),
        // The same duel, ended by randomized backoff.
        "dueling-backoff" => dueling(name, true, None),
        // The same duel, ended by a president (the proposer whose name comes last).
        "dueling-leader" => dueling(name, false, Some(node(1))),
        // Lost, duplicated and overtaking messengers; two proposers.
        "lossy" => {
            let mut s = parliament(name, 5, &[(0, 0), (2, 400)]);
            s.network.loss = 0.2;
            s.network.duplicate = 0.15;
            s.network.reorder = 0.2;
            s.stop_at_us = 20_000_000;
            s
        }
        // {Α, Β} are cut off from {Γ, Δ, Ε}. Α cannot get a majority; Ε can.
        // After the heal, Α's next ballot is forced to Ε's decree.
        "partition-heal" => {
            let mut s = parliament(name, 5, &[(0, 0), (4, 600)]);
            s.faults = vec![
                f(
                    0,
                    Fault::Partition {
                        groups: vec![vec![node(0), node(1)], vec![node(2), node(3), node(4)]],
                        oneway: false,
                    },
                ),
                f(4_000, Fault::Heal),
            ];
            s.stop_at_us = 15_000_000;
            s
        }
        // Α passes α with Γ and Δ while Β and Ε are cut off; then Α leaves for
        // good and Γ, Δ leave and come back. Their ink still holds the vote,
        // so Β's later ballot is forced to α. (With `forget-on-restart`, it is not.)
        "restart" => {
            let mut s = parliament(name, 5, &[(0, 0), (1, 1_500)]);
            s.faults = vec![
                f(
                    0,
                    Fault::Partition {
                        groups: vec![vec![node(0), node(2), node(3)], vec![node(1), node(4)]],
                        oneway: false,
                    },
                ),
                f(600, Fault::Crash { node: node(0) }),
                f(700, Fault::Crash { node: node(2) }),
                f(700, Fault::Crash { node: node(3) }),
                f(1_000, Fault::Heal),
                f(1_200, Fault::Restart { node: node(2) }),
                f(1_200, Fault::Restart { node: node(3) }),
            ];
            s.stop_at_us = 12_000_000;
            s
        }
        // The benchmark's standard workload: 5 acceptors, 3 proposers, lossy.
        "bench-lossy" => {
            let mut s = parliament(name, 5, &[(0, 0), (1, 5), (2, 10)]);
            s.network.loss = 0.1;
            s.network.duplicate = 0.05;
            s.network.reorder = 0.1;
            s.network.latency = Latency::Exponential {
                mean_us: 40_000,
                min_us: 20_000,
            };
            s.paxos.as_mut().map(|p| p.timeout_us = 400_000);
            s.stop_at_us = 30_000_000;
            s
        }
        _ => return None,
    };
    Some(s)
}

fn dueling(name: &str, backoff: bool, leader: Option<String>) -> Scenario {
    let mut s = parliament(name, 5, &[(0, 0), (1, 50)]);
    s.network.latency = Latency::Constant { us: 100_000 };
    if let Some(p) = s.paxos.as_mut() {
        p.backoff = backoff;
        p.leader = leader;
    }
    s.stop_at_us = 6_000_000;
    s
}

/// A built-in scenario that shows what `m` breaks.
pub fn showcase(m: Mutation) -> Option<(&'static str, Scenario)> {
    // A built-in run, at a seed where the bug breaks agreement (found by
    // search; `tests/safety.rs` checks that each still does).
    let (name, seed) = match m {
        Mutation::Paxos(PaxosMutation::SkipB3) => ("forced", None),
        Mutation::Paxos(PaxosMutation::ForgetOnRestart) => ("restart", None),
        Mutation::Paxos(PaxosMutation::MinorityQuorum) => ("lossy", Some(5)),
        Mutation::Paxos(PaxosMutation::AcceptLowerBallot) => ("lossy", Some(34)),
        Mutation::Paxos(PaxosMutation::PickFirstVote) => {
            // No built-in run hears of votes from two earlier ballots at
            // once; a random faulty schedule does.
            let mut s = crate::check::search::random_paxos(
                338,
                crate::check::search::FaultSet::ALL,
                Some(m),
            );
            s.name = "pick-first-vote".into();
            return Some(("pick-first-vote", s));
        }
        _ => return None,
    };
    let mut s = get(name)?;
    if let Some(seed) = seed {
        s.seed = seed;
    }
    s.mutation = Some(m);
    Some((name, s))
}

#[cfg(test)]
mod tests {
    use super::*;

    // The page fetches a protocol's part by what `kind_of` says of a link's
    // name, then builds it with `get`: the two must agree on every name.
    #[test]
    fn kind_of_names_the_protocol_get_builds() {
        for name in names() {
            let s = get(name).unwrap_or_else(|| panic!("{name} is listed but not built"));
            assert_eq!(kind_of(name), Some(s.protocol), "{name}");
        }
        assert_eq!(kind_of("no-such-run"), None);
        assert_eq!(get("no-such-run"), None);
    }

    // Scenarios are copied and compared by hand (their other protocols'
    // sections through a table): every section counts.
    #[test]
    fn a_copy_equals_its_scenario_and_any_section_tells_two_apart() {
        for name in names() {
            let s = get(name).unwrap();
            assert_eq!(s.clone(), s, "{name}");
            let mut t = s.clone();
            match (&mut t.lease, &mut t.multipaxos, &mut t.commit, &mut t.paxos) {
                (Some(l), ..) => l.keys += 1,
                (_, Some(m), ..) => m.clients.clear(),
                (_, _, Some(c), _) => c.faster = !c.faster,
                (.., Some(p)) => p.learn_from_votes = !p.learn_from_votes,
                _ => panic!("{name} has no section"),
            }
            assert_ne!(t, s, "{name}");
            let mut u = s.clone();
            u.seed += 1;
            assert_ne!(u, s, "{name}");
        }
    }
}
