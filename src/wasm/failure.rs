//! Failures as the extension shows them: the core's English sentence plus a
//! message key and its arguments, so the extension can say the same thing in
//! the browser's language (`_locales/*/messages.json` holds one entry per key).

use serde::Serialize;

use crate::base::error::{ExtractError, LoadError};

/// One sentence in a form any locale can render: `key` names the message,
/// `args` fill its `$1`…`$9`; an argument may itself be a nested sentence.
#[derive(Serialize, Debug, PartialEq)]
pub struct Failure {
    pub message: String,
    pub key: &'static str,
    pub args: Vec<Arg>,
}

#[derive(Serialize, Debug, PartialEq)]
#[serde(untagged)]
pub enum Arg {
    Text(String),
    Sentence(Box<Failure>),
}

pub fn text(v: impl ToString) -> Arg {
    Arg::Text(v.to_string())
}

impl Failure {
    pub fn new(message: impl ToString, key: &'static str, args: Vec<Arg>) -> Self {
        Failure { message: message.to_string(), key, args }
    }

    /// The user stopped the extraction.
    pub fn cancelled() -> Self {
        Failure::new("The extraction was cancelled.", "errorCancelled", vec![])
    }

    /// Any other sentence of the glue that has no key of its own.
    pub fn plain(message: impl ToString) -> Self {
        let message = message.to_string();
        Failure { key: "errorPlain", args: vec![text(&message)], message }
    }
}

impl From<&LoadError> for Failure {
    fn from(e: &LoadError) -> Self {
        let (key, args) = match e {
            LoadError::NotFound(url) => ("loadNotFound", vec![text(url)]),
            LoadError::Unreadable { url, reason } => ("loadUnreadable", vec![text(url), text(reason)]),
            LoadError::NotHtml { url, content_type } => ("loadNotHtml", vec![text(url), text(content_type)]),
            LoadError::OffOrigin { url } => ("loadOffOrigin", vec![text(url)]),
            LoadError::Timeout { url, timeout_ms } => ("loadTimeout", vec![text(url), text(timeout_ms)]),
            LoadError::Http { url, status } => ("loadHttp", vec![text(url), text(status)]),
            LoadError::TooLarge { url, nodes, limit, .. } => {
                ("loadTooLarge", vec![text(url), text(nodes), text(limit)])
            }
            LoadError::Empty { url } => ("loadEmpty", vec![text(url)]),
            // A reason added to the core later reads in English until it gets a key.
            #[allow(unreachable_patterns)]
            _ => ("errorPlain", vec![text(e)]),
        };
        Failure::new(e, key, args)
    }
}

impl From<&ExtractError> for Failure {
    fn from(e: &ExtractError) -> Self {
        let (key, args) = match e {
            ExtractError::TooLarge { nodes, limit } => ("errorTooLarge", vec![text(nodes), text(limit)]),
            ExtractError::KeyPage(load) => ("errorKeyPage", vec![Arg::Sentence(Box::new(load.into()))]),
            ExtractError::Restricted(url) => ("errorRestricted", vec![text(url)]),
            ExtractError::NoLinks => ("errorNoLinks", vec![]),
            ExtractError::NoCandidates(n, None) => ("errorNoCandidates", vec![text(n)]),
            ExtractError::NoCandidates(n, Some(first)) => {
                ("errorNoCandidatesWhy", vec![text(n), Arg::Sentence(Box::new(first.into()))])
            }
            ExtractError::AppShell => ("errorAppShell", vec![]),
            ExtractError::HashRoutes => ("errorHashRoutes", vec![]),
            ExtractError::Config(reason) => ("errorConfig", vec![Arg::Sentence(Box::new(config_reason(reason)))]),
            #[allow(unreachable_patterns)]
            _ => ("errorPlain", vec![text(e)]),
        };
        Failure::new(e, key, args)
    }
}

/// The reasons `Config::validate` gives, each with a key; a reason this
/// table does not know (a serde message) stays as it is in every language.
fn config_reason(reason: &str) -> Failure {
    const FIXED: [(&str, &str); 5] = [
        ("the complete subdigraph size must be at least 1", "configCsSize"),
        ("a node needs at least 1 vote", "configVotes"),
        ("a node cannot need more votes than the complete subdigraph has pages", "configVotesOverSize"),
        ("max loads and concurrency must be at least 1", "configLoads"),
        ("weights, probabilities and the threshold must lie between 0 and 1", "configRange"),
    ];
    if let Some((_, key)) = FIXED.iter().find(|(r, _)| *r == reason) {
        return Failure::new(reason, key, vec![]);
    }
    match reason.strip_prefix("the four weights must add up to 1, not ") {
        Some(sum) => Failure::new(reason, "configWeightSum", vec![text(sum)]),
        None => Failure::plain(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_sentences_keep_the_core_message_and_key_each_part() {
        let e =
            ExtractError::KeyPage(LoadError::TooLarge { url: "http://a/".into(), nodes: 9, limit: 5, parse_ms: 1.0 });
        let f = Failure::from(&e);
        assert_eq!(f.message, e.to_string());
        assert_eq!(f.key, "errorKeyPage");
        let Arg::Sentence(inner) = &f.args[0] else { panic!("nested sentence expected") };
        assert_eq!((inner.key, inner.args.len()), ("loadTooLarge", 3));
    }

    #[test]
    fn config_reasons_get_keys_and_unknown_ones_stay_plain() {
        let f = Failure::from(&ExtractError::Config("the four weights must add up to 1, not 1.4".into()));
        let Arg::Sentence(inner) = &f.args[0] else { panic!("nested sentence expected") };
        assert_eq!(inner.key, "configWeightSum");
        assert_eq!(inner.args, vec![Arg::Text("1.4".into())]);
        assert_eq!(config_reason("unknown field `x`").key, "errorPlain");
    }
}
