//! Text analysis shared by the index and the queries: Unicode folding,
//! tokenising (identifiers and prose alike), stop-words, a language guess,
//! Snowball stemming, compound splitting and a bounded edit distance.
//!
//! Everything here is pure and allocation-light: words are produced into a
//! reused buffer, stemming only sees short ASCII words, and the edit
//! distance works on stack arrays.

use rust_stemmers::{Algorithm, Stemmer};

/// Words longer than this (in chars) are cut: no real word is longer, and
/// it bounds stemming, compound splitting and edit distances.
pub(crate) const MAX_WORD_CHARS: usize = 40;

/// The languages the analyzer knows. Text in other languages is still
/// folded, tokenised and matched, just not stemmed by their own rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    En,
    Nl,
    De,
}

/// A small, fast and deterministic hasher (FxHash's multiply-rotate) for
/// the index's maps: keys are short words, and the same input gives the
/// same maps on every platform.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(b)).wrapping_mul(K);
        }
        for &x in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(x)).wrapping_mul(K);
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.write(&[i]);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Builds [`FxHasher`]s.
pub(crate) type FxBuild = std::hash::BuildHasherDefault<FxHasher>;
/// A `HashMap` with [`FxHasher`].
pub(crate) type FxMap<K, V> = std::collections::HashMap<K, V, FxBuild>;

/// A non-negative `f32` as a `u32` that sorts in descending order of the
/// number (the bits of non-negative floats sort like the floats). Sort keys
/// are packed into `u64`s so that one sort routine serves every sort in
/// the search: a few KB less in the wasm module.
pub(crate) fn desc(x: f32) -> u32 {
    // not `x.max(0.0)`: that is a libm call in some targets
    u32::MAX - if x > 0.0 { x.to_bits() } else { 0 }
}

/// The number [`desc`] was made from.
pub(crate) fn undesc(k: u32) -> f32 {
    f32::from_bits(u32::MAX - k)
}

/// A key of two 32-bit halves, sorting by `hi` then `lo`.
pub(crate) fn key(hi: u32, lo: u32) -> u64 {
    (u64::from(hi) << 32) | u64::from(lo)
}

/// The halves of a [`key`].
pub(crate) fn halves(k: u64) -> (u32, u32) {
    ((k >> 32) as u32, k as u32)
}

/// The three Snowball stemmers.
pub(crate) struct Stemmers {
    en: Stemmer,
    nl: Stemmer,
    de: Stemmer,
}

impl Stemmers {
    pub(crate) fn new() -> Stemmers {
        Stemmers {
            en: Stemmer::create(Algorithm::English),
            nl: Stemmer::create(Algorithm::Dutch),
            de: Stemmer::create(Algorithm::German),
        }
    }

    /// The stem of a folded word in `lang`. Only lower-case ASCII words of
    /// 3 to [`MAX_WORD_CHARS`] letters are stemmed; anything else (numbers,
    /// other scripts) is returned as it is.
    pub(crate) fn stem(&self, lang: Lang, word: &str) -> String {
        if word.len() < 3
            || word.len() > MAX_WORD_CHARS
            || !word.bytes().all(|b| b.is_ascii_lowercase())
        {
            return word.to_string();
        }
        let stemmer = match lang {
            Lang::En => &self.en,
            Lang::Nl => &self.nl,
            Lang::De => &self.de,
        };
        stemmer.stem(word).into_owned()
    }
}

/// Lower-cases `c` and strips its diacritics into `out` (`é` → `e`, `ß` →
/// `ss`, `Æ` → `ae`); combining marks are dropped.
fn push_folded(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
        return;
    }
    for lc in c.to_lowercase() {
        match fold_char(lc) {
            Some(s) => out.push_str(s),
            None if ('\u{300}'..='\u{36f}').contains(&lc) => {}
            None => out.push(lc),
        }
    }
}

