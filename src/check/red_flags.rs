//! The article's red flags, computed from a lease scenario and from runs of
//! it — each with the figures behind it, never a bare verdict.
//!
//! 1. The lease module talks to the LLM (it would import an LLM SDK or an
//!    HTTP client): judged from the run's trace — does any *worker* send the
//!    LLM a question? In the sound design none does; the advisor, a process
//!    apart, asks it to explain a lapsed lease.
//! 2. The LLM's p99 latency exceeds TTL/2: renewals cannot land in time.
//! 3. The TTL was stretched to wait for the LLM: failover after a crash and
//!    the time a cut-off holder keeps acting both grow with it. Measured by
//!    crashing the holder in this scenario and in a baseline with the TTL the
//!    loop would need without the LLM.
//! 4. The drill: the same scenario with the LLM down from the start. If the
//!    loop stops working, the LLM was not optional.

use crate::protocol::lease::Design;
use crate::protocol::lease::LeaseCommand;
use crate::protocol::lease::LeaseMsg;
use crate::protocol::Msg;
use crate::scenario::run::Run;
use crate::scenario::Scheduled;
use crate::scenario::{Role, Scenario, ScenarioError};
use crate::sim::fault::Fault;
use crate::sim::SimTime;
use crate::trace::EventKind;

/// The TTL a lease loop needs without an LLM in it (the lab's default).
pub const BASELINE_TTL_US: u64 = 3_000_000;

#[derive(Clone, Debug, PartialEq)]
pub struct RedFlags {
    pub in_loop: bool,
    pub has_llm: bool,
    pub ttl_us: u64,
    /// Flag 1: some worker sent the LLM a question.
    pub depends_on_llm: bool,
    /// Questions sent to the LLM in the run: by the workers, and by anyone
    /// else (the advisor).
    pub worker_llm_calls: u32,
    pub other_llm_calls: u32,
    /// Flag 2: (raised, p99, p50, TTL/2).
    pub p99_over_half_ttl: bool,
    pub llm_p99_us: Option<u64>,
    pub llm_p50_us: Option<u64>,
    /// Flag 3.
    pub ttl_stretched: bool,
    pub baseline_ttl_us: u64,
    /// Failover after the holder crashes, here and in the baseline.
    pub failover_us: Option<u64>,
    pub baseline_failover_us: Option<u64>,
    /// How long a cut-off holder keeps acting on its lease (its budget).
    pub exposure_us: u64,
    pub baseline_exposure_us: u64,
    /// Flag 4: the drill.
    pub drill_fails: bool,
    /// Fraction of the run during which some worker held the lease.
    pub held_fraction: f64,
    pub drill_held_fraction: f64,
    pub writes: u32,
    pub drill_writes: u32,
}

impl RedFlags {
    pub fn raised(&self) -> usize {
        [
            self.depends_on_llm,
            self.p99_over_half_ttl,
            self.ttl_stretched,
            self.drill_fails,
        ]
        .iter()
        .filter(|b| **b)
        .count()
    }
}

fn held_and_writes(s: &Scenario) -> Result<(f64, u32), ScenarioError> {
    let sim = Run::execute(s)?;
    let end = SimTime(s.stop_at_us).max(sim.now());
    let st = sim
        .monitors()
        .lease
        .as_ref()
        .map(|m| m.stats_at(end))
        .unwrap_or_default();
    Ok((st.held_us as f64 / end.0.max(1) as f64, st.writes_accepted))
}

/// Questions sent to the LLM, from the trace: (by workers, by anyone else).
fn llm_questions(s: &Scenario) -> Result<(u32, u32), ScenarioError> {
    let run = Run::record(s)?;
    let workers = s.nodes_with(Role::Worker);
    let (mut by_workers, mut others) = (0, 0);
    for e in &run.trace {
        if let EventKind::Send {
            msg: Msg::Lease(LeaseMsg::Ask { .. }),
            ..
        } = e.kind
        {
            if workers.contains(&e.node) {
                by_workers += 1;
            } else {
                others += 1;
            }
        }
    }
    Ok((by_workers, others))
}

/// Crash the first holder at 5 s, nothing else, and measure the failover.
fn crash_drill(s: &Scenario, ttl_us: u64) -> Result<Option<u64>, ScenarioError> {
    let mut d = s.clone();
    if let Some(l) = d.lease.as_mut() {
        l.ttl_us = ttl_us;
        l.renew_us = Some(ttl_us / 3);
        l.margin_us = None;
    }
    d.faults = vec![Scheduled {
        at_us: 5_000_000,
        fault: Fault::Crash { node: "W1".into() }.into(),
    }];
    d.stop_at_us = d.stop_at_us.max(5_000_000 + 3 * ttl_us);
    let sim = Run::execute(&d)?;
    Ok(sim
        .monitors()
        .lease
        .as_ref()
        .and_then(|m| m.stats.failovers_us.first().copied()))
}

pub fn evaluate(s: &Scenario) -> Result<RedFlags, ScenarioError> {
    let spec = s
        .lease
        .as_ref()
        .ok_or(ScenarioError::MissingSection("lease", "lease"))?;
    s.validate()?;
    let has_llm = spec.design != Design::NoLlm;
    let in_loop = spec.design == Design::InLoop;
    let latency = spec.llm.latency();
    let (p50, p99) = if has_llm {
        (
            Some(latency.percentile_us(0.5)),
            Some(latency.percentile_us(0.99)),
        )
    } else {
        (None, None)
    };
    let half = spec.ttl_us / 2;
    let p99_over = in_loop && p99.is_some_and(|p| p > half);
    // A TTL longer than the baseline, and long enough to cover typical LLM
    // calls, looks sized for the LLM.
    let stretched =
        in_loop && spec.ttl_us > BASELINE_TTL_US && p50.is_some_and(|p| spec.ttl_us >= 2 * p);
    let (failover, baseline_failover) = if stretched {
        (
            crash_drill(s, spec.ttl_us)?,
            crash_drill(s, BASELINE_TTL_US)?,
        )
    } else {
        (None, None)
    };
    let (held, writes) = held_and_writes(s)?;
    let (worker_llm_calls, other_llm_calls) = if has_llm { llm_questions(s)? } else { (0, 0) };
    let (drill_held, drill_writes) = if has_llm {
        let mut d = s.clone();
        d.faults.retain(|f| f.fault.kind() != "llm_outage");
        d.faults.insert(
            0,
            Scheduled {
                at_us: 0,
                fault: LeaseCommand::LlmOutage { down: true }.into(),
            },
        );
        held_and_writes(&d)?
    } else {
        (held, writes)
    };
    let drill_fails =
        has_llm && (drill_held < 0.5 * held || (drill_writes as f64) < 0.5 * writes as f64);
    let budget =
        |ttl: u64| crate::protocol::lease::LeaseShared::budget_for(ttl, spec.rho_ppm, ttl / 20).0;
    Ok(RedFlags {
        in_loop,
        has_llm,
        ttl_us: spec.ttl_us,
        depends_on_llm: worker_llm_calls > 0,
        worker_llm_calls,
        other_llm_calls,
        p99_over_half_ttl: p99_over,
        llm_p99_us: p99,
        llm_p50_us: p50,
        ttl_stretched: stretched,
        baseline_ttl_us: BASELINE_TTL_US,
        failover_us: failover,
        baseline_failover_us: baseline_failover,
        exposure_us: budget(spec.ttl_us),
        baseline_exposure_us: budget(BASELINE_TTL_US),
        drill_fails,
        held_fraction: held,
        drill_held_fraction: drill_held,
        writes,
        drill_writes,
    })
}
