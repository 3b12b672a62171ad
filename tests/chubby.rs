//! The Chubby cell's two stories, checked against their traces: sessions kept
//! alive through a master failover, and a paused lock holder's stale
//! sequencer refused by the file server — plus the fence monitor failing for
//! the right reason, and bad cell settings named. (Their traces read back
//! exactly with every built-in's, in `trace::decode`'s tests.)

use paxos_island::check::{Finding, Invariant, MultiMonitor};
use paxos_island::protocol::multipaxos::{MpMsg, MpNote, SessionEnd, Verdict};
use paxos_island::protocol::Note;
use paxos_island::scenario::builtin;
use paxos_island::scenario::multipaxos_spec::{CellSpec, ScriptOp};
use paxos_island::scenario::run::Run;
use paxos_island::scenario::Scenario;
use paxos_island::sim::NodeId;
use paxos_island::trace::{DropReason, EventKind};
use std::sync::Arc;

fn run(name: &str) -> Run {
    Run::record(&builtin::get(name).unwrap()).unwrap()
}

/// (true time µs, node name, note) for every Multi-Paxos note.
fn notes(r: &Run) -> Vec<(u64, String, MpNote)> {
    r.trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note(Note::Multipaxos(n)) => {
                Some((e.t.0, r.names[e.node.index()].clone(), n.clone()))
            }
            _ => None,
        })
        .collect()
}

fn first(ns: &[(u64, String, MpNote)], who: &str, f: impl Fn(&MpNote) -> bool) -> Option<u64> {
    ns.iter()
        .find(|(_, n, note)| n == who && f(note))
        .map(|x| x.0)
}

#[test]
fn a_session_survives_a_master_failover_in_jeopardy_and_keeps_its_lock() {
    let r = run("chubby-failover");
    assert!(
        r.summary().violations.is_empty(),
        "{:?}",
        r.summary().violations
    );
    let ns = notes(&r);
    let jeopardy = first(&ns, "C1", |n| matches!(n, MpNote::Jeopardy))
        .expect("C1's session goes into jeopardy");
    let elected = ns
        .iter()
        .find(|(t, who, n)| *t > 800_000 && who != "Α" && matches!(n, MpNote::Elected { .. }))
        .map(|x| x.0)
        .expect("a new master is elected after Α's crash");
    let safe = first(&ns, "C1", |n| {
        matches!(n, MpNote::SessionSafe { failover: true, .. })
    })
    .expect("the new master answers");
    assert!(
        jeopardy < elected,
        "jeopardy at {jeopardy} µs comes before the new master at {elected} µs"
    );
    assert!(elected < safe, "safe at {safe} µs, after the election");
    assert!(safe - jeopardy < 3_000_000, "within the 3 s grace period");
    assert!(
        first(&ns, "C1", |n| matches!(n, MpNote::SessionLost { .. })).is_none(),
        "the session is never lost"
    );
    assert!(
        !ns.iter()
            .any(|(_, _, n)| matches!(n, MpNote::SessionTimedOut { .. })),
        "no master ends C1's session"
    );
    // Both writes pass the file server with generation 1: the lock survived.
    let accepted: Vec<u32> = ns
        .iter()
        .filter_map(|(_, who, n)| match n {
            MpNote::WriteChecked {
                generation,
                verdict: Verdict::Accepted,
                ..
            } if who == "F" => Some(*generation),
            _ => None,
        })
        .collect();
    assert_eq!(accepted, vec![1, 1]);
    // As the caption and the lesson tell it: the second write's check goes
    // first to Α, gone since 0.8 s, and is lost; C1's retry at 3.4 s is
    // accepted at 3.45 s.
    let times: Vec<u64> = ns
        .iter()
        .filter(|(_, who, n)| who == "F" && matches!(n, MpNote::WriteChecked { .. }))
        .map(|x| x.0)
        .collect();
    assert_eq!(times[1], 3_450_000, "{times:?}");
    let lost = r.trace.iter().any(|e| {
        (2_900_000..3_000_000).contains(&e.t.0)
            && matches!(&e.kind, EventKind::Drop { from, to, reason: DropReason::Down, .. }
                if r.names[from.index()] == "F" && r.names[to.index()] == "Α")
    });
    assert!(lost, "F's first check after 2.9 s goes to Α, which is down");
}

