//! "If 1 ns were 1 s": the latency numbers every programmer should know,
//! stretched by 10⁹ so that an L1 cache hit takes half a second and an LLM
//! call takes decades (DOMAIN.md §7).
//!
//! The figures are the Jeff Dean / Peter Norvig numbers (c. 2012) as widely
//! copied from Jonas Bonér's gist. [`TABLE`] keeps nine of its fourteen rows,
//! the ones DOMAIN.md lists; the lesson names the five left out (mutex lock,
//! Zippy, and the three "read 1 MB sequentially" rows, which measure
//! throughput — the disk one is 20 ms in some copies and 30 ms in others).
//! The two LLM rows are not Dean/Norvig figures but our illustration; the
//! arithmetic on all rows is ours.
//!
//! **Exact arithmetic.** Real durations are whole picoseconds (the smallest
//! figure, 0.5 ns, is 500 ps). Scaling by 10⁹ maps 1 ps to exactly 1 ms, so a
//! scaled duration is an integer number of milliseconds, and every unit below
//! is a whole number of milliseconds (a year is the Julian 365.25 days, a
//! month a twelfth of that). Rounding is then integer arithmetic, half up: no
//! float ever decides whether 4.755 shows as 4.75 or 4.76, natively or in wasm.
//!
//! **Rounding rule** (reproduces DOMAIN.md's scaled column). Below a year,
//! each unit hands over to the next before its value gets large (60 s, 60
//! min, 24 h, ~30 days, 12 months), so one decimal is enough: 2.8 h, 1.7
//! days, 3.8 months. From a year on we keep three significant figures —
//! 4.75, 31.7, 951 years — because those are the punchlines (the seminar says
//! a packet over the network blocks for "5 years"; that it means this row,
//! rounded, is our reading — DOMAIN.md §7 [D]). Minutes are shown as whole minutes and
//! seconds (1 min 40 s). Trailing zeros are dropped. A value shown as a
//! whole number that was rounded is marked approximate (≈951 years), since
//! a whole number otherwise reads as exact; decimals already say "rounded".

/// The stretch factor: 1 ns becomes 1 s.
pub const SCALE: u64 = 1_000_000_000;

/// The seminar's "5 years" for a packet over the network. That it is the
/// CA→Netherlands round trip (exactly 4.75 years) is our reading.
pub const SEMINAR_CA_NL_YEARS: u32 = 5;

/// A real duration in whole picoseconds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RealDuration(pub u64);

/// Why a typed duration cannot be scaled.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum BadDuration {
    NotANumber,
    Negative,
    /// Beyond what fits in picoseconds (about 213 days of real time).
    TooLong {
        max_seconds: f64,
    },
}

impl RealDuration {
    pub const fn from_ps(ps: u64) -> Self {
        RealDuration(ps)
    }
    pub const fn from_ns(ns: u64) -> Self {
        RealDuration(ns * 1_000)
    }
    pub const fn from_us(us: u64) -> Self {
        RealDuration(us * 1_000_000)
    }
    pub const fn from_ms(ms: u64) -> Self {
        RealDuration(ms * 1_000_000_000)
    }
    pub const fn from_secs(s: u64) -> Self {
        RealDuration(s * 1_000_000_000_000)
    }

    /// A user-entered number of seconds (the slider's "an LLM call of N
    /// seconds"), rounded to the nearest picosecond.
    pub fn from_secs_f64(seconds: f64) -> Result<Self, BadDuration> {
        const MAX_PS: f64 = u64::MAX as f64;
        if seconds.is_nan() {
            return Err(BadDuration::NotANumber);
        }
        if seconds < 0.0 {
            return Err(BadDuration::Negative);
        }
        let ps = (seconds * 1e12).round();
        // `as u64` would saturate silently; an infinite or huge input is an error.
        if ps >= MAX_PS {
            return Err(BadDuration::TooLong {
                max_seconds: MAX_PS / 1e12,
            });
        }
        Ok(RealDuration(ps as u64))
    }

    /// The duration ×10⁹, in milliseconds (1 ps real is 1 ms scaled).
    pub const fn scaled_ms(self) -> u64 {
        self.0
    }

