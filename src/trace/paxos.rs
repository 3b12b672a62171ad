//! Trace encoding of the Synod's messages and notes (format v1).

use super::json::Namer;
use crate::protocol::paxos::{Ballot, Choice, PaxosMsg, PaxosNote};
use serde_json::{json, Map, Value as J};

fn opt_ballot(n: &Namer, b: Option<Ballot>) -> J {
    b.map(|b| n.ballot(b)).unwrap_or(J::Null)
}

/// The fields of a Synod message (besides `id`, `from`, `to`).
pub fn msg_fields(n: &Namer, p: &PaxosMsg, m: &mut Map<String, J>) {
    m.insert("type".into(), json!(p.type_name()));
    m.insert("ballot".into(), n.ballot(p.ballot()));
    match *p {
        PaxosMsg::Accept { value, .. }
        | PaxosMsg::Accepted { value, .. }
        | PaxosMsg::Decided { value, .. } => {
            m.insert("value".into(), json!(value.as_str()));
        }
        PaxosMsg::Promise { last_vote, .. } => {
            m.insert(
                "last_vote".into(),
                last_vote.map(|v| n.vote(v)).unwrap_or(J::Null),
            );
        }
        PaxosMsg::Prepare { .. } => {}
    }
}

/// The extra fields of a Synod note (its `kind` is [`PaxosNote::type_name`]).
pub fn note_fields(n: &Namer, p: &PaxosNote, m: &mut Map<String, J>) {
    let mut put = |k: &str, v: J| {
        m.insert(k.into(), v);
    };
    match *p {
        PaxosNote::Asked { value } => {
            put("value", json!(value.as_str()));
        }
        PaxosNote::BallotStarted { ballot } => {
            put("ballot", n.ballot(ballot));
        }
        PaxosNote::PromiseQuorum { ballot, members } => {
            put("ballot", n.ballot(ballot));
            put("members", n.members(members));
        }
        PaxosNote::ValuePicked {
            ballot,
            value,
            choice,
        } => {
            put("ballot", n.ballot(ballot));
            put("value", json!(value.as_str()));
            match choice {
                Choice::Free => put("choice", json!("free")),
                Choice::Forced { by, voter } => {
                    put("choice", json!("forced"));
                    put(
                        "forced_by",
                        json!({"ballot": n.ballot(by), "voter": n.node(voter)}),
                    );
                }
                // A broken algorithm's picks: what it did with the votes reported.
                Choice::Ignored { by, voter } => {
                    put("choice", json!("ignored"));
                    put(
                        "highest_vote",
                        json!({"ballot": n.ballot(by), "voter": n.node(voter)}),
                    );
                }
                Choice::NotHighest { by, voter, highest } => {
                    put("choice", json!("not_highest"));
                    put(
                        "forced_by",
                        json!({"ballot": n.ballot(by), "voter": n.node(voter)}),
                    );
                    put("highest_ballot", n.ballot(highest));
                }
            }
        }
        PaxosNote::AcceptedQuorum {
            ballot,
            value,
            members,
        } => {
            put("ballot", n.ballot(ballot));
            put("value", json!(value.as_str()));
            put("members", n.members(members));
        }
        PaxosNote::Preempted { ballot, by } => {
            put("ballot", n.ballot(ballot));
            put("by", n.ballot(by));
        }
        PaxosNote::Ignored {
            ballot,
            promised,
            phase,
        } => {
            put("ballot", n.ballot(ballot));
            put("promised", n.ballot(promised));
            put("phase", json!(phase));
        }
        PaxosNote::Ledger { max_bal, last_vote } => {
            put("max_bal", opt_ballot(n, max_bal));
            put("last_vote", last_vote.map(|v| n.vote(v)).unwrap_or(J::Null));
        }
        PaxosNote::Learned { ballot, value } => {
            put("ballot", n.ballot(ballot));
            put("value", json!(value.as_str()));
        }
        PaxosNote::LearnConflict { have, told } => {
            put("have", json!(have.as_str()));
            put("told", json!(told.as_str()));
        }
        PaxosNote::Chosen {
            ballot,
            value,
            members,
        } => {
            put("ballot", n.ballot(ballot));
            put("value", json!(value.as_str()));
            put("members", n.members(members));
        }
    }
}