/// Diacritic folding for Latin-1 and Latin Extended-A (lower case).
fn fold_char(c: char) -> Option<&'static str> {
    if c.is_ascii() {
        return None;
    }
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'ð' | 'ď' | 'đ' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'ĥ' | 'ħ' => "h",
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => "i",
        'ĳ' => "ij",
        'ĵ' => "j",
        'ķ' => "k",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'ñ' | 'ń' | 'ņ' | 'ň' | 'ŉ' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => "o",
        'œ' => "oe",
        'ŕ' | 'ŗ' | 'ř' => "r",
        'ś' | 'ŝ' | 'ş' | 'š' | 'ș' => "s",
        'ß' => "ss",
        'ţ' | 'ť' | 'ŧ' | 'ț' => "t",
        'þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => "u",
        'ŵ' => "w",
        'ý' | 'ÿ' | 'ŷ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

/// Folds a whole string: lower case, no diacritics.
pub(crate) fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_folded(c, &mut out);
    }
    out
}

/// Calls `f` with each folded word of `text`, split the way
/// `text::split_identifier` splits names: on anything that is not a letter
/// or digit, on camelCase humps (`HTTPServer` → `http`, `server`) and on
/// letter/digit boundaries. Words longer than [`MAX_WORD_CHARS`] are cut.
/// One buffer is reused for every word.
pub(crate) fn for_each_word(text: &str, mut f: impl FnMut(&str)) {
    if text.is_ascii() {
        return for_each_ascii_word(text.as_bytes(), f);
    }
    let mut buf = String::new();
    let mut len = 0usize; // chars in the current word
    let mut prev: Option<char> = None; // last char of the current word
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            if !buf.is_empty() {
                f(&buf);
                buf.clear();
            }
            len = 0;
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let next = chars.peek().copied();
            let boundary = (p.is_lowercase() && c.is_uppercase())
                || (p.is_alphabetic() != c.is_alphabetic())
                || (p.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase));
            if boundary {
                f(&buf);
                buf.clear();
                len = 0;
            }
        }
        prev = Some(c);
        if len < MAX_WORD_CHARS {
            push_folded(c, &mut buf);
        }
        len += 1;
    }
    if !buf.is_empty() {
        f(&buf);
    }
}

/// [`for_each_word`] for ASCII text, on bytes and a stack buffer.
fn for_each_ascii_word(text: &[u8], mut f: impl FnMut(&str)) {
    let mut buf = [0u8; MAX_WORD_CHARS];
    let mut len = 0usize; // bytes in the current word (all of it, even cut)
    let mut prev = 0u8; // last byte of the current word, 0 for none
    let mut emit = |buf: &[u8; MAX_WORD_CHARS], len: usize| {
        if let Some(Ok(w)) = buf.get(..len.min(MAX_WORD_CHARS)).map(std::str::from_utf8) {
            f(w);
        }
    };
    for (i, &c) in text.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if len > 0 {
                emit(&buf, len);
            }
            len = 0;
            prev = 0;
            continue;
        }
        if prev != 0 {
            let next = text.get(i + 1).copied().unwrap_or(0);
            let boundary = (prev.is_ascii_lowercase() && c.is_ascii_uppercase())
                || (prev.is_ascii_alphabetic() != c.is_ascii_alphabetic())
                || (prev.is_ascii_uppercase()
                    && c.is_ascii_uppercase()
                    && next.is_ascii_lowercase());
            if boundary {
                emit(&buf, len);
                len = 0;
            }
        }
        prev = c;
        if let Some(slot) = buf.get_mut(len) {
            *slot = c.to_ascii_lowercase();
        }
        len += 1;
    }
    if len > 0 {
        emit(&buf, len);
    }
}

/// The folded words of `text`, at most `max` of them.
pub(crate) fn words(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    for_each_word(text, |w| {
        if out.len() < max {
            out.push(w.to_string());
        }
    });
    out
}

/// Whether the word is only digits.
pub(crate) fn is_number(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_numeric())
}

/// Function words of English, Dutch and German (folded), dropped from
/// queries and from indexed text. Words that carry meaning in a smart home
/// (`on`, `off`, `up`, `down`, `open`) are not here; the Dutch and
/// German separable particles (`aan`, `uit`, `an`, `aus`) are read before
/// this list is applied.
pub(crate) fn is_stopword(w: &str) -> bool {
    STOPWORDS.binary_search(&w).is_ok()
}

