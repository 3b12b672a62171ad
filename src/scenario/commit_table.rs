//! What a commit protocol costs, measured from runs, beside Gray and
//! Lamport's formulas (DOMAIN §3; research review D).
//!
//! From a run's trace:
//! - **messages**: every commit message sent between two *nodes* — a
//!   message between roles on one node (the TM and RM1 co-located) crosses
//!   no network and is not counted, as in the paper;
//! - **message delays**: the longest chain of such messages from the
//!   initiating RM's request to the last RM learning the outcome (each node
//!   knows as far as the longest chain it has heard of: a Lamport clock);
//! - **stable-storage writes**: the RMs' votes, the TM's decision, the
//!   acceptors' votes and promises, a coordinator's new ballot — and,
//!   counted apart as the paper leaves them out, the RMs' final records.
//!
//! The paper's message delays (4 / 5 / 4) count the initiating RM's request
//! to the TM as one; with the TM on that RM's node the request is local and
//! a run takes one delay fewer, which the table says.

use super::commit_spec::{transaction, Placement, Shape};
use super::run::Run;
use crate::protocol::commit::{Algorithm, CommitNote, Outcome};
use crate::protocol::{Msg, Note};
use crate::sorted::VecMap;
use crate::trace::{EventKind, TraceEvent};

/// What one run cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Costs {
    pub messages: usize,
    /// None if some RM never learned the outcome.
    pub delays: Option<u32>,
    pub writes: usize,
    /// The RMs' final records (not in the paper's count).
    pub outcome_writes: usize,
    pub outcome: Option<Outcome>,
}

/// Measure a commit run from its trace.
pub fn measure(trace: &[TraceEvent], rms: usize) -> Costs {
    let mut c = Costs::default();
    // Lamport clocks: per node, the longest chain of messages it has heard of.
    let mut clock: VecMap<u8, u32> = VecMap::new();
    let mut depth: VecMap<u64, u32> = VecMap::new();
    let mut decided = 0usize;
    let mut last = 0u32;
    for e in trace {
        match &e.kind {
            EventKind::Send {
                id,
                to,
                msg: Msg::Commit(_),
            } => {
                let here = clock.get(&e.node.0).copied().unwrap_or(0);
                let hop = u32::from(*to != e.node);
                depth.insert(id.0, here + hop);
                c.messages += hop as usize;
            }
            EventKind::Duplicate { id, of, .. } => {
                if let Some(&d) = depth.get(&of.0) {
                    depth.insert(id.0, d);
                }
            }
            EventKind::Deliver {
                id,
                msg: Msg::Commit(_),
                ..
            } => {
                let d = depth.get(&id.0).copied().unwrap_or(0);
                let k = clock.or_insert(e.node.0, 0);
                *k = (*k).max(d);
            }
            EventKind::Note(Note::Commit(n)) => match n {
                CommitNote::RmDecided { outcome } => {
                    c.outcome_writes += 1;
                    c.outcome.get_or_insert(*outcome);
                    decided += 1;
                    last = last.max(clock.get(&e.node.0).copied().unwrap_or(0));
                }
                CommitNote::RmVoted {
                    vote: crate::protocol::commit::RmVote::Aborted,
                } => {
                    c.writes += 1;
                    c.outcome.get_or_insert(Outcome::Abort);
                    decided += 1;
                }
                n if n.is_write() => c.writes += 1,
                _ => {}
            },
            _ => {}
        }
    }
    c.delays = (decided >= rms).then_some(last);
    c
}

/// Gray and Lamport's normal-case figures for a shape, where the paper gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paper {
    /// The formula as written ("3N−1") and its value.
    pub messages: (&'static str, usize),
    /// The paper's message delays, counting the request to commit.
    pub delays: u32,
    pub writes: (&'static str, usize),
}

pub fn paper(s: Shape) -> Option<Paper> {
    let (n, f) = (s.rms, s.f);
    let writes_pc = ("N+F+1", n + f + 1);
    Some(match (s.algorithm, s.faster, s.placement) {
        (Algorithm::TwoPhaseCommit, _, Placement::Separate) => Paper {
            messages: ("3N−1", 3 * n - 1),
            delays: 4,
            writes: ("N+1", n + 1),
        },
        (Algorithm::TwoPhaseCommit, _, Placement::Colocated) => Paper {
            messages: ("3N−3", 3 * n - 3),
            delays: 4,
            writes: ("N+1", n + 1),
        },
        // With F = 0 the one acceptor shares the leader's node and its 2b is
        // no message: the delays are two-phase commit's, as the mapping says.
        (Algorithm::PaxosCommit, false, Placement::Colocated) => Paper {
            messages: ("N(F+3)−3", n * (f + 3) - 3),
            delays: if f == 0 { 4 } else { 5 },
            writes: writes_pc,
        },
        (Algorithm::PaxosCommit, true, Placement::Colocated) => Paper {
            messages: ("(N−1)(2F+3)", (n - 1) * (2 * f + 3)),
            delays: 4,
            writes: writes_pc,
        },
        (Algorithm::PaxosCommit, _, Placement::Separate) => return None,
    })
}

/// The delays a run of this placement should take: the paper's, less the
/// request to commit when it stays on the TM's node.
pub fn expected_delays(s: Shape, p: &Paper) -> u32 {
    p.delays - u32::from(s.placement == Placement::Colocated)
}

/// One row of the comparison: a calm run of `shape`, measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub shape: Shape,
    pub measured: Costs,
    pub paper: Option<Paper>,
}

