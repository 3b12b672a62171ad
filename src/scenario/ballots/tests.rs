//! One test per rule of §2.1 of "The Part-Time Parliament", on Figure 1 and
//! on edits of it. Rows of Figure 1: 0 = ballot 2, 1 = 5, 2 = 14, 3 = 27, 4 = 29.

use super::*;

const B2_ROW: usize = 0;
const B5_ROW: usize = 1;
const B14_ROW: usize = 2;
const B27_ROW: usize = 3;
const B29_ROW: usize = 4;

fn set(names: &[&str]) -> crate::sorted::VecSet<Priest> {
    names.iter().map(|n| Priest::new(*n)).collect()
}

/// Test-only English, one line per row, so a table can be pinned at a glance.
fn english(report: &Report) -> Vec<String> {
    report
        .rows
        .iter()
        .map(|r| {
            let ok = if r.successful { " successful" } else { "" };
            match &r.b3 {
                B3::Free => format!("{}{ok}: free", r.number),
                B3::Forced { by, satisfied } => {
                    let who: Vec<&str> = by.voters.iter().map(|p| p.0.as_str()).collect();
                    let verdict = if *satisfied { "ok" } else { "VIOLATED" };
                    format!(
                        "{}{ok}: forced {} by ballot {} via {} ({verdict})",
                        r.number,
                        by.decree.0,
                        by.number,
                        who.join(" ")
                    )
                }
            }
        })
        .collect()
}

#[test]
fn figure1_is_lamports_table() {
    let rows = figure1();
    let numbers: Vec<i64> = rows.iter().map(|r| r.number).collect();
    assert_eq!(numbers, [2, 5, 14, 27, 29]);
    let decrees: Vec<&str> = rows.iter().map(|r| r.decree.0.as_str()).collect();
    assert_eq!(decrees, ["α", "β", "α", "β", "β"]);
    assert_eq!(rows[B2_ROW].quorum, set(&["Α", "Β", "Γ", "Δ"]));
    assert_eq!(rows[B5_ROW].quorum, set(&["Α", "Β", "Γ", "Ε"]));
    assert_eq!(rows[B14_ROW].quorum, set(&["Β", "Δ", "Ε"]));
    assert_eq!(rows[B27_ROW].quorum, set(&["Α", "Γ", "Δ"]));
    assert_eq!(rows[B29_ROW].quorum, set(&["Β", "Γ", "Δ"]));
    assert_eq!(rows[B2_ROW].voters, set(&["Δ"]));
    assert_eq!(rows[B5_ROW].voters, set(&["Γ"]));
    assert_eq!(rows[B14_ROW].voters, set(&["Β", "Ε"]));
    assert_eq!(rows[B27_ROW].voters, set(&["Α", "Γ", "Δ"]));
    // Ballot 29's voters are ours, not Lamport's, and say so.
    assert_eq!(rows[B29_ROW].voters, set(&["Γ"]));
    let flagged: Vec<bool> = rows.iter().map(|r| r.reconstructed).collect();
    assert_eq!(flagged, [false, false, false, false, true]);
}

#[test]
fn figure1_satisfies_b1_b2_b3_and_only_27_succeeds() {
    let report = check(&figure1());
    assert!(report.input_ok(), "{:?}", report.errors);
    assert!(report.remarks.is_empty());
    assert!(report.holds(), "{:?}", report.failed());
    assert!(report.b1.is_empty() && report.b2.is_empty());
    assert_eq!(report.consistency.successful, [B27_ROW]);
    let successful: Vec<bool> = report.rows.iter().map(|r| r.successful).collect();
    assert_eq!(successful, [false, false, false, true, false]);
}

#[test]
fn b3_walkthrough_matches_lamports_text() {
    let report = check(&figure1());
    assert_eq!(
        english(&report),
        [
            "2: free",
            "5: free",
            "14: forced α by ballot 2 via Δ (ok)",
            "27 successful: forced β by ballot 5 via Γ (ok)",
            "29: forced β by ballot 27 via Γ Δ (ok)",
        ]
    );
    // The structured form the UI reads, for one row.
    let B3::Forced {
        by,
        satisfied: true,
    } = &report.rows[B14_ROW].b3
    else {
        panic!("ballot 14 is forced and satisfied")
    };
    assert_eq!((by.row, by.number, by.decree.0.as_str()), (B2_ROW, 2, "α"));
    assert_eq!(by.voters, set(&["Δ"]));
    assert!(!by.ambiguous);
}

