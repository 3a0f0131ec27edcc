//! Which loaded pages share the key page's layout?
//!
//! Mutual links make a complete subdigraph likely to share the template, not
//! certain: an article links to the home page and to its category listing,
//! which link to each other, and these listings then outvote the article's
//! own frame (share bar, byline, comments box). Every page loaded during the
//! search has been parsed and compared anyway, so the agreement of each with
//! the key page is free to measure: the share of the key's nodes its
//! (content-checked) mapping keeps. Zeleny & Burget cluster a site's pages
//! by template the same way; here only the key page's cluster matters.
//!
//! On real sites the site-wide template is most of every page, so raw
//! shares differ little between an article and a listing. What tells them
//! apart is the part above the *core*, the key nodes every loaded page
//! keeps: a page of the key's layout also keeps the layout's own frame.

/// One loaded page's agreement with the key page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agreement {
    /// The complete subdigraph search chose it.
    pub in_cs: bool,
    /// Its address follows the key page's URL pattern (a sibling in the
    /// site's tree of addresses): the likeliest page of the key's layout.
    pub sibling: bool,
    /// Share of the key page's nodes mapped into this page, 0 to 1.
    pub share: f64,
    /// The key page itself (or a copy), reached through an address the
    /// links do not reveal as its own: it agrees fully by definition, so it
    /// neither sets the bar nor votes (it would vote for the content too).
    pub itself: bool,
}

/// Below this spread between the core and the best page, as a share of the
/// best page's share, every loaded page is taken as one layout: there is no
/// layout-specific frame to tell by, only noise.
const ONE_LAYOUT_SPREAD: f64 = 0.05;

/// The pages of the key page's layout, as indexes into `pages`: URL
/// siblings of the key first (a listing or a translation can keep as much
/// of an article's nodes as another article does, a sibling is of its kind),
/// CS members next, then in the order they were loaded (the method's own
/// order, not by share: the best-agreeing pages are often those that share
/// content too, such as the same related products):
/// their share above `core` (the share every page keeps) is at least
/// `ratio` of the best page's.
pub fn peers(pages: &[Agreement], core: f64, ratio: f64) -> Vec<usize> {
    let best = pages.iter().filter(|p| !p.itself).map(|p| p.share).fold(0.0, f64::max);
    let spread = best - core;
    let mut peers: Vec<usize> = (0..pages.len())
        .filter(|&i| !pages[i].itself && (spread < ONE_LAYOUT_SPREAD * best || pages[i].share - core >= ratio * spread))
        .collect();
    peers.sort_by_key(|&i| (!pages[i].sibling, !pages[i].in_cs, i));
    peers
}

/// How many of the key's layout have been found, for the search for more:
/// while the key page links to more pages of its URL pattern
/// (`siblings_left`), only its URL siblings count. A home page, a category
/// and an author page built alike agree with an article as much as with one
/// another and all pass for its layout; the articles it links to vote
/// before them once loaded.
pub fn found(pages: &[Agreement], core: f64, ratio: f64, siblings_left: bool) -> usize {
    let peers = peers(pages, core, ratio);
    if siblings_left {
        peers.iter().filter(|&&i| pages[i].sibling).count()
    } else {
        peers.len()
    }
}

/// Fewest of the key's nodes a URL sibling keeps above the core to stand
/// beside a lone voter: a page that keeps only the site-wide frame (an
/// about page beside a post) is of another layout however close the
/// other siblings come.
const SIBLING_NODES: usize = 10;

/// The pages that vote, as indexes into `pages` in processing order: the
/// first `wanted` [`peers`]. Pages of another layout never vote,
/// even when that leaves fewer voters: they would outvote the key's own
/// frame. Copies of the key never vote. `key_nodes` is the key page's size.
pub fn voters(pages: &[Agreement], core: f64, wanted: usize, ratio: f64, key_nodes: usize) -> Vec<usize> {
    let mut chosen = peers(pages, core, ratio);
    if let [alone] = chosen[..] {
        chosen.extend(siblings_beside(pages, core, ratio, alone, key_nodes));
    }
    chosen.truncate(wanted);
    chosen.sort_unstable();
    chosen
}

