//! Template memory per site: Zeleny and Burget's cluster-based reuse
//! ("Accelerating the process of web page segmentation via template
//! clustering") applied to template extraction.
//!
//! A site uses few layouts. After a full extraction we keep a *cluster
//! representative*: the layout signature of the page (its set of
//! root-to-element tag paths, Gottron's common paths) and a skeleton of its
//! template nodes (tag, id, class and attribute hashes, text hashes; no
//! content). A later page of the same site belongs to the cluster when its
//! paths are close enough to the representative's and it holds every path
//! of the skeleton (the paper's sibling-count failsafe, per path). It then
//! gets the template by mapping the skeleton onto it with the configured
//! top-down mapping, as if the skeleton were one candidate page: zero page
//! loads. Any other page runs the full method and adds a cluster.
//!
//! Unlike the paper, path steps leave ids out: documentation pages give
//! every section an id, which made each article a layout of its own on the
//! dev set (similarities of 0.04 between pages of one Sphinx site).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use url::Url;

use crate::base::config::{Algorithm, Config};
use crate::base::error::ExtractError;
use crate::candidates::page_source::{LoadedPage, PageSource};
use crate::compare::repeated_lists::{etdm_remembering, ListSignatures, RepeatedLists};
use crate::decide::breadcrumb_trails::release_trails;
use crate::decide::current_item::{pair_current_items, SubtreeTexts};
use crate::decide::own_text::release;
use crate::decide::page_title::release_title;
use crate::decide::template::map_page;
use crate::decide::text_recurrence::{keep_repeated_content, subtree_words, KeyText};
use crate::extraction::extract::{extract, Extraction};
use crate::page::dom::{Gold, Node, NodeId, Tree};
use crate::page::generated_names::is_generated;
use crate::page::name_hash::name_hash;

/// Format version of a stored memory; another version is refused, not guessed at.
pub const MEMORY_VERSION: u32 = 1;

/// Layout similarity (shared paths over the larger path set) at or above
/// which a page may belong to a cluster. On the dev set, key pages served
/// by clusters below it lost up to 11 F1 points against the full method.
pub const SAME_LAYOUT: f64 = 0.7;

/// Share of the skeleton's paths a page must hold to belong to its cluster:
/// a template that is not all there cannot be mapped faithfully.
pub const TEMPLATE_PRESENT: f64 = 0.95;

/// Most template nodes a remembered cluster keeps. Recalling a cluster maps
/// its whole skeleton onto the page in one go, and the extension stores it
/// with the site: a template of 100,000 nodes (a generated page) would hold
/// the tab on every recall and weigh megabytes in storage. The dev set's
/// largest template has about 1,200 nodes.
pub const MAX_SKELETON_NODES: usize = 20_000;

/// Whether a template is worth remembering: small enough (see
/// [`MAX_SKELETON_NODES`]), and not empty, which would serve every page of
/// its layout whole (an extraction with no voter finds no template).
pub fn rememberable(template: &[bool]) -> bool {
    (1..=MAX_SKELETON_NODES).contains(&template.iter().filter(|&&t| t).count())
}

/// Why a stored memory could not be used.
#[derive(Debug, Error)]
pub enum MemoryError {
    #[error("the template memory is not valid JSON for this version: {0}")]
    Invalid(String),
    #[error("the template memory has format version {found}, this build reads version {MEMORY_VERSION}")]
    Version { found: u32 },
}

/// One template node of a representative, in document order; the parent is
/// an index into the same list, so the skeleton is a tree of its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkeletonNode {
    #[serde(rename = "p", skip_serializing_if = "Option::is_none", default)]
    pub parent: Option<u32>,
    #[serde(rename = "t")]
    pub tag: String,
    #[serde(rename = "i", skip_serializing_if = "Option::is_none", default)]
    pub id: Option<String>,
    #[serde(rename = "c", skip_serializing_if = "Vec::is_empty", default)]
    pub classes: Vec<u64>,
    #[serde(rename = "a", skip_serializing_if = "Vec::is_empty", default)]
    pub attributes: Vec<u64>,
    #[serde(rename = "x", skip_serializing_if = "is_zero", default)]
    pub text: u64,
    #[serde(rename = "b", skip_serializing_if = "is_zero", default)]
    pub block: u64,
    #[serde(rename = "w", skip_serializing_if = "is_zero32", default)]
    pub words: u32,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