#[test]
fn a_paused_holders_stale_sequencer_is_refused_by_the_live_check() {
    let r = run("chubby-sequencer");
    assert!(
        r.summary().violations.is_empty(),
        "{:?}",
        r.summary().violations
    );
    let ns = notes(&r);
    let ended = ns
        .iter()
        .find(|(_, _, n)| matches!(n, MpNote::SessionTimedOut { client } if r.names[client.index()] == "C1"))
        .map(|x| x.0)
        .expect("the master ends C1's session");
    assert!(
        (900_000..3_900_000).contains(&ended),
        "while C1 is paused: {ended} µs"
    );
    let checks: Vec<(String, u32, Verdict, u64)> = ns
        .iter()
        .filter_map(|(t, who, n)| match n {
            MpNote::WriteChecked {
                client,
                generation,
                verdict,
                ..
            } if who == "F" => Some((r.names[client.index()].clone(), *generation, *verdict, *t)),
            _ => None,
        })
        .collect();
    let verdicts: Vec<(&str, u32, Verdict)> =
        checks.iter().map(|c| (c.0.as_str(), c.1, c.2)).collect();
    // The stale write is refused although F has seen no higher generation:
    // only the live check against the cell can tell.
    assert_eq!(
        verdicts,
        vec![
            ("C1", 1, Verdict::Accepted),
            ("C1", 1, Verdict::NotCurrent),
            ("C2", 2, Verdict::Accepted)
        ]
    );
    assert!(checks[1].3 > 3_900_000, "C1 wrote after it woke");
    assert_eq!(
        first(&ns, "C1", |n| matches!(
            n,
            MpNote::SessionLost {
                why: SessionEnd::Ended
            }
        ))
        .is_some(),
        true,
        "C1 learns its session ended"
    );
    // C2 asked while C1 held the lock (busy), then got generation 2.
    let granted: Vec<u32> = ns
        .iter()
        .filter_map(|(_, who, n)| match n {
            MpNote::Answered {
                outcome: paxos_island::protocol::multipaxos::Outcome::Granted { generation },
                ..
            } if who == "C2" => Some(*generation),
            _ => None,
        })
        .collect();
    assert_eq!(granted, vec![2]);
}

#[test]
fn the_fence_monitor_catches_a_file_server_that_accepts_an_older_generation() {
    let names: Arc<Vec<String>> = Arc::new(
        ["Α", "Β", "Γ", "C1", "C2", "F"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
    );
    let mut m = MultiMonitor::new(names, 3);
    let mut found = Vec::new();
    let f = NodeId(5);
    let reply = |generation, verdict| MpMsg::WriteReply {
        lock: 0,
        generation,
        verdict,
    };
    m.on_send(f, &reply(1, Verdict::Accepted), &mut found);
    m.on_send(f, &reply(2, Verdict::Accepted), &mut found);
    // A refusal of an older one is what a fence is for: no finding.
    m.on_send(f, &reply(1, Verdict::NotCurrent), &mut found);
    assert!(found.is_empty(), "{found:?}");
    m.on_send(f, &reply(1, Verdict::Accepted), &mut found);
    assert!(
        matches!(&found[..], [Finding::Violation(Invariant::FencingMonotonic, d)] if d.contains("generation 1 after one with generation 2")),
        "{found:?}"
    );
}

#[test]
fn a_master_ending_a_session_is_valid_only_after_it_said_the_session_timed_out() {
    use paxos_island::protocol::multipaxos::{Ballot, Cmd, Op, Slot};
    let names: Arc<Vec<String>> = Arc::new(
        ["Α", "Β", "Γ", "C1"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
    );
    let mut m = MultiMonitor::new(names, 3);
    let mut found = Vec::new();
    let alpha = NodeId(0);
    let end = Cmd {
        client: alpha,
        seq: 0,
        op: Op::EndSession { client: NodeId(3) },
    };
    let accept = MpMsg::Accept {
        ballot: Ballot {
            round: 1,
            node: alpha,
        },
        slot: Slot(4),
        cmd: end,
    };
    m.on_send(alpha, &accept, &mut found);
    assert!(
        matches!(&found[..], [Finding::Violation(Invariant::Validity, _)]),
        "{found:?}"
    );
    found.clear();
    let clock = paxos_island::sim::clock::Clock::default();
    m.on_note(
        paxos_island::sim::SimTime(1),
        alpha,
        &clock,
        &MpNote::SessionTimedOut { client: NodeId(3) },
        &mut found,
    );
    m.on_send(alpha, &accept, &mut found);
    assert!(found.is_empty(), "{found:?}");
}

fn spec(s: &mut Scenario) -> &mut paxos_island::scenario::multipaxos_spec::MultiSpec {
    s.multipaxos.as_mut().unwrap()
}

fn with_cell(f: impl FnOnce(&mut Scenario)) -> Result<Run, String> {
    let mut s = builtin::get("chubby-sequencer").unwrap();
    f(&mut s);
    Run::record(&s).map_err(|e| e.to_string())
}

#[test]
fn bad_cell_settings_are_named() {
    let err = with_cell(|s| spec(s).cell = None).unwrap_err();
    assert!(
        err.contains("storage") || err.contains("Chubby cell"),
        "{err}"
    );
    let err = with_cell(|s| {
        spec(s).clients[0].ops[1] = ScriptOp {
            lock: Some(9),
            ..ScriptOp::acquire(0, 0)
        };
    })
    .unwrap_err();
    assert!(err.contains("9 is not a lock"), "{err}");
    let err = with_cell(|s| {
        s.nodes.retain(|n| n.id != "F");
        spec(s).cell = None;
        spec(s).clients[1].ops = vec![ScriptOp::open(0)];
        spec(s).clients.truncate(2);
    })
    .unwrap_err();
    assert!(err.contains("needs a Chubby cell"), "{err}");
    let err = with_cell(|s| {
        spec(s).cell = Some(CellSpec {
            keepalive_us: 0,
            ..CellSpec::default()
        })
    })
    .unwrap_err();
    assert!(err.contains("keepalive_us"), "{err}");
    // Without a file server, a cell still runs; a write then goes nowhere.
    assert!(with_cell(|s| s.nodes.retain(|n| n.id != "F")).is_ok());
}
