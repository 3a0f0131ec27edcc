//! The views of a page after an extraction: the toolbar's three, plus the
//! check view of a benchmark page. Only mark attributes in our own namespace
//! ([`mark`]) and one injected stylesheet change the page; the original view
//! removes both, so the document returns byte for byte to what it was.

use std::cell::Cell;

use wasm_bindgen::JsValue;
use web_sys::{Document, Element};

use super::live_dom::{mark, OWN};
use super::slices::Slices;
use crate::eval::score::{disagreement, gold_template};
use crate::page::dom::{NodeId, Tree};
use crate::page::view_collapse::emptied_and_holders;

/// Set on every template element while a view other than the original shows.
pub const TEMPLATE: &str = "template";
/// Set on the roots of the subtrees a view hides.
pub const HIDDEN: &str = "hidden";
/// Template containers a view emptied (everything they held is hidden):
/// hidden too, so their padding, borders and fixed sizes leave no hole.
pub const EMPTIED: &str = "emptied";
/// Shown ancestors of what a view hides: their minimum height (a sticky
/// footer's `min-height: 100vh`) was meant for the hidden content.
pub const HOLDER: &str = "holder";
/// Roots of content subtrees nested too deep to take out of the layout
/// ([`VEIL_DEPTH`]): made invisible where they are instead.
pub const VEILED: &str = "veiled";
/// Check view: roots of gold template subtrees the extraction missed.
pub const MISS: &str = "miss";
/// Check view: roots of retrieved subtrees the gold says are not template.
pub const FALSE_HIT: &str = "false-hit";
/// Every kind of mark a view sets on the page's elements, as given to [`mark`].
const KINDS: [&str; 7] = [TEMPLATE, HIDDEN, EMPTIED, HOLDER, VEILED, MISS, FALSE_HIT];

/// Levels of elements below a hidden root past which the template view
/// veils the subtree rather than hiding it. A browser lays a subtree out in
/// time about its elements times its depth, in one task: a view that takes
/// such content out of the layout makes the next view that shows it again
/// lay it all out (365 ms in Firefox for 20,000 elements 512 deep, issue
/// 37), while a veiled subtree keeps its boxes and is only painted again.
/// The reading column keeps as many levels (`extension/reading-copy.js`).
pub const VEIL_DEPTH: u32 = 64;

fn hide_rules() -> String {
    format!(
        "[{}],[{}]{{display:none!important}}[{}]{{min-height:auto!important}}[{}]{{visibility:hidden!important}}",
        mark(HIDDEN),
        mark(EMPTIED),
        mark(HOLDER),
        mark(VEILED)
    )
}

/// Two colours a reader tells apart (also with red-green colour blindness):
/// misses dashed orange, false hits solid blue.
fn check_rules() -> String {
    format!(
        "[{}]{{outline:3px dashed #e66100!important;outline-offset:-2px}}\
         [{}]{{outline:3px solid #1a5fb4!important;outline-offset:-2px}}",
        mark(MISS),
        mark(FALSE_HIT)
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Original,
    /// The template alone: content subtrees hidden.
    Template,
    /// The opposite: subtrees that are template through and through hidden.
    Content,
    /// For a page with gold marks: the template view of retrieved ∪ gold,
    /// misses and false hits outlined, so a reader sees why it scored so.
    Check,
}

impl View {
    pub fn name(self) -> &'static str {
        match self {
            View::Original => "original",
            View::Template => "template",
            View::Content => "content",
            View::Check => "check",
        }
    }

    pub fn parse(name: &str) -> Option<View> {
        [View::Original, View::Template, View::Content, View::Check].into_iter().find(|v| v.name() == name)
    }

    /// The toolbar's cycle: original → template → content → original.
    pub fn next(self) -> View {
        match self {
            View::Original => View::Template,
            View::Template => View::Content,
            View::Content | View::Check => View::Original,
        }
    }
}

