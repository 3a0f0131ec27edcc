//! A snapshot packed into bytes while its page waits in a site's store: a
//! [`Tree`] spends about 300 bytes per element (heap strings and lists per
//! element), ten times a small page's HTML, while the packed
//! form spends about 30. Unpacking costs a fraction of parsing the page
//! again, and gives the very same tree (links, positions and depths are
//! derived from the parents, in the same order the snapshot made them).

use std::collections::HashMap;
use std::sync::Arc;

use crate::page::dom::{Gold, Node, NodeId, Tree};

/// A tree's distinct tags, then its nodes, field by field, in document
/// order, each node's tag as an index into them: an unpacked tree shares one
/// string per distinct tag instead of allocating one per element.
pub struct PackedTree {
    bytes: Box<[u8]>,
    len: usize,
}

const NOFOLLOW: u8 = 1;
const NOT_TEMPLATE: u8 = 2;
const MAIN_CONTENT: u8 = 4;
const HAS_TEXT: u8 = 8;
const HAS_BLOCK: u8 = 16;
const TRAIL: u8 = 32;

impl PackedTree {
    pub fn pack(tree: &Tree) -> PackedTree {
        let mut out = Vec::with_capacity(32 * tree.len());
        put_str(&mut out, tree.base_href());
        let mut tags: HashMap<&str, u64> = HashMap::new();
        let mut distinct = Vec::new();
        let tag_of: Vec<u64> = tree
            .nodes()
            .map(|(_, n)| {
                *tags.entry(&n.tag).or_insert_with(|| {
                    distinct.push(&*n.tag);
                    distinct.len() as u64 - 1
                })
            })
            .collect();
        put_varint(&mut out, distinct.len() as u64);
        distinct.iter().for_each(|tag| put_str(&mut out, Some(tag)));
        for ((_, n), tag) in tree.nodes().zip(tag_of) {
            put_varint(&mut out, tag);
            put_str(&mut out, n.id.as_deref());
            put_str(&mut out, n.href.as_deref());
            put_hashes(&mut out, &n.classes);
            put_hashes(&mut out, &n.attributes);
            let flags = [
                (n.nofollow, NOFOLLOW),
                (n.gold.not_template, NOT_TEMPLATE),
                (n.gold.main_content, MAIN_CONTENT),
                (n.text != 0, HAS_TEXT),
                (n.block != 0, HAS_BLOCK),
                (n.trail, TRAIL),
            ]
            .into_iter()
            .filter(|&(set, _)| set)
            .fold(0, |flags, (_, bit)| flags | bit);
            out.push(flags);
            put_varint(&mut out, n.parent.map_or(0, |p| u64::from(p.0) + 1));
            put_varint(&mut out, n.children.len() as u64);
            put_varint(&mut out, u64::from(n.same_tag_position));
            put_varint(&mut out, u64::from(n.words));
            for hash in [n.text, n.block].into_iter().filter(|&h| h != 0) {
                out.extend_from_slice(&hash.to_le_bytes());
            }
        }
        PackedTree { bytes: out.into_boxed_slice(), len: tree.len() }
    }

    /// Elements of the tree as it was packed.
    pub fn elements(&self) -> usize {
        self.len
    }

    /// The tree as it was packed.
    pub fn unpack(&self) -> Tree {
        let mut r = Reader { bytes: &self.bytes, at: 0 };
        let base_href = r.str();
        let tags: Vec<Arc<str>> = (0..r.varint()).map(|_| r.str().unwrap_or_default().into()).collect();
        let mut nodes: Vec<Node> = Vec::with_capacity(self.len);
        for i in 0..self.len {
            let tag = tags[r.varint() as usize].clone();
            let (id, href) = (r.str(), r.str());
            let (classes, attributes) = (r.hashes(), r.hashes());
            let flags = r.byte();
            let parent = r.varint().checked_sub(1).map(|p| NodeId(p as u32));
            // Each child list allocated once at its size: growing them as
            // children arrive was a tenth of a load's time on small pages.
            let children = Vec::with_capacity(r.varint() as usize);
            let same_tag_position = r.varint() as u32;
            let words = r.varint() as u32;
            let text = if flags & HAS_TEXT != 0 { r.u64() } else { 0 };
            let block = if flags & HAS_BLOCK != 0 { r.u64() } else { 0 };
            let (mut child_index, mut depth) = (0, 1);
            if let Some(p) = parent {
                let parent_node = &mut nodes[p.index()];
                child_index = parent_node.children.len() as u32;
                depth = parent_node.depth + 1;
                parent_node.children.push(NodeId(i as u32));
            }
            nodes.push(Node {
                tag,
                id,
                classes,
                attributes,
                href,
                nofollow: flags & NOFOLLOW != 0,
                parent,
                children,
                child_index,
                same_tag_position,
                depth,
                text,
                block,
                words,
                trail: flags & TRAIL != 0,
                gold: Gold { not_template: flags & NOT_TEMPLATE != 0, main_content: flags & MAIN_CONTENT != 0 },
            });
        }
        Tree::from_complete_nodes(nodes, base_href).expect("a packed tree has nodes")
    }

    /// Bytes held.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A string as its length plus one (0: none) and its bytes.
fn put_str(out: &mut Vec<u8>, s: Option<&str>) {
    put_varint(out, s.map_or(0, |s| s.len() as u64 + 1));
    out.extend_from_slice(s.unwrap_or("").as_bytes());
}

fn put_hashes(out: &mut Vec<u8>, hashes: &[u64]) {
    put_varint(out, hashes.len() as u64);
    hashes.iter().for_each(|h| out.extend_from_slice(&h.to_le_bytes()));
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        self.at += 1;
        self.bytes[self.at - 1]
    }

    fn varint(&mut self) -> u64 {
        let (mut v, mut shift) = (0u64, 0);
        loop {
            let b = self.byte();
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return v;
            }
            shift += 7;
        }
    }

    fn u64(&mut self) -> u64 {
        self.at += 8;
        u64::from_le_bytes(self.bytes[self.at - 8..self.at].try_into().expect("eight bytes"))
    }

    fn str(&mut self) -> Option<Box<str>> {
        let len = (self.varint() as usize).checked_sub(1)?;
        self.at += len;
        Some(std::str::from_utf8(&self.bytes[self.at - len..self.at]).expect("packed from a str").into())
    }

    fn hashes(&mut self) -> Box<[u64]> {
        let n = self.varint() as usize;
        (0..n).map(|_| self.u64()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::html::{parse, snapshot};

    #[test]
    fn unpacking_gives_the_tree_that_was_packed() {
        let tree = snapshot(&parse(
            "<base href='/docs/'><body class='a b notTemplate'><nav id=menu><a href=x rel=nofollow>One</a>\
             <a href=y>Two</a><a href=z data-k=1>Three 42</a></nav><main class=mainContent><p>Some <em>text</em>\
             here</p><p></p><ul><li>a<li>b<li>c</ul></main><footer id=Breadcrumbs>Foot</footer></body>",
        ))
        .unwrap();
        let packed = PackedTree::pack(&tree);
        assert_eq!(format!("{:?}", packed.unpack()), format!("{tree:?}"));
        assert!(packed.size() < 40 * tree.len(), "{} bytes for {} elements", packed.size(), tree.len());
    }
}
