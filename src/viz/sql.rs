//! The SQL behind each step of the store and of `orders`: which statement
//! ran, with which parameters, at which instant of the database's clock, and
//! what it returned — as a student would type it into psql. Read from a run's
//! notes (the store's grants, renewals, refusals and releases; `orders`'
//! accepted and refused writes), so recorded runs show it too.
//!
//! `paxos-island pg` runs these very steps on a real PostgreSQL.

use crate::protocol::lease::sql::{self, Param, Statement, LEASE_NAME};
use crate::protocol::lease::{LeaseNote, LeaseRow};
use crate::protocol::storage::{key_name, Fencing, Refusal};
use crate::protocol::Note;
use crate::scenario::Scenario;
use crate::sim::{NodeId, SimTime};
use crate::trace::{EventKind, TraceEvent};

/// Which table a step wrote.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Table {
    WorkerLeases,
    Orders,
}

/// One statement of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct SqlStep {
    /// True time of the step, and the trace event it comes from.
    pub t: SimTime,
    pub seq: u64,
    pub table: Table,
    pub statement: Statement,
    pub params: Vec<Param>,
    /// The database's clock for this statement (`now()`): the store's for
    /// `worker_leases`, the storage's for `orders`.
    pub now_us: u64,
    /// The one value returned (`epoch` or `id`), or no row.
    pub returned: Option<i64>,
    /// For a refused write: why, as `orders` judged it.
    pub refusal: Option<Refusal>,
    /// Who ran it (holder, asker, writer), and for a refusal the lease row
    /// and the row's fence it was judged against.
    pub who: NodeId,
    pub epoch: u64,
    pub row: u64,
    pub lease: Option<LeaseRow>,
}

impl SqlStep {
    /// What psql is given: the clock, then the statement with its parameters.
    pub fn execute(&self) -> String {
        format!(
            "{}\n{}",
            sql::set_now(self.now_us),
            sql::execute(self.statement, &self.params)
        )
    }
    /// All of it, ready to paste into psql: `PREPARE`, the clock, `EXECUTE`
    /// (each statement's text ends with its own semicolon).
    pub fn script(&self) -> String {
        format!("{}\n{}", self.statement.prepare(), self.execute())
    }
    /// What psql prints back.
    pub fn result(&self) -> String {
        sql::psql_result(self.statement.returns(), self.returned)
    }
}

/// The statements a scenario's settings choose.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub bump_on_renew: bool,
    pub fencing: Fencing,
    pub ttl_us: u64,
}

impl Choice {
    pub fn of(s: &Scenario) -> Choice {
        let l = s.lease.clone().unwrap_or_else(|| {
            crate::scenario::LeaseSpec::new(
                3_000_000,
                crate::protocol::lease::Design::NoLlm,
                Default::default(),
            )
        });
        // The `no-fence` mutation leaves the check out: the statement that runs is `off`'s.
        let no_fence = s.mutation
            == Some(crate::protocol::Mutation::Lease(
                crate::protocol::lease::LeaseMutation::NoFence,
            ));
        Choice {
            bump_on_renew: l.bump_epoch_on_renew,
            fencing: if no_fence { Fencing::Off } else { l.fencing },
            ttl_us: l.ttl_us,
        }
    }
}

/// The step of one trace event, if it is a statement.
pub fn step(names: &[String], c: Choice, e: &TraceEvent) -> Option<SqlStep> {
    let EventKind::Note(Note::Lease(n)) = &e.kind else {
        return None;
    };
    let name = |n: NodeId| Param::Text(names.get(n.index()).cloned().unwrap_or_else(|| "?".into()));
    let acquire = Statement::Acquire {
        bump_on_renew: c.bump_on_renew,
    };
    let base = |table, statement, params, now_us, returned, who, epoch| SqlStep {
        t: e.t,
        seq: e.seq,
        table,
        statement,
        params,
        now_us,
        returned,
        refusal: None,
        who,
        epoch,
        row: 0,
        lease: None,
    };
    let lease_params = |who: NodeId| {
        vec![
            Param::Text(LEASE_NAME.into()),
            name(who),
            Param::Secs(c.ttl_us),
        ]
    };
    Some(match *n {
        LeaseNote::Granted {
            holder,
            epoch,
            store_now_us,
            ..
        } => base(
            Table::WorkerLeases,
            acquire,
            lease_params(holder),
            store_now_us,
            Some(epoch as i64),
            holder,
            epoch,
        ),
        LeaseNote::Renewed {
            holder,
            epoch,
            store_now_us,
            ..
        } => base(
            Table::WorkerLeases,
            acquire,
            lease_params(holder),
            store_now_us,
            Some(epoch as i64),
            holder,
            epoch,
        ),
        LeaseNote::Refused {
            asker,
            store_now_us,
            ..
        } => base(
            Table::WorkerLeases,
            acquire,
            lease_params(asker),
            store_now_us,
            None,
            asker,
            0,
        ),
        LeaseNote::Released {
            holder,
            epoch,
            at_us,
            ..
        } => base(
            Table::WorkerLeases,
            Statement::Release,
            vec![
                Param::Text(LEASE_NAME.into()),
                name(holder),
                Param::Int(epoch as i64),
            ],
            at_us,
            Some(epoch as i64),
            holder,
            epoch,
        ),
        LeaseNote::WriteAccepted {
            writer,
            epoch,
            key,
            db_now_us,
            previous,
        } => SqlStep {
            row: previous,
            ..base(
                Table::Orders,
                Statement::Write(c.fencing),
                write_params(names, writer, epoch, key),
                db_now_us,
                Some(key as i64 + 1),
                writer,
                epoch,
            )
        },
        LeaseNote::WriteRejected {
            writer,
            epoch,
            key,
            row,
            reason,
            lease,
            db_now_us,
        } => SqlStep {
            refusal: Some(reason),
            row,
            lease,
            ..base(
                Table::Orders,
                Statement::Write(c.fencing),
                write_params(names, writer, epoch, key),
                db_now_us,
                None,
                writer,
                epoch,
            )
        },
        _ => return None,
    })
}

