//! The compact DOM snapshot every algorithm works on.
//!
//! Only element nodes are kept, in document (pre-)order, so node `i` of a
//! snapshot is the `i`-th element of the document both natively (html5ever)
//! and in the browser (web-sys); that shared numbering is what lets the
//! extension map a template computed here back onto live nodes. Strings the
//! equality probability compares as sets (classes, attribute names) are kept
//! as sorted 64-bit hashes: set intersection becomes a merge of integers.

use serde::Serialize;

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::page::generated_names::{is_generated, stable, token_hash};
use crate::page::text_blocks::TextBlocks;
use crate::page::words::words_in;

/// Elements HTML allows once per document: their tag alone identifies
/// them across pages, whatever per-page classes they carry (`page--cfp`,
/// WordPress's `page-id-42`), so both mappings always pair them.
pub fn is_unique_in_document(tag: &str) -> bool {
    matches!(tag, "html" | "head" | "body")
}

/// Index of a node in its [`Tree`]; the root is always `NodeId(0)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct NodeId(pub u32);

impl NodeId {
    pub const ROOT: NodeId = NodeId(0);

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Class that marks a gold non-template root (FORMAT.md).
pub const GOLD_NOT_TEMPLATE: &str = "notTemplate";
/// Class that marks a gold main-content root (FORMAT.md).
pub const GOLD_MAIN_CONTENT: &str = "mainContent";
/// Attributes the extension itself sets on live nodes start with this; the
/// snapshot ignores them so a second extraction sees the page as it was.
pub const OWN_ATTRIBUTE_PREFIX: &str = "data-tex-";
/// The attributes whose values a snapshot reads; any other counts by its
/// name alone, so the browser's walk never reads its value (a page may hold
/// megabytes in a `data-` attribute or a `title`).
pub const READ_VALUES: [&str; 4] = ["id", "class", "href", "rel"];
/// The longest attribute value a snapshot reads, in UTF-16 units as a
/// browser measures it. A longer one is read as its first units and marked
/// as cut ([`CUT`]), so a huge id or class list costs every walk the same
/// bounded work (issue 37: a page of huge attributes held the tab 1.3-2.8 s
/// while it was read). An address cut so is not followed: no server answers
/// a request line of 8 KiB (Apache's and nginx's default limit).
pub const MAX_VALUE_UNITS: usize = 8_192;
/// What a cut value ends with: an id, and a token of a class list, no
/// uncut value of the same beginning has.
const CUT: &str = "\u{2026}cut";

/// What a breadcrumb trail's class or id says in every convention seen
/// (`breadcrumb`, `breadcrumbs__item`, `woocommerce-breadcrumb`, `navBreadcrumb`).
const TRAIL_NAME: &[u8] = b"breadcrumb";

/// Whether a class list or an id names a breadcrumb trail.
fn names_trail(value: &str) -> bool {
    value.as_bytes().windows(TRAIL_NAME.len()).any(|w| w.eq_ignore_ascii_case(TRAIL_NAME))
}

/// `value` within [`MAX_VALUE_UNITS`] UTF-16 units, and whether it was cut.
/// A character is never split: one that would cross the limit is left out.
pub fn within_read_limit(value: &str) -> (&str, bool) {
    if value.len() <= MAX_VALUE_UNITS {
        return (value, false);
    }
    let mut units = 0;
    for (at, c) in value.char_indices() {
        units += c.len_utf16();
        if units > MAX_VALUE_UNITS {
            return (&value[..at], true);
        }
    }
    (value, false)
}

/// One element of the snapshot.
#[derive(Clone, Debug)]
pub struct Node {
    /// Lower-case tag name (`nodeName` in the thesis). Shared: a tree
    /// unpacked in a collection gives the elements of one tag one string
    /// instead of allocating one each (unpacking is most of a load there).
    pub tag: std::sync::Arc<str>,
    pub id: Option<Box<str>>,
    /// Sorted, deduplicated hashes of the class names, gold classes removed.
    pub classes: Box<[u64]>,
    /// Sorted, deduplicated hashes of the attribute names other than
    /// `class` and `id` (Def. 3.2.1).
    pub attributes: Box<[u64]>,
    /// Raw `href` of `<a>` and `<area>` elements, resolved later against the
    /// page URL so the browser and the CLI resolve it identically.
    pub href: Option<Box<str>>,
    /// The link says `rel="nofollow"`: the fetch policy never loads it.
    pub nofollow: bool,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    /// Position among the parent's element children, from 0.
    pub child_index: u32,
    /// Position among the siblings with the same tag, from 1, or 0 when no
    /// sibling shares the tag: the step of [`Tree::path`], numbered once.
    pub same_tag_position: u32,
    /// Depth from the root; the root has depth 1 (a DOM path's length, Def. 2.2.8).
    pub depth: u32,
    /// Hash of the element's own text (its text children, whitespace
    /// collapsed), 0 when it has none: what a reader sees change between
    /// pages that share a layout.
    pub text: u64,
    /// Hash of the text block this element owns, 0 when none: its text and
    /// the text of its inline descendants (`span`, `code`, `em`…), in order.
    /// A block is what a reader reads as one piece (a paragraph, a code
    /// listing, a link's label), the unit in which a site repeats text;
    /// single tokens would recur by chance.
    pub block: u64,
    /// Words of that block: the weight of its text.
    pub words: u32,
    /// A class or the id names a breadcrumb trail (`breadcrumb`, in any
    /// case, within a name): read while the names are still strings, since
    /// `classes` keeps only their hashes.
    pub trail: bool,
    /// The gold annotations, kept apart from `classes` for scoring only.
    pub gold: Gold,
}

/// Gold-standard marks read from the annotation classes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Gold {
    pub not_template: bool,
    pub main_content: bool,
}

