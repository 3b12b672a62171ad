//! Short human labels for trace events, shared by every export that draws a
//! run (space-time geometry, SVG, Mermaid, ShiViz).
//!
//! One place decides how a messenger is labelled — `1a (3,Α)`, `2a (3,Α) α`,
//! `3 α` — so the diagram in the page, the SVG file and the Mermaid text all
//! say the same thing. The labels are plain text: each export escapes them
//! for its own syntax, never this module.

use super::{DropReason, EventKind};
use crate::protocol::commit::{CommitCommand, CommitMsg, CommitNote, Outcome, RmVote};
use crate::protocol::lease::LeaseCommand;
use crate::protocol::lease::{LeaseMsg, LeaseNote, View};
use crate::protocol::multipaxos::MpCommand;
use crate::protocol::paxos::PaxosCommand;
use crate::protocol::paxos::{Ballot, Choice, Members, PaxosMsg, PaxosNote};
use crate::protocol::{Command, Msg, Note};
use crate::sim::fault::Fault;
use crate::sim::time::human_us;
use crate::sim::NodeId;

/// Node names, falling back to "net" for the network pseudo-node (and for
/// an id outside the list, which a well-formed run never has).
pub fn node_name(names: &[String], n: NodeId) -> &str {
    names.get(n.index()).map(String::as_str).unwrap_or("net")
}

/// `(round,Name)`, the ballot as Lamport's figure writes it.
pub fn ballot(names: &[String], b: Ballot) -> String {
    format!("({},{})", b.round, node_name(names, b.node))
}

fn members(names: &[String], m: Members) -> String {
    let list: Vec<&str> = m.iter().map(|n| node_name(names, n)).collect();
    format!("{{{}}}", list.join(","))
}

/// The label drawn on a messenger: phase and ballot for Paxos (`1a (3,Α)`),
/// the request for the lease lab (`write order-1 e2`).
pub fn msg(names: &[String], m: &Msg) -> String {
    match m {
        Msg::Paxos(p) => {
            let b = ballot(names, p.ballot());
            match p {
                PaxosMsg::Prepare { .. } => format!("1a {b}"),
                PaxosMsg::Promise {
                    last_vote: None, ..
                } => format!("1b {b}"),
                PaxosMsg::Promise {
                    last_vote: Some(v), ..
                } => {
                    format!("1b {b} last {} {}", ballot(names, v.ballot), v.value)
                }
                PaxosMsg::Accept { value, .. } => format!("2a {b} {value}"),
                PaxosMsg::Accepted { value, .. } => format!("2b {b} {value}"),
                PaxosMsg::Decided { value, .. } => format!("3 {value}"),
            }
        }
        Msg::Lease(l) => lease_msg(l),
        Msg::Multipaxos(m) => super::multipaxos::msg_label(names, m),
        Msg::Commit(c) => commit_msg(names, c),
    }
}

/// A commit ballot: `0` (the RM's own) or `(round,Name)`.
pub fn commit_ballot(names: &[String], b: crate::protocol::commit::Ballot) -> String {
    if b.is_zero() {
        "0".into()
    } else {
        format!("({},{})", b.round, node_name(names, b.node))
    }
}

fn commit_msg(names: &[String], c: &CommitMsg) -> String {
    let few = |v: crate::protocol::commit::Votes| -> String {
        if v.rms.len() == 1 {
            v.iter().map(|(_, x)| x.as_str().to_string()).collect()
        } else if !v.any_aborted() {
            format!("all {} prepared", v.rms.len())
        } else {
            let ab: Vec<&str> = v
                .iter()
                .filter(|x| x.1 == RmVote::Aborted)
                .map(|x| node_name(names, x.0))
                .collect();
            format!("{} aborted", ab.join(","))
        }
    };
    match *c {
        CommitMsg::Prepare { .. } => "Prepare".into(),
        CommitMsg::Vote {
            vote: RmVote::Prepared,
            ..
        } => "Prepared".into(),
        CommitMsg::Vote {
            vote: RmVote::Aborted,
            ..
        } => "Aborted".into(),
        CommitMsg::Decision {
            outcome: Outcome::Commit,
            ..
        } => "Commit".into(),
        CommitMsg::Decision {
            outcome: Outcome::Abort,
            ..
        } => "Abort".into(),
        CommitMsg::BeginCommit { .. } => "BeginCommit".into(),
        CommitMsg::Phase1a { ballot, .. } => format!("1a {}", commit_ballot(names, ballot)),
        CommitMsg::Phase1b { ballot, .. } => format!("1b {}", commit_ballot(names, ballot)),
        CommitMsg::Phase2a { ballot, votes } => {
            format!("2a {} {}", commit_ballot(names, ballot), few(votes))
        }
        CommitMsg::Phase2b { ballot, votes } => {
            format!("2b {} {}", commit_ballot(names, ballot), few(votes))
        }
    }
}

