//! Lease-lab scenario settings (work in progress).

use super::{Scenario, ScenarioError};
use crate::check::Monitors;
use crate::protocol::NodeState;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaseSpec {}

pub fn build(_s: &Scenario, _names: &Arc<Vec<String>>) -> Result<(Vec<NodeState>, Monitors), ScenarioError> {
    Err(ScenarioError::MissingSection("lease", "lease"))
}

pub const BUILTIN_NAMES: [&str; 0] = [];

pub fn builtin(_name: &str) -> Option<Scenario> {
    None
}

pub fn print_summary(_run: &super::run::Run, _out: &mut dyn std::io::Write) {}

pub fn random_lease(seed: u64, _faults: crate::check::search::FaultSet, _m: Option<crate::check::Mutation>) -> Scenario {
    super::builtin::parliament("random", 3, &[(0, 0)]).with_seed(seed)
}

pub fn bench(_out: &mut dyn std::io::Write) {}