/// Sorted, for binary search. English, Dutch and German function words,
/// and quantifiers ("all the lights" is about the lights).
#[rustfmt::skip]
const STOPWORDS: &[&str] = &[
    "a", "about", "all", "alle", "allen", "alsjeblieft", "alstublieft", "am", "an", "and",
    "any", "are", "as", "at", "aub", "auch", "auf", "be", "been", "bei", "being", "bij",
    "bitte", "but", "by", "can", "could", "currently", "da", "daar", "dan", "dann", "das",
    "dass", "dat", "de", "dein", "deine", "dem", "den", "der", "des", "deze", "did", "die",
    "diese", "diesem", "diesen", "dieser", "dieses", "dit", "do", "doch", "doe", "doen", "does",
    "doing", "dort", "du", "each", "een", "eens", "ein", "eine", "einem", "einen", "einer",
    "eines", "elke", "en", "er", "es", "even", "every", "everything", "everywhere", "for",
    "from", "fur", "ga", "gaan", "graag", "had", "has", "have", "he", "hem", "her", "here",
    "het", "hier", "him", "his", "hoe", "how", "i", "ich", "ieder", "iedere", "if", "ihr", "ik",
    "im", "in", "ins", "into", "is", "ist", "it", "its", "je", "jede", "jeden", "jeder",
    "jedes", "jij", "jouw", "just", "kan", "kann", "kannst", "kindly", "konntest", "kun",
    "kunnen", "kunt", "laat", "lass", "lasse", "laten", "let", "lets", "like", "maak", "mach",
    "mache", "machen", "macht", "mag", "make", "maken", "mal", "me", "mein", "meine", "meinem",
    "meinen", "meiner", "met", "might", "mij", "mijn", "mir", "mit", "moet", "must", "my", "n",
    "naar", "nach", "need", "nog", "now", "nu", "oder", "of", "om", "ons", "onze", "ook", "op",
    "or", "our", "ours", "over", "overal", "please", "pls", "right", "samtliche", "samtlichen",
    "shall", "she", "should", "sind", "so", "soll", "sollst", "some", "such", "te", "than",
    "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to",
    "too", "tot", "u", "uberall", "und", "uns", "unser", "unsere", "us", "uw", "van", "very",
    "vom", "von", "voor", "waar", "wanneer", "want", "was", "wat", "we", "welke", "were",
    "what", "whats", "when", "where", "which", "who", "whom", "why", "wie", "wij", "wil",
    "will", "willen", "wilt", "with", "wo", "would", "wurdest", "you", "your", "yours", "z",
    "ze", "zijn", "zou", "zouden", "zu", "zum", "zur",
];

/// Words that only one of the three languages uses often: enough to guess
/// the language of a query of a few words.
fn marker(w: &str) -> Option<Lang> {
    Some(match w {
        "the" | "is" | "are" | "my" | "please" | "what" | "of" | "to" | "turn" | "set" | "and"
        | "on" | "off" | "can" | "you" | "with" | "it" => Lang::En,
        "de" | "het" | "een" | "van" | "mijn" | "wil" | "je" | "naar" | "zet" | "doe" | "aan"
        | "uit" | "op" | "kun" | "graag" | "welke" | "hoe" | "ik" | "niet" | "alle" => Lang::Nl,
        "der" | "die" | "das" | "dem" | "den" | "im" | "ist" | "bitte" | "mein" | "mach"
        | "schalte" | "und" | "aus" | "ein" | "auf" | "zu" | "ich" | "nicht" | "wie" | "vom" => {
            Lang::De
        }
        _ => return None,
    })
}

