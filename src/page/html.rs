//! Native HTML: html5ever (through `scraper`) builds the same element tree a
//! browser's parser builds, which the snapshot walks; html5ever's serializer
//! writes the saved template.

use std::io;

use ego_tree::iter::Edge;
use ego_tree::NodeRef;
use html5ever::serialize::{serialize, Serialize, SerializeOpts, Serializer, TraversalScope};
use html5ever::tendril::TendrilSink;
use html5ever::tree_builder::{QuirksMode, TreeBuilderOpts};
use html5ever::{local_name, ParseOpts, QualName};
use scraper::{Html, HtmlTreeSink, Node};

use crate::page::dom::{Tree, TreeBuilder};

/// The most elements open at once while parsing: Blink's
/// `kMaximumHTMLParserDOMTreeDepth`. Deeper elements land beside the
/// deepest one, as Blink attaches them, so no page nests deeper than this.
pub const MAX_OPEN_ELEMENTS: usize = 512;

/// The most formatting elements (`<b>`, `<a>`, `<font>`…) kept for
/// reconstruction after the last marker; an earlier one is forgotten first.
pub const MAX_ACTIVE_FORMATTING: usize = 64;

/// Parses a whole document with the HTML5 algorithm (never fails: malformed
/// markup is repaired exactly as browsers repair it), in time linear in its
/// bytes: the patched html5ever (vendor/html5ever/PATCH.md) bounds the open
/// elements at [`MAX_OPEN_ELEMENTS`] and the formatting elements at
/// [`MAX_ACTIVE_FORMATTING`], and finds duplicate attributes through a set.
pub fn parse(source: &str) -> Html {
    parser(source, usize::MAX).one(source)
}

/// How much of the source is parsed between two counts of the elements.
const CHUNK_BYTES: usize = 16 * 1024;

/// [`parse`], stopped as soon as the document has more than `max_elements`
/// elements (checked every [`CHUNK_BYTES`]): a page that would be refused as
/// too large costs no more than the limit to find out. `Err` holds the
/// elements counted when it stopped.
pub fn parse_within(source: &str, max_elements: usize) -> Result<Html, usize> {
    let mut parse = ChunkedParse::new(source, max_elements);
    while parse.step()? {}
    Ok(parse.finish())
}

/// A parse done [`CHUNK_BYTES`] at a time, so that the browser can run
/// between two steps (the page keeps answering while a big candidate parses).
pub struct ChunkedParse<'a> {
    parser: html5ever::driver::Parser<HtmlTreeSink>,
    rest: &'a str,
    max_elements: usize,
    elements: usize,
    counted: usize,
}

impl<'a> ChunkedParse<'a> {
    pub fn new(source: &'a str, max_elements: usize) -> Self {
        Self { parser: parser(source, max_elements), rest: source, max_elements, elements: 0, counted: 0 }
    }

    /// Parses the next chunk: `Ok(true)` while source is left, `Err` with
    /// the elements counted once there are more than the limit.
    pub fn step(&mut self) -> Result<bool, usize> {
        let mut cut = self.rest.len().min(CHUNK_BYTES);
        while !self.rest.is_char_boundary(cut) {
            cut += 1;
        }
        self.parser.process(self.rest[..cut].into());
        self.rest = &self.rest[cut..];
        let doc = self.parser.tokenizer.sink.sink.0.borrow();
        // Nodes are only ever added at the end of the arena: count the new ones.
        self.elements += doc.tree.nodes().skip(self.counted).filter(|n| n.value().is_element()).count();
        self.counted = doc.tree.nodes().len();
        if self.elements > self.max_elements {
            return Err(self.elements);
        }
        Ok(!self.rest.is_empty())
    }

    /// The document, once [`ChunkedParse::step`] has returned `Ok(false)`.
    pub fn finish(self) -> Html {
        self.parser.finish()
    }
}

