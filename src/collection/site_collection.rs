//! One site of a collection from its pages to their content: group by
//! layout, learn each group's template from a few representatives with the
//! store as page source, then give every page of the group its own
//! comparison joined with what the representatives agree on (or, `fast`,
//! their templates alone, mapped with zero loads).

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use url::Url;

use crate::base::config::Config;
use crate::candidates::page_source::{LoadedPage, PageSource};
use crate::decide::evidence::{judge_template, Weakness};
use crate::extraction::extract::extract;
use crate::memory::template_memory::{Cluster, PreparedCluster};
use crate::page::dom::Tree;
use crate::page::html::parse;

use super::cluster_agreement::{joined, majority, unseen_frame, votes, MAX_DISPUTED_WORDS};
use super::layout_groups::{group_by_layout, representatives};
use super::page_content::{page_content, rendered_content, PageContent};
use super::page_store::{PageBody, PageStore};
use super::rejection::Rejections;
use super::site_summary::{ClusterSummary, SiteSummary};
use super::whole_page::WholePage;

/// Representatives tried per group before the group is reported as having
/// no template (a page without same-site links cannot be extracted).
pub const REPRESENTATIVES_TRIED: usize = 10;

/// How a collection run groups pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollectOptions {
    /// Fewest pages of one layout that form a cluster; pages of smaller
    /// groups are reported as unclustered.
    pub min_cluster: usize,
    /// How a cluster's other pages get their template.
    pub serving: Serving,
}

impl Default for CollectOptions {
    fn default() -> Self {
        Self { min_cluster: 2, serving: Serving::default() }
    }
}

/// How a cluster's pages other than its first representative get their
/// template (see docs/collection.md for what each costs and scores).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Serving {
    /// Each page compared with its own linked pages, joined with what a
    /// majority of the representatives' skeletons map onto.
    #[default]
    Compared,
    /// Every skeleton mapped onto the page first (as with `Fast`): a page
    /// whose frame the representatives' pages all showed is served their
    /// union with zero loads; a page with a part of its frame none of them
    /// had (see [`unseen_frame`]), or on which the skeletons dispute text
    /// (more than [`MAX_DISPUTED_WORDS`] words mapped by some but not by
    /// a majority, which the union would drop), is compared as with `Compared`.
    Selective,
    /// Every page served the union of the skeletons, zero loads: faster,
    /// less accurate.
    Fast,
}

/// How a page got (or did not get) its template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageStatus {
    /// The page the cluster's template was extracted from.
    Representative,
    /// The cluster's templates mapped onto the page, zero loads (`fast`,
    /// or a page none of whose links the collection holds).
    Served,
    /// The page compared with its own linked pages of the collection, with
    /// what most of the cluster's templates map onto added.
    Compared,
    /// Its layout group is smaller than the minimum cluster size: the full
    /// method ran on the page alone (no template when that failed too).
    Unclustered,
    /// Its layout group's template is not all there on this page: the full
    /// method ran on the page alone, as for an unclustered page.
    Unfit,
    /// No representative of its group could be extracted.
    NoTemplate,
}

/// One site's pages and the records of it already left out.
pub struct SiteInput {
    pub site: String,
    pub store: PageStore,
    pub rejected: Rejections,
}

/// One page's result, handed to the caller as soon as it is known, so a
/// site's output never waits in memory.
pub struct PageOutcome<'a> {
    pub url: &'a Url,
    pub cluster: Option<usize>,
    pub status: PageStatus,
    pub tree: &'a Tree,
    pub template: &'a [bool],
    pub content: &'a PageContent,
    /// Bytes of the page's decoded HTML.
    pub bytes: usize,
    /// Bytes invalid in the page's charset, shown as U+FFFD.
    pub replaced_bytes: usize,
    /// Why the page's template is not to be trusted, if it is not
    /// (`decide::evidence::judge_template`).
    pub weakness: Option<Weakness>,
    /// Why the page came out whole, if no element of its body is template.
    pub whole: Option<WholePage>,
}

/// What a layout group became.
enum GroupTemplate {
    Small,
    Failed(usize),
    /// The cluster learnt from each representative extracted (at most
    /// [`JOINED`]), the first one's page index, and its extracted template.
    Learnt {
        id: usize,
        clusters: Vec<Cluster>,
        representative: usize,
        template: Vec<bool>,
    },
}

