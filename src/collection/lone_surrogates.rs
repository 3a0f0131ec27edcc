//! JSON text whose `\uD800`–`\uDFFF` escapes stand alone.
//!
//! A crawler in Python that decoded a page's bytes with
//! `errors="surrogateescape"` and wrote it with `json.dumps` leaves each
//! invalid byte as a lone surrogate escape (`"\udce9"`). Python reads that
//! back; a strict JSON reader refuses the whole line, and the page was
//! lost. Such an escape is a byte the crawler could not decode, so it is
//! read as a browser reads an invalid byte: one U+FFFD, counted.

/// `line` with every lone surrogate escape replaced by `\ufffd`, and how
/// many were replaced; `None` when it holds none (the line is refused for
/// another reason). Escaped backslashes (`\\ud800` is text) are skipped.
pub fn replaced(line: &[u8]) -> Option<(Vec<u8>, usize)> {
    let mut out = Vec::with_capacity(line.len());
    let (mut i, mut count) = (0, 0);
    while i < line.len() {
        if line[i] != b'\\' {
            out.push(line[i]);
            i += 1;
            continue;
        }
        let Some(unit) = escape_at(line, i) else {
            out.extend_from_slice(&line[i..(i + 2).min(line.len())]);
            i += 2;
            continue;
        };
        let pair = (0xD800..0xDC00).contains(&unit)
            && escape_at(line, i + 6).is_some_and(|low| (0xDC00..0xE000).contains(&low));
        if pair {
            out.extend_from_slice(&line[i..i + 12]);
            i += 12;
        } else if (0xD800..0xE000).contains(&unit) {
            out.extend_from_slice(b"\\ufffd");
            count += 1;
            i += 6;
        } else {
            out.extend_from_slice(&line[i..i + 6]);
            i += 6;
        }
    }
    (count > 0).then_some((out, count))
}

/// The code unit of a `\uXXXX` escape starting at `at`.
fn escape_at(line: &[u8], at: usize) -> Option<u32> {
    let hex = line.get(at..at + 6).filter(|e| e.starts_with(b"\\u"))?;
    u32::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(line: &str) -> Option<(String, usize)> {
        replaced(line.as_bytes()).map(|(l, n)| (String::from_utf8(l).unwrap(), n))
    }

    #[test]
    fn lone_escapes_become_replacement_characters_and_pairs_stay() {
        assert_eq!(
            fixed(r#"{"html":"caf\udce9 \ud83d\ude00"}"#),
            Some((r#"{"html":"caf\ufffd \ud83d\ude00"}"#.into(), 1))
        );
        assert_eq!(fixed(r#"{"html":"\ud83d"}"#), Some((r#"{"html":"\ufffd"}"#.into(), 1)));
        assert_eq!(fixed(r#"{"html":"\ude00\ud83d x"}"#), Some((r#"{"html":"\ufffd\ufffd x"}"#.into(), 2)));
    }

    #[test]
    fn lines_without_lone_surrogates_and_escaped_backslashes_are_left_alone() {
        assert_eq!(fixed(r#"{"html":"\\udce9 \u00e9 \ud83d\ude00"}"#), None);
        assert_eq!(fixed(r#"{"html":"x\"#), None);
    }
}
