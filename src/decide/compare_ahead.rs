//! Comparing each candidate with the key page the moment it loads, while the
//! complete-subdigraph search still waits for other pages on the network.
//!
//! With the content signal every loaded page is mapped and filtered anyway
//! (the voters are chosen among all of them, see `extract::vote_pages`), so
//! doing that work as each page arrives changes no result: it only moves the
//! work into time the browser's main thread would otherwise spend waiting.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;

use url::Url;

use crate::base::config::{Algorithm, Config};
use crate::base::error::LoadError;
use crate::candidates::page_source::{LoadedPage, PageSource, SourceWrapper};
use crate::compare::mapping::{EtdmSteps, Mapping};
use crate::compare::repeated_lists::{etdm_remembering, ListSignatures};
use crate::decide::template::map_page;
use crate::decide::text_recurrence::{keep_repeated_content, KeyText};
use crate::page::dom::Tree;

/// Comparisons of two siblings ETDM makes between two pauses (about 512
/// mapped pairs' children on a typical page; a list of 100,000 siblings is
/// split over many steps).
const ETDM_STEP: usize = 16_384;

/// The mapping of the key page into `page`, keeping only what `page`
/// repeats in content too: the one comparison a voter needs. ETDM goes in
/// steps with a pause between two (in a browser, the page runs once a slice
/// is spent): two pages of 100,000 elements take a while to compare. Where
/// the source keeps the lists mapped onto `page` before, it goes at once,
/// taking those lists (the same mapping).
async fn compare<S: PageSource>(
    source: &S,
    cfg: &Config,
    key: &Tree,
    signatures: &OnceCell<ListSignatures>,
    key_text: &KeyText,
    loaded: &LoadedPage,
) -> Mapping {
    let page = &*loaded.tree;
    let mapping = match cfg.algorithm {
        Algorithm::Etdm => match source.mapped_lists(loaded) {
            Some(lists) => {
                let mut lists = lists.lock().expect("no thread panicked holding it");
                etdm_remembering(cfg, key, signatures.get_or_init(|| ListSignatures::of(key)), page, &mut lists)
            }
            None => {
                let mut steps = EtdmSteps::new(cfg, key, page);
                while steps.step(ETDM_STEP) {
                    source.pause_while_loading().await;
                }
                steps.finish()
            }
        },
        Algorithm::Rtdm => map_page(cfg, key, page),
    };
    source.pause_while_loading().await;
    keep_repeated_content(&cfg.content, key, key_text, page.text_blocks(), &mapping)
}

/// A source whose loads also compare each page with the key page.
pub struct CompareAhead<'a, S> {
    source: &'a S,
    cfg: &'a Config,
    key: &'a Tree,
    key_text: &'a KeyText,
    /// The key's, made once if the source keeps mapped lists.
    signatures: OnceCell<ListSignatures>,
    done: RefCell<HashMap<Url, Mapping>>,
}

impl<'a, S: PageSource> CompareAhead<'a, S> {
    pub fn new(source: &'a S, cfg: &'a Config, key: &'a Tree, key_text: &'a KeyText) -> Self {
        Self { source, cfg, key, key_text, signatures: OnceCell::new(), done: RefCell::default() }
    }

    /// The comparison made when `url` loaded, if it did.
    pub fn take(&self, url: &Url) -> Option<Mapping> {
        self.done.borrow_mut().remove(url)
    }
}

impl<S: PageSource> SourceWrapper for CompareAhead<'_, S> {
    type Inner = S;

    fn inner(&self) -> &S {
        self.source
    }

    async fn load_through(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        let page = self.source.load(url).await?;
        self.source.pause_while_loading().await;
        let mapping = compare(self.source, self.cfg, self.key, &self.signatures, self.key_text, &page).await;
        self.done.borrow_mut().insert(url.clone(), mapping);
        Ok(page)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::page_source::tests::MemorySource;

    #[test]
    fn a_loaded_page_comes_with_its_comparison_and_a_failed_load_with_none() {
        let site = MemorySource::new(&[("a", &["b", "c"]), ("b", &["a", "c"]), ("c", &["a"])]);
        let url = |p: &str| Url::parse(&format!("http://s.org/{p}")).unwrap();
        let key = futures::executor::block_on(site.load(&url("a"))).unwrap().tree;
        let cfg = Config::default();
        let text = KeyText::of(&key);
        let ahead = CompareAhead::new(&site, &cfg, &key, &text);
        let page = futures::executor::block_on(ahead.load(&url("b"))).unwrap();
        let expected = keep_repeated_content(
            &cfg.content,
            &key,
            &text,
            page.tree.text_blocks(),
            &map_page(&cfg, &key, &page.tree),
        );
        assert_eq!(ahead.take(&url("b")), Some(expected));
        assert_eq!(ahead.take(&url("b")), None, "taken once");
        assert!(futures::executor::block_on(ahead.load(&url("missing"))).is_err());
        assert_eq!(ahead.take(&url("missing")), None);
    }
}