/// An element tree in document order.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    /// `href` of the first `<base>` that has one: what links resolve against.
    base_href: Option<Box<str>>,
    /// Where its text blocks stand, built on first use ([`Tree::text_blocks`]).
    blocks: OnceLock<TextBlocks>,
}

impl Tree {
    /// The document's base URL: the first `<base href>` resolved against the
    /// page's URL, as a browser resolves the page's links, else the page's URL.
    pub fn base_url(&self, page_url: &url::Url) -> url::Url {
        self.base_href.as_deref().and_then(|h| page_url.join(h).ok()).unwrap_or_else(|| page_url.clone())
    }

    /// A tree from nodes already in document order whose links (`parent`,
    /// `children`, `child_index`, `depth`) agree; used to rebuild a stored
    /// template skeleton. `None` when empty.
    pub fn from_nodes(mut nodes: Vec<Node>) -> Option<Tree> {
        number_same_tag_siblings(&mut nodes);
        (!nodes.is_empty()).then_some(Tree { nodes, base_href: None, blocks: OnceLock::new() })
    }

    /// The same tree with each node's class and attribute-name sets passed
    /// through `f`: template memory compares pages without generated names.
    pub fn map_names(&self, f: impl Fn(&[u64]) -> Box<[u64]>) -> Tree {
        let mut copy = self.clone();
        for n in &mut copy.nodes {
            n.classes = f(&n.classes);
            n.attributes = f(&n.attributes);
        }
        copy
    }

