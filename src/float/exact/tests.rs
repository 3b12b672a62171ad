use super::decimal;
use crate::sim::rng::{Rng, Stream};

/// A seeded stream (the simulator's generator), so failures repeat.
fn seeded(seed: u64) -> Rng {
    Rng::new(seed, Stream::Schedule)
}

/// Read `text` (a decimal as the standard parser takes it) the way the JSON
/// reader hands it over: sign, significant digits, power of ten.
fn read(text: &str) -> Option<f64> {
    let (negative, text) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (number, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], text[at + 1..].parse::<i64>().unwrap()),
        None => (text, 0),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits: Vec<u8> = whole.bytes().chain(fraction.bytes()).collect();
    decimal(negative, &digits, exponent - fraction.len() as i64)
}

fn same(text: &str) {
    let want: f64 = text.parse().unwrap();
    if want.is_infinite() {
        assert_eq!(read(text), None, "{text:?} is past the largest double");
        return;
    }
    let got = read(text).unwrap_or_else(|| panic!("{text:?} refused"));
    assert_eq!(
        got.to_bits(),
        want.to_bits(),
        "{text:?}: {got:e} vs {want:e}"
    );
}

#[test]
fn edges_read_as_the_standard_parser_reads_them() {
    for t in [
        "0",
        "-0",
        "0.0",
        "1",
        "0.1",
        "0.2",
        "0.3",
        "0.30000000000000004",
        "0.07",
        "0.33299999999999996",
        "1e22",
        "1e23",
        "9007199254740993",
        "9007199254740992",
        "9007199254740994",
        "9007199254740995",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "2.2250738585072014e-308",
        "2.2250738585072011e-308",
        "4.9406564584124654e-324",
        "5e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "2.47032822920623272088e-324",
        "1e-400",
        "123.456e-2",
        "0.000000000000000000000000000000000000000000001",
        "1e308",
        "8.98846567431158e307",
        "2.225073858507201136057409796709131975934819546351645648e-308",
        "0.5",
        "1.5",
        "2.5",
        "3.5",
        "4503599627370496.5",
        "4503599627370497.5",
    ] {
        same(t);
    }
}

#[test]
fn too_large_is_refused() {
    assert_eq!(read("1e309"), None);
    assert_eq!(read("1.7976931348623159e308"), None);
    assert_eq!(read("179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"), None);
    assert_eq!(read("1e-400"), Some(0.0));
}

#[test]
fn shortest_forms_of_seeded_doubles_read_back_bit_for_bit() {
    // Every kind of double: random bits (normals and subnormals), as Rust's
    // shortest round-trip text (what serde_json writes has the same digits)
    // in both plain and exponent notation.
    let mut r = seeded(0x9E37_79B9_7F4A_7C15);
    for i in 0..20_000 {
        let mut bits = r.next_u64() & 0x7FFF_FFFF_FFFF_FFFF;
        if i % 5 == 0 {
            bits &= 0x000F_FFFF_FFFF_FFFF; // subnormal
        }
        let x = f64::from_bits(bits);
        if !x.is_finite() {
            continue;
        }
        for text in [format!("{x:e}"), format!("{:e}", -x)] {
            same(&text);
        }
        if i % 50 == 0 {
            same(&format!("{x}"));
        }
    }
}

#[test]
fn halfway_points_round_to_even_and_their_neighbours_away() {
    // The exact midpoint between a double and the next, as an integer
    // (doubles above 2^53) or a fraction with few decimals (doubles in
    // [1, 2^20) whose midpoint has at most 33 decimals), then one digit more
    // or less than it.
    let mut r = seeded(42);
    for _ in 0..5_000 {
        // Above 2^53: the midpoint (2m+1)·2^(e-1) is an integer.
        let m = (1u128 << 52) | u128::from(r.below(1 << 52));
        let e = 1 + r.below(40) as u32;
        let mid = (2 * m + 1) << (e - 1);
        let text = mid.to_string();
        same(&text);
        same(&format!("{text}.000000000000000000000001"));
        same(&(mid - 1).to_string());
        same(&(mid + 1).to_string());
    }
    for _ in 0..5_000 {
        // Below: x = m·2^-n with n ≤ 52 + 20, the midpoint (2m+1)/2^(n+1) has
        // n+1 decimals: (2m+1)·5^(n+1) / 10^(n+1).
        let m = (1u128 << 52) | u128::from(r.below(1 << 52));
        let n = 33 + r.below(20) as u32; // the value is in [2^(52-n), 2^(53-n))
        let digits = (2 * m + 1) * 5u128.pow(n + 1);
        let s = digits.to_string();
        let scale = n as usize + 1;
        let text = if s.len() > scale {
            format!("{}.{}", &s[..s.len() - scale], &s[s.len() - scale..])
        } else {
            format!("0.{}{}", "0".repeat(scale - s.len()), s)
        };
        same(&text);
        same(&format!("{text}1"));
        let below = (digits - 1).to_string();
        same(&format!("{}e-{scale}", below));
    }
}

#[test]
fn long_inputs_read_as_the_standard_parser_reads_them() {
    let mut r = seeded(7);
    for _ in 0..300 {
        let len = 1 + r.below(1_200) as usize;
        let digits: String = (0..len)
            .map(|_| char::from(b'0' + r.below(10) as u8))
            .collect();
        let exp = r.below(700) as i64 - 350 - len as i64;
        same(&format!("{digits}e{exp}"));
        // A long run of zeros or nines after a short head: ties and near-ties.
        let head = r.below(1 << 53).to_string();
        let tail = if r.below(2) == 0 { "0" } else { "9" }.repeat(r.below(900) as usize);
        same(&format!("{head}{tail}1e{}", exp / 2));
        same(&format!("{head}5{tail}e{}", exp / 2));
    }
}
