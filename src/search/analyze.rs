//! Text analysis shared by the index and the queries: Unicode folding,
//! tokenising (identifiers and prose alike), stop-words, a language guess
//! (English, Dutch, German, French), Snowball stemming, compound splitting
//! and a bounded edit distance.
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
    Fr,
}

/// A fast, deterministic hash of a short string (FxHash's multiply-rotate
/// on 8 bytes at a time, seeded with the length): the same on every
/// platform, so the index is too. Never 0.
#[inline(always)]
fn hash(b: &[u8]) -> u32 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let n = b.len();
    let mut h = (n as u64).wrapping_mul(K);
    let mut mix = |w: u64| h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    if n <= 8 {
        mix(pack(b));
    } else {
        let mut i = 0;
        while i + 8 < n {
            mix(read8(b, i));
            i += 8;
        }
        // the last 8 bytes (read again with some before them)
        mix(read8(b, n - 8));
    }
    // the high half is the well mixed one
    ((h >> 32) as u32).max(1)
}

/// The 8 bytes of `b` at `i`, little-endian (0 past the end).
#[inline(always)]
fn read8(b: &[u8], i: usize) -> u64 {
    let w: Option<[u8; 8]> = b.get(i..i.wrapping_add(8)).and_then(|s| s.try_into().ok());
    u64::from_le_bytes(w.unwrap_or([0; 8]))
}

/// The 4 bytes of `b` at `i`, little-endian (0 past the end).
#[inline(always)]
fn read4(b: &[u8], i: usize) -> u64 {
    let w: Option<[u8; 4]> = b.get(i..i.wrapping_add(4)).and_then(|s| s.try_into().ok());
    u64::from(u32::from_le_bytes(w.unwrap_or([0; 4])))
}

/// Every byte of a string of at most 8 bytes in one number, by two reads
/// that overlap (or three bytes that cover a string of 3): two strings of
/// the same length are equal exactly when their packs are.
#[inline(always)]
fn pack(b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 4 {
        return read4(b, 0) | (read4(b, n - 4) << 32);
    }
    let byte = |i: usize| u64::from(b.get(i).copied().unwrap_or(0));
    byte(0) | (byte(n / 2) << 8) | (byte(n.wrapping_sub(1)) << 16)
}

/// Whether two byte strings are equal, in a few loads for short ones (no
/// call to `memcmp`).
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n <= 8 {
        return pack(a) == pack(b);
    }
    let mut i = 0;
    while i + 8 < n {
        if read8(a, i) != read8(b, i) {
            return false;
        }
        i += 8;
    }
    read8(a, n - 8) == read8(b, n - 8)
}

/// A set of distinct strings, each numbered in the order it was first
/// added: one text buffer for all of them and an open-addressing table of
/// numbers, so that a string costs its bytes and 20 bytes, with no
/// allocation of its own. Maps from strings are a `Strings` and a `Vec`
/// indexed by the number.
#[derive(Debug, Clone, Default)]
pub(crate) struct Strings {
    text: String,
    /// Where each string ends in `text` (it starts where the one before
    /// ends).
    ends: Vec<u32>,
    /// `hash << 32 | number + 1` of the string in each slot, 0 for none;
    /// a power of two long, at most half full.
    slots: Vec<u64>,
}

impl Strings {
    /// Number of strings.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    #[inline(always)]
    fn range(&self, id: u32) -> (usize, usize) {
        let i = id as usize;
        let start = match i.checked_sub(1) {
            Some(p) => self.ends.get(p).copied().unwrap_or(0),
            None => 0,
        };
        let end = self.ends.get(i).copied().unwrap_or(start);
        (start as usize, end as usize)
    }

    /// The string numbered `id` (empty for none).
    pub(crate) fn get(&self, id: u32) -> &str {
        let (start, end) = self.range(id);
        self.text.get(start..end).unwrap_or("")
    }

