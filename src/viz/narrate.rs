//! Narration: the trace turned into one fact per line, in a form that each
//! language then puts into words (`i18n`). Broadcasts are folded into one
//! line ("Α sends prepare (1a) for ballot (3,Α) to everyone"), deliveries are
//! left to the picture, and everything else is kept.

use crate::check::Invariant;
use crate::protocol::commit::CommitNote;
use crate::protocol::lease::{LeaseMsg, LeaseNote};
use crate::protocol::multipaxos::MpNote;
use crate::protocol::paxos::PaxosNote;
use crate::protocol::{Command, Msg, Note, Timer};
use crate::sim::fault::Fault;
use crate::sim::{NodeId, SimTime};
use crate::trace::{DropReason, EventKind, TraceEvent};

/// One narrated fact.
#[derive(Clone, Debug, PartialEq)]
pub enum Say {
    /// A message to one node.
    Sent {
        from: NodeId,
        to: NodeId,
        msg: Msg,
    },
    /// The same message to several nodes at once.
    Broadcast {
        from: NodeId,
        to: Vec<NodeId>,
        everyone: bool,
        msg: Msg,
    },
    Dropped {
        from: NodeId,
        to: NodeId,
        msg: Msg,
        reason: DropReason,
    },
    Duplicated {
        from: NodeId,
        to: NodeId,
        msg: Msg,
    },
    Timer {
        node: NodeId,
        timer: Timer,
    },
    Fault {
        fault: Fault<NodeId>,
        /// The parliament's: a crash leaves the chamber and keeps the
        /// ledger. Elsewhere a node crashes and keeps what it wrote to disk.
        chamber: bool,
    },
    /// A command to the protocol (a new proposal, an LLM stall).
    Command {
        command: Command,
    },
    Woke {
        node: NodeId,
    },
    Paxos {
        node: NodeId,
        note: PaxosNote,
    },
    Lease {
        node: NodeId,
        note: LeaseNote,
    },
    Multi {
        node: NodeId,
        note: MpNote,
    },
    Commit {
        node: NodeId,
        note: CommitNote,
    },
    Violation {
        node: NodeId,
        invariant: Invariant,
        detail: String,
    },
    /// An event of a kind this version does not know.
    Foreign {
        node: NodeId,
        kind: String,
        detail: String,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub t: SimTime,
    /// Trace position of the first event the line covers.
    pub seq: u64,
    pub say: Say,
}

impl Line {
    /// Lines worth a marker on the scrubber and a jump key.
    pub fn is_milestone(&self) -> bool {
        matches!(
            self.say,
            Say::Fault { .. }
                | Say::Command { .. }
                | Say::Violation { .. }
                | Say::Paxos {
                    note: PaxosNote::Chosen { .. }
                        | PaxosNote::ValuePicked { .. }
                        | PaxosNote::Learned { .. },
                    ..
                }
                | Say::Lease {
                    note: LeaseNote::Granted { .. }
                        | LeaseNote::WriteRejected { .. }
                        | LeaseNote::SplitBrainStart { .. },
                    ..
                }
                | Say::Multi {
                    note: MpNote::Elected { .. }
                        | MpNote::SteppedDown { .. }
                        | MpNote::CaughtUp { .. }
                        | MpNote::MasterLeaseHeld { .. },
                    ..
                }
                | Say::Commit {
                    note: CommitNote::TmDecided { .. }
                        | CommitNote::LeaderDecided { .. }
                        | CommitNote::CoordinatorBallot { .. },
                    ..
                }
        )
    }
}

/// Is this note worth a line? Ledger updates are visible in the ledgers, and
/// a worker's belief flips are shown on its lane.
fn tell(note: &Note) -> bool {
    !matches!(
        note,
        Note::Paxos(PaxosNote::Ledger { .. } | PaxosNote::Asked { .. } | PaxosNote::BallotStarted { .. })
            | Note::Lease(LeaseNote::Belief { .. } | LeaseNote::WriteSent { .. })
            // Each replica learns and applies every slot: the log view shows it.
            | Note::Multipaxos(
                MpNote::Learned { .. }
                    | MpNote::Applied { .. }
                    | MpNote::BallotStarted { .. }
                    | MpNote::LeaseHeld { .. }
                    | MpNote::LeaseLost { .. }
            )
    )
}

/// Narrate `events` (a slice of a trace). `everyone` is the node count that
/// makes a broadcast "to everyone".
pub fn lines(events: &[TraceEvent], node_count: usize) -> Vec<Line> {
    let chamber = events.iter().any(|e| {
        matches!(
            e.kind,
            EventKind::Send {
                msg: Msg::Paxos(_),
                ..
            }
        )
    });
    let mut out: Vec<Line> = Vec::new();
    let mut i = 0;
    while i < events.len() {
        let e = &events[i];
        let line = |say| Line {
            t: e.t,
            seq: e.seq,
            say,
        };
        match &e.kind {
            // The store's row reaching orders is the inside of one database:
            // the grant or renewal it follows is the line worth reading.
            EventKind::Send {
                msg: Msg::Lease(LeaseMsg::Row { .. }),
                ..
            } => {}
            EventKind::Send { to, msg, .. } => {
                // Fold consecutive sends of the same message by the same node.
                let mut to_list = vec![*to];
                let mut j = i + 1;
                while j < events.len() {
                    match &events[j].kind {
                        EventKind::Send {
                            to: t2, msg: m2, ..
                        } if events[j].node == e.node && m2 == msg && events[j].t == e.t => {
                            to_list.push(*t2);
                            j += 1;
                        }
                        // Monitor findings and duplicates interleave with sends,
                        // and so does a copy refused at once by a cut link (a
                        // partition): the broadcast still went to everyone.
                        EventKind::Duplicate { .. }
                        | EventKind::Note(Note::Paxos(PaxosNote::Chosen { .. }))
                            if events[j].t == e.t =>
                        {
                            j += 1;
                        }
                        EventKind::Drop { from, msg: m2, .. }
                            if events[j].t == e.t && *from == e.node && m2 == msg =>
                        {
                            j += 1;
                        }
                        _ => break,
                    }
                }
                // Keep what we skipped over (except the sends).
                let skipped: Vec<&TraceEvent> = events[i + 1..j]
                    .iter()
                    .filter(|x| !matches!(x.kind, EventKind::Send { .. }))
                    .collect();
                if to_list.len() == 1 {
                    out.push(line(Say::Sent {
                        from: e.node,
                        to: *to,
                        msg: msg.clone(),
                    }));
                } else {
                    let everyone = to_list.len() >= node_count;
                    out.push(line(Say::Broadcast {
                        from: e.node,
                        to: to_list,
                        everyone,
                        msg: msg.clone(),
                    }));
                }
                for x in skipped {
                    out.extend(single(x, chamber));
                }
                i = j;
                continue;
            }
            _ => out.extend(single(e, chamber)),
        }
        i += 1;
    }
    out
}

fn single(e: &TraceEvent, chamber: bool) -> Option<Line> {
    let say = match &e.kind {
        EventKind::Send {
            msg: Msg::Lease(LeaseMsg::Row { .. }),
            ..
        } => return None,
        EventKind::Send { to, msg, .. } => Say::Sent {
            from: e.node,
            to: *to,
            msg: msg.clone(),
        },
        EventKind::Deliver { .. } => return None,
        EventKind::Drop {
            from,
            to,
            msg,
            reason,
            ..
        } => Say::Dropped {
            from: *from,
            to: *to,
            msg: msg.clone(),
            reason: *reason,
        },
        EventKind::Duplicate { to, msg, .. } => Say::Duplicated {
            from: e.node,
            to: *to,
            msg: msg.clone(),
        },
        EventKind::Timer { timer } => Say::Timer {
            node: e.node,
            timer: *timer,
        },
        EventKind::Fault { fault } => Say::Fault {
            fault: fault.clone(),
            chamber,
        },
        EventKind::Command { command } => Say::Command {
            command: command.clone(),
        },
        EventKind::Resume => Say::Woke { node: e.node },
        EventKind::Note(n) if !tell(n) => return None,
        // The note is cloned whole (`Note`'s own clone copies another
        // protocol's note through the table that comes with its builders),
        // then moved into its line.
        EventKind::Note(n) => match n.clone() {
            Note::Paxos(note) => Say::Paxos { node: e.node, note },
            Note::Lease(note) => Say::Lease { node: e.node, note },
            Note::Multipaxos(note) => Say::Multi { node: e.node, note },
            Note::Commit(note) => Say::Commit { node: e.node, note },
        },
        EventKind::Violation { invariant, detail } => Say::Violation {
            node: e.node,
            invariant: *invariant,
            detail: detail.clone(),
        },
        EventKind::Foreign { kind, detail } => Say::Foreign {
            node: e.node,
            kind: kind.clone(),
            detail: detail.clone(),
        },
    };
    Some(Line {
        t: e.t,
        seq: e.seq,
        say,
    })
}

/// Timers worth narrating (the others are bookkeeping).
pub fn timer_is_interesting(t: &Timer) -> bool {
    use crate::protocol::commit::CommitTimer;
    use crate::protocol::lease::LeaseTimer;
    use crate::protocol::paxos::PaxosTimer;
    matches!(
        t,
        Timer::Paxos(PaxosTimer::PhaseTimeout | PaxosTimer::Backoff)
            | Timer::Lease(LeaseTimer::Deadline | LeaseTimer::LlmTimeout)
            | Timer::Commit(CommitTimer::VoteTimeout | CommitTimer::Takeover)
    )
}

/// `lines` without the bookkeeping timers.
pub fn story(events: &[TraceEvent], node_count: usize) -> Vec<Line> {
    let lease_lab = events.iter().any(|e| {
        matches!(
            e.kind,
            EventKind::Send {
                msg: Msg::Lease(_),
                ..
            }
        )
    });
    lines(events, node_count)
        .into_iter()
        .filter(|l| !matches!(&l.say, Say::Timer { timer, .. } if !timer_is_interesting(timer)))
        // A role talking to another role on the same machine is not a messenger.
        .filter(|l| !matches!(&l.say, Say::Sent { from, to, .. } if from == to))
        // Lease bookkeeping messages whose meaning a note already tells
        // (the grant or refusal, the LLM's question and answer, the write's result).
        .filter(|l| {
            !matches!(
                &l.say,
                Say::Sent { msg: Msg::Lease(LeaseMsg::AcquireReply { .. } | LeaseMsg::Ask { .. } | LeaseMsg::Answer { .. } | LeaseMsg::WriteReply { .. } | LeaseMsg::Acquire { .. }), .. }
            )
        })
        // A lease lab whose store is a Paxos group: the group's heartbeats
        // (every 50 ms) and its replies to workers (the grant or renewal
        // note says the same) would bury the lease's story.
        .filter(|l| !(lease_lab && matches!(&l.say, Say::Sent { msg, .. } | Say::Broadcast { msg, .. } | Say::Dropped { msg, .. } if store_chatter(msg))))
        // A leader's heartbeat every 100 ms, and each follower's answer, made
        // most of the Multi-Paxos narration: each leader's first round says
        // what they are for; the rest are the picture's and the lease lane's.
        .filter(|l| !matches!(&l.say, Say::Sent { msg, .. } | Say::Broadcast { msg, .. } if later_heartbeat(msg)))
        .filter(first_to_find_nobody())
        .collect()
}

/// A heartbeat, or its acknowledgement, after a leader's first round.
fn later_heartbeat(msg: &Msg) -> bool {
    use crate::protocol::multipaxos::MpMsg;
    matches!(
        msg,
        Msg::Multipaxos(MpMsg::Heartbeat { round, .. } | MpMsg::HeartbeatAck { round, .. }) if *round > 1
    )
}

/// A node that is down is found down by every messenger sent to it, and a
/// partition stops every messenger across it: a leader's heartbeat every
/// 100 ms, each voter's reply to a crashed leader. The first of each kind
/// says so — to a node that is down, from one node to another across a
/// partition; the rest, until the node restarts or the partition changes,
/// would bury the story (the picture still shows each one).
fn first_to_find_nobody() -> impl FnMut(&Line) -> bool {
    // (sender, for a partition only; receiver; kind of message)
    type Wall = (Option<NodeId>, NodeId, &'static str);
    // A few walls at a time: a list (a set's code would be in the first load).
    let mut told: Vec<Wall> = Vec::new();
    let first = |told: &mut Vec<Wall>, w: Wall| {
        let new = !told.contains(&w);
        if new {
            told.push(w);
        }
        new
    };
    move |l| match &l.say {
        Say::Fault {
            fault: Fault::Crash { node } | Fault::Restart { node },
            ..
        } => {
            told.retain(|(from, to, _)| from.is_some() || to != node);
            true
        }
        Say::Fault {
            fault: Fault::Partition { .. } | Fault::Heal,
            ..
        } => {
            told.retain(|(from, _, _)| from.is_none());
            true
        }
        Say::Dropped {
            from,
            to,
            msg,
            reason,
        } => match reason {
            DropReason::Down => first(&mut told, (None, *to, msg.type_name())),
            DropReason::Partition => first(&mut told, (Some(*from), *to, msg.type_name())),
            _ => true,
        },
        _ => true,
    }
}

/// A replicated lease store's routine traffic (see `story`).
fn store_chatter(msg: &Msg) -> bool {
    use crate::protocol::multipaxos::{MpMsg, Outcome};
    matches!(
        msg,
        Msg::Multipaxos(
            MpMsg::Heartbeat { .. }
                | MpMsg::HeartbeatAck { .. }
                | MpMsg::Reply {
                    outcome: Outcome::Lease { .. } | Outcome::LeaseReleased { .. },
                    ..
                }
        )
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::paxos::PaxosMsg;
    use crate::scenario::builtin;
    use crate::scenario::run::Run;

    #[test]
    fn broadcasts_fold_into_one_line() {
        let run = Run::record(&builtin::get("calm").unwrap()).unwrap();
        let ls = story(&run.trace, run.names.len());
        let first = ls
            .iter()
            .find(|l| matches!(l.say, Say::Broadcast { .. }))
            .unwrap();
        match &first.say {
            Say::Broadcast {
                from,
                to,
                everyone,
                msg,
            } => {
                assert_eq!(*from, NodeId(0));
                assert_eq!(to.len(), 5);
                assert!(*everyone);
                assert!(matches!(msg, Msg::Paxos(PaxosMsg::Prepare { .. })));
            }
            _ => unreachable!(),
        }
        // Every chosen/learned fact survives.
        assert!(ls.iter().any(|l| matches!(
            l.say,
            Say::Paxos {
                note: PaxosNote::Chosen { .. },
                ..
            }
        )));
        assert_eq!(
            ls.iter()
                .filter(|l| matches!(
                    l.say,
                    Say::Paxos {
                        note: PaxosNote::Learned { .. },
                        ..
                    }
                ))
                .count(),
            5
        );
    }

    /// A prepare sent to all five while a partition cuts three of them off
    /// was told "to Α, Β, Γ" (the fold stopped at Γ's refusal), then "to Δ",
    /// "to Ε": one broadcast to everyone, then each refusal, in order.
    #[test]
    fn a_broadcast_cut_by_a_partition_is_still_one_line_to_everyone() {
        let run = Run::record(&builtin::get("partition-heal").unwrap()).unwrap();
        let ls = story(&run.trace, run.names.len());
        let at0: Vec<&Say> = ls.iter().filter(|l| l.t.0 == 0).map(|l| &l.say).collect();
        let first = at0
            .iter()
            .position(|s| matches!(s, Say::Broadcast { .. } | Say::Sent { .. }))
            .expect("a prepare at 0");
        assert!(
            matches!(at0[first], Say::Broadcast { from: NodeId(0), to, everyone: true, .. } if to.len() == 5),
            "{:?}",
            at0[first]
        );
        let refused: Vec<NodeId> = at0[first + 1..]
            .iter()
            .take_while(|s| matches!(s, Say::Dropped { .. }))
            .map(|s| match s {
                Say::Dropped { to, .. } => *to,
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(refused, vec![NodeId(2), NodeId(3), NodeId(4)]);
        assert!(!at0.iter().any(|s| matches!(
            s,
            Say::Sent {
                from: NodeId(0),
                ..
            }
        )));
    }

    /// After the leader crashed, Multi-Paxos's narration said "Α is down;
    /// Δ's heartbeat finds nobody" every 100 ms for the rest of the run. The
    /// first messenger of each kind to find a node down says so; the trace
    /// keeps every one.
    #[test]
    fn a_node_that_is_down_is_found_down_once_per_kind_of_message() {
        use std::collections::BTreeMap;
        let run = Run::record(&builtin::get("multi-leader-crash").unwrap()).unwrap();
        let down = |l: &Line| match &l.say {
            Say::Dropped {
                to,
                msg,
                reason: DropReason::Down,
                ..
            } => Some((*to, msg.type_name())),
            _ => None,
        };
        let mut raw: BTreeMap<(NodeId, &str), usize> = BTreeMap::new();
        for k in lines(&run.trace, run.names.len()).iter().filter_map(down) {
            *raw.entry(k).or_default() += 1;
        }
        assert!(
            raw.get(&(NodeId(0), "heartbeat")).copied().unwrap_or(0) > 5,
            "the run should find Α down many times: {raw:?}"
        );
        let mut told: BTreeMap<(NodeId, &str), usize> = BTreeMap::new();
        for k in story(&run.trace, run.names.len()).iter().filter_map(down) {
            *told.entry(k).or_default() += 1;
        }
        // Every kind that found Α down is told, once (Α never restarts here).
        assert_eq!(
            told.keys().collect::<Vec<_>>(),
            raw.keys().collect::<Vec<_>>()
        );
        assert!(told.values().all(|&n| n == 1), "{told:?}");
    }

    /// A node found down, restarted and down again is told again; so is a
    /// partition's wall once it changes.
    #[test]
    fn a_restart_lets_the_next_crash_be_told_again() {
        let mut said = first_to_find_nobody();
        let line = |say| Line {
            t: SimTime(0),
            seq: 0,
            say,
        };
        let drop = || {
            line(Say::Dropped {
                from: NodeId(1),
                to: NodeId(0),
                msg: Msg::Paxos(crate::protocol::paxos::PaxosMsg::Prepare {
                    ballot: crate::protocol::ballot::Ballot {
                        round: 1,
                        node: NodeId(1),
                    },
                }),
                reason: DropReason::Down,
            })
        };
        let fault = |fault| {
            line(Say::Fault {
                fault,
                chamber: true,
            })
        };
        assert!(said(&fault(Fault::Crash { node: NodeId(0) })));
        assert!(said(&drop()));
        assert!(!said(&drop()));
        assert!(said(&fault(Fault::Restart { node: NodeId(0) })));
        assert!(said(&fault(Fault::Crash { node: NodeId(0) })));
        assert!(said(&drop()));
        // Across a partition: once per sender, receiver and kind, until the
        // partition changes; a crash elsewhere does not reset it.
        let cut = |from: u8| {
            let mut l = drop();
            if let Say::Dropped {
                from: f, reason, ..
            } = &mut l.say
            {
                *f = NodeId(from);
                *reason = DropReason::Partition;
            }
            l
        };
        assert!(said(&cut(1)));
        assert!(said(&cut(2)));
        assert!(!said(&cut(1)));
        assert!(said(&fault(Fault::Restart { node: NodeId(0) })));
        assert!(!said(&cut(1)));
        assert!(said(&fault(Fault::Heal)));
        assert!(said(&cut(1)));
    }

    /// Multi-Paxos's narration was mostly heartbeats and their answers (five
    /// lines every 100 ms): each leader's first round is told, no later one,
    /// and the run still has many.
    #[test]
    fn only_each_leaders_first_round_of_heartbeats_is_told() {
        use crate::protocol::multipaxos::MpMsg;
        let run = Run::record(&builtin::get("multi-leader-crash").unwrap()).unwrap();
        let round = |say: &Say| match say {
            Say::Sent { msg, .. } | Say::Broadcast { msg, .. } => match msg {
                Msg::Multipaxos(
                    MpMsg::Heartbeat { round, .. } | MpMsg::HeartbeatAck { round, .. },
                ) => Some(*round),
                _ => None,
            },
            _ => None,
        };
        let all: Vec<u32> = lines(&run.trace, run.names.len())
            .iter()
            .filter_map(|l| round(&l.say))
            .collect();
        assert!(all.iter().any(|&r| r > 5), "the run has many rounds");
        let told: Vec<u32> = story(&run.trace, run.names.len())
            .iter()
            .filter_map(|l| round(&l.say))
            .collect();
        assert!(!told.is_empty() && told.iter().all(|&r| r == 1), "{told:?}");
        // Α's first round and Δ's (after the crash): two leaders, two rounds.
        let leaders: std::collections::BTreeSet<NodeId> = story(&run.trace, run.names.len())
            .iter()
            .filter_map(|l| match &l.say {
                Say::Broadcast {
                    from,
                    msg: Msg::Multipaxos(MpMsg::Heartbeat { .. }),
                    ..
                } => Some(*from),
                _ => None,
            })
            .collect();
        assert_eq!(leaders.len(), 2, "{leaders:?}");
    }
}
