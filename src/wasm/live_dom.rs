//! The browser's DOM as the core's snapshot, walked by `extension/live-dom.js`
//! in one call and decoded here (reading each node through web-sys cost
//! about 8.5 µs per element, the one-call walk a fraction of that).
//!
//! The walk visits elements in document order exactly as html5ever's tree
//! does natively (`html.rs`), so node `i` of the snapshot is element `i` of
//! the walk: that shared numbering is how a template computed by the core
//! is found again on live nodes.

use std::sync::OnceLock;

use wasm_bindgen::prelude::*;
use web_sys::Element;

use crate::dom::{Tree, TreeBuilder, OWN_ATTRIBUTE_PREFIX};

/// A random word drawn once per load of the core in a page: every attribute
/// the extension sets is `data-tex-<word>-<kind>`, a name no page can have
/// chosen, so a page's own `data-tex-*` attributes and elements are never
/// read, removed or skipped as ours.
fn namespace() -> &'static str {
    static WORD: OnceLock<String> = OnceLock::new();
    WORD.get_or_init(|| {
        let draw = || (js_sys::Math::random() * 2f64.powi(52)) as u64;
        format!("{:x}{:x}", draw(), draw())
    })
}

/// The attribute name of one kind of our marks (`own`, `template`, `hidden`…).
pub fn mark(kind: &str) -> String {
    format!("{OWN_ATTRIBUTE_PREFIX}{}-{kind}", namespace())
}

/// Elements the extension adds to a page (its view stylesheet) carry
/// `mark(OWN)`; every walk skips them so indexes never shift.
pub const OWN: &str = "own";

#[wasm_bindgen]
extern "C" {
    /// `extension/live-dom.js`, injected before the core: the walk in one call.
    #[wasm_bindgen(js_namespace = texLiveDom, js_name = walk)]
    fn flat_walk(root: &Element, own: &str, with_tree: bool) -> js_sys::Array;
}

/// The snapshot of the subtree rooted at `root`, with the live elements in
/// the snapshot's order, or `None` when `root` is one of our own elements.
pub fn snapshot(root: &Element) -> Option<(Tree, Vec<Element>)> {
    let walked = flat_walk(root, &mark(OWN), true);
    let strings = walked.get(1).as_string().unwrap_or_default();
    let codes = js_sys::Int32Array::from(walked.get(2)).to_vec();
    let tree = decode(&strings, &codes)?;
    Some((tree, live_elements(&walked)))
}

/// The elements of the subtree rooted at `root`, in snapshot order.
pub fn elements(root: &Element) -> Vec<Element> {
    live_elements(&flat_walk(root, &mark(OWN), false))
}

fn live_elements(walked: &js_sys::Array) -> Vec<Element> {
    js_sys::Array::from(&walked.get(0)).iter().map(JsCast::unchecked_into).collect()
}

/// Builds the tree from the walk's encoding (see `live-dom.js`): codes
/// whose lengths, in UTF-16 units, cut `strings` into tags, attributes and texts.
fn decode(strings: &str, codes: &[i32]) -> Option<Tree> {
    let mut rest = Utf16Cursor { rest: strings, ascii: strings.is_ascii() };
    let mut codes = codes.iter().map(|&c| c.max(0) as usize);
    let mut builder = TreeBuilder::new();
    let mut attributes: Vec<(&str, &str)> = Vec::new();
    while let Some(code) = codes.next() {
        match code {
            0 => {
                let tag = rest.take(codes.next()?);
                attributes.clear();
                for _ in 0..codes.next()? {
                    let (name, value) = (codes.next()?, codes.next()?);
                    attributes.push((rest.take(name), rest.take(value)));
                }
                builder.open(tag, attributes.iter().copied());
            }
            1 => builder.close(),
            _ => builder.text(rest.take(codes.next()?)),
        }
    }
    builder.finish()
}

/// Reads consecutive pieces of a string whose lengths JavaScript measured in UTF-16 units.
struct Utf16Cursor<'a> {
    rest: &'a str,
    /// All ASCII: a UTF-16 unit is a byte.
    ascii: bool,
}

impl<'a> Utf16Cursor<'a> {
    fn take(&mut self, units: usize) -> &'a str {
        let at = if self.ascii {
            units.min(self.rest.len())
        } else {
            let mut seen = 0;
            self.rest
                .char_indices()
                .find(|(_, c)| {
                    let done = seen >= units;
                    seen += c.len_utf16();
                    done
                })
                .map_or(self.rest.len(), |(i, _)| i)
        };
        let (piece, rest) = self.rest.split_at(at);
        self.rest = rest;
        piece
    }
}
