//! Typed errors of the core. Each `Display` is one sentence a user can read:
//! the CLI prints it as is and the extension's popup shows it unchanged.

use thiserror::Error;

/// Why one page could not be loaded. A candidate that fails this way is
/// skipped; only the key page failing stops an extraction.
#[derive(Debug, Error, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum LoadError {
    #[error("{0} was not found")]
    NotFound(String),
    #[error("{url} could not be read: {reason}")]
    Unreadable { url: String, reason: String },
    #[error("{url} is not an HTML page ({content_type})")]
    NotHtml { url: String, content_type: String },
    #[error("{url} redirected to another origin")]
    OffOrigin { url: String },
    #[error("{url} took longer than {timeout_ms} ms")]
    Timeout { url: String, timeout_ms: u32 },
    #[error("{url} answered HTTP {status}")]
    Http { url: String, status: u16 },
    #[error("{url} has at least {nodes} elements, more than the limit of {limit}; the max_nodes setting raises it")]
    TooLarge {
        url: String,
        nodes: usize,
        limit: usize,
        /// The parse that found it too large: time spent all the same, which the report's timings count.
        parse_ms: f64,
    },
    #[error("{url} has no elements")]
    Empty { url: String },
    #[error("{url} is larger than {} MB, the limit for one page", limit / (1024 * 1024))]
    TooManyBytes { url: String, limit: usize },
    #[error("{url} was not read: the extraction already read {} MB, its limit", limit / (1024 * 1024))]
    BudgetSpent { url: String, limit: usize },
    #[error("{url} is binary data, not an HTML page")]
    Binary { url: String },
    #[error("{url} redirects to another origin or in a loop, so it was not followed")]
    Redirect { url: String },
}

/// Why an extraction failed as a whole.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ExtractError {
    #[error("The key page could not be loaded: {0}.")]
    KeyPage(LoadError),
    #[error("The address {0} is not a web page this extension can analyse (only http and https pages are).")]
    Restricted(String),
    #[error(
        "This page has {nodes} elements, more than the limit of {limit} (Elements per page, in the options); \
         raise the limit there to analyse it."
    )]
    TooLarge { nodes: usize, limit: usize },
    #[error("The page has no links to other pages of the same site, so there is nothing to compare it with.")]
    NoLinks,
    /// How many linked pages were tried, and why the first one failed.
    #[error(
        "None of the {n} linked pages could be loaded, so there is nothing to compare the page with{why}.",
        n = .0,
        why = .1.as_ref().map(|e| format!(" (the first: {e})")).unwrap_or_default()
    )]
    NoCandidates(usize, Option<LoadError>),
    #[error("The configuration is invalid: {0}.")]
    Config(String),
    /// The served pages are one empty shell a script fills (`app_shell`).
    #[error(
        "This site builds its pages in the browser, so the other pages it links to are empty shells with nothing \
         to compare; turn on “Learn from pages I visit” for this site in the popup, then visit a few of its pages."
    )]
    AppShell,
    /// The page's links are routes by fragment of this one address (`app_shell`).
    #[error(
        "This site builds its pages in the browser: its links only change the part of the address after #, so \
         there are no other pages to fetch and compare; turn on “Learn from pages I visit” for this site in the \
         popup, then visit a few of its pages."
    )]
    HashRoutes,
}
