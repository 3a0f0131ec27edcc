//! Several skeletons mapped onto one page: a collection serves each page of
//! a cluster from up to five representatives' skeletons, learnt from pages
//! of one layout and alike in most of their lists (the menus, the footer).
//! A sibling list of a skeleton that another skeleton already mapped from
//! the same page node, under the same state markers, maps as it did then:
//! [`etdm_remembering`] takes that list's pairs from a [`RepeatedLists`]
//! instead of comparing its siblings again, and gives the mapping [`etdm`]
//! gives. The same holds across extractions: a collection's store keeps the
//! lists mapped onto each page its extractions load again and again, and
//! key pages of one layout share their template's lists.
//!
//! [`etdm`]: crate::compare::mapping::etdm

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;

use crate::base::config::Config;
use crate::compare::mapping::{has_lists, map_siblings, Mapping};
use crate::compare::state_marker::{moving, StateMarkers};
use crate::page::dom::{NodeId, Tree};
use crate::page::mixed_hash::Mix;

/// For each node of a key tree, a hash of everything the mapping of its
/// children reads of the key tree: each child's tag, id, text, text block
/// and its words, classes, attributes and child count, and the same of its descendants two levels
/// down (where the state markers look), in order. Two nodes with equal
/// hashes have children lists that map alike onto any list.
pub struct ListSignatures(Vec<u64>);

impl ListSignatures {
    pub fn of(tree: &Tree) -> Self {
        let own: Vec<u64> = tree
            .nodes()
            .map(|(_, n)| {
                hash(&(&*n.tag, &n.id, n.text, n.block, n.words, &n.classes, &n.attributes, n.children.len()))
            })
            .collect();
        // The node's own word (none for the list itself), then its children's.
        let below = |own: Option<u64>, level: &[u64], n: NodeId| {
            let mut h = Mix::default();
            own.into_iter().for_each(|w| h.write_u64(w));
            tree.children(n).iter().for_each(|c| h.write_u64(level[c.index()]));
            h.finish()
        };
        let one: Vec<u64> = tree.nodes().map(|(id, _)| below(Some(own[id.index()]), &own, id)).collect();
        let two: Vec<u64> = tree.nodes().map(|(id, _)| below(Some(own[id.index()]), &one, id)).collect();
        ListSignatures(tree.nodes().map(|(id, _)| below(None, &two, id)).collect())
    }
}

fn hash(value: &impl Hash) -> u64 {
    let mut h = Mix::default();
    value.hash(&mut h);
    h.finish()
}

/// The lists mapped onto one page so far: (key list, page node, inherited
/// markers) → the pairs as positions in the key list, and the markers below.
#[derive(Default)]
pub struct RepeatedLists {
    mapped: HashMap<(u64, NodeId, u64), Arc<MappedList>, BuildHasherDefault<Mix>>,
}

impl RepeatedLists {
    /// Lists remembered.
    pub fn len(&self) -> usize {
        self.mapped.len()
    }

    pub fn is_empty(&self) -> bool {
        self.mapped.is_empty()
    }
}

struct MappedList {
    pairs: Vec<(u32, NodeId)>,
    markers: StateMarkers,
}

/// [`etdm`](crate::compare::mapping::etdm) of `key` (whose [`ListSignatures`] are
/// `signatures`) onto `other`, each list mapped before onto `other` taken
/// from `lists`. Lists are independent of one another: a list's pairs depend
/// only on its two sibling lists and the markers its ancestors leave out.
pub fn etdm_remembering(
    cfg: &Config,
    key: &Tree,
    signatures: &ListSignatures,
    other: &Tree,
    lists: &mut RepeatedLists,
) -> Mapping {
    let mut mapping = Mapping::empty(key.len());
    if key.is_empty() || other.is_empty() || key.node(NodeId::ROOT).tag != other.node(NodeId::ROOT).tag {
        return mapping;
    }
    mapping.set(NodeId::ROOT, NodeId::ROOT);
    let mut stack = vec![(NodeId::ROOT, NodeId::ROOT, StateMarkers::NONE)];
    while let Some((a, b, inherited)) = stack.pop() {
        let (s1, s2) = (key.children(a), other.children(b));
        let list = lists
            .mapped
            .entry((signatures.0[a.index()], b, if inherited.is_empty() { 0 } else { hash(&inherited) }))
            .or_insert_with(|| {
                let markers =
                    if cfg.equality.state_markers { moving(key, s1, other, s2, &inherited) } else { inherited };
                let pairs = map_siblings(cfg, key, s1, other, s2, &markers);
                let position = |c: NodeId| key.node(c).child_index;
                Arc::new(MappedList { pairs: pairs.into_iter().map(|(c1, c2)| (position(c1), c2)).collect(), markers })
            })
            .clone();
        for &(i, c2) in &list.pairs {
            let c1 = s1[i as usize];
            mapping.set(c1, c2);
            if has_lists(key, c1, other, c2) {
                stack.push((c1, c2, list.markers.clone()));
            }
        }
    }
    mapping
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::mapping::etdm;
    use crate::page::html::{parse, snapshot};

    /// A page whose menu marks `current` as its own, with `extra` after the menu.
    fn page(current: usize, extra: &str) -> Tree {
        let menu: String = (0..4)
            .map(|i| format!("<li{}><a href=/{i}>Entry {i}</a></li>", if i == current { " class=active" } else { "" }))
            .collect();
        snapshot(&parse(&format!(
            "<nav><ul>{menu}</ul></nav>{extra}<main><p>Text {current}</p></main><footer><p>Foot</p></footer>"
        )))
        .unwrap()
    }

    #[test]
    fn lists_mapped_before_map_as_etdm_maps_them_and_are_taken_not_compared_again() {
        let cfg = Config::default();
        let other = page(2, "<aside><p>Side</p></aside>");
        let keys = [page(0, ""), page(0, "<aside><p>Side</p></aside>"), page(1, ""), page(0, "")];
        let mut lists = RepeatedLists::default();
        let mut sizes = Vec::new();
        for key in &keys {
            let remembered = etdm_remembering(&cfg, key, &ListSignatures::of(key), &other, &mut lists);
            assert_eq!(remembered, etdm(&cfg, key, &other));
            sizes.push(lists.mapped.len());
        }
        assert!(sizes[0] > 0 && sizes[1] > sizes[0], "the aside's lists are new: {sizes:?}");
        assert!(sizes[2] > sizes[1], "another current item is another menu list: {sizes:?}");
        assert_eq!(sizes[3], sizes[2], "the first key again compares nothing: {sizes:?}");
    }
}
