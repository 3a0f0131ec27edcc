//! Which links of a page may be fetched as candidates. Fetching a candidate
//! must never act on the user's behalf: the browser sends no credentials
//! (`credentials: "omit"`), and links that look like actions rather than
//! pages are never requested at all, because a GET to `/logout` or
//! `/delete?id=7` acts on many sites even without cookies.
//!
//! A link is refused when
//! - it carries `rel="nofollow"` or `download`, or sits inside a `<form>`
//!   (the author marked it as not a plain page to crawl);
//! - a path segment or a query key or value *is* an action word once
//!   separators and a file extension are dropped (`logout`, `log-out`,
//!   `sign_out.php`, `delete`, `add-to-cart`), or starts with one and has at
//!   most three words (`delete-account`, `remove-item`); a slug such as
//!   `how-to-remove-stains` stays a page;
//! - its query carries a token-like key (`csrf`, `token`, `nonce`…): only
//!   actions need one;
//! - it carries a user name or password (`http://user:pw@host/`): that is
//!   HTTP authentication in the link, and browsers refuse to build a request
//!   for it (Firefox with an error from another realm), so it is never tried.

use url::Url;

use crate::page::dom::{NodeId, Tree};

/// Words that name an action on the user's account, data or basket.
const ACTION_WORDS: &[&str] = &[
    "logout",
    "logoff",
    "signout",
    "signoff",
    "delete",
    "remove",
    "destroy",
    "erase",
    "trash",
    "unsubscribe",
    "subscribe",
    "optout",
    "cart",
    "basket",
    "checkout",
    "addtocart",
    "buy",
    "purchase",
    "vote",
    "revoke",
    "cancel",
    "deactivate",
];

/// Query keys that only an action link carries.
const TOKEN_KEYS: &[&str] =
    &["csrf", "csrftoken", "csrf_token", "token", "nonce", "_wpnonce", "authenticity_token", "sesskey", "_token"];

/// Why a link is not fetched, or `None` when it may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    NoFollow,
    Download,
    InForm,
    ActionUrl,
    Credentials,
}

/// Per node: whether it lies inside a `<form>` (one pass, pre-order).
pub fn inside_form(tree: &Tree) -> Vec<bool> {
    let mut inside = vec![false; tree.len()];
    for (id, node) in tree.nodes() {
        inside[id.index()] = node.parent.is_some_and(|p| inside[p.index()] || &*tree.node(p).tag == "form");
    }
    inside
}

/// The policy's verdict on the link `url` carried by node `node`.
pub fn refusal(tree: &Tree, in_form: &[bool], node: NodeId, url: &Url) -> Option<Refusal> {
    node_refusal(tree, in_form, node).or_else(|| url_refusal(url))
}

/// The part of the verdict that depends on where the link points only.
pub fn url_refusal(url: &Url) -> Option<Refusal> {
    if !url.username().is_empty() || url.password().is_some() {
        return Some(Refusal::Credentials);
    }
    is_action_url(url).then_some(Refusal::ActionUrl)
}

/// The part of the verdict that depends on the link's element only, not on
/// where it points (a page's links judged by URL once per distinct URL).
pub fn node_refusal(tree: &Tree, in_form: &[bool], node: NodeId) -> Option<Refusal> {
    let n = tree.node(node);
    if n.nofollow {
        return Some(Refusal::NoFollow);
    }
    if n.attributes.binary_search(&crate::page::generated_names::token_hash("download")).is_ok() {
        return Some(Refusal::Download);
    }
    in_form[node.index()].then_some(Refusal::InForm)
}

/// Whether a URL looks like an action rather than a page (see the module doc).
pub fn is_action_url(url: &Url) -> bool {
    let segments = url.path_segments().into_iter().flatten();
    if segments.map(decode).any(|s| is_action_part(&s)) {
        return true;
    }
    url.query_pairs().any(|(k, v)| {
        let key = k.to_ascii_lowercase();
        TOKEN_KEYS.contains(&key.as_str()) || is_action_part(&key) || is_action_part(&v)
    })
}

/// A path segment as a form value decodes it: percent escapes and `+`
/// decoded, cut at a `&` (a segment with none of the three, nearly all, is
/// itself).
fn decode(segment: &str) -> std::borrow::Cow<'_, str> {
    if !segment.contains(['%', '+', '&']) {
        return segment.into();
    }
    url::form_urlencoded::parse(format!("x={segment}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
        .into()
}

/// One path segment or query part: its words, extension dropped.
fn is_action_part(part: &str) -> bool {
    let lower = part.to_ascii_lowercase();
    let stem = match lower.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && ext.len() <= 5 && ext.chars().all(|c| c.is_ascii_alphanumeric()) => {
            stem
        }
        _ => lower.as_str(),
    };
    let words: Vec<&str> = stem.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let Some(first) = words.first() else { return false };
    let joined: String = words.concat();
    ACTION_WORDS.contains(&joined.as_str()) || (words.len() <= 3 && ACTION_WORDS.contains(first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    fn action(u: &str) -> bool {
        is_action_url(&Url::parse(&format!("http://s.org{u}")).unwrap())
    }

    #[test]
    fn action_urls_are_refused() {
        for u in [
            "/logout",
            "/user/log-out/",
            "/account/sign_out.php",
            "/delete?id=7",
            "/items/7/delete",
            "/cart",
            "/shop/add-to-cart/5",
            "/index.php?action=logout",
            "/list?do=unsubscribe&u=3",
            "/page?csrf=abc",
            "/wp-admin/post.php?post=1&_wpnonce=x",
            "/delete-account",
            "/Log%20Out",
        ] {
            assert!(action(u), "{u} should be refused");
        }
    }

    #[test]
    fn ordinary_pages_are_allowed() {
        for u in [
            "/",
            "/news/index.html",
            "/blog/how-to-remove-stains-from-a-carpet",
            "/docs/cartography.html",
            "/products?page=2&sort=price",
            "/about-us",
            "/recipes/delete-me-not-a-real-word-list-here",
        ] {
            assert!(!action(u), "{u} should be allowed");
        }
    }

    #[test]
    fn links_with_credentials_are_refused() {
        for u in ["http://user:pw@s.org/p1.html", "http://user@s.org/", "http://:pw@s.org/"] {
            assert_eq!(url_refusal(&Url::parse(u).unwrap()), Some(Refusal::Credentials), "{u}");
        }
        assert_eq!(url_refusal(&Url::parse("http://s.org/p1.html").unwrap()), None);
    }

    #[test]
    fn nofollow_download_and_form_links_are_refused() {
        let t = tree(
            "html( body( a[href=/a,rel=nofollow] a[href=/b,download] form( a[href=/c] ) a[href=/d,rel=noopener] ) )",
        );
        let in_form = inside_form(&t);
        let url = Url::parse("http://s.org/page").unwrap();
        let verdicts: Vec<Option<Refusal>> =
            t.nodes().filter(|(_, n)| n.href.is_some()).map(|(id, _)| refusal(&t, &in_form, id, &url)).collect();
        assert_eq!(verdicts, [Some(Refusal::NoFollow), Some(Refusal::Download), Some(Refusal::InForm), None]);
    }
}
