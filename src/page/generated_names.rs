//! Class and attribute names a build tool generated: styled-components
//! (`sc-a1b2c3`, `kVbCDe`), Emotion (`css-1x2y3z`), CSS modules
//! (`Header_nav__AbC12`), Svelte (`svelte-1xyz2ab`), Vue's scoped styles
//! (`data-v-7ba5bd90`). A redeploy renames them all while the page stays the
//! same, so template memory must not require them to match.
//!
//! Names are hashed once, when a snapshot is read; the hash's lowest bit
//! records whether the name looks generated, so a stored skeleton (hashes
//! only) still tells which of its names to set aside. Everywhere else a
//! name's hash is only compared for equality, which the bit does not change.

use crate::page::name_hash::name_hash;

/// Prefixes CSS-in-JS libraries put before a hash of letters and digits
/// (styled-components' `sc-` before letters alone is checked apart).
const HASH_PREFIXES: [&str; 4] = ["css-", "jsx-", "svelte-", "emotion-"];

/// Hash of a class or attribute name, its lowest bit set when the name
/// looks generated.
pub fn token_hash(name: &str) -> u64 {
    let h = name_hash(name) & !1;
    if looks_generated(name) {
        h | 1
    } else {
        h
    }
}

/// Whether a hash from [`token_hash`] names a generated-looking token.
pub fn is_generated(hash: u64) -> bool {
    hash & 1 == 1
}

/// Whether a name looks made by a build tool rather than by a person:
/// a known CSS-in-JS prefix, a CSS-modules `__hash` suffix, a segment that
/// mixes letters and digits like a hash, or a letter salad of mixed case.
pub fn looks_generated(name: &str) -> bool {
    let alphanumeric = |s: &str, min: usize| s.len() >= min && s.bytes().all(|b| b.is_ascii_alphanumeric());
    if name.strip_prefix("sc-").is_some_and(|rest| alphanumeric(rest, 5)) {
        return true;
    }
    // Every rule below wants a digit or a capital; most names (`nav`,
    // `menu-item`) have neither, and a snapshot asks for every class.
    if !name.bytes().any(|b| b.is_ascii_digit() || b.is_ascii_uppercase()) {
        return false;
    }
    let prefixed = HASH_PREFIXES.iter().filter_map(|p| name.strip_prefix(p)).next();
    if let Some(first) = prefixed.and_then(|rest| rest.split('-').next()) {
        if alphanumeric(first, 5) && first.bytes().any(|b| b.is_ascii_digit()) {
            return true;
        }
    }
    if let Some((_, hash)) = name.rsplit_once("__") {
        if (5..=8).contains(&hash.len()) && hash.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return hash.bytes().any(|b| b.is_ascii_digit()) || mixed_case(hash);
        }
    }
    name.split(['-', '_']).any(hash_like) || letter_salad(name)
}

/// A segment that reads as a hash: five or more letters and digits,
/// alternating at least twice or mixing case (`1x2y3z`, `7ba5bd90`, `AbC12`),
/// which a unit (`500px`) or a version (`h264`) does not.
fn hash_like(segment: &str) -> bool {
    let b = segment.as_bytes();
    if b.len() < 5 || !b.iter().all(u8::is_ascii_alphanumeric) {
        return false;
    }
    let digits = b.iter().filter(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits == b.len() {
        return false;
    }
    let alternations = b.windows(2).filter(|w| w[0].is_ascii_digit() != w[1].is_ascii_digit()).count();
    alternations >= 2 || mixed_case(segment)
}

fn mixed_case(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_uppercase()) && s.bytes().any(|b| b.is_ascii_lowercase())
}

/// styled-components' generated class (`kVbCDe`, `iVXCSc`): five to eight
/// letters, two or more capitals, and a capitalised part without a vowel,
/// which a camel-case word (`navBar`, `isOpenNow`) has.
fn letter_salad(name: &str) -> bool {
    let b = name.as_bytes();
    if !(5..=8).contains(&b.len()) || !b.iter().all(u8::is_ascii_alphabetic) {
        return false;
    }
    if b.iter().filter(|c| c.is_ascii_uppercase()).count() < 2 {
        return false;
    }
    let vowel = |c: &u8| b"aeiouyAEIOUY".contains(c);
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..b.len() {
        if b[i].is_ascii_uppercase() {
            parts.push(&b[start..i]);
            start = i;
        }
    }
    parts.push(&b[start..]);
    parts.iter().skip(1).any(|p| p.len() >= 2 && !p.iter().any(vowel))
}

/// The hashes of `set` that do not look generated.
pub fn stable(set: &[u64]) -> Box<[u64]> {
    set.iter().copied().filter(|&h| !is_generated(h)).collect()
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

    #[test]
    fn build_tool_names_look_generated() {
        for name in [
            "sc-a1b2c3",
            "sc-bdVaJa",
            "kVbCDe",
            "iVXCSc",
            "css-1x2y3z",
            "css-1x2y3z-Header",
            "Header_nav__AbC12",
            "Header_nav__3kZ9x",
            "svelte-1xyz2ab",
            "jsx-2983245213",
            "data-v-7ba5bd90",
        ] {
            assert!(looks_generated(name), "{name}");
        }
    }

    #[test]
    fn names_people_write_do_not() {
        for name in [
            "menu",
            "navBar",
            "isOpenNow",
            "col-md-6",
            "page-id-42",
            "post-1234",
            "fa-500px",
            "h264",
            "wp-block-navigation",
            "site__header",
            "nav__item--active",
            "href",
            "data-toggle",
            "aria-label",
            "sc-nav",
            "css-grid-layout",
            "svelte-logo",
        ] {
            assert!(!looks_generated(name), "{name}");
        }
    }

    #[test]
    fn the_mark_survives_in_the_hash_and_only_there() {
        assert!(is_generated(token_hash("css-1x2y3z")));
        assert!(!is_generated(token_hash("menu")));
        assert_ne!(token_hash("css-1x2y3z"), token_hash("css-9q8w7e"), "equality of names is unchanged");
        let set = [token_hash("menu"), token_hash("sc-a1b2c3"), token_hash("main")];
        assert_eq!(stable(&set).len(), 2);
    }

    #[test]
    fn a_page_without_generated_names_is_not_copied() {
        let plain = crate::page::dom::test_trees::tree("html( body( nav.menu( a a ) ) )");
        assert!(matches!(plain.without_generated(), Cow::Borrowed(_)));
        let styled = crate::page::dom::test_trees::tree("html( body( nav.menu.sc-a1b2c3( a.kVbCDe a ) ) )");
        let stripped = styled.without_generated();
        assert_eq!(stripped.len(), styled.len());
        assert!(stripped.nodes().all(|(_, n)| n.classes.iter().all(|&h| !is_generated(h))));
        assert_eq!(stripped.node(crate::page::dom::NodeId(2)).classes.len(), 1, "menu stays");
    }
}