    /// The page with generated-looking classes and attribute names left
    /// out, node for node (same numbering); the page itself when it has none.
    pub fn without_generated(&self) -> Cow<'_, Tree> {
        let generated = |n: &Node| n.classes.iter().chain(n.attributes.iter()).any(|&h| is_generated(h));
        if !self.nodes().any(|(_, n)| generated(n)) {
            return Cow::Borrowed(self);
        }
        Cow::Owned(self.map_names(stable))
    }

    /// The same tree with each link's `href` replaced by `f(href)` (`None`
    /// drops it): visited routes address their links as pages.
    pub fn map_hrefs(&self, f: impl Fn(&str) -> Option<String>) -> Tree {
        let mut copy = self.clone();
        for n in &mut copy.nodes {
            n.href = n.href.as_deref().and_then(&f).map(Into::into);
        }
        copy
    }

    /// A tree whose nodes already carry every derived field (links,
    /// positions, depths), as a packed tree of the collection restores them.
    pub fn from_complete_nodes(nodes: Vec<Node>, base_href: Option<Box<str>>) -> Option<Tree> {
        (!nodes.is_empty()).then_some(Tree { nodes, base_href, blocks: OnceLock::new() })
    }

    /// Where the page's text blocks stand, built once however many pages
    /// are compared with this one (names and links play no part, so a copy
    /// from [`Tree::map_names`] or [`Tree::map_hrefs`] keeps it).
    pub fn text_blocks(&self) -> &TextBlocks {
        self.blocks.get_or_init(|| TextBlocks::of(self.nodes.iter().map(|n| (n.depth, n.block))))
    }

    /// The raw `href` of the document's first `<base href>`.
    pub fn base_href(&self) -> Option<&str> {
        self.base_href.as_deref()
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    pub fn nodes(&self) -> impl ExactSizeIterator<Item = (NodeId, &Node)> {
        self.nodes.iter().enumerate().map(|(i, n)| (NodeId(i as u32), n))
    }

    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.nodes[id.index()].children
    }

    /// The first `<body>` child of the root, where scoring counts nodes.
    pub fn body(&self) -> Option<NodeId> {
        if self.is_empty() {
            return None;
        }
        self.children(NodeId::ROOT).iter().copied().find(|&c| &*self.node(c).tag == "body")
    }

    /// All nodes of the subtree rooted at `id`, `id` first, in document order.
    /// Pre-order numbering makes a subtree one contiguous range of ids.
    pub fn subtree(&self, id: NodeId) -> std::ops::Range<usize> {
        let mut last = id;
        while let Some(&c) = self.children(last).last() {
            last = c;
        }
        id.index()..last.index() + 1
    }

    /// A readable, stable address of a node: tag and 1-based position among
    /// same-tag siblings from the root, e.g. `/html/body/div[2]/ul/li[3]`.
    /// Costs the node's depth: positions were numbered when the tree was built.
    pub fn path(&self, id: NodeId) -> String {
        let mut steps = Vec::new();
        let mut cur = Some(id);
        while let Some(n) = cur {
            let node = self.node(n);
            steps.push(match node.same_tag_position {
                0 => node.tag.to_string(),
                k => format!("{}[{k}]", node.tag),
            });
            cur = node.parent;
        }
        steps.reverse();
        format!("/{}", steps.join("/"))
    }
}

/// Numbers every node among its same-tag siblings ([`Node::same_tag_position`]):
/// one sort per child list, so O(n log n) for the whole tree.
fn number_same_tag_siblings(nodes: &mut [Node]) {
    for p in 0..nodes.len() {
        if nodes[p].children.len() < 2 {
            continue;
        }
        let mut kids = nodes[p].children.clone();
        kids.sort_unstable_by(|a, b| nodes[a.index()].tag.cmp(&nodes[b.index()].tag).then(a.cmp(b)));
        let mut start = 0;
        while start < kids.len() {
            let tag = &nodes[kids[start].index()].tag;
            let end = start + kids[start..].iter().take_while(|c| &nodes[c.index()].tag == tag).count();
            if end - start > 1 {
                for (k, c) in kids[start..end].iter().enumerate() {
                    nodes[c.index()].same_tag_position = k as u32 + 1;
                }
            }
            start = end;
        }
    }
}

