//! The commit view's lanes, from a run's trace: one lane per RM showing
//! what it is — working, **uncertain** (prepared, holding its locks, not
//! knowing the outcome), committed or aborted — and when its node was down;
//! marks for the coordinators' decisions and takeovers. Pure data; the view
//! maps time to x.

use crate::protocol::commit::{CommitNote, Outcome, RmVote};
use crate::protocol::Note;
use crate::scenario::run::Run;
use crate::scenario::Role;
use crate::sim::fault::Fault;
use crate::sim::{NodeId, SimTime};
use crate::trace::EventKind;

/// What an RM is during a span.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RmPhase {
    Working,
    /// Prepared, not knowing the outcome: its locks are held.
    Uncertain,
    Committed,
    Aborted,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Span<T> {
    pub from: SimTime,
    pub to: SimTime,
    pub what: T,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RmLane {
    pub node: NodeId,
    pub name: String,
    /// Also the TM (or the first leader), an acceptor, a backup coordinator.
    pub tm: bool,
    pub acceptor: bool,
    pub coordinator: bool,
    pub phases: Vec<Span<RmPhase>>,
    /// Crashed spans of its node.
    pub down: Vec<Span<()>>,
    /// Time spent uncertain by the end of the run.
    pub uncertain_us: u64,
}

/// A coordinator's mark on the lanes.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// The TM wrote its decision, or a Paxos Commit coordinator learned it.
    Decided { node: NodeId, outcome: Outcome },
    /// A coordinator started a ballot of its own.
    Takeover { node: NodeId, round: u16 },
}

#[derive(Clone, Debug, PartialEq)]
pub struct CommitLanes {
    pub rms: Vec<RmLane>,
    /// Nodes that are not RMs (a TM of its own, extra acceptors), with their down spans.
    pub others: Vec<(NodeId, String, Vec<Span<()>>)>,
    pub marks: Vec<(SimTime, Mark)>,
    pub end: SimTime,
}

impl CommitLanes {
    /// The longest time any RM spent uncertain.
    pub fn longest_uncertain_us(&self) -> u64 {
        self.rms.iter().map(|l| l.uncertain_us).max().unwrap_or(0)
    }
}

fn close<T: PartialEq>(list: &mut Vec<Span<T>>, at: SimTime) {
    if let Some(last) = list.last_mut() {
        if last.to == SimTime(u64::MAX) {
            last.to = at;
        }
    }
}

