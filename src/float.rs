//! Floats without the standard library's float formatting: `fixed(x, 2)`
//! prints what `format!("{x:.2}")` prints, `short(x)` a number as a person
//! would type it back, `coord(x)` an SVG coordinate, and `clamp` clamps
//! (`f64::clamp` asserts its bounds with a `{:?}` of both, which formats them).
//!
//! Why not the standard library's float formatting: it brings its
//! shortest-representation algorithms (Grisu with a Dragon fallback) and their
//! power tables, about 7 KB gzip of the page's first load, for the handful of
//! places that print a coordinate, a duration or a probability. Here the
//! rounding is done on the float's exact binary value with integers, so
//! `fixed` agrees with `{:.N}` digit for digit (half to even on the exact
//! value); a test checks it against the standard formatter.
//!
//! Range: magnitudes below 2^63 (9.2·10^18) scaled by 10^places; beyond that
//! the digits saturate. Nothing on screen comes near (coordinates, durations
//! and probabilities).

use std::fmt;

mod exact;
mod parse;
pub use exact::decimal;
pub use parse::parse;

/// A number as typed in a form field, in ASCII: trimmed, and with the
/// full-width digits, signs, point and comma that a Japanese keyboard types
/// (`４２`, `０．５`, `－３`) made half-width — they were refused as nonsense.
pub fn typed(text: &str) -> String {
    text.trim()
        .trim_matches('\u{3000}')
        .chars()
        .map(|c| match c {
            '０'..='９' | '．' | '，' | '－' | '＋' | 'ｅ' | 'Ｅ' | '％' => {
                char::from_u32(c as u32 - 0xFEE0).unwrap_or(c)
            }
            '−' => '-',
            c => c,
        })
        .collect()
}

/// Most decimals `fixed` prints (10^9 keeps the scaled value in a `u128`).
pub const MAX_PLACES: u8 = 9;

/// `value` with exactly `places` decimals (at most `MAX_PLACES`).
pub fn fixed(value: f64, places: u8) -> Fixed {
    Fixed {
        value,
        places: places.min(MAX_PLACES),
    }
}

/// A number as typed: up to six decimals, trailing zeros dropped ("0.35",
/// "2", "-1.5"); large magnitudes as "1.5e21".
pub fn short(value: f64) -> Short {
    Short { value, places: 6 }
}

/// A drawing's coordinate or length for an SVG attribute: two decimals at
/// most ("312.46", "40", "-7.5") — a hundredth of a unit is far below a
/// pixel.
pub fn coord(value: f64) -> String {
    Short { value, places: 2 }.to_string()
}

/// `x` within `lo..=hi` (NaN gives `lo`). `f64::clamp`'s assertion
/// message formats floats, which brought the whole float formatter along.
pub fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    x.max(lo).min(hi)
}

#[derive(Clone, Copy, Debug)]
pub struct Fixed {
    value: f64,
    places: u8,
}

#[derive(Clone, Copy, Debug)]
pub struct Short {
    value: f64,
    places: u8,
}

/// The exact value of `v`, times 10^places, rounded half to even; with the
/// sign. `None` for NaN and the infinities.
fn scaled(v: f64, places: u8) -> Option<(bool, u128)> {
    let bits = v.to_bits();
    let negative = bits >> 63 == 1;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        return None;
    }
    // v = m · 2^e exactly.
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | 1u64 << 52, exp - 1075)
    };
    let n = m as u128 * 10u128.pow(places as u32); // < 2^83
    let q = if e >= 0 {
        if e > 44 {
            u128::MAX
        } else {
            n << e
        }
    } else {
        let s = (-e) as u32;
        if s >= 100 {
            // n / 2^s < 2^-17: rounds to zero.
            0
        } else {
            let q = n >> s;
            let r = n & ((1u128 << s) - 1);
            let half = 1u128 << (s - 1);
            if r > half || (r == half && q & 1 == 1) {
                q + 1
            } else {
                q
            }
        }
    };
    Some((negative, q))
}

fn write_special(f: &mut fmt::Formatter<'_>, v: f64) -> fmt::Result {
    f.write_str(if v.is_nan() {
        "NaN"
    } else if v > 0.0 {
        "inf"
    } else {
        "-inf"
    })
}