fn is_zero32(v: &u32) -> bool {
    *v == 0
}

/// A cluster representative: what a layout looks like and where its
/// template lies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    /// Fingerprint of the configuration the template was extracted with:
    /// another configuration must not reuse it.
    pub config: u64,
    /// The page the cluster was learnt from.
    pub learnt_from: String,
    /// Sorted hashes of the page's distinct root-to-element paths.
    pub layout: Vec<u64>,
    /// The template nodes of that page, top-down closed, in document order.
    pub skeleton: Vec<SkeletonNode>,
    /// Pages the cluster has served without loads.
    pub reused: u32,
}

/// Every cluster of every site, keyed by site (an origin in the browser,
/// a folder in the CLI).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    pub version: u32,
    pub sites: BTreeMap<String, Vec<Cluster>>,
}

/// The template of a page and how it was obtained.
#[derive(Clone, Debug)]
pub enum Recall {
    /// A known cluster served the page: no page was loaded.
    Reused { cluster: usize, similarity: f64, template: Vec<bool> },
    /// No cluster fitted: the full method ran and its result was learnt.
    Extracted(Box<Extraction>),
}

impl Recall {
    pub fn template(&self) -> &[bool] {
        match self {
            Recall::Reused { template, .. } => template,
            Recall::Extracted(x) => &x.template,
        }
    }

    /// Pages loaded besides the key page.
    pub fn loads(&self) -> usize {
        match self {
            Recall::Reused { .. } => 0,
            Recall::Extracted(x) => x.loads - 1,
        }
    }
}

/// How snapshots hash text and names; a cluster learnt under another scheme
/// compares other hashes, so it is set aside and learnt again. 2: digit runs
/// read as one digit (`dom::word_hash`); 3: a name's lowest bit marks it
/// generated (`generated_names`), the code of scripts and style sheets is not
/// text, and a `<time>`'s words read as one shape; 4: each Han character and
/// kana counts as a word (`words`), and digits of every script read as one.
const TEXT_HASHING: u32 = 4;

/// Fingerprint of a configuration (FNV-1a of its JSON form) and of the
/// snapshot's text hashing.
pub fn config_fingerprint(cfg: &Config) -> u64 {
    name_hash(&format!("{TEXT_HASHING}{}", serde_json::to_string(cfg).expect("config serialises")))
}

/// The layout signature of a page: the sorted hashes of its distinct
/// root-to-element tag paths.
pub fn layout_signature(tree: &Tree) -> Vec<u64> {
    let mut path = node_paths(tree);
    path.sort_unstable();
    path.dedup();
    path
}

/// Each node's root-to-element path of tags, hashed (a layout signature's elements).
pub fn node_paths(tree: &Tree) -> Vec<u64> {
    let mut path = vec![0u64; tree.len()];
    for (id, node) in tree.nodes() {
        let base = node.parent.map_or(0xcbf2_9ce4_8422_2325, |p| path[p.index()]);
        path[id.index()] = (base ^ name_hash(&node.tag)).wrapping_mul(0x0100_0000_01b3);
    }
    path
}

/// Share of the paths of `part` that `whole` holds (1 for an empty part:
/// nothing is missing).
pub fn containment(part: &[u64], whole: &[u64]) -> f64 {
    if part.is_empty() {
        return 1.0;
    }
    part.iter().filter(|p| whole.binary_search(p).is_ok()).count() as f64 / part.len() as f64
}

/// Common-paths similarity: shared paths over the larger set (1 − Gottron's
/// common paths distance).
pub fn layout_similarity(a: &[u64], b: &[u64]) -> f64 {
    let common = crate::page::dom::common_count(a, b);
    let larger = a.len().max(b.len());
    if larger == 0 {
        0.0
    } else {
        common as f64 / larger as f64
    }
}