#[test]
fn theorem1_figure1_pins_everything_after_27_to_beta() {
    let c = check(&figure1()).consistency;
    assert!(c.theorem1_holds());
    assert!(c.lemma_breaks.is_empty());
    assert_eq!(c.agreed_decree(), Some(&Decree::new("β")));
    let pin = c.pin.expect("ballot 27 succeeded");
    assert_eq!(
        (pin.row, pin.number, pin.decree.0.as_str()),
        (B27_ROW, 27, "β")
    );
    assert_eq!(pin.later, [B29_ROW]);
}

#[test]
fn b3_violation_names_the_forcing_vote() {
    let mut rows = figure1();
    rows[B14_ROW].decree = Decree::new("β");
    let report = check(&rows);
    assert_eq!(report.failed(), [Condition::B3]);
    let bad: Vec<usize> = report
        .rows
        .iter()
        .filter(|r| !r.b3_holds())
        .map(|r| r.row)
        .collect();
    assert_eq!(bad, [B14_ROW]);
    let B3::Forced {
        by,
        satisfied: false,
    } = &report.rows[B14_ROW].b3
    else {
        panic!("ballot 14 is forced and violated")
    };
    // Δ's vote in ballot 2, for α.
    assert_eq!((by.row, by.number, by.decree.0.as_str()), (B2_ROW, 2, "α"));
    assert_eq!(by.voters, set(&["Δ"]));
}

#[test]
fn b2_violation_names_the_disjoint_pair() {
    let mut rows = figure1();
    // Ballot 14's quorum {Β, Ε} misses ballot 27's {Α, Γ, Δ} entirely.
    rows[B14_ROW].quorum = set(&["Β", "Ε"]);
    let report = check(&rows);
    assert_eq!(report.failed(), [Condition::B2]);
    assert_eq!(
        report.b2,
        [DisjointPair {
            first: B14_ROW,
            second: B27_ROW
        }]
    );
}

#[test]
fn b1_violation_names_the_duplicate_number() {
    let mut rows = figure1();
    // Renumbering 29 as 14 keeps B2 and B3 true (the new 14 is forced to β
    // by Γ's vote in 5, and 27 is then forced to β by Γ's vote in the new 14).
    rows[B29_ROW].number = 14;
    let report = check(&rows);
    assert_eq!(report.failed(), [Condition::B1]);
    assert_eq!(
        report.b1,
        [DuplicateNumber {
            number: 14,
            rows: vec![B14_ROW, B29_ROW]
        }]
    );
}

#[test]
fn b1_violation_can_make_maxvote_ambiguous() {
    let mut rows = figure1();
    rows[B5_ROW].number = 2;
    let report = check(&rows);
    // Ballot 27's quorum voted in both ballots numbered 2 (Δ for α, Γ for β):
    // which is "latest" is undefined, so the report says so.
    let B3::Forced { by, .. } = &report.rows[B27_ROW].b3 else {
        panic!("ballot 27 is forced")
    };
    assert!(by.ambiguous);
    assert_eq!(by.number, 2);
    assert!(report.failed().contains(&Condition::B1));
}

#[test]
fn theorem1_fails_when_b2_fails() {
    let mut rows = figure1();
    // With quorum {Β, Ε} ballot 14 succeeds for α, and 27 succeeds for β:
    // B3 still holds everywhere, because the two quorums never meet.
    rows[B14_ROW].quorum = set(&["Β", "Ε"]);
    let report = check(&rows);
    assert_eq!(report.failed(), [Condition::B2]);
    let c = &report.consistency;
    assert!(!c.theorem1_holds());
    assert_eq!(c.disagreements, [(B14_ROW, B27_ROW)]);
    assert_eq!(c.agreed_decree(), None);
    assert_eq!(c.pin.as_ref().map(|p| p.number), Some(14));
    assert_eq!(
        c.lemma_breaks,
        [
            LemmaBreak {
                successful: B14_ROW,
                later: B27_ROW
            },
            LemmaBreak {
                successful: B14_ROW,
                later: B29_ROW
            },
        ]
    );
}

#[test]
fn theorem1_fails_when_b3_fails() {
    let mut rows = figure1();
    // Δ also votes in 14: it succeeds for α. Ballot 27 is then forced to α
    // by Δ's vote in 14, but says β.
    rows[B14_ROW].voters.insert(Priest::new("Δ"));
    let report = check(&rows);
    assert_eq!(report.failed(), [Condition::B3]);
    assert_eq!(report.consistency.disagreements, [(B14_ROW, B27_ROW)]);
    let B3::Forced {
        by,
        satisfied: false,
    } = &report.rows[B27_ROW].b3
    else {
        panic!("ballot 27 is forced and violated")
    };
    assert_eq!((by.number, by.decree.0.as_str()), (14, "α"));
    assert_eq!(by.voters, set(&["Δ"]));
}