/// Hash of a word of text with each number read as one digit: a date, a
/// counter or a version number changes per page while its place in the
/// template does not ("3,844 times", "Last modified 2025-04-16"). A number
/// is a run of digits and of the separators between them (`1,239`,
/// `2019-05-03`, `20:30`, `6.3.2`), in any script's digits: Arabic-Indic
/// (`١٤٠٢/٠٥/١٢`), Devanagari or full-width (`２０２４年`) dates change per
/// page as much as ASCII ones. Other characters hash by their UTF-8 bytes.
pub fn word_hash(word: &str) -> u64 {
    if word.is_ascii() {
        return ascii_word_hash(word.as_bytes());
    }
    let digit = |c: char| c.is_ascii_digit() || (!c.is_ascii() && c.is_numeric());
    let separator = |c: char| matches!(c, '.' | ',' | ':' | '-' | '/' | '\u{066B}' | '\u{066C}');
    let mut h = FNV_OFFSET;
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        if digit(c) {
            loop {
                let mut ahead = chars.clone();
                match ahead.next() {
                    Some(d) if digit(d) => {
                        chars.next();
                    }
                    Some(s) if separator(s) && ahead.next().is_some_and(digit) => {
                        chars.next();
                    }
                    _ => break,
                }
            }
            h = fnv_step(h, b'0');
        } else {
            let mut buf = [0u8; 4];
            h = c.encode_utf8(&mut buf).bytes().fold(h, fnv_step);
        }
    }
    h
}

/// FNV-1a's offset basis and prime, and one byte's step: the word hashes
/// of both paths of [`word_hash`] go on byte by byte, so they agree on
/// ASCII text.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

fn fnv_step(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
}

/// [`word_hash`] of an ASCII word, byte by byte: most words of most pages.
fn ascii_word_hash(bytes: &[u8]) -> u64 {
    let mut h = FNV_OFFSET;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        if b.is_ascii_digit() {
            while i < bytes.len()
                && (bytes[i].is_ascii_digit()
                    || (matches!(bytes[i], b'.' | b',' | b':' | b'-' | b'/')
                        && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
            {
                i += 1;
            }
        }
        h = fnv_step(h, if b.is_ascii_digit() { b'0' } else { b });
    }
    h
}

/// Order-sensitive fold of a word into a text hash, so "a b" and "b a"
/// differ; never 0, which means "no text".
fn fold(hash: u64, word: u64) -> u64 {
    (hash ^ word).wrapping_mul(FNV_PRIME).max(1)
}

/// Phrasing elements whose text belongs to the enclosing block. Links are
/// left out on purpose: a link's label is a piece of its own (a menu of bare
/// links, one label changed, must not lose every label at once).
fn is_inline(tag: &str) -> bool {
    matches!(
        tag,
        "abbr"
            | "b"
            | "bdi"
            | "bdo"
            | "big"
            | "cite"
            | "code"
            | "data"
            | "del"
            | "dfn"
            | "em"
            | "font"
            | "i"
            | "ins"
            | "kbd"
            | "mark"
            | "q"
            | "s"
            | "samp"
            | "small"
            | "span"
            | "strike"
            | "strong"
            | "sub"
            | "sup"
            | "time"
            | "tt"
            | "u"
            | "var"
    )
}

/// |a ∩ b| of two sorted, deduplicated sets (as [`sorted_set`] makes them),
/// in one merge pass.
pub fn common_count(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    common
}

/// `v` sorted and deduplicated, copied out at its exact size; `v` is the
/// builder's scratch buffer, so a node costs one allocation per set at most.
fn sorted_set(v: &mut Vec<u64>) -> Box<[u64]> {
    v.sort_unstable();
    v.dedup();
    let set = Box::from(v.as_slice());
    v.clear();
    set
}

/// `s` in ASCII lower case, copied only when it has an upper-case letter
/// (the parsers already lower-case HTML tag and attribute names).
fn lower(s: &str) -> std::borrow::Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        s.to_ascii_lowercase().into()
    } else {
        s.into()
    }
}

