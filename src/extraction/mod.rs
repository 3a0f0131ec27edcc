//! One whole extraction: from a key page and a page source to its template,
//! with the loads and timings a report shows (`extract`), and the
//! template's paths for reports (`template_paths`).
//!
//! May use: every layer below (`base` to `decide`).

pub mod extract;
pub mod template_paths;
