//! The lease lab's stories, told by the real state machines.

use paxos_island::check::red_flags;
use paxos_island::protocol::lease::Design;
use paxos_island::protocol::llm::LlmPreset;
use paxos_island::scenario::lease_mc::{Grid, Sweep};
use paxos_island::scenario::lease_spec::{lab, LeaseSpec};
use paxos_island::scenario::run::Run;
use paxos_island::scenario::Scheduled;
use paxos_island::scenario::{builtin, Scenario};
use paxos_island::sim::dist::Latency;
use paxos_island::sim::fault::Fault;
use paxos_island::trace::json::events_json;
use serde_json::Value as J;

fn events(s: &Scenario) -> Vec<J> {
    let run = Run::record(s).unwrap();
    events_json(&run.names, &run.trace)
}

fn stats(s: &Scenario) -> paxos_island::check::lease_monitor::LeaseStats {
    let run = Run::record(s).unwrap();
    run.last
        .monitors()
        .lease
        .as_ref()
        .unwrap()
        .stats_at(run.end)
}

/// Find events matching each predicate, in order; panic with the list if not.
fn in_order(ev: &[J], steps: &[(&str, &dyn Fn(&J) -> bool)]) -> Vec<usize> {
    let mut at = 0;
    let mut found = Vec::new();
    for (what, pred) in steps {
        let i = ev[at..]
            .iter()
            .position(|e| pred(e))
            .unwrap_or_else(|| panic!("no {what} after event {at}"));
        found.push(at + i);
        at += i + 1;
    }
    found
}

fn kind(e: &J, k: &str) -> bool {
    e["kind"] == k
}

#[test]
fn kleppmann_33_and_34_exactly() {
    let ev = events(&builtin::get("kleppmann").unwrap());
    in_order(
        &ev,
        &[
            ("W1 granted 33", &|e| {
                kind(e, "lease_granted") && e["holder"] == "W1" && e["epoch"] == 33
            }),
            ("W1 paused", &|e| kind(e, "pause") && e["node"] == "W1"),
            ("the store lets 33 expire", &|e| {
                kind(e, "lease_expired") && e["view"] == "store" && e["epoch"] == 33
            }),
            ("W2 granted 34", &|e| {
                kind(e, "lease_granted") && e["holder"] == "W2" && e["epoch"] == 34
            }),
            ("W2's write with 34 accepted", &|e| {
                kind(e, "write_accepted") && e["writer"] == "W2" && e["epoch"] == 34
            }),
            ("W1 wakes", &|e| kind(e, "resume") && e["node"] == "W1"),
            ("W1's write with 33 rejected by the row's fence", &|e| {
                kind(e, "write_rejected")
                    && e["writer"] == "W1"
                    && e["epoch"] == 33
                    && e["row_epoch"] == 34
                    && e["reason"] == "row_fenced"
            }),
        ],
    );
    // And no write with 33 is ever accepted after 34 was.
    let first34 = ev
        .iter()
        .position(|e| kind(e, "write_accepted") && e["epoch"] == 34)
        .unwrap();
    assert!(!ev[first34..]
        .iter()
        .any(|e| kind(e, "write_accepted") && e["epoch"] == 33));
}

#[test]
fn kleppmann_without_fencing_the_stale_write_damages_the_row() {
    let s = builtin::get("kleppmann-unfenced").unwrap();
    let ev = events(&s);
    assert!(ev.iter().any(|e| kind(e, "write_accepted")
        && e["writer"] == "W1"
        && e["epoch"] == 33
        && e["previous_epoch"] == 34));
    assert!(ev
        .iter()
        .any(|e| kind(e, "violation") && e["invariant"] == "fencing-monotonic"));
    let st = stats(&s);
    assert_eq!((st.stale_accepted, st.lost_updates), (1, 1));
}

