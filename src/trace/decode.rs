//! Trace format v1 back into events: so that a trace can be *viewed from its
//! events alone* — one whose scenario is missing, recorded by a different
//! version, hand-made, or written by another tool.
//!
//! Decoding never fails: an event (or message) this version cannot read
//! becomes `EventKind::Foreign` with its kind and its fields as text, so the
//! reader still sees it in the narration. For our own traces the round trip
//! `events_json(decode(events_json(t))) == events_json(t)` holds exactly.

use super::{DropReason, EventKind, TraceEvent};
use crate::check::Invariant;
use crate::protocol::commit::{
    self, CommitMsg, CommitNote, CommitTimer, LastVotes, Report, RmSet, RmVote, Votes,
};
use crate::protocol::lease::{LeaseMsg, LeaseNote, LeaseRow, LeaseTimer, View};
use crate::protocol::llm::{LlmOutcome, Purpose};
use crate::protocol::paxos::{Ballot, Choice, Members, PaxosMsg, PaxosNote, PaxosTimer, Vote};
use crate::protocol::storage::Refusal;
use crate::protocol::{Msg, Note, Timer, Value};
use crate::scenario::Step;
use crate::sim::{MsgId, NodeId, SimTime, MAX_NODES};
use serde_json::{Map, Value as J};

mod multipaxos;

/// Node names as the decoder meets them; new names are added in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Names(pub Vec<String>);

impl Names {
    fn id(&mut self, name: &str) -> Option<NodeId> {
        if name == "net" {
            return Some(NodeId::NET);
        }
        if let Some(i) = self.0.iter().position(|n| n == name) {
            return Some(NodeId(i as u8));
        }
        if self.0.len() >= MAX_NODES || name.is_empty() || name.chars().count() > 32 {
            return None;
        }
        self.0.push(name.to_string());
        Some(NodeId((self.0.len() - 1) as u8))
    }
}

type O = Map<String, J>;

fn u(o: &O, k: &str) -> Option<u64> {
    o.get(k)?.as_u64()
}
fn s<'a>(o: &'a O, k: &str) -> Option<&'a str> {
    o.get(k)?.as_str()
}
fn val(o: &O, k: &str) -> Option<Value> {
    Value::new(s(o, k)?).ok()
}

struct Decoder<'n> {
    names: &'n mut Names,
    /// The trace is Multi-Paxos's (decides the one shared timer name).
    mp: bool,
}

