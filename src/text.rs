//! Small text helpers shared by names, descriptions and search.

/// Splits an identifier into words: on `_`, `-`, `.`, `:`, `/`, spaces,
/// camelCase humps (`HTTPServer` → `HTTP`, `Server`) and letter/digit
/// boundaries (`v2` → `v`, `2`).
pub(crate) fn split_identifier(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if let Some(&prev) = cur.chars().last().as_ref() {
            let next = chars.get(i + 1).copied();
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_alphabetic() != c.is_alphabetic())
                || (prev.is_uppercase()
                    && c.is_uppercase()
                    && next.is_some_and(char::is_lowercase));
            if boundary {
                words.push(std::mem::take(&mut cur));
            }
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// FNV-1a, 64 bits: a stable hash for name suffixes (the same on every
/// platform and release).
pub(crate) fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// `n` lower-case base-36 characters of a hash.
pub(crate) fn base36(mut h: u64, n: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = String::with_capacity(n);
    for _ in 0..n {
        let d = (h % 36) as usize;
        out.push(char::from(DIGITS.get(d).copied().unwrap_or(b'0')));
        h /= 36;
    }
    out
}

/// Where [`cut`] ends a text it shortens (always with `…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cut {
    /// `max` characters kept, then `…`: exactly the start of a value a
    /// message quotes.
    Keep,
    /// `max` characters in all, `…` included: text written into a schema.
    Fit,
    /// `max` characters kept, white space before `…` left out: snippets.
    Trim,
    /// At the last white space past half of `max` characters when there is
    /// one (else `max` characters), white space before `…` left out: short
    /// descriptions.
    Word,
}

/// `s` as it is when it has at most `max` characters, else cut where `how`
/// says and ended with `…`.
pub(crate) fn cut(s: &str, max: usize, how: Cut) -> String {
    // a character past `max`: the text is longer than `max`
    let Some((end, _)) = s.char_indices().nth(max) else {
        return s.to_string();
    };
    let end = match how {
        Cut::Fit => s
            .char_indices()
            .nth(max.saturating_sub(1))
            .map_or(end, |(i, _)| i),
        _ => end,
    };
    let mut head = s.get(..end).unwrap_or_default();
    if how == Cut::Word {
        if let Some(i) = head.rfind(char::is_whitespace).filter(|&i| i > max / 2) {
            head = head.get(..i).unwrap_or(head);
        }
    }
    if matches!(how, Cut::Trim | Cut::Word) {
        head = head.trim_end();
    }
    let mut out = String::with_capacity(head.len() + 3);
    out.push_str(head);
    out.push('…');
    out
}

/// Where [`first_sentence`] ends a text's first sentence (after white
/// space at the start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ends {
    /// At a line break, or at `.`, `!` or `?` followed by white space and a
    /// capital letter (so `e.g. this` does not end one): a summary that
    /// search weighs apart from the rest.
    Capital,
    /// At a line break, or after the first `.` followed by a space (so
    /// `Activate scene. 'On'/'Off'` ends after `scene.`, but so does
    /// `e.g. this` after `e.g.`): a short line for people.
    Period,
}

