//! The command-line tool: run scenarios headless, check invariants over
//! random schedules, replay and verify traces, and measure throughput.
//!
//! Every mistake a user can make on the command line ends in one line on
//! stderr naming the problem, and exit code 2; a found violation exits 1.

mod bench;
mod etcd;
mod export;
mod http;
mod live;
mod model_check;
mod pg;

use crate::check::search::{self, FaultSet};
use crate::check::Mutation;
use crate::protocol::Kind as Protocol;
use crate::scenario::run::Run;
use crate::scenario::{builtin, Scenario};
use crate::trace;
use std::io::Write;
use std::time::Instant;

const USAGE: &str = "\
paxos-island — real Paxos, transaction commit and leases in a deterministic simulator

USAGE:
  paxos-island scenarios
  paxos-island run --scenario NAME|FILE|LINK [--seed N] [--mutation M] [--out trace.json]
  paxos-island check --protocol paxos|lease|multipaxos|commit [--schedules N] [--seed N]
                     [--faults LIST] [--mutation M] [--fencing article|token|off] [--out trace.json]
  paxos-island model-check --protocol paxos [--acceptors N] [--proposers N] [--ballots N]
                     [--crashes N] [--mutation M] [--out FILE] [--max-states N]
  paxos-island model-check --protocol commit [--algorithm 2pc|paxos-commit|faster] [--rms N]
                     [--f F] [--ballots N] [--crashes N] [--mutation M] [--out FILE] [--max-states N]
  paxos-island model-check --protocol multipaxos [--replicas 3|5] [--slots N] [--ballots N]
                     [--heartbeats N] [--depth N] [--crashes N] [--lease [--ticks N]] [--mutation M]
                     [--out FILE] [--max-states N]
  paxos-island replay TRACE.json [--verify]
  paxos-island export-scenario NAME [--seed N] [--out scenario.json]
  paxos-island export --format shiviz|mermaid|svg|json (--scenario NAME|FILE|LINK | --trace FILE)
                      [--from-us A] [--to-us B] [--out FILE]
  paxos-island share NAME|FILE [--seed N]
  paxos-island pg --scenario NAME [--seed N] [--url URL] [--out trace.json]
  paxos-island pg --live [--fencing article|token|off] [--workers N] [--ttl-ms T]
                  [--stall-ms S] [--run-ms R] [--url URL] [--out trace.json]
  paxos-island etcd [--fencing article|off] [--workers N] [--ttl-ms T] [--stall-ms S]
                  [--run-ms R] [--url http://HOST:PORT] [--out trace.json]
  paxos-island bench [--quick]
  paxos-island help

A LINK is a share link (…#s=s1.…) or its fragment (s1.…), as `share` prints.
`pg` and `etcd` need a server: scripts/with-servers.sh starts throwaway ones and
sets PAXOS_PG_URL and PAXOS_ETCD_URL (a URL given with --url wins).
";

/// A problem with what the user typed.
struct Usage(String);

type Out<'a> = &'a mut dyn Write;

pub fn main(args: &[String], out: Out, err: Out) -> i32 {
    match dispatch(args, out, err) {
        Ok(code) => code,
        Err(Usage(msg)) => {
            let _ = writeln!(err, "error: {msg}");
            2
        }
    }
}

fn dispatch(args: &[String], out: Out, err: Out) -> Result<i32, Usage> {
    let Some((cmd, rest)) = args.split_first() else {
        let _ = write!(out, "{USAGE}");
        return Ok(0);
    };
    match cmd.as_str() {
        "help" | "--help" | "-h" => {
            let _ = write!(out, "{USAGE}");
            Ok(0)
        }
        "scenarios" => {
            no_extra(rest)?;
            for name in builtin::names() {
                let s = builtin::get(name).expect("listed scenarios exist");
                let _ = writeln!(out, "{name:18} {:?} {} nodes", s.protocol, s.nodes.len());
            }
            Ok(0)
        }
        "run" => cmd_run(rest, out),
        "check" => cmd_check(rest, out),
        "model-check" => model_check::cmd_model_check(rest, out, err),
        "replay" => cmd_replay(rest, out),
        "export-scenario" => cmd_export_scenario(rest, out),
        "export" => export::cmd_export(rest, out),
        "share" => export::cmd_share(rest, out),
        "bench" => bench::cmd_bench(rest, out),
        "pg" => pg::cmd_pg(rest, out),
        "etcd" => etcd::cmd_etcd(rest, out),
        other => Err(Usage(format!(
            "unknown command {other:?}; try `paxos-island help`"
        ))),
    }
}

/// Parsed `--flag value` pairs and positional arguments.
struct Flags {
    pairs: Vec<(String, String)>,
    switches: Vec<String>,
    positional: Vec<String>,
}

fn parse_flags(args: &[String], with_value: &[&str], switches: &[&str]) -> Result<Flags, Usage> {
    let mut f = Flags {
        pairs: Vec::new(),
        switches: Vec::new(),
        positional: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if let Some(name) = a.strip_prefix("--") {
            let (name, inline) = match name.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (name, None),
            };
            if with_value.contains(&name) {
                let v = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| Usage(format!("--{name} needs a value")))?,
                };
                if f.pairs.iter().any(|(n, _)| n == name) {
                    return Err(Usage(format!("--{name} given twice")));
                }
                f.pairs.push((name.to_string(), v));
            } else if switches.contains(&name) && inline.is_none() {
                f.switches.push(name.to_string());
            } else {
                return Err(Usage(format!("unknown flag --{name}")));
            }
        } else if a.starts_with('-') && a.len() > 1 {
            return Err(Usage(format!("unknown flag {a}")));
        } else {
            f.positional.push(a.clone());
        }
    }
    Ok(f)
}

