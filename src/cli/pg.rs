//! `paxos-island pg`: the lease lab's statements on a real PostgreSQL.
//!
//! **Conformance** (`--scenario NAME`): run the scenario in the model, then
//! execute every step of the store and of `orders` — the very `PREPARE` /
//! `SET sim.now_us` / `EXECUTE` text the page shows — on PostgreSQL, in the
//! model's order, with the simulated instant as the database's clock (a
//! `now()` in schema `sim`, ahead of `pg_catalog` on the `search_path`).
//! Each outcome — the epoch granted or no row, the order written or fenced
//! out — is compared with the model's. The first mismatch is printed with its
//! step and the command exits 1. The model's trace is written, since it is
//! then also PostgreSQL's.
//!
//! **Live** (`--live`): see [`super::live`].
//!
//! Every run uses a database of its own (created, and dropped first if it is
//! there), so nothing in the user's tables is touched.

use super::{load_scenario, parse_flags, write_file, Out, Usage};
use crate::protocol::lease::sql::{self, Statement, SCHEMA, SIM_CLOCK};
use crate::protocol::Kind;
use crate::scenario::run::Run;
use crate::viz::sql::{steps, SqlStep, Table};
use postgres::{Client, NoTls, SimpleQueryMessage};

/// The database a conformance run creates for itself.
const DB_CONFORMANCE: &str = "paxos_island_conformance";

/// Where PostgreSQL is: `--url`, else `$PAXOS_PG_URL` (set by
/// scripts/with-servers.sh).
pub fn url_of(flag: Option<&str>) -> Result<String, Usage> {
    match flag.map(str::to_string).or_else(|| std::env::var("PAXOS_PG_URL").ok().filter(|u| !u.trim().is_empty())) {
        Some(u) => Ok(u),
        None => Err(Usage(
            "no PostgreSQL given: pass --url 'host=… user=… dbname=…' (or a postgres:// URL), or run under scripts/with-servers.sh, which starts one and sets PAXOS_PG_URL".into(),
        )),
    }
}

/// Connect to `url`, then to a fresh database `db` on the same server.
pub fn fresh_database(url: &str, db: &str) -> Result<(Client, String), Usage> {
    let config: postgres::Config = url
        .parse()
        .map_err(|e| Usage(format!("bad --url {url:?}: {e}")))?;
    let unreachable = |e: postgres::Error| {
        Usage(format!(
            "cannot reach PostgreSQL at {url:?}: {}; start a throwaway one with scripts/with-servers.sh",
            pg_error(&e)
        ))
    };
    let mut admin = config.connect(NoTls).map_err(unreachable)?;
    let version = admin
        .simple_query("SHOW server_version")
        .ok()
        .and_then(|m| first_value(&m))
        .unwrap_or_else(|| "?".into());
    // Two statements, two messages: CREATE DATABASE refuses to run inside the
    // implicit transaction of a multi-statement message.
    for q in [
        format!("DROP DATABASE IF EXISTS {db}"),
        format!("CREATE DATABASE {db}"),
    ] {
        admin.batch_execute(&q).map_err(|e| {
            Usage(format!(
                "PostgreSQL at {url:?} refused to create database {db}: {}",
                pg_error(&e)
            ))
        })?;
    }
    let mut c = config.clone();
    c.dbname(db);
    let client = c.connect(NoTls).map_err(unreachable)?;
    Ok((client, version))
}

/// What the server said, on one line (the driver's own text is only "db error").
pub fn pg_error(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(d) => format!("{}: {}", d.severity(), d.message()),
        None => super::live::one_line(e),
    }
}

/// The first column of the first row, as text.
pub fn first_value(msgs: &[SimpleQueryMessage]) -> Option<String> {
    msgs.iter().find_map(|m| match m {
        SimpleQueryMessage::Row(r) => r.get(0).map(str::to_string),
        _ => None,
    })
}

