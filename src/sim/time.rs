//! Virtual time. Everything is in whole microseconds so that the same run gives
//! the same numbers on every platform; no floating point reaches a timestamp.
//!
//! `SimTime` is used both for *true* time (the simulator's clock, which nobody
//! inside the simulation can read) and for a node's *local* time (what its own,
//! possibly drifting, clock says). The simulator keeps the two apart: protocol
//! code only ever receives local time through `Ctx::now`.

use crate::float::fixed;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A point in time, in microseconds since the start of the run.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct SimTime(pub u64);

/// A span of time, in microseconds.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct SimDuration(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);
    pub const MAX: SimTime = SimTime(u64::MAX);

    pub fn as_us(self) -> u64 {
        self.0
    }
    pub fn from_ms(ms: u64) -> Self {
        SimTime(ms * 1_000)
    }
    pub fn from_secs(s: u64) -> Self {
        SimTime(s * 1_000_000)
    }
    /// `self - earlier`, or zero if `earlier` is later.
    pub fn since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
}

impl SimDuration {
    pub const ZERO: SimDuration = SimDuration(0);

    pub fn as_us(self) -> u64 {
        self.0
    }
    pub fn from_us(us: u64) -> Self {
        SimDuration(us)
    }
    pub fn from_ms(ms: u64) -> Self {
        SimDuration(ms * 1_000)
    }
    pub fn from_secs(s: u64) -> Self {
        SimDuration(s * 1_000_000)
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}
impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, d: SimDuration) {
        self.0 = self.0.saturating_add(d.0);
    }
}
impl Add for SimDuration {
    type Output = SimDuration;
    fn add(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(d.0))
    }
}
impl Sub for SimDuration {
    type Output = SimDuration;
    fn sub(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_sub(d.0))
    }
}

/// Human units: "850 µs", "12.3 ms", "4.250 s", "2 min 05 s".
pub fn human_us(us: u64) -> String {
    if us < 1_000 {
        format!("{us} µs")
    } else if us < 1_000_000 {
        let ms = us as f64 / 1e3;
        if ms < 10.0 {
            format!("{} ms", fixed(ms, 2))
        } else {
            format!("{} ms", fixed(ms, 1))
        }
    } else if us < 120_000_000 {
        format!("{} s", fixed(us as f64 / 1e6, 3))
    } else {
        let s = us / 1_000_000;
        format!("{} min {:02} s", s / 60, s % 60)
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&human_us(self.0))
    }
}
impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&human_us(self.0))
    }
}

/// A number of seconds as typed ("1.5", "1,5", "2", ".25") in whole
/// microseconds, rounded half up at the seventh decimal; `None` for anything
/// else (a sign, an exponent, letters, nothing). Integer arithmetic: the
/// page's first load carries no float parser, and no float decides a digit.
pub fn seconds_as_us(text: &str) -> Option<u64> {
    let t = text.trim();
    let (whole, frac) = match t.find(['.', ',']) {
        Some(i) => (&t[..i], &t[i + 1..]),
        None => (t, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) {
        return None;
    }
    let mut us: u64 = 0;
    for b in whole.bytes() {
        us = us.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    us = us.checked_mul(1_000_000)?;
    let mut scale = 100_000;
    for b in frac.bytes().take(6) {
        us = us.checked_add(u64::from(b - b'0') * scale)?;
        scale /= 10;
    }
    if frac.len() > 6 && frac.as_bytes()[6] >= b'5' {
        us = us.checked_add(1)?;
    }
    Some(us)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_units() {
        assert_eq!(human_us(850), "850 µs");
        assert_eq!(human_us(1_500), "1.50 ms");
        assert_eq!(human_us(12_345), "12.3 ms");
        assert_eq!(human_us(4_250_000), "4.250 s");
        assert_eq!(human_us(125_000_000), "2 min 05 s");
    }

    #[test]
    fn arithmetic_saturates() {
        assert_eq!(SimTime(5).since(SimTime(9)), SimDuration(0));
        assert_eq!(SimTime::MAX + SimDuration(1), SimTime::MAX);
    }

    #[test]
    fn seconds_as_typed_become_microseconds() {
        for (text, us) in [
            ("0", Some(0)),
            ("1.5", Some(1_500_000)),
            (" 1,5 ", Some(1_500_000)),
            (".25", Some(250_000)),
            ("2.", Some(2_000_000)),
            ("0.0000005", Some(1)),
            ("0.0000004", Some(0)),
            ("3.1234567", Some(3_123_457)),
            ("", None),
            (".", None),
            ("-1", None),
            ("1e3", None),
            ("1.2.3", None),
            ("abc", None),
            ("99999999999999999999", None),
        ] {
            assert_eq!(seconds_as_us(text), us, "{text:?}");
        }
    }
}