/// The teaching review's E1: one worker, paused past its lease, nobody takes
/// over. Its epoch 33 is still the highest anyone has used when it wakes.
#[test]
fn lone_pause_the_article_refuses_the_write_on_an_expired_lease() {
    let s = builtin::get("lone-pause").unwrap();
    assert_eq!(
        s.nodes.iter().filter(|n| n.id.starts_with('W')).count(),
        1,
        "one worker"
    );
    let ev = events(&s);
    in_order(
        &ev,
        &[
            ("W1 granted 33", &|e| {
                kind(e, "lease_granted") && e["holder"] == "W1" && e["epoch"] == 33
            }),
            ("W1 paused", &|e| kind(e, "pause") && e["node"] == "W1"),
            ("the store lets 33 expire", &|e| {
                kind(e, "lease_expired") && e["view"] == "store" && e["epoch"] == 33
            }),
            ("W1 wakes", &|e| kind(e, "resume") && e["node"] == "W1"),
            ("W1's write with 33 refused: lease expired", &|e| {
                kind(e, "write_rejected")
                    && e["writer"] == "W1"
                    && e["epoch"] == 33
                    && e["reason"] == "lease_expired"
                    && e["row_epoch"] == 33
            }),
        ],
    );
    let resumed = ev.iter().position(|e| kind(e, "resume")).unwrap();
    assert!(
        !ev[resumed..]
            .iter()
            .any(|e| kind(e, "write_accepted") && e["epoch"] == 33),
        "no write with the dead epoch lands"
    );
    assert!(!ev.iter().any(|e| kind(e, "violation")));
    let st = stats(&s);
    assert_eq!((st.dead_lease_writes, st.refused_expired), (0, 1), "{st:?}");
}

#[test]
fn lone_pause_the_token_alone_lets_the_write_in_and_it_is_counted() {
    let article = builtin::get("lone-pause").unwrap();
    let token = builtin::get("lone-pause-token").unwrap();
    // Side by side: the very same run but for the fence.
    let mut same = token.clone();
    same.lease.as_mut().unwrap().fencing = article.lease.as_ref().unwrap().fencing;
    same.name = article.name.clone();
    assert_eq!(same, article);
    let ev = events(&token);
    let resumed = ev.iter().position(|e| kind(e, "resume")).unwrap();
    assert!(ev[resumed..]
        .iter()
        .any(|e| kind(e, "write_accepted") && e["writer"] == "W1" && e["epoch"] == 33));
    // Token mode promises nothing about the live lease: no violation, but damage counted.
    assert!(!ev.iter().any(|e| kind(e, "violation")));
    let st = stats(&token);
    assert_eq!(st.dead_lease_writes, 1, "{st:?}");
    assert_eq!(
        st.stale_accepted, 0,
        "epoch 33 is not below any other: Kleppmann's counter does not see it"
    );
}

#[test]
fn the_article_fence_refuses_a_lease_held_by_another_before_the_new_holder_writes() {
    // Kleppmann's story with slow work: W1 wakes after W2's grant but before
    // W2's first write reaches the row, so the row's fence is still below 34.
    let mut s = builtin::get("kleppmann").unwrap();
    s.lease.as_mut().unwrap().work_takes_us = 9_000_000;
    let ev = events(&s);
    let w1 = ev
        .iter()
        .find(|e| kind(e, "write_rejected") && e["writer"] == "W1")
        .expect("W1's stale write is refused");
    assert_eq!(
        (
            w1["reason"].as_str(),
            w1["lease"]["holder"].as_str(),
            w1["lease"]["epoch"].as_u64()
        ),
        (Some("lease_held_by_another"), Some("W2"), Some(34))
    );
    assert!(
        w1["row_epoch"].as_u64().unwrap() < 34,
        "the row's own fence would not have caught it: {w1}"
    );
    // The token alone would have let it land: same run, token fence.
    s.lease.as_mut().unwrap().fencing = paxos_island::protocol::storage::Fencing::Token;
    let ev = events(&s);
    assert!(ev
        .iter()
        .any(|e| kind(e, "write_accepted") && e["writer"] == "W1" && e["epoch"] == 33));
}

#[test]
fn llm_in_the_loop_with_a_stall_longer_than_the_ttl_splits_the_brain() {
    let st = stats(&builtin::get("llm-in-loop").unwrap());
    assert!(
        st.split_brain_windows >= 1 && st.split_brain_us > 3_000_000,
        "{st:?}"
    );
    assert!(st.stale_attempted >= 1);
    assert_eq!(st.stale_accepted, 0, "fencing refuses the stale write");
}

