//! `export` and `share` on the command line, and `run` reading share links:
//! good runs, and every mistake answered with one line and exit code 2.

mod common;
use common::run;

fn tmp(name: &str) -> String {
    common::tmp("cli-export", name)
}

fn hash_line(out: &str) -> String {
    out.lines()
        .find(|l| l.starts_with("trace hash"))
        .expect("a trace hash line")
        .to_string()
}

#[test]
fn every_format_exports_a_scenario() {
    for (format, start) in [
        ("json", "{\"events\""),
        ("shiviz", "(?<host>\\S*) (?<clock>{.*})\\n(?<event>.*)\n\n"),
        ("mermaid", "sequenceDiagram\n    participant n0 as Α\n"),
        ("svg", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "),
    ] {
        let (code, out, err) = run(&["export", "--format", format, "--scenario", "calm"]);
        assert_eq!(code, 0, "{format}: {err}");
        assert!(
            out.starts_with(start),
            "{format}: {}",
            &out[..out.len().min(120)]
        );
        let path = tmp(&format!("calm.{format}"));
        let (code, out, _) = run(&[
            "export",
            "--format",
            format,
            "--scenario",
            "calm",
            "--out",
            &path,
        ]);
        assert_eq!(
            (code, out.trim()),
            (0, format!("wrote      {path}").as_str())
        );
        assert!(std::fs::read_to_string(&path).unwrap().starts_with(start));
    }
    let path = tmp("calm.json");
    run(&[
        "export",
        "--format",
        "json",
        "--scenario",
        "calm",
        "--out",
        &path,
    ]);
    let (code, out, _) = run(&["replay", &path, "--verify"]);
    assert_eq!(code, 0, "an exported trace verifies: {out}");
}

#[test]
fn a_window_narrows_the_drawing() {
    let (_, all, _) = run(&["export", "--format", "mermaid", "--scenario", "forced"]);
    let (code, part, err) = run(&[
        "export",
        "--format",
        "mermaid",
        "--scenario",
        "forced",
        "--from-us",
        "0",
        "--to-us",
        "200000",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(part.lines().count() < all.lines().count());
    let (code, log, _) = run(&[
        "export",
        "--format",
        "shiviz",
        "--scenario",
        "forced",
        "--from-us=100000",
        "--to-us=300000",
    ]);
    assert_eq!(code, 0);
    assert!(
        log.lines().skip(2).step_by(2).all(|l| l.contains(" {")),
        "host lines"
    );
    let (code, svg, _) = run(&[
        "export",
        "--format",
        "svg",
        "--scenario",
        "forced",
        "--to-us",
        "500000",
    ]);
    assert_eq!(code, 0);
    assert!(svg.contains("500 ms") && svg.trim_end().ends_with("</svg>"));
}

#[test]
fn export_reads_a_trace_file_and_refuses_a_doctored_one() {
    let path = tmp("forced-trace.json");
    let (code, _, _) = run(&["run", "--scenario", "forced", "--out", &path]);
    assert_eq!(code, 0);
    let (code, out, err) = run(&["export", "--format", "mermaid", "--trace", &path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Note over n0: crash"), "{out}");
    let doctored = tmp("doctored.json");
    let text =
        std::fs::read_to_string(&path)
            .unwrap()
            .replacen("\"value\":\"α\"", "\"value\":\"β\"", 1);
    std::fs::write(&doctored, text).unwrap();
    let (code, _, err) = run(&["export", "--format", "svg", "--trace", &doctored]);
    assert_eq!(code, 2);
    assert!(
        err.contains("differ from a re-run") && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn share_prints_a_link_that_run_reads_back() {
    let (code, link, _) = run(&["share", "partition-heal"]);
    assert_eq!(code, 0);
    let link = link.trim().to_string();
    assert!(
        link.starts_with("s1.") && !link.contains(char::is_whitespace),
        "{link}"
    );
    let (_, direct, _) = run(&["run", "--scenario", "partition-heal"]);
    for form in [
        link.clone(),
        format!("https://example.org/app/#s={link}"),
        format!("#s={link}"),
    ] {
        let (code, out, err) = run(&["run", "--scenario", &form]);
        assert_eq!(code, 0, "{form}: {err}");
        assert_eq!(hash_line(&out), hash_line(&direct), "{form}");
    }
    let (code, seeded, _) = run(&["share", "calm", "--seed", "7"]);
    assert_eq!(code, 0);
    let (_, a, _) = run(&["run", "--scenario", seeded.trim()]);
    let (_, b, _) = run(&["run", "--scenario", "calm", "--seed", "7"]);
    assert_eq!(hash_line(&a), hash_line(&b));
    let (code, svg, _) = run(&["export", "--format", "svg", "--scenario", &link]);
    assert_eq!(code, 0);
    assert!(svg.contains("partition-heal"));
}

#[test]
fn every_mistake_gets_one_line_and_exit_2() {
    let (_, link, _) = run(&["share", "calm"]);
    let link = link.trim().to_string();
    let cut = link[..link.len() - 10].to_string();
    let mut changed = link.clone().into_bytes();
    let i = link.len() / 2;
    changed[i] = if changed[i] == b'A' { b'B' } else { b'A' };
    let changed = String::from_utf8(changed).unwrap();
    let v9 = link.replacen("s1.", "s9.", 1);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["export", "--scenario", "calm"],
            "export needs --format",
        ),
        (
            vec!["export", "--format", "png", "--scenario", "calm"],
            "unknown format \"png\"",
        ),
        (vec!["export", "--format", "svg"], "export needs --scenario"),
        (
            vec![
                "export",
                "--format",
                "svg",
                "--scenario",
                "calm",
                "--trace",
                "x.json",
            ],
            "either --scenario or --trace",
        ),
        (
            vec![
                "export",
                "--format",
                "svg",
                "--scenario",
                "calm",
                "--from-us",
                "9",
                "--to-us",
                "9",
            ],
            "must be below",
        ),
        (
            vec![
                "export",
                "--format",
                "svg",
                "--scenario",
                "calm",
                "--to-us",
                "soon",
            ],
            "bad --to-us \"soon\"",
        ),
        (
            vec![
                "export",
                "--format",
                "json",
                "--scenario",
                "calm",
                "--to-us",
                "5",
            ],
            "do not apply to --format json",
        ),
        (
            vec![
                "export",
                "--format",
                "svg",
                "--trace",
                "/nonexistent/t.json",
            ],
            "cannot read /nonexistent/t.json",
        ),
        (
            vec!["export", "--format", "svg", "--scenario", "nope"],
            "unknown scenario \"nope\"",
        ),
        (
            vec!["export", "--format", "svg", "--scenario", "calm", "extra"],
            "unexpected argument",
        ),
        (
            vec![
                "export",
                "--format",
                "svg",
                "--scenario",
                "calm",
                "--from-us",
                "18446744073709551615",
            ],
            "must be below",
        ),
        (vec!["share"], "share needs one scenario"),
        (vec!["share", "nope"], "unknown scenario"),
        (vec!["run", "--scenario", &cut], "cut short"),
        (vec!["run", "--scenario", &changed], "changed or mistyped"),
        (vec!["run", "--scenario", &v9], "another version"),
        (
            vec!["run", "--scenario", "https://example.org/#s="],
            "holds no scenario",
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