/// Representatives whose templates are joined on every other page of a
/// group: a node is template when any of their skeletons maps onto it (each
/// node of a skeleton was voted template by its own extraction). One
/// extraction compares its page with a few candidates and, with the
/// content signal, keeps only what they repeat in text too, so it misses
/// parts of the template (a menu whose active item differs, a block its
/// candidates lacked); independent extractions from several pages of the
/// layout miss different parts. On the dev set the key pages' macro F1 was
/// 92.4 joining five, 91.7 joining three, 90.5 with a majority of three.
pub const JOINED: usize = 5;

/// Processes one site; `emit` receives every page in URL order.
pub fn collect_site(
    cfg: &Config,
    opts: &CollectOptions,
    mut input: SiteInput,
    mut emit: impl FnMut(&PageOutcome),
) -> SiteSummary {
    input.store.sort();
    let store = &input.store;
    let layouts: Vec<&[u64]> = store.pages().iter().map(|p| p.layout.as_slice()).collect();
    let groups = group_by_layout(&layouts);
    let mut summary = SiteSummary { site: input.site.clone(), rejected: input.rejected.clone(), ..Default::default() };
    let mut group_of = vec![0; store.len()];
    let mut learnt = Vec::with_capacity(groups.len());
    // A representative's extraction is its own: the page loop takes it
    // from here instead of extracting the page again (up to nine times a
    // group; the result and its loads are the same).
    let mut extracted: HashMap<usize, Own> = HashMap::new();
    for (g, members) in groups.iter().enumerate() {
        members.iter().for_each(|&i| group_of[i] = g);
        if members.len() < opts.min_cluster.max(1) {
            summary.unclustered += members.len();
            learnt.push(GroupTemplate::Small);
            continue;
        }
        let id = summary.clusters.len();
        let mut report =
            ClusterSummary { id, learnt_from: None, pages: members.len(), served: 0, unfit: 0, loads: 0, error: None };
        let mut first: Option<(usize, Vec<bool>)> = None;
        let mut clusters = Vec::new();
        if members.len() <= JOINED {
            store.pin(members);
        }
        for r in representatives(&layouts, members).into_iter().take(REPRESENTATIVES_TRIED) {
            let (cluster, own) = learn(cfg, store, r);
            report.loads += own.loads;
            match (&own.template, cluster) {
                (Ok(template), Some(cluster)) => {
                    report.learnt_from.get_or_insert_with(|| store.pages()[r].url.to_string());
                    report.error = None;
                    first.get_or_insert_with(|| (r, template.clone()));
                    clusters.push(cluster);
                }
                (Err(error), _) if first.is_none() => report.error = Some(error.clone()),
                _ => {}
            }
            extracted.insert(r, own);
            if clusters.len() == JOINED {
                break;
            }
        }
        store.unpin();
        summary.clusters.push(report);
        learnt.push(match first {
            Some((representative, template)) => GroupTemplate::Learnt { id, clusters, representative, template },
            None => GroupTemplate::Failed(id),
        });
    }

    let prepared: Vec<Vec<(PreparedCluster, usize)>> = learnt
        .iter()
        .map(|g| match g {
            // Representatives of one layout often learn the very same
            // skeleton: mapping it once per page is enough, as long as it
            // keeps the votes of all who learnt it.
            // Each skeleton is compared with the distinct ones before it
            // only: a page of 200,000 list items has skeletons as long.
            GroupTemplate::Learnt { clusters, .. } => {
                let first: Vec<usize> = (0..clusters.len())
                    .map(|k| (0..k).find(|&j| clusters[j].skeleton == clusters[k].skeleton).unwrap_or(k))
                    .collect();
                clusters
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| first[k] == k)
                    .filter_map(|(k, c)| {
                        let learnt_by = first.iter().filter(|&&f| f == k).count();
                        c.prepare().map(|p| (p, learnt_by))
                    })
                    .collect()
            }
            _ => Vec::new(),
        })
        .collect();
    for (i, page) in store.pages().iter().enumerate() {
        let PageTemplate { cluster, status, tree, template, own_loads, failure, own_weakness } =
            page_template(cfg, opts, store, i, &learnt[group_of[i]], &prepared[group_of[i]], &mut extracted);
        let tree = &*tree;
        match cluster {
            Some(c) if status != PageStatus::Unfit => {
                let report = &mut summary.clusters[c];
                report.served += usize::from(status != PageStatus::NoTemplate);
                report.loads += own_loads;
            }
            Some(c) => {
                summary.clusters[c].unfit += 1;
                summary.alone_loads += own_loads;
            }
            None => summary.alone_loads += own_loads,
        }
        let content = match &page.body {
            PageBody::Rendered(body) => rendered_content(body, tree, &template),
            PageBody::Source(html) => page_content(&parse(html), tree, &template),
        };
        summary.add_page(page.bytes, content.html.len(), content.page_words, content.content_words);
        summary.replaced_pages += usize::from(page.replaced_bytes > 0);
        summary.replaced_bytes += page.replaced_bytes;
        let weakness = judge_template(tree, &template).1.or(own_weakness);
        summary.weak += usize::from(weakness.is_some());
        let whole = (content.template_share == 0.0).then(|| match (status, failure.as_deref()) {
            (PageStatus::NoTemplate, _) => {
                WholePage::no_template(cluster.and_then(|c| summary.clusters[c].error.as_deref()))
            }
            (_, Some(error)) => WholePage::extraction_failed(status == PageStatus::Unfit, error),
            _ => WholePage::nothing_shared(),
        });
        if let Some(w) = &whole {
            *summary.whole.entry(w.reason).or_default() += 1;
        }
        emit(&PageOutcome {
            url: &page.url,
            cluster,
            status,
            tree,
            template: &template,
            content: &content,
            bytes: page.bytes,
            replaced_bytes: page.replaced_bytes,
            weakness,
            whole,
        });
    }
    summary
}