fn lease_msg(l: &LeaseMsg) -> String {
    use crate::protocol::storage::key_name;
    match *l {
        LeaseMsg::Acquire { req, .. } => format!("acquire #{req}"),
        LeaseMsg::AcquireReply {
            req,
            epoch: Some(e),
        } => format!("granted #{req} e{e}"),
        LeaseMsg::AcquireReply { req, epoch: None } => format!("refused #{req}"),
        LeaseMsg::Release { epoch } => format!("release e{epoch}"),
        LeaseMsg::Row { row, .. } => format!("row e{}", row.epoch),
        LeaseMsg::Write { key, epoch, .. } => format!("write {} e{epoch}", key_name(key)),
        LeaseMsg::WriteReply { key, epoch, ok, .. } => {
            format!(
                "{} {} e{epoch}",
                if ok { "ok" } else { "rejected" },
                key_name(key)
            )
        }
        LeaseMsg::Ask { purpose, .. } => format!("ask {}", purpose.as_str()),
        LeaseMsg::Answer { outcome, .. } => format!("answer {}", outcome.as_str()),
    }
}

/// The trace's `type` of a message (`prepare` … `llm_answer`), which the
/// exports use to pick a colour or an arrow style.
pub fn msg_type(m: &Msg) -> &'static str {
    match m {
        Msg::Paxos(p) => p.type_name(),
        Msg::Lease(l) => l.type_name(),
        Msg::Multipaxos(m) => m.type_name(),
        Msg::Commit(c) => c.type_name(),
    }
}

/// A fault as a short phrase ("crash", "pause 10 s", "partition {Α,Β} | {Γ}").
pub fn fault(f: &Fault<String>) -> String {
    match f {
        Fault::Crash { .. } => "crash".into(),
        Fault::Restart { .. } => "restart".into(),
        Fault::Pause { for_us, .. } => format!("pause {}", human_us(*for_us)),
        Fault::Partition { groups, oneway } => {
            let g: Vec<String> = groups
                .iter()
                .map(|g| format!("{{{}}}", g.join(",")))
                .collect();
            format!(
                "partition {}{}",
                g.join(" | "),
                if *oneway { " (one way)" } else { "" }
            )
        }
        Fault::Heal => "heal".into(),
        Fault::SetLoss { p } => format!("loss {}%", percent(*p)),
        Fault::SetDuplicate { p } => format!("duplicate {}%", percent(*p)),
        Fault::SetReorder { p } => format!("reorder {}%", percent(*p)),
        Fault::SetLatency { .. } => "latency changed".into(),
        Fault::ClockStep { by_us, .. } => {
            let sign = if *by_us < 0 { "-" } else { "+" };
            format!("clock step {sign}{}", human_us(by_us.unsigned_abs()))
        }
        Fault::SetDrift { ppm, .. } => format!("clock drift {ppm} ppm"),
        Fault::Deliver { id } => format!("deliver message {id}"),
        Fault::Fire { timer, .. } => format!("fire {timer}"),
    }
}