/// Splits a text into its first sentence, trimmed, and the rest; the whole
/// text when no sentence end is found.
pub(crate) fn first_sentence(text: &str, ends: Ends) -> (&str, &str) {
    let text = text.trim();
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'\n' {
            return (
                text.get(..i).unwrap_or(text).trim(),
                text.get(i..).unwrap_or(""),
            );
        }
        if !matches!(c, b'.' | b'!' | b'?') {
            continue;
        }
        let rest = text.get(i + 1..).unwrap_or("");
        let end = match ends {
            Ends::Period => c == b'.' && rest.starts_with(' '),
            Ends::Capital => {
                let after = rest.trim_start();
                let spaced = rest.len() != after.len();
                rest.is_empty() || (spaced && after.chars().next().is_some_and(char::is_uppercase))
            }
        };
        if end {
            return (text.get(..=i).unwrap_or(text).trim(), rest);
        }
    }
    (text, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_where_asked() {
        for how in [Cut::Keep, Cut::Fit, Cut::Trim, Cut::Word] {
            assert_eq!(cut("short", 5, how), "short");
            assert_eq!(cut("", 0, how), "");
        }
        assert_eq!(cut("abcdef", 4, Cut::Keep), "abcd…");
        assert_eq!(cut("abcdef", 4, Cut::Fit), "abc…");
        assert_eq!(cut("abcdef", 0, Cut::Fit), "…");
        assert_eq!(cut("ab  cdef", 4, Cut::Keep), "ab  …");
        assert_eq!(cut("ab  cdef", 4, Cut::Trim), "ab…");
        assert_eq!(cut("one two three four", 12, Cut::Word), "one two…");
        // no white space past half: cut at `max`
        assert_eq!(cut("a bcdefghijkl", 6, Cut::Word), "a bcde…");
        // characters, not bytes
        assert_eq!(
            cut(&"é".repeat(30), 10, Cut::Word),
            format!("{}…", "é".repeat(10))
        );
        assert_eq!(
            cut(&"é".repeat(30), 10, Cut::Fit),
            format!("{}…", "é".repeat(9))
        );
    }

    #[test]
    fn first_sentence_ends_at_a_real_sentence_end() {
        let first = |t| first_sentence(t, Ends::Capital);
        assert_eq!(
            first("Turns on a light. Use it often."),
            ("Turns on a light.", " Use it often.")
        );
        assert_eq!(
            first("Sets things (e.g. a lamp). More"),
            ("Sets things (e.g. a lamp).", " More")
        );
        assert_eq!(first("TITLE - do it\n\nMore").0, "TITLE - do it");
        assert_eq!(first("\n  Line one\nLine two").0, "Line one");
        assert_eq!(first("no end"), ("no end", ""));
        assert_eq!(first(""), ("", ""));
        assert_eq!(first("Ünïcödé! Ça va."), ("Ünïcödé!", " Ça va."));
        assert_eq!(first("Ünïcödé! ça va."), ("Ünïcödé! ça va.", ""));
        assert_eq!(
            first("Activate scene. 'On'/'Off'.").0,
            "Activate scene. 'On'/'Off'."
        );
    }

    #[test]
    fn first_sentence_for_people_ends_at_a_period() {
        let first = |t| first_sentence(t, Ends::Period).0;
        assert_eq!(first("Get states. Then more."), "Get states.");
        assert_eq!(first("Activate scene. 'On'/'Off'."), "Activate scene.");
        assert_eq!(first("\n  Line one. \nLine two"), "Line one.");
        assert_eq!(
            first("Version 1.2 is out! Really."),
            "Version 1.2 is out! Really."
        );
        assert_eq!(first("Ends here."), "Ends here.");
    }

    #[test]
    fn splits_identifiers() {
        assert_eq!(split_identifier("HassLightSet"), ["Hass", "Light", "Set"]);
        assert_eq!(
            split_identifier("get_home_structure"),
            ["get", "home", "structure"]
        );
        assert_eq!(
            split_identifier("HTTPServer2go"),
            ["HTTP", "Server", "2", "go"]
        );
        assert_eq!(
            split_identifier("light__HassTurnOn"),
            ["light", "Hass", "Turn", "On"]
        );
        assert_eq!(
            split_identifier("admin.tools.list"),
            ["admin", "tools", "list"]
        );
        assert!(split_identifier("__").is_empty());
    }

    #[test]
    fn hash_is_stable() {
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(base36(fnv1a("a"), 6), base36(fnv1a("a"), 6));
        assert_ne!(base36(fnv1a("a"), 6), base36(fnv1a("b"), 6));
        assert_eq!(base36(35, 2), "z0");
    }
}

/// A stable insertion sort for the short lists outside the hot paths (a
/// few dozen items). `std`'s sorts are faster on long slices but add several
/// kilobytes of wasm for every element type they are used with.
pub(crate) fn sort_small_by<T>(v: &mut [T], mut before: impl FnMut(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && before(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod sort_tests {
    #[test]
    fn sorts_stably() {
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        super::sort_small_by(&mut v, |a, b| a.0 < b.0);
        assert_eq!(v, vec![(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        let mut e: Vec<u8> = Vec::new();
        super::sort_small_by(&mut e, |a, b| a < b);
    }
}
