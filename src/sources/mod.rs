//! Pages from the file system, for the CLI, the benchmarks and the tests: a
//! folder of saved pages served as one origin (`site_folder`), and which
//! file a URL path names (`file_urls`, also the collection's). The
//! browser's page source is `wasm::fetch_source`; a crawl's is
//! `collection::page_store`. Native only.
//!
//! May use: every layer below (`base` to `memory`).

pub mod file_urls;
pub mod site_folder;