#[test]
fn the_sound_design_under_the_same_stall_has_no_split_brain() {
    let s = builtin::get("llm-beside").unwrap();
    assert_eq!(
        s.faults,
        builtin::get("llm-in-loop").unwrap().faults,
        "the same stall"
    );
    let st = stats(&s);
    assert_eq!(st.split_brain_windows, 0);
    assert_eq!(st.stale_attempted, 0);
    assert!(st.writes_accepted > 30, "the loop kept working: {st:?}");
}

/// Red flag 1, as the article means it: the lease module talks only to the
/// database. In the sound design a lapsed lease is explained by the advisor,
/// told by the store; no worker ever sends the LLM a question.
#[test]
fn beside_the_loop_only_the_advisor_asks_the_llm_and_the_trace_shows_it() {
    let mut s = builtin::get("llm-beside").unwrap();
    s.faults = vec![Scheduled {
        at_us: 6_000_000,
        fault: Fault::Pause {
            node: "W1".into(),
            for_us: 5_000_000,
        }
        .into(),
    }];
    let ev = events(&s);
    let asks: Vec<&J> = ev
        .iter()
        .filter(|e| kind(e, "send") && e["msg"]["type"] == "llm_ask")
        .collect();
    assert!(!asks.is_empty(), "the lapse is explained");
    assert!(
        asks.iter().all(|e| e["node"] == "advisor"),
        "only the advisor asks: {asks:?}"
    );
    in_order(
        &ev,
        &[
            ("the store lets W1's lease lapse", &|e| {
                kind(e, "lease_expired") && e["view"] == "store" && e["holder"] == "W1"
            }),
            ("the store tells the advisor", &|e| {
                kind(e, "send") && e["node"] == "store" && e["msg"]["to"] == "advisor"
            }),
            ("the advisor asks the LLM to explain", &|e| {
                kind(e, "llm_request") && e["node"] == "advisor" && e["purpose"] == "explain"
            }),
            ("the explanation is filed", &|e| {
                kind(e, "llm_response") && e["node"] == "advisor" && e["outcome"] == "explained"
            }),
        ],
    );
    let f = red_flags::evaluate(&s).unwrap();
    assert!(
        !f.depends_on_llm && f.worker_llm_calls == 0 && f.other_llm_calls >= 1,
        "{f:?}"
    );
    // In the loop, the workers themselves ask: the flag is raised, from the trace.
    let f = red_flags::evaluate(&builtin::get("llm-in-loop").unwrap()).unwrap();
    assert!(
        f.depends_on_llm && f.worker_llm_calls > 0 && f.other_llm_calls == 0,
        "{f:?}"
    );
}

/// The lessons' runs for the article's other objections and flags 2 and 3.
#[test]
fn the_articles_objections_and_flags_each_alone() {
    // Non-determinism: answers vary, the lease changes hands for no reason.
    let s = builtin::get("llm-flaky").unwrap();
    let st = stats(&s);
    assert_eq!((st.grants, st.split_brain_windows), (3, 0), "{st:?}");
    assert!(events(&s)
        .iter()
        .any(|e| kind(e, "llm_response") && e["outcome"] == "release"));
    // Authority: the vendor's 429s and refusals; the loop obeys and leases lapse.
    let st = stats(&builtin::get("llm-throttled").unwrap());
    assert_eq!(
        (st.grants, st.stale_rejected, st.stale_accepted),
        (4, 2, 0),
        "{st:?}"
    );
    // Flag 2 at the article's cadence, with no stall at all.
    let s = builtin::get("llm-article-cadence").unwrap();
    assert!(s.faults.is_empty());
    let f = red_flags::evaluate(&s).unwrap();
    assert!(
        f.p99_over_half_ttl && f.llm_p99_us.unwrap() < 1_000_000,
        "{f:?}"
    );
    assert!(
        !red_flags::evaluate(&builtin::get("llm-in-loop").unwrap())
            .unwrap()
            .p99_over_half_ttl,
        "the same API at the lab's 3 s TTL"
    );
    let st = stats(&s);
    assert!(
        st.grants >= 3 && st.split_brain_windows == 1 && st.stale_accepted == 0,
        "{st:?}"
    );
    // Flag 3: a stretched TTL, and the crash it makes slow to recover from.
    let f = red_flags::evaluate(&builtin::get("llm-ttl-stretched").unwrap()).unwrap();
    assert!(f.ttl_stretched, "{f:?}");
    assert!(
        f.failover_us.unwrap() > 2 * f.baseline_failover_us.unwrap(),
        "{f:?}"
    );
}

