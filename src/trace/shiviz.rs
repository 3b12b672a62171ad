//! Export a run as a ShiViz log (https://bestchai.bitbucket.io/shiviz/), so
//! a run can be studied in the tool distributed-systems courses already use.
//!
//! ShiViz knows nothing of messages: it reads one vector clock per event and
//! draws an arrow wherever a clock shows that one host learned of another's
//! event. So this module *computes* vector clocks from the trace, the way
//! Lamport/Mattern clocks work: every event of a host ticks that host's own
//! entry by one; a `send` (and a network `duplicate`, which is a second send)
//! remembers its clock by message id; a `deliver` merges (entry-wise max) the
//! clock of the send it delivers, then ticks. Lost messengers are not thrown
//! away: a `drop` becomes an event of a pseudo-host `net` (the sea the
//! messenger fell into), which merges the sender's clock like a receiver —
//! ShiViz then draws the message going into the network and ending there.
//! Nothing ever flows *out* of `net`, so it never adds false causality.
//!
//! The file starts with the parser regex on its first line and an empty
//! "multiple executions" delimiter on its second, which is what ShiViz's
//! file upload reads; then each event is two lines:
//!
//! ```text
//! Α {"Α":3,"Β":1}
//! t=0.060123s send 1a (1,Α) to Β [m4]
//! ```
//!
//! ShiViz insists that each host's own entry starts at 1 and grows by exactly
//! 1 per event, and that a clock only mentions events that exist; vector
//! clocks computed this way satisfy both (`tests/shiviz.rs` checks it).

use super::{label, EventKind, TraceEvent};
use crate::sim::NodeId;
use crate::sorted::VecMap;

/// The parser regex (ShiViz's "log parsing regular expression").
pub const REGEX: &str = r"(?<host>\S*) (?<clock>{.*})\n(?<event>.*)";
/// The host that stands for the network (drops and network-wide faults).
pub const NET_HOST: &str = "net";

/// Host names: node names with whitespace replaced (ShiViz's `\S*` ends a
/// host at the first space), made unique, plus the network host last.
pub fn hosts(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len() + 1);
    for n in names.iter().map(String::as_str).chain([NET_HOST]) {
        let base: String = n
            .chars()
            .map(|c| {
                if c.is_whitespace() || c.is_control() {
                    '_'
                } else {
                    c
                }
            })
            .collect();
        let base = if base.is_empty() {
            "_".to_string()
        } else {
            base
        };
        let mut name = base.clone();
        let mut k = 2;
        while out.contains(&name) {
            name = format!("{base}~{k}");
            k += 1;
        }
        out.push(name);
    }
    out
}

/// The whole ShiViz file for a run: header lines, then two lines per event.
pub fn export(names: &[String], events: &[TraceEvent]) -> String {
    let hosts = hosts(names);
    let net = hosts.len() - 1;
    let host_of = |n: NodeId| if n.index() < net { n.index() } else { net };
    let mut clocks: Vec<Vec<u32>> = vec![vec![0; hosts.len()]; hosts.len()];
    // The clock each message copy left with, until it arrives or is dropped.
    let mut in_flight: VecMap<u64, Vec<u32>> = VecMap::new();
    let mut out = String::with_capacity(events.len() * 80 + 64);
    out.push_str(REGEX);
    out.push_str("\n\n");
    for e in events {
        let (h, merge) = match &e.kind {
            EventKind::Deliver { id, .. } => (host_of(e.node), in_flight.remove(&id.0)),
            EventKind::Drop { id, .. } => (net, in_flight.remove(&id.0)),
            _ => (host_of(e.node), None),
        };
        let clock = &mut clocks[h];
        if let Some(m) = merge {
            for (c, x) in clock.iter_mut().zip(m) {
                *c = (*c).max(x);
            }
        }
        clock[h] += 1;
        match &e.kind {
            EventKind::Send { id, .. } | EventKind::Duplicate { id, .. } => {
                in_flight.insert(id.0, clock.clone());
            }
            _ => {}
        }
        out.push_str(&hosts[h]);
        out.push(' ');
        write_clock(&mut out, &hosts, clock);
        out.push('\n');
        out.push_str(&format!("t={}s ", secs(e.t.0)));
        out.push_str(&label::event(names, &e.kind));
        out.push('\n');
    }
    out
}

/// `{"Α":3,"Β":1}`: only non-zero entries (ShiViz drops zeros anyway), in
/// host order, names JSON-escaped.
fn write_clock(out: &mut String, hosts: &[String], clock: &[u32]) {
    out.push('{');
    let mut first = true;
    for (name, &c) in hosts.iter().zip(clock) {
        if c == 0 {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str(&serde_json::Value::String(name.clone()).to_string());
        out.push(':');
        out.push_str(&c.to_string());
    }
    out.push('}');
}

/// Seconds with all six decimals, so the event text sorts and reads exactly.
fn secs(us: u64) -> String {
    format!("{}.{:06}", us / 1_000_000, us % 1_000_000)
}