/// Writes `q / 10^places` with `places` decimals (digits saturate at u64).
fn write_scaled(
    f: &mut fmt::Formatter<'_>,
    negative: bool,
    q: u128,
    places: u8,
    trim: bool,
) -> fmt::Result {
    let unit = 10u128.pow(places as u32);
    let whole = u64::try_from(q / unit).unwrap_or(u64::MAX);
    let mut part = (q % unit) as u64;
    let mut places = places as usize;
    if trim {
        while places > 0 && part % 10 == 0 {
            part /= 10;
            places -= 1;
        }
    }
    // Like `{:.N}`, a negative value keeps its sign even when it rounds to
    // zero ("-0.0"), except that a trimmed zero is just "0".
    if negative && !(trim && whole == 0 && part == 0) {
        f.write_str("-")?;
    }
    write!(f, "{whole}")?;
    if places > 0 {
        write!(f, ".{part:0places$}")?;
    }
    Ok(())
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match scaled(self.value, self.places) {
            Some((negative, q)) => write_scaled(f, negative, q, self.places, false),
            None => write_special(f, self.value),
        }
    }
}

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.value;
        if !v.is_finite() {
            return write_special(f, v);
        }
        if v.abs() < 1e15 {
            let (negative, q) = scaled(v, self.places).expect("finite");
            return write_scaled(f, negative, q, self.places, true);
        }
        // A mantissa and a power of ten (not every digit exact: a message's
        // echo of an absurd number, not a value to compute with).
        let mut m = v.abs();
        let mut exp = 0;
        while m >= 10.0 {
            m /= 10.0;
            exp += 1;
        }
        let (_, q) = scaled(m, 3).expect("finite");
        if v < 0.0 {
            f.write_str("-")?;
        }
        write_scaled(f, false, q, 3, true)?;
        write!(f, "e{exp}")
    }
}

#[cfg(test)]
mod tests {
    /// A Japanese keyboard's digits (全角) read as numbers; anything else is
    /// left as typed, for the field to refuse.
    #[test]
    fn full_width_digits_are_read_as_digits() {
        use super::typed;
        assert_eq!(typed(" ４２ "), "42");
        assert_eq!(typed("０．５"), "0.5");
        assert_eq!(typed("－３"), "-3");
        assert_eq!(typed("−３"), "-3");
        assert_eq!(typed("１，５"), "1,5");
        assert_eq!(typed("\u{3000}７\u{3000}"), "7");
        assert_eq!(typed("三"), "三");
        assert_eq!(typed("4２a"), "42a");
    }

    use super::*;

    /// A deterministic spread of floats: small, large, negative, halves
    /// (the ties), thirds, and raw bit patterns.
    fn samples() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            -0.5,
            -2.5,
            0.05,
            0.15,
            0.25,
            0.35,
            1.005,
            1.015,
            2.675,
            0.125,
            0.375,
            -0.04,
            9.995,
            99.95,
            999.9995,
            1e-9,
            5e-324,
            1e15,
            123456789.125,
            4503599627370495.5,
            9007199254740993.0,
            1e17,
            0.1,
            0.2,
            0.3,
            1.0 / 3.0,
            2.0 / 3.0,
        ];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for i in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let f = match i % 4 {
                // Durations in ms and s, as the page prints them.
                0 => (x % 120_000_000) as f64 / 1e3,
                1 => (x % 120_000_000) as f64 / 1e6,
                // Coordinates, with halves and thousandths.
                2 => ((x % 4_000_000) as f64 - 2_000_000.0) / 2000.0,
                // Any float below 2^53.
                _ => f64::from_bits(x) % 9.0e15,
            };
            if f.is_finite() {
                v.push(f);
            }
        }
        v
    }

    #[test]
    fn fixed_prints_what_the_standard_formatter_prints() {
        for x in samples() {
            for places in 0..=6u8 {
                let want = format!("{x:.*}", places as usize);
                assert_eq!(
                    fixed(x, places).to_string(),
                    want,
                    "{x:e} at {places} places"
                );
            }
        }
    }

    #[test]
    fn fixed_names_nan_and_the_infinities_as_the_standard_formatter() {
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(fixed(x, 2).to_string(), format!("{x:.2}"));
        }
    }

    #[test]
    fn short_reads_back_as_the_number_within_six_decimals() {
        let cases = [
            (0.35, "0.35"),
            (2.0, "2"),
            (-1.5, "-1.5"),
            (0.0, "0"),
            (-0.0, "0"),
            (-0.0000001, "0"),
            (1e-7, "0"),
            (0.1234567, "0.123457"),
            (1.5e21, "1.5e21"),
            (-2e300, "-2e300"),
            (f64::NAN, "NaN"),
        ];
        for (x, want) in cases {
            assert_eq!(short(x).to_string(), want, "{x:e}");
        }
        assert_eq!(coord(312.4567), "312.46");
        assert_eq!(coord(40.0), "40");
        assert_eq!(coord(-7.5), "-7.5");
        for x in samples().into_iter().filter(|x| x.abs() < 1e9) {
            let back: f64 = short(x).to_string().parse().expect("a number");
            assert!(
                (back - x).abs() <= 5e-7 * (1.0 + 1e-9),
                "{x:e} printed {}",
                short(x)
            );
        }
    }
}