impl Cluster {
    /// The representative of a page whose template is known.
    pub fn learn(cfg: &Config, url: &Url, tree: &Tree, template: &[bool]) -> Cluster {
        let mut index = vec![u32::MAX; tree.len()];
        let mut skeleton = Vec::new();
        for (id, node) in tree.nodes().filter(|(id, _)| template[id.index()]) {
            index[id.index()] = skeleton.len() as u32;
            skeleton.push(SkeletonNode {
                parent: node.parent.map(|p| index[p.index()]).filter(|&p| p != u32::MAX),
                tag: node.tag.to_string(),
                id: node.id.as_ref().map(|s| s.to_string()),
                classes: node.classes.to_vec(),
                attributes: node.attributes.to_vec(),
                text: node.text,
                block: node.block,
                words: node.words,
            });
        }
        Cluster {
            config: config_fingerprint(cfg),
            learnt_from: url.to_string(),
            layout: layout_signature(tree),
            skeleton,
            reused: 0,
        }
    }

    /// The skeleton as a tree the mappings can walk, `None` when it is
    /// empty or not a tree (a hand-edited file).
    pub fn skeleton_tree(&self) -> Option<Tree> {
        let mut nodes: Vec<Node> = Vec::with_capacity(self.skeleton.len());
        for (i, s) in self.skeleton.iter().enumerate() {
            let parent = match s.parent {
                Some(p) if (p as usize) < i => Some(NodeId(p)),
                Some(_) => return None,
                None if i == 0 => None,
                None => return None,
            };
            let (child_index, depth) = match parent {
                Some(p) => {
                    let pn = &mut nodes[p.index()];
                    pn.children.push(NodeId(i as u32));
                    (pn.children.len() as u32 - 1, pn.depth + 1)
                }
                None => (0, 1),
            };
            // A redeploy renames generated names: they are not required to match.
            let mut classes = s.classes.clone();
            classes.retain(|&h| !is_generated(h));
            classes.sort_unstable();
            classes.dedup();
            let mut attributes = s.attributes.clone();
            attributes.retain(|&h| !is_generated(h));
            attributes.sort_unstable();
            attributes.dedup();
            nodes.push(Node {
                tag: s.tag.as_str().into(),
                id: s.id.as_deref().map(Into::into),
                classes: classes.into(),
                attributes: attributes.into(),
                href: None,
                nofollow: false,
                parent,
                children: Vec::new(),
                child_index,
                depth,
                text: s.text,
                block: s.block,
                words: s.words,
                same_tag_position: 0,
                trail: false,
                gold: Gold::default(),
            });
        }
        Tree::from_nodes(nodes)
    }

    /// Whether a page with this layout signature belongs to the cluster, and
    /// its layout similarity.
    pub fn fits(&self, layout: &[u64]) -> (bool, f64) {
        match self.prepare() {
            Some(p) => p.fits(layout),
            None => (layout_similarity(&self.layout, layout) >= SAME_LAYOUT, layout_similarity(&self.layout, layout)),
        }
    }

    /// Maps the skeleton onto a page of the same layout, as the full method
    /// maps its key page onto a candidate: a page node is template when a
    /// skeleton node maps onto it (and, with text evidence on, when the
    /// page repeats that node's text as a candidate would, and its own text,
    /// a paragraph's worth, is the skeleton node's: `decide::own_text`).
    pub fn apply(&self, cfg: &Config, page: &Tree) -> Vec<bool> {
        self.prepare().map_or_else(|| vec![false; page.len()], |p| p.apply(cfg, page))
    }

    /// The cluster with its skeleton rebuilt once, for applying it to many
    /// pages (a crawl's cluster serves thousands); `None` when the skeleton
    /// is empty or broken.
    pub fn prepare(&self) -> Option<PreparedCluster<'_>> {
        let skeleton = self.skeleton_tree()?;
        Some(PreparedCluster {
            layout: &self.layout,
            paths: layout_signature(&skeleton),
            text: KeyText::of(&skeleton),
            subtree_texts: SubtreeTexts::of(&skeleton),
            signatures: ListSignatures::of(&skeleton),
            skeleton,
        })
    }
}

