//! One extraction from start to end: the key page's links, their order,
//! the complete subdigraph, the mappings and the votes.

use std::collections::HashSet;

use serde::Serialize;
use url::Url;

use crate::base::config::Config;
use crate::base::error::ExtractError;
use crate::candidates::complete_subdigraph::{find_cs, CsKind, LoadRecord};
use crate::candidates::hyperlink::{same_url_pattern, PageLink};
use crate::candidates::link_order::sort_links;
use crate::candidates::page_source::{LoadedPage, PageSource};
use crate::compare::mapping::Mapping;
use crate::decide::compare_ahead::CompareAhead;
use crate::decide::layout_agreement::{self, Agreement};
use crate::decide::template::{count, map_page, template, votes_needed};
use crate::decide::text_recurrence::KeyText;
use crate::page::dom::{NodeId, Tree};

/// Time spent per phase, in milliseconds. Fetch, parse and snapshot add up
/// the per-page times (pages may load concurrently, so their sum can exceed
/// the wall time of the CS search).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Timings {
    pub fetch_ms: f64,
    pub parse_ms: f64,
    pub snapshot_ms: f64,
    pub link_order_ms: f64,
    /// Wall time of the CS search, loads included.
    pub cs_search_ms: f64,
    pub mapping_ms: f64,
    /// Wall time of the whole extraction after the key page was loaded.
    pub total_ms: f64,
}

/// The complete subdigraph used.
#[derive(Clone, Debug, Serialize)]
pub struct CsSummary {
    pub kind: CsKind,
    pub wanted: usize,
    pub size: usize,
    pub pages: Vec<Url>,
}

/// Everything an extraction found.
#[derive(Clone, Debug, Serialize)]
pub struct Extraction {
    pub key_url: Url,
    /// Template membership per key node, in document order.
    #[serde(skip)]
    pub template: Vec<bool>,
    /// Document-order indexes of the template nodes (how the browser finds
    /// them again in the live page).
    pub template_ids: Vec<u32>,
    pub template_nodes: usize,
    pub total_nodes: usize,
    pub links: usize,
    pub cs: CsSummary,
    pub votes_needed: usize,
    /// Pages loaded, the key page included (the paper's "loads").
    pub loads: usize,
    /// Candidate loads started, speculative prefetches included.
    pub fetched: usize,
    pub load_log: Vec<LoadRecord>,
    pub timings: Timings,
}

impl Extraction {
    /// The same extraction, its template carried onto another snapshot of
    /// the key page (`url`, `template` per node of that snapshot): the served
    /// page's result given to the live page the user sees.
    pub fn carried_to(self, url: Url, template: Vec<bool>) -> Extraction {
        Extraction {
            key_url: url,
            template_ids: ids(&template),
            template_nodes: count(&template),
            total_nodes: template.len(),
            template,
            ..self
        }
    }
}

