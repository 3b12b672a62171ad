//! Pure geometry for the views: layouts, message positions at time t, colours.
//! No signals and no DOM here, so it is tested natively.

pub mod charts;
pub mod commit;
pub mod flights;
pub mod lease;
pub mod multipaxos;
pub mod narrate;
pub mod palette;
pub mod parliament;
pub mod spacetime;
pub mod sql;