/// A parser whose node arena is allocated once at about the size the
/// source needs (a node per `<`: a tag's element and the text after it,
/// counting end tags for text), up to twice `max_elements`. Grown by
/// doubling instead, the arena of a page of 200,000 elements was copied
/// whole in one chunk of the parse (60 ms in a browser tab).
fn parser(source: &str, max_elements: usize) -> html5ever::driver::Parser<HtmlTreeSink> {
    let nodes = source.bytes().filter(|&b| b == b'<').count().min(max_elements.saturating_mul(2));
    let mut document = Html::new_document();
    document.tree = ego_tree::Tree::with_capacity(Node::Document, nodes + 1);
    let tree_builder = TreeBuilderOpts {
        max_open_elements: MAX_OPEN_ELEMENTS,
        max_active_formatting: MAX_ACTIVE_FORMATTING,
        ..TreeBuilderOpts::default()
    };
    let opts = ParseOpts { tree_builder, ..ParseOpts::default() };
    html5ever::driver::parse_document(HtmlTreeSink::new(document), opts)
}

/// The snapshot of a parsed document, or `None` for a document without
/// elements (impossible for html5ever, which always creates `<html>`).
pub fn snapshot(doc: &Html) -> Option<Tree> {
    let mut walk = SnapshotWalk::new(doc);
    while walk.step(usize::MAX) {}
    walk.finish()
}

/// [`snapshot`] a bounded number of edges at a time: on the page's main
/// thread a 100,000-element page takes a few hundred milliseconds to walk,
/// and the caller lets the page run between steps.
pub struct SnapshotWalk<'a> {
    edges: Box<dyn Iterator<Item = Edge<'a, Node>> + 'a>,
    builder: TreeBuilder,
}

impl<'a> SnapshotWalk<'a> {
    pub fn new(doc: &'a Html) -> Self {
        Self { edges: Box::new(light_tree(*doc.root_element())), builder: TreeBuilder::new() }
    }

    /// Walks up to `edges` more edges (an element's opening and closing are
    /// two); false once the whole document is walked.
    pub fn step(&mut self, edges: usize) -> bool {
        for _ in 0..edges {
            let Some(edge) = self.edges.next() else { return false };
            match edge {
                Edge::Open(node) => match node.value() {
                    Node::Element(e) => {
                        self.builder.open(e.name(), e.attrs());
                    }
                    Node::Text(t) => self.builder.text(t),
                    _ => {}
                },
                Edge::Close(node) => {
                    if node.value().is_element() {
                        self.builder.close();
                    }
                }
            }
        }
        true
    }

    pub fn finish(self) -> Option<Tree> {
        self.builder.finish()
    }
}

/// The document with every non-template element removed (with its whole
/// subtree), as a standalone HTML file. `keep[i]` speaks of the `i`-th
/// element in document order, the numbering of [`snapshot`]. html5ever's
/// serializer writes it, so escaping, void and raw-text elements (`script`,
/// `noscript`, `xmp`, `plaintext`…), foreign attributes and comments come
/// out as the HTML standard says, and the file re-parses to the kept nodes,
/// except where the parser built a tree no markup gives directly, which
/// happens only inside a table's insertion modes: a `<plaintext>` moved out
/// of a table (nothing after it, the table included, can be written as
/// markup: `<div><table><plaintext>x` re-parses without its table), and an
/// element nested where markup would close its parent (`<div><table><p><form>`
/// puts a `<form>` inside a `<p>`, which a `<form>` tag closes). The fuzz
/// property (tests/fuzz.rs) holds the promise to pages whose whole document
/// survives this round trip; `tests/template_html.rs` keeps both exceptions.
pub fn template_html(doc: &Html, keep: &[bool]) -> String {
    write(&Kept { doc, keep, head: None })
}