/// Builds a [`Tree`] from a pre-order walk of any DOM: the native parser and
/// the browser's live DOM both feed it, so the rules of what a snapshot keeps
/// live in one place.
#[derive(Default)]
pub struct TreeBuilder {
    nodes: Vec<Node>,
    stack: Vec<NodeId>,
    /// The block owner of each open element (see [`Node::block`]).
    owners: Vec<NodeId>,
    base_href: Option<Box<str>>,
    /// Scratch buffers for the class and attribute-name hashes of the node being opened.
    classes: Vec<u64>,
    attributes: Vec<u64>,
}

impl TreeBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of elements opened so far (lets callers enforce a size limit
    /// before walking the rest of a huge page).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Opens an element as the next child of the innermost open one.
    /// A second root (an element opened after the root closed) is ignored by
    /// attaching it under the root, so the tree always has one root.
    pub fn open<'a>(&mut self, tag: &str, attributes: impl IntoIterator<Item = (&'a str, &'a str)>) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        let parent = self.stack.last().copied().or(if self.nodes.is_empty() { None } else { Some(NodeId::ROOT) });
        let mut node = Node {
            tag: lower(tag).into(),
            id: None,
            classes: Box::new([]),
            attributes: Box::new([]),
            href: None,
            nofollow: false,
            parent,
            children: Vec::new(),
            child_index: 0,
            same_tag_position: 0,
            depth: 1,
            text: 0,
            block: 0,
            words: 0,
            trail: false,
            gold: Gold::default(),
        };
        for (name, value) in attributes {
            let name = lower(name);
            if name.starts_with(OWN_ATTRIBUTE_PREFIX) {
                continue;
            }
            let (value, cut) = within_read_limit(value);
            match &*name {
                "id" => {
                    node.trail |= names_trail(value);
                    if cut {
                        node.id = Some(format!("{value}{CUT}").into());
                    } else if !value.is_empty() {
                        node.id = Some(value.into());
                    }
                }
                "class" => {
                    node.trail |= names_trail(value);
                    for class in value.split_ascii_whitespace() {
                        match class {
                            GOLD_NOT_TEMPLATE => node.gold.not_template = true,
                            GOLD_MAIN_CONTENT => node.gold.main_content = true,
                            _ => self.classes.push(token_hash(class)),
                        }
                    }
                    if cut {
                        self.classes.push(token_hash(CUT));
                    }
                }
                _ => {
                    if name == "href" && &*node.tag == "base" && self.base_href.is_none() && !cut {
                        self.base_href = Some(value.trim().into());
                    }
                    if matches!(&*node.tag, "a" | "area") {
                        match &*name {
                            "href" if !cut => node.href = Some(value.trim().into()),
                            "rel" => {
                                node.nofollow =
                                    value.split_ascii_whitespace().any(|r| r.eq_ignore_ascii_case("nofollow"))
                            }
                            _ => {}
                        }
                    }
                    self.attributes.push(token_hash(&name));
                }
            }
        }
        node.classes = sorted_set(&mut self.classes);
        node.attributes = sorted_set(&mut self.attributes);
        if let Some(p) = parent {
            let parent_node = &mut self.nodes[p.index()];
            node.child_index = parent_node.children.len() as u32;
            node.depth = parent_node.depth + 1;
            parent_node.children.push(id);
        }
        let owner = match self.owners.last() {
            Some(&o) if is_inline(&node.tag) => o,
            _ => id,
        };
        self.nodes.push(node);
        self.stack.push(id);
        self.owners.push(owner);
        id
    }

    /// Adds a text node to the innermost open element. Whitespace-only text
    /// is layout, not content, and is skipped; so is the code of a script or
    /// a style sheet, which no reader sees and which often names the page
    /// (a wiki's `wgPageName`) inside an element the layout writes on every
    /// page. The text of a `<time>` is a date whatever its words ("Aug 5",
    /// "4 December"), so each of its words reads as one shape, as a
    /// number's digits do.
    pub fn text(&mut self, text: &str) {
        let (Some(&open), Some(&owner)) = (self.stack.last(), self.owners.last()) else { return };
        let tag = &*self.nodes[open.index()].tag;
        if matches!(tag, "script" | "style") {
            return;
        }
        let date = tag == "time";
        for word in text.split_whitespace() {
            let w = if date { word_hash("0") } else { word_hash(word) };
            let node = &mut self.nodes[open.index()];
            node.text = fold(node.text, w);
            let block = &mut self.nodes[owner.index()];
            block.block = fold(block.block, w);
            block.words = block.words.saturating_add(words_in(word));
        }
    }

    /// Closes the innermost open element.
    pub fn close(&mut self) {
        self.stack.pop();
        self.owners.pop();
    }

    /// The finished tree, or `None` when no element was opened.
    pub fn finish(mut self) -> Option<Tree> {
        if self.nodes.is_empty() {
            None
        } else {
            number_same_tag_siblings(&mut self.nodes);
            Some(Tree { nodes: self.nodes, base_href: self.base_href, blocks: OnceLock::new() })
        }
    }
}