#[test]
fn without_an_llm_the_same_loop_is_boring() {
    let mut s = builtin::get("llm-beside").unwrap();
    s.lease.as_mut().unwrap().design = Design::NoLlm;
    let st = stats(&s);
    assert_eq!((st.split_brain_windows, st.grants), (0, 1));
}

#[test]
fn a_worker_pause_without_any_llm_also_splits_the_brain_but_fencing_holds() {
    let mut s = lab(
        "pause",
        3,
        LeaseSpec::new(2_000_000, Design::NoLlm, LlmPreset::FastApi),
    );
    s.faults = vec![Scheduled {
        at_us: 3_000_000,
        fault: Fault::Pause {
            node: "W1".into(),
            for_us: 6_000_000,
        }
        .into(),
    }];
    let run = Run::record(&s).unwrap();
    assert!(run.summary().violations.is_empty());
    let st = run
        .last
        .monitors()
        .lease
        .as_ref()
        .unwrap()
        .stats_at(run.end);
    assert!(st.grants >= 2, "someone took over: {st:?}");
}

#[test]
fn clock_drift_beyond_the_assumed_bound_splits_the_brain() {
    let st = stats(&builtin::get("clock-drift").unwrap());
    assert!(st.split_brain_windows >= 1, "{st:?}");
    assert_eq!(st.stale_accepted, 0);
}

#[test]
fn red_flags_fire_on_the_articles_configurations() {
    // A typical LLM inside a 3 s loop: p99 > TTL/2, dependency, failed drill.
    let mut s = builtin::get("llm-in-loop").unwrap();
    s.lease.as_mut().unwrap().llm = LlmPreset::TypicalLlm;
    let f = red_flags::evaluate(&s).unwrap();
    assert!(
        f.depends_on_llm && f.p99_over_half_ttl && f.drill_fails,
        "{f:?}"
    );
    assert!(f.llm_p99_us.unwrap() > 1_500_000);
    // The TTL stretched to 30 s to wait for it: slower failover, measured.
    s.lease.as_mut().unwrap().ttl_us = 30_000_000;
    s.lease.as_mut().unwrap().renew_us = None;
    let f = red_flags::evaluate(&s).unwrap();
    assert!(f.ttl_stretched, "{f:?}");
    let (slow, fast) = (f.failover_us.unwrap(), f.baseline_failover_us.unwrap());
    assert!(slow > 5 * fast, "failover {slow} µs vs {fast} µs");
    assert!(f.exposure_us > 5 * f.baseline_exposure_us);
}

#[test]
fn red_flags_stay_quiet_on_a_healthy_loop() {
    for name in ["llm-beside", "kleppmann"] {
        let f = red_flags::evaluate(&builtin::get(name).unwrap()).unwrap();
        assert_eq!(f.raised(), 0, "{name}: {f:?}");
    }
}

#[test]
fn impossible_settings_are_refused_with_the_reason() {
    let base = builtin::get("llm-in-loop").unwrap();
    let cases: Vec<(Box<dyn Fn(&mut Scenario)>, &str)> = vec![
        (
            Box::new(|s| s.lease.as_mut().unwrap().ttl_us = 0),
            "lease.ttl_us: the TTL must be above 0",
        ),
        (
            Box::new(|s| s.lease.as_mut().unwrap().renew_us = Some(3_000_000)),
            "lease.renew_us: renewing every 3.000 s with a TTL of 3.000 s",
        ),
        (
            Box::new(|s| s.nodes = paxos_island::scenario::lease_spec::lab_nodes(6)),
            "lease.workers: 6 workers; this lab supports 1 to 5",
        ),
        (
            Box::new(|s| s.lease.as_mut().unwrap().margin_us = Some(5_000_000)),
            "lease.margin_us",
        ),
    ];
    for (edit, want) in cases {
        let mut s = base.clone();
        edit(&mut s);
        let err = s.validate().unwrap_err().to_string();
        assert!(
            err.starts_with(want),
            "got {err:?}, want it to start with {want:?}"
        );
    }
}