impl Decoder<'_> {
    fn node(&mut self, o: &O, k: &str) -> Option<NodeId> {
        let n = s(o, k)?;
        self.names.id(n)
    }

    fn ballot(&mut self, j: Option<&J>) -> Option<Ballot> {
        let o = j?.as_object()?;
        Some(Ballot {
            round: u32::try_from(u(o, "round")?).ok()?,
            node: self.node(o, "node")?,
        })
    }

    fn opt_ballot(&mut self, j: Option<&J>) -> Option<Option<Ballot>> {
        match j {
            None | Some(J::Null) => Some(None),
            b => self.ballot(b).map(Some),
        }
    }

    fn vote(&mut self, j: Option<&J>) -> Option<Option<Vote>> {
        match j {
            None | Some(J::Null) => Some(None),
            Some(J::Object(o)) => Some(Some(Vote {
                ballot: self.ballot(o.get("ballot"))?,
                value: val(o, "value")?,
            })),
            _ => None,
        }
    }

    fn members(&mut self, j: Option<&J>) -> Option<Members> {
        let mut m = Members::default();
        for n in j?.as_array()? {
            let id = self.names.id(n.as_str()?)?;
            if id == NodeId::NET {
                return None;
            }
            m.insert(id);
        }
        Some(m)
    }

    /// The message of a message event, with its endpoints and id.
    fn msg(&mut self, j: Option<&J>) -> Option<(MsgId, NodeId, NodeId, Msg)> {
        let o = j?.as_object()?;
        let id = MsgId(u(o, "id")?);
        let (from, to) = (self.node(o, "from")?, self.node(o, "to")?);
        if let Some(m) = self.mp_msg(o) {
            return Some((id, from, to, m));
        }
        let key = |o: &O| -> Option<u16> {
            s(o, "key")?
                .strip_prefix("order-")?
                .parse::<u16>()
                .ok()?
                .checked_sub(1)
        };
        let m = match s(o, "type")? {
            // The TM's Prepare names the RM it asks; the Synod's (1a) names none.
            "prepare" if o.contains_key("rm") => Msg::Commit(CommitMsg::Prepare {
                rm: self.node(o, "rm")?,
            }),
            "prepared" | "aborted" => Msg::Commit(CommitMsg::Vote {
                rm: self.node(o, "rm")?,
                vote: if s(o, "type")? == "prepared" {
                    RmVote::Prepared
                } else {
                    RmVote::Aborted
                },
            }),
            "commit" | "abort" => Msg::Commit(CommitMsg::Decision {
                rm: self.node(o, "rm")?,
                outcome: outcome_of(s(o, "type")?)?,
            }),
            "begin_commit" => Msg::Commit(CommitMsg::BeginCommit {
                rm: self.node(o, "rm")?,
            }),
            "phase1a" => Msg::Commit(CommitMsg::Phase1a {
                ballot: self.cballot(o.get("ballot"))?,
                rms: self.rm_set(o.get("rms"))?,
            }),
            "phase1b" => {
                let (rms, last) = self.last_votes(o.get("last_votes"))?;
                Msg::Commit(CommitMsg::Phase1b {
                    ballot: self.cballot(o.get("ballot"))?,
                    rms,
                    last,
                })
            }
            "phase2a" => Msg::Commit(CommitMsg::Phase2a {
                ballot: self.cballot(o.get("ballot"))?,
                votes: self.votes(o.get("votes"))?,
            }),
            "phase2b" => Msg::Commit(CommitMsg::Phase2b {
                ballot: self.cballot(o.get("ballot"))?,
                votes: self.votes(o.get("votes"))?,
            }),
            "prepare" => Msg::Paxos(PaxosMsg::Prepare {
                ballot: self.ballot(o.get("ballot"))?,
            }),
            "promise" => Msg::Paxos(PaxosMsg::Promise {
                ballot: self.ballot(o.get("ballot"))?,
                last_vote: self.vote(o.get("last_vote"))?,
            }),
            "accept" => Msg::Paxos(PaxosMsg::Accept {
                ballot: self.ballot(o.get("ballot"))?,
                value: val(o, "value")?,
            }),
            "accepted" => Msg::Paxos(PaxosMsg::Accepted {
                ballot: self.ballot(o.get("ballot"))?,
                value: val(o, "value")?,
            }),
            "decided" => Msg::Paxos(PaxosMsg::Decided {
                ballot: self.ballot(o.get("ballot"))?,
                value: val(o, "value")?,
            }),
            "acquire" => Msg::Lease(LeaseMsg::Acquire {
                req: u(o, "req")? as u32,
                ttl_us: u(o, "ttl_us")?,
            }),
            "acquire_reply" => Msg::Lease(LeaseMsg::AcquireReply {
                req: u(o, "req")? as u32,
                epoch: o.get("epoch")?.as_u64(),
            }),
            "release" => Msg::Lease(LeaseMsg::Release {
                epoch: u(o, "epoch")?,
            }),
            "lease_row" => Msg::Lease(LeaseMsg::Row {
                version: u(o, "version")?,
                row: LeaseRow {
                    holder: self.node(o, "holder")?,
                    epoch: u(o, "epoch")?,
                    expires_at: SimTime(u(o, "expires_at_us")?),
                },
            }),
            "write" => Msg::Lease(LeaseMsg::Write {
                req: u(o, "req")? as u32,
                key: key(o)?,
                epoch: u(o, "epoch")?,
            }),
            "write_reply" => Msg::Lease(LeaseMsg::WriteReply {
                req: u(o, "req")? as u32,
                key: key(o)?,
                epoch: u(o, "epoch")?,
                ok: o.get("ok")?.as_bool()?,
            }),
            "llm_ask" => Msg::Lease(LeaseMsg::Ask {
                req: u(o, "req")? as u32,
                purpose: purpose(s(o, "purpose")?)?,
            }),
            "llm_answer" => Msg::Lease(LeaseMsg::Answer {
                req: u(o, "req")? as u32,
                outcome: outcome(s(o, "outcome")?)?,
            }),
            _ => return None,
        };
        Some((id, from, to, m))
    }

    /// A fault or a command event (both carry a `fault` object).
    fn step(&mut self, j: Option<&J>) -> Option<EventKind> {
        let f: Step<String> = crate::json::from_value(j?.clone()).ok()?;
        Some(match f.try_map(|n| self.names.id(n).ok_or(())).ok()? {
            Step::Fault(fault) => EventKind::Fault { fault },
            Step::Command(command) => EventKind::Command { command },
        })
    }

    fn kind(&mut self, node: NodeId, o: &O) -> Option<EventKind> {
        let k = s(o, "kind")?;
        let ours = |_: &EventKind| node.index() < MAX_NODES || node == NodeId::NET;
        if let Some(e) = self.mp_note(k, o) {
            return Some(e).filter(ours);
        }
        let b = |d: &mut Self, key: &str| d.ballot(o.get(key));
        Some(match k {
            "send" | "deliver" | "drop" | "duplicate" => {
                let (id, from, to, msg) = self.msg(o.get("msg"))?;
                match k {
                    "send" => EventKind::Send { id, to, msg },
                    "deliver" => EventKind::Deliver { id, from, msg },
                    "drop" => EventKind::Drop {
                        id,
                        from,
                        to,
                        msg,
                        reason: match s(o, "reason")? {
                            "loss" => DropReason::Loss,
                            "partition" => DropReason::Partition,
                            "down" => DropReason::Down,
                            _ => return None,
                        },
                    },
                    _ => EventKind::Duplicate {
                        id,
                        of: MsgId(u(o, "of")?),
                        to,
                        msg,
                    },
                }
            }
            "timer" => {
                let name = s(o, "timer")?;
                let t = if self.mp {
                    multipaxos::timer(name).or_else(|| timer(name))
                } else {
                    timer(name).or_else(|| multipaxos::timer(name))
                };
                EventKind::Timer { timer: t? }
            }
            "resume" => EventKind::Resume,
            "violation" => EventKind::Violation {
                invariant: Invariant::parse(s(o, "invariant")?)?,
                detail: s(o, "detail").unwrap_or_default().to_string(),
            },
            "proposal" => PaxosNote::Asked {
                value: val(o, "value")?,
            }
            .into_kind(),
            "ballot_started" => PaxosNote::BallotStarted {
                ballot: b(self, "ballot")?,
            }
            .into_kind(),
            "promise_quorum" => PaxosNote::PromiseQuorum {
                ballot: b(self, "ballot")?,
                members: self.members(o.get("members"))?,
            }
            .into_kind(),
            "value_picked" => {
                let choice = match s(o, "choice")? {
                    "free" => Choice::Free,
                    "forced" => {
                        let f = o.get("forced_by")?.as_object()?;
                        Choice::Forced {
                            by: self.ballot(f.get("ballot"))?,
                            voter: self.node(f, "voter")?,
                        }
                    }
                    "ignored" => {
                        let f = o.get("highest_vote")?.as_object()?;
                        Choice::Ignored {
                            by: self.ballot(f.get("ballot"))?,
                            voter: self.node(f, "voter")?,
                        }
                    }
                    "not_highest" => {
                        let f = o.get("forced_by")?.as_object()?;
                        Choice::NotHighest {
                            by: self.ballot(f.get("ballot"))?,
                            voter: self.node(f, "voter")?,
                            highest: self.ballot(o.get("highest_ballot"))?,
                        }
                    }
                    _ => return None,
                };
                PaxosNote::ValuePicked {
                    ballot: b(self, "ballot")?,
                    value: val(o, "value")?,
                    choice,
                }
                .into_kind()
            }
            "accepted_quorum" => PaxosNote::AcceptedQuorum {
                ballot: b(self, "ballot")?,
                value: val(o, "value")?,
                members: self.members(o.get("members"))?,
            }
            .into_kind(),
            "preempted" => PaxosNote::Preempted {
                ballot: b(self, "ballot")?,
                by: b(self, "by")?,
            }
            .into_kind(),
            "ignored" => PaxosNote::Ignored {
                ballot: b(self, "ballot")?,
                promised: b(self, "promised")?,
                phase: match s(o, "phase")? {
                    "1a" => "1a",
                    "2a" => "2a",
                    _ => return None,
                },
            }
            .into_kind(),
            "ledger" => PaxosNote::Ledger {
                max_bal: self.opt_ballot(o.get("max_bal"))?,
                last_vote: self.vote(o.get("last_vote"))?,
            }
            .into_kind(),
            "learned" => PaxosNote::Learned {
                ballot: b(self, "ballot")?,
                value: val(o, "value")?,
            }
            .into_kind(),
            "learn_conflict" => PaxosNote::LearnConflict {
                have: val(o, "have")?,
                told: val(o, "told")?,
            }
            .into_kind(),
            "chosen" => PaxosNote::Chosen {
                ballot: b(self, "ballot")?,
                value: val(o, "value")?,
                members: self.members(o.get("members"))?,
            }
            .into_kind(),
            _ => self
                .lease_note(k, o)
                .or_else(|| self.commit_note(k, o))
                .or_else(|| {
                    self.step(o.get("fault"))
                        .filter(|e| step_kind(e) == Some(k))
                })?,
        })
        .filter(ours)
    }

    fn lease_note(&mut self, k: &str, o: &O) -> Option<EventKind> {
        let key = |o: &O| -> Option<u16> {
            s(o, "key")?
                .strip_prefix("order-")?
                .parse::<u16>()
                .ok()?
                .checked_sub(1)
        };
        let n = match k {
            "lease_granted" => {
                let previous = match o.get("previous") {
                    None | Some(J::Null) => None,
                    Some(J::Object(p)) => Some((
                        self.node(p, "holder")?,
                        u(p, "epoch")?,
                        u(p, "expires_at_us")?,
                    )),
                    _ => return None,
                };
                LeaseNote::Granted {
                    holder: self.node(o, "holder")?,
                    epoch: u(o, "epoch")?,
                    expires_at_us: u(o, "expires_at_us")?,
                    previous,
                    store_now_us: u(o, "store_now_us")?,
                    version: u(o, "version"),
                }
            }
            // Fields added later (store_now_us, at_us, db_now_us) read as 0 in older traces.
            "lease_renewed" => LeaseNote::Renewed {
                holder: self.node(o, "holder")?,
                epoch: u(o, "epoch")?,
                expires_at_us: u(o, "expires_at_us")?,
                store_now_us: u(o, "store_now_us").unwrap_or(0),
                version: u(o, "version"),
            },
            "lease_refused" => LeaseNote::Refused {
                asker: self.node(o, "asker")?,
                holder: self.node(o, "holder")?,
                epoch: u(o, "epoch")?,
                store_now_us: u(o, "store_now_us").unwrap_or(0),
            },
            "lease_released" => LeaseNote::Released {
                holder: self.node(o, "holder")?,
                epoch: u(o, "epoch")?,
                at_us: u(o, "at_us").unwrap_or(0),
                version: u(o, "version"),
            },
            "lease_expired" => LeaseNote::Expired {
                holder: self.node(o, "holder")?,
                epoch: u(o, "epoch")?,
                view: match s(o, "view")? {
                    "worker" => View::Worker,
                    "store" => View::Store,
                    _ => return None,
                },
            },
            "belief" => LeaseNote::Belief {
                holding: o.get("holding")?.as_bool()?,
                epoch: u(o, "epoch")?,
            },
            "write_sent" => LeaseNote::WriteSent {
                key: key(o)?,
                epoch: u(o, "epoch")?,
            },
            "write_accepted" => LeaseNote::WriteAccepted {
                writer: self.node(o, "writer")?,
                epoch: u(o, "epoch")?,
                key: key(o)?,
                previous: u(o, "previous_epoch")?,
                db_now_us: u(o, "db_now_us").unwrap_or(0),
            },
            // Older traces: a table-wide `highest_epoch` and a sentence as the
            // reason — a refusal by the monotonic token, i.e. `row_fenced`.
            "write_rejected" => LeaseNote::WriteRejected {
                writer: self.node(o, "writer")?,
                epoch: u(o, "epoch")?,
                key: key(o)?,
                row: u(o, "row_epoch")?,
                reason: s(o, "reason")
                    .and_then(Refusal::parse)
                    .unwrap_or(Refusal::RowFenced),
                lease: match o.get("lease") {
                    None | Some(J::Null) => None,
                    Some(J::Object(l)) => Some(LeaseRow {
                        holder: self.node(l, "holder")?,
                        epoch: u(l, "epoch")?,
                        expires_at: SimTime(u(l, "expires_at_us")?),
                    }),
                    _ => return None,
                },
                db_now_us: u(o, "db_now_us").unwrap_or(0),
            },
            "llm_request" => LeaseNote::LlmRequest {
                purpose: purpose(s(o, "purpose")?)?,
            },
            "llm_response" => LeaseNote::LlmResponse {
                latency_us: u(o, "latency_us")?,
                outcome: outcome(s(o, "outcome")?)?,
            },
            "split_brain_start" => LeaseNote::SplitBrainStart {
                believers: self.members(o.get("believers"))?.0,
            },
            "split_brain_end" => LeaseNote::SplitBrainEnd {
                lasted_us: u(o, "lasted_us")?,
            },
            _ => return None,
        };
        Some(EventKind::Note(Note::Lease(n)))
    }
}

