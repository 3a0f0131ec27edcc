//! One whole extraction: from a key page and a page source to its template,
//! with the loads, timings and paths a report shows (`extract`).
//!
//! May use: every layer below (`base` to `decide`).

pub mod extract;