impl Row {
    /// Do the run's figures equal the formulas?
    pub fn matches(&self) -> bool {
        self.paper.as_ref().is_some_and(|p| {
            self.measured.messages == p.messages.1
                && self.measured.writes == p.writes.1
                && self.measured.delays == Some(expected_delays(self.shape, p))
        })
    }
}

/// Run one calm transaction of `shape` and measure it.
pub fn row(shape: Shape) -> Row {
    let s = transaction("table", shape);
    let measured = match Run::record(&s) {
        Ok(run) => measure(&run.trace, shape.rms),
        Err(_) => Costs::default(),
    };
    Row {
        shape,
        measured,
        paper: paper(shape),
    }
}

/// The comparison for N RMs and F: 2PC with the TM on its own node and on
/// RM1's, Paxos Commit and Faster Paxos Commit (acceptors on RM1…RM(2F+1)).
pub fn table(rms: usize, f: usize) -> Vec<Row> {
    let two = |placement| Shape {
        algorithm: Algorithm::TwoPhaseCommit,
        faster: false,
        rms,
        f: 0,
        placement,
    };
    let pc = |faster| Shape {
        algorithm: Algorithm::PaxosCommit,
        faster,
        rms,
        f,
        placement: Placement::Colocated,
    };
    vec![
        row(two(Placement::Separate)),
        row(two(Placement::Colocated)),
        row(pc(false)),
        row(pc(true)),
    ]
}

/// The lines of `paxos-island run` for a commit scenario.
pub fn print_summary(run: &Run, out: &mut dyn std::io::Write) {
    let Some(shape) = Shape::of(&run.scenario) else {
        return;
    };
    let h = crate::sim::time::human_us;
    let name = match (shape.algorithm, shape.faster) {
        (Algorithm::TwoPhaseCommit, _) => "two-phase commit".to_string(),
        (Algorithm::PaxosCommit, false) => format!("Paxos Commit, F = {}", shape.f),
        (Algorithm::PaxosCommit, true) => format!("Faster Paxos Commit, F = {}", shape.f),
    };
    let tm = run
        .scenario
        .nodes_with(super::Role::Tm)
        .first()
        .map(|&n| run.names[n.index()].clone())
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "commit     {name}, N = {} RMs; placement: {} (the TM is {tm}{})",
        shape.rms,
        shape.placement.as_str(),
        if shape.placement == Placement::Colocated {
            ", with an RM"
        } else {
            ", on its own node"
        }
    );
    if let Some(m) = run.last.monitors().commit.as_ref() {
        for (i, (node, us)) in m.uncertain_at(run.end).into_iter().enumerate() {
            let r = m.records[i];
            let state = match (r.vote, r.outcome) {
                (_, Some((o, at))) => format!("{} at {}", o.as_str(), h(at.0)),
                (Some((crate::protocol::commit::RmVote::Aborted, at)), None) => {
                    format!("voted aborted at {}", h(at.0))
                }
                (Some(_), None) => "STILL UNCERTAIN (blocked)".into(),
                (None, None) => "never voted".into(),
            };
            let _ = writeln!(
                out,
                "  {:10} {state}; uncertain {}",
                run.names[node.index()],
                h(us)
            );
        }
    }
    let c = measure(&run.trace, shape.rms);
    let _ = writeln!(
        out,
        "this run   {} messages, {} message delays, {} stable-storage writes (+{} RM outcome records)",
        c.messages,
        c.delays.map_or("—".into(), |d| d.to_string()),
        c.writes,
        c.outcome_writes
    );
    // The F of this run, or F = 1 beside two-phase commit (which has none).
    let f = if shape.algorithm == Algorithm::PaxosCommit {
        shape.f
    } else {
        1
    };
    let _ = writeln!(
        out,
        "normal case, measured from calm runs with N = {}, F = {f} (paper: Gray & Lamport 2006):",
        shape.rms
    );
    print_table(&table(shape.rms, f), out);
}

/// The comparison as text.
pub fn print_table(rows: &[Row], out: &mut dyn std::io::Write) {
    let _ = writeln!(
        out,
        "  {:38} {:>18} {:>16} {:>15}",
        "protocol (placement)", "messages", "delays", "writes"
    );
    for r in rows {
        let s = r.shape;
        let label = match (s.algorithm, s.faster) {
            (Algorithm::TwoPhaseCommit, _) => format!("2PC ({})", s.placement.as_str()),
            (Algorithm::PaxosCommit, false) => {
                format!("Paxos Commit F={} ({})", s.f, s.placement.as_str())
            }
            (Algorithm::PaxosCommit, true) => {
                format!("Faster Paxos Commit F={} ({})", s.f, s.placement.as_str())
            }
        };
        let m = r.measured;
        let d = m.delays.map_or("—".into(), |d| d.to_string());
        match &r.paper {
            Some(p) => {
                let _ = writeln!(
                    out,
                    "  {label:38} {:>3} = {:>14} {:>3} (paper {}{}) {:>3} = {:>8}  {}",
                    m.messages,
                    format!("{} {}", p.messages.0, p.messages.1),
                    d,
                    p.delays,
                    if s.placement == Placement::Colocated {
                        "−1"
                    } else {
                        "  "
                    },
                    m.writes,
                    format!("{} {}", p.writes.0, p.writes.1),
                    if r.matches() { "✓" } else { "DIFFERS" }
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "  {label:38} {:>3}  (no formula)     {d:>3}                {:>3}",
                    m.messages, m.writes
                );
            }
        }
    }
    let _ = writeln!(out, "  (−1: the paper counts the RM's request to commit; on the TM's own node it is no message)");
}