    /// Every string, in number order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.ends.len()).map(|i| self.get(i as u32))
    }

    /// The number of `s`, or the empty slot where it would go.
    #[inline(always)]
    fn probe(&self, s: &[u8], h: u32) -> Result<u32, usize> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut at = h as usize & mask;
        // the table is never full, so an empty slot ends every probe
        for _ in 0..self.slots.len() {
            let slot = self.slots.get(at).copied().unwrap_or(0);
            if slot == 0 {
                return Err(at);
            }
            if (slot >> 32) as u32 == h {
                let id = (slot as u32).wrapping_sub(1);
                let (start, end) = self.range(id);
                if same(self.text.as_bytes().get(start..end).unwrap_or(&[]), s) {
                    return Ok(id);
                }
            }
            at = (at + 1) & mask;
        }
        Err(usize::MAX)
    }

    /// [`Strings::probe`], in one place for the callers that are not hot.
    fn lookup(&self, s: &[u8]) -> (u32, Result<u32, usize>) {
        let h = hash(s);
        if self.slots.is_empty() {
            return (h, Err(usize::MAX));
        }
        (h, self.probe(s, h))
    }

    /// The number of the string whose bytes are `s`, when it is in the set
    /// (inlined: for the index's loop over every word).
    #[inline(always)]
    pub(crate) fn find_hot(&self, s: &[u8]) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        self.probe(s, hash(s)).ok()
    }

    /// The number of `s`, when it is in the set.
    pub(crate) fn find(&self, s: &str) -> Option<u32> {
        self.lookup(s.as_bytes()).1.ok()
    }

    /// Whether `s` is in the set.
    pub(crate) fn contains(&self, s: &str) -> bool {
        self.find(s).is_some()
    }

    /// Adds `s` when it is new; returns its number and whether it was new.
    pub(crate) fn insert(&mut self, s: &str) -> (u32, bool) {
        if 2 * (self.ends.len() + 1) > self.slots.len() {
            self.grow();
        }
        let (h, found) = self.lookup(s.as_bytes());
        match found {
            Ok(id) => (id, false),
            Err(at) => {
                let id = u32::try_from(self.ends.len()).unwrap_or(u32::MAX);
                self.text.push_str(s);
                self.ends
                    .push(u32::try_from(self.text.len()).unwrap_or(u32::MAX));
                if let Some(slot) = self.slots.get_mut(at) {
                    *slot = (u64::from(h) << 32) | u64::from(id.saturating_add(1));
                }
                (id, true)
            }
        }
    }

    fn grow(&mut self) {
        let n = (self.slots.len() * 2).max(16);
        let mask = n - 1;
        let mut slots = vec![0u64; n];
        for &slot in self.slots.iter().filter(|&&s| s != 0) {
            let mut at = (slot >> 32) as usize & mask;
            while slots.get(at).is_some_and(|&s| s != 0) {
                at = (at + 1) & mask;
            }
            if let Some(s) = slots.get_mut(at) {
                *s = slot;
            }
        }
        self.slots = slots;
    }

    /// Frees the spare capacity (for an index that is done growing).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

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

/// The four Snowball stemmers.
pub(crate) struct Stemmers {
    en: Stemmer,
    nl: Stemmer,
    de: Stemmer,
    fr: Stemmer,
}

