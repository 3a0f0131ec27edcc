//! Labels a page gives itself: the words of its one `<main>` (else its one
//! `<article>`) are its content, those of `<header>`, `<nav>`, `<aside>` and
//! `<footer>` outside it are template. No gold is needed, so the words a collection
//! drops from the content, and the template words it leaves in, can be
//! counted on every page of an unlabelled crawl (issue 38's bars: at most
//! 0.5 % of content words lost and 5 % of template words left, per host).
//! A `<nav>`, `<aside>` or `<form>` inside the content (breadcrumbs, a
//! sidebar a theme puts in `<main>`, a review or search form) counts as
//! neither, and so does a breadcrumb trail anywhere (a `<nav>` the markup
//! calls template, that LABELING.md's N2 calls the page's). Pages that
//! mark no single content element are not counted.

use std::collections::HashMap;

use serde::Serialize;

use crate::collection::input::Record;
use crate::collection::page_admission::admit;
use crate::collection::page_content::own_texts;
use crate::decide::breadcrumb_trails::is_trail;
use crate::decide::text_recurrence::subtree_words;
use crate::page::dom::{NodeId, Tree};
use crate::page::html::parse;

/// What a page's own markup says an element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Content,
    Template,
    /// Set apart from both by the rules above: its words, in an output,
    /// are neither lost nor left.
    Neither,
    Unmarked,
}

/// Each element's part, in the snapshot's numbering; `None` when the page
/// has no single `<main>` and no single `<article>`.
pub fn parts(tree: &Tree) -> Option<Vec<Part>> {
    let single = |tag: &str| {
        let mut found = tree.nodes().filter(|(_, n)| &*n.tag == tag).map(|(id, _)| id);
        let first = found.next()?;
        found.next().is_none().then_some(first)
    };
    let root = single("main").or_else(|| single("article"))?;
    let mut parts = vec![Part::Unmarked; tree.len()];
    // A trail as the method reads one (named so, and of a trail's size);
    // what lies under a part counted as neither is neither too.
    let words = tree.nodes().any(|(_, n)| n.trail).then(|| subtree_words(tree));
    for (id, node) in tree.nodes() {
        let tag = &*node.tag;
        let inherited = node.parent.map_or(Part::Unmarked, |p| parts[p.index()]);
        parts[id.index()] = if words.as_deref().is_some_and(|w| is_trail(tree, w, id.index())) {
            Part::Neither
        } else if id == root {
            Part::Content
        } else if inherited == Part::Content && matches!(tag, "nav" | "aside" | "form") {
            Part::Neither
        } else if inherited == Part::Unmarked
            && matches!(tag, "header" | "nav" | "aside" | "footer")
            && !holds(tree, id, root)
        {
            Part::Template
        } else {
            inherited
        };
    }
    Some(parts)
}

/// Whether `inner` lies in the subtree of `outer`.
fn holds(tree: &Tree, outer: NodeId, inner: NodeId) -> bool {
    tree.subtree(outer).contains(&inner.index())
}

/// Each page's own texts by URL (`own_texts`, in the snapshot's
/// numbering): a collection keeps no parsed document, so the text-based
/// measures read them from the records first.
pub fn texts_by_url(records: &[Record], max_nodes: usize) -> HashMap<String, Vec<String>> {
    records
        .iter()
        .filter_map(|r| {
            let page = admit(&r.body, r.content_type.as_deref(), max_nodes).ok()?;
            Some((r.url.to_string(), own_texts(&parse(&page.html))))
        })
        .collect()
}

/// Words counted over the labelled pages of a site.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MarkupWords {
    pub pages: usize,
    /// Words of the marked content, and those of them the output lacks.
    pub content: usize,
    pub lost: usize,
    /// Words of the output, and those of them that are marked template and
    /// not content.
    pub output: usize,
    pub template_left: usize,
}

impl MarkupWords {
    /// Adds one page: its snapshot, each element's own text (same
    /// numbering) and the content text the method gave it.
    pub fn add_page(&mut self, tree: &Tree, texts: &[String], output: &str) {
        let Some(parts) = parts(tree) else { return };
        let words_of = |part: Part| {
            let mut bag: HashMap<&str, usize> = HashMap::new();
            for (t, _) in texts.iter().zip(&parts).filter(|(_, p)| **p == part) {
                t.split_whitespace().for_each(|w| *bag.entry(w).or_default() += 1);
            }
            bag
        };
        let (mut content, mut template) = (words_of(Part::Content), words_of(Part::Template));
        let mut neither = words_of(Part::Neither);
        self.pages += 1;
        self.content += content.values().sum::<usize>();
        for w in output.split_whitespace() {
            self.output += 1;
            let take = |bag: &mut HashMap<&str, usize>| bag.get_mut(w).filter(|n| **n > 0).map(|n| *n -= 1);
            if take(&mut content).is_none() && take(&mut neither).is_none() && take(&mut template).is_some() {
                self.template_left += 1;
            }
        }
        self.lost += content.values().sum::<usize>();
    }

