//! The command-line tool as a user meets it: good runs, and every kind of
//! mistake answered with one line naming the problem and a non-zero exit.

mod common;
use common::run;

fn tmp(name: &str) -> String {
    common::tmp("cli", name)
}

#[test]
fn scenarios_lists_every_builtin() {
    let (code, out, _) = run(&["scenarios"]);
    assert_eq!(code, 0);
    for name in paxos_island::scenario::builtin::names() {
        assert!(out.contains(name), "{name} missing");
    }
}

#[test]
fn run_prints_the_decision_and_writes_a_trace_that_replays() {
    let path = tmp("calm.json");
    let (code, out, _) = run(&["run", "--scenario", "calm", "--seed", "7", "--out", &path]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("decided    α"), "{out}");
    let hash = out
        .lines()
        .find(|l| l.starts_with("trace hash"))
        .unwrap()
        .to_string();
    let (code, out, err) = run(&["replay", &path, "--verify"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("verified"), "{out}");
    assert!(out.contains(hash.trim_start_matches("trace hash ")));
}

#[test]
fn a_tampered_trace_fails_verification() {
    let path = tmp("tampered.json");
    run(&["run", "--scenario", "forced", "--out", &path]);
    let text =
        std::fs::read_to_string(&path)
            .unwrap()
            .replacen("\"value\":\"α\"", "\"value\":\"β\"", 1);
    std::fs::write(&path, text).unwrap();
    let (code, out, _) = run(&["replay", &path, "--verify"]);
    assert_eq!(code, 1);
    assert!(out.contains("MISMATCH"), "{out}");
}

#[test]
fn check_passes_on_the_real_algorithm_and_fails_on_a_mutation() {
    let (code, out, _) = run(&[
        "check",
        "--protocol",
        "paxos",
        "--schedules",
        "300",
        "--seed",
        "5",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("checked 300 schedules") && out.contains("0 violations"),
        "{out}"
    );
    let (code, out, _) = run(&[
        "check",
        "--protocol",
        "paxos",
        "--schedules",
        "5000",
        "--mutation",
        "skip-b3",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("VIOLATION of") && out.contains("schedule seed") && out.contains("at step"),
        "{out}"
    );
    let (code, out, _) = run(&["check", "--protocol", "lease", "--schedules", "200"]);
    assert_eq!(code, 0, "{out}");
    let (code, _, _) = run(&[
        "check",
        "--protocol",
        "lease",
        "--schedules",
        "3000",
        "--fencing",
        "off",
    ]);
    assert_eq!(code, 1);
}

#[test]
fn model_check_multipaxos_is_clean_to_its_depth_and_writes_a_replayable_counterexample_for_a_mutation(
) {
    let (code, out, _) = run(&["model-check", "--protocol", "multipaxos", "--depth", "9"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("0 violations in every schedule of up to 9 steps"),
        "{out}"
    );
    let path = tmp("mp-counterexample.json");
    let (code, out, _) = run(&[
        "model-check",
        "--protocol",
        "multipaxos",
        "--mutation",
        "no-op-free-gaps",
        "--out",
        &path,
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("VIOLATION of agreement") && out.contains("no-op"),
        "{out}"
    );
    let (code, out, err) = run(&["replay", &path, "--verify"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("verified"), "{out}");
}

#[test]
fn model_check_multipaxos_with_the_lease_lets_time_pass_and_catches_a_lease_counted_from_the_reply()
{
    let (code, out, _) = run(&[
        "model-check",
        "--protocol",
        "multipaxos",
        "--lease",
        "--depth",
        "8",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("0 violations in every schedule of up to 8 steps")
            && out.contains("time passing in ticks of 1 s"),
        "{out}"
    );
    let path = tmp("mp-lease-counterexample.json");
    let (code, out, _) = run(&[
        "model-check",
        "--protocol",
        "multipaxos",
        "--mutation",
        "lease-no-drift-margin",
        "--out",
        &path,
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("VIOLATION of single-master") && out.contains("time passes: one tick"),
        "{out}"
    );
    let (code, out, err) = run(&["replay", &path, "--verify"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("verified"), "{out}");
}

#[test]
fn export_scenario_round_trips_through_run() {
    let path = tmp("scenario.json");
    let (code, _, _) = run(&["export-scenario", "kleppmann", "--out", &path]);
    assert_eq!(code, 0);
    let (code, out, err) = run(&["run", "--scenario", &path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("scenario   kleppmann"));
}

#[test]
fn every_mistake_gets_one_line_and_a_nonzero_exit() {
    let corrupt = tmp("corrupt.json");
    std::fs::write(
        &corrupt,
        "{\"format\": \"paxos-island-trace\", \"version\": 1, \"events\": [",
    )
    .unwrap();
    let wrong_version = tmp("v9.json");
    std::fs::write(
        &wrong_version,
        r#"{"format": "paxos-island-trace", "version": 9, "events": []}"#,
    )
    .unwrap();
    let not_ours = tmp("other.json");
    std::fs::write(&not_ours, r#"{"hello": "world"}"#).unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["frobnicate"], "unknown command"),
        (vec!["run"], "run needs --scenario"),
        (
            vec!["run", "--scenario", "nope"],
            "unknown scenario \"nope\"",
        ),
        (
            vec!["run", "--scenario", "calm", "--seed", "abc"],
            "bad --seed \"abc\"",
        ),
        (
            vec!["run", "--scenario", "calm", "--seed", "-1"],
            "bad --seed \"-1\"",
        ),
        (
            vec![
                "run",
                "--scenario",
                "calm",
                "--seed",
                "99999999999999999999999",
            ],
            "bad --seed",
        ),
        (
            vec!["run", "--scenario", "calm", "--seed"],
            "--seed needs a value",
        ),
        (
            vec!["run", "--scenario", "calm", "--colour", "red"],
            "unknown flag --colour",
        ),
        (
            vec!["run", "--scenario", "calm", "--mutation", "skip-b4"],
            "unknown mutation \"skip-b4\"",
        ),
        (
            vec!["run", "--scenario", "calm", "--mutation", "no-fence"],
            "mutation no-fence does not apply",
        ),
        (
            vec!["check", "--schedules", "0"],
            "--schedules must be at least 1",
        ),
        (vec!["check", "--schedules", "many"], "bad --schedules"),
        (
            vec!["check", "--faults", "crash,meteor"],
            "unknown fault \"meteor\"",
        ),
        (
            vec!["check", "--protocol", "raft"],
            "unknown protocol \"raft\"",
        ),
        (
            vec!["check", "--protocol", "lease", "--mutation", "skip-b3"],
            "does not apply to --protocol lease",
        ),
        (vec!["replay"], "replay needs exactly one trace file"),
        (
            vec!["replay", "/nonexistent/x.json"],
            "cannot read /nonexistent/x.json",
        ),
        (vec!["replay", &corrupt], "not valid JSON"),
        (
            vec!["replay", &wrong_version, "--verify"],
            "trace version 9 is not supported",
        ),
        (vec!["replay", &not_ours], "not a Paxos Island trace"),
        (
            vec!["model-check", "--protocol", "lease"],
            "model-check does not support --protocol lease",
        ),
        (
            vec!["model-check", "--protocol", "multipaxos", "--rms", "3"],
            "--rms does not apply to --protocol multipaxos",
        ),
        (
            vec!["model-check", "--protocol", "multipaxos", "--depth", "99"],
            "depth 99: choose 1 to 16",
        ),
        (
            vec!["model-check", "--protocol", "multipaxos", "--replicas", "4"],
            "4 replicas: choose 3 or 5",
        ),
        (
            vec!["model-check", "--protocol", "multipaxos", "--ticks", "2"],
            "--ticks needs the lease on (--lease)",
        ),
        (
            vec![
                "model-check",
                "--protocol",
                "multipaxos",
                "--lease",
                "--ticks",
                "9",
            ],
            "9 ticks: choose 0 to 6",
        ),
        (
            vec!["model-check", "--protocol", "paxos", "--lease"],
            "--lease does not apply to --protocol paxos",
        ),
        (
            vec!["model-check", "--protocol", "paxos", "--depth", "3"],
            "--depth does not apply to --protocol paxos",
        ),
    ];
    for (args, want) in cases {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: exit {code}, out {out:?}, err {err:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "{args:?}: {err:?} should mention {want:?}"
        );
    }
}

#[test]
fn the_binary_itself_exits_cleanly_on_bad_input() {
    let exe = env!("CARGO_BIN_EXE_paxos-island");
    let out = std::process::Command::new(exe)
        .args(["run", "--scenario", "calm", "--seed", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: bad --seed") && !err.contains("panicked"),
        "{err}"
    );
}

/// `pg` and `etcd` without a server, or with nonsense: one line, exit 2.
/// (With real servers they run in scripts/db-tests.sh.)
#[test]
fn real_server_commands_refuse_bad_input_and_absent_servers_in_one_line() {
    let no_pg = "host=/nonexistent/paxos-island port=1 user=nobody dbname=postgres";
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["pg", "--scenario", "kleppmann", "--url", no_pg],
            "cannot reach PostgreSQL at",
        ),
        (
            vec!["pg", "--scenario", "kleppmann", "--url", "postgres://[::1"],
            "bad --url",
        ),
        (
            vec!["pg", "--scenario", "calm", "--url", no_pg],
            "calm is a paxos scenario",
        ),
        (vec!["pg", "--url", no_pg], "pg needs --scenario NAME"),
        (
            vec![
                "pg",
                "--scenario",
                "kleppmann",
                "--fencing",
                "off",
                "--url",
                no_pg,
            ],
            "--fencing is for --live",
        ),
        (
            vec!["pg", "--live", "--scenario", "kleppmann", "--url", no_pg],
            "drop --scenario",
        ),
        (
            vec!["pg", "--live", "--fencing", "on", "--url", no_pg],
            "bad --fencing \"on\"",
        ),
        (
            vec!["pg", "--live", "--ttl-ms", "5", "--url", no_pg],
            "--ttl-ms 5 is out of range",
        ),
        (
            vec![
                "pg",
                "--live",
                "--ttl-ms",
                "1000",
                "--stall-ms",
                "500",
                "--url",
                no_pg,
            ],
            "the stall has to outlast the lease",
        ),
        (
            vec!["pg", "--live", "--url", no_pg],
            "cannot reach PostgreSQL at",
        ),
        (
            vec!["etcd", "--url", "https://127.0.0.1:2379"],
            "not an http:// URL",
        ),
        (
            vec!["etcd", "--url", "http://127.0.0.1:9/v3"],
            "nothing after it",
        ),
        (
            vec!["etcd", "--url", "http://127.0.0.1:9", "--fencing", "token"],
            "--fencing token has no etcd form",
        ),
        (
            vec!["etcd", "--url", "http://127.0.0.1:9", "--ttl-ms", "1500"],
            "whole seconds",
        ),
        (
            vec!["etcd", "--url", "http://127.0.0.1:9"],
            "cannot reach etcd at http://127.0.0.1:9",
        ),
        (
            vec!["etcd", "--workers", "9", "--url", "http://127.0.0.1:9"],
            "--workers 9: use 1 to 5",
        ),
    ];
    for (args, want) in cases {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: exit {code}, out {out:?}, err {err:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "{args:?}: {err:?} should mention {want:?}"
        );
    }
}