impl Stemmers {
    pub(crate) fn new() -> Stemmers {
        Stemmers {
            en: Stemmer::create(Algorithm::English),
            nl: Stemmer::create(Algorithm::Dutch),
            de: Stemmer::create(Algorithm::German),
            fr: Stemmer::create(Algorithm::French),
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
            Lang::Fr => &self.fr,
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
    let mut out = String::new();
    fold_into(s, &mut out);
    out
}

/// [`fold`] into a buffer (cleared first).
pub(crate) fn fold_into(s: &str, out: &mut String) {
    out.clear();
    if s.is_ascii() {
        out.push_str(s);
        out.make_ascii_lowercase();
        return;
    }
    for c in s.chars() {
        push_folded(c, out);
    }
}

/// Calls `f` with each folded word of `text`, split the way
/// `text::split_identifier` splits names: on anything that is not a letter
/// or digit, on camelCase humps (`HTTPServer` → `http`, `server`) and on
/// letter/digit boundaries. Words longer than [`MAX_WORD_CHARS`] are cut.
pub(crate) fn for_each_word(text: &str, mut f: impl FnMut(&str)) {
    for_each_word_bytes(text, &mut |w| {
        if let Ok(w) = std::str::from_utf8(w) {
            f(w);
        }
    });
}

/// [`for_each_word`] with each word as its UTF-8 bytes (the index's hot
/// path looks them up as they are). ASCII is read as bytes; from the
/// first word with a char that is not ASCII on, chars are read.
pub(crate) fn for_each_word_bytes(text: &str, f: &mut dyn FnMut(&[u8])) {
    let b = text.as_bytes();
    let class = |i: usize| b.get(i).map_or(0, |&x| CLASS[x as usize]);
    let mut i = 0;
    while let Some(&x) = b.get(i) {
        let mut prev = CLASS[x as usize];
        if prev & WORD == 0 {
            if prev == WIDE {
                return for_each_wide_word(text.get(i..).unwrap_or(""), f);
            }
            i += 1;
            continue;
        }
        let start = i;
        let mut upper = prev == UPPER;
        i += 1;
        loop {
            // most bytes: lower-case letters after one, digits after one
            if prev == LOWER {
                while b.get(i).is_some_and(u8::is_ascii_lowercase) {
                    i += 1;
                }
            } else if prev == DIGIT {
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            let Some(&x) = b.get(i) else { break };
            let c = CLASS[x as usize];
            if c == WIDE {
                // a word with a char that is not ASCII: chars from here on
                return for_each_wide_word(text.get(start..).unwrap_or(""), f);
            }
            let boundary = c & WORD == 0
                || (c != prev && (prev == DIGIT || c == DIGIT || (prev == LOWER && c == UPPER)))
                || (prev == UPPER && c == UPPER && class(i + 1) == LOWER);
            if boundary {
                break;
            }
            upper |= c == UPPER;
            prev = c;
            i += 1;
        }
        let end = i.min(start + MAX_WORD_CHARS);
        let Some(word) = b.get(start..end) else {
            continue;
        };
        if upper {
            let mut buf = [0u8; MAX_WORD_CHARS];
            if let Some(dst) = buf.get_mut(..word.len()) {
                dst.copy_from_slice(word);
                dst.make_ascii_lowercase();
                f(dst);
            }
        } else {
            f(word);
        }
    }
}

/// [`for_each_word`] on chars, for text that is not ASCII.
fn for_each_wide_word(text: &str, f: &mut dyn FnMut(&[u8])) {
    let mut buf = String::new();
    let mut len = 0usize; // chars in the current word
    let mut prev: Option<char> = None; // last char of the current word
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            if !buf.is_empty() {
                f(buf.as_bytes());
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
                f(buf.as_bytes());
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
        f(buf.as_bytes());
    }
}

/// Byte classes, one bit each: letters and digits ([`WORD`]) for the
/// tokenizer, the others for the index's chunks of prose.
pub(crate) const LOWER: u8 = 1;
pub(crate) const UPPER: u8 = 2;
pub(crate) const DIGIT: u8 = 4;
/// The bits of a byte that is part of a word.
pub(crate) const WORD: u8 = LOWER | UPPER | DIGIT;
/// White space or punctuation other than `_ . - /`: ends a chunk.
pub(crate) const SEP: u8 = 8;
/// `_ . - /`: joins the words of an identifier.
pub(crate) const JOIN: u8 = 16;
/// Not ASCII.
pub(crate) const WIDE: u8 = 32;

/// The class of every byte.
pub(crate) static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = match b {
            b'a'..=b'z' => LOWER,
            b'A'..=b'Z' => UPPER,
            b'0'..=b'9' => DIGIT,
            b'_' | b'.' | b'-' | b'/' => JOIN,
            // what `char::is_whitespace` and `is_ascii_punctuation` say
            b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ' => SEP,
            0x21..=0x2f | 0x3a..=0x40 | 0x5b..=0x60 | 0x7b..=0x7e => SEP,
            0x80..=0xff => WIDE,
            _ => 0,
        };
        i += 1;
    }
    t
};

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

/// Function words of English, Dutch, German and French (folded), dropped from
/// queries and from indexed text. Words that carry meaning in a smart home
/// (`on`, `off`, `up`, `down`, `open`) are not here; the Dutch and
/// German separable particles (`aan`, `uit`, `an`, `aus`) are read before
/// this list is applied.
pub(crate) fn is_stopword(w: &str) -> bool {
    STOPWORDS.binary_search(&w).is_ok()
}

/// Sorted, for binary search. English, Dutch, German and French function
/// words, quantifiers ("all the lights" is about the lights), `still` and
/// `already`, and the verbs that only carry a question (`staat`, `steht`,
/// `est`: the question itself is read by [`super::act`]).
#[rustfmt::skip]
pub(crate) const STOPWORDS: &[&str] = &[
    "a", "about", "ai", "al", "all", "alle", "allen", "already", "alsjeblieft", "alstublieft",
    "am", "an", "and", "any", "anything", "are", "aren", "as", "at", "au", "aub", "auch",
    "auf", "aussi", "aux", "avec", "avez", "avons", "be", "been", "bei", "being", "ben",
    "bent", "bij", "bist", "bitte", "but", "by", "ca", "can", "ce", "ces", "cet", "cette",
    "combien", "comment", "could", "currently", "da", "daar", "dan", "dann", "dans", "das",
    "dass", "dat", "de", "dein", "deine", "deja", "dem", "den", "denn", "der", "des", "deze",
    "did", "didn", "die", "diese", "diesem", "diesen", "dieser", "dieses", "dit", "do", "doch",
    "doe", "doen", "does", "doesn", "doing", "dort", "du", "each", "een", "eens", "eigenlijk",
    "eigentlich", "ein", "eine", "einem", "einen", "einer", "eines", "elke", "elle", "elles",
    "en", "encore", "er", "ergens", "es", "est", "et", "etre", "etwas", "even", "every",
    "everything", "everywhere", "fait", "for", "from", "fur", "ga", "gaan", "geen", "gerade",
    "gern", "gerne", "gibt", "gibts", "graag", "hab", "habe", "haben", "had", "has", "hast",
    "hat", "have", "having", "he", "heb", "hebben", "hebt", "heeft", "hem", "her", "here",
    "het", "hier", "him", "his", "hoe", "hoeveel", "how", "hui", "i", "ich", "ici", "ieder",
    "iedere", "iets", "if", "ihr", "ik", "il", "ils", "im", "in", "ins", "into", "irgendein",
    "irgendeine", "irgendwelche", "irgendwo", "is", "isn", "ist", "it", "its", "je", "jede",
    "jeden", "jeder", "jedes", "jemand", "jij", "jouw", "just", "kan", "kann", "kannst",
    "kein", "keine", "kindly", "konntest", "kun", "kunnen", "kunt", "la", "laat", "lass",
    "lasse", "laten", "le", "les", "let", "lets", "leur", "leurs", "liegt", "liggen", "ligt",
    "like", "links", "lui", "ma", "maak", "mach", "mache", "machen", "macht", "mag", "mais",
    "make", "maken", "mal", "many", "me", "mein", "meine", "meinem", "meinen", "meiner",
    "merci", "mes", "met", "might", "mij", "mijn", "mir", "mit", "moet", "moi", "mon", "much",
    "must", "my", "n", "naar", "nach", "ne", "need", "nicht", "niet", "noch", "nog", "nou",
    "nous", "now", "nu", "oder", "of", "om", "ons", "ont", "onze", "ook", "op", "or", "ou",
    "our", "ours", "over", "overal", "par", "pas", "peu", "peux", "please", "pls", "pour",
    "pourrais", "pouvez", "qu", "que", "quel", "quelle", "quelles", "quels", "qui", "quoi",
    "rechts", "right", "sa", "samtliche", "samtlichen", "schon", "se", "ses", "shall", "she",
    "should", "si", "sind", "so", "soll", "sollst", "some", "something", "sont", "staan",
    "staat", "stehen", "steht", "still", "stond", "stonden", "stp", "such", "suis", "sur",
    "svp", "ta", "te", "tes", "than", "that", "the", "their", "them", "then", "there", "these",
    "they", "this", "those", "to", "toi", "too", "tot", "tous", "tout", "toute", "toutes",
    "tres", "tu", "u", "uberall", "un", "und", "une", "uns", "unser", "unsere", "us", "uw",
    "van", "veel", "very", "veux", "viel", "viele", "vom", "von", "voor", "vorn", "vorne",
    "vos", "votre", "voudrais", "vous", "waar", "wanneer", "want", "war", "waren", "was",
    "wat", "we", "wel", "welke", "werd", "werden", "were", "what", "whats", "when", "where",
    "which", "who", "whom", "why", "wie", "wieder", "wieviel", "wieviele", "wij", "wil",
    "will", "willen", "wilt", "wird", "with", "wo", "worden", "wordt", "would", "wurde",
    "wurdest", "yet", "you", "your", "yours", "z", "ze", "zijn", "zit", "zitten", "zou",
    "zouden", "zu", "zum", "zur",
];

/// Words that only one of the four languages uses often: enough to guess
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
        "le" | "la" | "les" | "du" | "une" | "est" | "dans" | "sur" | "au" | "aux" | "quel"
        | "quelle" | "quels" | "quelles" | "qu" | "allume" | "eteins" | "mets" | "et" | "pour"
        | "combien" | "tous" | "toutes" | "il" => Lang::Fr,
        _ => return None,
    })
}

