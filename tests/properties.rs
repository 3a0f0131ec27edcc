//! Properties of the mappings and the template on random trees.

use proptest::prelude::*;
use template_extractor::base::config::{Algorithm, Config};
use template_extractor::compare::mapping::{etdm, Mapping};
use template_extractor::compare::repeated_lists::{etdm_remembering, ListSignatures, RepeatedLists};
use template_extractor::decide::template::{is_top_down_closed, map_page, template};
use template_extractor::page::dom::{NodeId, Tree, TreeBuilder};

/// A random element: tag, optional class, children.
#[derive(Clone, Debug)]
struct Spec {
    tag: &'static str,
    class: Option<&'static str>,
    children: Vec<Spec>,
}

fn spec() -> impl Strategy<Value = Spec> {
    let leaf = (
        prop::sample::select(vec!["div", "p", "a", "li", "span"]),
        prop::option::of(prop::sample::select(vec!["x", "y", "z"])),
    )
        .prop_map(|(tag, class)| Spec { tag, class, children: vec![] });
    leaf.prop_recursive(4, 60, 6, |inner| {
        (
            prop::sample::select(vec!["div", "ul", "nav", "section"]),
            prop::option::of(prop::sample::select(vec!["x", "y", "z"])),
            prop::collection::vec(inner, 0..6),
        )
            .prop_map(|(tag, class, children)| Spec { tag, class, children })
    })
}

fn build(body: &[Spec]) -> Tree {
    fn add(b: &mut TreeBuilder, s: &Spec) {
        match s.class {
            Some(c) => b.open(s.tag, [("class", c)]),
            None => b.open(s.tag, []),
        };
        for c in &s.children {
            add(b, c);
        }
        b.close();
    }
    let mut b = TreeBuilder::new();
    b.open("html", []);
    b.open("body", []);
    for s in body {
        add(&mut b, s);
    }
    b.close();
    b.close();
    b.finish().unwrap()
}

fn assert_mapping_laws(key: &Tree, other: &Tree, m: &Mapping) {
    let mut seen = std::collections::HashSet::new();
    for (a, b) in m.pairs() {
        assert!(seen.insert(b), "one-to-one: {b:?} is the image of two nodes");
        assert!(b.index() < other.len());
        match (key.node(a).parent, other.node(b).parent) {
            (Some(pa), Some(pb)) => assert_eq!(m.image(pa), Some(pb), "top-down"),
            (None, None) => {}
            _ => panic!("a root maps only to a root"),
        }
    }
    for (id, _) in key.nodes() {
        let kids: Vec<(NodeId, NodeId)> = key.children(id).iter().filter_map(|&c| m.image(c).map(|i| (c, i))).collect();
        for w in kids.windows(2) {
            assert!(other.node(w[0].1).child_index < other.node(w[1].1).child_index, "order-preserving");
        }
    }
}

fn configs() -> [Config; 2] {
    [Config::default(), Config { algorithm: Algorithm::Rtdm, ..Config::default() }]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn mappings_are_one_to_one_top_down_and_ordered(a in prop::collection::vec(spec(), 0..5), b in prop::collection::vec(spec(), 0..5)) {
        let (key, other) = (build(&a), build(&b));
        for cfg in configs() {
            assert_mapping_laws(&key, &other, &map_page(&cfg, &key, &other));
        }
    }

    /// Keys alike in most lists (one base and variants of it), mapped onto
    /// one page one after another, each list mapped once.
    #[test]
    fn remembered_lists_give_the_mapping_etdm_gives(base in prop::collection::vec(spec(), 1..5), extra in spec(), page in prop::collection::vec(spec(), 0..5)) {
        let mut variant = base.clone();
        variant[0].children.push(extra.clone());
        let keys = [build(&base), build(&variant), build(&base), build(&[&base[..], &[extra]].concat())];
        let other = build(&page);
        let cfg = Config::default();
        let mut lists = RepeatedLists::default();
        for key in &keys {
            prop_assert_eq!(etdm_remembering(&cfg, key, &ListSignatures::of(key), &other, &mut lists), etdm(&cfg, key, &other));
        }
    }

    #[test]
    fn templates_are_top_down_closed(a in prop::collection::vec(spec(), 0..4), cs in prop::collection::vec(prop::collection::vec(spec(), 0..4), 1..4)) {
        let key = build(&a);
        let cands: Vec<Tree> = cs.iter().map(|c| build(c)).collect();
        for cfg in configs() {
            let ms: Vec<Mapping> = cands.iter().map(|c| map_page(&cfg, &key, c)).collect();
            prop_assert!(is_top_down_closed(&key, &template(&cfg, &key, &ms)));
        }
    }

    #[test]
    fn identical_pages_make_every_node_template(a in prop::collection::vec(spec(), 0..5)) {
        let key = build(&a);
        for cfg in configs() {
            let ms: Vec<Mapping> = (0..3).map(|_| map_page(&cfg, &key, &key.clone())).collect();
            prop_assert!(template(&cfg, &key, &ms).iter().all(|&t| t));
        }
    }
}
