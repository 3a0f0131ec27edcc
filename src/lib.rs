//! Template Extractor: site-level web template extraction after Alarte,
//! Insa, Silva and Tamarit (complete subdigraphs of mutually linked pages and
//! an equal top-down mapping with votes), with RTDM-TD (Vieira et al.) as an
//! alternative mapping. Pure Rust over a compact DOM snapshot; the native
//! parser and CLI live behind `cfg(not(wasm32))`, the browser glue behind
//! `cfg(wasm32)`.

pub mod app_shell;
pub mod compare_ahead;
pub mod complete_subdigraph;
pub mod config;
pub mod current_item;
pub mod dom;
pub mod dom_distance;
pub mod equality;
pub mod error;
pub mod extract;
pub mod fetch_policy;
pub mod generated_names;
pub mod hyperlink;
pub mod layout_agreement;
pub mod link_order;
pub mod mapping;
pub mod page_body;
pub mod page_source;
pub mod repeated_lists;
pub mod rtdm;
pub mod saved_template;
pub mod score;
pub mod served_alignment;
pub mod served_key;
pub mod state_marker;
pub mod template;
pub mod template_memory;
pub mod text_recurrence;
pub mod view_collapse;
pub mod visited_routes;

#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod collection;
#[cfg(not(target_arch = "wasm32"))]
pub mod collection_bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod collection_input;
#[cfg(not(target_arch = "wasm32"))]
pub mod collection_run;
pub mod html;
#[cfg(not(target_arch = "wasm32"))]
pub mod site_folder;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
/// The extension's failure sentences are plain Rust: their tests also run
/// natively (where only the tests, not the glue, call them).
#[cfg(all(test, not(target_arch = "wasm32")))]
#[allow(dead_code)]
#[path = "wasm/failure.rs"]
mod wasm_failure;
