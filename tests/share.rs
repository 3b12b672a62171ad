//! Share links: every built-in scenario survives the trip through a link
//! bit for bit (same scenario, same trace hash), and every way a link goes
//! wrong in a user's hands gets its own message.

use paxos_island::scenario::builtin;
use paxos_island::scenario::run::Run;
use paxos_island::trace::share::{self, ShareError};

#[test]
fn every_builtin_round_trips_to_the_same_run() {
    let mut report = Vec::new();
    for name in builtin::names() {
        let s = builtin::get(name).expect("listed");
        let link = share::encode(&s);
        assert!(link.starts_with("s1.") && link.is_ascii(), "{name}: {link}");
        assert!(
            !link.contains(['#', '&', '?', '/', '+', '=', ' ']),
            "{name}: not fragment-safe: {link}"
        );
        let back = share::decode(&link).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, s, "{name}: the scenario changed on the way");
        let url = format!("https://example.org/paxos-island/#s={link}");
        assert_eq!(
            share::decode(&url).as_ref(),
            Ok(&s),
            "{name}: as a full URL"
        );
        let (a, b) = (Run::record(&s).unwrap(), Run::record(&back).unwrap());
        assert_eq!(a.hash(), b.hash(), "{name}: the run changed on the way");
        let json = serde_json::to_string(&s).unwrap().len();
        report.push(format!(
            "{name:22} {:4} chars (compact JSON {json} bytes)",
            link.len()
        ));
        // A link should fit a chat message and any browser's URL limit.
        assert!(link.len() < 1_000, "{name}: {} characters", link.len());
    }
    eprintln!("share link lengths:\n{}", report.join("\n"));
}

#[test]
fn a_cut_link_says_it_is_cut() {
    let link = share::encode(&builtin::get("forced").unwrap());
    assert_eq!(share::decode(""), Err(ShareError::Empty));
    assert_eq!(
        share::decode("https://example.org/#s="),
        Err(ShareError::Empty)
    );
    for len in 1..link.len() {
        assert_eq!(
            share::decode(&link[..len]),
            Err(ShareError::Cut),
            "cut after {len} characters"
        );
    }
    let msg = ShareError::Cut.to_string();
    assert!(
        msg.contains("cut short") && msg.contains("whole link"),
        "{msg}"
    );
}

#[test]
fn a_character_no_link_contains_is_named_not_taken_for_a_cut() {
    assert_eq!(share::decode("#s=s1.%%%zz"), Err(ShareError::BadChar('%')));
    let link = share::encode(&builtin::get("forced").unwrap());
    let escaped = format!("{}%20{}", &link[..10], &link[10..]);
    assert_eq!(share::decode(&escaped), Err(ShareError::BadChar('%')));
    let msg = ShareError::BadChar('%').to_string();
    assert!(
        msg.contains("'%'") && msg.contains("no Paxos Island link contains"),
        "{msg}"
    );
}

#[test]
fn a_changed_character_fails_the_checksum() {
    let link = share::encode(&builtin::get("lossy").unwrap());
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let bytes = link.as_bytes();
    for i in 3..link.len() {
        if bytes[i] == b'.' {
            continue;
        }
        for c in ["A", "z", "-"] {
            if &link[i..i + 1] == c || !alphabet.contains(c) {
                continue;
            }
            let changed = format!("{}{c}{}", &link[..i], &link[i + 1..]);
            assert_eq!(
                share::decode(&changed),
                Err(ShareError::Changed),
                "changed at {i}"
            );
        }
    }
    // A character added at the end is a change too, not a cut.
    assert_eq!(share::decode(&format!("{link}A")), Err(ShareError::Changed));
    assert!(ShareError::Changed
        .to_string()
        .contains("changed or mistyped"));
}

#[test]
fn other_versions_and_other_things_are_named() {
    let link = share::encode(&builtin::get("calm").unwrap());
    let v2 = link.replacen("s1.", "s2.", 1);
    assert_eq!(
        share::decode(&v2),
        Err(ShareError::UnknownVersion("s2".into()))
    );
    assert!(share::decode(&v2)
        .unwrap_err()
        .to_string()
        .contains("another version"));
    assert_eq!(share::decode("hello world"), Err(ShareError::NotALink));
    assert_eq!(share::decode("x1.abc.defghi"), Err(ShareError::NotALink));
    assert!(matches!(
        share::decode(&"s1.".repeat(30_000)),
        Err(ShareError::TooLong(_))
    ));
}

#[test]
fn a_link_that_unpacks_to_something_else_is_refused_with_the_reason() {
    // Well sealed, but not base64url / not deflate / not a scenario / not valid.
    assert!(matches!(
        share::decode(&share::seal("not*base64")),
        Err(ShareError::BadChar('*'))
    ));
    assert!(matches!(
        share::decode(&share::seal("AAAAAAAA")),
        Err(ShareError::Damaged(_))
    ));
    let e = share::decode(&share::pack(br#"{"hello": "world"}"#)).unwrap_err();
    assert!(matches!(e, ShareError::NotAScenario(_)), "{e}");
    assert!(e.to_string().contains("not to a scenario"), "{e}");
    let mut s = builtin::get("calm").unwrap();
    s.stop_at_us = 0;
    let e = share::decode(&share::encode(&s)).unwrap_err();
    assert!(matches!(e, ShareError::Invalid(_)), "{e}");
    assert!(e.to_string().contains("stop_at_us"), "{e}");
    s = builtin::get("calm").unwrap();
    s.nodes[1].id = "Α".into();
    let e = share::decode(&share::encode(&s)).unwrap_err();
    assert!(e.to_string().contains("appears twice"), "{e}");
    // A zip bomb: a small link that would unpack to megabytes.
    let bomb = share::pack(&vec![b' '; 3_000_000]);
    assert!(bomb.len() < 10_000);
    assert!(matches!(share::decode(&bomb), Err(ShareError::Damaged(_))));
}