/// A protocol command, as a diagram shows it.
pub fn command(c: &Command<String>) -> String {
    match c {
        Command::Paxos(PaxosCommand::Propose { value, .. }) => format!("propose {value}"),
        Command::Lease(LeaseCommand::LlmStall { for_us, .. }) => {
            format!("llm stall {}", human_us(*for_us))
        }
        Command::Lease(LeaseCommand::LlmOutage { down: true }) => "llm outage".into(),
        Command::Lease(LeaseCommand::LlmOutage { down: false }) => "llm back".into(),
        Command::Multipaxos(MpCommand::Put { key, value, .. }) => format!("put {key}={value}"),
        Command::Multipaxos(MpCommand::Get { key, .. }) => format!("get {key}"),
        Command::Commit(CommitCommand::VoteAbort { .. }) => "will vote aborted".into(),
    }
}

/// A command with its node ids turned into names.
pub fn named_command(names: &[String], c: &Command<NodeId>) -> Command<String> {
    c.try_map(|n| Ok::<String, ()>(node_name(names, *n).to_string()))
        .expect("naming never fails")
}

fn percent(p: f64) -> String {
    let x = (p * 1000.0).round() / 10.0;
    if x.is_finite() {
        crate::float::short(x).to_string()
    } else {
        "?".into()
    }
}

/// A fault with its node ids turned into names.
pub fn named_fault(names: &[String], f: &Fault<NodeId>) -> Fault<String> {
    // Mapping to names cannot fail; the Result type only serves `try_map`.
    f.try_map(|n| Ok::<String, ()>(node_name(names, *n).to_string()))
        .unwrap_or(Fault::Heal)
}

/// Which notes are worth a mark on a diagram, and what the mark says.
/// Ledger writes, timers and renewals are left out: they happen all the time
/// and would bury the few facts a reader looks for.
pub fn note(names: &[String], n: &Note) -> Option<(NoteClass, String)> {
    let name = |id: NodeId| node_name(names, id).to_string();
    Some(match n {
        Note::Paxos(p) => match *p {
            PaxosNote::Learned { value, .. } => (NoteClass::Learned, format!("learned {value}")),
            PaxosNote::Chosen {
                ballot: b,
                value,
                members: m,
            } => (
                NoteClass::Chosen,
                format!(
                    "chosen {value} in {} by {}",
                    ballot(names, b),
                    members(names, m)
                ),
            ),
            PaxosNote::LearnConflict { have, told } => (
                NoteClass::Violation,
                format!("told {told} but learned {have}"),
            ),
            PaxosNote::ValuePicked { value, choice, .. } => (
                NoteClass::Info,
                match choice {
                    Choice::Free => format!("proposes {value} (free)"),
                    Choice::Forced { by, .. } => {
                        format!("proposes {value} (forced by {})", ballot(names, by))
                    }
                    Choice::Ignored { by, .. } => {
                        format!(
                            "proposes {value} (B3 broken: ignores {})",
                            ballot(names, by)
                        )
                    }
                    Choice::NotHighest { by, highest, .. } => format!(
                        "proposes {value} (B3 broken: {} below {})",
                        ballot(names, by),
                        ballot(names, highest)
                    ),
                },
            ),
            _ => return None,
        },
        Note::Lease(l) => match *l {
            LeaseNote::Granted { holder, epoch, .. } => {
                (NoteClass::Lease, format!("grant {} e{epoch}", name(holder)))
            }
            LeaseNote::Released { holder, epoch, .. } => (
                NoteClass::Lease,
                format!("released {} e{epoch}", name(holder)),
            ),
            LeaseNote::Expired {
                holder,
                epoch,
                view,
            } => (
                NoteClass::Lease,
                format!(
                    "expired {} e{epoch} ({} clock)",
                    name(holder),
                    match view {
                        View::Worker => "worker",
                        View::Store => "store",
                    }
                ),
            ),
            LeaseNote::WriteRejected {
                epoch, key, reason, ..
            } => (
                NoteClass::Rejected,
                format!(
                    "rejected {} e{epoch}: {}",
                    crate::protocol::storage::key_name(key),
                    reason.as_str()
                ),
            ),
            LeaseNote::SplitBrainStart { believers } => {
                let who: Vec<&str> = (0..64u8)
                    .filter(|i| believers & (1u64 << i) != 0)
                    .map(|i| node_name(names, NodeId(i)))
                    .collect();
                (
                    NoteClass::Violation,
                    format!("split brain {}", who.join(", ")),
                )
            }
            LeaseNote::SplitBrainEnd { lasted_us } => (
                NoteClass::Lease,
                format!("split brain over after {}", human_us(lasted_us)),
            ),
            _ => return None,
        },
        Note::Multipaxos(m) => return super::multipaxos::note_mark(names, m),
        Note::Commit(c) => match *c {
            CommitNote::RmVoted {
                vote: RmVote::Prepared,
            } => (NoteClass::Info, "prepared".into()),
            CommitNote::RmVoted {
                vote: RmVote::Aborted,
            } => (NoteClass::Rejected, "votes aborted".into()),
            CommitNote::RmDecided {
                outcome: Outcome::Commit,
            } => (NoteClass::Learned, "committed".into()),
            CommitNote::RmDecided {
                outcome: Outcome::Abort,
            } => (NoteClass::Rejected, "aborted".into()),
            CommitNote::TmDecided { outcome } | CommitNote::LeaderDecided { outcome } => {
                (NoteClass::Chosen, format!("decides {}", outcome.as_str()))
            }
            CommitNote::CoordinatorBallot { ballot, .. } => (
                NoteClass::Info,
                format!("takes over {}", commit_ballot(names, ballot)),
            ),
            _ => return None,
        },
    })
}

