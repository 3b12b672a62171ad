//! `paxos-island model-check`: every schedule of a small configuration.

use super::{parse_flags, parse_mutation, write_file, Out, Usage};
use crate::check::explore::paxos::PaxosModel;
use crate::check::explore::Stop;
use crate::check::Invariant;
use crate::protocol::{Kind, Mutation};
use crate::scenario::run::Run;
use crate::trace;
use std::time::Instant;

/// How many states between looks at the clock (and progress lines).
const SLICE: usize = 20_000;

pub fn cmd_model_check(args: &[String], out: Out, err: Out) -> Result<i32, Usage> {
    let f = parse_flags(
        args,
        &["protocol", "acceptors", "proposers", "ballots", "crashes", "mutation", "out", "max-states"],
        &[],
    )?;
    f.no_positional()?;
    match f.get("protocol") {
        Some("paxos") | None => {}
        Some(p) if Kind::parse(p).is_some() => {
            return Err(Usage(format!("model-check does not support --protocol {p} yet; choose paxos")))
        }
        Some(p) => return Err(Usage(format!("unknown protocol {p:?}; choose paxos"))),
    }
    let mut model = PaxosModel::default();
    let small = |name: &str, what: &str| -> Result<Option<u64>, Usage> {
        match f.get(name) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse::<u64>()
                .map(Some)
                .map_err(|_| Usage(format!("bad --{name} {v:?}: {what} must be a whole number"))),
        }
    };
    if let Some(n) = small("acceptors", "the count of acceptors")? {
        model.acceptors = n.min(99) as usize;
    }
    if let Some(n) = small("proposers", "the count of proposers")? {
        model.proposers = n.min(99) as usize;
    }
    if let Some(n) = small("ballots", "the count of ballots")? {
        model.ballots = n.min(99) as u32;
    }
    if let Some(n) = small("crashes", "the count of crashes")? {
        model.crashes = n.min(99) as u8;
    }
    model.mutation = match parse_mutation(&f)? {
        None => None,
        Some(Mutation::Paxos(m)) => Some(m),
        Some(m) => return Err(Usage(format!("mutation {m} does not apply to --protocol paxos"))),
    };
    model.validate().map_err(Usage)?;
    let max_states = small("max-states", "the most states")?.map(|n| n as usize);

    let started = Instant::now();
    // Search on past the first broken rule until agreement breaks: the
    // shortest path to each is kept, and agreement's is the one to show.
    let mut x = model.explorer(Stop::When(Invariant::Agreement));
    if let Some(m) = max_states {
        x.set_max_states(m);
    }
    let mut last_note = Instant::now();
    while !x.run(SLICE) {
        if last_note.elapsed().as_secs_f64() >= 2.0 {
            last_note = Instant::now();
            let p = x.progress();
            let secs = started.elapsed().as_secs_f64();
            let _ = writeln!(
                err,
                "  … {} states, depth {}, {} waiting, {:.0} states/s",
                p.states,
                p.depth,
                p.frontier,
                p.states as f64 / secs
            );
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let p = x.progress().clone();
    let rate = p.states as f64 / secs.max(1e-9);
    let what = match model.mutation {
        Some(m) => format!("paxos with {}", m.as_str()),
        None => "paxos".into(),
    };
    let config = format!(
        "{} acceptors, {} proposers, {} ballots, {} crashes",
        model.acceptors, model.proposers, model.ballots, model.crashes
    );
    let violations = x.violations().to_vec();
    let Some(v) = violations.iter().find(|v| v.invariant == Invariant::Agreement).or(violations.first()).cloned() else {
        let _ = writeln!(
            out,
            "model-check {what}: {} states, {} transitions in {secs:.2} s ({rate:.0} states/s), 0 violations{}",
            p.states,
            p.transitions,
            if p.truncated { " (stopped at the state limit: not every schedule was checked)" } else { "" }
        );
        let _ = writeln!(
            out,
            "  {config}; depth {}, {} states past the ballot bound, {} messages, {} message sets, {} node states",
            p.depth, p.cut, p.messages, p.message_sets, p.node_states
        );
        return Ok(if p.truncated { 3 } else { 0 });
    };
    let _ = writeln!(
        out,
        "model-check {what}: VIOLATION of {} after {} states in {secs:.2} s: {}",
        v.invariant, p.states, v.detail
    );
    let _ = writeln!(out, "  shortest counterexample: {} steps ({config}){}", v.path.len(), x.render(&v.path));
    for o in violations.iter().filter(|o| o.invariant != v.invariant) {
        let _ = writeln!(out, "  also broken: {} (shortest: {} steps): {}", o.invariant, o.path.len(), o.detail);
    }
    let scenario = model.counterexample(&mut x, &v.path, &format!("counterexample: {}", v.invariant));
    let run = Run::record(&scenario).map_err(|e| Usage(format!("the counterexample does not replay: {e}")))?;
    let path = f.get("out").unwrap_or("counterexample.trace.json");
    write_file(path, &trace::json::export(&run.scenario, &run.names, &run.trace))?;
    let _ = writeln!(out, "wrote      {path} (replay: paxos-island replay {path} --verify)");
    Ok(1)
}