impl Decoder<'_> {
    /// A commit ballot: `0` (the RM's own) or `{"round", "node"}`.
    fn cballot(&mut self, j: Option<&J>) -> Option<commit::Ballot> {
        match j? {
            J::Number(n) if n.as_u64() == Some(0) => Some(commit::Ballot::ZERO),
            J::Object(o) => {
                let round = u16::try_from(u(o, "round")?).ok().filter(|r| *r > 0)?;
                Some(commit::Ballot {
                    round,
                    node: self.node(o, "node")?,
                })
            }
            _ => None,
        }
    }

    fn rm(&mut self, j: &J) -> Option<crate::sim::NodeId> {
        let id = self.names.id(j.as_str()?)?;
        (id != NodeId::NET).then_some(id)
    }

    fn rm_set(&mut self, j: Option<&J>) -> Option<RmSet> {
        let mut s = RmSet::default();
        for r in j?.as_array()? {
            s.insert(self.rm(r)?);
        }
        Some(s)
    }

    fn votes(&mut self, j: Option<&J>) -> Option<Votes> {
        let mut v = Votes::default();
        for x in j?.as_array()? {
            let x = x.as_object()?;
            v.set(self.rm(x.get("rm")?)?, vote_of(s(x, "value")?)?);
        }
        Some(v)
    }

    fn last_votes(&mut self, j: Option<&J>) -> Option<(RmSet, LastVotes)> {
        let mut rms = RmSet::default();
        let mut reports = Vec::new();
        for x in j?.as_array()? {
            let x = x.as_object()?;
            let rm = self.rm(x.get("rm")?)?;
            rms.insert(rm);
            let report = match x.get("ballot") {
                None | Some(J::Null) => None,
                b => Some(Report {
                    ballot: self.cballot(b)?,
                    vote: vote_of(s(x, "value")?)?,
                }),
            };
            reports.push((rm, report));
        }
        if rms.len() != reports.len() || rms.len() > commit::MAX_RMS {
            return None;
        }
        Some((
            rms,
            LastVotes::collect(rms, |r| reports.iter().find(|x| x.0 == r).and_then(|x| x.1)),
        ))
    }

    fn commit_note(&mut self, k: &str, o: &O) -> Option<EventKind> {
        let n = match k {
            "rm_vote" => CommitNote::RmVoted {
                vote: vote_of(s(o, "vote")?)?,
            },
            "rm_outcome" => CommitNote::RmDecided {
                outcome: outcome_of(s(o, "outcome")?)?,
            },
            "tm_decision" => CommitNote::TmDecided {
                outcome: outcome_of(s(o, "outcome")?)?,
            },
            "leader_decision" => CommitNote::LeaderDecided {
                outcome: outcome_of(s(o, "outcome")?)?,
            },
            "acceptor_vote" => CommitNote::AcceptorVoted {
                ballot: self.cballot(o.get("ballot"))?,
                votes: self.votes(o.get("votes"))?,
            },
            "acceptor_promise" => CommitNote::AcceptorPromised {
                ballot: self.cballot(o.get("ballot"))?,
                rms: self.rm_set(o.get("rms"))?,
            },
            "coordinator_ballot" => CommitNote::CoordinatorBallot {
                ballot: self.cballot(o.get("ballot"))?,
                rms: self.rm_set(o.get("rms"))?,
            },
            "instance_chosen" => CommitNote::InstanceChosen {
                rm: self.rm(o.get("rm")?)?,
                ballot: self.cballot(o.get("ballot"))?,
                vote: vote_of(s(o, "value")?)?,
            },
            _ => return None,
        };
        Some(EventKind::Note(Note::Commit(n)))
    }
}

