//! The LLM advisor: an external chat-completion service, as the lease loop
//! experiences it from the outside.
//!
//! It is slow with a heavy tail (a typical call takes 1–2 s, the 99th
//! percentile tens of seconds), non-deterministic (now and then the JSON is
//! broken), and not ours (rate limits with retry-after, refusals, outages).
//! Each preset draws its latency and its answer from the scenario's LLM
//! random stream, held by the node, so the LLM's moods do not reshuffle the
//! network or the timers.

use crate::protocol::lease::{LeaseMsg, LeaseNode, LeaseTimer};
use crate::sim::dist::Latency;
use crate::sim::rng::Rng;
use crate::sim::{Ctx, Hosts, NodeId, SimDuration};
use crate::sorted::VecMap;
use serde::Serialize;

/// What the worker asks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Purpose {
    /// "Should I keep the lease?" (the anti-pattern).
    KeepLease,
    /// "Explain what just happened" (the sound use, after the fact).
    Explain,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::KeepLease => "keep_lease",
            Purpose::Explain => "explain",
        }
    }
}

/// What comes back (or does not).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LlmOutcome {
    Keep,
    Release,
    Explained,
    /// The JSON does not parse.
    Malformed,
    /// The vendor's filter declines to answer.
    Refusal,
    /// HTTP 429 with a retry-after.
    RateLimited {
        retry_after_us: u64,
    },
    /// HTTP 503: the vendor is down.
    Unavailable,
    /// No answer before the client gave up.
    Timeout,
}

impl LlmOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            LlmOutcome::Keep => "keep",
            LlmOutcome::Release => "release",
            LlmOutcome::Explained => "explained",
            LlmOutcome::Malformed => "malformed_json",
            LlmOutcome::Refusal => "refusal",
            LlmOutcome::RateLimited { .. } => "rate_limited",
            LlmOutcome::Unavailable => "unavailable",
            LlmOutcome::Timeout => "timeout",
        }
    }
}

/// Behaviours drawn from reality. Written by serde's derive as
/// `{"preset": "stall", "for_us": …}`; read by hand (`LlmPreset::from_json`,
/// see `json::tagged` for why).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "preset", rename_all = "snake_case")]
pub enum LlmPreset {
    /// A fast API: ~300 ms, rarely over 1 s.
    FastApi,
    /// A typical chat completion: p50 ≈ 1.5 s, p99 in the tens of seconds,
    /// and 3 % of answers are not valid JSON.
    TypicalLlm,
    /// Every call takes `for_us`.
    Stall { for_us: u64 },
    /// The service never answers; the client's timeout fires.
    Timeout,
    /// Every call is refused with 429 and a retry-after.
    RateLimit { retry_after_us: u64 },
    /// The vendor's filter declines.
    Refusal,
    /// Answers arrive, but the JSON is broken.
    MalformedJson,
    /// The vendor is down (503).
    Outage,
    /// Non-determinism: as fast as `FastApi`, but the same question gets
    /// different answers — "keep" mostly, "release" now and then (8 %), and
    /// JSON that does not parse (8 %).
    Flaky,
    /// Authority: as fast as `FastApi`, but the vendor's policy gets in the
    /// way — 20 % of calls are rate-limited (429, retry after 2 s) and 5 %
    /// refused by its filter.
    Throttled,
    /// Answers "keep" after a latency drawn from `latency` (used by sweeps).
    Custom { latency: Latency },
}

#[cfg(test)]
impl<'de> serde::Deserialize<'de> for LlmPreset {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::json::by_hand(d)
    }
}

impl crate::json::FromValue for LlmPreset {
    fn from_value(value: serde_json::Value) -> Result<LlmPreset, String> {
        LlmPreset::from_json(value)
    }
}

impl LlmPreset {
    /// The presets' names as written (`"preset"`).
    pub const KINDS: &'static [&'static str] = &[
        "fast_api",
        "typical_llm",
        "stall",
        "timeout",
        "rate_limit",
        "refusal",
        "malformed_json",
        "outage",
        "flaky",
        "throttled",
        "custom",
    ];

    pub fn from_json(value: serde_json::Value) -> Result<LlmPreset, String> {
        let (kind, fields) = crate::json::tagged(value, "preset", Self::KINDS)?;
        fields.read_all(|f| {
            Ok(match kind {
                "fast_api" => LlmPreset::FastApi,
                "typical_llm" => LlmPreset::TypicalLlm,
                "stall" => LlmPreset::Stall {
                    for_us: f.read("for_us")?,
                },
                "timeout" => LlmPreset::Timeout,
                "rate_limit" => LlmPreset::RateLimit {
                    retry_after_us: f.read("retry_after_us")?,
                },
                "refusal" => LlmPreset::Refusal,
                "malformed_json" => LlmPreset::MalformedJson,
                "outage" => LlmPreset::Outage,
                "flaky" => LlmPreset::Flaky,
                "throttled" => LlmPreset::Throttled,
                _ => LlmPreset::Custom {
                    latency: Latency::from_json(f.value("latency")?)?,
                },
            })
        })
    }
}

