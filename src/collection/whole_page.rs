//! Why a page came out whole: no element of its `<body>` was called
//! template, so its content is the page with its template. A reader of a
//! crawl's output must tell such a page from one whose template was
//! removed, and why it was not, without reading the summary's clusters.

use serde::Serialize;

/// What kept a page whole, as the summary counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WholeReason {
    /// The page was extracted on its own (no cluster, or its cluster's
    /// template does not fit it) and that extraction failed.
    ExtractionFailed,
    /// No representative of its cluster could be extracted, so the
    /// cluster had no template to serve it.
    NoTemplate,
    /// A template was found, but none of it is in the page's body.
    NothingShared,
}

/// What a count of whole pages on stderr says of them.
impl std::fmt::Display for WholeReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            WholeReason::ExtractionFailed => "extracted on their own, which failed",
            WholeReason::NoTemplate => "in a cluster that learnt no template",
            WholeReason::NothingShared => "whose comparison found no template in their body",
        })
    }
}

/// A whole page's reason and the sentence its line carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WholePage {
    pub reason: WholeReason,
    pub sentence: String,
}

impl WholePage {
    /// A page extracted on its own, whose extraction failed with `error`:
    /// `unfit` when its cluster's template did not fit it, else it had no
    /// cluster.
    pub fn extraction_failed(unfit: bool, error: &str) -> WholePage {
        let why = if unfit {
            "Its cluster's template is not all there on it"
        } else {
            "Too few pages share its layout to form a cluster"
        };
        WholePage {
            reason: WholeReason::ExtractionFailed,
            sentence: format!("{why}, and its own extraction failed: {error}"),
        }
    }

    /// A page of a cluster that learnt no template, for `cluster_error`.
    pub fn no_template(cluster_error: Option<&str>) -> WholePage {
        let error = cluster_error.unwrap_or("no reason given").trim_end_matches('.');
        WholePage {
            reason: WholeReason::NoTemplate,
            sentence: format!("No representative of its cluster could be extracted ({error}), so it is served whole."),
        }
    }

    /// A page whose template, though found, lies outside its body.
    pub fn nothing_shared() -> WholePage {
        WholePage {
            reason: WholeReason::NothingShared,
            sentence: "No part of its body was found to be template.".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_way_a_page_stays_whole_has_its_reason_and_sentence() {
        let failed = WholePage::extraction_failed(false, "The page has no links.");
        assert_eq!(failed.reason, WholeReason::ExtractionFailed);
        assert!(failed.sentence.ends_with("its own extraction failed: The page has no links."), "{}", failed.sentence);
        let none = WholePage::no_template(Some("The page has no links."));
        assert_eq!(none.reason, WholeReason::NoTemplate);
        assert!(none.sentence.contains("(The page has no links), so it is served whole."), "{}", none.sentence);
        assert_eq!(WholePage::nothing_shared().reason, WholeReason::NothingShared);
        assert_eq!(serde_json::to_string(&WholeReason::ExtractionFailed).unwrap(), "\"extraction_failed\"");
    }
}
