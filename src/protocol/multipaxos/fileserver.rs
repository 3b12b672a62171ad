//! A file server guarded by Chubby sequencers (Burrows, OSDI 2006, §2.4).
//!
//! A lock holder sends its writes with the sequencer of its lock — (lock,
//! generation). The server checks it twice:
//!
//! 1. against the highest generation it has seen for that lock: an older one
//!    is refused at once (**stale**) — the fencing token's usual check;
//! 2. against the cell, *live*: it asks (CheckSequencer) whether the
//!    generation is still the lock's current grant, and refuses it if not
//!    (**not current**). The first check alone would let a paused holder's
//!    write in whenever the new holder has not written yet; the second
//!    catches it the moment the cell has freed the lock.
//!
//! Writes are checked one at a time, in the order they came.

use super::{Client, MpMsg, MpNode, MpNote, Op, Outcome};
use crate::protocol::value::Value;
use crate::sim::{Ctx, Hosts, NodeId};
use crate::sorted::VecMap;
use std::collections::VecDeque;

/// The file server's answer to a write.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Accepted,
    /// Below the highest generation seen for the lock.
    Stale {
        highest: u32,
    },
    /// The cell says the generation is no longer the lock's current grant.
    NotCurrent,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::Stale { .. } => "stale",
            Verdict::NotCurrent => "not_current",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileServer {
    /// Its own line to the cell, for CheckSequencer.
    pub cell: Client,
    /// The file's contents, and the generation that wrote them.
    pub value: Option<(Value, u32)>,
    /// The highest generation seen per lock.
    pub highest: VecMap<u8, u32>,
    /// Writes waiting for the cell's answer: (writer, lock, generation, value).
    pub pending: VecDeque<(NodeId, u8, u32, Value)>,
    /// The check asked of the cell for the first pending write.
    pub checking: bool,
}

impl FileServer {
    pub fn new(cell: Client) -> Self {
        FileServer {
            cell,
            value: None,
            highest: VecMap::new(),
            pending: VecDeque::new(),
            checking: false,
        }
    }

    pub fn on_start<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        self.cell.on_start(ctx);
    }

    pub fn on_message<H: Hosts<MpNode>>(
        &mut self,
        from: NodeId,
        msg: MpMsg,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        match msg {
            MpMsg::Write {
                lock,
                generation,
                value,
            } => {
                let highest = self.highest.get(&lock).copied().unwrap_or(0);
                if generation < highest {
                    self.answer(from, lock, generation, Verdict::Stale { highest }, ctx);
                    return;
                }
                // A retry of a write already waiting is not queued twice.
                if !self
                    .pending
                    .iter()
                    .any(|p| (p.0, p.1, p.2) == (from, lock, generation))
                {
                    self.pending.push_back((from, lock, generation, value));
                }
                self.check_next(ctx);
            }
            other => {
                if let Some(Outcome::Sequencer { current }) = self.cell.on_message(from, other, ctx)
                {
                    self.checking = false;
                    if let Some((writer, lock, generation, value)) = self.pending.pop_front() {
                        let highest = self.highest.get(&lock).copied().unwrap_or(0);
                        let verdict = if generation < highest {
                            Verdict::Stale { highest }
                        } else if !current {
                            Verdict::NotCurrent
                        } else {
                            self.highest.insert(lock, generation);
                            self.value = Some((value, generation));
                            Verdict::Accepted
                        };
                        self.answer(writer, lock, generation, verdict, ctx);
                    }
                    self.check_next(ctx);
                }
            }
        }
    }

    /// Ask the cell about the first waiting write's sequencer.
    fn check_next<H: Hosts<MpNode>>(&mut self, ctx: &mut Ctx<MpNode, H>) {
        if self.checking {
            return;
        }
        if let Some(&(_, lock, generation, _)) = self.pending.front() {
            self.checking = true;
            self.cell.ask(Op::Check { lock, generation }, ctx);
        }
    }

    fn answer<H: Hosts<MpNode>>(
        &mut self,
        writer: NodeId,
        lock: u8,
        generation: u32,
        verdict: Verdict,
        ctx: &mut Ctx<MpNode, H>,
    ) {
        ctx.note(MpNote::WriteChecked {
            client: writer,
            lock,
            generation,
            verdict,
        });
        ctx.send(
            writer,
            MpMsg::WriteReply {
                lock,
                generation,
                verdict,
            },
        );
    }

    /// The file survives a crash (it is on disk); the writes in the air do not.
    pub fn on_crash(&mut self) {
        self.cell.on_crash();
        self.pending.clear();
        self.checking = false;
    }
}
