//! One extraction from start to end: the key page's links, their order,
//! the complete subdigraph, the mappings and the votes.

use serde::Serialize;
use url::Url;

use crate::base::config::Config;
use crate::base::error::{ExtractError, LoadError};
use crate::candidates::complete_subdigraph::{find_cs, CsKind, LoadRecord};
use crate::candidates::hyperlink::PageLink;
use crate::candidates::link_order::sort_links;
use crate::candidates::page_source::{LoadedPage, PageSource};
use crate::compare::mapping::Mapping;
use crate::decide::breadcrumb_trails::release_trails;
use crate::decide::compare_ahead::CompareAhead;
use crate::decide::evidence::{judge, Evidence};
use crate::decide::list_items::release_odd_items;
use crate::decide::own_text::SameText;
use crate::decide::page_title::release_title;
use crate::decide::template::{count, template_of_votes, vote_counts, votes_needed};
use crate::decide::text_recurrence::KeyText;
use crate::decide::voters::{load_layout_peers, vote_pages, Processed};

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
    /// What the answer rests on, and why it is weak if it is.
    pub evidence: Evidence,
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
    // Links to pages the source knows it lacks (those a partial crawl did
    // not reach) are left out after sorting, so the other links keep the
    // order the method gives them and no load is spent on a dead one.
    let (sorted, lacked): (Vec<PageLink>, Vec<PageLink>) =
        sort_links(&key.tree, &key.url, &links).into_iter().partition(|l| !source.lacks(&l.url));
    let ordered = source.now_ms();
    source.pause_while_loading().await;

    // With the content signal every loaded page is compared: each is
    // compared as it loads (see `compare_ahead`). Without it nothing reads
    // the key page's text.
    let key_text = if cfg.content.enabled { KeyText::of(&key.tree) } else { KeyText::default() };
    source.pause_while_loading().await;
    let ahead = CompareAhead::new(source, cfg, &key.tree, &key_text);
    let search = if cfg.content.enabled {
        find_cs(&ahead, &key.url, &sorted, cfg).await
    } else {
        find_cs(source, &key.url, &sorted, cfg).await
    };
    let searched = source.now_ms();
    if search.members.is_empty() {
        let first = search.pages.iter().find_map(|(record, _)| record.error.clone());
        let first = first.or_else(|| lacked.first().map(|l| LoadError::NotFound(l.url.to_string())));
        return Err(ExtractError::NoCandidates(search.loads + lacked.len(), first));
    }

    let (mut records, mut loaded): (Vec<LoadRecord>, Vec<Option<LoadedPage>>) = search.pages.into_iter().unzip();
    let mut compared: Vec<Option<Mapping>> = records.iter().map(|r| ahead.take(&r.url)).collect();
    if cfg.content.enabled {
        let mut pages = Processed { records: &mut records, loaded: &mut loaded, compared: &mut compared };
        load_layout_peers(cfg, &ahead, key, &sorted, &mut pages).await;
    }
    let extra_loads = records.len() - search.loads;
    let vote = vote_pages(cfg, source, key, &search.members, &loaded, compared).await;
    let cs_pages: Vec<Url> =
        vote.voters.iter().map(|&i| loaded[i].as_ref().expect("voters loaded").url.clone()).collect();
    // The voters' own texts are read before their pages go.
    let mut same_text = SameText::new(&key.tree);
    if cfg.content.enabled {
        for (&v, mapping) in vote.voters.iter().zip(&vote.mappings) {
            same_text.add(&key.tree, &loaded[v].as_ref().expect("voters loaded").tree, mapping);
        }
    }
    // Freeing a page of 100,000 elements takes a while: a step each.
    for page in loaded {
        drop(page);
        source.pause_while_loading().await;
    }
    let votes = vote_counts(&key.tree, &vote.mappings);
    let template = template_of_votes(cfg, &votes, vote.mappings.len());
    let template = if cfg.content.enabled {
        let released = same_text.release(&key.tree, template);
        let template = release_odd_items(&key.tree, key_text.lists(), &votes, vote.mappings.len(), released);
        let template = release_trails(&key.tree, &key_text.words, template);
        release_title(&key.tree, &key_text.words, template)
    } else {
        template
    };
    let evidence = judge(&key.tree, &template, cs_pages.len(), vote.copies, cfg.votes.min(cfg.cs_size));
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
        evidence,
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decide::evidence::Weakness;
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

    /// A shop's product page links only to its listings and to its own
    /// translation, never to another product; the listings link to the
    /// products. The product pages one hop away are loaded and vote, ahead
    /// of the listings (the translation, of the same layout, may join them
    /// as a third voter), so the product frame (the cart
    /// form, the description's wrapper, the share bar) is template.
    #[test]
    fn product_pages_one_hop_away_vote_for_a_product_page_that_links_to_none() {
        let header = "<header class=top><a href=/>Shop</a> <a href=/flowers/>Flowers</a></header>";
        let footer = "<footer>Pick-up only, open every weekday</footer>";
        let product = |n: usize, name: &str, lang: &str| {
            format!(
                "<html><body>{header}<nav class=lang><a href=/{lang}/p/{n}.html>{lang}</a></nav>\
                 <main class=product><h1 class=notTemplate>{name}</h1>\
                 <form class=cart><select><option>Default</option></select><button>Add to cart</button></form>\
                 <div class=description><p class=notTemplate>{name} arrive fresh each morning, cut and wrapped by hand.</p></div>\
                 <div class=share><a>Share</a> <a>Tweet</a> <a>Pin it</a></div></main>{footer}</body></html>"
            )
        };
        let listing = |title: &str| {
            let items: String = (1..=4).map(|k| format!("<li><a href=/p/{k}.html>Bunch {k}</a></li>")).collect();
            format!("<html><body>{header}<main><h2>{title}</h2><ul>{items}</ul></main>{footer}</body></html>")
        };
        let names = ["Tulips", "Roses", "Lilies", "Daisies"];
        let translated =
            product(1, "Tulipanes", "en").replace("Add to cart", "Al carrito").replace("Share", "Compartir");
        let mut pages: Vec<(&'static str, String)> =
            vec![("/", listing("Welcome")), ("/flowers/", listing("Flowers")), ("/es/p/1.html", translated)];
        for (n, path) in ["/p/1.html", "/p/2.html", "/p/3.html", "/p/4.html"].into_iter().enumerate() {
            pages.push((path, product(n + 1, names[n], "es")));
        }
        let site = HtmlSite(pages);
        let (key, x) = run(&site, "/p/1.html");
        let siblings = x.cs.pages.iter().filter(|p| p.path().starts_with("/p/")).count();
        assert!(siblings >= 2 && x.cs.pages.iter().all(|p| p.path().contains("/p/")), "voters {:?}", x.cs.pages);
        for frame in ["cart", "share"] {
            assert!(all_template(&key, &x, frame, true), "{frame} is the product frame");
        }
        let s = score(&key.tree, &x.template);
        assert_eq!((s.recall, s.precision), (1.0, 1.0), "{s:?}");
        assert!(x.evidence.weakness.is_none(), "{:?}", x.evidence);
    }

    /// An institution's posts and its menu pages share one URL pattern
    /// (`/slug/`), and the menu comes first: the pages of the key's pattern
    /// loaded for the layout are all the menu's, of another layout. Before
    /// one voter is called enough, the key's own links (the next post, the
    /// one before), which no loaded page makes, are loaded, and the posts
    /// vote for the post's frame.
    #[test]
    fn the_keys_own_links_are_tried_before_a_lone_voter_decides() {
        let menu = ["about", "team", "history", "contact", "goals", "board"];
        let header: String = menu.iter().map(|m| format!("<a href=/{m}/>{m}</a> ")).collect();
        let header = format!("<header class=top><a href=/>Home</a> {header}</header>");
        let footer = "<footer>Regional sports committee, every weekday</footer>";
        let post = |title: &str, text: &str, prev: &str, next: &str| {
            format!(
                "<html><body>{header}<article class=post><h1 class=notTemplate>{title}</h1>\
                 <div class=share><a>Share on social</a> <a>Send by mail</a> <a>Print</a></div>\
                 <div class=notTemplate><p>{text}</p></div>\
                 <div class=pager><a href=/{prev}/>Previous post</a> <a href=/{next}/>Next post</a></div>\
                 <form class=comment><label>Leave a reply</label><textarea></textarea><button>Post comment</button></form>\
                 </article>{footer}</body></html>"
            )
        };
        let page = |title: &str| {
            format!("<html><body>{header}<main><h2>{title}</h2><p>What the committee does.</p></main>{footer}</body></html>")
        };
        let mut pages: Vec<(&'static str, String)> = vec![
            ("/", page("Welcome")),
            (
                "/games/",
                post("The games open", "the regional games opened with two hundred athletes", "visit", "award"),
            ),
            ("/visit/", post("A visit", "the national chair visited the regional committee", "award", "games")),
            (
                "/award/",
                post("An award", "the squash federation received an award for its youth work", "games", "visit"),
            ),
        ];
        for (m, path) in menu.iter().zip(["/about/", "/team/", "/history/", "/contact/", "/goals/", "/board/"]) {
            pages.push((path, page(m)));
        }
        let site = HtmlSite(pages);
        let (key, x) = run(&site, "/games/");
        let posts = ["/visit/", "/award/"];
        assert!(x.cs.pages.iter().all(|p| posts.contains(&p.path())) && x.cs.size == 2, "voters {:?}", x.cs.pages);
        for frame in ["share", "comment", "pager"] {
            assert!(all_template(&key, &x, frame, true), "{frame} is the post's frame");
        }
        assert!(x.evidence.weakness.is_none(), "{:?}", x.evidence);
    }

    /// A partial copy of a reference: the key page's links of its own URL
    /// pattern are nearly all missing, so the search spends the ceiling of
    /// loads; the search for pages of the key's layout after it must not
    /// go past that ceiling (a request each, in the browser).
    #[test]
    fn the_ceiling_of_loads_holds_after_a_search_spent_it_on_dead_links() {
        let frame = |body: String| {
            format!("<html><body><nav><a href=/index.html>Home</a></nav>{body}<footer>Reference, generated</footer></body></html>")
        };
        let missing: String = (0..40).map(|n| format!("<a href=/method.Row.m{n}.html>m{n}</a> ")).collect();
        let guides: String = (0..6).map(|n| format!("<a href=/guide{n}.html>guide {n}</a> ")).collect();
        let mut pages: Vec<(&'static str, String)> = vec![
            ("/class.Row.html", frame(format!("<h1>Row</h1><p>A row of a list.</p><div>{missing}</div>"))),
            ("/index.html", frame(format!("<h1>Reference</h1><ul>{guides}</ul>"))),
        ];
        for path in ["/guide0.html", "/guide1.html", "/guide2.html", "/guide3.html", "/guide4.html", "/guide5.html"] {
            pages.push((path, frame("<article><p>How to build it.</p></article>".into())));
        }
        let (_, x) = run(&HtmlSite(pages), "/class.Row.html");
        let ceiling = Config::default().max_loads;
        assert!(
            x.load_log.len() <= ceiling && x.loads <= ceiling + 1,
            "{} loads, {} records",
            x.loads,
            x.load_log.len()
        );
    }

    /// Failure class 3: sibling product pages are the only voters and share
    /// every element — the product's body, its description tabs, its
    /// related items. Structure maps all of it; the text tells the
    /// product's own parts from the shop's frame.
    #[test]
    fn sibling_products_sharing_every_element_keep_their_own_text_as_content() {
        let names = ["Tulips", "Roses", "Lilies", "Daisies", "Orchids", "Peonies", "Irises"];
        let product = |n: usize| {
            let name = names[n];
            let related: String = (1..=3)
                .map(|k| {
                    let other = names[(n + k) % names.len()];
                    format!(
                        "<li class='card notTemplate'><a href=/p/{}.html>{other}</a><span>{other} in season</span></li>",
                        (n + k) % 4
                    )
                })
                .collect();
            format!(
                "<html><body><header class=top><a href=/>Florist</a> <a href=/p/0.html>Bunches</a> <a href=/p/1.html>Roses</a></header>\
                 <main class=product><h1 class=notTemplate>{name}</h1>\
                 <form class=cart><select><option>Default</option></select><button>Add to cart</button></form>\
                 <div class=tabs><ul class=tab-names><li>Description</li><li>Care</li></ul>\
                 <div class='pane notTemplate'><p>{name} arrive fresh each morning from the grower, cut and wrapped by hand.</p></div>\
                 <div class='pane2 notTemplate'><p>Keep the {name} cool, trim their stems and change the water of the {name} daily.</p></div></div>\
                 <section class=related><h2>You may also like</h2><ul class=items>{related}</ul></section></main>\
                 <footer class=foot>Pick-up only, open every weekday</footer></body></html>"
            )
        };
        let site = HtmlSite(vec![
            ("/p/0.html", product(0)),
            ("/p/1.html", product(1)),
            ("/p/2.html", product(2)),
            ("/p/3.html", product(3)),
        ]);
        let (key, x) = run(&site, "/p/0.html");
        assert!(x.cs.pages.len() >= 2, "voters {:?}", x.cs.pages);
        for own in ["pane", "pane2"] {
            assert!(all_template(&key, &x, own, false), "{own} is the product's own");
        }
        for frame in ["top", "cart", "tab-names", "foot"] {
            assert!(all_template(&key, &x, frame, true), "{frame} is the shop's frame");
        }
        let s = score(&key.tree, &x.template);
        assert_eq!((s.recall, s.precision), (1.0, 1.0), "the related items are content too: {s:?}");
    }

    /// Sibling products of one category carry the same breadcrumb trail at
    /// the same place, links and text alike: it maps and recurs like a menu,
    /// yet it says where this page sits, so it is content (LABELING.md, N2).
    #[test]
    fn a_breadcrumb_trail_that_every_sibling_repeats_is_content() {
        let product = |n: usize, name: &str| {
            format!(
                "<html><body><header class=top><a href=/>Florist</a> <a href=/roses/>Roses</a></header>\
                 <nav class='breadcrumb notTemplate' aria-label=breadcrumb><a href=/>Home</a> / <a href=/roses/>Roses</a></nav>\
                 <main class=product><h1 class=notTemplate>{name}</h1>\
                 <p class=notTemplate>{name}, number {n} of the season, cut and wrapped by hand each morning.</p></main>\
                 <footer class=foot>Pick-up only, open every weekday</footer></body></html>"
            )
        };
        let listing: String = (1..=4).map(|k| format!("<a href=/roses/{k}.html>Rose {k}</a>")).collect();
        let listing =
            format!("<html><body><header class=top><a href=/>Florist</a></header><main>{listing}</main></body></html>");
        let names = ["Red roses", "White roses", "Pink roses", "Yellow roses"];
        let mut pages: Vec<(&'static str, String)> = vec![("/", listing.clone()), ("/roses/", listing)];
        for (n, path) in ["/roses/1.html", "/roses/2.html", "/roses/3.html", "/roses/4.html"].into_iter().enumerate() {
            pages.push((path, product(n + 1, names[n])));
        }
        let (key, x) = run(&HtmlSite(pages), "/roses/1.html");
        assert!(all_template(&key, &x, "breadcrumb", false), "the trail is the page's");
        assert!(all_template(&key, &x, "top", true) && all_template(&key, &x, "foot", true));
        let s = score(&key.tree, &x.template);
        assert_eq!((s.recall, s.precision), (1.0, 1.0), "{s:?}");
    }

    /// Pages of one layout saved at different times: the key page's body
    /// and its one wrapper carry a later theme's classes and attributes, so
    /// the wrappers' equality falls below the threshold. They are paired as
    /// lone kin and the frame below them is found.
    #[test]
    fn a_wrapper_a_theme_update_renamed_still_holds_the_frame() {
        let page = |n: &str, body: &str, wrapper: &str| {
            format!(
                "<html><body{body}><div{wrapper}><header class=top><nav class=menu><a href=/a.html>A</a> \
                 <a href=/b.html>B</a> <a href=/c.html>C</a></nav></header>\
                 <main class=notTemplate><h1>{n}</h1><p>The {n} page tells its own story in its own words.</p></main>\
                 <footer class=foot><p>Copyright the site</p><a href=/about.html>About</a></footer></div></body></html>"
            )
        };
        let site = HtmlSite(vec![
            (
                "/a.html",
                page("alpha", " class='home theme-v3' data-build=2024", " class='site-wrapper container-fluid'"),
            ),
            ("/b.html", page("beta", "", " class=wrapper")),
            ("/c.html", page("gamma", "", " class=wrapper")),
            ("/about.html", page("about", "", " class=wrapper")),
        ]);
        let (key, x) = run(&site, "/a.html");
        for frame in ["menu", "foot"] {
            assert!(all_template(&key, &x, frame, true), "{frame} is the frame");
        }
        let own: Vec<crate::page::dom::NodeId> =
            key.tree.nodes().filter(|(_, n)| &*n.tag == "h1" || n.words > 5).map(|(i, _)| i).collect();
        assert!(own.len() == 2 && own.iter().all(|i| !x.template[i.index()]), "the story is content");
        assert!(x.evidence.weakness.is_none(), "{:?}", x.evidence);
    }

    /// The same theme update, where the header and footer pair and only the
    /// wrapper between them, holding the article and a sidebar of links,
    /// was renamed on the key page (classes and an attribute added).
    #[test]
    fn a_renamed_wrapper_between_a_paired_header_and_footer_keeps_its_sidebar() {
        let page = |n: &str, wrapper: &str| {
            let archive: String =
                ["a", "b", "c", "d"].iter().map(|p| format!("<li><a href=/{p}.html>Old {p}</a></li>")).collect();
            format!(
                "<html><body><header class=top><nav class=menu><a href=/a.html>A</a> <a href=/b.html>B</a> \
                 <a href=/c.html>C</a></nav></header><div{wrapper}><div class=container>\
                 <main class=notTemplate><h1>{n}</h1><p>The {n} page tells its own story in its own words.</p></main>\
                 <aside class=side><h3>Archive</h3><ul>{archive}</ul></aside></div></div>\
                 <footer class=foot><p>Copyright the site</p><a href=/d.html>About</a></footer></body></html>"
            )
        };
        let site = HtmlSite(vec![
            ("/a.html", page("alpha", " class='wrap theme-v2' data-theme=2")),
            ("/b.html", page("beta", " class='wrap theme-v1'")),
            ("/c.html", page("gamma", " class='wrap theme-v1'")),
            ("/d.html", page("delta", " class='wrap theme-v1'")),
        ]);
        let (key, x) = run(&site, "/a.html");
        for frame in ["menu", "side", "foot"] {
            assert!(all_template(&key, &x, frame, true), "{frame} is the frame");
        }
        let own: Vec<crate::page::dom::NodeId> =
            key.tree.nodes().filter(|(_, n)| &*n.tag == "h1" || n.words > 5).map(|(i, _)| i).collect();
        assert!(own.len() == 2 && own.iter().all(|i| !x.template[i.index()]), "the story is content");
    }

    /// A manual split per section holds each page whole in one wrapper
    /// whose class names the section's level, followed by a rule and the
    /// footer: the rule and the footer pair, the wrapper before them does
    /// not, and without it the menu inside is lost.
    #[test]
    fn a_page_wrapper_named_by_its_level_still_holds_the_frame() {
        let page = |n: &str, level: &str, paragraphs: usize| {
            let text: String = (0..paragraphs)
                .map(|k| format!("<p>Paragraph {k} of {n} explains its own matter at length.</p>"))
                .collect();
            format!(
                "<html><body><div class={level} id={n}><div class=menu><a href=/index.html>Contents</a> \
                 <a href=/genindex.html>Index</a> <a href=/about.html>About</a></div><hr><h2>{n}</h2>{text}</div>\
                 <hr><div class=foot><a href=/index.html>Contents</a> <a href=/about.html>About</a></div></body></html>"
            )
        };
        let site = HtmlSite(vec![
            ("/a.html", page("Arrays", "subsection", 9)),
            ("/index.html", page("Contents", "chapter", 2)),
            ("/genindex.html", page("Index", "section", 4)),
            ("/about.html", page("About", "section", 3)),
        ]);
        let (key, x) = run(&site, "/a.html");
        assert!(all_template(&key, &x, "menu", true), "the menu is the frame");
        let own: Vec<crate::page::dom::NodeId> =
            key.tree.nodes().filter(|(_, n)| &*n.tag == "h2" || n.words > 5).map(|(i, _)| i).collect();
        assert!(own.len() == 10 && own.iter().all(|i| !x.template[i.index()]), "the sections' text is content");
    }

    /// A category page lists the newest post first, as the home page and
    /// another category do: those two voters hold that entry word for word at
    /// the same place, so the votes alone call it template while its
    /// siblings are content. It is an entry like them.
    #[test]
    fn an_entry_two_voters_share_is_content_like_its_siblings() {
        let titles =
            ["", "Harbour", "Orchard", "Lighthouse", "Vineyard", "Glacier", "Meadow", "Canyon", "Marsh", "Dune"];
        let listing = |posts: &[usize]| {
            let entries: String = posts
                .iter()
                .map(|&n| {
                    let t = titles[n];
                    format!(
                        "<article class=post><h2>{t} notes</h2><p>What we saw at the {t} on a long walk, told in full</p>\
                         <a class=more href=/p/{n}>Read more</a></article>"
                    )
                })
                .collect();
            format!(
                "<html><body><header class=top><a href=/>Home</a> <a href=/cat/a/>Coast</a> <a href=/cat/b/>Land</a> <a href=/cat/c/>Wild</a></header>\
                 <main>{entries}</main><footer class=foot>Walking notes since 2009, written by two friends who walk \
                 the coast, the hills and the marshes in every season and every weather</footer></body></html>"
            )
        };
        let post = "<html><body><header class=top><a href=/>Home</a></header><h1>A post</h1><p>Its own long story</p></body></html>";
        let site = HtmlSite(vec![
            ("/p/1", post.to_string()),
            ("/cat/a/", listing(&[1, 3, 5])),
            ("/", listing(&[1, 2, 4, 6])),
            ("/cat/b/", listing(&[1, 2, 4])),
            ("/cat/c/", listing(&[7, 8, 9])),
        ]);
        let (key, x) = run(&site, "/cat/a/");
        assert_eq!(x.cs.size, 3, "{:?}", x.cs.pages);
        let first = key.tree.nodes().find(|(_, n)| &*n.tag == "article").unwrap().0;
        let text = key.tree.subtree(first).filter(|&j| key.tree.node(crate::page::dom::NodeId(j as u32)).words > 0);
        assert!(text.clone().count() == 3 && text.clone().all(|j| !x.template[j]), "the shared entry is content");
        assert!(all_template(&key, &x, "top", true) && all_template(&key, &x, "foot", true));
    }

    /// A blog's sidebar holds the same tag cloud on every post, shuffled
    /// at each build: ordered sibling mapping met only a run of it, and the
    /// rest of the cloud came out as the post's content.
    #[test]
    fn a_tag_cloud_shuffled_on_every_page_is_template() {
        let tags = ["rust", "wasm", "html", "css", "spark", "ray", "python", "linux", "git", "sql"];
        let post = |n: usize, title: &str, story: &str| {
            let cloud: String = (0..tags.len())
                .map(|k| tags[(k * [1, 3, 7, 9][n - 1] + n) % tags.len()])
                .map(|t| format!("<a href=/tags/{t}/ style='font-size:1.2em'>{t}</a> "))
                .collect();
            format!(
                "<html><body><header class=top><a href=/p/1>One</a> <a href=/p/2>Two</a> <a href=/p/3>Three</a> <a href=/p/4>Four</a></header>\
                 <article><h1 class=notTemplate>{title}</h1><p class=notTemplate>{story}</p></article>\
                 <aside class=side><h3>Tags</h3><div class=cloud>{cloud}</div></aside></body></html>"
            )
        };
        let site = HtmlSite(vec![
            ("/p/1", post(1, "River", "a long walk along the river at dawn, told in full")),
            ("/p/2", post(2, "Rain", "notes from a week of rain in the hills, and what grew")),
            ("/p/3", post(3, "Candles", "the night the power went out and we read by candles")),
            ("/p/4", post(4, "Bread", "a recipe for bread that forgives every mistake")),
        ]);
        let (key, x) = run(&site, "/p/1");
        assert!(all_template(&key, &x, "cloud", true), "every entry of the cloud is the site's");
        let s = score(&key.tree, &x.template);
        assert_eq!((s.recall, s.precision), (1.0, 1.0));
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

    /// The replies of one mailing-list thread share its subject, as title
    /// and heading: every voter holds the heading, word for word, at the same
    /// place. It is the page's title all the same (LABELING N1), while the
    /// archive's fixed lines stay template.
    #[test]
    fn a_heading_repeating_the_pages_title_is_content_where_every_voter_shares_it() {
        let message = |n: u32, author: &str, text: &str| {
            format!(
                "<html><head><title>[dev] Re: builds fail on the new compiler</title></head><body>\
                 <h1 class=subject>[dev] Re: builds fail on the new compiler</h1>\
                 <b>{author}</b> <i>Mon Mar {n} 2005</i>\
                 <p class=nav>Messages sorted by: <a href=/date.html>[ date ]</a> <a href=/thread.html>[ thread ]</a></p>\
                 <hr><pre class=body>{text}</pre><hr>\
                 <a class=list href=/listinfo.html>More information about the dev mailing list</a></body></html>"
            )
        };
        let site = HtmlSite(vec![
            (
                "/1.html",
                message(
                    1,
                    "ann",
                    "The build breaks since the upgrade. <a href=/2.html>next</a> <a href=/3.html>other</a>",
                ),
            ),
            (
                "/2.html",
                message(2, "bob", "Which flags do you pass? <a href=/1.html>prev</a> <a href=/3.html>next</a>"),
            ),
            (
                "/3.html",
                message(
                    3,
                    "cid",
                    "Pinning the old version works for me. <a href=/1.html>first</a> <a href=/2.html>prev</a>",
                ),
            ),
        ]);
        let (key, x) = run(&site, "/1.html");
        assert!(all_template(&key, &x, "subject", false), "the subject is the page's title");
        assert!(all_template(&key, &x, "list", true), "the archive's fixed line is template");
    }

    /// A chapter whose only page of its layout is the print-all page holding
    /// every chapter: that page keeps the chapter's own text too, so it is set
    /// aside as a copy, and the site's other pages, which share only the
    /// frame, vote. Without them nothing would vote, and the result says so.
    #[test]
    fn a_print_all_page_never_votes_and_a_copy_alone_is_said_to_be_weak() {
        let frame = |title: &str, main: &str| {
            format!(
                "<html><head><title>{title}</title></head><body>\
                 <header class=top><a href=/index.html>Home</a> The handbook</header>\
                 <nav class=menu><a href=/ch2.html>Chapter 2</a> <a href=/print.html>Print all</a></nav>\
                 <main class='text notTemplate'>{main}</main>\
                 <footer class=foot>Published by the handbook team. <a href=/about.html>About</a></footer></body></html>"
            )
        };
        let chapter = |n: u32| {
            (1..=4)
                .map(|k| format!("<p>Chapter {n}, part {k}: every function maps each element of one set to one element of another.</p>"))
                .collect::<String>()
        };
        let home = frame("Home", "<h1>Welcome</h1><p>Pick a chapter to read.</p>");
        let about = frame("About", "<h1>About</h1><p>Who writes the handbook.</p>")
            .replace("/print.html>Print all", "/index.html>Home");
        let print = frame("All", &format!("{}{}{}", chapter(1), chapter(2), chapter(3)));
        let mut site = HtmlSite(vec![
            ("/ch2.html", frame("Chapter 2", &chapter(2))),
            ("/print.html", print.clone()),
            ("/index.html", home),
            ("/about.html", about),
        ]);
        let (key, x) = run(&site, "/ch2.html");
        assert_eq!(x.evidence.copies, 1, "{:?}", x.evidence);
        assert!(x.cs.pages.iter().all(|p| p.path() != "/print.html"), "{:?}", x.cs.pages);
        let paragraphs = || key.tree.nodes().filter(|(_, n)| &*n.tag == "p");
        assert!(all_template(&key, &x, "menu", true) && paragraphs().all(|(p, _)| !x.template[p.index()]));
        // The frame-only pages are few and alike: the result may still say it rests on one of them.
        assert!(
            !matches!(x.evidence.weakness, Some(Weakness::NoVoters | Weakness::AlmostAllTemplate)),
            "{:?}",
            x.evidence
        );

        site.0.retain(|(path, _)| *path == "/ch2.html" || *path == "/print.html");
        let (_, alone) = run(&site, "/ch2.html");
        assert_eq!(alone.evidence.weakness, Some(Weakness::NoVoters));
        assert_eq!(alone.template_nodes, 0, "no page votes the chapter's text template");
    }
}
