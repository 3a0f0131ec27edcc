//! The order in which candidate links are explored (thesis §2.2.4):
//! link relevance (Def. 2.2.12) first, DOM relevance (Def. 2.2.14) to break
//! its ties, combined by Alg. 1.

use url::Url;

use crate::dom::Tree;
use crate::dom_distance::d_distance;
use crate::hyperlink::{h_distance, Hyperlink, PageLink};

/// Sort key of link relevance: distance 0 first, then positive distances
/// from the nearest, then negative distances from the nearest.
pub fn link_relevance_key(hd: i32) -> (u8, u32) {
    if hd >= 0 {
        (0, hd as u32)
    } else {
        (1, hd.unsigned_abs())
    }
}

/// Alg. 1: groups the links by link relevance and orders each group by DOM
/// relevance.
///
/// The reference set of the DOM relevance order is ambiguous in the thesis
/// (Alg. 1 names the links sorted so far, Ex. 2.2.15 measures against every
/// other link). We read it as "the links already selected, across groups;
/// before any is selected, every other link of the page": each step picks the
/// link whose nearest selected link is farthest away (ties keep document
/// order). This reproduces Ex. 2.2.15 and follows the 2016 paper's wording
/// ("those links that are farer to the already selected links").
pub fn sort_links(tree: &Tree, key_url: &Url, links: &[PageLink]) -> Vec<PageLink> {
    let reference = Hyperlink::from_url(key_url);
    let mut keyed: Vec<((u8, u32), usize)> = links
        .iter()
        .enumerate()
        .map(|(i, l)| (link_relevance_key(h_distance(&reference, &Hyperlink::from_url(&l.url))), i))
        .collect();
    keyed.sort();

    let mut sorted: Vec<usize> = Vec::with_capacity(links.len());
    let mut start = 0;
    while start < keyed.len() {
        let end = start + keyed[start..].iter().take_while(|(k, _)| *k == keyed[start].0).count();
        let mut group: Vec<usize> = keyed[start..end].iter().map(|&(_, i)| i).collect();
        // Nearest distance from each group member to the reference set.
        let mut nearest: Vec<u32> = group
            .iter()
            .map(|&i| {
                let reference: Box<dyn Iterator<Item = usize>> = if sorted.is_empty() {
                    Box::new((0..links.len()).filter(move |&j| j != i))
                } else {
                    Box::new(sorted.iter().copied())
                };
                reference.map(|j| d_distance(tree, links[i].node, links[j].node)).min().unwrap_or(u32::MAX)
            })
            .collect();
        let mut first_pick_of_page = sorted.is_empty();
        while !group.is_empty() {
            let best = (0..group.len()).max_by_key(|&g| (nearest[g], std::cmp::Reverse(group[g]))).expect("non-empty");
            let chosen = group.remove(best);
            nearest.remove(best);
            sorted.push(chosen);
            if first_pick_of_page {
                // From now on the reference set is the selected links only.
                first_pick_of_page = false;
                nearest = group.iter().map(|&i| d_distance(tree, links[i].node, links[chosen].node)).collect();
            } else {
                for (g, &i) in group.iter().enumerate() {
                    nearest[g] = nearest[g].min(d_distance(tree, links[i].node, links[chosen].node));
                }
            }
        }
        start = end;
    }
    sorted.into_iter().map(|i| links[i].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::test_trees::tree;

    #[test]
    fn link_relevance_order_of_example_2_2_13() {
        let mut ds = [(2, "A2"), (-1, "A3"), (1, "A4"), (-1, "A5"), (1, "A6")];
        ds.sort_by_key(|&(d, _)| link_relevance_key(d));
        let names: Vec<&str> = ds.iter().map(|&(_, n)| n).collect();
        assert_eq!(names, ["A4", "A6", "A2", "A3", "A5"]);
        assert!(link_relevance_key(0) < link_relevance_key(5));
        assert!(link_relevance_key(9) < link_relevance_key(-1));
        assert!(link_relevance_key(-1) < link_relevance_key(-2));
    }

    /// Figure 2.16 is not in the text; this tree reproduces every DOM
    /// distance Ex. 2.2.15 lists between its links A1..A5.
    #[test]
    fn full_order_of_example_2_2_15() {
        let t = tree(
            "html( div( a[href=/news/world/europe/] ) \
                   div( p( a[href=/] span( a[href=/news/uk/] ) ) ) \
                   div( p( a[href=/sport/0/football/28497920/] ) ) \
                   div( p( a[href=/news/also_in_the_news/] ) ) )",
        );
        let key = Url::parse("http://www.bbc.com/news/").unwrap();
        let links = crate::hyperlink::page_links(&t, &key);
        let by = |p: &str| links.iter().find(|l| l.url.path() == p).unwrap().node;
        let (a1, a2, a3, a4, a5) = (
            by("/news/world/europe/"),
            by("/"),
            by("/news/uk/"),
            by("/sport/0/football/28497920/"),
            by("/news/also_in_the_news/"),
        );
        assert_eq!(
            [d_distance(&t, a3, a1), d_distance(&t, a3, a2), d_distance(&t, a3, a4), d_distance(&t, a3, a5)],
            [6, 3, 7, 7]
        );
        assert_eq!([d_distance(&t, a5, a1), d_distance(&t, a5, a2), d_distance(&t, a5, a4)], [5, 6, 6]);
        assert_eq!([d_distance(&t, a2, a1), d_distance(&t, a2, a4)], [5, 6]);
        assert_eq!(d_distance(&t, a4, a1), 5);
        let order: Vec<String> = sort_links(&t, &key, &links).iter().map(|l| l.url.path().to_string()).collect();
        assert_eq!(
            order,
            ["/news/also_in_the_news/", "/news/uk/", "/news/world/europe/", "/sport/0/football/28497920/", "/"]
        );
    }
}