    /// As written in the table's "Real" column: the largest of ns, µs, ms, s
    /// in which it is at least 1 (0.5 ns, 10 µs, 150 ms, 30 s), exact.
    pub fn real_amount(self) -> Amount<RealUnit> {
        let unit = [
            RealUnit::Second,
            RealUnit::Millisecond,
            RealUnit::Microsecond,
        ]
        .into_iter()
        .find(|u| self.0 >= u.ps())
        .unwrap_or(RealUnit::Nanosecond);
        let decimals = unit.ps().ilog10() as u8;
        Amount::new(self.0, decimals, unit)
    }

    /// The duration ×10⁹, in human units.
    pub fn scaled(self) -> HumanDuration {
        human(self.scaled_ms())
    }
}

/// Units of the "Real" column.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RealUnit {
    Nanosecond,
    Microsecond,
    Millisecond,
    Second,
}

impl RealUnit {
    pub const fn ps(self) -> u64 {
        match self {
            RealUnit::Nanosecond => 1_000,
            RealUnit::Microsecond => 1_000_000,
            RealUnit::Millisecond => 1_000_000_000,
            RealUnit::Second => 1_000_000_000_000,
        }
    }
}

/// Units of the "Scaled" column.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unit {
    Millisecond,
    Second,
    Minute,
    Hour,
    Day,
    /// A twelfth of a Julian year: 30.4375 days.
    Month,
    /// The Julian year, 365.25 days.
    Year,
    Century,
    Millennium,
}

const YEAR_MS: u64 = 31_557_600_000;

impl Unit {
    /// The unit's length in (scaled) milliseconds.
    pub const fn ms(self) -> u64 {
        match self {
            Unit::Millisecond => 1,
            Unit::Second => 1_000,
            Unit::Minute => 60_000,
            Unit::Hour => 3_600_000,
            Unit::Day => 86_400_000,
            Unit::Month => YEAR_MS / 12,
            Unit::Year => YEAR_MS,
            Unit::Century => 100 * YEAR_MS,
            Unit::Millennium => 1_000 * YEAR_MS,
        }
    }
}

/// A decimal number of some unit: `mantissa / 10^decimals`, with no
/// trailing zeros (so 5 s is `{5, 0}`, not `{50, 1}`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Amount<U> {
    pub mantissa: u64,
    pub decimals: u8,
    pub unit: U,
}

impl<U> Amount<U> {
    fn new(mut mantissa: u64, mut decimals: u8, unit: U) -> Self {
        while decimals > 0 && mantissa % 10 == 0 {
            mantissa /= 10;
            decimals -= 1;
        }
        Amount {
            mantissa,
            decimals,
            unit,
        }
    }

    /// For drawing bars and sliders only; the mantissa is the exact figure.
    pub fn value(&self) -> f64 {
        self.mantissa as f64 / 10f64.powi(self.decimals as i32)
    }
}

/// A scaled duration as a person would say it: "2.8 h", "1 min 40 s",
/// "≈951 years". The UI words the unit (and its plural) in each language.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HumanDuration {
    pub major: Amount<Unit>,
    /// Only for minutes: the seconds after the whole minutes, when not zero.
    pub minor: Option<Amount<Unit>>,
    /// Rounded to a whole number: show "≈" (see the module notes).
    pub approx: bool,
}

/// How a rung of the ladder rounds.
#[derive(Copy, Clone)]
enum Rounding {
    OneDecimal,
    ThreeSignificant,
}

/// Milliseconds (already scaled) in human units: the first unit whose range
/// holds the value, moving up one unit if rounding reaches the next range
/// (59.96 s is "≈1 min", not "60 s").
pub fn human(ms: u64) -> HumanDuration {
    if ms < 100 {
        // Below 0.1 s: whole milliseconds, which are exact here.
        return HumanDuration {
            major: Amount::new(ms, 0, Unit::Millisecond),
            minor: None,
            approx: false,
        };
    }
    if let Some(h) = rounded(ms, Unit::Second, Unit::Minute.ms(), Rounding::OneDecimal) {
        return h;
    }
    let seconds = round_div(ms as u128, 1_000) as u64;
    if seconds < 3_600 {
        let secs = seconds % 60;
        return HumanDuration {
            major: Amount::new(seconds / 60, 0, Unit::Minute),
            minor: (secs > 0).then(|| Amount::new(secs, 0, Unit::Second)),
            approx: seconds * 1_000 != ms,
        };
    }
    let ladder = [
        (Unit::Hour, Unit::Day.ms(), Rounding::OneDecimal),
        (Unit::Day, Unit::Month.ms(), Rounding::OneDecimal),
        (Unit::Month, Unit::Year.ms(), Rounding::OneDecimal),
        (
            Unit::Year,
            10 * Unit::Century.ms(),
            Rounding::ThreeSignificant,
        ),
        (
            Unit::Century,
            100 * Unit::Millennium.ms(),
            Rounding::ThreeSignificant,
        ),
    ];
    for (unit, limit, rule) in ladder {
        if let Some(h) = rounded(ms, unit, limit, rule) {
            return h;
        }
    }
    rounded(ms, Unit::Millennium, u64::MAX, Rounding::ThreeSignificant)
        .expect("millennia have no upper limit")
}

