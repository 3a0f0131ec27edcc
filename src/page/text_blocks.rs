//! Where a page's text blocks stand ([`crate::page::dom::Node::block`]):
//! the index every comparison with the page asks whether a block stands
//! under a node. Built once per page and kept with its tree
//! (`Tree::text_blocks`): in a collection one stored page is compared
//! with many key pages. Read from each node's depth and block in document
//! order, so the tree's module can hold it without a circle.

/// One past the last node of every subtree (pre-order makes subtrees
/// ranges): a subtree ends where the next node no deeper than its root
/// starts. Read from the depths in one pass, without following each node's
/// child list (a step to the heap per node, on every page a collection loads).
/// `depths` are the nodes' depths in document order.
pub fn subtree_ends(depths: impl ExactSizeIterator<Item = u32>) -> Vec<u32> {
    let len = depths.len() as u32;
    let mut end = vec![len; len as usize];
    let mut open: Vec<(u32, u32)> = Vec::new();
    for (id, depth) in (0..len).zip(depths) {
        while let Some(&(_, at)) = open.last().filter(|(d, _)| *d >= depth) {
            end[at as usize] = id;
            open.pop();
        }
        open.push((depth, id));
    }
    end
}

/// Where a page's text blocks stand, to ask whether one stands under a
/// node: built once per page, however many trees are mapped onto it.
#[derive(Clone, Debug, Default)]
pub struct TextBlocks {
    ends: Vec<u32>,
    /// (block, node) of every element that owns a block, sorted: the places
    /// of one block are a run in document order. One sorted vector, not a
    /// map of lists: a list per distinct block was most of the building.
    places: Vec<(u64, u32)>,
}

impl TextBlocks {
    /// From each node's (depth, block) in document order.
    pub fn of(nodes: impl ExactSizeIterator<Item = (u32, u64)> + Clone) -> Self {
        let mut places: Vec<(u64, u32)> =
            (0..).zip(nodes.clone()).filter(|(_, (_, b))| *b != 0).map(|(i, (_, b))| (b, i)).collect();
        places.sort_unstable();
        Self { ends: subtree_ends(nodes.map(|(depth, _)| depth)), places }
    }

    /// Every block the page holds, once per element that owns it, in
    /// ascending order.
    pub fn blocks(&self) -> impl Iterator<Item = u64> + '_ {
        self.places.iter().map(|&(block, _)| block)
    }

    /// Whether block `text` stands in the subtree of node `n`.
    pub fn holds(&self, n: usize, text: u64) -> bool {
        let first = self.places.partition_point(|&place| place < (text, n as u32));
        self.places.get(first).is_some_and(|&(block, p)| block == text && p < self.ends[n])
    }
}