#[cfg(test)]
pub(crate) mod test_trees {
    use super::*;

    /// A xorshift generator from `seed`: each call gives a number below
    /// `n`, so randomized tests are the same on every run.
    pub fn random(mut seed: u64) -> impl FnMut(u64) -> usize {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as usize
        }
    }

    /// Builds a tree from a compact notation: `tag.class#id(child child)`.
    /// Children are separated by spaces; attributes other than class/id are
    /// written `tag[name,name]`.
    pub fn tree(spec: &str) -> Tree {
        let mut b = TreeBuilder::new();
        let tokens = tokenize(spec);
        for t in tokens {
            match t.as_str() {
                "(" => {}
                ")" => b.close(),
                _ => {
                    let (tag, attrs) = parse_token(&t);
                    let refs: Vec<(&str, &str)> = attrs.iter().map(|(a, v)| (a.as_str(), v.as_str())).collect();
                    b.open(&tag, refs);
                    if !t.ends_with('(') {
                        b.close();
                    }
                }
            }
        }
        b.finish().expect("non-empty spec")
    }

    fn tokenize(spec: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = String::new();
        for ch in spec.chars() {
            match ch {
                '(' => {
                    cur.push('(');
                    out.push(std::mem::take(&mut cur));
                }
                ')' => {
                    if !cur.is_empty() {
                        out.push(std::mem::take(&mut cur));
                    }
                    out.push(")".into());
                }
                c if c.is_whitespace() => {
                    if !cur.is_empty() {
                        out.push(std::mem::take(&mut cur));
                    }
                }
                c => cur.push(c),
            }
        }
        if !cur.is_empty() {
            out.push(cur);
        }
        out
    }

    fn parse_token(t: &str) -> (String, Vec<(String, String)>) {
        let t = t.trim_end_matches('(');
        let (head, extra) = match t.find('[') {
            Some(i) => (&t[..i], Some(t[i + 1..].trim_end_matches(']'))),
            None => (t, None),
        };
        let mut attrs = Vec::new();
        let mut tag = String::new();
        let mut classes = Vec::new();
        let mut id = None;
        let mut sep = ' ';
        let mut cur = String::new();
        for ch in head.chars().chain(std::iter::once('.')) {
            if ch == '.' || ch == '#' {
                match sep {
                    ' ' => tag = std::mem::take(&mut cur),
                    '#' => id = Some(std::mem::take(&mut cur)),
                    _ => classes.push(std::mem::take(&mut cur)),
                }
                sep = ch;
            } else {
                cur.push(ch);
            }
        }
        if !classes.is_empty() {
            attrs.push(("class".to_string(), classes.join(" ")));
        }
        if let Some(id) = id {
            attrs.push(("id".to_string(), id));
        }
        if let Some(extra) = extra {
            for name in extra.split(',') {
                let (n, v) = name.split_once('=').unwrap_or((name, ""));
                attrs.push((n.to_string(), v.to_string()));
            }
        }
        (tag, attrs)
    }
}