/// Extracts the template of an already loaded key page.
pub async fn extract<S: PageSource>(cfg: &Config, source: &S, key: &LoadedPage) -> Result<Extraction, ExtractError> {
    cfg.validate()?;
    if !matches!(key.url.scheme(), "http" | "https") {
        return Err(ExtractError::Restricted(key.url.to_string()));
    }
    if key.tree.len() > cfg.max_nodes {
        return Err(ExtractError::TooLarge { nodes: key.tree.len(), limit: cfg.max_nodes });
    }
    let start = source.now_ms();
    let links = source.links(key);
    if links.is_empty() {
        return Err(ExtractError::NoLinks);
    }
    source.pause_while_loading().await;
    let sorted = sort_links(&key.tree, &key.url, &links);
    let ordered = source.now_ms();
    source.pause_while_loading().await;

    // With the content signal every loaded page is compared: each is
    // compared as it loads (see `compare_ahead`). Without it nothing reads
    // the key page's text.
    let key_text = if cfg.content.enabled { KeyText::of(&key.tree) } else { KeyText::default() };
    source.pause_while_loading().await;
    let ahead = CompareAhead::new(source, cfg, &key.tree, &key_text);
    let search =
        if cfg.content.enabled { find_cs(&ahead, &sorted, cfg).await } else { find_cs(source, &sorted, cfg).await };
    let searched = source.now_ms();
    if search.members.is_empty() {
        let first = search.pages.iter().find_map(|(record, _)| record.error.clone());
        return Err(ExtractError::NoCandidates(search.loads, first));
    }

    let (mut records, mut loaded): (Vec<LoadRecord>, Vec<Option<LoadedPage>>) = search.pages.into_iter().unzip();
    let mut compared: Vec<Option<Mapping>> = records.iter().map(|r| ahead.take(&r.url)).collect();
    if cfg.content.enabled {
        let mut pages = Processed { records: &mut records, loaded: &mut loaded, compared: &mut compared };
        load_layout_peers(cfg, &ahead, key, &sorted, &mut pages).await;
    }
    let extra_loads = records.len() - search.loads;
    let (voters, mappings) = vote_pages(cfg, source, key, &search.members, &loaded, compared).await;
    let cs_pages: Vec<Url> = voters.iter().map(|&i| loaded[i].as_ref().expect("voters loaded").url.clone()).collect();
    // Freeing a page of 100,000 elements takes a while: a step each.
    for page in loaded {
        drop(page);
        source.pause_while_loading().await;
    }
    let template = template(cfg, &key.tree, &mappings);
    let mapped = source.now_ms();

    let timings = Timings {
        fetch_ms: key.fetch_ms + records.iter().map(|r| r.fetch_ms).sum::<f64>(),
        parse_ms: key.parse_ms + records.iter().map(|r| r.parse_ms).sum::<f64>(),
        snapshot_ms: key.snapshot_ms + records.iter().map(|r| r.snapshot_ms).sum::<f64>(),
        link_order_ms: ordered - start,
        cs_search_ms: searched - ordered,
        mapping_ms: mapped - searched,
        total_ms: mapped - start,
    };
    Ok(Extraction {
        key_url: key.url.clone(),
        template_ids: ids(&template),
        template_nodes: count(&template),
        total_nodes: key.tree.len(),
        links: links.len(),
        votes_needed: votes_needed(cfg, cs_pages.len()),
        cs: CsSummary { kind: search.kind, wanted: cfg.cs_size, size: cs_pages.len(), pages: cs_pages },
        loads: search.loads + extra_loads + 1,
        fetched: search.fetched + extra_loads,
        load_log: records,
        template,
        timings,
    })
}

/// The pages that vote and the key page's mapping into each, as indexes
/// into the processed pages. Without the content signal these are the CS
/// members and their plain mappings (the published method); with it, each
/// mapping keeps only what the page repeats in content too, and the voters
/// are the loaded pages that share the key page's layout
/// ([`layout_agreement::voters`]). With the signal, `compared[i]` is page
/// `i`'s comparison, made as it loaded (every loaded page has one).
async fn vote_pages<S: PageSource>(
    cfg: &Config,
    source: &S,
    key_page: &LoadedPage,
    members: &[usize],
    loaded: &[Option<LoadedPage>],
    compared: Vec<Option<Mapping>>,
) -> (Vec<usize>, Vec<Mapping>) {
    let key = &key_page.tree;
    if !cfg.content.enabled {
        let mut mappings = Vec::with_capacity(members.len());
        for &i in members {
            source.pause().await;
            mappings.push(map_page(cfg, key, &loaded[i].as_ref().expect("members loaded").tree));
        }
        return (members.to_vec(), mappings);
    }
    let mut mappings = compared;
    let (usable, agreements, core) = agreements(key_page, members, loaded, &mappings);
    let chosen: Vec<usize> = layout_agreement::voters(&agreements, core, cfg.cs_size, cfg.content.layout_ratio)
        .into_iter()
        .map(|v| usable[v])
        .collect();
    let chosen_mappings = chosen.iter().map(|&i| mappings[i].take().expect("voters loaded")).collect();
    (chosen, chosen_mappings)
}

/// The pages processed so far, side by side: each attempted load's record,
/// its page when it loaded, and the key page's comparison with it.
struct Processed<'a> {
    records: &'a mut Vec<LoadRecord>,
    loaded: &'a mut Vec<Option<LoadedPage>>,
    compared: &'a mut Vec<Option<Mapping>>,
}

