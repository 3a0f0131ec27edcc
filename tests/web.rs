//! The browser glue's reference: `tests/web/snapshots/` must describe exactly
//! the snapshot html5ever builds for each fixture, because the wasm tests
//! (`src/wasm/tests.rs`, run by `build.sh test` in headless Chromium and
//! Firefox) require the web-sys walk to produce those same descriptions.
//! `TEX_BLESS=1 cargo test --test web` rewrites them after a deliberate change.

use template_extractor::page::dom::Tree;

#[path = "web/common.rs"]
mod common;
use common::{describe, expected, FIXTURES};

#[test]
fn stored_snapshots_are_the_native_ones() {
    use template_extractor::page::html::{parse, snapshot};
    let bless = std::env::var_os("TEX_BLESS").is_some();
    for (name, html) in FIXTURES {
        let native = describe(&snapshot(&parse(html)).expect("elements"));
        if bless {
            let path = format!("{}/tests/web/snapshots/{name}.txt", env!("CARGO_MANIFEST_DIR"));
            std::fs::write(path, &native).expect("writable snapshot");
        } else {
            assert_eq!(
                native,
                expected(name),
                "{name}: run TEX_BLESS=1 cargo test --test web after a deliberate change"
            );
        }
    }
}
