//! One site's pages held in memory as a page source: the method's candidate
//! loads are answered from the collection, never from the network, so a
//! crawl is processed exactly as it was captured.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use url::Url;

use crate::base::error::LoadError;
use crate::candidates::hyperlink::{page_links, PageLink};
use crate::candidates::page_source::{LoadedPage, PageSource};
use crate::compare::repeated_lists::RepeatedLists;
use crate::memory::template_memory::layout_signature;
use crate::page::dom::{NodeId, Tree};
use crate::page::page_body::ByteBudget;
use crate::sources::file_urls::page_key;

use super::packed_tree::PackedTree;
use super::page_admission::Admitted;
use super::rendered_body::RenderedBody;

/// A page of the collection: its snapshot (packed) and layout signature,
/// made once when the page was admitted, and what it needs to write its
/// content. Keeping the snapshot saves parsing the page again for every
/// extraction that loads it and for its output's template (docs/collection.md).
pub struct StoredPage {
    pub url: Url,
    pub tree: PackedTree,
    pub layout: Vec<u64>,
    pub body: PageBody,
    /// Bytes of the page's decoded HTML.
    pub bytes: usize,
    /// Bytes invalid in its charset, shown as U+FFFD (`page_admission`).
    pub replaced_bytes: usize,
    /// Its links (target in [`LinkTargets`], `<a>` node), resolved and
    /// judged the first time an extraction loads the page: a page is loaded
    /// by every extraction whose key links to it (its menu's pages by
    /// nearly all of them), and resolving every href was a quarter of the
    /// time (docs/collection.md, Speed).
    links: OnceLock<Box<[(u32, NodeId)]>>,
}

/// What a page keeps to write its content.
pub enum PageBody {
    /// Its `<body>` rendered at admission: the content is sliced from it.
    Rendered(RenderedBody),
    /// Its decoded HTML, parsed again for output, for the shapes a
    /// rendering refuses.
    Source(String),
}

/// The admitted pages of one site, in URL order once [`PageStore::sort`] ran.
#[derive(Default)]
pub struct PageStore {
    pages: Vec<StoredPage>,
    index: HashMap<String, usize>,
    /// Pages whose links were resolved: each at most once per store.
    links_resolved: AtomicUsize,
    targets: Mutex<LinkTargets>,
    hot: Mutex<HotTrees>,
    /// Which page each URL asked for names ([`PageStore::position`]): an
    /// extraction asks for every link of its key page and of each page it
    /// loads, the same menu links again and again, and spelling a URL as
    /// its file's key was about 3 % of a collection's time.
    positions: Mutex<HashMap<String, Option<usize>>>,
}

/// Elements of the unpacked snapshots a store keeps (about 300 bytes each):
/// room for the pages a site's extractions load again and again, its
/// menu's, whose unpacking and freeing was a tenth of a collection's time.
pub const HOT_ELEMENTS: usize = 1 << 16;

/// Elements of the pages above [`HOT_ELEMENTS`] a store keeps besides:
/// an archive's index pages of 50,000-100,000 elements, which every
/// message links to, were unpacked again for each message, a third of that
/// site's time. Kept apart, so that they do not push the menu's pages out,
/// and so that a site of small pages keeps no more than before (the whole
/// budget given to small pages held 50 MB more on a 10,000-page site and
/// saved nothing there). The peak rises less than the budget: each
/// extraction that loads such a page has it unpacked anyway.
pub const LARGE_ELEMENTS: usize = 1 << 18;

/// Lists a kept page remembers per element before it forgets them all: the
/// template's lists are mapped again at once, while the content lists of
/// every key that was compared with the page would otherwise pile up.
const LISTS_PER_ELEMENT: usize = 2;