/// A guess at the language of some folded words from their function words;
/// `None` when there is no clue or a tie.
pub(crate) fn guess_lang(words: &[String]) -> Option<Lang> {
    let mut counts = [0usize; 3];
    for w in words {
        match marker(w) {
            Some(Lang::En) => counts[0] += 1,
            Some(Lang::Nl) => counts[1] += 1,
            Some(Lang::De) => counts[2] += 1,
            None => {}
        }
    }
    let best = counts.iter().copied().max().unwrap_or(0);
    if best == 0 || counts.iter().filter(|&&c| c == best).count() > 1 {
        return None;
    }
    [Lang::En, Lang::Nl, Lang::De]
        .into_iter()
        .zip(counts)
        .find(|&(_, c)| c == best)
        .map(|(l, _)| l)
}

/// Whether the word opens a noun phrase (an article, a possessive, a
/// demonstrative): a particle followed by one is a preposition
/// (`aan het lijstje`, `aus meiner Liste`), not part of a verb.
pub(crate) fn is_determiner(w: &str) -> bool {
    matches!(
        w,
        "the"
            | "a"
            | "my"
            | "de"
            | "het"
            | "een"
            | "mijn"
            | "onze"
            | "ons"
            | "je"
            | "jouw"
            | "uw"
            | "der"
            | "die"
            | "das"
            | "dem"
            | "den"
            | "des"
            | "ein"
            | "eine"
            | "einem"
            | "einen"
            | "einer"
            | "mein"
            | "meine"
            | "meinem"
            | "meinen"
            | "meiner"
            | "unser"
            | "unsere"
            | "unserer"
            | "unserem"
            | "dein"
            | "deine"
            | "deiner"
            | "diese"
            | "diesem"
            | "dieser"
    )
}

/// Linking elements between the parts of a Dutch or German compound
/// (`Haushalt-s-liste`, `boodschappen-lijst`): tried at the end of a
/// modifier when the bare modifier is not known.
const LINKERS: [&str; 4] = ["s", "en", "e", "n"];

/// Splits a folded compound word into parts that `known` recognises, the
/// Dutch and German way: the head (last part) must be known; modifiers are
/// known words, optionally followed by a linking element, and the first
/// modifier may be unknown (a room or a brand: `woonkamer|thermostaat`).
/// Every part has at least 3 chars. Returns `None` when there is no split
/// into two or more parts. Among splits, the one with the fewest chars in
/// an unknown part and then the fewest parts wins.
pub(crate) fn split_compound(word: &str, known: &dyn Fn(&str) -> bool) -> Option<Vec<String>> {
    // char boundaries, so that slicing never cuts a char
    let bounds: Vec<usize> = word
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(word.len()))
        .collect();
    let n = bounds.len() - 1; // chars
    if !(6..=MAX_WORD_CHARS).contains(&n) {
        return None;
    }
    // best[i]: cheapest split of the first i chars: (cost, parts, previous
    // boundary, part end without its linker)
    const MIN: usize = 3;
    let mut best: Vec<Option<(usize, usize, usize, usize)>> = vec![None; n + 1];
    best[0] = Some((0, 0, 0, 0));
    for end in MIN..=n {
        for start in 0..=end.saturating_sub(MIN) {
            let Some((cost, parts, _, _)) = best.get(start).copied().flatten() else {
                continue;
            };
            let (Some(&a), Some(&b)) = (bounds.get(start), bounds.get(end)) else {
                continue;
            };
            let Some(seg) = word.get(a..b) else { continue };
            let is_head = end == n;
            let (ok, core_end) = if known(seg) {
                (true, b)
            } else if !is_head {
                let l = LINKERS.iter().find(|l| {
                    seg.len() >= l.len() + MIN
                        && seg.ends_with(*l)
                        && seg.get(..seg.len() - l.len()).is_some_and(known)
                });
                match l {
                    Some(l) => (true, b - l.len()),
                    None => (false, b),
                }
            } else {
                (false, b)
            };
            // a part costs 2, and an unknown first modifier its length
            // more, so known parts cover as much as they can
            let step = if ok {
                2
            } else if start == 0 && !is_head {
                2 + (end - start)
            } else {
                continue;
            };
            let cand = (cost + step, parts + 1, start, core_end);
            let better = match best[end] {
                None => true,
                Some((c, p, _, _)) => (cand.0, cand.1) < (c, p),
            };
            if better {
                best[end] = Some(cand);
            }
        }
    }
    let (_, parts, _, _) = best[n]?;
    if parts < 2 {
        return None;
    }
    let mut out = Vec::with_capacity(parts);
    let mut end = n;
    while end > 0 {
        let (_, _, start, core_end) = best[end]?;
        let a = *bounds.get(start)?;
        out.push(word.get(a..core_end)?.to_string());
        end = start;
    }
    out.reverse();
    Some(out)
}