/// A page's cluster, status, tree and template, the loads its own
/// extraction made, and, when the page was extracted on its own alone, why
/// that failed or the weakness of its evidence (one voter where more were
/// sought): no cluster's votes make up for it.
struct PageTemplate {
    cluster: Option<usize>,
    status: PageStatus,
    tree: Arc<Tree>,
    template: Vec<bool>,
    own_loads: usize,
    failure: Option<String>,
    own_weakness: Option<Weakness>,
}

/// A page's own extraction: its template or why it failed, its loads, and
/// the weakness the extraction said of its evidence.
struct Own {
    template: Result<Vec<bool>, String>,
    loads: usize,
    weakness: Option<Weakness>,
}

/// The template page `i` of a group gets, from its own extraction, the
/// group's representatives' skeletons (`clusters`), or both; `extracted`
/// holds the representatives' own extractions, taken instead of run again.
fn page_template(
    cfg: &Config,
    opts: &CollectOptions,
    store: &PageStore,
    i: usize,
    group: &GroupTemplate,
    clusters: &[(PreparedCluster, usize)],
    extracted: &mut HashMap<usize, Own>,
) -> PageTemplate {
    let page = &store.pages()[i];
    let none = |tree: &Tree| vec![false; tree.len()];
    // Extracted on its own: its template, or none and why.
    let alone = |own: Result<Vec<bool>, String>, tree: &Tree| match own {
        Ok(template) => (template, None),
        Err(e) => (none(tree), Some(e)),
    };
    let (id, representative, learnt, learnt_from) = match group {
        GroupTemplate::Small => {
            let (own, tree) = own_extraction(cfg, store, i, extracted, None);
            let (template, failure) = alone(own.template, &tree);
            let (own_loads, own_weakness) = (own.loads, own.weakness);
            let status = PageStatus::Unclustered;
            return PageTemplate { cluster: None, status, tree, template, own_loads, failure, own_weakness };
        }
        GroupTemplate::Failed(id) => {
            let tree = store.tree(i);
            let template = none(&tree);
            let status = PageStatus::NoTemplate;
            return PageTemplate {
                cluster: Some(*id),
                status,
                tree,
                template,
                own_loads: 0,
                failure: None,
                own_weakness: None,
            };
        }
        GroupTemplate::Learnt { id, representative, template, clusters: learnt_from } => {
            (*id, *representative, template, learnt_from)
        }
    };
    let done = |status, tree, template, own_loads| PageTemplate {
        cluster: Some(id),
        status,
        tree,
        template,
        own_loads,
        failure: None,
        own_weakness: None,
    };
    if representative == i {
        let tree = store.tree(i);
        let template = match opts.serving {
            Serving::Fast => learnt.clone(),
            _ => joined(&tree, learnt, majority(cfg, clusters, &tree, learnt)),
        };
        return done(PageStatus::Representative, tree, template, 0);
    }
    if !clusters.first().is_some_and(|(c, _)| c.fits(&page.layout).0) {
        let (own, tree) = own_extraction(cfg, store, i, extracted, None);
        let (template, failure) = alone(own.template, &tree);
        let own_weakness = own.weakness;
        return PageTemplate { failure, own_weakness, ..done(PageStatus::Unfit, tree, template, own.loads) };
    }
    match opts.serving {
        Serving::Fast => {
            let tree = store.tree(i);
            let template = votes(cfg, clusters, &tree).union();
            done(PageStatus::Served, tree, template, 0)
        }
        Serving::Compared => {
            let (own, tree) = own_extraction(cfg, store, i, extracted, None);
            match own.template {
                Ok(template) => {
                    let template = joined(&tree, &template, majority(cfg, clusters, &tree, &template));
                    done(PageStatus::Compared, tree, template, own.loads)
                }
                Err(_) => {
                    let template = votes(cfg, clusters, &tree).union();
                    done(PageStatus::Served, tree, template, own.loads)
                }
            }
        }
        Serving::Selective => {
            let tree = store.tree(i);
            let votes = votes(cfg, clusters, &tree);
            let union = votes.union();
            let seen: Vec<&[u64]> = learnt_from.iter().map(|c| c.layout.as_slice()).collect();
            // A representative's own extraction is already made: it costs nothing to use.
            let disputed = votes.disputed_words(&tree) > MAX_DISPUTED_WORDS;
            if !disputed && !unseen_frame(&tree, &page.layout, &union, &seen) && !extracted.contains_key(&i) {
                return done(PageStatus::Served, tree, union, 0);
            }
            // The page's tree as unpacked here, or as its extraction loaded it: the same snapshot.
            match own_extraction(cfg, store, i, extracted, Some(tree)) {
                (Own { template: Ok(own), loads, .. }, tree) => {
                    let template = joined(&tree, &own, votes.majority());
                    done(PageStatus::Compared, tree, template, loads)
                }
                (Own { loads, .. }, tree) => done(PageStatus::Served, tree, union, loads),
            }
        }
    }
}