/// Each compared page's agreement with the key page ([`layout_agreement`]),
/// as (indexes of the compared pages, their agreements, the core share).
fn agreements(
    key_page: &LoadedPage,
    members: &[usize],
    loaded: &[Option<LoadedPage>],
    compared: &[Option<Mapping>],
) -> (Vec<usize>, Vec<Agreement>, f64) {
    let key = &key_page.tree;
    let usable: Vec<usize> = (0..loaded.len()).filter(|&i| compared[i].is_some()).collect();
    let agreements = usable
        .iter()
        .map(|&i| {
            let m = compared[i].as_ref().expect("usable");
            Agreement {
                in_cs: members.contains(&i),
                share: m.len() as f64 / key.len() as f64,
                itself: loaded[i].as_ref().is_some_and(|p| p.url == key_page.url || p.tree.len() == key.len())
                    && m.len() == key.len(),
            }
        })
        .collect();
    let core = core_share(key, usable.iter().map(|&i| compared[i].as_ref().expect("usable")));
    (usable, agreements, core)
}

/// When fewer than `votes` loaded pages share the key page's layout (the CS
/// held listings, say, around an article), loads the next links that follow
/// the key page's URL pattern, a few at a time, until enough do or
/// `peer_loads` more pages were tried. Each is compared as it loads.
async fn load_layout_peers<S: PageSource>(
    cfg: &Config,
    ahead: &CompareAhead<'_, S>,
    key_page: &LoadedPage,
    sorted: &[PageLink],
    pages: &mut Processed<'_>,
) {
    let tried: HashSet<Url> = pages.records.iter().map(|r| r.url.clone()).collect();
    let mut next = sorted.iter().filter(|l| !tried.contains(&l.url) && same_url_pattern(&l.url, &key_page.url));
    let mut budget = cfg.content.peer_loads;
    while budget > 0 {
        let (_, agreements, core) = agreements(key_page, &[], pages.loaded, pages.compared);
        let found = layout_agreement::peers(&agreements, core, cfg.content.layout_ratio).len();
        let wanted = cfg.votes.saturating_sub(found).min(budget);
        let batch: Vec<&PageLink> = next.by_ref().take(wanted).collect();
        if batch.is_empty() {
            break;
        }
        budget -= batch.len();
        let results = futures::future::join_all(batch.iter().map(|l| ahead.load(&l.url))).await;
        for (link, result) in batch.into_iter().zip(results) {
            pages.records.push(LoadRecord::of(link.url.clone(), &result));
            pages.compared.push(ahead.take(&link.url));
            pages.loaded.push(result.ok());
        }
    }
}

/// Share of the key page's nodes that every mapping keeps: the part of the
/// template all loaded pages share, whatever their layout.
fn core_share<'a>(key: &Tree, mappings: impl Iterator<Item = &'a Mapping>) -> f64 {
    let mut core = vec![true; key.len()];
    let mut any = false;
    for m in mappings {
        any = true;
        for (i, c) in core.iter_mut().enumerate() {
            *c &= m.is_mapped(NodeId(i as u32));
        }
    }
    if !any {
        return 0.0;
    }
    core.iter().filter(|&&c| c).count() as f64 / key.len() as f64
}

/// Loads the key page through the source, then extracts.
pub async fn extract_url<S: PageSource>(cfg: &Config, source: &S, url: &Url) -> Result<Extraction, ExtractError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(ExtractError::Restricted(url.to_string()));
    }
    let key = source.load(url).await.map_err(ExtractError::KeyPage)?;
    extract(cfg, source, &key).await
}

fn ids(template: &[bool]) -> Vec<u32> {
    template.iter().enumerate().filter(|(_, &t)| t).map(|(i, _)| i as u32).collect()
}

/// The readable paths of the template nodes, for reports.
pub fn template_paths(tree: &Tree, template: &[bool]) -> Vec<String> {
    tree.nodes().filter(|(id, _)| template[id.index()]).map(|(id, _): (NodeId, _)| tree.path(id)).collect()
}