/// The unpacked snapshots of the pages loaded more than once, least
/// recently used first out, within [`HOT_ELEMENTS`], each with the sibling
/// lists mapped onto it so far. A page is kept from its second load on, so
/// the many pages loaded once (each page as its own key) never push the
/// menu's pages out.
///
/// A page larger than the budget is kept in [`LARGE_ELEMENTS`] of its own
/// (`large_kept`, from its second load on, least recently used first out);
/// one larger than that is never kept. The lists mapped onto any large
/// page are kept (`large`): every unpacking of a page numbers its nodes
/// alike, and on such a page the lists are the work (five representatives
/// of pages of 200,000 siblings compared the same lists twenty times,
/// issue 37).
///
/// Pages pinned ([`PageStore::pin`]) are kept once unpacked, whatever their
/// size, until unpinned.
#[derive(Default)]
struct HotTrees {
    kept: Kept,
    large_kept: Kept,
    loaded_once: std::collections::HashSet<usize>,
    clock: u64,
    large: HashMap<usize, Arc<Mutex<RepeatedLists>>>,
    pinned: HashMap<usize, Option<Arc<Tree>>>,
}

struct HotPage {
    page: usize,
    tree: Arc<Tree>,
    lists: Arc<Mutex<RepeatedLists>>,
    used: u64,
}

/// Unpacked snapshots within a budget of elements, least recently used
/// first out.
#[derive(Default)]
struct Kept {
    pages: Vec<HotPage>,
    elements: usize,
}

impl Kept {
    fn get(&mut self, i: usize, clock: u64) -> Option<Arc<Tree>> {
        self.pages.iter_mut().find(|k| k.page == i).map(|k| {
            k.used = clock;
            k.tree.clone()
        })
    }

    fn keep(&mut self, i: usize, tree: &Arc<Tree>, budget: usize, clock: u64) {
        while self.elements + tree.len() > budget {
            let oldest =
                (0..self.pages.len()).min_by_key(|&k| self.pages[k].used).expect("over the budget, so some are kept");
            self.elements -= self.pages.swap_remove(oldest).tree.len();
        }
        self.elements += tree.len();
        self.pages.push(HotPage { page: i, tree: tree.clone(), lists: Arc::default(), used: clock });
    }
}

impl HotTrees {
    fn get(&mut self, i: usize) -> Option<Arc<Tree>> {
        self.clock += 1;
        let clock = self.clock;
        self.kept.get(i, clock).or_else(|| self.large_kept.get(i, clock))
    }

    /// The lists mapped onto page `i`, if `tree` is its kept snapshot, or
    /// an unpacking of a large page (`unpacked_len` elements).
    fn lists(&mut self, i: usize, tree: &Arc<Tree>, unpacked_len: usize) -> Option<Arc<Mutex<RepeatedLists>>> {
        let lists = if tree.len() > HOT_ELEMENTS && tree.len() == unpacked_len {
            self.large.entry(i).or_default()
        } else {
            &mut self.kept.pages.iter_mut().find(|k| k.page == i && Arc::ptr_eq(&k.tree, tree))?.lists
        };
        let full = lists.lock().expect("no thread panicked holding it").len() > LISTS_PER_ELEMENT * tree.len();
        if full {
            *lists = Arc::default();
        }
        Some(lists.clone())
    }

    fn offer(&mut self, i: usize, tree: &Arc<Tree>) {
        if self.loaded_once.insert(i) || tree.len() > LARGE_ELEMENTS {
            return;
        }
        self.clock += 1;
        if tree.len() > HOT_ELEMENTS {
            self.large_kept.keep(i, tree, LARGE_ELEMENTS, self.clock);
        } else {
            self.kept.keep(i, tree, HOT_ELEMENTS, self.clock);
        }
    }
}

/// Each distinct link target of a site once, so a page's kept links are a
/// few bytes each: a URL kept per link, thousands of small blocks living as
/// long as the site among the extractions' short-lived trees, cost 20 %
/// more memory on a 10,000-page site and slowed glibc's malloc.
#[derive(Default)]
struct LinkTargets {
    urls: Vec<Url>,
    ids: HashMap<Url, u32>,
}

impl LinkTargets {
    fn id(&mut self, url: Url) -> u32 {
        let urls = &mut self.urls;
        *self.ids.entry(url).or_insert_with_key(|u| {
            urls.push(u.clone());
            urls.len() as u32 - 1
        })
    }
}

