//! Latency distributions for links and for the LLM service.
//!
//! Sampling uses `libm` (a pure-Rust port of musl's libm) rather than the
//! platform's `f64::ln`, so the same seed gives the same microseconds natively
//! and in the browser. Every sample is rounded to a whole microsecond.

use super::rng::Rng;
use super::time::SimDuration;
use serde::Serialize;

/// z for the 99th percentile of a standard normal.
const Z99: f64 = 2.326_347_874;

/// Written by serde's derive as `{"dist": "uniform", "min_us": …}`; read by
/// hand (`Latency::from_json`, see `json::tagged` for why).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "dist", rename_all = "snake_case")]
pub enum Latency {
    /// Always the same.
    Constant { us: u64 },
    /// Uniform between min and max (inclusive).
    Uniform { min_us: u64, max_us: u64 },
    /// Normal, truncated at `min_us` (default 0).
    Normal {
        mean_us: u64,
        sd_us: u64,
        min_us: u64,
    },
    /// Log-normal with the given median and shape σ (of the underlying normal).
    LogNormal { median_us: u64, sigma: f64 },
    /// Exponential with the given mean, plus a fixed floor.
    Exponential { mean_us: u64, min_us: u64 },
    /// What a chat-completion API looks like from the outside: a log-normal
    /// body, and with probability `tail_prob` a Pareto tail starting at
    /// `tail_min_us` (stalls of tens of seconds), capped at `max_us`.
    LlmLike {
        median_us: u64,
        sigma: f64,
        tail_prob: f64,
        tail_min_us: u64,
        tail_alpha: f64,
        max_us: u64,
    },
}

#[cfg(test)]
impl<'de> serde::Deserialize<'de> for Latency {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::json::by_hand(d)
    }
}

impl crate::json::FromValue for Latency {
    fn from_value(value: serde_json::Value) -> Result<Latency, String> {
        Latency::from_json(value)
    }
}

impl Latency {
    /// The variants' names as written (`"dist"`).
    pub const KINDS: &'static [&'static str] = &[
        "constant",
        "uniform",
        "normal",
        "log_normal",
        "exponential",
        "llm_like",
    ];

    pub fn from_json(value: serde_json::Value) -> Result<Latency, String> {
        let (kind, fields) = crate::json::tagged(value, "dist", Self::KINDS)?;
        fields.read_all(|f| {
            Ok(match kind {
                "constant" => Latency::Constant { us: f.read("us")? },
                "uniform" => Latency::Uniform {
                    min_us: f.read("min_us")?,
                    max_us: f.read("max_us")?,
                },
                "normal" => Latency::Normal {
                    mean_us: f.read("mean_us")?,
                    sd_us: f.read("sd_us")?,
                    min_us: f.read_or("min_us", 0)?,
                },
                "log_normal" => Latency::LogNormal {
                    median_us: f.read("median_us")?,
                    sigma: f.read("sigma")?,
                },
                "exponential" => Latency::Exponential {
                    mean_us: f.read("mean_us")?,
                    min_us: f.read_or("min_us", 0)?,
                },
                _ => Latency::LlmLike {
                    median_us: f.read("median_us")?,
                    sigma: f.read("sigma")?,
                    tail_prob: f.read("tail_prob")?,
                    tail_min_us: f.read("tail_min_us")?,
                    tail_alpha: f.read("tail_alpha")?,
                    max_us: f.read("max_us")?,
                },
            })
        })
    }
}

impl Default for Latency {
    fn default() -> Self {
        Latency::Uniform {
            min_us: 20_000,
            max_us: 60_000,
        }
    }
}

/// A value that failed validation, with the reason in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSetting {
    /// Where it is in the scenario file (`network.latency.max_us`).
    pub field: String,
    pub reason: String,
}

impl BadSetting {
    /// The same refusal, its field inside `section` (`latency` → `network.latency`).
    pub fn within(self, section: &str) -> BadSetting {
        BadSetting {
            field: format!("{section}.{}", self.field),
            reason: self.reason,
        }
    }
}

impl Latency {
    /// The "typical LLM" preset: median 1.5 s, p99 in the tens of seconds.
    pub fn typical_llm() -> Self {
        Latency::LlmLike {
            median_us: 1_500_000,
            sigma: 0.6,
            tail_prob: 0.03,
            tail_min_us: 8_000_000,
            tail_alpha: 1.3,
            max_us: 120_000_000,
        }
    }

    /// Draw one latency.
    pub fn sample(&self, rng: &mut Rng) -> SimDuration {
        let us = match *self {
            Latency::Constant { us } => us as f64,
            Latency::Uniform { min_us, max_us } => rng.range_inclusive(min_us, max_us) as f64,
            Latency::Exponential { mean_us, min_us } => {
                min_us as f64 - mean_us as f64 * libm::log(rng.next_f64_open0())
            }
            Latency::Normal { .. } | Latency::LogNormal { .. } | Latency::LlmLike { .. } => {
                bell_shapes()(self, rng)
            }
        };
        SimDuration(round_us(us))
    }

