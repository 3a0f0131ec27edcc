//! Measuring the method against hand-marked pages: scores per page and
//! macro averages (`score`, thesis §4.2), the benchmark runner behind
//! `tex bench` and Check benchmarks' comparison (`bench`), and the
//! collection mode's benchmark beside other extractors (`collection_bench`),
//! and what needs no gold on an unlabelled corpus: self-agreement,
//! degenerate evidence, key page against collection (`robustness`), and
//! a collection's content against each page's own markup (`markup_labels`).
//!
//! May use: every layer below (`base` to `collection`).

#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod collection_bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod markup_labels;
#[cfg(not(target_arch = "wasm32"))]
pub mod robustness;
pub mod score;
