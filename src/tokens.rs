//! Token estimates without a tokenizer: a pre-tokenizer in the manner of
//! the GPT/Gemini BPE vocabularies (words with their leading space, digit
//! groups, punctuation runs), with a length model per piece.

/// Estimated number of model tokens in `text`.
///
/// Close to OpenAI's `o200k_base` on English prose and JSON (see the
/// calibration test); other vocabularies differ by a few percent.
pub fn estimate_tokens(text: &str) -> usize {
    let mut total = 0usize;
    // pieces are measured as slices of `text`, never copied
    let mut chars = text.char_indices().peekable();
    let mut after_punct = false;
    while let Some((start, c)) = chars.next() {
        let was_punct = std::mem::replace(&mut after_punct, false);
        if c.is_alphabetic() {
            let mut end = start + c.len_utf8();
            while let Some(&(i, n)) = chars.peek() {
                if !n.is_alphabetic() {
                    break;
                }
                end = i + n.len_utf8();
                chars.next();
            }
            total += word_tokens(text.get(start..end).unwrap_or_default());
        } else if c.is_ascii_digit() {
            let mut n: usize = 1;
            while chars.peek().is_some_and(|(_, d)| d.is_ascii_digit()) {
                chars.next();
                n += 1;
            }
            total += n.div_ceil(3);
        } else if c == ' ' {
            // a single space joins the next word, number or punctuation
            if chars
                .peek()
                .is_some_and(|(_, n)| n.is_alphanumeric() || n.is_ascii_punctuation())
            {
                continue;
            }
            let mut n: usize = 1;
            while chars.peek().is_some_and(|(_, s)| *s == ' ') {
                chars.next();
                n += 1;
            }
            total += n.div_ceil(8).max(1);
        } else if c.is_whitespace() {
            while chars
                .peek()
                .is_some_and(|(_, n)| n.is_whitespace() && *n != ' ')
            {
                chars.next();
            }
            // line breaks join the punctuation before them (`.\n\n`, `:\n`)
            if !was_punct {
                total += 1;
            }
        } else if c == '_' && chars.peek().is_some_and(|(_, n)| n.is_alphabetic()) {
            // `_devices` is one token, like a word with its leading space
            continue;
        } else {
            // JSON punctuation merges in runs of up to four (`":{"`,
            // `"},{"`), other symbols less
            let mut n: usize = 1;
            let mut ascii = c.is_ascii();
            while let Some(&(_, m)) = chars.peek() {
                if m.is_alphanumeric() || m.is_whitespace() || m == '_' {
                    break;
                }
                n += 1;
                ascii &= m.is_ascii();
                chars.next();
            }
            total += if ascii { n.div_ceil(4) } else { n };
            after_punct = true;
        }
    }
    // calibrated against o200k_base on the corpus (tests/tokens.rs): the
    // piece model above counts about 4% high
    (total * 24 + 12) / 25
}

/// camelCase humps each cost a token; long humps more.
fn word_tokens(word: &str) -> usize {
    let mut tokens = 0;
    let mut hump = 0usize;
    let mut prev_lower = false;
    for c in word.chars() {
        if c.is_uppercase() && prev_lower {
            tokens += hump_tokens(hump);
            hump = 0;
        }
        hump += 1;
        prev_lower = c.is_lowercase();
    }
    tokens + hump_tokens(hump)
}

fn hump_tokens(len: usize) -> usize {
    match len {
        0 => 0,
        1..=7 => 1,
        8..=11 => 2,
        n => 2 + (n - 8).div_ceil(5),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_cases() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("hello world"), 2);
        assert_eq!(estimate_tokens("HassTurnOn"), 3);
        assert_eq!(estimate_tokens("12345"), 2);
        assert_eq!(estimate_tokens("{\"a\":1}"), 5);
        assert_eq!(estimate_tokens("list_devices"), 2);
        assert!(estimate_tokens("😀😀") >= 2);
    }
}