/// When one page alone clears the bar, it most likely shares the key's
/// content too (an API reference's sister class, whose inherited members
/// are the key's): the bar it set says nothing of the layout, and one
/// voter would call that content template. The key's other URL siblings
/// that keep [`SIBLING_NODES`] above the core are measured against the
/// best of them instead, as [`peers`] measures against the best page.
fn siblings_beside(pages: &[Agreement], core: f64, ratio: f64, alone: usize, key_nodes: usize) -> Vec<usize> {
    let floor = core + SIBLING_NODES as f64 / key_nodes.max(1) as f64;
    let others: Vec<usize> = (0..pages.len())
        .filter(|&i| i != alone && !pages[i].itself && pages[i].sibling && pages[i].share >= floor)
        .collect();
    let best = others.iter().map(|&i| pages[i].share).fold(core, f64::max);
    others.into_iter().filter(|&i| pages[i].share - core >= ratio * (best - core)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(share: f64) -> Agreement {
        Agreement { in_cs: false, sibling: false, share, itself: false }
    }

    #[test]
    fn listings_that_share_only_the_core_give_way_to_pages_of_the_key_pages_layout() {
        // Home and category listing keep the site-wide core (0.44); the
        // articles keep the article frame too.
        let pages = [page(0.44), page(0.85), page(0.43), page(0.80), page(0.45)];
        assert_eq!(peers(&pages, 0.43, 0.5), vec![1, 3]);
        assert_eq!(voters(&pages, 0.43, 3, 0.5, 100), vec![1, 3], "the articles alone");
    }

    #[test]
    fn the_complete_subdigraph_goes_first_among_peers() {
        let mut pages = [page(0.9), page(0.8), page(0.85), page(0.3)];
        pages[1].in_cs = true;
        pages[2].in_cs = true;
        assert_eq!(peers(&pages, 0.3, 0.5), vec![1, 2, 0]);
        assert_eq!(voters(&pages, 0.3, 2, 0.5, 100), vec![1, 2], "the best-agreeing page may share content too");
    }

    #[test]
    fn url_siblings_go_before_the_complete_subdigraph() {
        let mut pages = [page(0.7), page(0.65), page(0.8), page(0.78)];
        pages[0].in_cs = true;
        pages[1].in_cs = true;
        pages[2].sibling = true;
        pages[3].sibling = true;
        assert_eq!(voters(&pages, 0.3, 2, 0.3, 100), vec![2, 3], "a translation and a listing in the CS wait");
        assert_eq!(voters(&pages, 0.3, 3, 0.3, 100), vec![0, 2, 3]);
    }

    #[test]
    fn only_url_siblings_count_as_found_while_the_key_links_to_more() {
        // Three listings built alike: one layout, all peers.
        let mut pages = [page(0.5), page(0.51), page(0.5), page(0.8)];
        assert_eq!(found(&pages[..3], 0.5, 0.3, false), 3);
        assert_eq!(found(&pages[..3], 0.5, 0.3, true), 0, "the articles the key links to are sought");
        pages[3].sibling = true;
        assert_eq!(found(&pages, 0.5, 0.3, true), 1);
        assert_eq!(found(&pages, 0.5, 0.3, false), 1, "the listings fall below the article's frame");
    }

    #[test]
    fn pages_of_one_layout_are_all_peers() {
        let pages = [page(0.160), page(0.161), page(0.158), page(0.16)];
        assert_eq!(peers(&pages, 0.158, 0.5), vec![0, 1, 2, 3]);
        assert_eq!(voters(&pages, 0.158, 3, 0.5, 100), vec![0, 1, 2]);
    }

    #[test]
    fn a_lone_voter_that_shares_the_content_is_joined_by_the_keys_url_siblings() {
        let sibling = |share: f64| Agreement { sibling: true, ..page(share) };
        // A sister class keeps the inherited members too; two more classes
        // keep the reference's frame; a listing keeps the core only.
        let pages = [sibling(0.10), page(0.03), sibling(0.05), sibling(0.045), page(0.031)];
        assert_eq!(peers(&pages, 0.03, 0.3), vec![0], "one page clears the bar");
        assert_eq!(voters(&pages, 0.03, 3, 0.3, 2000), vec![0, 2, 3]);
        assert_eq!(voters(&pages, 0.03, 3, 0.3, 200), vec![0], "two or three nodes above the core are no layout");
    }

    #[test]
    fn a_copy_of_the_key_page_never_votes() {
        let copy = Agreement { in_cs: true, sibling: false, share: 1.0, itself: true };
        let pages = [copy, page(0.5), page(0.45), page(0.4)];
        assert_eq!(
            voters(&pages, 0.3, 3, 0.5, 100),
            vec![1, 2, 3],
            "the copy gives way to the next page of the layout"
        );
    }
}