#[test]
fn voters_outside_the_quorum_are_remarked_and_count() {
    let mut rows = figure1();
    // Α is not in ballot 14's quorum, but Lamport's Votes(𝓑) counts the
    // vote anyway — and it is then the latest vote of 27's quorum.
    rows[B14_ROW].voters.insert(Priest::new("Α"));
    let report = check(&rows);
    assert!(report.input_ok());
    assert_eq!(
        report.remarks,
        [Remark::VoterOutsideQuorum {
            row: B14_ROW,
            priest: Priest::new("Α")
        }]
    );
    assert_eq!(report.failed(), [Condition::B3]);
    let B3::Forced {
        by,
        satisfied: false,
    } = &report.rows[B27_ROW].b3
    else {
        panic!("ballot 27 is forced by Α's vote in 14")
    };
    assert_eq!(by.voters, set(&["Α"]));
}

#[test]
fn input_errors_are_structured() {
    let mut rows = figure1();
    rows[B2_ROW].quorum.clear();
    rows[B5_ROW].decree = Decree::new("  ");
    rows[B29_ROW].voters.insert(Priest::new("Ω"));
    let report = check(&rows);
    assert_eq!(
        report.errors,
        [
            InputError::EmptyQuorum { row: B2_ROW },
            InputError::EmptyDecree { row: B5_ROW },
            InputError::UnknownPriest {
                row: B29_ROW,
                field: Field::Voters,
                name: "Ω".into()
            },
        ]
    );
    // An empty quorum shares a priest with nobody, itself included.
    assert!(report.failed().contains(&Condition::B2));
    assert!(!report.rows[B2_ROW].successful);
}

#[test]
fn names_resolve_as_typed_and_other_rosters_work() {
    // Latin spellings of Figure 1's priests are the same priests.
    let rows = vec![
        BallotRow::new(1, " α ", &["A", "b", "gamma"], &["G"]),
        BallotRow::new(3, "α", &["d", "E", "Γ"], &["D"]),
    ];
    let report = check(&rows);
    assert!(report.input_ok(), "{:?}", report.errors);
    let B3::Forced {
        by,
        satisfied: true,
    } = &report.rows[1].b3
    else {
        panic!("the second ballot is forced by Γ's vote")
    };
    assert_eq!(by.voters, set(&["Γ"]));
    // Any small roster of names.
    let roster = [Priest::new("Ann"), Priest::new("Bob"), Priest::new("Cy")];
    let rows = vec![
        BallotRow::new(10, "lunch", &["Ann", "Bob"], &["Ann", "Bob"]),
        BallotRow::new(20, "dinner", &["Bob", "Cy"], &["Cy"]),
        BallotRow::new(30, "tea", &["Cy", "Dee"], &[]),
    ];
    let report = check_with(&roster, &rows);
    assert_eq!(
        report.errors,
        [InputError::UnknownPriest {
            row: 2,
            field: Field::Quorum,
            name: "Dee".into()
        }]
    );
    assert_eq!(
        report.rows[1].b3,
        B3::Forced {
            by: MaxVote {
                row: 0,
                number: 10,
                decree: Decree::new("lunch"),
                voters: set(&["Bob"]),
                ambiguous: false
            },
            satisfied: false,
        }
    );
    assert_eq!(
        report.b2,
        [DisjointPair {
            first: 0,
            second: 2
        }]
    );
}

#[test]
fn negative_and_edited_numbers_order_ballots() {
    // Ballot numbers are any integers; "earlier" is "lower", not input order.
    let mut rows = figure1();
    rows[B29_ROW].number = -7;
    let report = check(&rows);
    assert_eq!(report.rows[B29_ROW].b3, B3::Free);
    // Ballot 2 is now forced by Γ's vote in ballot -7 … for β, but says α.
    let B3::Forced {
        by,
        satisfied: false,
    } = &report.rows[B2_ROW].b3
    else {
        panic!("ballot 2 is forced by ballot -7")
    };
    assert_eq!((by.row, by.number), (B29_ROW, -7));
}

#[test]
fn rows_round_trip_through_json() {
    let rows = figure1();
    let text = serde_json::to_string(&rows).unwrap();
    assert!(text.contains("\"reconstructed\":true"));
    let back: Vec<BallotRow> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, rows);
}
