//! What counts as a word. Every rule that weighs text (a paragraph's worth
//! of own text, the share of a page's words a frame or a voter holds, a
//! text page's minimum) counts words, and Chinese and Japanese write no
//! spaces between them: split on whitespace, a whole paragraph of either is
//! one "word", as long as a menu entry. Each Han character and each kana
//! counts as a word here (as word processors count East Asian text), and
//! every run of other letters or digits between them as one more; Korean
//! spaces its words and is counted by them.

/// Han ideographs (the unified blocks and compatibility ideographs) and
/// kana (hiragana, katakana, their extensions and the half-width forms);
/// punctuation such as 、 and 。 is none of them.
fn counts_alone(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{309F}'
        | '\u{30A0}'..='\u{30FF}'
        | '\u{31F0}'..='\u{31FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FF66}'..='\u{FF9F}'
        | '\u{20000}'..='\u{2FA1F}')
}

/// The words of one whitespace-free token: 1 for any token without Han or
/// kana, so text of spaced scripts counts as before.
pub fn words_in(token: &str) -> u32 {
    if token.is_ascii() {
        return 1;
    }
    let mut words = 0u32;
    let mut in_run = false;
    for c in token.chars() {
        if counts_alone(c) {
            words = words.saturating_add(1);
            in_run = false;
        } else if c.is_alphanumeric() && !in_run {
            words = words.saturating_add(1);
            in_run = true;
        } else if !c.is_alphanumeric() {
            in_run = false;
        }
    }
    words.max(1)
}

#[cfg(test)]
mod tests {
    use super::words_in;

    #[test]
    fn han_and_kana_count_one_word_each_and_spaced_scripts_count_as_before() {
        assert_eq!(words_in("template"), 1);
        assert_eq!(words_in("Größe"), 1);
        assert_eq!(words_in("Пример"), 1);
        assert_eq!(words_in("예시"), 1, "Korean spaces its words");
        assert_eq!(words_in("日本語のテキスト"), 8);
        assert_eq!(words_in("示例文章。"), 4, "punctuation is no word");
        assert_eq!(words_in("Rust言語"), 3);
        assert_eq!(words_in("2024年12月"), 4);
        assert_eq!(words_in("、"), 1, "a token is never less than one word");
    }
}