#[cfg(test)]
mod tests {
    use super::test_trees::tree;
    use super::*;

    #[test]
    fn numbers_in_text_are_one_shape() {
        assert_eq!(word_hash("3,844"), word_hash("12,001"));
        assert_eq!(word_hash("2025-04-16"), word_hash("87"));
        assert_eq!(word_hash("$2,440.00"), word_hash("$15.5"));
        assert_ne!(word_hash("1."), word_hash("1"), "a full stop after a number is text");
        assert_ne!(word_hash("v2"), word_hash("v"), "a number is still a character");
        assert_ne!(word_hash("Home"), word_hash("Away"));
        assert_eq!(word_hash("١٤٠٢/٠٥/١٢"), word_hash("87"), "Arabic-Indic digits");
        assert_eq!(word_hash("٣٬٨٤٤٫٥"), word_hash("87"), "Arabic separators");
        assert_eq!(word_hash("２０２４年"), word_hash("1999年"), "full-width digits");
        assert_eq!(word_hash("२०२४"), word_hash("7"), "Devanagari digits");
        assert_ne!(word_hash("年"), word_hash("月"));
        // FNV-1a goes on byte by byte: the slow path's hash of an ASCII word
        // and one more letter continues the fast path's.
        for word in ["2025-04-16", "v2", "Home", "$2,440.00", "1."] {
            let widened = format!("{word}é");
            let continued = "é".bytes().fold(word_hash(word), fnv_step);
            assert_eq!(word_hash(&widened), continued, "one hashing for every script");
        }
    }

    #[test]
    fn code_is_not_text() {
        let mut b = TreeBuilder::new();
        b.open("body", []);
        for (tag, text) in
            [("script", "config.set({page: 'Installation'})"), ("style", "p { color: red }"), ("p", "Read me")]
        {
            b.open(tag, []);
            b.text(text);
            b.close();
        }
        let t = b.finish().unwrap();
        let words: Vec<(String, u32, bool)> =
            t.nodes().skip(1).map(|(_, n)| (n.tag.to_string(), n.words, n.text != 0)).collect();
        assert_eq!(
            words,
            [("script".into(), 0, false), ("style".into(), 0, false), ("p".into(), 2, true)],
            "a script's or style sheet's code is neither words nor text"
        );
    }

    /// A paragraph of Japanese, written without spaces, weighs as many
    /// words as its characters, not one: the rules that weigh text (own
    /// text, a frame's share of the words) see it as the paragraph it is.
    #[test]
    fn text_without_spaces_counts_a_word_per_han_or_kana() {
        let mut b = TreeBuilder::new();
        b.open("body", []);
        for text in ["ホーム", "今日は新しいテンプレートの抽出方法について説明します。"] {
            b.open("p", []);
            b.text(text);
            b.close();
        }
        let t = b.finish().unwrap();
        let words: Vec<u32> = t.nodes().skip(1).map(|(_, n)| n.words).collect();
        assert_eq!(words, [3, 26]);
    }

    #[test]
    fn a_time_reads_as_a_date_whatever_its_words() {
        let time = |text: &str| {
            let mut b = TreeBuilder::new();
            b.open("p", []);
            b.open("time", []);
            b.text(text);
            b.close();
            b.text("by alice");
            let t = b.finish().unwrap();
            (t.node(NodeId(1)).text, t.node(NodeId(0)).block)
        };
        assert_eq!(time("Aug 5, 2019"), time("Dec 24, 2018"), "same date shape, same following words");
        assert_ne!(time("Aug 5, 2019").0, time("yesterday").0, "a date of another length reads otherwise");
    }