/// The marks a view sets: (element index in snapshot order, kind of mark).
pub type Marks = Vec<(u32, &'static str)>;

/// Elements marked or unmarked between two looks at the clock in [`show`].
const STEP: usize = 2_048;

thread_local! {
    /// Counts the views begun and the restores: a view still being applied
    /// stops at its next step once another view or a restore has begun.
    static BEGUN: Cell<u64> = const { Cell::new(0) };
}

/// Stops the view being applied, if any; the number of the work that does.
fn supersede() -> u64 {
    BEGUN.set(BEGUN.get() + 1);
    BEGUN.get()
}

/// What showing `view` of a page whose snapshot is `tree` and `template`
/// the core's verdict per node takes: the marks to set, in snapshot order
/// of the elements, and the stylesheet's rules (none for the original and
/// content views).
pub fn plan(tree: &Tree, template: &[bool], view: View) -> (Marks, String) {
    if view == View::Original {
        return (Marks::new(), String::new());
    }
    let mut marks = Vec::new();
    let mut rules = String::new();
    if view == View::Check {
        let gold = gold_template(tree);
        let shown: Vec<bool> = template.iter().zip(&gold).map(|(t, g)| *t || *g).collect();
        marks.extend(collapsed(tree, hidden_roots(tree, &shown, View::Template)));
        let wrong = disagreement(tree, template);
        marks.extend(wrong.misses.iter().map(|id| (id.0, MISS)));
        marks.extend(wrong.false_hits.iter().map(|id| (id.0, FALSE_HIT)));
        rules = hide_rules() + &check_rules();
    } else if view == View::Template {
        marks.extend(collapsed(tree, hidden_roots(tree, template, view)));
        rules = hide_rules();
    }
    // The content view is the page view's reading column, with the page set
    // aside whole behind it (`extension/page-view.js`): nothing in the page
    // is hidden. Hiding the template's subtrees made the browser lay the
    // page out without them, and again on the way back: 0.8 s each, the tab
    // frozen, on a page nested 100,000 deep.
    marks.extend(flagged(template, TEMPLATE));
    (marks, rules)
}

/// Shows a view on the page whose live elements, in snapshot order, are
/// `elements`: removes the marks `shown` of the view shown before, then sets
/// `marks` with `rules` (see [`plan`]). In steps, awaiting `slices.pause()`
/// between two, so that marking a 100,000-element page does not freeze the
/// tab. The stylesheet goes out first and in last: with it in place, each
/// step would hide or show a part of the page, and the browser would lay out
/// the page again after every step (Firefox took over a minute to hide
/// 100,000 siblings so). Resolves to false when another view or a restore
/// began meanwhile: this one stopped, and that one removes whatever it had set.
pub async fn show(
    doc: &Document,
    elements: &[Element],
    shown: &[(u32, &'static str)],
    (marks, rules): (&[(u32, &'static str)], &str),
    slices: &Slices,
) -> Result<bool, JsValue> {
    let run = supersede();
    let names = MarkNames::new();
    let name = |kind| names.of(kind);
    // Not the copies yet: the document's marked elements are the shown view's, unmarked in steps first.
    remove_own(doc)?;
    for step in shown.chunks(STEP) {
        for &(i, kind) in step {
            elements[i as usize].remove_attribute(name(kind))?;
        }
        slices.pause().await;
        if BEGUN.get() != run {
            return Ok(false);
        }
    }
    // Copies the page made of marked elements meanwhile.
    remove_copies_and_own(doc)?;
    for step in marks.chunks(STEP) {
        for &(i, kind) in step {
            elements[i as usize].set_attribute(name(kind), "")?;
        }
        slices.pause().await;
        if BEGUN.get() != run {
            return Ok(false);
        }
    }
    if rules.is_empty() {
        return Ok(true);
    }
    let style = doc.create_element("style")?;
    style.set_attribute(&mark(OWN), "")?;
    style.set_text_content(Some(rules));
    match doc.head() {
        Some(head) => head.append_child(&style)?,
        None => doc.document_element().ok_or("the page has no root element")?.append_child(&style)?,
    };
    Ok(true)
}

/// The attribute name of every kind of mark, built once per call.
struct MarkNames(Vec<(&'static str, String)>);

impl MarkNames {
    fn new() -> Self {
        Self(KINDS.iter().map(|&k| (k, mark(k))).collect())
    }

    fn of(&self, kind: &str) -> &str {
        &self.0.iter().find(|(k, _)| *k == kind).expect("a known kind").1
    }
}

/// `(i, mark)` for every element whose flag is set.
fn flagged(flags: &[bool], mark: &'static str) -> Marks {
    flags.iter().enumerate().filter(|(_, f)| **f).map(|(i, _)| (i as u32, mark)).collect()
}

/// The marks that collapse the layout around `hidden` (the roots the
/// template view hides), so the page reads as its frame without the content:
/// the roots, the containers left with nothing to show, and the shown
/// ancestors of both. Roots over [`VEIL_DEPTH`] levels deep are veiled
/// instead, and keep their place: nothing around them collapses.
fn collapsed(tree: &Tree, mut hidden: Vec<bool>) -> Marks {
    let veiled = deep_roots(tree, &hidden);
    hidden.iter_mut().zip(&veiled).for_each(|(h, v)| *h &= !v);
    let (emptied, holders) = emptied_and_holders(tree, &hidden);
    let mut marks = flagged(&hidden, HIDDEN);
    marks.extend(flagged(&veiled, VEILED));
    marks.extend(flagged(&emptied, EMPTIED));
    marks.extend(flagged(&holders, HOLDER));
    marks
}

/// The roots among `roots` whose subtree reaches more than [`VEIL_DEPTH`]
/// levels below them. The roots' subtrees are disjoint, so this reads each
/// node once at most.
fn deep_roots(tree: &Tree, roots: &[bool]) -> Vec<bool> {
    let deep = |root: NodeId| {
        let limit = tree.node(root).depth + VEIL_DEPTH;
        tree.subtree(root).any(|i| tree.node(NodeId(i as u32)).depth > limit)
    };
    roots.iter().enumerate().map(|(i, &root)| root && deep(NodeId(i as u32))).collect()
}

/// Removes every mark and our stylesheet, and nothing else: only attributes
/// and elements in our namespace are touched. Marks are looked for on the
/// snapshot's elements (`shown`: those the view shown set, see [`plan`]) and
/// anywhere in the document, so copies the page made of marked elements (a
/// header cloned on scroll) lose them too. A view still being applied stops.
pub fn restore(doc: &Document, elements: &[Element], shown: &[(u32, &'static str)]) -> Result<(), JsValue> {
    supersede();
    let names = MarkNames::new();
    for &(i, kind) in shown {
        elements[i as usize].remove_attribute(names.of(kind))?;
    }
    remove_copies_and_own(doc)
}

/// Removes our marks from elements of the document that carry them, and
/// our own elements (the stylesheet, the page view's hosts).
fn remove_copies_and_own(doc: &Document) -> Result<(), JsValue> {
    for kind in KINDS {
        let name = mark(kind);
        let copies = doc.query_selector_all(&format!("[{name}]"))?;
        for i in 0..copies.length() {
            if let Some(element) = copies.item(i).and_then(|n| wasm_bindgen::JsCast::dyn_into::<Element>(n).ok()) {
                element.remove_attribute(&name)?;
            }
        }
    }
    remove_own(doc)
}

/// Removes our own elements (the stylesheet, the page view's hosts).
fn remove_own(doc: &Document) -> Result<(), JsValue> {
    let own = doc.query_selector_all(&format!("[{}]", mark(OWN)))?;
    for i in 0..own.length() {
        if let Some(node) = own.item(i) {
            if let Some(parent) = node.parent_node() {
                parent.remove_child(&node)?;
            }
        }
    }
    Ok(())
}

/// Removes our marks from `elements`.
pub fn remove_marks(elements: &[Element]) -> Result<(), JsValue> {
    for kind in KINDS {
        let name = mark(kind);
        for element in elements {
            element.remove_attribute(&name)?;
        }
    }
    Ok(())
}

/// The highest nodes that are frame through and through inside a content
/// region: with what scripts added counted as frame (a banner or an ad slot
/// put into an article), the one place frame sits below content.
pub fn frame_in_content(tree: &Tree, frame: &[bool]) -> Vec<bool> {
    let roots = hidden_roots(tree, frame, View::Content);
    let mut below_content = vec![false; tree.len()];
    for i in 0..tree.len() {
        if let Some(p) = tree.node(NodeId(i as u32)).parent {
            below_content[i] = !frame[p.index()] || below_content[p.index()];
        }
    }
    roots.iter().zip(below_content).map(|(&r, b)| r && b).collect()
}

/// Which nodes to hide: the highest nodes of the other kind. Templates are
/// closed upwards (a template node's parent is template), so in the template
/// view that is each content node under a template parent; in the content
/// view, each node whose whole subtree is template under a parent that is not.
pub fn hidden_roots(tree: &Tree, template: &[bool], view: View) -> Vec<bool> {
    let hide: Vec<bool> = match view {
        View::Original => return vec![false; tree.len()],
        View::Template | View::Check => template.iter().map(|t| !t).collect(),
        View::Content => {
            let mut pure = template.to_vec();
            for i in (0..tree.len()).rev() {
                pure[i] = template[i] && tree.children(NodeId(i as u32)).iter().all(|c| pure[c.index()]);
            }
            pure
        }
    };
    (0..tree.len()).map(|i| hide[i] && tree.node(NodeId(i as u32)).parent.is_none_or(|p| !hide[p.index()])).collect()
}