/// $1 name, $2 holder, $3 epoch, $4 order id, $5 status.
pub fn write_params(names: &[String], writer: NodeId, epoch: u64, key: u16) -> Vec<Param> {
    let who = names
        .get(writer.index())
        .cloned()
        .unwrap_or_else(|| "?".into());
    vec![
        Param::Text(LEASE_NAME.into()),
        Param::Text(who.clone()),
        Param::Int(epoch as i64),
        Param::Int(key as i64 + 1),
        Param::Text(format!("done by {who}")),
    ]
}

/// Every statement of a run, in order.
pub fn steps(scenario: &Scenario, names: &[String], trace: &[TraceEvent]) -> Vec<SqlStep> {
    let c = Choice::of(scenario);
    trace.iter().filter_map(|e| step(names, c, e)).collect()
}

/// The last step on `table` at or before `t`.
pub fn last_at(steps: &[SqlStep], table: Table, t: u64) -> Option<&SqlStep> {
    let upto = steps.partition_point(|s| s.t.0 <= t);
    steps[..upto].iter().rev().find(|s| s.table == table)
}

/// The order's name, for the panel's heading.
pub fn order_name(id: i64) -> String {
    key_name((id.max(1) - 1) as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::builtin;
    use crate::scenario::run::Run;

    #[test]
    fn the_lone_pause_shows_the_fenced_write_that_returned_no_row() {
        let run = Run::record(&builtin::get("lone-pause").unwrap()).unwrap();
        let steps = steps(&run.scenario, &run.names, &run.trace);
        let first = &steps[0];
        assert_eq!(first.table, Table::WorkerLeases);
        assert!(
            first
                .script()
                .contains("EXECUTE acquire('order-processor', 'W1', 3);"),
            "{}",
            first.script()
        );
        assert_eq!(first.result(), " epoch\n-------\n    33\n(1 row)");
        let last = steps.iter().find(|s| s.refusal.is_some()).unwrap();
        assert_eq!(last.refusal, Some(Refusal::LeaseExpired));
        assert_eq!(last_at(&steps, Table::Orders, last.t.0), Some(last));
        assert_eq!(last.result(), " id\n----\n(0 rows)");
        assert!(last.script().starts_with(
            "PREPARE fenced_write(text, text, bigint, int, text) AS\nUPDATE orders o"
        ));
        assert!(
            last.execute()
                .ends_with("EXECUTE fenced_write('order-processor', 'W1', 33, 1, 'done by W1');"),
            "{}",
            last.execute()
        );
    }

    #[test]
    fn every_store_and_orders_step_has_its_statement() {
        let run = Run::record(&builtin::get("llm-in-loop").unwrap()).unwrap();
        let steps = steps(&run.scenario, &run.names, &run.trace);
        let notes = run
            .trace
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    EventKind::Note(Note::Lease(
                        LeaseNote::Granted { .. }
                            | LeaseNote::Renewed { .. }
                            | LeaseNote::Refused { .. }
                            | LeaseNote::Released { .. }
                            | LeaseNote::WriteAccepted { .. }
                            | LeaseNote::WriteRejected { .. }
                    ))
                )
            })
            .count();
        assert_eq!(steps.len(), notes);
        assert!(steps
            .iter()
            .any(|s| s.table == Table::Orders && s.returned.is_some()));
    }
}