/// A cluster ready to test and serve pages: its skeleton as a tree, the
/// skeleton's own paths and what the content signal and the current-item
/// rule read of it.
pub struct PreparedCluster<'a> {
    layout: &'a [u64],
    skeleton: Tree,
    paths: Vec<u64>,
    text: KeyText,
    /// Read by the current-item rule as pages are served (not to test a page's fit).
    subtree_texts: SubtreeTexts,
    signatures: ListSignatures,
}

/// A page to serve from one or more clusters (a collection's page, from
/// each of its cluster's representatives): what every mapping reads of the
/// page alone is made once. The page is compared without its generated
/// names, as the skeleton is: what a redeploy renames decides nothing.
pub struct ServedPage<'t> {
    tree: Cow<'t, Tree>,
    subtree_texts: SubtreeTexts,
    /// The page's subtree word counts, read when the content signal is on.
    words: Option<Vec<u32>>,
    /// The lists earlier skeletons mapped onto the page.
    lists: RepeatedLists,
}

impl<'t> ServedPage<'t> {
    pub fn new(page: &'t Tree) -> Self {
        let tree = page.without_generated();
        let subtree_texts = SubtreeTexts::of(&tree);
        Self { tree, subtree_texts, words: None, lists: RepeatedLists::default() }
    }
}

impl PreparedCluster<'_> {
    /// See [`Cluster::fits`].
    pub fn fits(&self, layout: &[u64]) -> (bool, f64) {
        let similarity = layout_similarity(self.layout, layout);
        (similarity >= SAME_LAYOUT && containment(&self.paths, layout) >= TEMPLATE_PRESENT, similarity)
    }

    /// See [`Cluster::apply`].
    pub fn apply(&self, cfg: &Config, page: &Tree) -> Vec<bool> {
        self.serve(cfg, &mut ServedPage::new(page))
    }

    /// [`PreparedCluster::apply`] on a page other clusters serve too.
    pub fn serve(&self, cfg: &Config, served: &mut ServedPage) -> Vec<bool> {
        let ServedPage { tree, subtree_texts, words, lists } = served;
        let page = &**tree;
        let mut template = vec![false; page.len()];
        let mut mapping = match cfg.algorithm {
            Algorithm::Etdm => etdm_remembering(cfg, &self.skeleton, &self.signatures, page, lists),
            Algorithm::Rtdm => map_page(cfg, &self.skeleton, page),
        };
        pair_current_items(&self.skeleton, &self.subtree_texts, page, subtree_texts, &mut mapping);
        if cfg.content.enabled {
            mapping = keep_repeated_content(&cfg.content, &self.skeleton, &self.text, page.text_blocks(), &mapping);
        }
        for (_, image) in mapping.pairs() {
            template[image.index()] = true;
        }
        if !cfg.content.enabled {
            return template;
        }
        // With text evidence on, the skeleton is one more voter for the
        // own-text rule: a page's element whose own text differs from that of
        // the skeleton node mapped onto it (a lead paragraph where the
        // representative's element had none) holds the page's text.
        let mut held = vec![false; page.len()];
        for (n, image) in mapping.pairs() {
            held[image.index()] = self.skeleton.node(n).text == page.node(image).text;
        }
        let words = words.get_or_insert_with(|| subtree_words(page));
        let template = release_trails(page, words, release(page, words, template, |i| held[i]));
        release_title(page, words, template)
    }
}

impl Memory {
    pub fn new() -> Memory {
        Memory { version: MEMORY_VERSION, sites: BTreeMap::new() }
    }

