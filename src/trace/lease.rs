//! Trace encoding of the lease lab's messages and notes (format v1).

use super::json::Namer;
use crate::protocol::lease::{LeaseMsg, LeaseNote, View};
use crate::protocol::storage::key_name;
use serde_json::{json, Map, Value as J};

pub fn msg_fields(_n: &Namer, m: &LeaseMsg, out: &mut Map<String, J>) {
    out.insert("type".into(), json!(m.type_name()));
    let mut put = |k: &str, v: J| {
        out.insert(k.into(), v);
    };
    match *m {
        LeaseMsg::Acquire { req, ttl_us } => {
            put("req", json!(req));
            put("ttl_us", json!(ttl_us));
        }
        LeaseMsg::AcquireReply { req, epoch } => {
            put("req", json!(req));
            put("epoch", json!(epoch));
        }
        LeaseMsg::Release { epoch } => put("epoch", json!(epoch)),
        LeaseMsg::Row { version, row } => {
            put("version", json!(version));
            put("holder", _n.node(row.holder));
            put("epoch", json!(row.epoch));
            put("expires_at_us", json!(row.expires_at.0));
        }
        LeaseMsg::Write { req, key, epoch } => {
            put("req", json!(req));
            put("key", json!(key_name(key)));
            put("epoch", json!(epoch));
        }
        LeaseMsg::WriteReply {
            req,
            key,
            epoch,
            ok,
        } => {
            put("req", json!(req));
            put("key", json!(key_name(key)));
            put("epoch", json!(epoch));
            put("ok", json!(ok));
        }
        LeaseMsg::Ask { req, purpose } => {
            put("req", json!(req));
            put("purpose", json!(purpose.as_str()));
        }
        LeaseMsg::Answer { req, outcome } => {
            put("req", json!(req));
            put("outcome", json!(outcome.as_str()));
        }
    }
}

/// The extra fields of a note (its `kind` is [`LeaseNote::type_name`]).
pub fn note_fields(n: &Namer, note: &LeaseNote, m: &mut Map<String, J>) {
    let mut put = |k: &str, v: J| {
        m.insert(k.into(), v);
    };
    let key = |k: u16| json!(key_name(k));
    match *note {
        LeaseNote::Granted {
            holder,
            epoch,
            expires_at_us,
            previous,
            store_now_us,
            version,
        } => {
            put("holder", n.node(holder));
            put("epoch", json!(epoch));
            put("expires_at_us", json!(expires_at_us));
            put("store_now_us", json!(store_now_us));
            put(
                "previous",
                previous
                    .map(|(h, e, x)| json!({"holder": n.node(h), "epoch": e, "expires_at_us": x}))
                    .unwrap_or(J::Null),
            );
            if let Some(v) = version {
                put("version", json!(v));
            }
        }
        LeaseNote::Renewed {
            holder,
            epoch,
            expires_at_us,
            store_now_us,
            version,
        } => {
            put("holder", n.node(holder));
            put("epoch", json!(epoch));
            put("expires_at_us", json!(expires_at_us));
            put("store_now_us", json!(store_now_us));
            if let Some(v) = version {
                put("version", json!(v));
            }
        }
        LeaseNote::Refused {
            asker,
            holder,
            epoch,
            store_now_us,
        } => {
            put("asker", n.node(asker));
            put("holder", n.node(holder));
            put("epoch", json!(epoch));
            put("store_now_us", json!(store_now_us));
        }
        LeaseNote::Released {
            holder,
            epoch,
            at_us,
            version,
        } => {
            put("holder", n.node(holder));
            put("epoch", json!(epoch));
            put("at_us", json!(at_us));
            if let Some(v) = version {
                put("version", json!(v));
            }
        }
        LeaseNote::Expired {
            holder,
            epoch,
            view,
        } => {
            put("holder", n.node(holder));
            put("epoch", json!(epoch));
            put(
                "view",
                json!(match view {
                    View::Worker => "worker",
                    View::Store => "store",
                }),
            );
        }
        LeaseNote::Belief { holding, epoch } => {
            put("holding", json!(holding));
            put("epoch", json!(epoch));
        }
        LeaseNote::WriteSent { key: k, epoch } => {
            put("key", key(k));
            put("epoch", json!(epoch));
        }
        LeaseNote::WriteAccepted {
            writer,
            epoch,
            key: k,
            previous,
            db_now_us,
        } => {
            put("writer", n.node(writer));
            put("epoch", json!(epoch));
            put("key", key(k));
            put("previous_epoch", json!(previous));
            put("db_now_us", json!(db_now_us));
        }
        LeaseNote::WriteRejected {
            writer,
            epoch,
            key: k,
            row,
            reason,
            lease,
            db_now_us,
        } => {
            put("writer", n.node(writer));
            put("epoch", json!(epoch));
            put("key", key(k));
            put("row_epoch", json!(row));
            put("reason", json!(reason.as_str()));
            put(
                "lease",
                lease
                    .map(|l| json!({"holder": n.node(l.holder), "epoch": l.epoch, "expires_at_us": l.expires_at.0}))
                    .unwrap_or(J::Null),
            );
            put("db_now_us", json!(db_now_us));
        }
        LeaseNote::LlmRequest { purpose } => {
            put("purpose", json!(purpose.as_str()));
        }
        LeaseNote::LlmResponse {
            latency_us,
            outcome,
        } => {
            put("latency_us", json!(latency_us));
            put("outcome", json!(outcome.as_str()));
        }
        LeaseNote::SplitBrainStart { believers } => {
            put(
                "believers",
                J::Array(
                    (0..64u8)
                        .filter(|i| believers & (1 << i) != 0)
                        .map(|i| n.node(crate::sim::NodeId(i)))
                        .collect(),
                ),
            );
        }
        LeaseNote::SplitBrainEnd { lasted_us } => {
            put("lasted_us", json!(lasted_us));
        }
    }
}
