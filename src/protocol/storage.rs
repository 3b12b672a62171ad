//! Fenced storage: the `orders` table.
//!
//! Each row keeps the highest epoch that wrote it (`fence_epoch`), and the
//! table remembers the highest epoch it has ever accepted. With fencing on, a
//! write whose epoch is below what the storage has already processed is
//! refused — Kleppmann: "storage has already processed a write with token 34,
//! so it rejects the request with token 33". An *equal* epoch is accepted: one
//! holder writes many times. The check happens here, at the storage, because
//! a check at the client straddles the pause it is meant to catch.
//!
//! With fencing off, every write is accepted, and the monitors count the
//! damage: rows whose accepted epochs went backwards (a lost update).

use crate::protocol::lease::{LeaseMsg, LeaseMutation, LeaseNode, LeaseNote};
use crate::sim::{Ctx, Hosts, NodeId};

/// Row names as the trace and the page show them.
pub fn key_name(k: u16) -> String {
    format!("order-{}", k + 1)
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Row {
    pub fence_epoch: u64,
    pub last_writer: Option<NodeId>,
    pub writes: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Storage {
    pub rows: Vec<Row>,
    /// The highest epoch any accepted write carried.
    pub high_water: u64,
    pub fencing: bool,
    /// A deliberate bug, if any (`no-fence`).
    pub mutation: Option<LeaseMutation>,
}

impl Storage {
    pub fn new(keys: u16, fencing: bool) -> Self {
        Storage {
            rows: vec![Row::default(); keys.max(1) as usize],
            high_water: 0,
            fencing,
            mutation: None,
        }
    }

    pub fn on_message<H: Hosts<LeaseNode>>(&mut self, from: NodeId, m: LeaseMsg, ctx: &mut Ctx<LeaseNode, H>) {
        let LeaseMsg::Write { req, key, epoch } = m else { return };
        let Some(row) = self.rows.get_mut(key as usize) else { return };
        let fenced = self.fencing && self.mutation != Some(LeaseMutation::NoFence);
        let ok = !fenced || epoch >= self.high_water;
        if ok {
            ctx.note(LeaseNote::WriteAccepted {
                writer: from,
                epoch,
                key,
                previous: row.fence_epoch,
            });
            row.fence_epoch = if fenced { row.fence_epoch.max(epoch) } else { epoch };
            row.last_writer = Some(from);
            row.writes += 1;
            self.high_water = self.high_water.max(epoch);
        } else {
            ctx.note(LeaseNote::WriteRejected {
                writer: from,
                epoch,
                key,
                highest: self.high_water,
                row: row.fence_epoch,
            });
        }
        ctx.send(from, LeaseMsg::WriteReply { req, key, epoch, ok });
    }
}
