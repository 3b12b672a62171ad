//! Pure geometry for the views: layouts, message positions at time t, colours.
//! No signals and no DOM here, so it is tested natively.