    /// Content words lost, as a share of the marked content's.
    pub fn lost_share(&self) -> f64 {
        self.lost as f64 / self.content.max(1) as f64
    }

    /// Template words left, as a share of the output's words.
    pub fn template_share(&self) -> f64 {
        self.template_left as f64 / self.output.max(1) as f64
    }

    pub fn plus(self, o: MarkupWords) -> MarkupWords {
        MarkupWords {
            pages: self.pages + o.pages,
            content: self.content + o.content,
            lost: self.lost + o.lost,
            output: self.output + o.output,
            template_left: self.template_left + o.template_left,
        }
    }
}

/// Prints one row per site with labelled pages, then the sites over each
/// bar and the totals.
pub fn print(rows: &[(String, MarkupWords)]) {
    println!("\nlabels from each page's own markup (one <main>, else one <article>, without its nav, aside, form; header, nav, aside, footer outside it):");
    println!("{:<18} {:>6} {:>9} {:>8} {:>9} {:>8}", "site", "pages", "content", "lost %", "output", "tmpl %");
    let labelled: Vec<_> = rows.iter().filter(|(_, m)| m.pages > 0).collect();
    for (site, m) in &labelled {
        println!(
            "{site:<18} {:>6} {:>9} {:>8.2} {:>9} {:>8.2}",
            m.pages,
            m.content,
            100.0 * m.lost_share(),
            m.output,
            100.0 * m.template_share()
        );
    }
    let all = labelled.iter().fold(MarkupWords::default(), |a, (_, m)| a.plus(*m));
    let over = |bar: &dyn Fn(&MarkupWords) -> bool| labelled.iter().filter(|(_, m)| bar(m)).count();
    println!(
        "{} of {} sites labelled; over 0.5 % content words lost: {}; over 5 % template words left: {}; all words: {:.2} % lost, {:.2} % template",
        labelled.len(),
        rows.len(),
        over(&|m| m.lost_share() > 0.005),
        over(&|m| m.template_share() > 0.05),
        100.0 * all.lost_share(),
        100.0 * all.template_share()
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    fn texts(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_one_main_is_content_and_the_frame_outside_it_template() {
        use Part::*;
        let t = tree("html( body( header( a ) main( header( h1 ) nav( a ) p aside( a ) form ) aside div footer ) )");
        assert_eq!(
            parts(&t).unwrap(),
            [
                Unmarked, Unmarked, Template, Template, Content, Content, Content, Neither, Neither, Content, Neither,
                Neither, Neither, Template, Unmarked, Template
            ]
        );
        assert!(parts(&tree("html( body( article article ) )")).is_none(), "two articles mark no one content");
        assert_eq!(parts(&tree("html( body( nav article ) )")).unwrap()[3], Content);
        assert_eq!(
            parts(&tree("html( body( header( nav.breadcrumb( a[href] ) ) main( p ) ) )")).unwrap(),
            [Unmarked, Unmarked, Template, Neither, Neither, Content, Content],
            "a trail is the page's, not the template's"
        );
        let menu = "a[href] ".repeat(13);
        let named = tree(&format!("html( body( div.has-breadcrumbs( nav( {menu}) main( p ) ) ) )"));
        assert_eq!(
            parts(&named).unwrap()[2..5],
            [Unmarked, Template, Template],
            "a wrapper naming breadcrumbs is no trail: the trail is the method's"
        );
        let wrapped = tree("html( body( header( main( p ) ) ) )");
        assert_eq!(parts(&wrapped).unwrap()[2], Unmarked, "a header holding the content is not template");
    }

    #[test]
    fn lost_content_and_left_template_words_are_counted_with_repeats() {
        let t = tree("html( body( nav( a ) main( p p ) ) )");
        let mut m = MarkupWords::default();
        m.add_page(
            &t,
            &texts(&["", "", "", "Home News", "", "Hello world", "Home again"]),
            "Home Hello world Home News",
        );
        assert_eq!(
            m,
            MarkupWords { pages: 1, content: 4, lost: 1, output: 5, template_left: 2 },
            "again lost; Home and News left"
        );
        m.add_page(&tree("html( body( p ) )"), &texts(&["", "", "x"]), "x");
        assert_eq!(m.pages, 1, "a page without labels is not counted");
    }

    #[test]
    fn the_words_of_a_trail_in_the_output_are_not_template_left() {
        let t = tree("html( body( nav( a ) nav.breadcrumb( a[href] ) main( p ) ) )");
        let mut m = MarkupWords::default();
        m.add_page(&t, &texts(&["", "", "", "Home", "", "Home", "", "Text"]), "Home Text Home");
        assert_eq!(
            m,
            MarkupWords { pages: 1, content: 1, lost: 0, output: 3, template_left: 1 },
            "one Home is the trail's"
        );
    }
}