#[test]
fn monte_carlo_split_brain_grows_as_the_ttl_shrinks_below_the_stall() {
    let mut base = builtin::get("llm-in-loop").unwrap();
    base.faults.clear();
    let stall = Latency::LogNormal {
        median_us: 2_000_000,
        sigma: 0.8,
    };
    let grid = Grid::over_ttl(&base, stall, vec![1_000_000, 4_000_000, 16_000_000], 6);
    let mut sweep = Sweep::new(grid);
    let mut rounds = 0;
    while !sweep.advance(5) {
        rounds += 1;
        assert!(sweep.progress() < 1.0);
    }
    assert!(rounds > 3, "the work is split into pieces");
    let cells = sweep.cells();
    let sb = |ttl: u64, fencing: bool| {
        cells
            .iter()
            .find(|c| c.ttl_us == ttl && c.fencing == fencing)
            .unwrap()
    };
    assert!(sb(1_000_000, true).split_brain_us > sb(16_000_000, true).split_brain_us);
    assert!(sb(1_000_000, true).stale_attempted > 0.0);
    // A stale write may still land *before* the new holder has written (the
    // order stays consistent); what fencing prevents is overwriting newer data.
    assert_eq!(
        sb(1_000_000, true).lost_updates,
        0.0,
        "fencing on: no stale write overwrites newer data"
    );
    assert!(
        sb(1_000_000, false).lost_updates > 0.0,
        "fencing off: stale writes overwrite newer data"
    );
    assert!(sb(1_000_000, false).stale_accepted >= sb(1_000_000, true).stale_accepted);
}

// ----- the store as a Multi-Paxos group ------------------------------------

fn replicated_store() -> Scenario {
    builtin::get("replicated-store").unwrap()
}

#[test]
fn the_lease_outlives_the_store_masters_crash_and_the_stale_write_is_still_refused() {
    let ev = events(&replicated_store());
    let at = in_order(
        &ev,
        &[
            ("S1 grants W2 epoch 33", &|e| {
                kind(e, "lease_granted")
                    && e["node"] == "S1"
                    && e["holder"] == "W2"
                    && e["epoch"] == 33
            }),
            ("S1 crashes", &|e| kind(e, "crash") && e["node"] == "S1"),
            // Paxos Made Live §5.2: the replicas promised S1 not to follow another master for T.
            ("a candidate refused under S1's master lease", &|e| {
                kind(e, "lease_refused") && e["grantee"] == "S1"
            }),
            ("a new master", &|e| kind(e, "elected") && e["node"] != "S1"),
            ("the new master renews W2's epoch 33", &|e| {
                kind(e, "lease_renewed")
                    && e["node"] != "S1"
                    && e["holder"] == "W2"
                    && e["epoch"] == 33
            }),
            ("W2 paused", &|e| kind(e, "pause") && e["node"] == "W2"),
            ("W1 granted 34 by the new master", &|e| {
                kind(e, "lease_granted")
                    && e["node"] != "S1"
                    && e["holder"] == "W1"
                    && e["epoch"] == 34
            }),
            ("W2's write with 33 refused by the row's fence", &|e| {
                kind(e, "write_rejected")
                    && e["writer"] == "W2"
                    && e["epoch"] == 33
                    && e["reason"] == "row_fenced"
            }),
        ],
    );
    // W2 believed without a break from its grant to its pause: the failover
    // fit inside its lease.
    let lost = ev[at[0]..at[5]]
        .iter()
        .any(|e| kind(e, "belief") && e["node"] == "W2" && e["holding"] == false);
    assert!(!lost, "W2 lost its lease during the store's failover");
    // Nothing but the store's replicas answered for the store.
    assert!(ev
        .iter()
        .filter(|e| kind(e, "lease_granted") || kind(e, "lease_renewed"))
        .all(|e| e["node"].as_str().unwrap().starts_with('S')));
}