impl Default for LlmPreset {
    fn default() -> Self {
        LlmPreset::TypicalLlm
    }
}

impl LlmPreset {
    /// The latency of an answer (for the presets that answer).
    pub fn latency(&self) -> Latency {
        match *self {
            LlmPreset::FastApi | LlmPreset::Flaky | LlmPreset::Throttled => Latency::LogNormal {
                median_us: 300_000,
                sigma: 0.4,
            },
            LlmPreset::TypicalLlm | LlmPreset::MalformedJson => Latency::typical_llm(),
            LlmPreset::Stall { for_us } => Latency::Constant { us: for_us },
            LlmPreset::RateLimit { .. } | LlmPreset::Outage => Latency::Uniform {
                min_us: 20_000,
                max_us: 80_000,
            },
            LlmPreset::Refusal => Latency::LogNormal {
                median_us: 800_000,
                sigma: 0.3,
            },
            LlmPreset::Custom { ref latency } => latency.clone(),
            // Never answers: as far as the caller can tell, infinitely slow.
            LlmPreset::Timeout => Latency::Constant { us: u64::MAX / 4 },
        }
    }

    fn outcome(&self, purpose: Purpose, u: f64) -> Option<LlmOutcome> {
        Some(match *self {
            LlmPreset::Timeout => return None,
            LlmPreset::Outage => LlmOutcome::Unavailable,
            LlmPreset::RateLimit { retry_after_us } => LlmOutcome::RateLimited { retry_after_us },
            LlmPreset::Refusal => LlmOutcome::Refusal,
            LlmPreset::MalformedJson => LlmOutcome::Malformed,
            _ if purpose == Purpose::Explain => LlmOutcome::Explained,
            LlmPreset::TypicalLlm if u < 0.03 => LlmOutcome::Malformed,
            LlmPreset::Flaky if u < 0.08 => LlmOutcome::Release,
            LlmPreset::Flaky if u < 0.16 => LlmOutcome::Malformed,
            LlmPreset::Throttled if u < 0.2 => LlmOutcome::RateLimited {
                retry_after_us: 2_000_000,
            },
            LlmPreset::Throttled if u < 0.25 => LlmOutcome::Refusal,
            _ => LlmOutcome::Keep,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Llm {
    pub preset: LlmPreset,
    pub rng: Rng,
    /// Injected stalls: the next answer to this worker takes this long.
    pub stall_next: VecMap<NodeId, SimDuration>,
    /// An injected outage.
    pub down: bool,
    /// Answers being "generated": our id → (asker, their request, outcome).
    pub working: VecMap<u32, (NodeId, u32, LlmOutcome)>,
    next: u32,
}

impl Llm {
    pub fn new(preset: LlmPreset, rng: Rng) -> Self {
        Llm {
            preset,
            rng,
            stall_next: VecMap::new(),
            down: false,
            working: VecMap::new(),
            next: 0,
        }
    }

    pub fn on_message<H: Hosts<LeaseNode>>(
        &mut self,
        from: NodeId,
        m: LeaseMsg,
        ctx: &mut Ctx<LeaseNode, H>,
    ) {
        let LeaseMsg::Ask { req, purpose } = m else {
            return;
        };
        // Always two draws per request, whatever the preset.
        let sampled = self.preset.latency().sample(&mut self.rng);
        let u = self.rng.next_f64();
        let (latency, outcome) = if self.down {
            (SimDuration(30_000), Some(LlmOutcome::Unavailable))
        } else {
            let outcome = self.preset.outcome(purpose, u);
            let latency = self.stall_next.remove(&from).unwrap_or(sampled);
            (latency, outcome)
        };
        let Some(outcome) = outcome else { return };
        self.next = self.next.wrapping_add(1);
        self.working.insert(self.next, (from, req, outcome));
        ctx.set_timer(LeaseTimer::Answer(self.next), latency);
    }

    pub fn on_timer<H: Hosts<LeaseNode>>(&mut self, t: LeaseTimer, ctx: &mut Ctx<LeaseNode, H>) {
        if let LeaseTimer::Answer(id) = t {
            if let Some((to, req, outcome)) = self.working.remove(&id) {
                ctx.send(to, LeaseMsg::Answer { req, outcome });
            }
        }
    }

    pub fn on_crash(&mut self) {
        self.working.clear();
    }
}
