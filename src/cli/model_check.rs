//! `paxos-island model-check`: every schedule of a small configuration, of
//! the Synod (`--protocol paxos`), of transaction commit (`--protocol commit`)
//! or, up to a depth, of Multi-Paxos (`--protocol multipaxos`).

use super::{parse_flags, parse_mutation, write_file, Flags, Out, Usage};
use crate::check::explore::commit::CommitModel;
use crate::check::explore::multipaxos::{MultiModel, MODEL_LEASE, TICK};
use crate::check::explore::paxos::PaxosModel;
use crate::check::explore::{Explorer, Spec, Stop, Violation};
use crate::check::Invariant;
use crate::protocol::commit::Algorithm;
use crate::protocol::{Kind, Mutation};
use crate::scenario::run::Run;
use crate::scenario::Scenario;
use crate::sim::Protocol;
use crate::trace;
use std::hash::Hash;
use std::time::Instant;

/// How many states between looks at the clock (and progress lines).
const SLICE: usize = 20_000;

const PAXOS_FLAGS: &[&str] = &["acceptors", "proposers"];
const COMMIT_FLAGS: &[&str] = &["rms", "f", "algorithm"];
const MULTI_FLAGS: &[&str] = &["replicas", "slots", "heartbeats", "depth", "ticks"];

pub fn cmd_model_check(args: &[String], out: Out, err: Out) -> Result<i32, Usage> {
    let f = parse_flags(
        args,
        &[
            "protocol",
            "acceptors",
            "proposers",
            "rms",
            "f",
            "algorithm",
            "replicas",
            "slots",
            "heartbeats",
            "depth",
            "ballots",
            "crashes",
            "mutation",
            "out",
            "max-states",
            "ticks",
        ],
        &["lease"],
    )?;
    f.no_positional()?;
    let protocol = match f.get("protocol") {
        Some("paxos") | None => Kind::Paxos,
        Some("commit") => Kind::Commit,
        Some("multipaxos") => Kind::Multipaxos,
        Some(p) if Kind::parse(p).is_some() => {
            return Err(Usage(format!(
                "model-check does not support --protocol {p}; choose paxos, multipaxos or commit"
            )))
        }
        Some(p) => {
            return Err(Usage(format!(
                "unknown protocol {p:?}; choose paxos, multipaxos or commit"
            )))
        }
    };
    let mutation = parse_mutation(&f)?;
    if let Some(m) = mutation.filter(|m| m.protocol() != protocol) {
        return Err(Usage(format!(
            "mutation {m} does not apply to --protocol {protocol}"
        )));
    }
    let mut other: Vec<&str> = [PAXOS_FLAGS, COMMIT_FLAGS, MULTI_FLAGS].concat();
    other.retain(|o| {
        !match protocol {
            Kind::Paxos => PAXOS_FLAGS,
            Kind::Commit => COMMIT_FLAGS,
            _ => MULTI_FLAGS,
        }
        .contains(o)
    });
    if let Some(flag) = other.iter().find(|o| f.get(o).is_some()) {
        return Err(Usage(format!(
            "--{flag} does not apply to --protocol {protocol}"
        )));
    }
    if f.has("lease") && protocol != Kind::Multipaxos {
        return Err(Usage(format!(
            "--lease does not apply to --protocol {protocol}"
        )));
    }
    let max_states = small(&f, "max-states", "the most states")?.map(|n| n as usize);
    match protocol {
        Kind::Commit => commit(&f, mutation, max_states, out, err),
        Kind::Multipaxos => multipaxos(&f, mutation, max_states, out, err),
        _ => paxos(&f, mutation, max_states, out, err),
    }
}