/// The saved template file: [`template_html`] of the nodes kept by
/// [`crate::page::saved_template::saved_keep`], with `head.title` as the text of
/// the head's `<title>` and, when the page has no `<base>`, a
/// `<base href="{head.base}">` first in its head so relative stylesheets
/// and images still resolve.
pub fn saved_template_html(doc: &Html, keep: &[bool], head: &SavedHead) -> String {
    write(&Kept { doc, keep, head: Some(head) })
}

/// What the saved file's head says instead of the page's.
pub struct SavedHead {
    pub title: String,
    pub base: String,
}

fn write(kept: &Kept) -> String {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail; the serializer only reports writer errors.
    let _ = serialize(&mut out, kept, SerializeOpts::default());
    out.push(b'\n');
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A document seen through a keep mask, for html5ever's serializer.
struct Kept<'a> {
    doc: &'a Html,
    keep: &'a [bool],
    head: Option<&'a SavedHead>,
}

/// An HTML element named `name` whose parent is an HTML `parent`.
fn is_html_child(node: NodeRef<'_, Node>, name: &str, parent: &str) -> bool {
    let html = |n: NodeRef<'_, Node>, want: &str| matches!(n.value(), Node::Element(e) if e.name.ns == html5ever::ns!(html) && e.name() == want);
    html(node, name) && node.parent().is_some_and(|p| html(p, parent))
}

