//! English narration of the commit protocols (two-phase commit, Paxos Commit).

use crate::protocol::commit::{
    Ballot, CommitMsg, CommitNote, CommitTimer, Outcome, RmSet, RmVote, Votes,
};
use crate::sim::NodeId;

fn name(names: &[String], n: NodeId) -> String {
    names.get(n.index()).cloned().unwrap_or_else(|| "?".into())
}

pub fn ballot(names: &[String], b: Ballot) -> String {
    if b.is_zero() {
        "0".into()
    } else {
        format!("({},{})", b.round, name(names, b.node))
    }
}

fn vote(v: RmVote) -> &'static str {
    match v {
        RmVote::Prepared => "prepared",
        RmVote::Aborted => "aborted",
    }
}

fn outcome(o: Outcome) -> &'static str {
    match o {
        Outcome::Commit => "Commit",
        Outcome::Abort => "Abort",
    }
}

fn votes(names: &[String], v: Votes) -> String {
    let all: Vec<String> = v
        .iter()
        .map(|(r, x)| format!("{} {}", name(names, r), vote(x)))
        .collect();
    all.join(", ")
}

fn rms(names: &[String], s: RmSet) -> String {
    s.iter()
        .map(|r| name(names, r))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A message kind in a few words (for losses and duplicates).
pub fn kind(m: &CommitMsg) -> String {
    match m {
        CommitMsg::Prepare { .. } => "Prepare".into(),
        CommitMsg::Vote { vote: v, .. } => format!("vote ({})", vote(*v)),
        CommitMsg::Decision { outcome: o, .. } => outcome(*o).into(),
        CommitMsg::BeginCommit { .. } => "BeginCommit".into(),
        CommitMsg::Phase1a { .. } => "phase 1a".into(),
        CommitMsg::Phase1b { .. } => "phase 1b".into(),
        CommitMsg::Phase2a { .. } => "phase 2a".into(),
        CommitMsg::Phase2b { .. } => "phase 2b".into(),
    }
}

/// One message (`many`: the same message to several nodes, `to` already listed).
pub fn message(names: &[String], from: NodeId, to: String, m: &CommitMsg, many: bool) -> String {
    let f = name(names, from);
    match *m {
        CommitMsg::Prepare { .. } if many => format!("{f} asks {to} to prepare (Prepare)."),
        CommitMsg::Prepare { .. } => format!("{f} asks {to} to prepare to commit (Prepare)."),
        CommitMsg::Vote {
            vote: RmVote::Prepared,
            ..
        } => format!("{f} tells {to}: Prepared."),
        CommitMsg::Vote {
            vote: RmVote::Aborted,
            ..
        } => format!("{f} tells {to}: Aborted — it votes no."),
        CommitMsg::Decision { outcome: o, .. } => format!("{f} tells {to}: {}.", outcome(o)),
        CommitMsg::BeginCommit { .. } => {
            format!("{f} asks the leader {to} to commit the transaction (BeginCommit).")
        }
        CommitMsg::Phase1a { ballot: b, rms: s } => {
            format!(
                "{f} starts ballot {} in the instances of {}: phase 1a to {to}.",
                ballot(names, b),
                rms(names, s)
            )
        }
        CommitMsg::Phase1b {
            ballot: b,
            rms: s,
            last,
        } => {
            let reports: Vec<String> = s
                .iter()
                .map(|r| match last.get(s, r) {
                    Some(x) => format!(
                        "{} {} in ballot {}",
                        name(names, r),
                        vote(x.vote),
                        ballot(names, x.ballot)
                    ),
                    None => format!("{} no vote", name(names, r)),
                })
                .collect();
            format!(
                "{f} promises ballot {} to {to} and reports: {}.",
                ballot(names, b),
                reports.join("; ")
            )
        }
        CommitMsg::Phase2a {
            ballot: b,
            votes: v,
        } if b.is_zero() => {
            let own = v.iter().next().map(|(_, x)| vote(x)).unwrap_or("?");
            format!("{f} sends its own vote, “{own}”, to {to}: phase 2a of ballot 0, which belongs to it.")
        }
        CommitMsg::Phase2a {
            ballot: b,
            votes: v,
        } => format!(
            "{f} asks {to} to vote in ballot {}: {} (2a).",
            ballot(names, b),
            votes(names, v)
        ),
        CommitMsg::Phase2b {
            ballot: b,
            votes: v,
        } => format!(
            "{f} votes in ballot {} — {} — and tells {to} (2b).",
            ballot(names, b),
            votes(names, v)
        ),
    }
}

/// What a role noted.
pub fn note(names: &[String], who: &str, n: &CommitNote) -> String {
    match *n {
        CommitNote::RmVoted {
            vote: RmVote::Prepared,
        } => {
            format!("{who} writes “prepared” to its log: from now on it is uncertain and holds its locks until it learns the outcome.")
        }
        CommitNote::RmVoted {
            vote: RmVote::Aborted,
        } => format!("{who} writes “aborted” to its log: it will not commit."),
        CommitNote::RmDecided {
            outcome: Outcome::Commit,
        } => format!("{who} writes “committed” and releases its locks."),
        CommitNote::RmDecided {
            outcome: Outcome::Abort,
        } => format!("{who} writes “aborted” and releases its locks."),
        CommitNote::TmDecided { outcome: o } => format!(
            "{who}, the TM, writes its decision to its log: {}.",
            outcome(o)
        ),
        CommitNote::AcceptorVoted {
            ballot: b,
            votes: v,
        } => {
            format!(
                "{who} writes its votes in ballot {} to stable storage: {}.",
                ballot(names, b),
                votes(names, v)
            )
        }
        CommitNote::AcceptorPromised { ballot: b, rms: s } => {
            format!(
                "{who} writes its promise of ballot {} for {}.",
                ballot(names, b),
                rms(names, s)
            )
        }
        CommitNote::CoordinatorBallot { ballot: b, rms: s } => format!(
            "{who} has heard no outcome: it takes over with ballot {} for {}.",
            ballot(names, b),
            rms(names, s)
        ),
        CommitNote::LeaderDecided {
            outcome: Outcome::Commit,
        } => format!("{who} has learned that every instance chose “prepared”: Commit."),
        CommitNote::LeaderDecided {
            outcome: Outcome::Abort,
        } => format!("{who} has learned that an instance chose “aborted”: Abort."),
        CommitNote::InstanceChosen {
            rm,
            ballot: b,
            vote: v,
        } => format!(
            "A majority of acceptors voted “{}” in {}'s instance (ballot {}): it is chosen.",
            vote(v),
            name(names, rm),
            ballot(names, b)
        ),
    }
}

pub fn timer(who: &str, t: CommitTimer) -> String {
    match t {
        CommitTimer::Begin => format!("{who} is ready to commit."),
        CommitTimer::UnilateralAbort => format!("{who} gives up on the transaction."),
        CommitTimer::VoteTimeout => format!("{who} has waited long enough for the outcome."),
        CommitTimer::Takeover => format!("{who} has waited long enough for the leader."),
    }
}
