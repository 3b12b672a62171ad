//! Per-node clocks: what a node *thinks* the time is.
//!
//! A node's local clock runs at rate `1 + drift_ppm / 10⁶` relative to true
//! time, starts at `offset_us`, and can be *stepped* (an NTP correction, a VM
//! migration, an operator setting the date). All arithmetic is integer, so the
//! conversion both ways is exact and identical on every platform.
//!
//! Timers are set in local time ("wake me when *my* clock has advanced 2 s").
//! The simulator converts that local deadline into the true instant at which
//! the local clock will reach it (`true_at`), and re-converts pending timers when
//! the clock is stepped — which is exactly how a clock step makes a lease look
//! expired early or late.

use super::time::SimTime;
use serde::Serialize;

/// Clock settings for one node, as written in a scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    pub node: String,
    /// Rate error in parts per million; positive runs fast.
    #[serde(default)]
    pub drift_ppm: i64,
    /// Local reading at true time zero.
    #[serde(default)]
    pub offset_us: i64,
}

/// Largest drift we accept: 10% is already absurd for a quartz clock, but a
/// teaching tool may want to exaggerate.
pub const MAX_DRIFT_PPM: i64 = 200_000;

/// Spans (µs) short enough that `span · (10⁶ + MAX_DRIFT_PPM) + 10⁶` fits in an
/// i64: about 89 days, far beyond the longest run (one hour).
const FAST_SPAN_US: u64 = ((i64::MAX - 2_000_000) / (1_000_000 + MAX_DRIFT_PPM)) as u64;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    base_true: u64,
    base_local: i64,
    ppm: i64,
}

impl Default for Clock {
    fn default() -> Self {
        Clock::new(0, 0)
    }
}

impl Clock {
    pub fn new(drift_ppm: i64, offset_us: i64) -> Self {
        Clock {
            base_true: 0,
            base_local: offset_us,
            ppm: drift_ppm.clamp(-MAX_DRIFT_PPM, MAX_DRIFT_PPM),
        }
    }

    pub fn drift_ppm(&self) -> i64 {
        self.ppm
    }

    /// Local reading (may be negative after a backwards step) at true time `t`.
    #[inline]
    pub fn local_raw(&self, t: SimTime) -> i64 {
        let dt = t.0.saturating_sub(self.base_true);
        // The simulator asks this on every step. Within any real run (an hour
        // is 3.6·10⁹ µs) the product fits in an i64, where division is a few
        // instructions instead of a call to the i128 routine. Both paths
        // truncate the same non-negative quotient, so they agree exactly.
        if dt <= FAST_SPAN_US {
            let scaled = dt as i64 * (1_000_000 + self.ppm) / 1_000_000;
            if let Some(local) = self.base_local.checked_add(scaled) {
                return local;
            }
        }
        self.local_raw_wide(dt)
    }

    fn local_raw_wide(&self, dt: u64) -> i64 {
        let scaled = dt as i128 * (1_000_000 + self.ppm as i128) / 1_000_000;
        (self.base_local as i128 + scaled).clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }

    /// Local reading as protocol code sees it (never below zero).
    #[inline]
    pub fn local(&self, t: SimTime) -> SimTime {
        SimTime(self.local_raw(t).max(0) as u64)
    }

    /// The earliest true time `>= now` at which the local clock reads at least
    /// `local_deadline`.
    pub fn true_at(&self, now: SimTime, local_deadline: i64) -> SimTime {
        let cur = self.local_raw(now);
        if local_deadline <= cur {
            return now;
        }
        let need = local_deadline - self.base_local;
        // ceil(need * 10⁶ / rate), then verify against the forward map so the
        // rounding can never make a timer fire a microsecond early. In i64
        // when it cannot overflow (always, in practice), as `local_raw` does.
        let dt = if need.unsigned_abs() <= FAST_SPAN_US {
            let rate = 1_000_000 + self.ppm;
            ((need * 1_000_000 + rate - 1) / rate).max(0) as u64
        } else {
            let rate = 1_000_000 + self.ppm as i128;
            ((need as i128 * 1_000_000 + rate - 1) / rate).clamp(0, u64::MAX as i128) as u64
        };
        let mut t = SimTime(self.base_true.saturating_add(dt));
        while self.local_raw(t) < local_deadline {
            t = SimTime(t.0 + 1);
        }
        t.max(now)
    }

    /// Jump the local clock by `by_us` (either way) at true time `now`.
    pub fn step(&mut self, now: SimTime, by_us: i64) {
        let cur = self.local_raw(now);
        self.base_true = now.0;
        self.base_local = cur.saturating_add(by_us);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_clock_is_identity() {
        let c = Clock::new(0, 0);
        assert_eq!(c.local(SimTime(12345)), SimTime(12345));
        assert_eq!(c.true_at(SimTime(0), 777), SimTime(777));
    }

    #[test]
    fn fast_clock_fires_timers_early_in_true_time() {
        // +10% fast: 1 s local passes in ~0.909 s true.
        let c = Clock::new(100_000, 0);
        let t = c.true_at(SimTime(0), 1_000_000);
        assert_eq!(t, SimTime(909_091));
        assert!(c.local_raw(t) >= 1_000_000);
        assert!(c.local_raw(SimTime(t.0 - 1)) < 1_000_000);
    }

    #[test]
    fn step_forward_moves_deadlines_earlier() {
        let mut c = Clock::new(0, 0);
        c.step(SimTime(1_000), 5_000);
        assert_eq!(c.local(SimTime(1_000)), SimTime(6_000));
        assert_eq!(c.true_at(SimTime(1_000), 7_000), SimTime(2_000));
        // A deadline already passed fires now.
        assert_eq!(c.true_at(SimTime(1_000), 3_000), SimTime(1_000));
    }

    #[test]
    fn backwards_step_delays_deadlines() {
        let mut c = Clock::new(0, 0);
        c.step(SimTime(10_000), -4_000);
        assert_eq!(c.local(SimTime(10_000)), SimTime(6_000));
        assert_eq!(c.true_at(SimTime(10_000), 10_000), SimTime(14_000));
    }
}