impl Serialize for Kept<'_> {
    fn serialize<S: Serializer>(&self, out: &mut S, _: TraversalScope) -> io::Result<()> {
        let mut element = 0usize;
        let mut skipping: Option<ego_tree::NodeId> = None;
        // A declarative shadow root is written with its host but has no
        // numbers: the snapshot leaves it out (see `light_tree`).
        let mut shadow: Option<ego_tree::NodeId> = None;
        let mut in_title = false;
        for edge in self.doc.tree.root().traverse() {
            match edge {
                Edge::Open(node) => {
                    if shadow.is_none() && is_declarative_shadow_root(node) {
                        shadow = Some(node.id());
                    }
                    let numbered = shadow.is_none() && node.value().is_element();
                    let index = element;
                    element += usize::from(numbered);
                    if skipping.is_some() {
                        continue;
                    }
                    match node.value() {
                        // The doctype's name is all the serializer writes; a
                        // quirks-mode page keeps its mode (which changes how
                        // `<table>` closes `<p>`) by having none.
                        Node::Doctype(d) if self.doc.quirks_mode != QuirksMode::Quirks => {
                            out.write_doctype(d.name())?
                        }
                        Node::Comment(c) => out.write_comment(c)?,
                        Node::Text(_) if in_title => {}
                        Node::Text(t) => out.write_text(t)?,
                        Node::Element(e) if !numbered || self.keep.get(index).copied().unwrap_or(false) => {
                            out.start_elem(e.name.clone(), e.attrs.iter().map(|(k, v)| (k, &**v)))?;
                            if let Some(head) = self.head {
                                if is_html_child(node, "title", "head") {
                                    out.write_text(&head.title)?;
                                    in_title = true;
                                } else if is_html_child(node, "head", "html") {
                                    let has = |name| node.children().any(|c| is_html_child(c, name, "head"));
                                    if !has("base") {
                                        let base = QualName::new(None, html5ever::ns!(html), local_name!("base"));
                                        let href = QualName::new(None, html5ever::ns!(), local_name!("href"));
                                        out.start_elem(base.clone(), std::iter::once((&href, head.base.as_str())))?;
                                        out.end_elem(base)?;
                                    }
                                    if !has("title") {
                                        let title = QualName::new(None, html5ever::ns!(html), local_name!("title"));
                                        out.start_elem(title.clone(), std::iter::empty())?;
                                        out.write_text(&head.title)?;
                                        out.end_elem(title)?;
                                    }
                                }
                            }
                        }
                        Node::Element(_) => skipping = Some(node.id()),
                        _ => {}
                    }
                }
                Edge::Close(node) => {
                    if shadow == Some(node.id()) {
                        shadow = None;
                    }
                    if skipping.is_some() {
                        if skipping == Some(node.id()) {
                            skipping = None;
                        }
                        continue;
                    }
                    if let Node::Element(e) = node.value() {
                        in_title = false;
                        // Nothing after `<plaintext>`'s content is markup
                        // any more, not even its end tag: the file ends here.
                        if e.name.local == local_name!("plaintext") {
                            return Ok(());
                        }
                        out.end_elem(e.name.clone())?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The document's elements in the snapshot's numbering (element `i` here
/// is node `i` of [`snapshot`]), for code that needs the elements' text or
/// markup, which the snapshot keeps only as hashes.
pub fn numbered_elements(doc: &Html) -> Vec<NodeRef<'_, Node>> {
    light_tree(*doc.root_element())
        .filter_map(|edge| match edge {
            Edge::Open(node) if node.value().is_element() => Some(node),
            _ => None,
        })
        .collect()
}

/// The tree below `from` in document order without the subtrees a browser
/// turns into shadow roots: the live page has no element for them (their
/// content hangs off the host's `shadowRoot`, which the live walk does not
/// read), so the snapshot leaves them out too and both number the page's
/// elements alike.
fn light_tree(from: NodeRef<'_, Node>) -> impl Iterator<Item = Edge<'_, Node>> {
    let mut skipping = None;
    from.traverse().filter(move |edge| match (edge, skipping) {
        (Edge::Open(node), None) if is_declarative_shadow_root(*node) => {
            skipping = Some(node.id());
            false
        }
        (Edge::Close(node), Some(id)) if node.id() == id => {
            skipping = None;
            false
        }
        (_, skipping) => skipping.is_none(),
    })
}

/// A `<template shadowrootmode="open|closed">` that the HTML parser attaches
/// as its parent's shadow root: the parent must be able to host one (HTML
/// standard, `attachShadow`) and must not have one already from an earlier
/// such template. Anywhere else it stays an ordinary `<template>`.
fn is_declarative_shadow_root(node: NodeRef<'_, Node>) -> bool {
    let shadow_mode = |n: NodeRef<'_, Node>| match n.value() {
        Node::Element(e) if e.name() == "template" => e
            .attr("shadowrootmode")
            .is_some_and(|mode| mode.eq_ignore_ascii_case("open") || mode.eq_ignore_ascii_case("closed")),
        _ => false,
    };
    let can_host = |n: NodeRef<'_, Node>| match n.value() {
        Node::Element(e) if e.name.ns == html5ever::ns!(html) => is_shadow_host_name(e.name()),
        _ => false,
    };
    shadow_mode(node) && node.parent().is_some_and(can_host) && !node.prev_siblings().any(shadow_mode)
}

/// The elements `attachShadow` accepts: a fixed list plus every valid custom
/// element name.
fn is_shadow_host_name(name: &str) -> bool {
    const HOSTS: &[&str] = &[
        "article",
        "aside",
        "blockquote",
        "body",
        "div",
        "footer",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "main",
        "nav",
        "p",
        "section",
        "span",
    ];
    const RESERVED: &[&str] = &[
        "annotation-xml",
        "color-profile",
        "font-face",
        "font-face-src",
        "font-face-uri",
        "font-face-format",
        "font-face-name",
        "missing-glyph",
    ];
    HOSTS.contains(&name)
        || (name.starts_with(|c: char| c.is_ascii_lowercase())
            && name.contains('-')
            && !name.contains(|c: char| c.is_ascii_uppercase())
            && !RESERVED.contains(&name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn describe(t: &Tree) -> Vec<(String, Option<usize>)> {
        t.nodes().map(|(_, n)| (n.tag.to_string(), n.parent.map(|p| p.0 as usize))).collect()
    }

    /// Each element's depth (`html` is 1), in document order.
    fn depths(t: &Tree) -> Vec<usize> {
        let mut depth: Vec<usize> = Vec::with_capacity(t.len());
        for (_, n) in t.nodes() {
            depth.push(n.parent.map_or(1, |p| depth[p.0 as usize] + 1));
        }
        depth
    }

    #[test]
    fn deep_nesting_stops_at_blinks_depth_and_goes_on_beside() {
        // Blink's fast/parser test, in a whole document (html and body are
        // open too): the element that finds 513 open lands beside the 512th.
        let source: String = (0..2000).map(|i| format!("<div id=d{i}>")).collect();
        let t = snapshot(&parse(&source)).unwrap();
        let id_of = |i: usize| t.node(crate::page::dom::NodeId(i as u32)).id.as_deref().unwrap_or("").to_string();
        let parent_id = |i: usize| id_of(t.node(crate::page::dom::NodeId(i as u32)).parent.unwrap().0 as usize);
        // Element 3 is d0 (after html, head, body).
        assert_eq!(parent_id(3 + 510), "d509");
        assert_eq!(parent_id(3 + 511), "d509");
        assert_eq!(parent_id(3 + 1999), "d509");
        assert_eq!(t.len(), 2003, "no element is lost");
        assert_eq!(depths(&t).into_iter().max(), Some(MAX_OPEN_ELEMENTS + 1));
    }

    #[test]
    fn closing_tags_after_the_limit_close_what_is_open() {
        // 600 closed levels, then content: it lands in body as in every browser.
        let source = format!("{}<p>deep</p>{}<footer>after</footer>", "<div>".repeat(600), "</div>".repeat(600));
        let t = snapshot(&parse(&source)).unwrap();
        let footer = t.nodes().find(|(_, n)| &*n.tag == "footer").unwrap().0;
        assert_eq!(t.path(footer), "/html/body/footer");
    }

    #[test]
    fn many_attributes_keep_the_first_of_duplicates() {
        let attrs: String = (0..5000).map(|i| format!(" a{i}=v{i}")).collect();
        let doc = parse(&format!("<div{attrs} a17=late a4999=late>x</div>"));
        let div = doc.tree.nodes().find_map(|n| n.value().as_element().filter(|e| e.name() == "div")).unwrap();
        assert_eq!(div.attrs().count(), 5000);
        assert_eq!((div.attr("a17"), div.attr("a4999")), (Some("v17"), Some("v4999")));
    }

    /// Patches 5 and 6 (vendor/html5ever/PATCH.md) change how raw text,
    /// comments and attribute values are read, never what they hold: this
    /// passes with and without them.
    #[test]
    fn raw_text_comments_and_values_read_in_runs_keep_every_character() {
        let text_of = |doc: &Html, tag: &str| -> String {
            let e = doc.tree.nodes().find(|n| n.value().as_element().is_some_and(|e| e.name() == tag)).unwrap();
            e.children().filter_map(|c| c.value().as_text().map(|t| t.to_string())).collect()
        };
        let comments = |doc: &Html| -> Vec<String> {
            doc.tree.nodes().filter_map(|n| n.value().as_comment().map(|c| c.to_string())).collect()
        };
        let doc = parse(
            "<title>a\r\nb\rc\n</title><style>p {\r\n color: red }\n\0</style>\
             <script>if (a < b)\r\n{ x = '<!--'; }\n\r\n\0<!-- <script> -->\n</script>\
             <!-- one\r\n two\r three - four -- five <!- six \0 --><!---->\
             <textarea>\r\nfirst\r\n\nsecond &amp; third\0</textarea><pre>\nkept</pre>\
             <p a=\"x\r\ny\nz &amp; w\0\" b='\r\r\n&lt;' c=u\r\nd=\"\" e=\"aaaaaaaaaaaaaaaaaaaaaaaaa\" f=\"\">",
        );
        assert_eq!(text_of(&doc, "title"), "a\nb\nc\n");
        assert_eq!(text_of(&doc, "style"), "p {\n color: red }\n\u{fffd}");
        assert_eq!(text_of(&doc, "script"), "if (a < b)\n{ x = '<!--'; }\n\n\u{fffd}<!-- <script> -->\n");
        assert_eq!(comments(&doc), [" one\n two\n three - four -- five <!- six \u{fffd} ", ""]);
        assert_eq!(text_of(&doc, "textarea"), "first\n\nsecond & third\u{fffd}", "the first newline is dropped");
        assert_eq!(text_of(&doc, "pre"), "kept");
        let p = doc.tree.nodes().find_map(|n| n.value().as_element().filter(|e| e.name() == "p")).unwrap();
        let attr = |name: &str| p.attr(name).map(str::to_string);
        assert_eq!(attr("a").as_deref(), Some("x\ny\nz & w\u{fffd}"));
        assert_eq!(attr("b").as_deref(), Some("\n\n<"));
        assert_eq!((attr("c").as_deref(), attr("d").as_deref()), (Some("u"), Some("")));
        assert_eq!((attr("e").unwrap().len(), attr("f").as_deref()), (25, Some("")));
        // A run across the chunks of a parse that stops to count.
        let long =
            format!("<script>{}</script><p title=\"{}\">", "x\n".repeat(CHUNK_BYTES), "y\r\n".repeat(CHUNK_BYTES));
        let doc = parse_within(&long, 100).unwrap();
        assert_eq!(text_of(&doc, "script"), "x\n".repeat(CHUNK_BYTES));
        let p = doc.tree.nodes().find_map(|n| n.value().as_element().filter(|e| e.name() == "p")).unwrap();
        assert_eq!(p.attr("title"), Some("y\n".repeat(CHUNK_BYTES).as_str()));
    }

    #[test]
    fn names_read_in_runs_are_lowercased_and_end_where_one_character_ends_them() {
        let names = |html: &str| -> Vec<(String, Vec<String>)> {
            let doc = parse(html);
            let body = doc.tree.nodes().filter_map(|n| n.value().as_element()).skip_while(|e| e.name() != "body");
            let sorted = |e: &scraper::node::Element| {
                let mut attrs: Vec<String> = e.attrs().map(|(k, _)| k.to_string()).collect();
                attrs.sort();
                attrs
            };
            body.skip(1).map(|e| (e.name().to_string(), sorted(e))).collect()
        };
        let tag = |n: &str, attrs: &[&str]| (n.to_string(), attrs.iter().map(|a| a.to_string()).collect::<Vec<_>>());
        assert_eq!(names("<DiV ID=a Class=b DATA-X=1 dAtA-y>"), [tag("div", &["class", "data-x", "data-y", "id"])]);
        assert_eq!(names("<di\0v a\0B=1>"), [tag("di\u{fffd}v", &["a\u{fffd}b"])]);
        assert_eq!(names("<dI\rV x\r=1>"), [tag("di", &["v", "x"])], "a CR ends a name as a newline does");
        assert_eq!(
            names("<eÉL Ünï=1 a\"b=2 c<d=3>"),
            [tag("eÉl", &["a\"b", "c<d", "Ünï"])],
            "only ASCII is lowercased"
        );
        assert_eq!(names("<svg viewBox='0 0 1 1'><clipPath/></svg>"), [tag("svg", &["viewBox"]), tag("clipPath", &[])]);
        let long = "Section".repeat(4000);
        let name = long.to_ascii_lowercase();
        assert_eq!(names(&format!("<{long} {long}=1>")), [tag(&name, &[&name])], "a run longer than a parse chunk");
    }

    #[test]
    fn formatting_elements_reopen_up_to_the_bound() {
        // The ordinary case is untouched: `<b>` reopens in the next paragraph.
        let t = snapshot(&parse("<p><b>x</p><p>y")).unwrap();
        let tags: Vec<&str> = t.nodes().map(|(_, n)| &*n.tag).collect();
        assert_eq!(tags, ["html", "head", "body", "p", "b", "p", "b"]);
        // Past the bound the earliest ones are forgotten, so each paragraph
        // reopens at most MAX_ACTIVE_FORMATTING of them, not all before it.
        let source: String = (0..1000).map(|i| format!("<p><b id=b{i}></p>")).collect();
        let t = snapshot(&parse(&source)).unwrap();
        let per_paragraph = (t.len() - 3) / 1000;
        assert!(
            (MAX_ACTIVE_FORMATTING - 2..=MAX_ACTIVE_FORMATTING + 1).contains(&per_paragraph),
            "{per_paragraph} elements per paragraph"
        );
    }

    #[test]
    fn parse_within_stops_past_the_element_limit_and_otherwise_parses_alike() {
        let source = format!("<p>é</p>{}", "<p><b id=x></p>".repeat(40_000));
        assert!(parse_within(&source, 1000).is_err_and(|n| n > 1000 && n < 200_000));
        let small = "<title>t</title><p>one<p>two é";
        let (a, b) = (snapshot(&parse(small)).unwrap(), snapshot(&parse_within(small, 100).unwrap()).unwrap());
        assert_eq!(describe(&a), describe(&b));
        let chunked = format!("<div>{}</div><footer>ü</footer>", "é".repeat(CHUNK_BYTES));
        let t = snapshot(&parse_within(&chunked, 100).unwrap()).unwrap();
        assert_eq!(t.nodes().map(|(_, n)| &*n.tag).collect::<Vec<_>>(), ["html", "head", "body", "div", "footer"]);
    }

    #[test]
    fn snapshot_follows_html5_tree_construction() {
        let doc = parse("<title>x</title><p>one<p>two<table><tr><td>cell</table><div class='a notTemplate'>");
        let t = snapshot(&doc).unwrap();
        let tags: Vec<&str> = t.nodes().map(|(_, n)| &*n.tag).collect();
        assert_eq!(tags, ["html", "head", "title", "body", "p", "p", "table", "tbody", "tr", "td", "div"]);
        assert!(t.node(crate::page::dom::NodeId(10)).gold.not_template);
    }

    #[test]
    fn declarative_shadow_roots_are_left_out_as_in_the_live_page() {
        let doc = parse(
            "<div><template shadowrootmode=OPEN><p>shadow</p></template><template shadowrootmode=open><i>\
             second stays</i></template><span>light</span></div><table><tr><td><template shadowrootmode=closed>\
             <b>not a host</b></template></table><x-card><template shadowrootmode=closed><u>in</u></template></x-card>\
             <div><template shadowrootmode=sideways><em>no mode</em></template></div>",
        );
        let t = snapshot(&doc).unwrap();
        let tags: Vec<&str> = t.nodes().map(|(_, n)| &*n.tag).collect();
        assert_eq!(
            tags,
            [
                "html", "head", "body", "div", "template", "i", "span", "table", "tbody", "tr", "td", "template", "b",
                "x-card", "div", "template", "em"
            ]
        );
        // The saved template keeps a kept host's shadow root, so it re-parses to the same elements.
        let html = template_html(&doc, &vec![true; t.len()]);
        assert!(html.contains("<p>shadow</p>") && html.contains("<u>in</u>"), "{html}");
        assert_eq!(describe(&snapshot(&parse(&html)).unwrap()), describe(&t), "{html}");
        let without_first_div: Vec<bool> = (0..t.len()).map(|i| !(3..=6).contains(&i)).collect();
        let html = template_html(&doc, &without_first_div);
        assert!(!html.contains("shadow</p>") && !html.contains("light"), "{html}");
        assert_eq!(snapshot(&parse(&html)).unwrap().len(), t.len() - 4, "{html}");
    }

    #[test]
    fn template_html_drops_unkept_subtrees_and_keeps_text() {
        let doc = parse("<html><head><style>a>b{}</style></head><body><nav>Menu &amp; more<br></nav><main><p>gone</p></main></body></html>");
        let t = snapshot(&doc).unwrap();
        let keep: Vec<bool> = t.nodes().map(|(_, n)| !matches!(&*n.tag, "main" | "p")).collect();
        let html = template_html(&doc, &keep);
        assert!(html.contains("<nav>Menu &amp; more<br></nav>"), "{html}");
        assert!(html.contains("<style>a>b{}</style>"));
        assert!(!html.contains("gone") && !html.contains("<main"));
        let again = snapshot(&parse(&html)).unwrap();
        assert_eq!(again.len(), keep.iter().filter(|&&k| k).count());
    }

    #[test]
    fn the_saved_template_carries_the_head_with_a_neutral_title_and_a_base() {
        let page = "<!DOCTYPE html><html><head><meta charset=utf-8><title>One article</title>\
                    <link rel=stylesheet href=/css/style.css><script>track()</script></head>\
                    <body><nav>Menu</nav><div><main><p>gone</p></main></div><svg><title>icon</title></svg></body></html>";
        let doc = parse(page);
        let t = snapshot(&doc).unwrap();
        // The extraction's verdict: the head differs per page, so it is not template.
        let template: Vec<bool> =
            t.nodes().map(|(_, n)| matches!(&*n.tag, "html" | "body" | "nav" | "svg" | "title")).collect();
        let head = SavedHead { title: "Template of example.org".into(), base: "http://example.org/a/b.html".into() };
        let html = saved_template_html(&doc, &crate::page::saved_template::saved_keep(&t, &template), &head);
        assert!(html.starts_with("<!DOCTYPE html><html><head><base href=\"http://example.org/a/b.html\"><meta charset=\"utf-8\"><title>Template of example.org</title><link href=\"/css/style.css\" rel=\"stylesheet\"></head>"), "{html}");
        assert!(!html.contains("track()") && !html.contains("gone") && !html.contains("<div"), "{html}");
        assert!(html.contains("<nav>Menu</nav>") && html.contains("<svg><title>icon</title></svg>"), "{html}");
    }

    #[test]
    fn a_page_with_its_own_base_and_no_title_keeps_its_base_and_gains_the_title() {
        let doc = parse("<html><head><base href=/root/></head><body><nav>Menu</nav></body></html>");
        let t = snapshot(&doc).unwrap();
        let head = SavedHead { title: "Template of x".into(), base: "http://x/".into() };
        let html = saved_template_html(&doc, &vec![true; t.len()], &head);
        assert!(html.contains("<head><title>Template of x</title><base href=\"/root/\"></head>"), "{html}");
    }

    #[test]
    fn template_html_keeps_comments_raw_text_and_foreign_attributes() {
        let source = "<!DOCTYPE html><body><!-- menu --><xmp><b>x</b></xmp><noscript><p>a</p></noscript>\
                      <svg><use xlink:href='#i'/></svg><main>gone</main>";
        let doc = parse(source);
        let t = snapshot(&doc).unwrap();
        let keep: Vec<bool> = t.nodes().map(|(_, n)| &*n.tag != "main").collect();
        let html = template_html(&doc, &keep);
        for part in ["<!DOCTYPE html>", "<!-- menu -->", "<xmp><b>x</b></xmp>", "<noscript><p>a</p></noscript>"] {
            assert!(html.contains(part), "{part} in {html}");
        }
        assert!(html.contains(r##"<use xlink:href="#i">"##), "{html}");
        assert!(!html.contains("gone"));
    }

    #[test]
    fn template_html_of_a_quirks_page_stays_in_quirks_mode() {
        // In quirks mode `<table>` does not close an open `<p>`.
        let doc = parse("<p><table><tr><td>x</table>");
        let keep = vec![true; snapshot(&doc).unwrap().len()];
        let html = template_html(&doc, &keep);
        assert!(!html.contains("DOCTYPE"), "{html}");
        assert_eq!(snapshot(&parse(&html)).unwrap().path(crate::page::dom::NodeId(4)), "/html/body/p/table");
    }
}