fn vote_of(s: &str) -> Option<RmVote> {
    match s {
        "prepared" => Some(RmVote::Prepared),
        "aborted" => Some(RmVote::Aborted),
        _ => None,
    }
}

fn outcome_of(s: &str) -> Option<commit::Outcome> {
    match s {
        "commit" => Some(commit::Outcome::Commit),
        "abort" => Some(commit::Outcome::Abort),
        _ => None,
    }
}

trait IntoKind {
    fn into_kind(self) -> EventKind;
}
impl IntoKind for PaxosNote {
    fn into_kind(self) -> EventKind {
        EventKind::Note(Note::Paxos(self))
    }
}

fn purpose(s: &str) -> Option<Purpose> {
    match s {
        "keep_lease" => Some(Purpose::KeepLease),
        "explain" => Some(Purpose::Explain),
        _ => None,
    }
}

fn outcome(s: &str) -> Option<LlmOutcome> {
    Some(match s {
        "keep" => LlmOutcome::Keep,
        "release" => LlmOutcome::Release,
        "explained" => LlmOutcome::Explained,
        "malformed_json" => LlmOutcome::Malformed,
        "refusal" => LlmOutcome::Refusal,
        // The retry-after is not in the trace; zero keeps the event readable.
        "rate_limited" => LlmOutcome::RateLimited { retry_after_us: 0 },
        "unavailable" => LlmOutcome::Unavailable,
        "timeout" => LlmOutcome::Timeout,
        _ => return None,
    })
}