impl PageStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a page; `false` when the store already holds its URL.
    pub fn insert(&mut self, url: Url, page: Admitted) -> bool {
        let key = key_of(&url);
        if self.index.contains_key(&key) {
            return false;
        }
        self.index.insert(key, self.pages.len());
        self.positions.get_mut().expect("no thread panicked holding it").clear();
        let (bytes, replaced_bytes) = (page.html.len(), page.replaced_bytes);
        let body = page.rendered.map_or(PageBody::Source(page.html), PageBody::Rendered);
        let tree = PackedTree::pack(&page.tree);
        let layout = layout_signature(&page.tree);
        self.pages.push(StoredPage { url, layout, tree, body, bytes, replaced_bytes, links: OnceLock::new() });
        true
    }

    /// Puts the pages in URL order, so a site's result does not depend on
    /// the order its records arrived in.
    pub fn sort(&mut self) {
        self.pages.sort_by(|a, b| a.url.as_str().cmp(b.url.as_str()));
        *self.hot.get_mut().expect("no thread panicked holding it") = HotTrees::default();
        self.positions.get_mut().expect("no thread panicked holding it").clear();
        self.index = self.pages.iter().enumerate().map(|(i, p)| (key_of(&p.url), i)).collect();
    }

    /// Page `i`'s snapshot, unpacked or kept from an earlier load.
    pub fn tree(&self, i: usize) -> Arc<Tree> {
        let mut hot = self.hot.lock().expect("no thread panicked holding it");
        if let Some(tree) = hot.get(i).or_else(|| hot.pinned.get(&i).cloned().flatten()) {
            return tree;
        }
        let tree = Arc::new(self.pages[i].tree.unpack());
        hot.offer(i, &tree);
        if let Some(pin) = hot.pinned.get_mut(&i) {
            *pin = Some(tree.clone());
        }
        tree
    }

    /// Keeps `pages` unpacked, once loaded, until [`PageStore::unpin`]:
    /// the pages of a layout group that every one of its extractions loads
    /// (each page of a small group is a representative and loads the
    /// others), which are unpacked once instead of once per extraction.
    /// Each extraction has them all unpacked side by side anyway, but they
    /// now stay until the group has learnt: on five pages of 199,900 list
    /// items the peak rose from 313 to 353-366 MB (docs/collection.md).
    pub fn pin(&self, pages: &[usize]) {
        let mut hot = self.hot.lock().expect("no thread panicked holding it");
        hot.pinned = pages.iter().map(|&i| (i, None)).collect();
    }

    /// Lets go of the pinned pages.
    pub fn unpin(&self) {
        self.hot.lock().expect("no thread panicked holding it").pinned.clear();
    }

    pub fn pages(&self) -> &[StoredPage] {
        &self.pages
    }

    pub fn len(&self) -> usize {
        self.pages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// The page a link names, as a static server would resolve it: the URL
    /// itself (fragment dropped, escapes read as the file name they spell),
    /// a directory's `index.html`, the URL with
    /// `.html` added, then a directory's `index.html` for a URL without its
    /// final slash (a server redirects `/x` to `/x/`; the order is
    /// `tex extract`'s), and these without the query. Without the query, a
    /// mirrored site's `page.html?action=x` finds its file as a static server
    /// finds it; in a crawl the query-less page is a page of the same site,
    /// which is all a candidate needs to be.
    pub fn find(&self, url: &Url) -> Option<&StoredPage> {
        self.position(url).map(|i| &self.pages[i])
    }

    /// How many pages had their links resolved so far.
    pub fn links_resolved(&self) -> usize {
        self.links_resolved.load(Ordering::Relaxed)
    }

    /// The links of page `i`, whose snapshot `tree` is: resolved on the
    /// first call, kept for the others (copying a kept URL costs a
    /// fraction of resolving and judging its href).
    fn links_of(&self, i: usize, tree: &Tree) -> Vec<PageLink> {
        let page = &self.pages[i];
        let kept = page.links.get_or_init(|| {
            self.links_resolved.fetch_add(1, Ordering::Relaxed);
            let mut targets = self.targets.lock().expect("no thread panicked holding it");
            page_links(tree, &page.url).into_iter().map(|l| (targets.id(l.url), l.node)).collect()
        });
        let targets = self.targets.lock().expect("no thread panicked holding it");
        kept.iter().map(|&(t, node)| PageLink { url: targets.urls[t as usize].clone(), node }).collect()
    }

    fn position(&self, url: &Url) -> Option<usize> {
        let mut positions = self.positions.lock().expect("no thread panicked holding it");
        if let Some(&known) = positions.get(url.as_str()) {
            return known;
        }
        let mut bare = url.clone();
        bare.set_query(None);
        let found = self.find_exact(url).or_else(|| self.find_exact(&bare));
        positions.insert(url.as_str().to_owned(), found);
        found
    }

    fn find_exact(&self, url: &Url) -> Option<usize> {
        let key = key_of(url);
        let extensionless = !url.path().rsplit('/').next().unwrap_or("").contains('.');
        let tries = [
            Some(key.clone()),
            key.ends_with('/').then(|| format!("{key}index.html")),
            (extensionless && !key.ends_with('/') && url.query().is_none()).then(|| format!("{key}.html")),
            (extensionless && !key.ends_with('/') && url.query().is_none()).then(|| format!("{key}/index.html")),
        ];
        tries.into_iter().flatten().find_map(|k| self.index.get(&k).copied())
    }

    /// A page source over the store for one extraction, with the
    /// extension's per-extraction byte budget and element limit.
    pub fn source(&self, max_nodes: usize) -> StoreSource<'_> {
        StoreSource { store: self, max_nodes, budget: ByteBudget::default(), clock: Instant::now() }
    }
}

