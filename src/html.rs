//! Native HTML: html5ever (through `scraper`) builds the same element tree a
//! browser's parser builds, which the snapshot walks; html5ever's serializer
//! writes the saved template.

use std::io;

use ego_tree::iter::Edge;
use ego_tree::NodeRef;
use html5ever::local_name;
use html5ever::serialize::{serialize, Serialize, SerializeOpts, Serializer, TraversalScope};
use html5ever::tree_builder::QuirksMode;
use scraper::{Html, Node};

use crate::dom::{Tree, TreeBuilder};

/// Parses a whole document with the HTML5 algorithm (never fails: malformed
/// markup is repaired exactly as browsers repair it).
pub fn parse(source: &str) -> Html {
    Html::parse_document(source)
}

/// The snapshot of a parsed document, or `None` for a document without
/// elements (impossible for html5ever, which always creates `<html>`).
pub fn snapshot(doc: &Html) -> Option<Tree> {
    let mut b = TreeBuilder::new();
    for edge in light_tree(*doc.root_element()) {
        match edge {
            Edge::Open(node) => match node.value() {
                Node::Element(e) => {
                    b.open(e.name(), e.attrs());
                }
                Node::Text(t) => b.text(t),
                _ => {}
            },
            Edge::Close(node) => {
                if node.value().is_element() {
                    b.close();
                }
            }
        }
    }
    b.finish()
}

/// The document with every non-template element removed (with its whole
/// subtree), as a standalone HTML file. `keep[i]` speaks of the `i`-th
/// element in document order, the numbering of [`snapshot`]. html5ever's
/// serializer writes it, so escaping, void and raw-text elements (`script`,
/// `noscript`, `xmp`, `plaintext`…), foreign attributes and comments come
/// out as the HTML standard says, and the file re-parses to the kept nodes.
pub fn template_html(doc: &Html, keep: &[bool]) -> String {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail; the serializer only reports writer errors.
    let _ = serialize(&mut out, &Kept { doc, keep }, SerializeOpts::default());
    out.push(b'\n');
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A document seen through a keep mask, for html5ever's serializer.
struct Kept<'a> {
    doc: &'a Html,
    keep: &'a [bool],
}

impl Serialize for Kept<'_> {
    fn serialize<S: Serializer>(&self, out: &mut S, _: TraversalScope) -> io::Result<()> {
        let mut element = 0usize;
        let mut skipping: Option<ego_tree::NodeId> = None;
        // A declarative shadow root is written with its host but has no
        // numbers: the snapshot leaves it out (see `light_tree`).
        let mut shadow: Option<ego_tree::NodeId> = None;
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
                        Node::Text(t) => out.write_text(t)?,
                        Node::Element(e) if !numbered || self.keep.get(index).copied().unwrap_or(false) => {
                            out.start_elem(e.name.clone(), e.attrs.iter().map(|(k, v)| (k, &**v)))?
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

    #[test]
    fn snapshot_follows_html5_tree_construction() {
        let doc = parse("<title>x</title><p>one<p>two<table><tr><td>cell</table><div class='a notTemplate'>");
        let t = snapshot(&doc).unwrap();
        let tags: Vec<&str> = t.nodes().map(|(_, n)| &*n.tag).collect();
        assert_eq!(tags, ["html", "head", "title", "body", "p", "p", "table", "tbody", "tr", "td", "div"]);
        assert!(t.node(crate::dom::NodeId(10)).gold.not_template);
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
        assert_eq!(snapshot(&parse(&html)).unwrap().path(crate::dom::NodeId(4)), "/html/body/p/table");
    }
}