    #[test]
    fn builder_keeps_order_parents_and_indexes() {
        let t = tree("html( head body( div#a.x.y( p p ) div ) )");
        assert_eq!(t.len(), 7);
        let body = t.body().unwrap();
        assert_eq!(&*t.node(body).tag, "body");
        let divs = t.children(body);
        assert_eq!(divs.len(), 2);
        assert_eq!(t.node(divs[1]).child_index, 1);
        assert_eq!(t.node(divs[0]).id.as_deref(), Some("a"));
        assert_eq!(t.node(divs[0]).classes.len(), 2);
        assert_eq!(t.node(t.children(divs[0])[1]).depth, 4);
        assert_eq!(t.subtree(divs[0]), 3..6);
        assert_eq!(t.path(t.children(divs[0])[1]), "/html/body/div[1]/p[2]");
        let mixed = tree("html( body( p div p span ) )");
        let paths: Vec<String> = (2..6).map(|i| mixed.path(NodeId(i))).collect();
        assert_eq!(paths, ["/html/body/p[1]", "/html/body/div", "/html/body/p[2]", "/html/body/span"]);
    }

    #[test]
    fn gold_classes_are_stripped_but_remembered() {
        let plain = tree("html( body( div.box ) )");
        let marked = tree("html( body( div.box.notTemplate.mainContent ) )");
        let (p, m) = (plain.node(NodeId(2)), marked.node(NodeId(2)));
        assert_eq!(p.classes, m.classes);
        assert!(m.gold.not_template && m.gold.main_content);
        assert!(!p.gold.not_template);
    }

    #[test]
    fn values_past_the_read_limit_are_cut_and_marked_the_same_from_any_source() {
        let open = |attributes: &[(&str, &str)]| {
            let mut b = TreeBuilder::new();
            b.open("body", []);
            b.open("a", attributes.iter().copied());
            b.close();
            b.finish().unwrap().node(NodeId(1)).clone()
        };
        let long = "x".repeat(MAX_VALUE_UNITS + 100);
        let whole = open(&[("id", &long), ("class", &format!("a {long}")), ("href", &long), ("title", &long)]);
        // A browser's walk hands over one unit past the limit, so the core sees that a value went on.
        let past = &long[..MAX_VALUE_UNITS + 1];
        let handed = open(&[("id", past), ("class", &format!("a {}", &past[2..])), ("href", past), ("title", "")]);
        assert_eq!((&whole.id, &whole.classes, &whole.href), (&handed.id, &handed.classes, &handed.href));
        assert_eq!(whole.attributes, handed.attributes, "other attributes count by their names alone");
        let at_limit =
            open(&[("id", &long[..MAX_VALUE_UNITS]), ("class", &format!("a {}", &long[..MAX_VALUE_UNITS - 2]))]);
        assert_ne!(whole.id, at_limit.id, "a cut id is not the id of its beginning");
        assert_ne!(whole.classes, at_limit.classes, "nor a cut class list");
        assert_eq!(whole.href, None, "an address past the limit is not followed");
        assert_eq!(at_limit.id.as_deref().map(str::len), Some(MAX_VALUE_UNITS));
    }

    #[test]
    fn a_cut_never_splits_a_character() {
        let value = format!("{}\u{1F600}", "x".repeat(MAX_VALUE_UNITS - 1));
        assert_eq!(within_read_limit(&value), (&value[..MAX_VALUE_UNITS - 1], true));
        let fits = format!("{}\u{e9}", "x".repeat(MAX_VALUE_UNITS - 1));
        assert_eq!(within_read_limit(&fits), (&fits[..], false), "bytes past the limit, units within it");
    }

    #[test]
    fn own_marker_attributes_are_ignored() {
        let plain = tree("html( body( div[title] ) )");
        let marked = tree("html( body( div[title,data-tex-view] ) )");
        assert_eq!(plain.node(NodeId(2)).attributes, marked.node(NodeId(2)).attributes);
    }
}
