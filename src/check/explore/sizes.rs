//! How many states each small, unmutated configuration has, measured
//! natively by a full search (`tests/model_check.rs` re-measures the small
//! ones, so the table cannot drift from the checker). The page uses it for its
//! progress bar and its "time left"; a configuration not listed (too large
//! for the page, or a mutation, which stops early) has no estimate.

use super::paxos::PaxosModel;

/// (acceptors, proposers, ballots, crashes, states).
pub const STATES: &[(usize, usize, u32, u8, usize)] = &[
];

/// The states of a full search of `m`, if measured.
pub fn known(m: &PaxosModel) -> Option<usize> {
    if m.mutation.is_some() {
        return None;
    }
    STATES
        .iter()
        .find(|r| (r.0, r.1, r.2, r.3) == (m.acceptors, m.proposers, m.ballots, m.crashes))
        .map(|r| r.4)
}