fn multipaxos(
    f: &Flags,
    mutation: Option<Mutation>,
    max_states: Option<usize>,
    out: Out,
    err: Out,
) -> Result<i32, Usage> {
    let mutation = match mutation {
        Some(Mutation::Multipaxos(m)) => Some(m),
        _ => None,
    };
    // A lease mutation turns the lease on; so does --lease.
    let mut model = match f.has("lease") {
        true => MultiModel {
            mutation,
            ..MultiModel::with_lease()
        },
        false => MultiModel::for_mutation(mutation),
    };
    if let Some(n) = small(f, "replicas", "the count of replicas")? {
        model.replicas = n.min(99) as usize;
    }
    if let Some(n) = small(f, "slots", "the count of slots")? {
        model.slots = n.min(99) as usize;
    }
    if let Some(n) = small(f, "ballots", "the count of ballots")? {
        model.ballots = n.min(99) as u32;
    }
    if let Some(n) = small(f, "heartbeats", "the count of heartbeat rounds")? {
        model.heartbeats = n.min(99) as u32;
    }
    if let Some(n) = small(f, "depth", "the most steps")? {
        model.depth = n.min(999) as u32;
    }
    if let Some(n) = small(f, "crashes", "the count of crashes")? {
        model.crashes = n.min(99) as u8;
    }
    if let Some(n) = small(f, "ticks", "the count of ticks")? {
        if !model.lease {
            return Err(Usage(
                "--ticks needs the lease on (--lease): without it time is abstracted away".into(),
            ));
        }
        model.ticks = n.min(99) as u32;
    }
    model.validate().map_err(Usage)?;
    let what = match model.mutation {
        Some(m) => format!("multipaxos with {}", m.as_str()),
        None => "multipaxos".into(),
    };
    let time = match model.lease {
        true => format!(
            "the master lease on (T = {} s), time passing in ticks of {} s, up to {} ticks",
            MODEL_LEASE.0 / 1_000_000,
            TICK.0 / 1_000_000,
            model.ticks
        ),
        false => "the lease off (time is abstracted away)".into(),
    };
    let config = format!(
        "{} replicas, {} slots, {} ballots, heartbeat rounds ≤ {}, {} crashes, up to {} steps, {time}",
        model.replicas, model.slots, model.ballots, model.heartbeats, model.crashes, model.depth
    );
    let stop = if model.lease {
        Invariant::SingleMaster
    } else {
        Invariant::Agreement
    };
    let mut x = model.explorer(Stop::When(stop));
    let prefer = [stop, Invariant::Agreement, Invariant::LogPrefix];
    let found = search(&mut x, max_states, &what, &config, &prefer, out, err);
    let Some((v, others)) = found? else {
        return Ok(last_code(&x));
    };
    let _ = writeln!(
        out,
        "  shortest counterexample: {} steps ({config}){}",
        v.path.len(),
        x.render(&v.path)
    );
    also_broken(&others, out);
    let scenario =
        model.counterexample(&mut x, &v.path, &format!("counterexample: {}", v.invariant));
    write_counterexample(f, &scenario, out)
}

fn small(f: &Flags, name: &str, what: &str) -> Result<Option<u64>, Usage> {
    match f.get(name) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse::<u64>()
            .map(Some)
            .map_err(|_| Usage(format!("bad --{name} {v:?}: {what} must be a whole number"))),
    }
}

fn paxos(
    f: &Flags,
    mutation: Option<Mutation>,
    max_states: Option<usize>,
    out: Out,
    err: Out,
) -> Result<i32, Usage> {
    let mut model = PaxosModel::default();
    if let Some(n) = small(f, "acceptors", "the count of acceptors")? {
        model.acceptors = n.min(99) as usize;
    }
    if let Some(n) = small(f, "proposers", "the count of proposers")? {
        model.proposers = n.min(99) as usize;
    }
    if let Some(n) = small(f, "ballots", "the count of ballots")? {
        model.ballots = n.min(99) as u32;
    }
    if let Some(n) = small(f, "crashes", "the count of crashes")? {
        model.crashes = n.min(99) as u8;
    }
    model.mutation = match mutation {
        Some(Mutation::Paxos(m)) => Some(m),
        _ => None,
    };
    model.validate().map_err(Usage)?;
    // Search on past the first broken rule until agreement breaks: the
    // shortest path to each is kept, and agreement's is the one to show.
    let mut x = model.explorer(Stop::When(Invariant::Agreement));
    let what = match model.mutation {
        Some(m) => format!("paxos with {}", m.as_str()),
        None => "paxos".into(),
    };
    let config = format!(
        "{} acceptors, {} proposers, {} ballots, {} crashes",
        model.acceptors, model.proposers, model.ballots, model.crashes
    );
    let found = search(
        &mut x,
        max_states,
        &what,
        &config,
        &[Invariant::Agreement],
        out,
        err,
    );
    let Some((v, others)) = found? else {
        return Ok(last_code(&x));
    };
    let _ = writeln!(
        out,
        "  shortest counterexample: {} steps ({config}){}",
        v.path.len(),
        x.render(&v.path)
    );
    also_broken(&others, out);
    let scenario =
        model.counterexample(&mut x, &v.path, &format!("counterexample: {}", v.invariant));
    write_counterexample(f, &scenario, out)
}

