//! The advisor of the "LLM beside the loop" design: a process apart from the
//! lease module, which is where the article puts an LLM — explaining, after
//! the fact, from the records.
//!
//! The lease worker never talks to it and never calls the LLM: the article's
//! first red flag is a lease module that imports an LLM SDK or an HTTP
//! client, and its worker talks only to the database. The database tells the
//! advisor when a lease lapses on its clock (in PostgreSQL a trigger and
//! `NOTIFY`, or a row in an incidents table the advisor reads): the store
//! sends it the row as it stood ([`LeaseMsg::Row`]). The advisor asks the LLM
//! to explain and files the answer as a note — a table nobody waits on. So
//! the trace shows why flag 1 stays quiet: no worker ever sends the LLM a
//! question; only the advisor does.

use super::{LeaseMsg, LeaseNode, LeaseNote};
use crate::protocol::llm::Purpose;
use crate::sim::{Ctx, Hosts, NodeId, SimTime};
use crate::sorted::VecMap;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Advisor {
    /// The LLM service it asks (none: it only keeps the records).
    pub llm: Option<NodeId>,
    /// Questions out: req → local time sent (volatile).
    pub asked: VecMap<u32, SimTime>,
    pub next_req: u32,
}

impl Advisor {
    pub fn new(llm: Option<NodeId>) -> Self {
        Advisor {
            llm,
            asked: VecMap::new(),
            next_req: 0,
        }
    }

    pub fn on_message<H: Hosts<LeaseNode>>(&mut self, m: LeaseMsg, ctx: &mut Ctx<LeaseNode, H>) {
        match m {
            // A lapsed lease, as the database recorded it: ask for an explanation.
            LeaseMsg::Row { .. } => {
                let Some(llm) = self.llm else { return };
                self.next_req = self.next_req.wrapping_add(1);
                let req = self.next_req;
                self.asked.insert(req, ctx.now());
                ctx.note(LeaseNote::LlmRequest {
                    purpose: Purpose::Explain,
                });
                ctx.send(
                    llm,
                    LeaseMsg::Ask {
                        req,
                        purpose: Purpose::Explain,
                    },
                );
            }
            LeaseMsg::Answer { req, outcome } => {
                if let Some(sent) = self.asked.remove(&req) {
                    ctx.note(LeaseNote::LlmResponse {
                        latency_us: ctx.now().since(sent).0,
                        outcome,
                    });
                }
            }
            _ => {}
        }
    }

    pub fn on_crash(&mut self) {
        self.asked.clear();
    }
}
