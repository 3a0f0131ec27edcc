//! Dead links come in families. A partial copy of a site that lacks one
//! month's archive page lacks the others, a crawl that skipped user
//! profiles skipped them all, and the links to them sit side by side in the
//! key page's order. Once links of one URL pattern have failed and none
//! loaded, the pattern's other links are tried after every other link, so
//! the load budget goes to pages that are there (an addition to Alg. 2;
//! nothing is dropped, only taken later).

use std::collections::HashMap;

use url::Url;

use crate::candidates::hyperlink::{url_pattern, PageLink};

/// Failures of a pattern before it can be taken for dead. One is enough:
/// its links are only put last, and a pattern that loaded once (the key
/// page's own, say) is never dead. Two cost dev loads 6.47 -> 6.67 (a news
/// index whose first linked article was missing tried its ten siblings
/// before the site's sections) at the same scores, and the corpus 6.56 -> 6.60.
const FAILURES: u32 = 1;

/// Loads that failed and loads that succeeded, per URL pattern
/// ([`url_pattern`]), in the order the search processed them, and the
/// search's links, whose patterns are worked out once a pattern is dead
/// (until then no link's order changes).
#[derive(Debug)]
pub struct DeadPatterns<'a> {
    counts: HashMap<String, (u32, u32)>,
    any_dead: bool,
    links: &'a [PageLink],
    link_patterns: Vec<String>,
}

impl<'a> DeadPatterns<'a> {
    /// For a search over `links` from `key`: the key page loaded, so its
    /// pattern starts alive.
    pub fn new(key: &Url, links: &'a [PageLink]) -> Self {
        let mut patterns = Self { counts: HashMap::new(), any_dead: false, links, link_patterns: Vec::new() };
        patterns.record(key, true);
        patterns
    }

    /// One processed load of `url`.
    pub fn record(&mut self, url: &Url, loaded: bool) {
        let counts = self.counts.entry(url_pattern(url)).or_default();
        if loaded {
            counts.1 += 1;
        } else {
            counts.0 += 1;
        }
        self.any_dead |= is_dead(*counts);
    }

    /// Per link, whether its pattern is dead: it failed ([`FAILURES`]) and
    /// never loaded (a pattern with one live page, the key page's own, say,
    /// may hold more, and a sparse copy's other patterns are no likelier);
    /// `None` while no pattern is. The search asks after
    /// every load, so each link's pattern is worked out once, on the first
    /// answer.
    pub fn dead_links(&mut self) -> Option<Vec<bool>> {
        if !self.any_dead {
            return None;
        }
        if self.link_patterns.is_empty() {
            self.link_patterns = self.links.iter().map(|l| url_pattern(&l.url)).collect();
        }
        Some(self.link_patterns.iter().map(|p| self.counts.get(p).copied().is_some_and(is_dead)).collect())
    }
}

fn is_dead((failed, alive): (u32, u32)) -> bool {
    failed >= FAILURES && alive == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(path: &str) -> Url {
        Url::parse(&format!("http://s.org{path}")).unwrap()
    }

    #[test]
    fn a_pattern_is_dead_once_it_failed_and_never_loaded() {
        let links: Vec<PageLink> = ["/2019/11/", "/about.html", "/post/9.html", "/user/4.html"]
            .iter()
            .map(|p| PageLink { url: u(p), node: crate::page::dom::NodeId(0) })
            .collect();
        let mut p = DeadPatterns::new(&u("/post/1.html"), &links);
        assert_eq!(p.dead_links(), None, "nothing failed yet");
        p.record(&u("/2019/12/"), false);
        assert_eq!(p.dead_links(), Some(vec![true, false, false, false]));
        for n in 2..6 {
            p.record(&u(&format!("/post/{n}.html")), false);
        }
        p.record(&u("/user/1.html"), false);
        p.record(&u("/user/2.html"), true);
        p.record(&u("/user/3.html"), false);
        assert_eq!(
            p.dead_links(),
            Some(vec![true, false, false, false]),
            "the key page's pattern loaded and so did a user page: either may hold more"
        );
    }
}
