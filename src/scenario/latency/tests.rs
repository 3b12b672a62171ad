//! Every row of DOMAIN.md §7, pinned, plus the slider and the rounding edges.

use super::*;

/// Test-only English, e.g. "≈951 years", "1 min 40 s".
fn english(h: &HumanDuration) -> String {
    let amount = |a: &Amount<Unit>| {
        let digits = a.mantissa.to_string();
        let number = if a.decimals == 0 {
            digits
        } else {
            let d = a.decimals as usize;
            let padded = format!("{digits:0>width$}", width = d + 1);
            format!(
                "{}.{}",
                &padded[..padded.len() - d],
                &padded[padded.len() - d..]
            )
        };
        let unit = match a.unit {
            Unit::Millisecond => "ms",
            Unit::Second => "s",
            Unit::Minute => "min",
            Unit::Hour => "h",
            Unit::Day => "days",
            Unit::Month => "months",
            Unit::Year => "years",
            Unit::Century => "centuries",
            Unit::Millennium => "millennia",
        };
        format!("{number} {unit}")
    };
    let mut s = if h.approx {
        "≈".to_string()
    } else {
        String::new()
    };
    s += &amount(&h.major);
    if let Some(minor) = &h.minor {
        s += " ";
        s += &amount(minor);
    }
    s
}

fn real_english(a: Amount<RealUnit>) -> String {
    let unit = match a.unit {
        RealUnit::Nanosecond => "ns",
        RealUnit::Microsecond => "µs",
        RealUnit::Millisecond => "ms",
        RealUnit::Second => "s",
    };
    let whole = 10u64.pow(a.decimals as u32);
    if a.decimals == 0 {
        format!("{} {unit}", a.mantissa)
    } else {
        let frac = format!("{:0>w$}", a.mantissa % whole, w = a.decimals as usize);
        format!("{}.{frac} {unit}", a.mantissa / whole)
    }
}

#[test]
fn every_row_of_the_table() {
    let expected = [
        (Operation::L1CacheReference, "0.5 ns", "0.5 s"),
        (Operation::BranchMispredict, "5 ns", "5 s"),
        (Operation::L2CacheReference, "7 ns", "7 s"),
        (Operation::MainMemoryReference, "100 ns", "1 min 40 s"),
        (Operation::Send1KbOver1Gbps, "10 µs", "2.8 h"),
        (Operation::Ssd4KbRandomRead, "150 µs", "1.7 days"),
        (Operation::DatacenterRoundTrip, "500 µs", "5.8 days"),
        (Operation::DiskSeek, "10 ms", "3.8 months"),
        (
            Operation::CaliforniaNetherlandsRoundTrip,
            "150 ms",
            "4.75 years",
        ),
        (Operation::LlmCall1s, "1 s", "31.7 years"),
        (Operation::LlmCall30s, "30 s", "≈951 years"),
    ];
    assert_eq!(TABLE.len(), expected.len());
    for (row, (op, real, scaled)) in TABLE.iter().zip(expected) {
        assert_eq!(row.op, op);
        assert_eq!(real_english(row.real.real_amount()), real, "{op:?}");
        assert_eq!(english(&row.real.scaled()), scaled, "{op:?}");
    }
}

#[test]
fn structured_form_of_the_punchlines() {
    let ca_nl = TABLE[8].real.scaled();
    assert_eq!(
        ca_nl.major,
        Amount {
            mantissa: 475,
            decimals: 2,
            unit: Unit::Year
        }
    );
    assert!(!ca_nl.approx);
    let llm = TABLE[10].real.scaled();
    assert_eq!(
        llm.major,
        Amount {
            mantissa: 951,
            decimals: 0,
            unit: Unit::Year
        }
    );
    assert!(llm.approx);
    let memory = TABLE[3].real.scaled();
    assert_eq!(
        memory.major,
        Amount {
            mantissa: 1,
            decimals: 0,
            unit: Unit::Minute
        }
    );
    assert_eq!(
        memory.minor,
        Some(Amount {
            mantissa: 40,
            decimals: 0,
            unit: Unit::Second
        })
    );
    assert!(TABLE.iter().filter(|r| r.op.is_llm_call()).count() == 2);
}

#[test]
fn scaling_is_exact_integer_arithmetic() {
    // 1 ps real is exactly 1 ms scaled; 1 ns is 1 s.
    assert_eq!(RealDuration::from_ps(1).scaled_ms(), 1);
    assert_eq!(RealDuration::from_ns(1).scaled_ms(), 1_000);
    assert_eq!(RealDuration::from_ns(1).scaled_ms(), SCALE / 1_000_000);
    assert_eq!(Unit::Month.ms() * 12, Unit::Year.ms());
    assert_eq!(Unit::Year.ms(), 36_525 * Unit::Day.ms() / 100);
}

#[test]
fn slider_seconds_times_31_7_years() {
    let say = |s: f64| english(&scale_seconds(s).unwrap());
    assert_eq!(say(1.0), "31.7 years");
    assert_eq!(say(2.0), "63.4 years");
    assert_eq!(say(30.0), "≈951 years");
    assert_eq!(say(0.15), "4.75 years");
    // A lease renewed every few hundred ms: DOMAIN.md's "3–15 scaled years"
    // (loosely: 500 ms is 15.8; 15 years is about 473 ms).
    assert_eq!(say(0.1), "3.17 years");
    assert_eq!(say(0.5), "15.8 years");
    // Past 1000 years the unit climbs.
    assert_eq!(say(60.0), "≈19 centuries");
    assert_eq!(say(3_600.0), "≈114 millennia");
    assert_eq!(say(0.0), "0 ms");
}

#[test]
fn slider_rejects_what_it_cannot_scale() {
    assert_eq!(scale_seconds(f64::NAN), Err(BadDuration::NotANumber));
    assert_eq!(scale_seconds(-1.0), Err(BadDuration::Negative));
    assert!(matches!(
        scale_seconds(f64::INFINITY),
        Err(BadDuration::TooLong { .. })
    ));
    assert!(matches!(
        scale_seconds(1e8),
        Err(BadDuration::TooLong { .. })
    ));
    assert!(scale_seconds(1e7).is_ok());
}

#[test]
fn rounding_that_reaches_the_next_unit_moves_up() {
    // 59.96 s rounds to 60.0 s, which is a minute.
    assert_eq!(english(&human(59_960)), "≈1 min");
    assert_eq!(english(&human(59_940)), "59.9 s");
    assert_eq!(english(&human(120_000)), "2 min");
    assert_eq!(english(&human(3_599_600)), "≈1 h");
    // 999.6 years would round to 1000: that is 10 centuries.
    assert_eq!(
        english(&human(999 * Unit::Year.ms() + Unit::Year.ms() * 6 / 10)),
        "≈10 centuries"
    );
    assert_eq!(english(&human(99)), "99 ms");
    assert_eq!(english(&human(100)), "0.1 s");
}