#[test]
fn a_replicated_store_runs_its_statements_through_the_log_and_is_checked_as_a_group() {
    let s = replicated_store();
    let run = Run::record(&s).unwrap();
    assert!(
        run.last.monitors().multipaxos.is_some(),
        "the group's own monitors run too"
    );
    assert!(
        run.last.monitors().broken().is_empty(),
        "{:?}",
        run.last.monitors().broken()
    );
    let ev = events_json(&run.names, &run.trace);
    // Every grant or renewal a master put on the record is a chosen slot
    // holding a lease statement, and carries that slot as its version.
    let chosen: Vec<(u64, String)> = ev
        .iter()
        .filter(|e| kind(e, "chosen") && e["cmd"]["op"] == "lease_cas")
        .map(|e| {
            (
                e["slot"].as_u64().unwrap(),
                e["cmd"]["client"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let told: Vec<&J> = ev
        .iter()
        .filter(|e| kind(e, "lease_granted") || kind(e, "lease_renewed"))
        .collect();
    assert!(told.len() >= 10, "only {} grants and renewals", told.len());
    for e in told {
        let v = e["version"]
            .as_u64()
            .expect("a replicated store's note carries its version");
        assert!(
            chosen.contains(&(v, e["holder"].as_str().unwrap().to_string())),
            "no chosen lease_cas in slot {v} for {e}"
        );
    }
}

#[test]
fn a_replicated_store_refuses_settings_it_cannot_run() {
    let cases: Vec<(Box<dyn Fn(&mut Scenario)>, &str)> = vec![
        (Box::new(|s| s.lease.as_mut().unwrap().store.as_mut().unwrap().master_lease_us = 10_000), "lease.store.master_lease_us"),
        (Box::new(|s| s.lease.as_mut().unwrap().store.as_mut().unwrap().election_timeout_us = 50_000), "lease.store.election_timeout_us"),
        (
            Box::new(|s| {
                s.nodes.retain(|n| !(n.id.starts_with('S') && n.id != "S1"));
                s.network.links.retain(|l| l.from == "S1");
                s.faults.clear();
            }),
            "lease.store: these are a replicated store's settings, but the scenario has one lease_store node",
        ),
    ];
    for (edit, want) in cases {
        let mut s = replicated_store();
        edit(&mut s);
        let err = s.validate().unwrap_err().to_string();
        assert!(
            err.starts_with(want),
            "got {err:?}, want it to start with {want:?}"
        );
    }
}

/// What the page keeps between two events — the lab's figures as a
/// `LeaseTally`, a sleeping worker's seat with the moment it wakes — is the
/// same at any instant until the next event, and the figures worked out
/// from it for an instant are the monitor's own for that instant: so a
/// playing run publishes its snapshot only when an event passes, and the
/// counters and the countdown still move with the cursor.
#[test]
fn between_two_events_the_snapshot_stands_still_and_the_figures_still_grow() {
    use paxos_island::sim::SimTime;
    use paxos_island::viz::parliament::{seats, seats_from_trace, SeatStatus};
    let s = builtin::get("kleppmann").unwrap();
    let run = Run::record(&s).unwrap();
    let (mut gaps, mut asleep, mut grew) = (0, 0, 0);
    for w in run.trace.windows(2) {
        let (a, b) = (w[0].t.0 + 1, w[1].t.0.saturating_sub(1));
        if b <= a {
            continue;
        }
        gaps += 1;
        let (sa, sb) = (run.state_at(SimTime(a)), run.state_at(SimTime(b)));
        let (la, lb) = (
            sa.monitors().lease.as_ref().unwrap(),
            sb.monitors().lease.as_ref().unwrap(),
        );
        assert_eq!(
            la.tally(),
            lb.tally(),
            "the tally moved between events at {a}–{b} µs"
        );
        assert_eq!(la.tally().at(SimTime(b)), lb.stats_at(SimTime(b)));
        if la.tally().at(SimTime(b)) != la.tally().at(SimTime(a)) {
            grew += 1;
        }
        let (seats_a, seats_b) = (seats(&sa), seats(&sb));
        assert_eq!(
            seats_a, seats_b,
            "a seat moved between events at {a}–{b} µs"
        );
        let from_trace =
            seats_from_trace(run.names.len(), &run.trace[..run.events_until(SimTime(b))]);
        for (live, rec) in seats_b.iter().zip(&from_trace) {
            assert_eq!(
                live.status, rec.status,
                "{a}–{b} µs: the trace and the simulator disagree on {:?}",
                live.id
            );
            if let SeatStatus::Asleep { until_us } = live.status {
                asleep += 1;
                assert!(until_us > b, "asleep past its waking at {b} µs");
            }
        }
    }
    assert!(
        gaps > 20 && asleep > 0 && grew > 0,
        "{gaps} gaps, {asleep} sleeping seats, {grew} growing tallies"
    );
}