/// What kind of fact a mark shows (the exports give each its own look).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NoteClass {
    Chosen,
    Learned,
    Lease,
    /// A refused stale write: the fence doing its job.
    Rejected,
    /// Something is wrong: a monitor's violation, a split brain.
    Violation,
    /// A step worth reading (a free or forced decree).
    Info,
}

impl NoteClass {
    pub fn as_str(self) -> &'static str {
        match self {
            NoteClass::Chosen => "chosen",
            NoteClass::Learned => "learned",
            NoteClass::Lease => "lease",
            NoteClass::Rejected => "rejected",
            NoteClass::Violation => "violation",
            NoteClass::Info => "info",
        }
    }
}

/// Why a message never arrived, in words.
pub fn drop_reason(r: DropReason) -> &'static str {
    match r {
        DropReason::Loss => "lost",
        DropReason::Partition => "cut by partition",
        DropReason::Down => "receiver crashed",
    }
}

/// One line describing any event (used by the ShiViz log).
pub fn event(names: &[String], kind: &EventKind) -> String {
    let n = |id: NodeId| node_name(names, id);
    match kind {
        EventKind::Send { to, msg: m, id } => {
            format!("send {} to {} [m{}]", msg(names, m), n(*to), id.0)
        }
        EventKind::Deliver { from, msg: m, id } => {
            format!("receive {} from {} [m{}]", msg(names, m), n(*from), id.0)
        }
        EventKind::Drop {
            from,
            to,
            msg: m,
            reason,
            id,
        } => {
            format!(
                "{} {} {}→{} [m{}]",
                drop_reason(*reason),
                msg(names, m),
                n(*from),
                n(*to),
                id.0
            )
        }
        EventKind::Duplicate { to, msg: m, id, of } => {
            format!(
                "duplicate {} to {} [m{} copy of m{}]",
                msg(names, m),
                n(*to),
                id.0,
                of.0
            )
        }
        EventKind::Timer { timer } => format!("timer {}", timer.type_name()),
        EventKind::Fault { fault: f } => format!("fault: {}", fault(&named_fault(names, f))),
        EventKind::Command { command: c } => {
            format!("fault: {}", command(&named_command(names, c)))
        }
        EventKind::Resume => "resume".into(),
        EventKind::Note(x) => match note(names, x) {
            Some((_, text)) => text,
            None => note_detail(names, x),
        },
        EventKind::Violation { invariant, detail } => format!("VIOLATION {invariant}: {detail}"),
        EventKind::Foreign { kind, detail } => format!("{kind} {detail}"),
    }
    .replace(['\n', '\r', '\u{2028}', '\u{2029}'], " ")
    .chars()
    .filter(|c| !c.is_control())
    .collect::<String>()
}