pub fn cmd_pg(args: &[String], out: Out) -> Result<i32, Usage> {
    let f = parse_flags(
        args,
        &[
            "scenario", "seed", "url", "out", "fencing", "workers", "ttl-ms", "stall-ms", "run-ms",
        ],
        &["live"],
    )?;
    f.no_positional()?;
    let url = url_of(f.get("url"))?;
    if f.has("live") {
        if f.get("scenario").is_some() || f.get("seed").is_some() {
            return Err(Usage(
                "--live runs on the wall clock, not a scenario: drop --scenario and --seed".into(),
            ));
        }
        return super::live::cmd_pg_live(&f, &url, out);
    }
    for flag in ["fencing", "workers", "ttl-ms", "stall-ms", "run-ms"] {
        if f.get(flag).is_some() {
            return Err(Usage(format!(
                "--{flag} is for --live; a conformance run takes its settings from the scenario"
            )));
        }
    }
    let name = f
        .get("scenario")
        .ok_or_else(|| Usage("pg needs --scenario NAME (a lease scenario) or --live".into()))?;
    let mut s = load_scenario(name)?;
    if s.protocol != Kind::Lease {
        return Err(Usage(format!(
            "scenario {name} is a {} scenario; pg runs the lease lab's statements",
            s.protocol
        )));
    }
    if s.mutation.is_some() {
        return Err(Usage(format!(
            "scenario {name} carries a mutation; pg compares the unbroken statements only"
        )));
    }
    if let Some(seed) = f.u64("seed", "a seed")? {
        s.seed = seed;
    }
    let run = Run::record(&s).map_err(|e| Usage(format!("scenario {name}: {e}")))?;
    let spec = s
        .lease
        .clone()
        .expect("a lease scenario has a lease section");
    let steps = steps(&run.scenario, &run.names, &run.trace);

    let (mut db, version) = fresh_database(&url, DB_CONFORMANCE)?;
    let setup = format!(
        "{SCHEMA}\n{}\n{SIM_CLOCK}\n{}\n{}\n{}",
        sql::seed(spec.keys, spec.initial_epoch),
        Statement::Acquire {
            bump_on_renew: spec.bump_epoch_on_renew
        }
        .prepare(),
        Statement::Release.prepare(),
        Statement::Write(crate::viz::sql::Choice::of(&s).fencing).prepare()
    );
    db.batch_execute(&setup)
        .map_err(|e| Usage(format!("PostgreSQL refused the tables: {}", pg_error(&e))))?;

    let _ = writeln!(
        out,
        "pg         PostgreSQL {version}, simulated time as now()"
    );
    let _ = writeln!(
        out,
        "scenario   {} (seed {}, fencing {})",
        s.name, s.seed, spec.fencing
    );
    let mut matched = 0usize;
    for (i, step) in steps.iter().enumerate() {
        let got = match db.simple_query(&step.execute()) {
            Ok(msgs) => first_value(&msgs).map(|v| v.parse::<i64>().map_err(|_| v)),
            Err(e) => {
                let _ = writeln!(out, "step {}    PostgreSQL failed: {}", i + 1, pg_error(&e));
                let _ = writeln!(out, "           {}", step.execute().replace('\n', " "));
                return Ok(1);
            }
        };
        let got = match got {
            None => None,
            Some(Ok(v)) => Some(v),
            Some(Err(text)) => {
                let _ = writeln!(
                    out,
                    "step {}    PostgreSQL returned {text:?}, not a number",
                    i + 1
                );
                return Ok(1);
            }
        };
        if got != step.returned {
            print_mismatch(out, i, step, got, steps.len(), matched);
            return Ok(1);
        }
        matched += 1;
    }
    let count = |t: Table| steps.iter().filter(|s| s.table == t).count();
    let refused = steps.iter().filter(|s| s.refusal.is_some()).count();
    let _ = writeln!(
        out,
        "steps      {} statements: {} on worker_leases, {} on orders ({} fenced out)",
        steps.len(),
        count(Table::WorkerLeases),
        count(Table::Orders),
        refused
    );
    let _ = writeln!(
        out,
        "matches    {matched} of {} — the model and PostgreSQL agree on every outcome",
        steps.len()
    );
    if let Some(path) = f.get("out") {
        write_file(
            path,
            &crate::trace::json::export(&run.scenario, &run.names, &run.trace),
        )?;
        let _ = writeln!(out, "wrote      {path}");
    }
    Ok(0)
}

fn print_mismatch(
    out: Out,
    i: usize,
    step: &SqlStep,
    got: Option<i64>,
    total: usize,
    matched: usize,
) {
    let show = |v: Option<i64>| match v {
        Some(v) => format!("{} {v}", step.statement.returns()),
        None => "no row".to_string(),
    };
    let _ = writeln!(
        out,
        "matches    {matched} of {total}; MISMATCH at step {} (t = {})",
        i + 1,
        crate::sim::time::human_us(step.t.0)
    );
    let _ = writeln!(out, "           {}", step.execute().replace('\n', " "));
    let _ = writeln!(
        out,
        "           model: {}{}; PostgreSQL: {}",
        show(step.returned),
        step.refusal
            .map(|r| format!(" ({})", r.as_str()))
            .unwrap_or_default(),
        show(got)
    );
}