/// Bytes of template paths the extension's whole report holds at most.
/// Their size is the template's nodes times the page's depth: 200 MB for a
/// page of 100,000 elements 512 levels deep, a message Firefox's content
/// process crashes on (its IPC limit is 256 MiB) before the popup sees it.
pub const MAX_REPORT_PATH_BYTES: usize = 16 << 20;

/// The template's paths in document order while their bytes stay within
/// `budget`, and how many were left out past it. Each path's length is
/// known from its parent's before any is built, so a page whose paths
/// would be huge costs no more than the paths kept.
pub fn template_paths_within(tree: &Tree, template: &[bool], budget: usize) -> (Vec<String>, usize) {
    let mut len = vec![0usize; tree.len()];
    let mut paths = Vec::new();
    let mut used = 0;
    for (id, node) in tree.nodes() {
        let step =
            node.tag.len() + 1 + if node.same_tag_position == 0 { 0 } else { 2 + digits(node.same_tag_position) };
        len[id.index()] = node.parent.map_or(0, |p| len[p.index()]) + step;
        if template[id.index()] {
            used += len[id.index()];
            if used > budget {
                return (paths, template[id.index()..].iter().filter(|&&t| t).count());
            }
            paths.push(tree.path(id));
        }
    }
    (paths, 0)
}

fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |l| l as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::error::LoadError;
    use crate::eval::score::{gold_template, score};
    use crate::page::html::{parse, snapshot};

    /// Pages held as HTML, parsed like the CLI parses a site folder.
    struct HtmlSite(Vec<(&'static str, String)>);

    impl PageSource for HtmlSite {
        async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
            let (_, html) =
                self.0.iter().find(|(p, _)| url.path() == *p).ok_or(LoadError::NotFound(url.to_string()))?;
            let tree = snapshot(&parse(html)).expect("has html");
            Ok(LoadedPage { url: url.clone(), tree: tree.into(), fetch_ms: 0.0, parse_ms: 0.0, snapshot_ms: 0.0 })
        }

        fn now_ms(&self) -> f64 {
            0.0
        }
    }

    /// A mailing-list archive: message pages share a frame (navigation line,
    /// footer) and link to their neighbours and to two index pages; the index
    /// pages, built differently, link to each other and to every message, so
    /// the first complete subdigraph is one message and the two indexes.
    fn archive() -> HtmlSite {
        let message = |n: u32, words: &str| {
            format!(
                "<html><body><div class=nav><a href=/by-date>By date</a> <a href=/by-thread>By thread</a></div>\
                 <h1 class=notTemplate>Re: {words}</h1>\
                 <div class=pager><a href=/m{}>previous</a> <a href=/m{}>next</a></div>\
                 <pre class=notTemplate>{words}</pre>\
                 <p class=foot>This archive was generated by the archiver</p></body></html>",
                n - 1,
                n + 1
            )
        };
        let index = |other: &str| {
            format!(
                "<html><body><table><tr><td><a href={other}>Other index</a></td></tr>\
                 <tr><td><a href=/m1>1</a><a href=/m2>2</a><a href=/m3>3</a><a href=/m4>4</a></td></tr></table></body></html>"
            )
        };
        HtmlSite(vec![
            ("/m1", message(1, "a first question about sets")),
            ("/m2", message(2, "an answer about infinite sets")),
            ("/m3", message(3, "a follow-up on measure")),
            ("/m4", message(4, "thanks and a last word")),
            ("/by-date", index("/by-thread")),
            ("/by-thread", index("/by-date")),
        ])
    }

    #[test]
    fn candidates_of_another_layout_give_way_to_pages_of_the_key_pages_layout() {
        let site = archive();
        let url = Url::parse("http://archive.test/m2").unwrap();
        let key = futures::executor::block_on(site.load(&url)).unwrap();
        let run = |cfg: &Config| futures::executor::block_on(extract(cfg, &site, &key)).unwrap();
        let gold = gold_template(&key.tree);

        let paper = run(&Config::preset("paper").unwrap());
        assert!(paper.cs.pages.iter().any(|p| p.path().starts_with("/by-")), "the CS holds index pages");
        assert!(score(&key.tree, &paper.template).recall < 0.5, "the indexes outvote the message page");

        let default = run(&Config::default());
        assert!(default.cs.pages.iter().all(|p| !p.path().starts_with("/by-")), "{:?}", default.cs.pages);
        let s = score(&key.tree, &default.template);
        assert_eq!((s.recall, s.precision), (1.0, 1.0), "{:?} of {:?}", default.template, gold);
    }
    fn run(site: &HtmlSite, key: &str) -> (LoadedPage, Extraction) {
        let url = Url::parse(&format!("http://site.test{key}")).unwrap();
        let key = futures::executor::block_on(site.load(&url)).unwrap();
        let x = futures::executor::block_on(extract(&Config::default(), site, &key)).unwrap();
        (key, x)
    }

    /// Whether every node under the first element carrying `class` has the
    /// template status `expected`.
    fn all_template(key: &LoadedPage, x: &Extraction, class: &str, expected: bool) -> bool {
        let hash = crate::page::generated_names::token_hash(class);
        let root = key.tree.nodes().find(|(_, n)| n.classes.contains(&hash)).expect("class present").0;
        key.tree.subtree(root).all(|i| x.template[i] == expected)
    }

    /// A shop's product page links to itself under other forms first (its
    /// folder, its index file, review filters): compared with itself, every
    /// node would map, and the description would be "template".
    #[test]
    fn the_key_page_under_another_address_never_votes() {
        let product = |name: &str, text: &str| {
            format!(
                "<html><body><nav class=menu><a href=/shop/>Shop</a> <a href=/shop/a/>A</a> <a href=/shop/b/>B</a> <a href=/shop/c/>C</a></nav>\
                 <div class=reviews><a href=/shop/{name}/?rating=5>5 stars</a> <a href=/shop/{name}/index.html>all</a> <a href=/shop/{name}/>back</a></div>\
                 <div class=product><h1 class=notTemplate>{name}</h1><p class=notTemplate>{text}</p></div>\
                 <footer>Same shop footer line</footer></body></html>"
            )
        };
        let site = HtmlSite(vec![
            ("/shop/a/", product("a", "a sweet blend of apples and honeydew")),
            ("/shop/a/index.html", product("a", "a sweet blend of apples and honeydew")),
            ("/shop/b/", product("b", "blueberries with a hint of mint")),
            ("/shop/c/", product("c", "cold brew coffee and vanilla cream")),
            ("/shop/", product("shop", "every blend we sell")),
        ]);
        let (key, x) = run(&site, "/shop/a/index.html");
        assert!(x.load_log.iter().all(|r| !r.url.path().starts_with("/shop/a")), "{:?}", x.load_log);
        assert!(all_template(&key, &x, "menu", true) && !x.template[key.tree.len() - 3], "the text is content");
        let s = score(&key.tree, &x.template);
        assert!(s.content_f1 > 0.99 && s.f1 > 0.99, "{s:?}");
    }

    /// An article links first to the home page and its category listing,
    /// which link to each other and to it: the complete subdigraph is the two
    /// listings and one article, and the listings outvote the article's own
    /// frame (share bar, related box, comment form). Pages of the article's
    /// URL pattern, loaded for the purpose, vote instead; the related box
    /// keeps its container, its items are the article's (LABELING T5).
    #[test]
    fn listings_give_way_to_articles_of_the_key_pages_layout() {
        let header = "<header class=top><a href=/>Home</a> <a href=/category/city/>City</a></header>";
        let footer = "<footer>Free press, every day</footer>";
        let names = ["council", "teacher", "zoo", "rain"];
        let article = |n: usize, text: &str| {
            let (name, title) = (names[n - 1], text.split(' ').take(3).collect::<Vec<_>>().join(" "));
            let links: String = (1..=4)
                .filter(|&k| k != n)
                .map(|k| {
                    format!("<a class=notTemplate href=/post-{k}/>the {} as seen from the {name}</a>", names[k - 1])
                })
                .collect();
            format!(
                "<html><body>{header}<article class=post><h1 class=notTemplate>{title}</h1>\
                 <div class=share><a>Share on social</a> <a>Send by mail</a></div>\
                 <div class=notTemplate><p>{text}</p></div>\
                 <div class=related><h3>More stories</h3><div class=list>{links}</div></div>\
                 <form class=comment><label>Leave a reply</label><textarea></textarea><button>Post comment</button></form>\
                 </article>{footer}</body></html>"
            )
        };
        let listing = |title: &str| {
            format!(
                "<html><body>{header}<main><h2>{title}</h2><ul><li><a href=/post-1/>Story 1</a></li>\
                 <li><a href=/post-2/>Story 2</a></li><li><a href=/post-3/>Story 3</a></li>\
                 <li><a href=/post-4/>Story 4</a></li></ul></main>{footer}</body></html>"
            )
        };
        let site = HtmlSite(vec![
            ("/", listing("Latest")),
            ("/category/city/", listing("City")),
            ("/post-1/", article(1, "the council met on the library works")),
            ("/post-2/", article(2, "a teacher won the primary by a wide margin")),
            ("/post-3/", article(3, "the zoo welcomed two new lions this spring")),
            ("/post-4/", article(4, "rain is due all week across the county")),
        ]);
        let (key, x) = run(&site, "/post-1/");
        assert!(x.cs.pages.iter().all(|p| p.path().starts_with("/post-")), "voters {:?}", x.cs.pages);
        for frame in ["share", "comment"] {
            assert!(all_template(&key, &x, frame, true), "{frame} is the article's frame");
        }
        let s = score(&key.tree, &x.template);
        assert_eq!((s.recall, s.precision), (1.0, 1.0), "{s:?}");
    }

    /// A forum thread's replies are built alike on every thread, each with a
    /// fixed "Reply" link; their text differs. The replies are content, the
    /// element holding them is the template's container for them.
    #[test]
    fn replies_with_different_text_are_content_though_each_has_a_fixed_link() {
        let thread = |n: u32, replies: &[&str]| {
            let others: String = (1..=3).map(|k| format!("<a href=/t/{k}.html>thread {k}</a> ")).collect();
            let replies: String = replies
                .iter()
                .map(|r| format!("<div class=\"reply notTemplate\"><p class=by>{r} wrote</p><p>{r} thinks so too, and says why</p><a class=act>Reply</a></div>"))
                .collect();
            format!(
                "<html><body><div class=nav><a href=/>Forums</a> {others}</div>\
                 <h1 class=notTemplate>Thread {n}</h1><div class=replies>{replies}</div>\
                 <p class=foot>Powered by the forum software</p></body></html>"
            )
        };
        let site = HtmlSite(vec![
            ("/t/1.html", thread(1, &["ann", "bob", "cid"])),
            ("/t/2.html", thread(2, &["dan", "eve", "fay", "gus"])),
            ("/t/3.html", thread(3, &["hal", "ivy"])),
        ]);
        let (key, x) = run(&site, "/t/1.html");
        assert!(all_template(&key, &x, "reply", false), "the replies are content");
        assert!(all_template(&key, &x, "nav", true) && all_template(&key, &x, "foot", true));
        let replies = key
            .tree
            .nodes()
            .find(|(_, n)| n.classes.contains(&crate::page::generated_names::token_hash("replies")))
            .unwrap()
            .0;
        assert!(x.template[replies.index()], "their container is template");
    }

    #[test]
    fn report_paths_stop_at_their_budget_and_count_the_rest() {
        // Siblings past Blink's depth give numbered steps (`div[12]`) too.
        let tree = snapshot(&parse(&format!("<html><body>{}x</body></html>", "<div>".repeat(600)))).unwrap();
        let template = vec![true; tree.len()];
        let all = template_paths(&tree, &template);
        assert!(all.iter().any(|p| p.ends_with("]")), "numbered steps are measured too");
        assert_eq!(template_paths_within(&tree, &template, usize::MAX), (all.clone(), 0));
        let budget: usize = all[..10].iter().map(String::len).sum();
        assert_eq!(template_paths_within(&tree, &template, budget), (all[..10].to_vec(), all.len() - 10));
        let past: usize = all[all.len() - 3..].iter().map(String::len).sum::<usize>();
        let whole: usize = all.iter().map(String::len).sum();
        assert_eq!(template_paths_within(&tree, &template, whole - past).1, 3, "each path's length is exact");
    }
}