fn timer(s: &str) -> Option<Timer> {
    Some(match s {
        "start" => Timer::Paxos(PaxosTimer::Start),
        "phase_timeout" => Timer::Paxos(PaxosTimer::PhaseTimeout),
        "backoff" => Timer::Paxos(PaxosTimer::Backoff),
        "leader_watch" => Timer::Paxos(PaxosTimer::LeaderWatch),
        "tick" => Timer::Lease(LeaseTimer::Tick),
        "deadline" => Timer::Lease(LeaseTimer::Deadline),
        "work" => Timer::Lease(LeaseTimer::Work),
        "commit" => Timer::Lease(LeaseTimer::Commit),
        "llm_timeout" => Timer::Lease(LeaseTimer::LlmTimeout),
        "llm_retry" => Timer::Lease(LeaseTimer::LlmRetry),
        "expire" => Timer::Lease(LeaseTimer::Expire),
        "answer" => Timer::Lease(LeaseTimer::Answer(0)),
        "redirected" => Timer::Lease(LeaseTimer::Redirected),
        "begin" => Timer::Commit(CommitTimer::Begin),
        "unilateral_abort" => Timer::Commit(CommitTimer::UnilateralAbort),
        "vote_timeout" => Timer::Commit(CommitTimer::VoteTimeout),
        "takeover" => Timer::Commit(CommitTimer::Takeover),
        _ => return None,
    })
}

