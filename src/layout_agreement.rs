//! Which loaded pages share the key page's layout?
//!
//! Mutual links make a complete subdigraph likely to share the template, not
//! certain: an archive's message page and its index pages link to each
//! other but are built differently, and the indexes then outvote the only
//! message page in the CS. Every page loaded during the search has been
//! parsed anyway, so the agreement of each with the key page is free to
//! measure: the share of the key's nodes its (content-checked) mapping
//! keeps. Zeleny & Burget cluster a site's pages by template the same way;
//! here only the key page's cluster matters, so a threshold relative to the
//! best-agreeing page is enough.

/// One loaded page: whether the CS search chose it, and its agreement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agreement {
    pub in_cs: bool,
    /// Share of the key page's nodes mapped into this page, 0 to 1.
    pub share: f64,
    /// The key page itself (or a copy), reached through a link to its own
    /// address or an alias of it: it agrees fully by definition, so it
    /// neither sets the bar nor is held to it.
    pub itself: bool,
}

/// The pages that vote, as indexes into `pages`: the CS members that share
/// the key page's layout (agreement at least `ratio` of the best loaded
/// page's), topped up to `wanted` with the best-agreeing other loaded pages
/// of that layout. With `ratio` 0 this is exactly the CS.
pub fn voters(pages: &[Agreement], wanted: usize, ratio: f64) -> Vec<usize> {
    let best = pages.iter().filter(|p| !p.itself).map(|p| p.share).fold(0.0, f64::max);
    let alike = |p: &Agreement| p.itself || p.share >= ratio * best;
    let mut chosen: Vec<usize> = (0..pages.len()).filter(|&i| pages[i].in_cs && alike(&pages[i])).collect();
    let mut others: Vec<usize> = (0..pages.len()).filter(|&i| !pages[i].in_cs && alike(&pages[i])).collect();
    others.sort_by(|&a, &b| pages[b].share.total_cmp(&pages[a].share).then(a.cmp(&b)));
    let missing = wanted.saturating_sub(chosen.len());
    chosen.extend(others.into_iter().take(missing));
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(in_cs: bool, share: f64) -> Agreement {
        Agreement { in_cs, share, itself: false }
    }

    #[test]
    fn candidates_of_a_different_layout_give_way_to_loaded_pages_of_the_key_pages_layout() {
        let pages = [page(true, 0.41), page(true, 0.05), page(false, 0.40), page(true, 0.05), page(false, 0.04)];
        assert_eq!(voters(&pages, 3, 0.5), vec![0, 2], "the two index pages are dropped, the other message page joins");
    }

    #[test]
    fn a_cs_of_one_layout_stays_as_it_is() {
        let pages = [page(true, 0.35), page(false, 0.60), page(true, 0.30), page(true, 0.33)];
        assert_eq!(voters(&pages, 3, 0.5), vec![0, 2, 3], "no loaded page is added while the CS is full");
        assert_eq!(voters(&pages, 3, 0.0), vec![0, 2, 3]);
    }

    #[test]
    fn a_partial_cs_is_topped_up_with_the_best_agreeing_pages() {
        let pages = [page(true, 0.5), page(false, 0.3), page(false, 0.45), page(true, 0.45), page(false, 0.44)];
        assert_eq!(voters(&pages, 3, 0.5), vec![0, 2, 3]);
        assert_eq!(voters(&pages, 4, 0.5), vec![0, 2, 3, 4]);
    }
}
