//! Character references: `&amp;`, `&#233;`, `&#xE9;` and the named
//! references pages use — HTML 4's, HTML 5's names for ASCII punctuation
//! and Latin-1, the 106 legacy names that also match without `;`, and
//! common symbols (362 of the WHATWG table's 2,125; the whole table would
//! add 14.4 KB to the gzipped wasm, see `gen_entities.py --full`). Others
//! stay as written. One forward pass; a reference never expands to more
//! bytes than it was written with, so an "entity bomb" is just text.

use super::entity_table::{NAMES, OFFSETS, VALUES};

/// The longest name in the table.
const MAX_NAME: usize = 32;

/// Appends `raw` to `out` with its character references decoded. In an
/// attribute value a legacy name followed by `=` or an alphanumeric stays
/// as written (`?a=1&copy=2` keeps its `&copy`).
pub(crate) fn decode_into(raw: &str, out: &mut String, attribute: bool) {
    let bytes = raw.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while let Some(off) = bytes
        .get(i..)
        .and_then(|b| b.iter().position(|&c| c == b'&'))
    {
        let amp = i + off;
        out.push_str(raw.get(start..amp).unwrap_or(""));
        let (consumed, decoded) = reference(raw, amp + 1, attribute);
        match decoded {
            Some(d) => {
                for c in d.into_iter().flatten() {
                    out.push(c);
                }
                i = amp + 1 + consumed;
            }
            None => {
                out.push('&');
                i = amp + 1;
            }
        }
        start = i;
    }
    out.push_str(raw.get(start..).unwrap_or(""));
}

/// Decodes `raw` into a new string (borrowing when there is nothing to do).
pub(crate) fn decode(raw: &str, attribute: bool) -> std::borrow::Cow<'_, str> {
    if !raw.contains('&') {
        return std::borrow::Cow::Borrowed(raw);
    }
    let mut s = String::with_capacity(raw.len());
    decode_into(raw, &mut s, attribute);
    std::borrow::Cow::Owned(s)
}

type Decoded = Option<[Option<char>; 2]>;

/// The reference starting at `at` (just after `&`): how many bytes it takes
/// and what it stands for, or `None` when it is not one.
fn reference(raw: &str, at: usize, attribute: bool) -> (usize, Decoded) {
    let bytes = raw.as_bytes();
    match bytes.get(at) {
        Some(b'#') => numeric(bytes, at + 1),
        Some(c) if c.is_ascii_alphanumeric() => named(bytes, at, attribute),
        _ => (0, None),
    }
}

fn numeric(bytes: &[u8], at: usize) -> (usize, Decoded) {
    let (hex, digits_at) = match bytes.get(at) {
        Some(b'x' | b'X') => (true, at + 1),
        _ => (false, at),
    };
    let mut value: u32 = 0;
    let mut i = digits_at;
    while let Some(&c) = bytes.get(i) {
        let d = match (hex, c) {
            (_, b'0'..=b'9') => u32::from(c - b'0'),
            (true, b'a'..=b'f') => u32::from(c - b'a' + 10),
            (true, b'A'..=b'F') => u32::from(c - b'A' + 10),
            _ => break,
        };
        // saturate: anything past U+10FFFF is replaced anyway
        value = value
            .saturating_mul(if hex { 16 } else { 10 })
            .saturating_add(d)
            .min(0x11_0000);
        i += 1;
    }
    if i == digits_at {
        return (0, None);
    }
    if bytes.get(i) == Some(&b';') {
        i += 1;
    }
    // `at` is one past `&`; the count is from `&`'s next byte (the `#`)
    let consumed = i - (at - 1);
    (consumed, Some([Some(numeric_char(value)), None]))
}

/// The character a numeric reference stands for, with the HTML rules: NUL,
/// surrogates and values past U+10FFFF become U+FFFD; 0x80–0x9F are read as
/// windows-1252.
fn numeric_char(value: u32) -> char {
    if (0x80..=0x9f).contains(&value) {
        if let Some(c) = super::super::web::charset::windows_1252_high(value as u8) {
            return c;
        }
    }
    match value {
        0 => '\u{fffd}',
        v => char::from_u32(v).unwrap_or('\u{fffd}'),
    }
}