/// Everything but the envelope fields, as compact text.
fn rest(o: &O) -> String {
    let mut m = o.clone();
    for k in ["seq", "t_us", "node", "kind"] {
        m.remove(k);
    }
    if m.is_empty() {
        String::new()
    } else {
        let text = J::Object(m).to_string();
        let mut cut: String = text.chars().take(300).collect();
        if cut.len() < text.len() {
            cut.push('…');
        }
        cut
    }
}

/// Decode checked events (see `import::parse`) into trace events.
pub fn events(names: &mut Names, events: &[J]) -> Vec<TraceEvent> {
    let mut out = Vec::with_capacity(events.len());
    let mp = multipaxos::is_multipaxos(events);
    for j in events {
        let Some(o) = j.as_object() else { continue };
        let (Some(seq), Some(t)) = (u(o, "seq"), u(o, "t_us")) else {
            continue;
        };
        let node = s(o, "node")
            .and_then(|n| names.id(n))
            .unwrap_or(NodeId::NET);
        let mut d = Decoder { names, mp };
        let kind = d.kind(node, o).unwrap_or_else(|| EventKind::Foreign {
            kind: s(o, "kind").unwrap_or("?").chars().take(64).collect(),
            detail: rest(o),
        });
        out.push(TraceEvent {
            seq,
            t: SimTime(t),
            node,
            kind,
        });
    }
    out
}