/// The lanes of a commit run.
pub fn lanes(run: &Run) -> CommitLanes {
    let s = &run.scenario;
    let end = run.end;
    let open = SimTime(u64::MAX);
    let roles = |i: usize, r: Role| s.nodes.get(i).is_some_and(|n| n.roles.contains(&r));
    let mut rms: Vec<RmLane> = s
        .nodes_with(Role::Rm)
        .into_iter()
        .map(|n| RmLane {
            node: n,
            name: run.names[n.index()].clone(),
            tm: roles(n.index(), Role::Tm),
            acceptor: roles(n.index(), Role::Acceptor),
            coordinator: roles(n.index(), Role::Coordinator),
            phases: vec![Span {
                from: SimTime::ZERO,
                to: open,
                what: RmPhase::Working,
            }],
            down: Vec::new(),
            uncertain_us: 0,
        })
        .collect();
    let mut others: Vec<(NodeId, String, Vec<Span<()>>)> = (0..s.nodes.len())
        .filter(|&i| !roles(i, Role::Rm))
        .map(|i| (NodeId(i as u8), run.names[i].clone(), Vec::new()))
        .collect();
    let mut marks = Vec::new();
    for e in &run.trace {
        let lane = rms.iter_mut().position(|l| l.node == e.node);
        match &e.kind {
            EventKind::Note(Note::Commit(n)) => {
                let phase = match *n {
                    CommitNote::RmVoted {
                        vote: RmVote::Prepared,
                    } => Some(RmPhase::Uncertain),
                    CommitNote::RmVoted {
                        vote: RmVote::Aborted,
                    }
                    | CommitNote::RmDecided {
                        outcome: Outcome::Abort,
                    } => Some(RmPhase::Aborted),
                    CommitNote::RmDecided {
                        outcome: Outcome::Commit,
                    } => Some(RmPhase::Committed),
                    CommitNote::TmDecided { outcome } | CommitNote::LeaderDecided { outcome } => {
                        marks.push((
                            e.t,
                            Mark::Decided {
                                node: e.node,
                                outcome,
                            },
                        ));
                        None
                    }
                    CommitNote::CoordinatorBallot { ballot, .. } => {
                        marks.push((
                            e.t,
                            Mark::Takeover {
                                node: e.node,
                                round: ballot.round,
                            },
                        ));
                        None
                    }
                    _ => None,
                };
                if let (Some(p), Some(i)) = (phase, lane) {
                    let l = &mut rms[i];
                    close(&mut l.phases, e.t);
                    l.phases.push(Span {
                        from: e.t,
                        to: open,
                        what: p,
                    });
                }
            }
            EventKind::Fault {
                fault: Fault::Crash { node },
            } => {
                let span = Span {
                    from: e.t,
                    to: open,
                    what: (),
                };
                match rms.iter_mut().find(|l| l.node == *node) {
                    Some(l) if l.down.last().is_none_or(|d| d.to != open) => l.down.push(span),
                    Some(_) => {}
                    None => {
                        if let Some(o) = others.iter_mut().find(|o| o.0 == *node) {
                            if o.2.last().is_none_or(|d| d.to != open) {
                                o.2.push(span);
                            }
                        }
                    }
                }
            }
            EventKind::Fault {
                fault: Fault::Restart { node },
            } => match rms.iter_mut().find(|l| l.node == *node) {
                Some(l) => close(&mut l.down, e.t),
                None => {
                    if let Some(o) = others.iter_mut().find(|o| o.0 == *node) {
                        close(&mut o.2, e.t);
                    }
                }
            },
            _ => {}
        }
    }
    for l in &mut rms {
        close(&mut l.phases, end);
        close(&mut l.down, end);
        l.uncertain_us = l
            .phases
            .iter()
            .filter(|p| p.what == RmPhase::Uncertain)
            .map(|p| p.to.0.saturating_sub(p.from.0))
            .sum();
    }
    for o in &mut others {
        close(&mut o.2, end);
    }
    CommitLanes {
        rms,
        others,
        marks,
        end,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::builtin;

    #[test]
    fn the_2pc_rms_stay_uncertain_while_the_tm_is_down() {
        let run = Run::record(&builtin::get("commit-2pc-tm-crash").unwrap()).unwrap();
        let l = lanes(&run);
        assert_eq!(l.rms.len(), 5);
        assert!(l.rms[0].tm && l.rms[0].down.len() == 1);
        for rm in &l.rms[1..] {
            let u = rm
                .phases
                .iter()
                .find(|p| p.what == RmPhase::Uncertain)
                .expect("prepared");
            assert!(
                u.from < SimTime(140_000) && u.to > SimTime(3_000_000),
                "{}: {u:?}",
                rm.name
            );
            assert_eq!(rm.phases.last().unwrap().what, RmPhase::Aborted);
        }
        assert!(l.longest_uncertain_us() > 2_900_000);
    }

    #[test]
    fn paxos_commit_marks_the_takeover_and_the_decision() {
        let run = Run::record(&builtin::get("commit-paxos-tm-crash").unwrap()).unwrap();
        let l = lanes(&run);
        assert!(l.marks.iter().any(|m| matches!(
            m.1,
            Mark::Takeover {
                node: NodeId(1),
                ..
            }
        )));
        assert!(l.marks.iter().any(|m| matches!(
            m.1,
            Mark::Decided {
                node: NodeId(1),
                outcome: Outcome::Commit
            }
        )));
        for rm in &l.rms[1..] {
            assert_eq!(rm.phases.last().unwrap().what, RmPhase::Committed);
            assert!(
                rm.uncertain_us < 1_600_000,
                "{}: {}",
                rm.name,
                rm.uncertain_us
            );
        }
    }
}
