//! Dead links come in families. A partial copy of a site that lacks one
//! month's archive page lacks the others, a crawl that skipped user
//! profiles skipped them all, and the links to them sit side by side in the
//! key page's order. Once links of one URL pattern have failed and none
//! loaded, the pattern's other links are tried after every other link, so
//! the load budget goes to pages that are there (an addition to Alg. 2;
//! nothing is dropped, only taken later).

use std::collections::HashMap;

use url::Url;

use crate::candidates::hyperlink::url_pattern;

/// Failures of a pattern before it can be taken for dead: one missing page
/// is an accident.
const FAILURES: u32 = 2;

/// Loads that failed and loads that succeeded, per URL pattern
/// ([`url_pattern`]), in the order the search processed them.
#[derive(Debug, Default)]
pub struct DeadPatterns {
    counts: HashMap<String, (u32, u32)>,
}

impl DeadPatterns {
    /// Starts from the key page: it loaded, so its pattern starts alive.
    pub fn new(key: &Url) -> Self {
        let mut patterns = Self::default();
        patterns.record(key, true);
        patterns
    }

    /// One processed load of `url`.
    pub fn record(&mut self, url: &Url, loaded: bool) {
        let (failed, alive) = self.counts.entry(url_pattern(url)).or_default();
        if loaded {
            *alive += 1;
        } else {
            *failed += 1;
        }
    }

    /// Whether `url`'s pattern failed at least [`FAILURES`] times and never
    /// loaded: a pattern with one live page (the key page's own, say) may
    /// hold more, and a sparse copy's other patterns are no likelier.
    pub fn dead(&self, url: &Url) -> bool {
        self.counts.get(&url_pattern(url)).is_some_and(|&(failed, alive)| failed >= FAILURES && alive == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(path: &str) -> Url {
        Url::parse(&format!("http://s.org{path}")).unwrap()
    }

    #[test]
    fn a_pattern_is_dead_once_it_failed_twice_and_never_loaded() {
        let mut p = DeadPatterns::new(&u("/post/1.html"));
        p.record(&u("/2019/12/"), false);
        assert!(!p.dead(&u("/2019/11/")), "one missing page is an accident");
        p.record(&u("/2019/10/"), false);
        assert!(p.dead(&u("/2019/11/")) && !p.dead(&u("/about.html")));
        for n in 2..6 {
            p.record(&u(&format!("/post/{n}.html")), false);
        }
        assert!(!p.dead(&u("/post/9.html")), "the key page's pattern loaded: it may hold more");
        p.record(&u("/user/1.html"), false);
        p.record(&u("/user/2.html"), true);
        p.record(&u("/user/3.html"), false);
        assert!(!p.dead(&u("/user/4.html")));
    }
}
