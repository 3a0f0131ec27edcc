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

use super::slices::Slices;
use crate::page::dom::{Tree, TreeBuilder, MAX_VALUE_UNITS, OWN_ATTRIBUTE_PREFIX, READ_VALUES};

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
    fn flat_walk(root: &Element, own: &str, with_tree: bool, read: &str, longest: u32) -> js_sys::Array;

    /// The same walk in steps (`texLiveDom.walker`).
    type Walker;

    #[wasm_bindgen(js_namespace = texLiveDom, js_name = walker)]
    fn walker(root: &Element, own: &str, with_tree: bool, read: &str, longest: u32) -> Walker;

    /// Visits at most `nodes` more nodes, fewer once `units` of values and
    /// texts are read; whether any are left.
    #[wasm_bindgen(method)]
    fn step(this: &Walker, nodes: u32, units: u32) -> bool;

    #[wasm_bindgen(method)]
    fn result(this: &Walker) -> js_sys::Array;
}

/// Nodes walked, codes decoded or elements taken over between two looks at
/// the clock in [`snapshot_in_steps`]: a few milliseconds of each.
const STEP: u32 = 4_096;

/// UTF-16 units of attribute values and texts read in one step of the walk
/// (a few milliseconds of copying): a huge attribute is read whole, alone
/// in its step, and handed over cut to [`MAX_VALUE_UNITS`].
const STEP_UNITS: u32 = 1 << 20;

/// The attributes whose values the core reads, as the walk takes them.
fn read_values() -> String {
    READ_VALUES.join(" ")
}

/// The snapshot of the subtree rooted at `root`, with the live elements in
/// the snapshot's order, or `None` when `root` is one of our own elements.
pub fn snapshot(root: &Element) -> Option<(Tree, Vec<Element>)> {
    let walked = flat_walk(root, &mark(OWN), true, &read_values(), MAX_VALUE_UNITS as u32);
    let strings = walked.get(1).as_string().unwrap_or_default();
    let codes = js_sys::Int32Array::from(walked.get(2)).to_vec();
    let tree = decode(&strings, &codes)?;
    Some((tree, live_elements(&walked)))
}

/// [`snapshot`] in steps, awaiting `slices.pause()` between two: a page of
/// 100,000 elements takes a few hundred milliseconds to read, and the tab
/// goes on meanwhile. The same walk and decoding, so the same snapshot.
pub async fn snapshot_in_steps(root: &Element, slices: &Slices) -> Option<(Tree, Vec<Element>)> {
    let walk = walker(root, &mark(OWN), true, &read_values(), MAX_VALUE_UNITS as u32);
    while walk.step(STEP, STEP_UNITS) {
        slices.pause().await;
    }
    let walked = walk.result();
    let strings = walked.get(1).as_string().unwrap_or_default();
    let codes = js_sys::Int32Array::from(walked.get(2)).to_vec();
    let mut decoder = Decoder::new(&strings, &codes);
    while decoder.step(STEP as usize)? {
        slices.pause().await;
    }
    let tree = decoder.builder.finish()?;
    let listed = js_sys::Array::from(&walked.get(0));
    let mut elements = Vec::with_capacity(listed.length() as usize);
    for i in 0..listed.length() {
        elements.push(listed.get(i).unchecked_into());
        if (i + 1) % STEP == 0 {
            slices.pause().await;
        }
    }
    Some((tree, elements))
}

/// The elements of the subtree rooted at `root`, in snapshot order.
pub fn elements(root: &Element) -> Vec<Element> {
    live_elements(&flat_walk(root, &mark(OWN), false, "", 0))
}

fn live_elements(walked: &js_sys::Array) -> Vec<Element> {
    js_sys::Array::from(&walked.get(0)).iter().map(JsCast::unchecked_into).collect()
}

/// Builds the tree from the walk's encoding (see `live-dom.js`): codes
/// whose lengths, in UTF-16 units, cut `strings` into tags, attributes and texts.
fn decode(strings: &str, codes: &[i32]) -> Option<Tree> {
    let mut decoder = Decoder::new(strings, codes);
    while decoder.step(usize::MAX)? {}
    decoder.builder.finish()
}

/// The decoding of a walk, a number of codes at a time.
struct Decoder<'a> {
    rest: Utf16Cursor<'a>,
    codes: std::slice::Iter<'a, i32>,
    builder: TreeBuilder,
    attributes: Vec<(&'a str, &'a str)>,
}

impl<'a> Decoder<'a> {
    fn new(strings: &'a str, codes: &'a [i32]) -> Self {
        let rest = Utf16Cursor { rest: strings, ascii: strings.is_ascii() };
        Self { rest, codes: codes.iter(), builder: TreeBuilder::new(), attributes: Vec::new() }
    }

    fn next(&mut self) -> Option<usize> {
        self.codes.next().map(|&c| c.max(0) as usize)
    }

    /// Decodes at most `opened` more openings, closings or texts; whether
    /// codes are left, or `None` for a malformed encoding.
    fn step(&mut self, opened: usize) -> Option<bool> {
        for _ in 0..opened {
            let Some(code) = self.next() else { return Some(false) };
            match code {
                0 => {
                    let length = self.next()?;
                    let tag = self.rest.take(length);
                    self.attributes.clear();
                    for _ in 0..self.next()? {
                        let (name, value) = (self.next()?, self.next()?);
                        self.attributes.push((self.rest.take(name), self.rest.take(value)));
                    }
                    self.builder.open(tag, self.attributes.iter().copied());
                }
                1 => self.builder.close(),
                _ => {
                    let length = self.next()?;
                    self.builder.text(self.rest.take(length));
                }
            }
        }
        Some(self.codes.len() > 0)
    }
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
