//! A site's pages grouped by layout, with the template memory's measure
//! (common root-to-element paths, [`SAME_LAYOUT`]): each page joins the
//! first group whose leader it resembles, else leads a new group. One pass,
//! pages times groups comparisons, and a site has few layouts.

use crate::memory::template_memory::{layout_similarity, SAME_LAYOUT};

/// Members compared with each other when choosing representatives: enough
/// to find a typical page, bounded so a 10,000-page group costs no more.
const SAMPLE: usize = 40;

/// Groups of page indexes, each in page order, in order of their leaders.
pub fn group_by_layout(layouts: &[&[u64]]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, layout) in layouts.iter().enumerate() {
        match groups.iter_mut().find(|g| layout_similarity(layouts[g[0]], layout) >= SAME_LAYOUT) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
}

/// The group's members to try as the page the template is learnt from,
/// most typical first: a page whose layout resembles the others' most is
/// the one whose template the rest of the group shares. Only an evenly
/// spread sample of a large group is ranked.
pub fn representatives(layouts: &[&[u64]], group: &[usize]) -> Vec<usize> {
    let step = group.len().div_ceil(SAMPLE).max(1);
    let sample: Vec<usize> = group.iter().step_by(step).copied().collect();
    let mut ranked: Vec<(f64, usize)> = sample
        .iter()
        .map(|&i| (sample.iter().map(|&j| layout_similarity(layouts[i], layouts[j])).sum::<f64>(), i))
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.into_iter().map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_of_one_layout_share_a_group_and_the_most_typical_leads() {
        let article: Vec<u64> = (0..10).collect();
        let article_extra: Vec<u64> = (0..11).collect();
        let article_odd: Vec<u64> = (0..8).chain([50, 51]).collect();
        let index: Vec<u64> = (100..110).collect();
        let layouts: Vec<&[u64]> = vec![&article_odd, &index, &article, &article_extra, &index];
        let groups = group_by_layout(&layouts);
        assert_eq!(groups, vec![vec![0, 2, 3], vec![1, 4]]);
        assert_eq!(representatives(&layouts, &groups[0])[0], 2, "closest to both others");
    }
}
