//! Reading a decimal number as a person types it ("2.5", "0.35", "-7",
//! ".5", "1e3") without the standard library's float parser.
//!
//! Why: `str::parse::<f64>` brings its correct-rounding machinery for any
//! length of input and its tables of powers (~15 KB gzip of the page's
//! parts) for the few form fields that take a duration, a percentage or a
//! latency, and the export's view box. What people type has a handful of
//! digits, and for those the answer is exact the simple way (Clinger's fast
//! path): at most 15 significant digits are an integer below 2^53, a power
//! of ten up to 10^22 is a double exactly, and one IEEE multiplication or
//! division of two exact values is correctly rounded — the same double the
//! standard parser gives (a test checks it against `str::parse`). Longer
//! inputs or larger exponents are refused rather than rounded otherwise.

/// 10^0 … 10^22: every one a double exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Most significant digits read exactly.
const MAX_DIGITS: u32 = 15;

/// The number in `text` (no spaces around it): an optional sign, digits
/// with at most one `.` (digits on at least one side), and an optional
/// exponent (`e`/`E`, optional sign, digits). `None` for anything else, for
/// more than 15 significant digits and for a power of ten past 10^±22.
pub fn parse(text: &str) -> Option<f64> {
    let (negative, text) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (number, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let all_digits = |s: &str| s.bytes().all(|c| c.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    // The power of ten the digits (whole and fraction together) stand for.
    let mut scale = -(fraction.len() as i64);
    if let Some(e) = exponent {
        let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        if digits.is_empty() || !all_digits(digits) || digits.len() > 6 {
            return None;
        }
        let n: i64 = digits.bytes().fold(0, |n, c| n * 10 + i64::from(c - b'0'));
        scale += if e.starts_with('-') { -n } else { n };
    }
    // The significant digits: no leading zeros, trailing zeros into the
    // scale.
    let digits = whole
        .bytes()
        .chain(fraction.bytes())
        .skip_while(|&c| c == b'0');
    let (mut mantissa, mut count, mut zeros) = (0u64, 0u32, 0u32);
    for c in digits {
        if c == b'0' {
            zeros += 1;
            continue;
        }
        count += zeros + 1;
        if count > MAX_DIGITS {
            return None;
        }
        mantissa = mantissa * 10u64.pow(zeros + 1) + u64::from(c - b'0');
        zeros = 0;
    }
    scale += i64::from(zeros);
    let value = if mantissa == 0 {
        0.0
    } else {
        let power = *POW10.get(scale.unsigned_abs() as usize)?;
        if scale >= 0 {
            mantissa as f64 * power
        } else {
            mantissa as f64 / power
        }
    };
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn same(text: &str) {
        let want: f64 = text.parse().expect("a number for the standard parser");
        let got = parse(text).unwrap_or_else(|| panic!("{text:?} refused"));
        assert_eq!(got.to_bits(), want.to_bits(), "{text:?}: {got} vs {want}");
    }

    #[test]
    fn what_people_type_reads_as_the_standard_parser_reads_it() {
        for t in [
            "0",
            "-0",
            "+0",
            "2.5",
            "0.35",
            "-7",
            ".5",
            "5.",
            "1e3",
            "1E-3",
            "2.5e+2",
            "12.5",
            "0.1",
            "0.2",
            "0.3",
            "100",
            "120",
            "1200.0",
            "0.000123",
            "000123.4500",
            "600000",
            "3600",
            "0.0000001",
            "99.99",
            "1e22",
            "1e-22",
            "123456789012345",
            "0.123456789012345",
            "1.00000000000000000000",
            "1000000000000000000000",
            "-0.0",
            "7e0",
            "10.01",
        ] {
            same(t);
        }
    }

    #[test]
    fn seeded_decimals_read_bit_for_bit_as_the_standard_parser() {
        // A deterministic stream of decimals: up to 15 significant digits,
        // zeros anywhere, a point anywhere, exponents near the edge.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let n = 1 + (next() % 15) as usize;
            let mut digits: String = (0..n)
                .map(|_| {
                    let r = next() % 10;
                    char::from(b'0' + if next() % 4 == 0 { 0 } else { r as u8 })
                })
                .collect();
            let at = (next() % (n as u64 + 1)) as usize;
            if next() % 3 != 0 {
                digits.insert(at, '.');
            }
            if digits == "." {
                continue;
            }
            if next() % 4 == 0 {
                let e = (next() % 9) as i64 - 4;
                digits.push_str(&format!("e{e}"));
            }
            if next() % 5 == 0 {
                digits.insert(0, '-');
            }
            same(&digits);
        }
    }

    #[test]
    fn nonsense_and_what_cannot_be_read_exactly_are_refused() {
        for t in [
            "",
            " ",
            "-",
            "+",
            ".",
            "e3",
            "1e",
            "1e+",
            "1.2.3",
            "1,5",
            "abc",
            "1 000",
            " 1",
            "1 ",
            "inf",
            "NaN",
            "0x10",
            "--1",
            "1e3.5",
            "1234567890123456",
            "1e23",
            "1e-23",
            "0.1234567890123456",
        ] {
            assert_eq!(parse(t), None, "{t:?}");
        }
    }
}