/// The kind a fault or command event is written with.
fn step_kind(e: &EventKind) -> Option<&'static str> {
    match e {
        EventKind::Fault { fault } => Some(fault.kind()),
        EventKind::Command { command } => Some(command.kind()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::builtin;
    use crate::scenario::run::Run;
    use crate::trace::json::events_json;

    #[test]
    fn our_own_traces_round_trip_exactly() {
        for name in builtin::names() {
            let run = Run::record(&builtin::get(name).unwrap()).unwrap();
            let json = events_json(&run.names, &run.trace);
            let mut names = Names(run.names.to_vec());
            let back = events(&mut names, &json);
            let foreign = back
                .iter()
                .find(|e| matches!(e.kind, EventKind::Foreign { .. }));
            assert!(
                foreign.is_none(),
                "{name}: something decoded as foreign: {foreign:?}"
            );
            assert_eq!(events_json(&names.0, &back), json, "{name}");
        }
    }

    /// Multi-Paxos under random faults (crashes, partitions, loss, clock
    /// drift, every client operation): the shared names (`prepare`,
    /// `chosen`, `phase_timeout` …) read back as Multi-Paxos's.
    #[test]
    fn random_multipaxos_traces_round_trip_exactly() {
        use crate::check::search::FaultSet;
        use crate::scenario::multipaxos_spec::random_multipaxos;
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let run = Run::record(&random_multipaxos(seed, FaultSet::ALL, None)).unwrap();
            let json = events_json(&run.names, &run.trace);
            let mut names = Names(run.names.to_vec());
            let back = events(&mut names, &json);
            if let Some(e) = back
                .iter()
                .find(|e| matches!(e.kind, EventKind::Foreign { .. }))
            {
                panic!("seed {seed}: decoded as foreign: {e:?}");
            }
            assert_eq!(events_json(&names.0, &back), json, "seed {seed}");
            for j in &json {
                let o = j.as_object().unwrap();
                let k = o["kind"].as_str().unwrap().to_string();
                let t = o
                    .get("msg")
                    .and_then(|m| m["type"].as_str())
                    .map(|t| format!("msg {t}"));
                kinds.insert(t.unwrap_or(k));
            }
        }
        // The schedules reached the shared names and the lease's events.
        for k in [
            "msg prepare",
            "msg promise",
            "msg accepted",
            "chosen",
            "learned",
            "master_lease_held",
            "timer",
        ] {
            assert!(
                kinds.contains(k),
                "no {k} in 40 random schedules: {kinds:?}"
            );
        }
    }

    #[test]
    fn unknown_events_are_kept_as_foreign() {
        let json: Vec<J> = serde_json::from_str(
            r#"[{"seq":0,"t_us":5,"node":"p1","kind":"heartbeat","term":3},
                {"seq":1,"t_us":9,"node":"p2","kind":"send","msg":{"id":1,"type":"append","from":"p2","to":"p1"}}]"#,
        )
        .unwrap();
        let mut names = Names::default();
        let ev = events(&mut names, &json);
        assert_eq!(names.0, vec!["p1", "p2"]);
        assert!(
            matches!(&ev[0].kind, EventKind::Foreign { kind, detail } if kind == "heartbeat" && detail.contains("term"))
        );
        assert!(matches!(&ev[1].kind, EventKind::Foreign { kind, .. } if kind == "send"));
    }
}