/// A guess at the language of some folded words from their function words;
/// `None` when there is no clue or a tie.
pub(crate) fn guess_lang(words: &[String]) -> Option<Lang> {
    let mut counts = [0usize; 4];
    for w in words {
        match marker(w) {
            Some(Lang::En) => counts[0] += 1,
            Some(Lang::Nl) => counts[1] += 1,
            Some(Lang::De) => counts[2] += 1,
            Some(Lang::Fr) => counts[3] += 1,
            None => {}
        }
    }
    let best = counts.iter().copied().max().unwrap_or(0);
    if best == 0 || counts.iter().filter(|&&c| c == best).count() > 1 {
        return None;
    }
    [Lang::En, Lang::Nl, Lang::De, Lang::Fr]
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
            | "le"
            | "la"
            | "les"
            | "l"
            | "un"
            | "une"
            | "mon"
            | "ma"
            | "mes"
            | "ce"
            | "cette"
            | "ces"
            | "du"
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
    fn same_compares_every_byte() {
        let words = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefgh",
            "abcdefghi",
            "abcdefghijklmnopq",
        ];
        for a in words {
            for b in words {
                assert_eq!(same(a.as_bytes(), b.as_bytes()), a == b, "{a} {b}");
            }
            // one byte changed anywhere
            for i in 0..a.len() {
                let mut c = a.as_bytes().to_vec();
                c[i] ^= 1;
                assert!(!same(a.as_bytes(), &c), "{a} {i}");
            }
        }
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
        // the ASCII path and the char path agree, and so does switching
        // from one to the other at any word
        let samples = [
            "HassLightSet v2 HTTPServer",
            "get_home_structure.list",
            "x",
            "ABCd eFG1x2 a-b_c.d/e",
            &"y".repeat(50),
        ];
        for s in samples {
            let mut chars = Vec::new();
            for_each_wide_word(s, &mut |w| {
                chars.push(String::from_utf8_lossy(w).into_owned());
            });
            assert_eq!(words(s, 100), chars, "{s}");
        }
        for (s, expected) in [
            ("Lautstärke", &["lautstarke"][..]),
            (
                "HassTurnOn Lautstärke",
                &["hass", "turn", "on", "lautstarke"],
            ),
            ("ABé", &["a", "be"]),
            ("ABÉd", &["ab", "ed"]),
            ("it’s HTTPServer", &["it", "s", "http", "server"]),
            ("v2ä x", &["v", "2", "a", "x"]),
        ] {
            assert_eq!(words(s, 100), expected, "{s}");
        }
        assert!(words("🙂 ** ()", 10).is_empty());
        let long = "x".repeat(100);
        assert_eq!(words(&long, 10)[0].len(), MAX_WORD_CHARS);
    }

    #[test]
    fn stems_four_languages() {
        let s = Stemmers::new();
        assert_eq!(s.stem(Lang::En, "lights"), "light");
        assert_eq!(s.stem(Lang::En, "turns"), "turn");
        assert_eq!(s.stem(Lang::Nl, "lampen"), "lamp");
        assert_eq!(s.stem(Lang::De, "lampen"), "lamp");
        assert_eq!(s.stem(Lang::Fr, "lumieres"), "lumier");
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
            for l in [Lang::En, Lang::Nl, Lang::De, Lang::Fr] {
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
        assert_eq!(guess_lang(&w("allume la lumière du salon")), Some(Lang::Fr));
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
