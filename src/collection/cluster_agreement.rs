//! What a cluster's representatives agree on, added to a page's own
//! extraction.
//!
//! A page's own extraction (the full method with the collection as page
//! source) sees how its layout's parts recur on the pages it links to, but
//! misses a part its candidates happen to lack or show differently (a
//! section's menu, a footer line that names the page). The templates learnt
//! on the cluster's representatives see other neighbourhoods of the same
//! layout: a node most of their skeletons map onto is template on this page
//! too. Two limits keep that evidence honest:
//!
//! * a majority, not any one skeleton: one representative whose neighbours
//!   showed the same mini-cart or the same related products would otherwise
//!   make them template everywhere;
//! * a list the page's own comparison found to vary (an item it kept as
//!   content) stays as it judged: the representatives cannot see how this
//!   page's replies, products or cart items differ from its neighbours'.

use crate::config::Config;
use crate::dom::Tree;
use crate::template_memory::PreparedCluster;
use crate::text_recurrence::lists;

/// Nodes onto which the skeletons of more than half of the representatives
/// map; each cluster comes with the number of representatives that learnt
/// its skeleton.
pub fn majority(cfg: &Config, clusters: &[(PreparedCluster, usize)], tree: &Tree) -> Vec<bool> {
    let mut votes = vec![0usize; tree.len()];
    for (c, learnt_by) in clusters {
        for (v, mapped) in votes.iter_mut().zip(c.apply(cfg, tree)) {
            *v += learnt_by * usize::from(mapped);
        }
    }
    let representatives: usize = clusters.iter().map(|(_, n)| n).sum();
    votes.into_iter().map(|v| 2 * v > representatives).collect()
}

/// The page's own template with what the majority adds, except inside a
/// list one of whose items the page's own extraction kept as content.
pub fn joined(tree: &Tree, own: &[bool], mut majority: Vec<bool>) -> Vec<bool> {
    for list in lists(tree) {
        if list.iter().any(|n| !own[n.index()]) {
            for item in list {
                majority[tree.subtree(item)].iter_mut().for_each(|m| *m = false);
            }
        }
    }
    own.iter().zip(majority).map(|(&o, m)| o || m).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::{parse, snapshot};

    #[test]
    fn the_majority_adds_nodes_but_not_into_a_list_the_page_found_varying() {
        let t = snapshot(&parse(
            "<html><body><header><a href=/x>X</a><span>tagline</span></header>\
             <ul><li class=i>one</li><li class=i>two</li><li class=i>three</li></ul>\
             <footer><p>f</p></footer></body></html>",
        ))
        .unwrap();
        let find = |tag: &str| t.nodes().filter(|(_, n)| &*n.tag == tag).map(|(id, _)| id.index()).collect::<Vec<_>>();
        let (lis, ps, spans) = (find("li"), find("p"), find("span"));
        let mut own = vec![true; t.len()];
        own[lis[0]] = false; // the page's own comparison kept one item as content
        own[ps[0]] = false; // and missed the footer's line
        own[spans[0]] = false; // and the header's tagline
        let result = joined(&t, &own, vec![true; t.len()]);
        assert!(result[ps[0]] && result[spans[0]], "what the majority agrees on is added");
        assert!(!result[lis[0]], "the varying list stays as the page judged it");
        assert!(result[lis[1]] && result[lis[2]], "items the page kept stay template");
        let nothing = joined(&t, &own, vec![false; t.len()]);
        assert_eq!(nothing, own, "without agreement the page's own template stands");
    }
}
