//! Native HTML: html5ever (through `scraper`) builds the same element tree a
//! browser's parser builds, which the snapshot and the template writer walk.

use ego_tree::iter::Edge;
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
    for edge in doc.root_element().traverse() {
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

/// Elements with no end tag.
const VOID: &[&str] =
    &["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"];

fn escape(s: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' if !attribute => out.push_str("&lt;"),
            '>' if !attribute => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\u{a0}' => out.push_str("&nbsp;"),
            c => out.push(c),
        }
    }
    out
}

/// The document with every non-template element removed (with its whole
/// subtree), as a standalone HTML file. `keep[i]` speaks of the `i`-th
/// element in document order, the numbering of [`snapshot`].
pub fn template_html(doc: &Html, keep: &[bool]) -> String {
    let mut out = String::from("<!DOCTYPE html>\n");
    let mut element = 0usize;
    let mut skipping: Option<ego_tree::NodeId> = None;
    let mut raw_text = 0usize;
    for edge in doc.root_element().traverse() {
        match edge {
            Edge::Open(node) => {
                if skipping.is_some() {
                    if node.value().is_element() {
                        element += 1;
                    }
                    continue;
                }
                match node.value() {
                    Node::Element(e) => {
                        let kept = keep.get(element).copied().unwrap_or(false);
                        element += 1;
                        if !kept {
                            skipping = Some(node.id());
                            continue;
                        }
                        out.push('<');
                        out.push_str(e.name());
                        for (name, value) in e.attrs() {
                            out.push_str(&format!(" {name}=\"{}\"", escape(value, true)));
                        }
                        out.push('>');
                        if matches!(e.name(), "script" | "style") {
                            raw_text += 1;
                        }
                    }
                    Node::Text(t) => {
                        if raw_text > 0 {
                            out.push_str(t);
                        } else {
                            out.push_str(&escape(t, false));
                        }
                    }
                    _ => {}
                }
            }
            Edge::Close(node) => {
                if skipping == Some(node.id()) {
                    skipping = None;
                    continue;
                }
                if skipping.is_some() {
                    continue;
                }
                if let Node::Element(e) = node.value() {
                    if matches!(e.name(), "script" | "style") {
                        raw_text -= 1;
                    }
                    if !VOID.contains(&e.name()) {
                        out.push_str(&format!("</{}>", e.name()));
                    }
                }
            }
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_follows_html5_tree_construction() {
        let doc = parse("<title>x</title><p>one<p>two<table><tr><td>cell</table><div class='a notTemplate'>");
        let t = snapshot(&doc).unwrap();
        let tags: Vec<&str> = t.nodes().map(|(_, n)| &*n.tag).collect();
        assert_eq!(tags, ["html", "head", "title", "body", "p", "p", "table", "tbody", "tr", "td", "div"]);
        assert!(t.node(crate::dom::NodeId(10)).gold.not_template);
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
}