    /// Advance `rng` exactly as `sample` would, without computing the sample.
    /// The network draws a latency for a possible second copy of every
    /// message (so that the stream advances the same way whatever happens),
    /// but rarely needs it: this saves the logarithms. `skip_matches_sample`
    /// checks that both consume the same numbers for every distribution.
    pub fn skip(&self, rng: &mut Rng) {
        let draws = match *self {
            Latency::Constant { .. } => 0,
            // `range_inclusive` draws nothing when the range is one value, nor
            // (through `below(0)`) when it is all of u64.
            Latency::Uniform { min_us, max_us } => {
                u32::from(max_us > min_us && max_us - min_us != u64::MAX)
            }
            Latency::Normal { .. } | Latency::LogNormal { .. } => 2,
            Latency::Exponential { .. } => 1,
            Latency::LlmLike { .. } => 4,
        };
        for _ in 0..draws {
            rng.next_u64();
        }
    }

    /// The median, where it is known in closed form (used in captions).
    pub fn median_us(&self) -> u64 {
        match *self {
            Latency::Constant { us } => us,
            Latency::Uniform { min_us, max_us } => (min_us + max_us) / 2,
            Latency::Normal { mean_us, .. } => mean_us,
            Latency::LogNormal { median_us, .. } => median_us,
            Latency::Exponential { mean_us, min_us } => {
                min_us + round_us(mean_us as f64 * core::f64::consts::LN_2)
            }
            Latency::LlmLike { .. } => self.percentile_us(0.5),
        }
    }

    /// The p-th quantile (0 < p < 1). Closed form where there is one;
    /// otherwise estimated from 20,000 draws of a fixed private stream, so the
    /// answer is deterministic too.
    pub fn percentile_us(&self, p: f64) -> u64 {
        match *self {
            Latency::Constant { us } => us,
            Latency::Uniform { min_us, max_us } => min_us + round_us((max_us - min_us) as f64 * p),
            Latency::LogNormal { median_us, sigma } if (p - 0.99).abs() < 1e-12 => {
                round_us(median_us as f64 * libm::exp(sigma * Z99))
            }
            Latency::Exponential { mean_us, min_us } => {
                min_us + round_us(-(mean_us as f64) * libm::log(1.0 - p))
            }
            _ => {
                let mut rng = Rng::new(0x5EED_5EED, super::rng::Stream::Llm);
                let mut xs: Vec<u64> = (0..20_000).map(|_| self.sample(&mut rng).0).collect();
                xs.sort_unstable();
                let idx = ((xs.len() as f64 * p) as usize).min(xs.len() - 1);
                xs[idx]
            }
        }
    }

    /// Refuse settings that make no sense, naming the field and the reason.
    pub fn validate(&self) -> Result<(), BadSetting> {
        let bad = |field: &str, reason: &str| {
            Err(BadSetting {
                field: field.to_string(),
                reason: reason.to_string(),
            })
        };
        let finite_pos = |x: f64| x.is_finite() && x > 0.0;
        match *self {
            Latency::Constant { .. } => Ok(()),
            Latency::Uniform { min_us, max_us } if max_us < min_us => {
                bad("max_us", "the maximum latency is below the minimum")
            }
            Latency::Uniform { .. } => Ok(()),
            Latency::Normal { .. } => Ok(()),
            Latency::LogNormal { sigma, .. } if !finite_pos(sigma) || sigma > 5.0 => {
                bad("sigma", "σ must be a number above 0 and at most 5")
            }
            Latency::LogNormal { .. } => Ok(()),
            Latency::Exponential { mean_us: 0, .. } => bad("mean_us", "the mean must be above 0"),
            Latency::Exponential { .. } => Ok(()),
            Latency::LlmLike {
                sigma,
                tail_prob,
                tail_alpha,
                max_us,
                median_us,
                ..
            } => {
                if !finite_pos(sigma) || sigma > 5.0 {
                    bad("sigma", "σ must be a number above 0 and at most 5")
                } else if !(0.0..=1.0).contains(&tail_prob) {
                    bad("tail_prob", "a probability must be between 0 and 1")
                } else if !finite_pos(tail_alpha) {
                    bad("tail_alpha", "the tail exponent must be above 0")
                } else if max_us < median_us {
                    bad("max_us", "the cap is below the median")
                } else {
                    Ok(())
                }
            }
        }
    }
}

fn round_us(x: f64) -> u64 {
    if x.is_finite() && x > 0.0 {
        libm::round(x) as u64
    } else {
        0
    }
}