/// Page `i`'s own extraction (a representative's kept one, or run now),
/// its loads and the page's tree (the one the extraction loaded, which
/// saves unpacking it again; else `unpacked`, the caller's if it has one).
fn own_extraction(
    cfg: &Config,
    store: &PageStore,
    i: usize,
    extracted: &mut HashMap<usize, Own>,
    unpacked: Option<Arc<Tree>>,
) -> (Own, Arc<Tree>) {
    let unpacked = || unpacked.unwrap_or_else(|| store.tree(i));
    if let Some(own) = extracted.remove(&i) {
        return (own, unpacked());
    }
    let (key, own) = extract_page(cfg, store, i);
    (own, key.map_or_else(unpacked, |key| key.tree))
}

/// Extracts the template of page `r` with the store as page source: the
/// cluster learnt from it when the extraction succeeded, and the extraction.
fn learn(cfg: &Config, store: &PageStore, r: usize) -> (Option<Cluster>, Own) {
    let (key, own) = extract_page(cfg, store, r);
    let cluster = key.zip(own.template.as_ref().ok()).map(|(key, t)| Cluster::learn(cfg, &key.url, &key.tree, t));
    (cluster, own)
}

/// The page `r` as the store loaded it (`None` when it could not be), and
/// its extraction.
fn extract_page(cfg: &Config, store: &PageStore, r: usize) -> (Option<LoadedPage>, Own) {
    let source = store.source(cfg.max_nodes);
    futures::executor::block_on(async {
        let key = match source.load(&store.pages()[r].url).await {
            Ok(key) => key,
            Err(e) => return (None, Own { template: Err(e.to_string()), loads: 0, weakness: None }),
        };
        let own = match extract(cfg, &source, &key).await {
            Ok(x) => Own { template: Ok(x.template), loads: x.loads, weakness: x.evidence.weakness },
            Err(e) => Own { template: Err(e.to_string()), loads: 1, weakness: None },
        };
        (Some(key), own)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collection::page_admission::admit;
    use crate::collection::whole_page::WholeReason;

    /// Article `n` of the small site: its words differ, not only its
    /// numbers (numbers read as one shape).
    fn article(n: usize) -> String {
        let name = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"][n];
        let links: String = (1..=5).map(|m| format!("<li><a href=/a{m}.html>Article {m}</a></li>")).collect();
        format!(
            "<html><body><header class=top><a href=/about.html>About</a></header><nav><ul>{links}</ul></nav>\
             <main><h1>Article about {name}</h1><p>{}</p></main><footer><p>Site footer text</p></footer></body></html>",
            format!("words of the {name} article ").repeat(n + 3)
        )
    }

    /// A small site: five articles of one layout linking to each other and
    /// to an about page of another layout.
    fn site() -> SiteInput {
        let mut store = PageStore::new();
        let mut add = |path: &str, html: String| {
            let a = admit(html.as_bytes(), None, 10_000).unwrap();
            store.insert(Url::parse("http://site.test/").unwrap().join(path).unwrap(), a);
        };
        for n in (1..=5).rev() {
            add(&format!("a{n}.html"), article(n));
        }
        add(
            "about.html",
            "<html><body><table><tr><td><a href=/a1.html>back</a></td></tr></table></body></html>".into(),
        );
        SiteInput { site: "site.test".into(), store, rejected: Rejections::default() }
    }

    #[test]
    fn one_layout_learns_once_and_serves_the_rest_and_a_lone_page_is_reported() {
        let cfg = Config::default();
        let mut pages = Vec::new();
        let summary = collect_site(&cfg, &CollectOptions::default(), site(), |p| {
            pages.push((p.url.path().to_string(), p.cluster, p.status, p.content.text.clone()))
        });
        let paths: Vec<&str> = pages.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(paths, ["/a1.html", "/a2.html", "/a3.html", "/a4.html", "/a5.html", "/about.html"], "URL order");
        assert_eq!(summary.clusters.len(), 1);
        assert_eq!((summary.clusters[0].pages, summary.clusters[0].served), (5, 5));
        assert_eq!(summary.unclustered, 1);
        assert_eq!(pages.iter().filter(|p| p.2 == PageStatus::Representative).count(), 1);
        assert_eq!(pages[5].2, PageStatus::Unclustered);
        for (path, cluster, status, text) in &pages[..5] {
            assert_eq!(*cluster, Some(0));
            assert!(matches!(status, PageStatus::Compared | PageStatus::Representative), "{path}: {status:?}");
            assert!(text.starts_with("Article about"), "{path}: {text}");
            assert!(!text.contains("Site footer") && !text.contains("About"), "{path}: {text}");
        }
        assert!(summary.bytes_removed > 0.3 && summary.words_removed > 0.2, "{summary:?}");
    }

    #[test]
    fn a_page_extracted_on_its_own_from_one_voter_says_so() {
        let mut store = PageStore::new();
        for n in 1..=2 {
            let other = 3 - n;
            let html = format!(
                "<html><body><nav><a href=/p{other}.html>Other</a><a href=/p{n}.html>This</a></nav>\
                 <main><p>{}</p></main><footer><p>Site footer text</p></footer></body></html>",
                article(n)
            );
            let url = Url::parse(&format!("http://site.test/p{n}.html")).unwrap();
            store.insert(url, admit(html.as_bytes(), None, 10_000).unwrap());
        }
        let input = SiteInput { site: "site.test".into(), store, rejected: Rejections::default() };
        let mut seen = Vec::new();
        // Too few pages for a cluster: each page is extracted on its own, with its one link as voter.
        let opts = CollectOptions { min_cluster: 3, ..CollectOptions::default() };
        let summary = collect_site(&Config::default(), &opts, input, |p| seen.push((p.status, p.weakness)));
        assert_eq!(seen, [(PageStatus::Unclustered, Some(Weakness::OneVoter)); 2]);
        assert_eq!(summary.weak, 2);
    }

    /// The store as page source without its kept links: every load's
    /// links resolved again, as before they were kept.
    struct Unkept<'a>(super::super::page_store::StoreSource<'a>);

    impl PageSource for Unkept<'_> {
        async fn load(
            &self,
            url: &Url,
        ) -> Result<crate::candidates::page_source::LoadedPage, crate::base::error::LoadError> {
            self.0.load(url).await
        }

        fn now_ms(&self) -> f64 {
            self.0.now_ms()
        }
    }

    #[test]
    fn each_pages_links_are_resolved_once_per_site_and_change_no_template() {
        let cfg = Config::default();
        let mut store = site().store;
        store.sort();
        let mut loads = 0;
        for r in 0..store.len() {
            let (_, own) = learn(&cfg, &store, r);
            let kept = own.template.map(|t| (t, own.loads)).map_err(|e| (e, own.loads));
            let unkept = futures::executor::block_on(async {
                let source = Unkept(store.source(cfg.max_nodes));
                let key = source.load(&store.pages()[r].url).await.unwrap();
                extract(&cfg, &source, &key).await.map(|x| (x.template, x.loads)).map_err(|e| (e.to_string(), 1))
            });
            assert_eq!(kept, unkept, "page {r}");
            loads += kept.map_or_else(|(_, l)| l, |(_, l)| l);
        }
        assert!(loads > 2 * store.len(), "pages are loaded again and again: {loads} loads");
        assert!((1..=store.len()).contains(&store.links_resolved()), "{} resolved", store.links_resolved());
    }

    #[test]
    fn selective_serves_a_page_whose_frame_the_representatives_saw_and_compares_one_with_an_unseen_part() {
        let cfg = Config::default();
        let mut store = site().store;
        store.sort();
        let url = store.pages()[0].url.clone();
        // A representative's template: html, body and the header, nav and footer with all below them.
        let learnt = |html: &str| {
            let tree = crate::page::html::snapshot(&parse(html)).unwrap();
            let flags: Vec<bool> = tree
                .nodes()
                .map(|(id, _)| {
                    let top = std::iter::successors(Some(id), |&n| tree.node(n).parent)
                        .find(|&n| tree.node(n).depth <= 3)
                        .unwrap();
                    tree.node(id).depth < 3 || ["header", "nav", "footer"].contains(&&*tree.node(top).tag)
                })
                .collect();
            Cluster::learn(&cfg, &url, &tree, &flags)
        };
        let opts = CollectOptions { serving: Serving::Selective, ..CollectOptions::default() };
        let serve = |clusters: Vec<Cluster>| {
            let prepared: Vec<(PreparedCluster, usize)> = clusters.iter().map(|c| (c.prepare().unwrap(), 1)).collect();
            let group =
                GroupTemplate::Learnt { id: 0, clusters: clusters.clone(), representative: 0, template: vec![] };
            let p = page_template(&cfg, &opts, &store, 2, &group, &prepared, &mut HashMap::new());
            (p.status, p.own_loads)
        };
        let (status, loads) = serve(vec![learnt(&article(1)); 2]);
        assert_eq!((status, loads), (PageStatus::Served, 0), "every part of the frame was seen: no loads");
        // The representatives' pages had no header: the page's is a part of its frame they never saw.
        let bare = article(1).replace("<header class=top><a href=/about.html>About</a></header>", "");
        let (status, loads) = serve(vec![learnt(&bare); 2]);
        assert_eq!(status, PageStatus::Compared, "a part of the frame no representative had");
        assert!(loads > 0, "the page is compared with its own linked pages");
    }

    #[test]
    fn a_group_without_links_is_reported_without_a_template() {
        let mut store = PageStore::new();
        for n in 0..3 {
            let a =
                admit(format!("<html><body><main><p>page {n}</p></main></body></html>").as_bytes(), None, 100).unwrap();
            store.insert(Url::parse(&format!("http://s.test/{n}.html")).unwrap(), a);
        }
        let input = SiteInput { site: "s".into(), store, rejected: Rejections::default() };
        let mut statuses = Vec::new();
        let mut reasons = Vec::new();
        let summary = collect_site(&Config::default(), &CollectOptions::default(), input, |p| {
            statuses.push(p.status);
            reasons.push(p.whole.clone().expect("a page served whole says why"));
        });
        assert_eq!(statuses, [PageStatus::NoTemplate; 3]);
        assert!(summary.clusters[0].error.as_deref().unwrap().contains("no links"), "{:?}", summary.clusters);
        assert!(reasons.iter().all(|w| w.reason == WholeReason::NoTemplate && w.sentence.contains("no links")));
        assert_eq!(summary.whole, [(WholeReason::NoTemplate, 3)].into());
        // Alone in its layout, a page without links is extracted on its own, which fails.
        let mut store = PageStore::new();
        let lone = admit(b"<html><body><main><p>alone</p></main></body></html>", None, 100).unwrap();
        store.insert(Url::parse("http://s.test/alone.html").unwrap(), lone);
        let input = SiteInput { site: "s".into(), store, rejected: Rejections::default() };
        let mut whole = None;
        let summary = collect_site(&Config::default(), &CollectOptions::default(), input, |p| whole = p.whole.clone());
        let whole = whole.expect("the page came out whole");
        assert_eq!(whole.reason, WholeReason::ExtractionFailed);
        assert!(whole.sentence.starts_with("Too few pages share its layout"), "{}", whole.sentence);
        assert_eq!(summary.whole, [(WholeReason::ExtractionFailed, 1)].into());
    }
}
