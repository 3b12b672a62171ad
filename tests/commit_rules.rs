//! Two-phase commit and Paxos Commit, one test per rule of Gray and Lamport's
//! paper (and of DOMAIN §3), each on real runs of the built-in scenarios or
//! of calm transactions of a given shape.

use paxos_island::protocol::commit::CommitCommand;
use paxos_island::protocol::commit::{Algorithm, CommitMsg, CommitNote, Outcome, RmVote};
use paxos_island::protocol::{Msg, Note};
use paxos_island::scenario::builtin;
use paxos_island::scenario::commit_spec::{transaction, Placement, Shape};
use paxos_island::scenario::commit_table::{self, measure};
use paxos_island::scenario::run::Run;
use paxos_island::scenario::Scheduled;
use paxos_island::sim::{NodeId, SimTime};
use paxos_island::trace::{EventKind, TraceEvent};

fn run(name: &str) -> Run {
    Run::record(&builtin::get(name).unwrap()).unwrap()
}

fn shape(algorithm: Algorithm, faster: bool, rms: usize, f: usize, placement: Placement) -> Shape {
    Shape {
        algorithm,
        faster,
        rms,
        f,
        placement,
    }
}

/// (time, from, to, message) of every message that crossed the network.
fn network_sends(trace: &[TraceEvent]) -> Vec<(u64, NodeId, NodeId, CommitMsg)> {
    trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Send {
                to,
                msg: Msg::Commit(m),
                ..
            } if *to != e.node => Some((e.t.0, e.node, *to, *m)),
            _ => None,
        })
        .collect()
}

