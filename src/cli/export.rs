//! `export` and `share`: the CLI's side of the exports the page offers, so a
//! run can be turned into a ShiViz log, a Mermaid diagram, an SVG or a trace
//! file — or a share link — without a browser, in scripts and in CI.

use super::{load_scenario, parse_flags, read_file, write_file, Out, Usage};
use crate::scenario::run::Run;
use crate::trace::{self, json::events_json};
use crate::viz::spacetime;

#[derive(Copy, Clone, PartialEq)]
enum Format {
    ShiViz,
    Mermaid,
    Svg,
    Json,
}

pub(super) fn cmd_export(args: &[String], out: Out) -> Result<i32, Usage> {
    let f = parse_flags(
        args,
        &["format", "scenario", "trace", "from-us", "to-us", "out"],
        &[],
    )?;
    f.no_positional()?;
    let format = match f.get("format") {
        Some("shiviz") => Format::ShiViz,
        Some("mermaid") => Format::Mermaid,
        Some("svg") => Format::Svg,
        Some("json") => Format::Json,
        Some(x) => {
            return Err(Usage(format!(
                "unknown format {x:?}; choose shiviz, mermaid, svg or json"
            )))
        }
        None => {
            return Err(Usage(
                "export needs --format shiviz|mermaid|svg|json".into(),
            ))
        }
    };
    let run = match (f.get("scenario"), f.get("trace")) {
        (Some(name), None) => {
            let s = load_scenario(name)?;
            Run::record(&s).map_err(|e| Usage(format!("scenario {name}: {e}")))?
        }
        (None, Some(path)) => run_of_trace(path)?,
        (Some(_), Some(_)) => {
            return Err(Usage("give either --scenario or --trace, not both".into()))
        }
        (None, None) => {
            return Err(Usage(
                "export needs --scenario NAME|FILE|LINK or --trace FILE".into(),
            ))
        }
    };
    let from = f.u64("from-us", "a time in µs")?;
    let to = f.u64("to-us", "a time in µs")?;
    if format == Format::Json && (from.is_some() || to.is_some()) {
        return Err(Usage(
            "--from-us/--to-us do not apply to --format json: a trace file is always the whole run"
                .into(),
        ));
    }
    let from = from.unwrap_or(0);
    let to = to.unwrap_or(run.end.0.max(from.saturating_add(1)));
    if from >= to {
        return Err(Usage(format!(
            "--from-us {from} must be below --to-us {to}"
        )));
    }
    let text = match format {
        Format::Json => trace::json::export(&run.scenario, &run.names, &run.trace),
        Format::ShiViz => {
            // The window is a slice of the trace; messages that cross its
            // edge become plain local events, which ShiViz accepts.
            let lo = run.trace.partition_point(|e| e.t.0 < from);
            let hi = run.trace.partition_point(|e| e.t.0 <= to);
            trace::shiviz::export(&run.names, &run.trace[lo..hi])
        }
        Format::Mermaid => trace::mermaid::export(&run.names, &run.trace, from, to),
        Format::Svg => {
            let height = (40.0 + 36.0 * run.names.len() as f64).max(160.0);
            let d = spacetime::layout(&run, &spacetime::Options::new(from, to, 1200.0, height));
            let title = format!(
                "{} (seed {}), {} µs to {} µs",
                run.scenario.name, run.scenario.seed, from, to
            );
            trace::svg::render(&d, &title)
        }
    };
    match f.get("out") {
        Some(path) => {
            write_file(path, &text)?;
            let _ = writeln!(out, "wrote      {path}");
        }
        None => {
            let _ = write!(out, "{text}");
            if !text.ends_with('\n') {
                let _ = writeln!(out);
            }
        }
    }
    Ok(0)
}

/// Re-simulate the scenario a trace file carries, and insist that the result
/// is the recorded run: an export of a *different* run than the file shows
/// would mislead whoever reads it.
fn run_of_trace(path: &str) -> Result<Run, Usage> {
    let text = read_file(path)?;
    let imported = trace::import::parse(&text).map_err(|e| Usage(format!("{path}: {e}")))?;
    let Some(scenario) = &imported.scenario else {
        let why = imported
            .scenario_problem
            .unwrap_or_else(|| "it has none".into());
        return Err(Usage(format!(
            "{path}: the trace's scenario cannot be used ({why}), so it cannot be exported"
        )));
    };
    let run = Run::record(scenario).map_err(|e| Usage(format!("{path}: {e}")))?;
    let ours = events_json(&run.names, &run.trace);
    if let Some(i) =
        (0..ours.len().max(imported.events.len())).find(|&i| ours.get(i) != imported.events.get(i))
    {
        return Err(Usage(format!(
            "{path}: the recorded events differ from a re-run of its scenario from event {i} on; `replay --verify` shows how"
        )));
    }
    Ok(run)
}

pub(super) fn cmd_share(args: &[String], out: Out) -> Result<i32, Usage> {
    let f = parse_flags(args, &["seed"], &[])?;
    let [name] = f.positional.as_slice() else {
        return Err(Usage("share needs one scenario name or file".into()));
    };
    let mut s = load_scenario(name)?;
    if let Some(seed) = f.u64("seed", "a seed")? {
        s.seed = seed;
    }
    let _ = writeln!(out, "{}", trace::share::encode(&s));
    Ok(0)
}