/// The notes no diagram marks, in words (for logs such as ShiViz's).
fn note_detail(names: &[String], n: &Note) -> String {
    let b = |x: Ballot| ballot(names, x);
    let name = |id: NodeId| node_name(names, id);
    match n {
        Note::Paxos(p) => match *p {
            PaxosNote::Asked { value } => format!("asked to propose {value}"),
            PaxosNote::BallotStarted { ballot } => format!("starts ballot {}", b(ballot)),
            PaxosNote::PromiseQuorum { ballot, members: m } => {
                format!("promises for {} from {}", b(ballot), members(names, m))
            }
            PaxosNote::AcceptedQuorum {
                ballot,
                value,
                members: m,
            } => {
                format!("votes for {} {value} from {}", b(ballot), members(names, m))
            }
            PaxosNote::Preempted { ballot, by } => format!("{} pre-empted by {}", b(ballot), b(by)),
            PaxosNote::Ignored {
                ballot,
                promised,
                phase,
            } => {
                format!("ignores {phase} {}, promised {}", b(ballot), b(promised))
            }
            PaxosNote::Ledger { max_bal, last_vote } => format!(
                "ledger maxBal {}, last vote {}",
                max_bal.map(b).unwrap_or_else(|| "none".into()),
                last_vote
                    .map(|v| format!("{} {}", b(v.ballot), v.value))
                    .unwrap_or_else(|| "none".into())
            ),
            _ => n.type_name().to_string(),
        },
        Note::Lease(l) => match *l {
            LeaseNote::Renewed { holder, epoch, .. } => {
                format!("renewed {} e{epoch}", name(holder))
            }
            LeaseNote::Refused {
                asker,
                holder,
                epoch,
                ..
            } => {
                format!("refused {}: {} holds e{epoch}", name(asker), name(holder))
            }
            LeaseNote::Belief { holding, epoch } => {
                format!(
                    "{} e{epoch}",
                    if holding {
                        "believes it holds"
                    } else {
                        "no longer holds"
                    }
                )
            }
            LeaseNote::WriteSent { key, epoch } => {
                format!(
                    "writes {} e{epoch}",
                    crate::protocol::storage::key_name(key)
                )
            }
            LeaseNote::WriteAccepted {
                writer, epoch, key, ..
            } => {
                format!(
                    "accepted {} e{epoch} from {}",
                    crate::protocol::storage::key_name(key),
                    name(writer)
                )
            }
            LeaseNote::LlmRequest { purpose } => format!("asks the LLM: {}", purpose.as_str()),
            LeaseNote::LlmResponse {
                latency_us,
                outcome,
            } => {
                format!(
                    "LLM answered {} after {}",
                    outcome.as_str(),
                    human_us(latency_us)
                )
            }
            _ => n.type_name().to_string(),
        },
        Note::Multipaxos(m) => super::multipaxos::note_detail(names, m),
        Note::Commit(c) => match *c {
            CommitNote::AcceptorVoted { ballot, votes } => {
                let v: Vec<String> = votes
                    .iter()
                    .map(|(r, x)| format!("{} {}", node_name(names, r), x.as_str()))
                    .collect();
                format!(
                    "writes votes in ballot {}: {}",
                    commit_ballot(names, ballot),
                    v.join(", ")
                )
            }
            CommitNote::AcceptorPromised { ballot, rms } => {
                let r: Vec<&str> = rms.iter().map(|x| node_name(names, x)).collect();
                format!(
                    "promises ballot {} for {}",
                    commit_ballot(names, ballot),
                    r.join(",")
                )
            }
            CommitNote::InstanceChosen { rm, ballot, vote } => {
                format!(
                    "{} chosen in {}'s instance (ballot {})",
                    vote.as_str(),
                    node_name(names, rm),
                    commit_ballot(names, ballot)
                )
            }
            _ => n.type_name().to_string(),
        },
    }
}