fn named(bytes: &[u8], at: usize, attribute: bool) -> (usize, Decoded) {
    let mut end = at;
    while end - at < MAX_NAME && bytes.get(end).is_some_and(u8::is_ascii_alphanumeric) {
        end += 1;
    }
    let name = bytes.get(at..end).unwrap_or(&[]);
    if bytes.get(end) == Some(&b';') {
        if let Some(idx) = lookup(name) {
            return (end + 1 - at, Some(value(idx)));
        }
    }
    // a legacy name without `;`: the longest such prefix (legacy names are
    // at most six letters)
    for len in (2..=name.len().min(6)).rev() {
        let prefix = name.get(..len).unwrap_or(&[]);
        let Some(idx) = lookup(prefix) else { continue };
        if VALUES.get(idx * 2).is_none_or(|v| v & (1 << 31) == 0) {
            continue;
        }
        let next = bytes.get(at + len);
        if attribute && next.is_some_and(|&c| c == b'=' || c.is_ascii_alphanumeric()) {
            return (0, None);
        }
        return (len, Some(value(idx)));
    }
    (0, None)
}

fn name_at(idx: usize) -> &'static [u8] {
    let (Some(&a), Some(&b)) = (OFFSETS.get(idx), OFFSETS.get(idx + 1)) else {
        return &[];
    };
    NAMES
        .as_bytes()
        .get(usize::from(a)..usize::from(b))
        .unwrap_or(&[])
}

fn lookup(name: &[u8]) -> Option<usize> {
    let (mut lo, mut hi) = (0, OFFSETS.len().saturating_sub(1));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match name_at(mid).cmp(name) {
            std::cmp::Ordering::Equal => return Some(mid),
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
        }
    }
    None
}

fn value(idx: usize) -> [Option<char>; 2] {
    let a = VALUES.get(idx * 2).map_or(0xfffd, |v| v & !(1 << 31));
    let b = VALUES.get(idx * 2 + 1).copied().unwrap_or(0);
    [
        Some(char::from_u32(a).unwrap_or('\u{fffd}')),
        (b != 0).then(|| char::from_u32(b)).flatten(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> String {
        decode(s, false).into_owned()
    }

    #[test]
    fn table_is_sorted_and_complete() {
        let n = OFFSETS.len() - 1;
        assert_eq!(n, 362);
        assert_eq!(VALUES.len(), 2 * n);
        for i in 1..OFFSETS.len() - 1 {
            assert!(name_at(i - 1) < name_at(i));
        }
        let legacy = (0..n).filter(|i| VALUES[i * 2] & (1 << 31) != 0);
        assert_eq!(legacy.count(), 106);
    }

    #[test]
    fn named_and_numeric() {
        assert_eq!(d("a &amp; b &lt;c&gt; &quot;"), "a & b <c> \"");
        assert_eq!(d("caf&eacute; &euro;5 &hellip;"), "café €5 …");
        assert_eq!(d("&#233;&#xe9;&#XE9;&#x1F600;"), "ééé😀");
        assert_eq!(d("&period;&lpar;&check;&half;"), ".(✓½");
        // a name outside the table stays as written
        assert_eq!(d("&NotEqualTilde;"), "&NotEqualTilde;");
        assert_eq!(d("&notin; &notit; &not"), "∉ ¬it; ¬");
        assert_eq!(d("&copy 2024 &ampx"), "© 2024 &x");
        assert_eq!(
            d("&#0;&#xD800;&#x110000;&#99999999999999;"),
            "\u{fffd}".repeat(4)
        );
        assert_eq!(d("&#128;&#x92;"), "€’");
        assert_eq!(d("& &; &# &#x; &unknown; &"), "& &; &# &#x; &unknown; &");
        assert_eq!(d("&AElig;&zwnj;"), "Æ\u{200c}");
    }

    #[test]
    fn attributes_keep_legacy_names_before_equals() {
        assert_eq!(decode("?a=1&copy=2&amp;b", true), "?a=1&copy=2&b");
        assert_eq!(decode("x&copyz", true), "x&copyz");
        assert_eq!(decode("x&copy;z", true), "x©z");
    }

    #[test]
    fn long_names_are_bounded() {
        let s = format!("&{};", "a".repeat(10_000));
        assert_eq!(d(&s), s);
    }
}