impl Flags {
    fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    fn has(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }
    fn u64(&self, name: &str, what: &str) -> Result<Option<u64>, Usage> {
        self.get(name).map(|v| parse_u64(v, name, what)).transpose()
    }
    fn no_positional(&self) -> Result<(), Usage> {
        match self.positional.first() {
            Some(p) => Err(Usage(format!("unexpected argument {p:?}"))),
            None => Ok(()),
        }
    }
}

fn no_extra(rest: &[String]) -> Result<(), Usage> {
    match rest.first() {
        Some(a) => Err(Usage(format!("unexpected argument {a:?}"))),
        None => Ok(()),
    }
}

fn parse_u64(v: &str, flag: &str, what: &str) -> Result<u64, Usage> {
    v.trim().parse::<u64>().map_err(|_| {
        Usage(format!(
            "bad --{flag} {v:?}: {what} must be a whole number from 0 to 18446744073709551615"
        ))
    })
}

fn parse_mutation(f: &Flags) -> Result<Option<Mutation>, Usage> {
    f.get("mutation")
        .map(|m| {
            Mutation::parse(m).ok_or_else(|| {
                let all: Vec<&str> = Mutation::all().into_iter().map(|m| m.as_str()).collect();
                Usage(format!(
                    "unknown mutation {m:?}; choose from: {}",
                    all.join(", ")
                ))
            })
        })
        .transpose()
}

/// A scenario by built-in name, from a scenario / trace JSON file, or from
/// a share link (a file of that name wins, so no file is ever shadowed).
fn load_scenario(name: &str) -> Result<Scenario, Usage> {
    if let Some(s) = builtin::get(name) {
        return Ok(s);
    }
    let exists = std::path::Path::new(name).exists();
    if !exists && trace::share::looks_like_link(name) {
        return trace::share::decode(name).map_err(|e| Usage(format!("share link: {e}")));
    }
    if name.ends_with(".json") || exists {
        let text = read_file(name)?;
        return crate::trace::import::scenario_from_text(&text)
            .map_err(|e| Usage(format!("{name}: {e}")));
    }
    Err(Usage(format!(
        "unknown scenario {name:?}; `paxos-island scenarios` lists them (or give a .json file or a share link)"
    )))
}

fn read_file(path: &str) -> Result<String, Usage> {
    let meta = std::fs::metadata(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
    if meta.len() > crate::trace::import::MAX_BYTES as u64 {
        return Err(Usage(format!(
            "{path} is {} MB; traces above {} MB are refused",
            meta.len() / 1_000_000,
            crate::trace::import::MAX_BYTES / 1_000_000
        )));
    }
    std::fs::read_to_string(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))
}

fn write_file(path: &str, text: &str) -> Result<(), Usage> {
    std::fs::write(path, text).map_err(|e| Usage(format!("cannot write {path}: {e}")))
}