fn notes(trace: &[TraceEvent]) -> Vec<(u64, NodeId, CommitNote)> {
    trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note(Note::Commit(n)) => Some((e.t.0, e.node, n.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn two_phase_commit_sends_3n_minus_1_messages_with_a_separate_tm_and_3n_minus_3_co_located() {
    for n in 2..=7 {
        let sep = commit_table::row(shape(
            Algorithm::TwoPhaseCommit,
            false,
            n,
            0,
            Placement::Separate,
        ));
        let col = commit_table::row(shape(
            Algorithm::TwoPhaseCommit,
            false,
            n,
            0,
            Placement::Colocated,
        ));
        assert_eq!(sep.measured.messages, 3 * n - 1, "N = {n}");
        assert_eq!(col.measured.messages, 3 * n - 3, "N = {n}");
        assert!(sep.matches() && col.matches(), "N = {n}: {sep:?} {col:?}");
    }
}

#[test]
fn paxos_commit_sends_n_f_plus_3_minus_3_messages_and_faster_n_minus_1_2f_plus_3() {
    for n in 2..=7usize {
        for f in 0..=(n.saturating_sub(1) / 2).min(3) {
            let pc = commit_table::row(shape(
                Algorithm::PaxosCommit,
                false,
                n,
                f,
                Placement::Colocated,
            ));
            let fast = commit_table::row(shape(
                Algorithm::PaxosCommit,
                true,
                n,
                f,
                Placement::Colocated,
            ));
            assert_eq!(pc.measured.messages, n * (f + 3) - 3, "N = {n}, F = {f}");
            assert_eq!(
                fast.measured.messages,
                (n - 1) * (2 * f + 3),
                "N = {n}, F = {f}"
            );
            assert!(
                pc.matches() && fast.matches(),
                "N = {n}, F = {f}: {pc:?} {fast:?}"
            );
        }
    }
}

#[test]
fn the_paper_example_five_rms_one_fault_is_14_or_12_then_17_then_20() {
    let t = commit_table::table(5, 1);
    let counts: Vec<usize> = t.iter().map(|r| r.measured.messages).collect();
    assert_eq!(counts, vec![14, 12, 17, 20]);
    assert!(t.iter().all(|r| r.matches()), "{t:?}");
    // Stable-storage writes: N+1 for 2PC, N+F+1 for both Paxos Commits.
    let writes: Vec<usize> = t.iter().map(|r| r.measured.writes).collect();
    assert_eq!(writes, vec![6, 6, 7, 7]);
    // Message delays: Paxos Commit takes one more than 2PC; Faster as many as 2PC.
    let delays: Vec<Option<u32>> = t.iter().map(|r| r.measured.delays).collect();
    assert_eq!(delays, vec![Some(4), Some(3), Some(4), Some(3)]);
}

#[test]
fn an_rm_writes_its_vote_before_it_sends_it() {
    for name in ["commit-2pc", "commit-paxos"] {
        let r = run(name);
        for e in &r.trace {
            let EventKind::Send {
                msg: Msg::Commit(m),
                ..
            } = &e.kind
            else {
                continue;
            };
            let own = match m {
                CommitMsg::Vote { rm, .. } => Some(*rm),
                CommitMsg::Phase2a { ballot, votes } if ballot.is_zero() => {
                    votes.iter().next().map(|v| v.0)
                }
                _ => None,
            };
            if let Some(rm) = own {
                let written = r.trace.iter().take_while(|x| x.seq < e.seq).any(|x| {
                    x.node == rm
                        && matches!(
                            x.kind,
                            EventKind::Note(Note::Commit(CommitNote::RmVoted { .. }))
                        )
                });
                assert!(
                    written,
                    "{name}: {rm:?} sent its vote at seq {} before writing it",
                    e.seq
                );
            }
        }
    }
}

#[test]
fn the_tm_decides_commit_only_after_every_rm_voted_prepared() {
    let r = run("commit-2pc");
    let ns = notes(&r.trace);
    let decided = ns
        .iter()
        .position(|n| {
            matches!(
                n.2,
                CommitNote::TmDecided {
                    outcome: Outcome::Commit
                }
            )
        })
        .expect("a decision");
    let prepared = ns[..decided]
        .iter()
        .filter(|n| {
            matches!(
                n.2,
                CommitNote::RmVoted {
                    vote: RmVote::Prepared
                }
            )
        })
        .count();
    assert_eq!(prepared, 5);
    // …and writes it before any RM hears it.
    let first_commit = r
        .trace
        .iter()
        .find(|e| {
            matches!(
                e.kind,
                EventKind::Send {
                    msg: Msg::Commit(CommitMsg::Decision { .. }),
                    ..
                }
            )
        })
        .unwrap();
    let tm_write = r
        .trace
        .iter()
        .find(|e| {
            matches!(
                e.kind,
                EventKind::Note(Note::Commit(CommitNote::TmDecided { .. }))
            )
        })
        .unwrap();
    assert!(tm_write.seq < first_commit.seq);
}

#[test]
fn one_aborted_vote_aborts_every_rm_in_both_protocols() {
    for name in ["commit-2pc", "commit-paxos", "commit-paxos-f0"] {
        let mut s = builtin::get(name).unwrap();
        s.commit.as_mut().unwrap().aborts = vec!["RM3".into()];
        let r = Run::record(&s).unwrap();
        let m = r.last.monitors().commit.as_ref().unwrap();
        assert_eq!(m.all_decided(), Some(Outcome::Abort), "{name}");
        assert!(r.summary().violations.is_empty(), "{name}");
    }
}

#[test]
fn the_vote_abort_command_makes_an_rm_vote_aborted() {
    let mut s = builtin::get("commit-2pc").unwrap();
    s.faults.push(Scheduled {
        at_us: 0,
        fault: CommitCommand::VoteAbort {
            node: "RM4".to_string(),
        }
        .into(),
    });
    let r = Run::record(&s).unwrap();
    let votes: Vec<(NodeId, CommitNote)> =
        notes(&r.trace).into_iter().map(|n| (n.1, n.2)).collect();
    assert!(votes.contains(&(
        NodeId(3),
        CommitNote::RmVoted {
            vote: RmVote::Aborted
        }
    )));
    assert_eq!(
        r.last.monitors().commit.as_ref().unwrap().all_decided(),
        Some(Outcome::Abort)
    );
}

#[test]
fn a_tm_crash_after_the_rms_prepared_blocks_them_until_it_returns() {
    let r = run("commit-2pc-tm-crash");
    let at = |t: u64| r.state_at(SimTime(t));
    // At 2.9 s the TM has been down for 2.76 s: RM2…RM5 are prepared and uncertain.
    let before = at(2_900_000);
    let m = before.monitors().commit.as_ref().unwrap();
    for i in 1..5 {
        let rec = m.records[i];
        assert!(
            matches!(rec.vote, Some((RmVote::Prepared, _))) && rec.outcome.is_none(),
            "RM{} at 2.9 s: {rec:?}",
            i + 1
        );
        assert!(rec.uncertain_us(SimTime(2_900_000)) > 2_700_000);
    }
    // Once the TM is back it finds no decision in its log and aborts; then everyone knows.
    let m = r.last.monitors().commit.as_ref().unwrap();
    assert_eq!(m.all_decided(), Some(Outcome::Abort));
    for rec in &m.records[1..] {
        assert!(
            rec.outcome.unwrap().1 >= SimTime(3_000_000),
            "decided only after the TM returned"
        );
    }
}

#[test]
fn paxos_commit_finishes_without_waiting_for_the_failed_leader() {
    let r = run("commit-paxos-tm-crash");
    let before = r.state_at(SimTime(2_900_000));
    let m = before.monitors().commit.as_ref().unwrap();
    for (i, rec) in m.records.iter().enumerate().skip(1) {
        assert_eq!(
            rec.outcome.map(|o| o.0),
            Some(Outcome::Commit),
            "RM{} by 2.9 s",
            i + 1
        );
        assert!(rec.outcome.unwrap().1 < SimTime(2_000_000));
    }
    // RM2's coordinator took over with a ballot of its own…
    let takeover = notes(&r.trace)
        .into_iter()
        .find(|n| matches!(n.2, CommitNote::CoordinatorBallot { .. }))
        .expect("a takeover");
    assert_eq!(takeover.1, NodeId(1));
    // …and B3 forced it to keep every "prepared" already voted: it proposed no "aborted".
    let recovery_2a: Vec<CommitMsg> = network_sends(&r.trace)
        .into_iter()
        .filter_map(|s| match s.3 {
            m @ CommitMsg::Phase2a { ballot, .. } if !ballot.is_zero() => Some(m),
            _ => None,
        })
        .collect();
    assert!(!recovery_2a.is_empty());
    assert!(recovery_2a.iter().all(|m| matches!(m, CommitMsg::Phase2a { votes, .. } if !votes.any_aborted() && votes.rms.len() == 5)));
    // The old leader's node comes back at 3 s and learns the outcome too.
    assert_eq!(
        r.last.monitors().commit.as_ref().unwrap().all_decided(),
        Some(Outcome::Commit)
    );
}

#[test]
fn a_coordinator_proposes_aborted_for_an_rm_nobody_heard_from() {
    // RM5 is cut off from the start: it never gets Prepare, never votes.
    let mut s = builtin::get("commit-paxos").unwrap();
    s.faults.push(Scheduled {
        at_us: 0,
        fault: paxos_island::sim::fault::Fault::Partition {
            groups: vec![
                vec!["RM1".into(), "RM2".into(), "RM3".into(), "RM4".into()],
                vec!["RM5".into()],
            ],
            oneway: false,
        }
        .into(),
    });
    let r = Run::record(&s).unwrap();
    let free = network_sends(&r.trace).into_iter().find_map(|s| match s.3 {
        CommitMsg::Phase2a { ballot, votes } if !ballot.is_zero() => Some(votes),
        _ => None,
    });
    let votes = free.expect("the leader times out and runs ballot 1");
    assert_eq!(
        votes.get(NodeId(4)),
        Some(RmVote::Aborted),
        "free: RM5 never voted"
    );
    assert_eq!(
        votes.get(NodeId(0)),
        Some(RmVote::Prepared),
        "forced: RM1 did"
    );
    let m = r.last.monitors().commit.as_ref().unwrap();
    assert!(m.records[..4]
        .iter()
        .all(|x| x.outcome.map(|o| o.0) == Some(Outcome::Abort)));
    assert!(r.summary().violations.is_empty());
}

#[test]
fn with_f_zero_paxos_commit_sends_two_phase_commits_messages() {
    // 2PC's Prepared is the ballot-0 2a, the acceptor's written vote is the
    // TM's log record, and the leader's Commit is the TM's: the same arrows.
    let class = |m: &CommitMsg| match m {
        CommitMsg::Prepare { .. } => "prepare",
        CommitMsg::Vote {
            vote: RmVote::Prepared,
            ..
        }
        | CommitMsg::Phase2a { .. } => "prepared",
        CommitMsg::Decision {
            outcome: Outcome::Commit,
            ..
        } => "commit",
        _ => "other",
    };
    let two = network_sends(&run("commit-2pc").trace);
    let f0 = network_sends(&run("commit-paxos-f0").trace);
    let shape = |v: &[(u64, NodeId, NodeId, CommitMsg)]| {
        v.iter()
            .map(|s| (s.0, s.1, s.2, class(&s.3)))
            .collect::<Vec<_>>()
    };
    assert_eq!(shape(&two), shape(&f0));
    assert_eq!(two.len(), 12);
    let writes = |name| measure(&run(name).trace, 5).writes;
    assert_eq!(writes("commit-2pc"), writes("commit-paxos-f0"));
}

#[test]
fn an_acceptor_writes_every_instance_at_once_in_the_normal_case() {
    let r = run("commit-paxos");
    let acceptor_writes: Vec<_> = notes(&r.trace)
        .into_iter()
        .filter(|n| matches!(n.2, CommitNote::AcceptorVoted { .. }))
        .collect();
    assert_eq!(acceptor_writes.len(), 2, "F+1 acceptors, one write each");
    for (_, _, n) in acceptor_writes {
        let CommitNote::AcceptorVoted { ballot, votes } = n else {
            unreachable!()
        };
        assert!(ballot.is_zero() && votes.rms.len() == 5 && !votes.any_aborted());
    }
}

#[test]
fn in_faster_paxos_commit_the_rms_learn_from_the_acceptors() {
    let s = transaction(
        "faster",
        shape(Algorithm::PaxosCommit, true, 5, 1, Placement::Colocated),
    );
    let r = Run::record(&s).unwrap();
    let sends = network_sends(&r.trace);
    assert!(
        !sends
            .iter()
            .any(|s| matches!(s.3, CommitMsg::Decision { .. })),
        "no Commit message: the RMs count the 2b"
    );
    assert_eq!(
        r.last.monitors().commit.as_ref().unwrap().all_decided(),
        Some(Outcome::Commit)
    );
}

#[test]
fn each_rm_is_uncertain_from_its_prepared_to_its_outcome() {
    let r = run("commit-2pc");
    let m = r.last.monitors().commit.as_ref().unwrap();
    for (i, rec) in m.records.iter().enumerate() {
        let (_, from) = rec.vote.unwrap();
        let (_, to) = rec.outcome.unwrap();
        assert_eq!(rec.uncertain_us(r.end), to.0 - from.0, "RM{}", i + 1);
        assert!(to > from);
    }
}
