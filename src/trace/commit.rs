//! Trace encoding of the commit protocols' messages and notes (format v1).
//!
//! An instance is named by its RM. A message about one RM names it in `rm`;
//! a message about several instances lists them, each with its `rm`
//! (`votes`, `rms`, `last_votes`). Ballot 0 — the RM's own — is written `0`;
//! a coordinator's ballot as `{"round": r, "node": name}`.

use super::json::Namer;
use crate::protocol::commit::{Ballot, CommitMsg, CommitNote, LastVotes, RmSet, Votes};
use serde_json::{json, Map, Value as J};

pub fn ballot(n: &Namer, b: Ballot) -> J {
    if b.is_zero() {
        json!(0)
    } else {
        json!({"round": b.round, "node": n.node(b.node)})
    }
}

pub fn votes(n: &Namer, v: Votes) -> J {
    J::Array(
        v.iter()
            .map(|(r, x)| json!({"rm": n.node(r), "value": x.as_str()}))
            .collect(),
    )
}

pub fn rm_set(n: &Namer, s: RmSet) -> J {
    J::Array(s.iter().map(|r| n.node(r)).collect())
}

fn last_votes(n: &Namer, set: RmSet, l: &LastVotes) -> J {
    J::Array(
        set.iter()
            .map(|r| match l.get(set, r) {
                Some(x) => json!({"rm": n.node(r), "ballot": ballot(n, x.ballot), "value": x.vote.as_str()}),
                None => json!({"rm": n.node(r), "ballot": null, "value": null}),
            })
            .collect(),
    )
}

/// The fields of a commit message (besides `id`, `from`, `to`).
pub fn msg_fields(n: &Namer, c: &CommitMsg, m: &mut Map<String, J>) {
    m.insert("type".into(), json!(c.type_name()));
    if let Some(r) = c.rm() {
        m.insert("rm".into(), n.node(r));
    }
    match *c {
        CommitMsg::Phase1a { ballot: b, rms } => {
            m.insert("ballot".into(), ballot(n, b));
            m.insert("rms".into(), rm_set(n, rms));
        }
        CommitMsg::Phase1b {
            ballot: b,
            rms,
            last,
        } => {
            m.insert("ballot".into(), ballot(n, b));
            m.insert("last_votes".into(), last_votes(n, rms, &last));
        }
        CommitMsg::Phase2a {
            ballot: b,
            votes: v,
        }
        | CommitMsg::Phase2b {
            ballot: b,
            votes: v,
        } => {
            m.insert("ballot".into(), ballot(n, b));
            m.insert("votes".into(), votes(n, v));
        }
        _ => {}
    }
}

/// The extra fields of a commit note (its `kind` is [`CommitNote::type_name`]).
pub fn note_fields(n: &Namer, c: &CommitNote, m: &mut Map<String, J>) {
    let mut put = |k: &str, v: J| {
        m.insert(k.into(), v);
    };
    match *c {
        CommitNote::RmVoted { vote } => put("vote", json!(vote.as_str())),
        CommitNote::RmDecided { outcome }
        | CommitNote::TmDecided { outcome }
        | CommitNote::LeaderDecided { outcome } => put("outcome", json!(outcome.as_str())),
        CommitNote::AcceptorVoted {
            ballot: b,
            votes: v,
        } => {
            put("ballot", ballot(n, b));
            put("votes", votes(n, v));
        }
        CommitNote::AcceptorPromised { ballot: b, rms }
        | CommitNote::CoordinatorBallot { ballot: b, rms } => {
            put("ballot", ballot(n, b));
            put("rms", rm_set(n, rms));
        }
        CommitNote::InstanceChosen {
            rm,
            ballot: b,
            vote,
        } => {
            put("rm", n.node(rm));
            put("ballot", ballot(n, b));
            put("value", json!(vote.as_str()));
        }
    }
}