    /// Reads a stored memory.
    pub fn from_json(text: &str) -> Result<Memory, MemoryError> {
        #[derive(Deserialize)]
        struct Head {
            version: u32,
        }
        let head: Head = serde_json::from_str(text).map_err(|e| MemoryError::Invalid(e.to_string()))?;
        if head.version != MEMORY_VERSION {
            return Err(MemoryError::Version { found: head.version });
        }
        serde_json::from_str(text).map_err(|e| MemoryError::Invalid(e.to_string()))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("memory serialises")
    }

    /// The closest cluster of `site` learnt under `cfg`, if the page's
    /// layout is close enough to it: (index, similarity). A page over the
    /// element limit fits none: memory must not serve what the method refuses.
    pub fn find(&self, site: &str, cfg: &Config, page: &Tree) -> Option<(usize, f64)> {
        self.find_by_layout(site, cfg, page.len(), &layout_signature(page))
    }

    /// [`Memory::find`] for a page of `elements` whose layout signature is
    /// `layout`: a page read in steps makes its signature in a step of its own.
    pub fn find_by_layout(&self, site: &str, cfg: &Config, elements: usize, layout: &[u64]) -> Option<(usize, f64)> {
        if elements > cfg.max_nodes {
            return None;
        }
        self.ranked(site, cfg, layout).into_iter().filter(|&(_, fits, _)| fits).map(|(i, _, s)| (i, s)).next()
    }

    /// The cluster of `site` learnt under `cfg` whose layout is closest to
    /// the page's, whether it fits or not: (index, similarity).
    pub fn closest(&self, site: &str, cfg: &Config, page: &Tree) -> Option<(usize, f64)> {
        self.ranked(site, cfg, &layout_signature(page)).into_iter().map(|(i, _, s)| (i, s)).next()
    }

    /// The site's clusters under `cfg`, most similar first: (index, fits, similarity).
    fn ranked(&self, site: &str, cfg: &Config, layout: &[u64]) -> Vec<(usize, bool, f64)> {
        let fingerprint = config_fingerprint(cfg);
        let mut ranked: Vec<(usize, bool, f64)> = self
            .sites
            .get(site)
            .into_iter()
            .flatten()
            .enumerate()
            .filter(|(_, c)| c.config == fingerprint)
            .map(|(i, c)| {
                let (fits, similarity) = c.fits(layout);
                (i, fits, similarity)
            })
            .collect();
        ranked.sort_by(|a, b| b.2.total_cmp(&a.2));
        ranked
    }

    /// Adds the representative of a freshly extracted page to its site,
    /// unless its template is empty or too large to remember (`false`).
    pub fn learn(&mut self, site: &str, cfg: &Config, url: &Url, tree: &Tree, template: &[bool]) -> bool {
        if !rememberable(template) {
            return false;
        }
        self.sites.entry(site.to_string()).or_default().push(Cluster::learn(cfg, url, tree, template));
        true
    }

    /// Forgets one site (`true` when it was known).
    pub fn forget(&mut self, site: &str) -> bool {
        self.sites.remove(site).is_some()
    }