/// The key a page is held under: the file its URL names, every spelling of
/// one file name alike (`%3F` and `%3f`, `%3B` and `;`), and its query
/// ([`page_key`]), as the site folder reads them.
fn key_of(url: &Url) -> String {
    page_key(url)
}

/// Loads from a [`PageStore`]: a page the collection lacks is not found.
pub struct StoreSource<'a> {
    store: &'a PageStore,
    max_nodes: usize,
    budget: ByteBudget,
    clock: Instant,
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

impl PageSource for StoreSource<'_> {
    async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        let i = self.store.position(url).ok_or_else(|| LoadError::NotFound(url.to_string()))?;
        let page = &self.store.pages[i];
        self.budget.take(url.as_str(), 0, page.bytes)?;
        let t1 = Instant::now();
        let tree = self.store.tree(i);
        let parse_ms = ms(t1);
        if tree.len() > self.max_nodes {
            return Err(LoadError::TooLarge {
                url: url.to_string(),
                nodes: tree.len(),
                limit: self.max_nodes,
                parse_ms,
            });
        }
        Ok(LoadedPage { url: page.url.clone(), tree, fetch_ms: 0.0, parse_ms, snapshot_ms: 0.0 })
    }

    fn now_ms(&self) -> f64 {
        ms(self.clock)
    }

    /// The store holds the whole crawl, so a link to a page the crawl did
    /// not reach is known dead without a load.
    fn lacks(&self, url: &Url) -> bool {
        self.store.position(url).is_none()
    }

    /// A page kept unpacked comes with the lists mapped onto it before.
    fn mapped_lists(&self, page: &LoadedPage) -> Option<Arc<Mutex<RepeatedLists>>> {
        let i = self.store.position(&page.url)?;
        let unpacked_len = self.store.pages[i].tree.elements();
        self.store.hot.lock().expect("no thread panicked holding it").lists(i, &page.tree, unpacked_len)
    }

    /// A page this source loaded carries its stored URL, so the URL finds
    /// the stored page whose snapshot it holds.
    fn links<'b>(&'b self, page: &'b LoadedPage) -> Cow<'b, [PageLink]> {
        match self.store.position(&page.url) {
            Some(i) => Cow::Owned(self.store.links_of(i, &page.tree)),
            None => Cow::Owned(page_links(&page.tree, &page.url)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collection::page_admission::admit;

    fn page(html: &str) -> Admitted {
        admit(html.as_bytes(), None, 1000).unwrap()
    }

    fn store(urls: &[&str]) -> PageStore {
        let mut s = PageStore::new();
        for u in urls {
            assert!(s.insert(Url::parse(u).unwrap(), page(&format!("<p>{u}</p>"))));
        }
        s
    }

    #[test]
    fn finds_pages_as_a_static_server_does_and_nothing_else() {
        let s = store(&["http://a.test/docs/index.html", "http://a.test/about.html", "http://a.test/x?p=1"]);
        let find = |u: &str| s.find(&Url::parse(u).unwrap()).map(|p| p.url.path().to_string());
        assert_eq!(find("http://a.test/docs/").as_deref(), Some("/docs/index.html"));
        assert_eq!(find("http://a.test/docs").as_deref(), Some("/docs/index.html"), "as /docs redirects to /docs/");
        assert_eq!(find("http://a.test/about#team").as_deref(), Some("/about.html"));
        assert_eq!(find("http://a.test/x?p=1").as_deref(), Some("/x"));
        assert_eq!(find("http://a.test/about.html?action=edit").as_deref(), Some("/about.html"), "as a static server");
        assert_eq!(find("http://a.test/x?p=2"), None);
        assert_eq!(find("http://b.test/about.html"), None, "another origin is not in the store");
        let saved = store(&["http://a.test/index.php%3Ftopic=2.html", "http://a.test/a;b.html"]);
        let find = |u: &str| saved.find(&Url::parse(u).unwrap()).map(|p| p.url.path().to_string());
        let topic = Some("/index.php%3Ftopic=2.html");
        assert_eq!(find("http://a.test/index.php%3ftopic%3D2.html").as_deref(), topic, "the file, however spelt");
        assert_eq!(find("http://a.test/index.php%3Ftopic=2.html#last").as_deref(), topic);
        assert_eq!(find("http://a.test/index.php?topic=2.html"), None, "a real query asks for index.php");
        assert_eq!(find("http://a.test/a%3Bb.html").as_deref(), Some("/a;b.html"));
        let mut again = store(&["http://a.test/about.html"]);
        assert!(!again.insert(Url::parse("http://a.test/about.html#x").unwrap(), page("<p>")));
        let b = Url::parse("http://a.test/b").unwrap();
        assert_eq!(again.find(&b).map(|p| p.url.path()), None);
        assert!(again.insert(Url::parse("http://a.test/b.html").unwrap(), page("<p>b</p>")));
        assert_eq!(again.find(&b).map(|p| p.url.path()), Some("/b.html"), "a page added after a miss is found");
        again.sort();
        assert_eq!(again.find(&b).map(|p| p.url.path()), Some("/b.html"), "and after sorting");
    }

    #[test]
    fn loads_give_the_stored_snapshot_and_missing_pages_are_not_found() {
        let s = store(&["http://a.test/b.html", "http://a.test/a.html"]);
        let source = s.source(100);
        let page = futures::executor::block_on(source.load(&Url::parse("http://a.test/a").unwrap())).unwrap();
        assert_eq!(page.url.path(), "/a.html");
        assert_eq!(page.tree.len(), 4, "html head body p");
        let missing = futures::executor::block_on(source.load(&Url::parse("http://a.test/c.html").unwrap()));
        assert!(matches!(missing, Err(LoadError::NotFound(_))));
        let tight = s.source(3);
        let big = futures::executor::block_on(tight.load(&Url::parse("http://a.test/a.html").unwrap()));
        assert!(matches!(big, Err(LoadError::TooLarge { .. })));
    }

    #[test]
    fn a_page_loaded_twice_is_kept_unpacked_within_the_budget() {
        let s = store(&["http://a.test/a.html", "http://a.test/b.html"]);
        let (first, second) = (s.tree(0), s.tree(0));
        assert!(!Arc::ptr_eq(&first, &second), "kept from its second load on");
        assert!(Arc::ptr_eq(&second, &s.tree(0)), "the third load shares the kept tree");
        assert_eq!(format!("{:?}", *second), format!("{:?}", s.pages()[0].tree.unpack()));
        assert!(!Arc::ptr_eq(&s.tree(1), &s.tree(1)), "b was loaded once before");
        let source = s.source(100);
        let load = |u: &str| futures::executor::block_on(source.load(&Url::parse(u).unwrap())).unwrap();
        let (kept, once) = (load("http://a.test/a.html"), s.source(100));
        let lists = source.mapped_lists(&kept).expect("a kept page comes with its mapped lists");
        assert!(Arc::ptr_eq(&lists, &source.mapped_lists(&kept).unwrap()), "the same lists for every comparison");
        let fresh = LoadedPage { tree: Arc::new((*kept.tree).clone()), ..kept.clone() };
        assert!(once.mapped_lists(&fresh).is_none(), "only the kept snapshot's node numbers are remembered");
        let mut hot = HotTrees::default();
        for i in 0..3 {
            let tree = Arc::new(
                admit(&"<p>x</p>".repeat(HOT_ELEMENTS / 2 - 3).into_bytes(), None, HOT_ELEMENTS).unwrap().tree,
            );
            hot.offer(i, &tree);
            hot.offer(i, &tree);
        }
        assert_eq!(
            hot.kept.pages.iter().map(|k| k.page).collect::<Vec<_>>(),
            [1, 2],
            "the least recently used went first"
        );
        assert!(hot.kept.elements <= HOT_ELEMENTS);
        let large =
            Arc::new(admit(&"<i>x</i>".repeat(HOT_ELEMENTS).into_bytes(), None, 2 * HOT_ELEMENTS).unwrap().tree);
        hot.offer(7, &large);
        assert!(hot.get(7).is_none(), "a page is kept from its second load on");
        hot.offer(7, &large);
        assert!(Arc::ptr_eq(&hot.get(7).expect("kept"), &large), "a large page is kept in its own budget");
        assert_eq!(hot.kept.pages.len(), 2, "without pushing the small pages out");
    }

    /// A page larger than [`LARGE_ELEMENTS`]: never kept unpacked unless pinned.
    fn store_with_huge_page() -> PageStore {
        let mut s = store(&["http://a.test/small.html"]);
        let huge = admit(&"<i>x</i>".repeat(LARGE_ELEMENTS).into_bytes(), None, 2 * LARGE_ELEMENTS).unwrap();
        s.insert(Url::parse("http://a.test/big.html").unwrap(), huge);
        s.sort();
        s
    }

    #[test]
    fn a_page_too_large_to_keep_keeps_the_lists_mapped_onto_it() {
        let s = store_with_huge_page();
        let source = s.source(2 * LARGE_ELEMENTS);
        let load = |u: &str| futures::executor::block_on(source.load(&Url::parse(u).unwrap())).unwrap();
        let (first, second) = (load("http://a.test/big.html"), load("http://a.test/big.html"));
        assert!(!Arc::ptr_eq(&first.tree, &second.tree), "too large to keep unpacked");
        let lists = source.mapped_lists(&first).expect("its lists are kept all the same");
        assert!(Arc::ptr_eq(&lists, &source.mapped_lists(&second).unwrap()), "every unpacking shares them");
        let small = s.pages().iter().find(|p| p.url.path() == "/small.html").unwrap();
        let other = LoadedPage { tree: Arc::new(small.tree.unpack()), ..first.clone() };
        assert!(source.mapped_lists(&other).is_none(), "a tree that is not the page's is given none");
    }

    #[test]
    fn a_pinned_page_is_unpacked_once_whatever_its_size_until_unpinned() {
        let s = store_with_huge_page();
        let big = s.pages().iter().position(|p| p.url.path() == "/big.html").unwrap();
        assert!(!Arc::ptr_eq(&s.tree(big), &s.tree(big)), "too large to keep unpacked");
        s.pin(&[big]);
        let pinned = s.tree(big);
        assert!(Arc::ptr_eq(&pinned, &s.tree(big)), "pinned, it is kept");
        s.unpin();
        assert!(!Arc::ptr_eq(&pinned, &s.tree(big)), "let go of");
    }

    /// A partial crawl: the key links first to 30 pages the crawl did not
    /// reach, more than `max_loads`, then to three pages that link to each
    /// other (one folder down, so link order puts them last). The store knows it lacks the dead ones, so no load is spent
    /// on them; a source that had to load them to find out gives up.
    #[test]
    fn links_to_pages_the_crawl_lacks_cost_no_load() {
        use crate::base::config::Config;
        use crate::base::error::ExtractError;
        use crate::extraction::extract::extract;

        struct Blind<'a>(StoreSource<'a>);
        impl PageSource for Blind<'_> {
            async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
                self.0.load(url).await
            }
            fn now_ms(&self) -> f64 {
                self.0.now_ms()
            }
        }

        let url = |p: &str| Url::parse(&format!("http://a.test/{p}")).unwrap();
        let dead: String = (0..30).map(|i| format!("<li><a href=/gone{i}.html>gone {i}</a>")).collect();
        let menu =
            "<ul><li><a href=/more/a.html>a</a><li><a href=/more/b.html>b</a><li><a href=/more/c.html>c</a></ul>";
        let mut s = PageStore::new();
        s.insert(url("key.html"), page(&format!("<ul>{dead}</ul>{menu}<p>the key</p>")));
        s.insert(url("lonely.html"), page(&format!("<ul>{dead}</ul><p>no page of the crawl</p>")));
        for p in ["a", "b", "c"] {
            s.insert(url(&format!("more/{p}.html")), page(&format!("{menu}<p>page {p}</p>")));
        }
        let source = s.source(1000);
        assert!(source.lacks(&url("gone0.html")));
        assert!(!source.lacks(&url("more/a.html")) && !source.lacks(&url("more/a")), "found as a load finds it");
        let cfg = Config::default();
        let key = futures::executor::block_on(source.load(&url("key.html"))).unwrap();
        let x = futures::executor::block_on(extract(&cfg, &source, &key)).unwrap();
        assert_eq!(x.links, 33);
        assert_eq!((x.loads, x.cs.size), (4, 3), "the key and a, b, c");
        assert!(x.load_log.iter().all(|r| r.error.is_none()));
        let blind = Blind(s.source(1000));
        let r = futures::executor::block_on(extract(&cfg, &blind, &key));
        assert!(matches!(r, Err(ExtractError::NoCandidates(25, _))), "the dead links come first: {r:?}");
        let lonely = futures::executor::block_on(source.load(&url("lonely.html"))).unwrap();
        let r = futures::executor::block_on(extract(&cfg, &source, &lonely)).unwrap_err();
        assert_eq!(
            r.to_string(),
            "None of the 30 linked pages could be loaded, so there is nothing to compare the page with \
             (the first: http://a.test/gone0.html was not found)."
        );
    }

    #[test]
    fn a_pages_links_are_resolved_once_for_every_source_of_the_store() {
        let mut s = PageStore::new();
        let html = "<a href=b.html>b</a><a href=/c/>c</a><a href=b.html#top>b again</a><a href=x.pdf>pdf</a>";
        s.insert(Url::parse("http://a.test/a.html").unwrap(), page(html));
        s.insert(Url::parse("http://a.test/b.html").unwrap(), page("<a href=a.html>a</a>"));
        let a = Url::parse("http://a.test/a").unwrap();
        let first = s.source(100);
        let loaded = futures::executor::block_on(first.load(&a)).unwrap();
        let links = first.links(&loaded).into_owned();
        assert_eq!(links, page_links(&loaded.tree, &loaded.url), "the links the algorithm would resolve");
        assert_eq!(links.len(), 2);
        for _ in 0..3 {
            let again = s.source(100);
            let loaded = futures::executor::block_on(again.load(&a)).unwrap();
            assert_eq!(*again.links(&loaded), *links);
        }
        assert_eq!(s.links_resolved(), 1, "one page, resolved once for four loads");
        let elsewhere = LoadedPage { url: Url::parse("http://a.test/new.html").unwrap(), ..loaded };
        assert_eq!(first.links(&elsewhere).len(), 2, "a page the store lacks gets its links all the same");
        assert_eq!(s.links_resolved(), 1);
    }
}
