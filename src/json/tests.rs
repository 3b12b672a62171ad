use super::{object, parse, read, Error, FromValue};
use crate::sim::rng::{Rng, Stream};
use serde_json::Value;

/// serde_json's own reader, the reference.
fn theirs(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(text)
}

fn agree(text: &str) {
    match (parse(text.as_bytes()), theirs(text)) {
        (Ok(ours), Ok(want)) => assert_eq!(ours, want, "{text:?}"),
        (Err(_), Err(_)) => {}
        // Our one stricter rule: serde_json keeps the last of a repeated key.
        (Err(e), Ok(_)) if e.message.ends_with("appears twice") => {}
        (ours, want) => panic!("{text:?}: ours {ours:?}, serde_json {want:?}"),
    }
}

#[test]
fn documents_read_as_serde_json_reads_them() {
    for t in [
        "null",
        "true",
        "false",
        "0",
        "-1",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "0.07",
        "0.33299999999999996",
        "1e3",
        "1E-3",
        "2.5e+2",
        "-0.0",
        "1.7976931348623157e308",
        "5e-324",
        "1e-400",
        r#""""#,
        r#""a\"b\\c\/d\b\f\n\r\t""#,
        r#""\u00e9\u3042\ud83d\ude00""#,
        "\"議会 Paxos\"",
        "[]",
        "[1,2,[3,[4]]]",
        "{}",
        r#"{"a":1,"b":[true,null],"c":{"d":"e"}}"#,
        " \t\n\r{ \"a\" : [ 1 , 2 ] } \n",
    ] {
        agree(t);
        assert!(parse(t.as_bytes()).is_ok(), "{t:?} refused");
    }
}

#[test]
fn nonsense_is_refused_as_serde_json_refuses_it() {
    for t in [
        "",
        " ",
        "nul",
        "tru",
        "True",
        "01",
        "-",
        "1.",
        ".5",
        "+1",
        "1e",
        "1e+",
        "0x10",
        "NaN",
        "Infinity",
        "1e309",
        "-1e309",
        "[1,]",
        "[1 2]",
        "{\"a\"}",
        "{\"a\":}",
        "{a:1}",
        "{\"a\":1,}",
        "{\"a\":1",
        "[",
        "\"abc",
        "\"\\x\"",
        "\"\\u12\"",
        "\"\\ud800\"",
        "\"\\udc00\"",
        "\"\\ud800\\u0041\"",
        "\"a\u{1}b\"",
        "1 2",
        "[] []",
        "{}x",
        "\"\\",
        "[[[",
    ] {
        agree(t);
        assert!(parse(t.as_bytes()).is_err(), "{t:?} accepted");
    }
    assert!(parse(b"\"\xff\"").is_err());
}

#[test]
fn errors_say_where() {
    let e = parse(b"{\n  \"a\": 1,\n  \"b\": tru\n}").unwrap_err();
    assert_eq!((e.line, e.column), (3, 8), "{e}");
    assert_eq!(e.to_string(), "expected value at line 3 column 8");
    // Columns count characters: the Japanese key is three, not nine bytes.
    let e = parse("{\"議会名\": x}".as_bytes()).unwrap_err();
    assert_eq!((e.line, e.column), (1, 9), "{e}");
    let e = parse(b"[1, 2").unwrap_err();
    assert!(e.message.contains("EOF"), "{e}");
}

#[test]
fn our_two_choices_a_repeated_key_and_a_byte_order_mark() {
    let e = parse(br#"{"seed": 1, "seed": 2}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the key \"seed\" appears twice at line 1 column 13"
    );
    assert_eq!(parse(b"\xEF\xBB\xBF[1]").unwrap(), serde_json::json!([1]));
}

#[test]
fn nesting_stops_at_serde_jsons_limit() {
    let ok = format!("{}{}", "[".repeat(127), "]".repeat(127));
    agree(&ok);
    assert!(parse(ok.as_bytes()).is_ok());
    let deep = format!("{}{}", "[".repeat(128), "]".repeat(128));
    agree(&deep);
    assert_eq!(
        parse(deep.as_bytes()).unwrap_err().message,
        "recursion limit exceeded"
    );
    // Far deeper input ends with the same message, not a stack overflow.
    assert!(parse("[".repeat(100_000).as_bytes()).is_err());
}

