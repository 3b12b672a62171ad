//! The network between nodes: latency, loss, duplication, reordering and
//! partitions, all drawn from the scenario's *network* random stream.
//!
//! Every send draws the same count of random numbers whatever happens to the
//! message, so turning loss up does not change the latencies of the messages
//! that survive — the runs stay comparable when a student turns one knob.

use super::dist::{BadSetting, Latency};
use super::rng::Rng;
use super::time::SimDuration;
use super::NodeId;
use crate::sorted::VecMap;
use serde::Serialize;

/// Network settings as written in a scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    #[serde(default)]
    pub latency: Latency,
    /// Probability that a message is lost on the way.
    #[serde(default)]
    pub loss: f64,
    /// Probability that a message is delivered twice.
    #[serde(default)]
    pub duplicate: f64,
    /// Probability that a message is held back (2–4× its latency), so that a
    /// later message overtakes it.
    #[serde(default)]
    pub reorder: f64,
    /// Per-link exceptions (directed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkSpec>,
    /// Nothing moves by itself: every message waits until the script
    /// delivers it (`deliver`, any number of times), and every timer until
    /// the script fires it (`fire`). This is how a model checker's
    /// counterexample, which picks each step, is replayed as a scenario.
    #[serde(default, skip_serializing_if = "is_false")]
    pub scripted: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig {
            latency: Latency::default(),
            loss: 0.0,
            duplicate: 0.0,
            reorder: 0.0,
            links: Vec::new(),
            scripted: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    pub from: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<Latency>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
}

pub fn check_probability(field: &str, p: f64) -> Result<(), BadSetting> {
    if p.is_finite() && (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(BadSetting {
            field: field.to_string(),
            reason: format!(
                "{} is not a probability between 0 and 1",
                crate::float::short(p)
            ),
        })
    }
}

impl NetworkConfig {
    pub fn validate(&self) -> Result<(), BadSetting> {
        self.latency
            .validate()
            .map_err(|b| b.within("network.latency"))?;
        check_probability("network.loss", self.loss)?;
        check_probability("network.duplicate", self.duplicate)?;
        check_probability("network.reorder", self.reorder)?;
        for l in &self.links {
            if let Some(lat) = &l.latency {
                lat.validate()
                    .map_err(|b| b.within("network.links.latency"))?;
            }
            if let Some(p) = l.loss {
                check_probability("network.links.loss", p)?;
            }
        }
        Ok(())
    }
}

/// What the network decided for one message, drawn at send time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fate {
    /// `None`: lost on the way.
    pub latency: Option<SimDuration>,
    /// A second copy, with its own latency.
    pub duplicate: Option<SimDuration>,
    /// How long until a lost message is known lost (it "falls" halfway).
    pub fall_after: SimDuration,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub latency: Option<Latency>,
    pub loss: Option<f64>,
}

/// The running network: settings plus partitions.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub latency: Latency,
    pub loss: f64,
    pub duplicate: f64,
    pub reorder: f64,
    pub links: VecMap<(NodeId, NodeId), Link>,
    /// `blocked[from]` has bit `to` set when from → to is cut.
    blocked: Vec<u64>,
    /// See [`NetworkConfig::scripted`].
    pub scripted: bool,
}

impl Network {
    pub fn new(cfg: &NetworkConfig, links: VecMap<(NodeId, NodeId), Link>, nodes: usize) -> Self {
        Network {
            latency: cfg.latency.clone(),
            loss: cfg.loss,
            duplicate: cfg.duplicate,
            reorder: cfg.reorder,
            links,
            blocked: vec![0; nodes],
            scripted: cfg.scripted,
        }
    }

    pub fn is_blocked(&self, from: NodeId, to: NodeId) -> bool {
        self.blocked
            .get(from.index())
            .is_some_and(|m| m & (1u64 << to.index()) != 0)
    }

    pub fn block(&mut self, from: NodeId, to: NodeId) {
        if from != to {
            if let Some(m) = self.blocked.get_mut(from.index()) {
                *m |= 1u64 << to.index();
            }
        }
    }

    pub fn heal(&mut self) {
        self.blocked.iter_mut().for_each(|m| *m = 0);
    }

    pub fn any_blocked(&self) -> bool {
        self.blocked.iter().any(|&m| m != 0)
    }

    /// Directed links that are cut, in a stable order.
    pub fn blocked_links(&self) -> Vec<(NodeId, NodeId)> {
        let mut v = Vec::new();
        for (f, &m) in self.blocked.iter().enumerate() {
            for t in 0..64 {
                if m & (1u64 << t) != 0 {
                    v.push((NodeId(f as u8), NodeId(t as u8)));
                }
            }
        }
        v
    }

    /// Decide what happens to one message from → to.
    pub fn fate(&self, from: NodeId, to: NodeId, rng: &mut Rng) -> Fate {
        let link = self.links.get(&(from, to));
        let lat = link
            .and_then(|l| l.latency.as_ref())
            .unwrap_or(&self.latency);
        let loss = link.and_then(|l| l.loss).unwrap_or(self.loss);
        let lost = rng.chance(loss);
        let base = lat.sample(rng);
        let held_back = rng.chance(self.reorder);
        let extra_factor = rng.range_inclusive(100, 300);
        let dup = rng.chance(self.duplicate);
        // A second copy's latency is drawn for every message, so that the
        // stream advances the same way whatever happens; it is only worked
        // out when a copy really goes (sampling costs a logarithm or two).
        let dup_lat = if dup && !lost {
            Some(lat.sample(rng))
        } else {
            lat.skip(rng);
            None
        };
        let mut latency = base;
        if held_back {
            latency = latency + SimDuration(base.0 * extra_factor / 100);
        }
        // A zero-latency hop between two machines would let a message arrive
        // in the same instant it was sent; keep at least one microsecond.
        let latency = SimDuration(latency.0.max(1));
        Fate {
            latency: if lost { None } else { Some(latency) },
            duplicate: dup_lat.map(|d| SimDuration(d.0.max(1))),
            fall_after: SimDuration((latency.0 / 2).max(1)),
        }
    }
}