fn cmd_run(args: &[String], out: Out) -> Result<i32, Usage> {
    let f = parse_flags(args, &["scenario", "seed", "mutation", "out"], &[])?;
    f.no_positional()?;
    let name = f
        .get("scenario")
        .ok_or_else(|| Usage("run needs --scenario NAME".into()))?;
    let mut s = load_scenario(name)?;
    if let Some(seed) = f.u64("seed", "a seed")? {
        s.seed = seed;
    }
    if let Some(m) = parse_mutation(&f)? {
        s.mutation = Some(m);
    }
    let run = Run::record(&s).map_err(|e| Usage(format!("scenario {name}: {e}")))?;
    let sum = run.summary();
    let _ = writeln!(out, "scenario   {} (seed {})", s.name, s.seed);
    let _ = writeln!(
        out,
        "events     {} in {} steps, {} simulated{}",
        sum.events,
        sum.steps,
        crate::sim::time::human_us(sum.end_us),
        if run.truncated { " (truncated)" } else { "" }
    );
    let _ = writeln!(
        out,
        "messages   {} sent, {} delivered, {} dropped, {} duplicated",
        sum.sent, sum.delivered, sum.dropped, sum.duplicated
    );
    if s.protocol == Protocol::Paxos {
        match sum.decided_at_us {
            Some(t) => {
                let _ = writeln!(
                    out,
                    "decided    {} at {}",
                    sum.chosen.join(", "),
                    crate::sim::time::human_us(t)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "decided    nothing ({} ballots started)",
                    sum.ballots_started
                );
            }
        }
        for (node, v, t) in &sum.learned {
            let _ = writeln!(
                out,
                "learned    {node} learned {v} at {}",
                crate::sim::time::human_us(*t)
            );
        }
    } else if s.protocol == Protocol::Commit {
        crate::scenario::commit_table::print_summary(&run, out);
    } else {
        crate::scenario::lease_spec::print_summary(&run, out);
    }
    if sum.violations.is_empty() {
        let _ = writeln!(out, "invariants all held");
    }
    for (inv, t, seq, detail) in &sum.violations {
        let _ = writeln!(
            out,
            "VIOLATION  {inv} at {} (event {seq}): {detail}",
            crate::sim::time::human_us(*t)
        );
    }
    let _ = writeln!(out, "trace hash {}", run.hash());
    if let Some(path) = f.get("out") {
        write_file(
            path,
            &trace::json::export(&run.scenario, &run.names, &run.trace),
        )?;
        let _ = writeln!(out, "wrote      {path}");
    }
    Ok(0)
}