#[test]
fn a_type_is_read_by_hand_from_the_value() {
    #[derive(Debug, PartialEq)]
    struct S {
        seed: u64,
        loss: f64,
        name: Option<String>,
    }
    impl FromValue for S {
        fn from_value(v: Value) -> Result<S, String> {
            let mut f = object(v)?;
            let s = S {
                seed: f.read("seed")?,
                loss: f.read("loss")?,
                name: f.opt("name")?,
            };
            f.end()?;
            Ok(s)
        }
    }
    let s: S = read(br#"{"seed": 7, "loss": 0.30000000000000004}"#).unwrap();
    assert_eq!(
        s,
        S {
            seed: 7,
            loss: 0.1 + 0.2,
            name: None
        }
    );
    let s: S = read(br#"{"seed": 7, "loss": 1, "name": null}"#).unwrap();
    assert_eq!((s.loss, s.name), (1.0, None));
    let e: Error = read::<S>(br#"{"seed": -1, "loss": 0}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value for `seed`: integer `-1`, expected u64"
    );
    let e = read::<S>(br#"{"seed": 1.5, "loss": 0}"#).unwrap_err();
    assert_eq!(
        e.message,
        "invalid type for `seed`: floating point `1.5`, expected u64"
    );
    let e = read::<S>(br#"{"seed": 1, "loss": 0, "extra": 1}"#).unwrap_err();
    assert!(e.message.starts_with("unknown field `extra`"), "{e}");
    let e = read::<S>(br#"{"loss": 0}"#).unwrap_err();
    assert_eq!(e.message, "missing field `seed`");
    let e = read::<Vec<S>>(br#"[{"seed": 1, "loss": 0}, {"seed": 1, "loss": "x"}]"#).unwrap_err();
    assert_eq!(
        e.message,
        "item 2: invalid type for `loss`: string \"x\", expected f64"
    );
    let e = read::<Vec<(u8, bool)>>(b"[[1, true], [300, false]]").unwrap_err();
    assert_eq!(
        e.message,
        "item 2: item 1: invalid value: integer `300`, expected u8"
    );
    let e = read::<(u8, bool)>(b"[1]").unwrap_err();
    assert_eq!(e.message, "invalid length 1, expected a pair");
}

/// A seeded JSON document (the simulator's generator, so failures repeat).
fn document(r: &mut Rng, depth: u32, out: &mut String) {
    match r.below(if depth > 3 { 5 } else { 7 }) {
        0 => out.push_str(["null", "true", "false"][r.below(3) as usize]),
        1 => out.push_str(&(r.next_u64() >> r.below(64)).to_string()),
        2 => {
            let x = f64::from_bits(r.next_u64() & 0x7FEF_FFFF_FFFF_FFFF);
            out.push_str(&format!("{x:e}"));
        }
        3 => out.push_str(&format!("-{}.{}", r.below(1000), r.below(1000))),
        4 => {
            let pieces = [
                "a",
                "é",
                "議",
                "\\n",
                "\\\"",
                "\\u00e9",
                "\\ud83d\\ude00",
                " ",
            ];
            out.push('"');
            for _ in 0..r.below(5) {
                out.push_str(pieces[r.below(pieces.len() as u64) as usize]);
            }
            out.push('"');
        }
        5 => {
            out.push('[');
            for i in 0..r.below(4) {
                if i > 0 {
                    out.push_str(", ");
                }
                document(r, depth + 1, out);
            }
            out.push(']');
        }
        _ => {
            out.push('{');
            for i in 0..r.below(4) {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&format!("\"k{i}\": "));
                document(r, depth + 1, out);
            }
            out.push('}');
        }
    }
}

#[test]
fn seeded_documents_and_their_damaged_copies_read_as_serde_json_reads_them() {
    let mut r = Rng::new(2026, Stream::Schedule);
    let mut refused = 0;
    for _ in 0..5_000 {
        let mut text = String::new();
        document(&mut r, 0, &mut text);
        agree(&text);
        let mut bytes = text.into_bytes();
        let at = r.below(bytes.len() as u64) as usize;
        match r.below(3) {
            0 => {
                bytes.remove(at);
            }
            1 => bytes.insert(at, bytes[at]),
            _ => bytes[at] = b"{}[],:\"\\-.e0 x"[r.below(14) as usize],
        }
        if let Ok(damaged) = String::from_utf8(bytes) {
            agree(&damaged);
            refused += usize::from(parse(damaged.as_bytes()).is_err());
        }
    }
    assert!(refused > 1_000, "only {refused} damaged copies refused");
}