fn commit(
    f: &Flags,
    mutation: Option<Mutation>,
    max_states: Option<usize>,
    out: Out,
    err: Out,
) -> Result<i32, Usage> {
    let mut model = CommitModel::default();
    match f.get("algorithm") {
        None | Some("paxos-commit") => {}
        Some("faster") => model.faster = true,
        Some("2pc") => {
            model.algorithm = Algorithm::TwoPhaseCommit;
            model.f = 0;
            model.ballots = 1;
        }
        Some(a) => {
            return Err(Usage(format!(
                "unknown --algorithm {a:?}; choose 2pc, paxos-commit or faster"
            )))
        }
    }
    if let Some(n) = small(f, "rms", "the count of RMs")? {
        model.rms = n.min(99) as usize;
    }
    if let Some(n) = small(f, "f", "F")? {
        model.f = n.min(99) as usize;
    }
    if let Some(n) = small(f, "ballots", "the count of ballots")? {
        model.ballots = n.min(99) as u32;
    }
    if let Some(n) = small(f, "crashes", "the count of crashes")? {
        model.crashes = n.min(99) as u8;
    }
    model.mutation = match mutation {
        Some(Mutation::Commit(m)) => Some(m),
        _ => None,
    };
    model.validate().map_err(Usage)?;
    let algorithm = match (model.algorithm, model.faster) {
        (Algorithm::TwoPhaseCommit, _) => "two-phase commit".to_string(),
        (Algorithm::PaxosCommit, false) => "Paxos Commit".into(),
        (Algorithm::PaxosCommit, true) => "Faster Paxos Commit".into(),
    };
    let what = match model.mutation {
        Some(m) => format!("{algorithm} with {}", m.as_str()),
        None => algorithm,
    };
    let config = format!(
        "{} RMs, F = {}, coordinator ballots ≤ {}, {} crashes, the TM on RM1's node",
        model.rms, model.f, model.ballots, model.crashes
    );
    // Validity is what a coordinator that commits too early breaks first;
    // atomicity follows when an RM had voted "aborted".
    let mut x = model.explorer(Stop::When(Invariant::CommitValidity));
    let found = search(
        &mut x,
        max_states,
        &what,
        &config,
        &[
            Invariant::CommitValidity,
            Invariant::Atomicity,
            Invariant::Agreement,
        ],
        out,
        err,
    );
    let Some((v, others)) = found? else {
        return Ok(last_code(&x));
    };
    let _ = writeln!(
        out,
        "  shortest counterexample: {} steps ({config}){}",
        v.path.len(),
        x.render(&v.path)
    );
    also_broken(&others, out);
    let scenario =
        model.counterexample(&mut x, &v.path, &format!("counterexample: {}", v.invariant));
    write_counterexample(f, &scenario, out)
}

/// Exit code of a clean search: 3 if cut short by the state limit.
fn last_code<P: Protocol + Hash + Eq, S: Spec<P>>(x: &Explorer<P, S>) -> i32
where
    P::Msg: Hash + Eq,
    P::Timer: Hash + Eq,
{
    if x.progress().truncated && !x.progress().depth_bounded {
        3
    } else {
        0
    }
}

/// Run the search to its end, printing progress to `err`, then the verdict
/// line; returns the violation to show (the first of `prefer` found, or any)
/// and the others.
fn search<P: Protocol + Hash + Eq, S: Spec<P>>(
    x: &mut Explorer<P, S>,
    max_states: Option<usize>,
    what: &str,
    config: &str,
    prefer: &[Invariant],
    out: Out,
    err: Out,
) -> Result<Option<(Violation, Vec<Violation>)>, Usage>
where
    P::Msg: Hash + Eq,
    P::Timer: Hash + Eq,
{
    let started = Instant::now();
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
    let violations = x.violations().to_vec();
    let shown = prefer
        .iter()
        .find_map(|w| violations.iter().find(|v| v.invariant == *w))
        .or(violations.first())
        .cloned();
    let Some(v) = shown else {
        let _ = writeln!(
            out,
            "model-check {what}: {} states, {} transitions in {secs:.2} s ({rate:.0} states/s), 0 violations{}",
            p.states,
            p.transitions,
            match (p.truncated, p.depth_bounded) {
                (true, true) => format!(" in every schedule of up to {} steps (bounded: longer ones were not checked)", p.depth),
                (true, false) => " (stopped at the state limit: not every schedule was checked)".to_string(),
                _ => String::new(),
            }
        );
        let _ = writeln!(
            out,
            "  {config}; depth {}, {} states past the ballot bound, {} messages, {} message sets, {} node states",
            p.depth, p.cut, p.messages, p.message_sets, p.node_states
        );
        for (w, path) in x.witnesses() {
            let _ = writeln!(
                out,
                "  witness: {w}: {}",
                path.map_or("NOT reached".to_string(), |p| format!(
                    "reached in {} steps",
                    p.len()
                ))
            );
        }
        return Ok(None);
    };
    let _ = writeln!(
        out,
        "model-check {what}: VIOLATION of {} after {} states in {secs:.2} s: {}",
        v.invariant, p.states, v.detail
    );
    let others = violations
        .into_iter()
        .filter(|o| o.invariant != v.invariant)
        .collect();
    Ok(Some((v, others)))
}

fn also_broken(others: &[Violation], out: Out) {
    for o in others {
        let _ = writeln!(
            out,
            "  also broken: {} (shortest: {} steps): {}",
            o.invariant,
            o.path.len(),
            o.detail
        );
    }
}

fn write_counterexample(f: &Flags, scenario: &Scenario, out: Out) -> Result<i32, Usage> {
    let run = Run::record(scenario)
        .map_err(|e| Usage(format!("the counterexample does not replay: {e}")))?;
    let path = f.get("out").unwrap_or("counterexample.trace.json");
    write_file(
        path,
        &trace::json::export(&run.scenario, &run.names, &run.trace),
    )?;
    let _ = writeln!(
        out,
        "wrote      {path} (replay: paxos-island replay {path} --verify)"
    );
    Ok(1)
}
