//! Live runs: real worker threads, the wall clock, a real stall — against a
//! real PostgreSQL (`pg --live`) or a real etcd (`etcd`). The run is recorded
//! as a trace v1 in the lease lab's vocabulary (grants, renewals, writes
//! accepted or refused with the clause that refused them, the pause), which
//! the page opens as recorded events: wall-clock runs cannot be replayed.
//!
//! Each worker is the lab's sound loop: renew every TTL/3, believe until
//! `sent + TTL·(1−ρ)/(1+ρ) − margin`, take an order while believing, process
//! it, write it stamped with the epoch — without looking at the lease again.
//! W1 stalls once, between taking an order and writing it, for longer than
//! the TTL: Kleppmann's pause, on a real database. W2 takes over when the
//! server lets the lease go; W1 wakes and writes with its old epoch.
//!
//! The recorder takes one lock around each exchange with the server, so the
//! trace has one order — the server's; the stall itself happens outside it.

use super::{parse_flags, write_file, Flags, Out, Usage};
use crate::check::lease_monitor::{LeaseMonitor, LeaseTruth};
use crate::check::Finding;
use crate::protocol::lease::sql::{Statement, LEASE_NAME, SCHEMA};
use crate::protocol::lease::{Design, LeaseMsg, LeaseNote, LeaseRow, LeaseShared, View};
use crate::protocol::llm::LlmPreset;
use crate::protocol::storage::{judge, Fencing, Refusal, Row};
use crate::protocol::{Msg, Note};
use crate::scenario::lease_spec::{lab, LeaseSpec};
use crate::scenario::{Scenario, Scheduled};
use crate::sim::fault::Fault;
use crate::sim::{MsgId, NodeId, SimTime};
use crate::trace::{EventKind, TraceEvent};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An error on one line (driver errors may span several).
pub fn one_line(e: &dyn std::fmt::Display) -> String {
    e.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The settings of a live run.
#[derive(Clone, Debug)]
pub struct LiveSpec {
    pub workers: usize,
    pub ttl_us: u64,
    pub stall_us: u64,
    pub run_us: u64,
    pub fencing: Fencing,
}

impl LiveSpec {
    pub fn from_flags(f: &Flags, ttl_default_ms: u64) -> Result<LiveSpec, Usage> {
        let ms = |name: &str, default: u64, lo: u64, hi: u64| -> Result<u64, Usage> {
            let v = f.u64(name, "a number of milliseconds")?.unwrap_or(default);
            if v < lo || v > hi {
                return Err(Usage(format!(
                    "--{name} {v} is out of range: use {lo} to {hi} ms"
                )));
            }
            Ok(v * 1_000)
        };
        let ttl_us = ms("ttl-ms", ttl_default_ms, 300, 30_000)?;
        let stall_us = ms("stall-ms", ttl_us / 1_000 * 3, 1, 120_000)?;
        let run_us = ms(
            "run-ms",
            (ttl_us + stall_us) / 1_000 + 4 * ttl_us / 1_000,
            500,
            300_000,
        )?;
        let workers = f.u64("workers", "the count of workers")?.unwrap_or(2);
        if !(1..=5).contains(&workers) {
            return Err(Usage(format!("--workers {workers}: use 1 to 5")));
        }
        let fencing = match f.get("fencing") {
            None => Fencing::Article,
            Some(x) => Fencing::parse(x)
                .ok_or_else(|| Usage(format!("bad --fencing {x:?}: say article, token or off")))?,
        };
        if stall_us <= ttl_us {
            return Err(Usage(format!(
                "--stall-ms must exceed the TTL ({} ms): the stall has to outlast the lease",
                ttl_us / 1_000
            )));
        }
        Ok(LiveSpec {
            workers: workers as usize,
            ttl_us,
            stall_us,
            run_us,
            fencing,
        })
    }
    /// The scenario the trace carries: the lab's nodes and settings.
    pub fn scenario(&self, name: &str, stall_at_us: u64) -> Scenario {
        let mut spec = LeaseSpec::new(self.ttl_us, Design::NoLlm, LlmPreset::FastApi);
        spec.fencing = self.fencing;
        spec.keys = 1;
        spec.work_every_us = WORK_EVERY_US;
        spec.work_takes_us = WORK_TAKES_US;
        let mut s = lab(name, self.workers, spec);
        s.nodes.retain(|n| n.id != "llm");
        s.network.links.clear();
        s.stop_at_us = self.run_us;
        s.faults = vec![Scheduled {
            at_us: stall_at_us,
            fault: Fault::Pause {
                node: "W1".into(),
                for_us: self.stall_us,
            }
            .into(),
        }];
        s
    }
    fn renew_us(&self) -> u64 {
        self.ttl_us / 3
    }
    fn budget_us(&self) -> u64 {
        LeaseShared::budget_for(self.ttl_us, 1_000, self.ttl_us / 20).0
    }
}

const WORK_EVERY_US: u64 = 200_000;
const WORK_TAKES_US: u64 = 50_000;

/// A lease row as a server reports it: holder, epoch, expiry (µs since the run began).
pub type ServerRow = (String, u64, u64);

/// What an acquire/renew returned, and the row as the server has it after.
pub struct Acquired {
    pub epoch: Option<u64>,
    /// The row after the statement.
    pub row: Option<ServerRow>,
    pub now_us: u64,
}

/// What a write did.
pub struct Written {
    pub ok: bool,
    /// The row's fence before the write and the lease as the server had it.
    pub fence_before: u64,
    pub lease: Option<ServerRow>,
    pub now_us: u64,
    /// The server's own reason, when it says more than "no row".
    pub reason: Option<Refusal>,
}

/// A lease server: PostgreSQL's statements or etcd's transactions. Times are
/// microseconds since the run began, on the server's clock where it has one.
pub trait Backend: Send {
    /// The server's clock reading at which the run begins, if it has one
    /// the worker reads (PostgreSQL's `now()`); times are measured from it.
    fn set_origin(&mut self, _t0: &str) {}
    fn acquire(&mut self, me: &str, ttl_us: u64) -> Result<Acquired, String>;
    fn write(
        &mut self,
        me: &str,
        epoch: u64,
        key: u16,
        fencing: Fencing,
    ) -> Result<Written, String>;
}

/// The run's events, in the order the servers saw them.
pub struct Recorder {
    start: Instant,
    events: Vec<(u64, NodeId, EventKind)>,
    next_msg: u64,
    names: Vec<String>,
    store: NodeId,
    orders: NodeId,
    /// The lease row as the store's notes tell it.
    row: Option<(NodeId, u64, u64)>,
}

impl Recorder {
    pub fn new(names: Vec<String>, start: Instant) -> Self {
        let at = |n: &str| {
            NodeId(
                names
                    .iter()
                    .position(|x| x == n)
                    .expect("the lab has this node") as u8,
            )
        };
        let (store, orders) = (at("store"), at("orders"));
        Recorder {
            start,
            events: Vec::new(),
            next_msg: 0,
            names,
            store,
            orders,
            row: None,
        }
    }
    fn now(&self) -> u64 {
        self.start.elapsed().as_micros() as u64
    }
    fn node(&self, name: &str) -> NodeId {
        NodeId(self.names.iter().position(|x| x == name).unwrap_or(0) as u8)
    }
    fn push(&mut self, t: u64, node: NodeId, kind: EventKind) {
        // The lock orders the events; the clock only labels them.
        let t = self.events.last().map_or(t, |(last, _, _)| t.max(*last));
        self.events.push((t, node, kind));
    }
    fn note(&mut self, node: NodeId, n: LeaseNote) {
        let t = self.now();
        self.push(t, node, EventKind::Note(Note::Lease(n)));
    }
    /// A message from `from` to `to`, sent and delivered now (one exchange).
    fn hop(&mut self, from: NodeId, to: NodeId, msg: LeaseMsg) {
        let (t, id) = (self.now(), MsgId(self.next_msg));
        self.next_msg += 1;
        self.push(
            t,
            from,
            EventKind::Send {
                id,
                to,
                msg: Msg::Lease(msg),
            },
        );
        self.push(
            t,
            to,
            EventKind::Deliver {
                id,
                from,
                msg: Msg::Lease(msg),
            },
        );
    }

    /// The store's note for an acquire's outcome.
    fn store_note(&mut self, me: NodeId, a: &Acquired, ttl_us: u64) {
        let row = a.row.as_ref().map(|(h, e, x)| (self.node(h), *e, *x));
        let note = match (a.epoch, row) {
            (Some(epoch), Some((holder, _, expires))) => match self.row {
                Some((h, e, x)) if h == holder && e == epoch && x > a.now_us => {
                    LeaseNote::Renewed {
                        holder,
                        epoch,
                        expires_at_us: expires,
                        store_now_us: a.now_us,
                        version: None,
                    }
                }
                prev => LeaseNote::Granted {
                    holder,
                    epoch,
                    expires_at_us: expires,
                    previous: prev,
                    store_now_us: a.now_us,
                    version: None,
                },
            },
            (Some(epoch), None) => LeaseNote::Granted {
                holder: me,
                epoch,
                expires_at_us: a.now_us + ttl_us,
                previous: self.row,
                store_now_us: a.now_us,
                version: None,
            },
            (None, r) => {
                let (holder, epoch) = r.map(|(h, e, _)| (h, e)).unwrap_or((me, 0));
                LeaseNote::Refused {
                    asker: me,
                    holder,
                    epoch,
                    store_now_us: a.now_us,
                }
            }
        };
        if a.epoch.is_some() {
            self.row = row.or(Some((me, a.epoch.unwrap_or(0), a.now_us + ttl_us)));
        }
        let store = self.store;
        self.note(store, note);
    }
}

/// One worker's loop, until the run ends.
fn worker(
    me: NodeId,
    name: String,
    spec: LiveSpec,
    stall: bool,
    mut db: Box<dyn Backend>,
    rec: Arc<Mutex<Recorder>>,
    errors: Arc<Mutex<Vec<String>>>,
) {
    let start = rec.lock().expect("recorder").start;
    let now = || start.elapsed().as_micros() as u64;
    let (mut holding, mut epoch, mut deadline) = (false, 0u64, 0u64);
    let mut next_cas = me.index() as u64 * 100_000;
    let mut next_work = u64::MAX;
    let mut stalled = !stall;
    let fail = |e: String| errors.lock().expect("errors").push(format!("{name}: {e}"));
    loop {
        let t = now();
        if t >= spec.run_us {
            break;
        }
        if holding && t >= deadline {
            let mut r = rec.lock().expect("recorder");
            r.note(
                me,
                LeaseNote::Expired {
                    holder: me,
                    epoch,
                    view: View::Worker,
                },
            );
            r.note(
                me,
                LeaseNote::Belief {
                    holding: false,
                    epoch,
                },
            );
            holding = false;
        }
        if t >= next_cas {
            let sent = now();
            next_cas = sent + spec.renew_us();
            let mut r = rec.lock().expect("recorder");
            let store = r.store;
            r.hop(
                me,
                store,
                LeaseMsg::Acquire {
                    req: 0,
                    ttl_us: spec.ttl_us,
                },
            );
            let a = match db.acquire(&name, spec.ttl_us) {
                Ok(a) => a,
                Err(e) => return fail(e),
            };
            r.store_note(me, &a, spec.ttl_us);
            r.hop(
                store,
                me,
                LeaseMsg::AcquireReply {
                    req: 0,
                    epoch: a.epoch,
                },
            );
            let got = now();
            match a.epoch {
                Some(e) if sent + spec.budget_us() > got => {
                    if holding && e != epoch {
                        r.note(
                            me,
                            LeaseNote::Expired {
                                holder: me,
                                epoch,
                                view: View::Worker,
                            },
                        );
                        r.note(
                            me,
                            LeaseNote::Belief {
                                holding: false,
                                epoch,
                            },
                        );
                        holding = false;
                    }
                    epoch = e;
                    deadline = deadline.max(sent + spec.budget_us());
                    if !holding {
                        holding = true;
                        deadline = sent + spec.budget_us();
                        r.note(
                            me,
                            LeaseNote::Belief {
                                holding: true,
                                epoch,
                            },
                        );
                        next_work = got;
                    }
                }
                Some(_) => {}
                None => {
                    if holding {
                        r.note(
                            me,
                            LeaseNote::Expired {
                                holder: me,
                                epoch,
                                view: View::Worker,
                            },
                        );
                        r.note(
                            me,
                            LeaseNote::Belief {
                                holding: false,
                                epoch,
                            },
                        );
                        holding = false;
                    }
                }
            }
        }
        if holding && now() >= next_work && now() < deadline {
            // Take an order while the lease is believed; process it; write it
            // with the epoch it was taken under — without looking again.
            // One order row: every worker writes the same `orders` row, as in Kleppmann's story.
            let (key, stamp) = (0u16, epoch);
            next_work = now() + WORK_EVERY_US;
            std::thread::sleep(Duration::from_micros(WORK_TAKES_US));
            if !stalled && now() >= 1_500_000.min(spec.run_us / 4) {
                stalled = true;
                rec.lock().expect("recorder").push_fault(
                    me,
                    Fault::Pause {
                        node: me,
                        for_us: spec.stall_us,
                    },
                );
                std::thread::sleep(Duration::from_micros(spec.stall_us));
                let mut r = rec.lock().expect("recorder");
                let t = r.now();
                r.push(t, me, EventKind::Resume);
            }
            let mut r = rec.lock().expect("recorder");
            r.note(me, LeaseNote::WriteSent { key, epoch: stamp });
            let orders = r.orders;
            r.hop(
                me,
                orders,
                LeaseMsg::Write {
                    req: 0,
                    key,
                    epoch: stamp,
                },
            );
            let w = match db.write(&name, stamp, key, spec.fencing) {
                Ok(w) => w,
                Err(e) => return fail(e),
            };
            let lease = w.lease.as_ref().map(|(h, e, x)| LeaseRow {
                holder: r.node(h),
                epoch: *e,
                expires_at: SimTime(*x),
            });
            let note = if w.ok {
                LeaseNote::WriteAccepted {
                    writer: me,
                    epoch: stamp,
                    key,
                    previous: w.fence_before,
                    db_now_us: w.now_us,
                }
            } else {
                let row = Row {
                    fence_epoch: w.fence_before,
                    ..Row::default()
                };
                let reason = w
                    .reason
                    .or_else(|| {
                        judge(
                            spec.fencing,
                            &row,
                            lease.as_ref(),
                            me,
                            stamp,
                            SimTime(w.now_us),
                        )
                        .err()
                    })
                    .unwrap_or(Refusal::RowFenced);
                LeaseNote::WriteRejected {
                    writer: me,
                    epoch: stamp,
                    key,
                    row: w.fence_before,
                    reason,
                    lease,
                    db_now_us: w.now_us,
                }
            };
            r.note(orders, note);
            r.hop(
                orders,
                me,
                LeaseMsg::WriteReply {
                    req: 0,
                    key,
                    epoch: stamp,
                    ok: w.ok,
                },
            );
        }
        let wake = next_cas.min(if holding {
            next_work.min(deadline)
        } else {
            u64::MAX
        });
        let t = now();
        std::thread::sleep(Duration::from_micros(
            wake.saturating_sub(t).clamp(1_000, 20_000),
        ));
    }
}

impl Recorder {
    fn push_fault(&mut self, node: NodeId, f: Fault<NodeId>) {
        let t = self.now();
        self.push(t, node, EventKind::Fault { fault: f });
    }

    /// The events as a trace: the store's expiries (the server let a row go
    /// that nobody renewed), split-brain windows from the workers' beliefs,
    /// and what the lab's monitor finds, in time order.
    fn finish(mut self, fencing: Fencing, end_us: u64) -> Vec<TraceEvent> {
        let store = self.store;
        // Expiries: each grant or renewal not followed in time by another of the same lease.
        let versions: Vec<(u64, NodeId, u64, u64)> = self
            .events
            .iter()
            .filter_map(|(t, _, k)| match k {
                EventKind::Note(Note::Lease(
                    LeaseNote::Granted {
                        holder,
                        epoch,
                        expires_at_us,
                        ..
                    }
                    | LeaseNote::Renewed {
                        holder,
                        epoch,
                        expires_at_us,
                        ..
                    },
                )) => Some((*t, *holder, *epoch, *expires_at_us)),
                _ => None,
            })
            .collect();
        for (i, &(_, holder, epoch, expires)) in versions.iter().enumerate() {
            let renewed_in_time = versions
                .get(i + 1)
                .is_some_and(|&(t, h, e, _)| t < expires && h == holder && e == epoch);
            if !renewed_in_time && expires < end_us {
                self.events.push((
                    expires,
                    store,
                    EventKind::Note(Note::Lease(LeaseNote::Expired {
                        holder,
                        epoch,
                        view: View::Store,
                    })),
                ));
            }
        }
        self.events.sort_by_key(|(t, _, _)| *t);
        let names = Arc::new(self.names.clone());
        let mut monitor = LeaseMonitor::new(names, 1, fencing);
        let mut believers = 0u64;
        let mut split_since = None;
        let mut out: Vec<(u64, NodeId, EventKind)> = Vec::new();
        for (t, node, kind) in self.events {
            let mut found = Vec::new();
            if let EventKind::Note(Note::Lease(n)) = &kind {
                monitor.on_note(SimTime(t), node, n, &mut found);
                if let LeaseNote::Belief { holding, .. } = n {
                    let bit = 1u64 << node.index();
                    let before = believers;
                    believers = if *holding {
                        believers | bit
                    } else {
                        believers & !bit
                    };
                    if before.count_ones() < 2 && believers.count_ones() >= 2 {
                        split_since = Some(t);
                        found.push(Finding::Note(
                            LeaseNote::SplitBrainStart { believers }.into(),
                        ));
                    } else if before.count_ones() >= 2 && believers.count_ones() < 2 {
                        let lasted_us = t - split_since.take().unwrap_or(t);
                        found.push(Finding::Note(LeaseNote::SplitBrainEnd { lasted_us }.into()));
                    }
                }
            }
            out.push((t, node, kind));
            let mut reported: Vec<crate::check::Invariant> = Vec::new();
            for f in found {
                match f {
                    Finding::Violation(inv, detail) if !reported.contains(&inv) => {
                        reported.push(inv);
                        out.push((
                            t,
                            node,
                            EventKind::Violation {
                                invariant: inv,
                                detail,
                            },
                        ));
                    }
                    Finding::Violation(..) => {}
                    Finding::Note(n) => out.push((t, node, EventKind::Note(n))),
                }
            }
        }
        out.into_iter()
            .enumerate()
            .map(|(seq, (t, node, kind))| TraceEvent {
                seq: seq as u64,
                t: SimTime(t),
                node,
                kind,
            })
            .collect()
    }
}

/// A finished live run: its scenario, names, trace, and the errors the
/// workers met (a server that failed mid-run).
pub struct LiveRun {
    pub scenario: Scenario,
    pub names: Vec<String>,
    pub trace: Vec<TraceEvent>,
    pub errors: Vec<String>,
}

/// Run the workers against a server; return the trace and its scenario.
pub fn run(
    spec: &LiveSpec,
    name: &str,
    connect: &dyn Fn() -> Result<Box<dyn Backend>, Usage>,
    origin: &mut dyn FnMut() -> Result<String, Usage>,
) -> Result<LiveRun, Usage> {
    let scenario = spec.scenario(name, 1_500_000.min(spec.run_us / 4));
    let names = scenario.node_names();
    let mut backends = Vec::new();
    for _ in 0..spec.workers {
        backends.push(connect()?);
    }
    // The server's clock and ours start together, after the connections are made.
    let t0 = origin()?;
    let start = Instant::now();
    for b in &mut backends {
        b.set_origin(&t0);
    }
    let rec = Arc::new(Mutex::new(Recorder::new(names.clone(), start)));
    let errors = Arc::new(Mutex::new(Vec::new()));
    let threads: Vec<_> = backends
        .into_iter()
        .enumerate()
        .map(|(i, db)| {
            let (rec, errors, spec) = (rec.clone(), errors.clone(), spec.clone());
            let name = names[i].clone();
            std::thread::spawn(move || worker(NodeId(i as u8), name, spec, i == 0, db, rec, errors))
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
    let rec = Arc::try_unwrap(rec)
        .ok()
        .expect("the workers are done")
        .into_inner()
        .expect("recorder");
    let trace = rec.finish(spec.fencing, spec.run_us);
    let errors = errors.lock().expect("errors").clone();
    Ok(LiveRun {
        scenario,
        names,
        trace,
        errors,
    })
}

/// Print what happened to the writes after the stall, write the trace.
pub fn report(
    out: Out,
    f: &Flags,
    recorded_on: &str,
    spec: &LiveSpec,
    run: &LiveRun,
) -> Result<i32, Usage> {
    let (scenario, names, trace, errors) = (
        &run.scenario,
        &run.names[..],
        &run.trace[..],
        &run.errors[..],
    );
    if let Some(e) = errors.first() {
        return Err(Usage(format!("the server failed during the run: {e}")));
    }
    let sp = crate::i18n::Lang::En.tell();
    let _ = writeln!(
        out,
        "live       {recorded_on}: wall-clock time, {} worker threads, W1 stalls {} with a TTL of {}",
        spec.workers,
        sp.duration(spec.stall_us),
        sp.duration(spec.ttl_us)
    );
    let mut truth = LeaseTruth::default();
    let (mut resumed, mut grants, mut accepted, mut refused, mut dead) = (None, 0, 0, 0, 0);
    for e in trace {
        match &e.kind {
            EventKind::Resume => resumed = Some(e.t),
            EventKind::Note(Note::Lease(n)) => {
                if let LeaseNote::WriteAccepted {
                    writer,
                    epoch,
                    db_now_us,
                    ..
                } = *n
                {
                    accepted += 1;
                    if !truth.live(writer, epoch, db_now_us) {
                        dead += 1;
                        let _ = writeln!(out, "LANDED     {}'s write with epoch {epoch} at {}: its lease was not live", names[writer.index()], sp.duration(e.t.0));
                    }
                }
                if let Some(r) = crate::i18n::Refused::of(n) {
                    refused += 1;
                    if resumed.is_some() {
                        let _ = writeln!(
                            out,
                            "refused    {}'s write with epoch {} at {}: {}",
                            names[r.writer.index()],
                            r.epoch,
                            sp.duration(e.t.0),
                            sp.refusal(names, &r)
                        );
                    }
                }
                if matches!(n, LeaseNote::Granted { .. }) {
                    grants += 1;
                }
                truth.on_note(n);
            }
            EventKind::Violation { invariant, detail } => {
                let _ = writeln!(
                    out,
                    "VIOLATION  {invariant} at {}: {detail}",
                    sp.duration(e.t.0)
                );
            }
            _ => {}
        }
    }
    let fencing = scenario
        .lease
        .as_ref()
        .map(|l| l.fencing)
        .unwrap_or_default();
    let _ = writeln!(out, "fence      {fencing}; {grants} grants, {accepted} writes accepted, {refused} refused, {dead} on a lease not live");
    if resumed.is_none() {
        return Err(Usage(
            "the stalled worker never woke before the run ended; give a longer --run-ms".into(),
        ));
    }
    if let Some(path) = f.get("out") {
        write_file(
            path,
            &crate::trace::json::export_recorded(scenario, names, trace, recorded_on),
        )?;
        let _ = writeln!(out, "wrote      {path}");
    }
    Ok(0)
}

/// PostgreSQL, live: the statements verbatim, `now()` the server's own.
struct PgLive {
    db: postgres::Client,
    /// The server's clock at the run's start (µs since 2000-01-01, PostgreSQL's epoch).
    t0: String,
}

impl PgLive {
    /// A timestamp as microseconds since the run began.
    fn us(expr: &str, t0: &str) -> String {
        format!("(extract(epoch FROM ({expr} - timestamptz '{t0}')) * 1000000)::bigint")
    }
    /// The lease row (if any) and the server's clock, both read now.
    fn lease_row(&mut self) -> Result<(Option<ServerRow>, u64), String> {
        let q = format!(
            "SELECT holder_id, epoch, {}, {} FROM (SELECT 1) one LEFT JOIN worker_leases ON lease_name = '{LEASE_NAME}'",
            Self::us("expires_at", &self.t0),
            Self::us("now()", &self.t0)
        );
        let rows = self
            .db
            .query(&q, &[])
            .map_err(|e| super::pg::pg_error(&e))?;
        let r = rows.first().ok_or("no row")?;
        let now: i64 = r.get(3);
        let row = match (
            r.get::<_, Option<String>>(0),
            r.get::<_, Option<i64>>(1),
            r.get::<_, Option<i64>>(2),
        ) {
            (Some(h), Some(e), Some(x)) => Some((h, e as u64, x.max(0) as u64)),
            _ => None,
        };
        Ok((row, now.max(0) as u64))
    }
}

impl Backend for PgLive {
    fn set_origin(&mut self, t0: &str) {
        self.t0 = t0.to_string();
    }
    fn acquire(&mut self, me: &str, ttl_us: u64) -> Result<Acquired, String> {
        let exec = crate::protocol::lease::sql::execute(
            Statement::Acquire {
                bump_on_renew: false,
            },
            &[
                crate::protocol::lease::sql::Param::Text(LEASE_NAME.into()),
                crate::protocol::lease::sql::Param::Text(me.into()),
                crate::protocol::lease::sql::Param::Secs(ttl_us),
            ],
        );
        let msgs = self
            .db
            .simple_query(&exec)
            .map_err(|e| super::pg::pg_error(&e))?;
        let epoch = super::pg::first_value(&msgs).and_then(|v| v.parse::<u64>().ok());
        let (row, now_us) = self.lease_row()?;
        Ok(Acquired { epoch, row, now_us })
    }
    fn write(
        &mut self,
        me: &str,
        epoch: u64,
        key: u16,
        fencing: Fencing,
    ) -> Result<Written, String> {
        let fence: i64 = self
            .db
            .query_one(
                "SELECT fence_epoch FROM orders WHERE id = $1",
                &[&(key as i32 + 1)],
            )
            .map_err(|e| super::pg::pg_error(&e))?
            .get(0);
        let (lease, now_us) = self.lease_row()?;
        let names = [me.to_string()];
        let exec = crate::protocol::lease::sql::execute(
            Statement::Write(fencing),
            &crate::viz::sql::write_params(&names, NodeId(0), epoch, key),
        );
        let msgs = self
            .db
            .simple_query(&exec)
            .map_err(|e| super::pg::pg_error(&e))?;
        let ok = super::pg::first_value(&msgs).is_some();
        Ok(Written {
            ok,
            fence_before: fence.max(0) as u64,
            lease,
            now_us,
            reason: None,
        })
    }
}

pub fn cmd_pg_live(f: &Flags, url: &str, out: Out) -> Result<i32, Usage> {
    let spec = LiveSpec::from_flags(f, 1_000)?;
    let (mut admin, version) = super::pg::fresh_database(url, "paxos_island_live")?;
    let setup = format!("{SCHEMA}\n{}\n", crate::protocol::lease::sql::seed(1, 0));
    admin.batch_execute(&setup).map_err(|e| {
        Usage(format!(
            "PostgreSQL refused the tables: {}",
            super::pg::pg_error(&e)
        ))
    })?;
    let config: postgres::Config = url
        .parse()
        .map_err(|e| Usage(format!("bad --url {url:?}: {e}")))?;
    let connect = || -> Result<Box<dyn Backend>, Usage> {
        let mut c = config.clone();
        c.dbname("paxos_island_live");
        let mut db = c.connect(postgres::NoTls).map_err(|e| {
            Usage(format!(
                "cannot reach PostgreSQL at {url:?}: {}",
                super::pg::pg_error(&e)
            ))
        })?;
        let prep = format!(
            "{};\n{};",
            Statement::Acquire {
                bump_on_renew: false
            }
            .prepare(),
            Statement::Write(spec.fencing).prepare()
        );
        db.batch_execute(&prep).map_err(|e| {
            Usage(format!(
                "PostgreSQL refused the statements: {}",
                super::pg::pg_error(&e)
            ))
        })?;
        Ok(Box::new(PgLive {
            db,
            t0: String::new(),
        }))
    };
    // clock_timestamp(): now() would be the start of this session's transaction.
    let mut origin = || -> Result<String, Usage> {
        admin
            .query_one("SELECT clock_timestamp()::text", &[])
            .map(|r| r.get(0))
            .map_err(|e| Usage(super::pg::pg_error(&e)))
    };
    let done = run(&spec, "pg-live", &connect, &mut origin)?;
    report(out, f, &format!("PostgreSQL {version}"), &spec, &done)
}

/// Accept the flags of a live command (shared by `pg --live` and `etcd`).
pub fn flags(args: &[String]) -> Result<Flags, Usage> {
    parse_flags(
        args,
        &[
            "url", "out", "fencing", "workers", "ttl-ms", "stall-ms", "run-ms",
        ],
        &["live"],
    )
}