/// The shapes drawn through a standard normal (normal, log-normal,
/// LLM-like), in microseconds before rounding. No built-in Paxos run uses
/// them, so in the split page they come with the parts ([`install_shapes`]),
/// which are here before any scenario that has them can be made: the lease
/// lab's and the lessons' built-ins, files, links, the inspector. Everywhere
/// else an ordinary call.
fn bell(l: &Latency, rng: &mut Rng) -> f64 {
    match *l {
        Latency::Normal {
            mean_us,
            sd_us,
            min_us,
        } => (mean_us as f64 + sd_us as f64 * std_normal(rng)).max(min_us as f64),
        Latency::LogNormal { median_us, sigma } => {
            median_us as f64 * libm::exp(sigma * std_normal(rng))
        }
        Latency::LlmLike {
            median_us,
            sigma,
            tail_prob,
            tail_min_us,
            tail_alpha,
            max_us,
        } => {
            // Always draw the same count of numbers, whichever branch wins,
            // so one call consumes a fixed amount of the stream.
            let in_tail = rng.chance(tail_prob);
            let body = median_us as f64 * libm::exp(sigma * std_normal(rng));
            let u = rng.next_f64_open0();
            let tail = tail_min_us as f64 * libm::exp(-libm::log(u) / tail_alpha.max(0.05));
            let x = if in_tail { tail.max(body) } else { body };
            x.min(max_us as f64)
        }
        Latency::Constant { .. } | Latency::Uniform { .. } | Latency::Exponential { .. } => {
            unreachable!("drawn by Latency::sample")
        }
    }
}

type Bell = fn(&Latency, &mut Rng) -> f64;

fn bell_shapes() -> Bell {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return *BELL
        .get()
        .expect("a part installs the normal-shaped latencies before a scenario can have one");
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    bell
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
static BELL: std::sync::OnceLock<Bell> = std::sync::OnceLock::new();

/// Makes the normal-shaped latencies drawable (the split page's parts call
/// it when they arrive; elsewhere it does nothing).
pub fn install_shapes() {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    let _ = BELL.set(bell);
}

/// Standard normal by Box–Muller; draws exactly two numbers.
fn std_normal(rng: &mut Rng) -> f64 {
    let u1 = rng.next_f64_open0();
    let u2 = rng.next_f64();
    libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(2.0 * core::f64::consts::PI * u2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::Stream;

    fn draws(l: &Latency, n: usize) -> Vec<u64> {
        let mut r = Rng::new(3, Stream::Network);
        let mut v: Vec<u64> = (0..n).map(|_| l.sample(&mut r).0).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn uniform_and_constant_stay_in_range() {
        assert!(draws(&Latency::Constant { us: 5 }, 100)
            .iter()
            .all(|&x| x == 5));
        let v = draws(
            &Latency::Uniform {
                min_us: 10,
                max_us: 20,
            },
            1000,
        );
        assert!(v[0] >= 10 && v[999] <= 20);
    }

    #[test]
    fn lognormal_median_is_close() {
        let v = draws(
            &Latency::LogNormal {
                median_us: 1000,
                sigma: 0.5,
            },
            20_000,
        );
        let med = v[10_000] as f64;
        assert!((900.0..1100.0).contains(&med), "median {med}");
    }

    #[test]
    fn exponential_mean_is_close() {
        let v = draws(
            &Latency::Exponential {
                mean_us: 1000,
                min_us: 0,
            },
            20_000,
        );
        let mean = v.iter().sum::<u64>() as f64 / v.len() as f64;
        assert!((950.0..1050.0).contains(&mean), "mean {mean}");
    }

    #[test]
    fn typical_llm_is_heavy_tailed() {
        let l = Latency::typical_llm();
        let p50 = l.percentile_us(0.5);
        let p99 = l.percentile_us(0.99);
        assert!((1_000_000..=2_000_000).contains(&p50), "p50 {p50}");
        assert!(p99 >= 10_000_000, "p99 {p99} should be tens of seconds");
        assert!(p99 <= 60_000_000, "p99 {p99}");
    }

    #[test]
    fn skip_matches_sample() {
        let all = [
            Latency::Constant { us: 5 },
            Latency::Uniform {
                min_us: 10,
                max_us: 20,
            },
            Latency::Uniform {
                min_us: 10,
                max_us: 10,
            },
            Latency::Uniform {
                min_us: 10,
                max_us: 5,
            },
            Latency::Normal {
                mean_us: 100,
                sd_us: 10,
                min_us: 0,
            },
            Latency::LogNormal {
                median_us: 1000,
                sigma: 0.5,
            },
            Latency::Exponential {
                mean_us: 1000,
                min_us: 3,
            },
            Latency::typical_llm(),
        ];
        for l in &all {
            for seed in 0..50 {
                let mut a = Rng::new(seed, Stream::Network);
                let mut b = a.clone();
                l.sample(&mut a);
                l.skip(&mut b);
                assert_eq!(a, b, "{l:?} seed {seed}");
            }
        }
    }

    #[test]
    fn validation_names_the_field() {
        let e = Latency::Uniform {
            min_us: 5,
            max_us: 1,
        }
        .validate()
        .unwrap_err();
        assert_eq!(e.field, "max_us");
        assert!(Latency::LogNormal {
            median_us: 1,
            sigma: f64::NAN
        }
        .validate()
        .is_err());
    }
}