/// A 32-bit set of the letters in a word, for a cheap edit-distance filter:
/// words within distance `d` differ in at most `2 * d` bits.
pub(crate) fn letter_mask(w: &str) -> u32 {
    let mut m = 0u32;
    for c in w.chars() {
        let bit = if c.is_ascii_lowercase() {
            u32::from(c) - u32::from('a')
        } else {
            26 + (u32::from(c) % 6)
        };
        m |= 1 << bit;
    }
    m
}

const MAX_DIST_CHARS: usize = 48;

/// Optimal-string-alignment distance (Levenshtein plus adjacent
/// transpositions) between `a` and `b`, or `None` when it is above `max`.
/// Works on stack arrays: words over 48 chars are never close.
pub(crate) fn edit_distance(a: &str, b: &str, max: usize) -> Option<usize> {
    let mut ac = ['\0'; MAX_DIST_CHARS];
    let mut bc = ['\0'; MAX_DIST_CHARS];
    let mut n = 0;
    for c in a.chars() {
        *ac.get_mut(n)? = c;
        n += 1;
    }
    let mut m = 0;
    for c in b.chars() {
        *bc.get_mut(m)? = c;
        m += 1;
    }
    if n.abs_diff(m) > max {
        return None;
    }
    // three rows: i-2, i-1, i
    let mut rows = [[0usize; MAX_DIST_CHARS + 1]; 3];
    for (j, v) in rows[0].iter_mut().enumerate().take(m + 1) {
        *v = j;
    }
    for i in 1..=n {
        let (cur, prev, prev2) = (i % 3, (i + 2) % 3, (i + 1) % 3);
        rows[cur][0] = i;
        let mut row_min = i;
        for j in 1..=m {
            let cost = usize::from(ac[i - 1] != bc[j - 1]);
            let mut v = (rows[prev][j] + 1)
                .min(rows[cur][j - 1] + 1)
                .min(rows[prev][j - 1] + cost);
            if i > 1 && j > 1 && ac[i - 1] == bc[j - 2] && ac[i - 2] == bc[j - 1] {
                v = v.min(rows[prev2][j - 2] + 1);
            }
            rows[cur][j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
    }
    let d = rows[n % 3][m];
    (d <= max).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::split_identifier;

    #[test]
    fn sort_keys_round_trip() {
        for x in [0.0f32, 0.5, 1.0, 1234.5678] {
            assert_eq!(undesc(desc(x)), x);
        }
        assert!(desc(2.0) < desc(1.0));
        assert!(key(1, 0) > key(0, u32::MAX));
        assert_eq!(halves(key(7, 9)), (7, 9));
    }

    #[test]
    fn stopwords_are_sorted_and_folded() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(STOPWORDS.iter().all(|w| fold(w) == *w));
        assert!(is_stopword("the") && is_stopword("het") && is_stopword("der"));
        assert!(!is_stopword("on") && !is_stopword("light"));
    }

    #[test]
    fn folds_diacritics_and_case() {
        assert_eq!(fold("Lautstärke"), "lautstarke");
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("Écrire ÆØ"), "ecrire aeo");
        assert_eq!(fold("ŁÓDŹ"), "lodz");
        // decomposed e + combining acute
        assert_eq!(fold("e\u{301}te\u{301}"), "ete");
        assert_eq!(fold("日本"), "日本");
    }

    #[test]
    fn words_split_like_identifiers() {
        for s in [
            "HassLightSet",
            "get_home_structure",
            "HTTPServer2go",
            "light__HassTurnOn",
            "admin.tools.list",
            "Turn on the Kitchen light, please!",
            "20.5° in the woonkamer",
        ] {
            let expected: Vec<String> = split_identifier(s).iter().map(|w| fold(w)).collect();
            assert_eq!(words(s, 100), expected, "{s}");
        }
        assert_eq!(words("a b c d", 2), ["a", "b"]);
        // the ASCII fast path and the general path agree
        for s in ["HassLightSet v2 HTTPServer", "get_home_structure.list", "x"] {
            let mut general = Vec::new();
            for_each_word(&format!("{s} é"), |w| general.push(w.to_string()));
            general.pop();
            assert_eq!(words(s, 100), general, "{s}");
        }
        assert!(words("🙂 ** ()", 10).is_empty());
        let long = "x".repeat(100);
        assert_eq!(words(&long, 10)[0].len(), MAX_WORD_CHARS);
    }

    #[test]
    fn stems_three_languages() {
        let s = Stemmers::new();
        assert_eq!(s.stem(Lang::En, "lights"), "light");
        assert_eq!(s.stem(Lang::En, "turns"), "turn");
        assert_eq!(s.stem(Lang::Nl, "lampen"), "lamp");
        assert_eq!(s.stem(Lang::De, "lampen"), "lamp");
        // not ASCII, too short or too long: untouched
        assert_eq!(s.stem(Lang::En, "日本語"), "日本語");
        assert_eq!(s.stem(Lang::En, "is"), "is");
        // arbitrary ASCII never panics
        let mut x: u32 = 7;
        for _ in 0..2000 {
            let mut w = String::new();
            for _ in 0..(x % 12) + 1 {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                w.push(char::from(b'a' + ((x >> 16) % 26) as u8));
            }
            for l in [Lang::En, Lang::Nl, Lang::De] {
                let _ = s.stem(l, &w);
            }
        }
    }

    #[test]
    fn guesses_language() {
        let w = |s: &str| words(s, 20);
        assert_eq!(guess_lang(&w("turn on the light")), Some(Lang::En));
        assert_eq!(guess_lang(&w("doe het licht aan")), Some(Lang::Nl));
        assert_eq!(guess_lang(&w("schalte das Licht an")), Some(Lang::De));
        assert_eq!(guess_lang(&w("rover")), None);
    }

    #[test]
    fn splits_compounds() {
        let known = |s: &str| {
            matches!(
                s,
                "lamp" | "lampje" | "thermostaat" | "temperatuur" | "liste" | "kamer" | "haushalt"
            )
        };
        let split = |w: &str| split_compound(w, &known);
        // known parts cover as much as they can
        assert_eq!(
            split("slaapkamerlampje").unwrap(),
            ["slaap", "kamer", "lampje"]
        );
        assert_eq!(split("slaapzaallampje").unwrap(), ["slaapzaal", "lampje"]);
        assert_eq!(
            split("woonkamerthermostaattemperatuur").unwrap(),
            ["woon", "kamer", "thermostaat", "temperatuur"]
        );
        assert_eq!(split("haushaltsliste").unwrap(), ["haushalt", "liste"]);
        assert_eq!(split("lampen"), None);
        assert_eq!(split("thermostaat"), None);
        assert_eq!(split("kamerx"), None);
        assert_eq!(split("ééééééélamp").unwrap(), ["ééééééé", "lamp"]);
        assert_eq!(split(&"a".repeat(200)), None);
    }

    #[test]
    fn edit_distance_is_bounded() {
        assert_eq!(edit_distance("light", "lihgt", 2), Some(1));
        assert_eq!(edit_distance("light", "lights", 2), Some(1));
        assert_eq!(edit_distance("light", "night", 1), Some(1));
        assert_eq!(edit_distance("light", "lamp", 2), None);
        assert_eq!(edit_distance("", "ab", 2), Some(2));
        assert_eq!(edit_distance("thermostaat", "termostat", 2), Some(2));
        assert_eq!(edit_distance(&"a".repeat(60), "a", 2), None);
        let a = letter_mask("light");
        let b = letter_mask("lihgt");
        assert_eq!((a ^ b).count_ones(), 0);
    }
}