    /// The template of `key` from a known cluster with zero loads, or from
    /// the full method (whose result then becomes a new cluster).
    pub async fn recall<S: PageSource>(
        &mut self,
        site: &str,
        cfg: &Config,
        source: &S,
        key: &LoadedPage,
    ) -> Result<Recall, ExtractError> {
        if let Some((i, similarity)) = self.find(site, cfg, &key.tree) {
            let cluster = &mut self.sites.get_mut(site).expect("found")[i];
            let template = cluster.apply(cfg, &key.tree);
            cluster.reused = cluster.reused.saturating_add(1);
            return Ok(Recall::Reused { cluster: i, similarity, template });
        }
        let x = extract(cfg, source, key).await?;
        self.learn(site, cfg, &key.url, &key.tree, &x.template);
        Ok(Recall::Extracted(Box::new(x)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::mapping::Mapping;
    use crate::decide::template::template;
    use crate::page::dom::test_trees::tree;

    fn url(p: &str) -> Url {
        Url::parse("http://site.local/").unwrap().join(p).unwrap()
    }

    const LAYOUT_A: &str = "html( head( title ) body( header#top( nav.menu( a a a ) ) div.wrap( aside.side( ul( li li ) ) main#content( {} ) ) footer.foot( p ) ) )";

    fn page_a(content: &str) -> Tree {
        tree(&LAYOUT_A.replace("{}", content))
    }

    /// Full method on hand-made trees: the key mapped onto three candidates, two votes.
    fn full(cfg: &Config, key: &Tree, candidates: &[Tree]) -> Vec<bool> {
        let ms: Vec<Mapping> = candidates.iter().map(|c| map_page(cfg, key, c)).collect();
        template(cfg, key, &ms)
    }

    fn tags(t: &Tree, flags: &[bool]) -> Vec<String> {
        t.nodes().filter(|(i, _)| flags[i.index()]).map(|(_, n)| n.tag.to_string()).collect()
    }

    #[test]
    fn a_known_layout_gets_the_same_template_as_a_full_extraction() {
        let cfg = Config::preset("paper").unwrap();
        let seen = page_a("h1 p p table( tr tr )");
        let key = page_a("h2 section( p p p ) ol( li li )");
        let others = [page_a("h3"), page_a("pre pre"), page_a("blockquote( h4 )")];
        let learnt = full(&cfg, &seen, &others);
        let mut memory = Memory::new();
        memory.learn("site", &cfg, &url("seen.html"), &seen, &learnt);

        let (i, similarity) = memory.find("site", &cfg, &key).expect("same layout");
        assert_eq!(i, 0);
        assert!(similarity >= SAME_LAYOUT, "{similarity}");
        let reused = memory.sites["site"][0].apply(&cfg, &key);
        assert_eq!(reused, full(&cfg, &key, &others));
        assert_eq!(tags(&key, &reused), tags(&seen, &learnt));
        assert!(!tags(&key, &reused).contains(&"section".to_string()));
    }

    /// LAYOUT_A as a CSS-in-JS build styles it: no ids, every class a hash
    /// that changes with each deploy `d`.
    fn styled(content: &str, d: &str) -> Tree {
        tree(&format!(
            "html( head( title ) body( header.css-{d}h1x2( nav.css-{d}n3k4( a.css-{d}a5b6 a.css-{d}a5b6 a.css-{d}a5b6 ) ) \
             div.css-{d}w7q8( aside.css-{d}s9r1( ul( li li ) ) main.css-{d}m2t3( {content} ) ) footer.css-{d}f4u5( p ) ) )"
        ))
    }

    #[test]
    fn a_redeploy_that_renames_generated_classes_keeps_the_template() {
        let cfg = Config::preset("paper").unwrap();
        let content = ["h1 p p table( tr tr )", "h2 section( p p p ) ol( li li )", "h3", "pre pre", "blockquote( h4 )"];
        let deploy = |d: &str| content.map(|c| styled(c, d));
        let before = deploy("r");
        let learnt = full(&cfg, &before[0], &before[2..]);
        let mut memory = Memory::new();
        memory.learn("site", &cfg, &url("seen.html"), &before[0], &learnt);

        let after = deploy("z");
        let key = &after[1];
        assert!(memory.find("site", &cfg, key).is_some(), "tags and structure are unchanged");
        let reused = memory.sites["site"][0].apply(&cfg, key);
        assert_eq!(reused, full(&cfg, key, &after[2..]), "the same template as a full extraction after the redeploy");
        assert!(tags(key, &reused).contains(&"aside".to_string()));
        assert!(!tags(key, &reused).contains(&"section".to_string()));
    }

    /// A representative whose neighbours showed the same mini-cart learnt
    /// its box with the cart as template; a later page of the layout has its
    /// description written straight into that box. The box has no own text
    /// on the representative, so it maps onto the page's, and the cart, the
    /// only text of the skeleton the page lacks, reads as the frame of the
    /// content: the mapping alone kept the description as template.
    #[test]
    fn a_served_page_keeps_its_own_paragraph_where_the_skeleton_had_other_text() {
        use crate::page::html::{parse, snapshot};
        let page = |inside: &str| {
            snapshot(&parse(&format!(
                "<html><body><nav><a href=/a>Home</a><a href=/b>Shop</a></nav><div class=box>{inside}</div>\
                 <footer><p>Every page of this shop ends with this footer</p></footer></body></html>"
            )))
            .unwrap()
        };
        let cart = "<ul><li>Hibiki twelve years, one bottle</li></ul>";
        let description = "This single malt was distilled in the spring of one year and bottled twelve years \
                           later after resting in sherry casks, which gives it notes of dried fruit and spice";
        let cfg = Config::default();
        let seen = page(cart);
        let cluster = Cluster::learn(&cfg, &url("seen.html"), &seen, &vec![true; seen.len()]);
        let served = page(description);
        let template = cluster.apply(&cfg, &served);
        let at = |tag: &str| served.nodes().find(|(_, n)| &*n.tag == tag).unwrap().0.index();
        assert!(!template[at("div")], "the description is the page's: content");
        assert!(template[at("nav")] && template[at("footer")] && template[at("p")], "the frame stays template");
        assert!(cluster.apply(&cfg, &seen).iter().all(|&t| t), "the skeleton's own page is template throughout");
    }

    /// A skeleton learnt with its trail as template (a representative taken
    /// whole) serves a page whose trail is still the page's own.
    #[test]
    fn a_served_page_keeps_its_breadcrumb_trail() {
        use crate::page::html::{parse, snapshot};
        let page = |name: &str| {
            snapshot(&parse(&format!(
                "<html><body><nav class=menu><a href=/a>Home</a><a href=/b>Shop</a></nav>\
                 <ol class=breadcrumb><li><a href=/>Home</a></li><li><a href=/b>Shop</a></li></ol><h1>{name}</h1></body></html>"
            )))
            .unwrap()
        };
        let cfg = Config::default();
        let seen = page("Roses");
        let cluster = Cluster::learn(&cfg, &url("seen.html"), &seen, &vec![true; seen.len()]);
        let served = page("Tulips");
        let template = cluster.apply(&cfg, &served);
        let trail = served.nodes().find(|(_, n)| &*n.tag == "ol").unwrap().0;
        assert!(served.subtree(trail).all(|i| !template[i]), "the trail is the page's");
        assert!(template[served.nodes().find(|(_, n)| &*n.tag == "nav").unwrap().0.index()], "the menu is template");
        let paper = Config::preset("paper").unwrap();
        assert!(cluster.apply(&paper, &served)[trail.index()], "the paper's method sees shapes only");
    }

    #[test]
    fn a_page_over_the_element_limit_is_not_served_from_memory() {
        let paper = Config::preset("paper").unwrap();
        let seen = page_a("h1 p p table( tr tr )");
        let key = page_a("h2 section( p p p ) ol( li li )");
        let learnt = full(&paper, &seen, &[page_a("h3"), page_a("pre pre"), page_a("blockquote( h4 )")]);
        let mut memory = Memory::new();
        for max_nodes in [seen.len(), key.len()] {
            let cfg = Config { max_nodes, ..paper.clone() };
            memory.learn("site", &cfg, &url("seen.html"), &seen, &learnt);
            let fits = memory.find("site", &cfg, &key).is_some();
            assert_eq!(fits, key.len() <= max_nodes, "limit {max_nodes}, page of {} elements", key.len());
        }
    }

    #[test]
    fn a_template_too_large_to_recall_in_one_go_is_not_remembered() {
        let cfg = Config::default();
        let items = "li ".repeat(MAX_SKELETON_NODES);
        let seen = tree(&format!("html( body( ul( {items}) ) )"));
        let mut memory = Memory::new();
        assert!(!memory.learn("site", &cfg, &url("big.html"), &seen, &vec![true; seen.len()]));
        assert!(!memory.learn("site", &cfg, &url("none.html"), &seen, &vec![false; seen.len()]), "nothing to serve");
        assert!(memory.sites.is_empty());
        let mut just_under = vec![false; seen.len()];
        just_under[..MAX_SKELETON_NODES].iter_mut().for_each(|t| *t = true);
        assert!(memory.learn("site", &cfg, &url("big.html"), &seen, &just_under));
        assert_eq!(memory.sites["site"].len(), 1);
    }

    #[test]
    fn a_different_layout_does_not_match() {
        let cfg = Config::default();
        let seen = page_a("h1 p p");
        let mut memory = Memory::new();
        memory.learn("site", &cfg, &url("seen.html"), &seen, &vec![true; seen.len()]);
        let other = tree("html( body( div#app( div.grid( div.card( img h3 p ) div.card( img h3 p ) ) ) ) )");
        assert_eq!(memory.find("site", &cfg, &other), None);
        assert_eq!(memory.find("another-site", &cfg, &seen), None, "clusters belong to one site");
        let paper = Config::preset("paper").unwrap();
        assert_eq!(memory.find("site", &paper, &seen), None, "another configuration does not reuse it");
    }

    #[test]
    fn a_page_without_the_whole_template_does_not_match() {
        let cfg = Config::default();
        let seen = page_a("h1 p p");
        let mut memory = Memory::new();
        memory.learn("site", &cfg, &url("seen.html"), &seen, &vec![true; seen.len()]);
        let no_sidebar = tree("html( head( title ) body( header#top( nav.menu( a a a ) ) div.wrap( main#content( h1 p p ) ) footer.foot( p ) ) )");
        let (_, similarity) = memory.closest("site", &cfg, &no_sidebar).unwrap();
        assert!(similarity >= SAME_LAYOUT, "close layout ({similarity}), but the sidebar is missing");
        assert_eq!(memory.find("site", &cfg, &no_sidebar), None);
    }

    #[test]
    fn recall_reuses_with_zero_loads_and_learns_otherwise() {
        use crate::candidates::page_source::tests::MemorySource;
        let cfg = Config {
            content: crate::base::config::Content { enabled: false, ..Default::default() },
            ..Config::default()
        };
        let source = MemorySource::new(&[
            ("a", &["b", "c", "d"]),
            ("b", &["a", "c", "d"]),
            ("c", &["a", "b", "d"]),
            ("d", &["a", "b", "c"]),
        ]);
        let load = |p: &str| futures::executor::block_on(source.load(&url(p))).unwrap();
        let mut memory = Memory::new();
        let first = futures::executor::block_on(memory.recall("s", &cfg, &source, &load("a"))).unwrap();
        assert!(matches!(first, Recall::Extracted(_)));
        assert!(first.loads() > 0);
        let again = futures::executor::block_on(memory.recall("s", &cfg, &source, &load("b"))).unwrap();
        assert!(matches!(again, Recall::Reused { cluster: 0, .. }), "{again:?}");
        assert_eq!(again.loads(), 0);
        assert_eq!(memory.sites["s"][0].reused, 1);
        assert!(again.template()[0], "the root is template");
    }

    #[test]
    fn memory_round_trips_and_refuses_other_versions() {
        let cfg = Config::default();
        let seen = page_a("h1 p");
        let mut memory = Memory::new();
        memory.learn("http://site.local", &cfg, &url("x.html"), &seen, &vec![true; seen.len()]);
        let back = Memory::from_json(&memory.to_json()).unwrap();
        assert_eq!(back, memory);
        assert_eq!(back.sites["http://site.local"][0].skeleton_tree().unwrap().len(), seen.len());
        assert!(matches!(Memory::from_json(r#"{"version":99,"sites":{}}"#), Err(MemoryError::Version { found: 99 })));
        assert!(matches!(Memory::from_json("[1"), Err(MemoryError::Invalid(_))));
    }

    #[test]
    fn a_broken_skeleton_maps_nothing() {
        let cfg = Config::default();
        let seen = page_a("h1");
        let mut c = Cluster::learn(&cfg, &url("x.html"), &seen, &vec![true; seen.len()]);
        c.skeleton[1].parent = Some(7);
        assert!(c.skeleton_tree().is_none());
        assert!(c.apply(&cfg, &seen).iter().all(|&t| !t));
    }
}
