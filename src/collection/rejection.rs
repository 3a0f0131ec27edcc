//! Why a record of a crawl did not become a page, counted by reason: a bad
//! record never stops a run, and a reader sees how much was left out.

use std::collections::BTreeMap;

use serde::Serialize;
use thiserror::Error;

/// One reason a record was left out. The `Display` is a sentence; the
/// serde name is the key of the counts.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rejection {
    #[error("the record is malformed")]
    MalformedRecord,
    #[error("the record is truncated")]
    Truncated,
    #[error("the HTTP response could not be read")]
    BadHttp,
    #[error("the response status is not 200")]
    HttpStatus,
    #[error("the record has no usable http or https URL")]
    BadUrl,
    #[error("the body is not HTML")]
    NotHtml,
    #[error("the body is binary data")]
    Binary,
    #[error("the body is larger than the limit for one page")]
    TooManyBytes,
    #[error("the body is mostly bytes that are invalid in its charset")]
    BrokenCharset,
    #[error("the page has no elements")]
    NoElements,
    #[error("the page has more elements than the limit")]
    TooManyElements,
    #[error("the page nests elements deeper than the limit")]
    TooDeep,
    #[error("the URL was already seen in this site")]
    Duplicate,
}

/// Counts of left-out records by reason.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Rejections(BTreeMap<Rejection, usize>);

impl Rejections {
    pub fn add(&mut self, reason: Rejection) {
        *self.0.entry(reason).or_default() += 1;
    }

    pub fn merge(&mut self, other: &Rejections) {
        for (&r, &n) in &other.0 {
            *self.0.entry(r).or_default() += n;
        }
    }

    pub fn total(&self) -> usize {
        self.0.values().sum()
    }

    pub fn get(&self, reason: Rejection) -> usize {
        self.0.get(&reason).copied().unwrap_or(0)
    }

    pub fn iter(&self) -> impl Iterator<Item = (Rejection, usize)> + '_ {
        self.0.iter().map(|(&r, &n)| (r, n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_merge_by_reason() {
        let mut a = Rejections::default();
        a.add(Rejection::Binary);
        a.add(Rejection::Binary);
        let mut b = Rejections::default();
        b.add(Rejection::TooDeep);
        b.add(Rejection::Binary);
        a.merge(&b);
        assert_eq!((a.get(Rejection::Binary), a.get(Rejection::TooDeep), a.total()), (3, 1, 4));
        assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"binary":3,"too_deep":1}"#);
    }
}