/// `ms` in `unit`, if it (after rounding) stays below `limit_ms`.
fn rounded(ms: u64, unit: Unit, limit_ms: u64, rule: Rounding) -> Option<HumanDuration> {
    if ms >= limit_ms {
        return None;
    }
    let decimals: u32 = match rule {
        Rounding::OneDecimal => 1,
        Rounding::ThreeSignificant => 3u32.saturating_sub((ms / unit.ms()).max(1).ilog10() + 1),
    };
    let pow = 10u128.pow(decimals);
    let mantissa = round_div(ms as u128 * pow, unit.ms() as u128);
    if mantissa * unit.ms() as u128 >= limit_ms as u128 * pow {
        return None;
    }
    let major = Amount::new(mantissa as u64, decimals as u8, unit);
    let exact = mantissa * unit.ms() as u128 == ms as u128 * pow;
    Some(HumanDuration {
        major,
        minor: None,
        approx: !exact && major.decimals == 0,
    })
}

/// n / d rounded half up.
fn round_div(n: u128, d: u128) -> u128 {
    (2 * n + d) / (2 * d)
}

/// The table's operations, in the table's order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Operation {
    L1CacheReference,
    BranchMispredict,
    L2CacheReference,
    MainMemoryReference,
    /// Send 1 KB over a 1 Gbps network.
    Send1KbOver1Gbps,
    Ssd4KbRandomRead,
    DatacenterRoundTrip,
    DiskSeek,
    /// California → Netherlands → California.
    CaliforniaNetherlandsRoundTrip,
    /// Our illustration, not a Dean/Norvig figure.
    LlmCall1s,
    /// Our illustration, not a Dean/Norvig figure.
    LlmCall30s,
}

impl Operation {
    pub fn is_llm_call(self) -> bool {
        matches!(self, Operation::LlmCall1s | Operation::LlmCall30s)
    }
}

/// One row of the table: what, and how long it really takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub op: Operation,
    pub real: RealDuration,
}

/// DOMAIN.md §7, row by row.
pub const TABLE: [Row; 11] = [
    Row {
        op: Operation::L1CacheReference,
        real: RealDuration::from_ps(500),
    },
    Row {
        op: Operation::BranchMispredict,
        real: RealDuration::from_ns(5),
    },
    Row {
        op: Operation::L2CacheReference,
        real: RealDuration::from_ns(7),
    },
    Row {
        op: Operation::MainMemoryReference,
        real: RealDuration::from_ns(100),
    },
    Row {
        op: Operation::Send1KbOver1Gbps,
        real: RealDuration::from_us(10),
    },
    Row {
        op: Operation::Ssd4KbRandomRead,
        real: RealDuration::from_us(150),
    },
    Row {
        op: Operation::DatacenterRoundTrip,
        real: RealDuration::from_us(500),
    },
    Row {
        op: Operation::DiskSeek,
        real: RealDuration::from_ms(10),
    },
    Row {
        op: Operation::CaliforniaNetherlandsRoundTrip,
        real: RealDuration::from_ms(150),
    },
    Row {
        op: Operation::LlmCall1s,
        real: RealDuration::from_secs(1),
    },
    Row {
        op: Operation::LlmCall30s,
        real: RealDuration::from_secs(30),
    },
];

/// The slider: a real duration typed in seconds, scaled ×10⁹.
pub fn scale_seconds(seconds: f64) -> Result<HumanDuration, BadDuration> {
    RealDuration::from_secs_f64(seconds).map(RealDuration::scaled)
}

#[cfg(test)]
mod tests;
