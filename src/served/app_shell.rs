//! Sites that build their pages in the browser. Their served pages are one
//! empty shell (`<div id=root>` and a script) whatever the address, or
//! their routes are fragments of one address (`#/a`, `#/b`): comparing
//! served pages there finds html, body and the root element "template", a
//! wrong result that looks like a success. These tests say when to answer
//! with a sentence instead.

use std::cell::RefCell;
use std::collections::HashSet;

use url::Url;

use crate::base::error::LoadError;
use crate::candidates::address::normal_url;
use crate::candidates::page_source::{LoadedPage, PageSource, SourceWrapper};
use crate::page::dom::Tree;
use crate::served::served_alignment::align;

/// Share of the live page's elements a served page must hold to be the same
/// page rather than a shell a script fills. An app shell holds a handful of
/// the hundreds of elements the user sees (measured on the fixture shell,
/// 7 of 40, while every dev-set page holds over 99 % of its elements:
/// docs/script-built-pages.md).
pub const SHELL_SHARE: f64 = 0.25;

/// Whether the served key page is an app shell: it holds almost none of the
/// elements the user sees, and no link to another page (a login wall or an
/// error page has links, and the comparison then falls back to the live page).
pub fn is_app_shell(live_share: f64, served_links: usize) -> bool {
    live_share < SHELL_SHARE && served_links == 0
}

/// A source that tells whether every page it loaded was an app shell with
/// respect to the live page: when the served key page could not be fetched,
/// the linked pages are the only served pages left to say so.
pub struct ShellWatch<'a, S> {
    source: &'a S,
    live: &'a Tree,
    /// Per loaded page, whether it is a shell.
    shells: RefCell<Vec<bool>>,
}

impl<'a, S: PageSource> ShellWatch<'a, S> {
    pub fn new(source: &'a S, live: &'a Tree) -> Self {
        Self { source, live, shells: RefCell::default() }
    }

    /// Some page loaded, and every one was an app shell.
    pub fn all_shells(&self) -> bool {
        let shells = self.shells.borrow();
        !shells.is_empty() && shells.iter().all(|&s| s)
    }
}

impl<S: PageSource> SourceWrapper for ShellWatch<'_, S> {
    type Inner = S;

    fn inner(&self) -> &S {
        self.source
    }

    async fn load_through(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        let page = self.source.load(url).await?;
        // Aligning and reading the links are a step each on a big page.
        self.source.pause_while_loading().await;
        let share = align(&page.tree, self.live).live_share();
        self.source.pause_while_loading().await;
        let shell = is_app_shell(share, self.source.links(&page).len());
        self.shells.borrow_mut().push(shell);
        Ok(page)
    }
}

/// The distinct fragment routes (`#/a`, `#!/b`) among the page's links to
/// itself. A fragment that starts with `/` or `!` names a route of a
/// script's router; a plain `#section` is an anchor into a static page.
pub fn hash_routes(tree: &Tree, page_url: &Url) -> usize {
    let page = normal_url(page_url);
    let base = tree.base_url(page_url);
    let mut routes = HashSet::new();
    for (_, node) in tree.nodes() {
        let Some(href) = node.href.as_deref() else { continue };
        let Ok(link) = base.join(href) else { continue };
        let Some(fragment) = link.fragment() else { continue };
        if (fragment.starts_with('/') || fragment.starts_with('!')) && normal_url(&link) == page {
            routes.insert(fragment.to_string());
        }
    }
    routes.len()
}

/// Whether a page whose links all stay on it routes between views by
/// fragment: two routes at least, as a menu of one app has.
pub fn routes_by_fragment(tree: &Tree, page_url: &Url) -> bool {
    hash_routes(tree, page_url) >= 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::TreeBuilder;

    fn page(hrefs: &[&str]) -> Tree {
        let mut b = TreeBuilder::new();
        b.open("html", []);
        b.open("body", []);
        for h in hrefs {
            b.open("a", [("href", *h)]);
            b.close();
        }
        b.finish().unwrap()
    }

    #[test]
    fn fragment_routes_are_told_from_anchors() {
        let url = Url::parse("http://app.test/index.html").unwrap();
        assert_eq!(hash_routes(&page(&["#/a", "#/b", "#!/c", "#/a"]), &url), 3);
        assert!(routes_by_fragment(&page(&["#/a", "/index.html#/b"]), &url));
        assert!(!routes_by_fragment(&page(&["#intro", "#usage", "#/only"]), &url), "anchors and one route");
        assert!(!routes_by_fragment(&page(&["/other#/a", "/other#/b"]), &url), "another page's routes");
    }

    #[test]
    fn a_shell_holds_little_and_links_nowhere() {
        assert!(is_app_shell(0.1, 0));
        assert!(!is_app_shell(0.1, 3), "a login wall links to other pages");
        assert!(!is_app_shell(0.9, 0), "a page with no links is still a page");
    }
}