fn cmd_check(args: &[String], out: Out) -> Result<i32, Usage> {
    let f = parse_flags(
        args,
        &[
            "protocol",
            "schedules",
            "seed",
            "faults",
            "mutation",
            "out",
            "fencing",
        ],
        &[],
    )?;
    f.no_positional()?;
    let protocol = match f.get("protocol") {
        Some("paxos") | None => Protocol::Paxos,
        Some("lease") => Protocol::Lease,
        Some("multipaxos") => Protocol::Multipaxos,
        Some("commit") => Protocol::Commit,
        Some(p) => {
            return Err(Usage(format!(
                "unknown protocol {p:?}; choose paxos, lease, multipaxos or commit"
            )))
        }
    };
    let schedules = f
        .u64("schedules", "the count of schedules")?
        .unwrap_or(10_000);
    if schedules == 0 {
        return Err(Usage("--schedules must be at least 1".into()));
    }
    let seed = f.u64("seed", "a seed")?.unwrap_or(1);
    let faults = match f.get("faults") {
        Some(list) => FaultSet::parse(list).map_err(Usage)?,
        None => FaultSet::ALL,
    };
    let mutation = parse_mutation(&f)?;
    if let Some(m) = mutation {
        if m.protocol() != protocol {
            return Err(Usage(format!(
                "mutation {m} does not apply to --protocol {}",
                f.get("protocol").unwrap_or("paxos")
            )));
        }
    }
    let fencing = match f.get("fencing") {
        None => crate::protocol::storage::Fencing::Article,
        Some(x) => crate::protocol::storage::Fencing::parse(x)
            .ok_or_else(|| Usage(format!("bad --fencing {x:?}: say article, token or off")))?,
    };
    if f.get("fencing").is_some() && protocol != Protocol::Lease {
        return Err(Usage("--fencing applies to --protocol lease only".into()));
    }
    let started = Instant::now();
    // A mutation is caught when the rule it is meant to break breaks.
    let want = mutation.and_then(crate::check::meant);
    let report = match protocol {
        Protocol::Paxos => search::check_for(
            |s| search::random_paxos(s, faults, mutation),
            seed,
            schedules,
            want,
            true,
        ),
        Protocol::Commit => search::check_for(
            |s| crate::scenario::commit_spec::random_commit(s, faults, mutation),
            seed,
            schedules,
            want,
            true,
        ),
        Protocol::Lease => search::check(
            |s| crate::scenario::lease_spec::random_lease_with(s, faults, mutation, fencing),
            seed,
            schedules,
            true,
        ),
        Protocol::Multipaxos => search::check_for(
            |s| crate::scenario::multipaxos_spec::random_multipaxos(s, faults, mutation),
            seed,
            schedules,
            want,
            true,
        ),
    };
    let secs = started.elapsed().as_secs_f64();
    match &report.first {
        None => {
            let _ = writeln!(
                out,
                "checked {} schedules ({} steps) in {secs:.2} s: 0 violations{}",
                report.schedules,
                report.steps,
                match protocol {
                    Protocol::Paxos =>
                        format!("; a decree was chosen in {} of them", report.decided),
                    Protocol::Commit => format!(
                        "; every RM learned the outcome in {} of them",
                        report.decided
                    ),
                    Protocol::Multipaxos =>
                        format!("; a slot was chosen in {} of them", report.decided),
                    Protocol::Lease => String::new(),
                }
            );
            Ok(0)
        }
        Some(fail) => {
            let _ = writeln!(
                out,
                "VIOLATION of {} in schedule seed {} at step {} (event {}, t = {}): {}",
                fail.invariant,
                fail.seed,
                fail.step,
                fail.seq,
                crate::sim::time::human_us(fail.t_us),
                fail.detail
            );
            let _ = writeln!(
                out,
                "after {} schedules; reproduce: paxos-island check --protocol {} --seed {} --schedules 1{}{}{}",
                report.schedules,
                protocol.as_str(),
                fail.seed,
                f.get("faults").map(|x| format!(" --faults {x}")).unwrap_or_default(),
                mutation.map(|m| format!(" --mutation {m}")).unwrap_or_default(),
                if fencing == crate::protocol::storage::Fencing::Article { String::new() } else { format!(" --fencing {fencing}") }
            );
            if let Some(path) = f.get("out") {
                let run = Run::record(&fail.scenario).map_err(|e| Usage(e.to_string()))?;
                write_file(
                    path,
                    &trace::json::export(&run.scenario, &run.names, &run.trace),
                )?;
                let _ = writeln!(out, "wrote {path}");
            }
            Ok(1)
        }
    }
}

fn cmd_replay(args: &[String], out: Out) -> Result<i32, Usage> {
    let f = parse_flags(args, &[], &["verify"])?;
    let [path] = f.positional.as_slice() else {
        return Err(Usage("replay needs exactly one trace file".into()));
    };
    let text = read_file(path)?;
    let imported = crate::trace::import::parse(&text).map_err(|e| Usage(format!("{path}: {e}")))?;
    let _ = writeln!(out, "trace      {} events", imported.events.len());
    if !f.has("verify") {
        return Ok(0);
    }
    let Some(scenario) = &imported.scenario else {
        return Err(Usage(format!(
            "{path}: the trace has no usable scenario, so it cannot be re-simulated"
        )));
    };
    let verdict = crate::trace::import::verify(scenario, &imported.events);
    match verdict {
        crate::trace::import::Verdict::Identical { hash } => {
            let _ = writeln!(
                out,
                "verified   re-simulation gives the same {} events (hash {hash})",
                imported.events.len()
            );
            Ok(0)
        }
        crate::trace::import::Verdict::Differs { at, expected, got } => {
            let _ = writeln!(
                out,
                "MISMATCH   at event {at}:\n  recorded {expected}\n  simulated {got}"
            );
            Ok(1)
        }
    }
}

fn cmd_export_scenario(args: &[String], out: Out) -> Result<i32, Usage> {
    let f = parse_flags(args, &["seed", "out"], &[])?;
    let [name] = f.positional.as_slice() else {
        return Err(Usage("export-scenario needs one scenario name".into()));
    };
    let mut s = load_scenario(name)?;
    if let Some(seed) = f.u64("seed", "a seed")? {
        s.seed = seed;
    }
    let text = trace::json::export_scenario(&s);
    match f.get("out") {
        Some(path) => write_file(path, &text)?,
        None => {
            let _ = writeln!(out, "{text}");
        }
    }
    Ok(0)
}
