//! Which character encoding a response is in, and decoding the common
//! ones. The answer is a WHATWG encoding name, which `TextDecoder` in
//! JavaScript accepts as is; UTF-8, UTF-16 and windows-1252 (which the web
//! platform also uses for `iso-8859-1` and `us-ascii`) are decoded here,
//! so the module carries no large encoding tables. For the others the
//! shell decodes with `new TextDecoder(name)`.
//!
//! The order is the HTML standard's: a byte order mark wins, then the
//! `charset` of the `Content-Type` header, then a `<meta charset>` or
//! `<meta http-equiv="Content-Type">` in the first 1024 bytes, and
//! without any of them UTF-8 when the bytes are valid UTF-8 and
//! windows-1252 when they are not. Unknown labels are skipped.

use crate::html::tokenizer::{tokenize, Attr, Sink};

/// WHATWG encoding labels and the encoding each names, sorted by label.
#[rustfmt::skip]
const LABELS: &[(&str, &str)] = &[
    ("866", "ibm866"),
    ("ansi_x3.4-1968", "windows-1252"),
    ("arabic", "iso-8859-6"),
    ("ascii", "windows-1252"),
    ("asmo-708", "iso-8859-6"),
    ("big5", "big5"),
    ("big5-hkscs", "big5"),
    ("chinese", "gbk"),
    ("cn-big5", "big5"),
    ("cp1250", "windows-1250"),
    ("cp1251", "windows-1251"),
    ("cp1252", "windows-1252"),
    ("cp1253", "windows-1253"),
    ("cp1254", "windows-1254"),
    ("cp1255", "windows-1255"),
    ("cp1256", "windows-1256"),
    ("cp1257", "windows-1257"),
    ("cp1258", "windows-1258"),
    ("cp819", "windows-1252"),
    ("cp866", "ibm866"),
    ("csbig5", "big5"),
    ("cseuckr", "euc-kr"),
    ("cseucpkdfmtjapanese", "euc-jp"),
    ("csgb2312", "gbk"),
    ("csibm866", "ibm866"),
    ("csiso2022jp", "iso-2022-jp"),
    ("csiso2022kr", "replacement"),
    ("csiso58gb231280", "gbk"),
    ("csiso88596e", "iso-8859-6"),
    ("csiso88596i", "iso-8859-6"),
    ("csiso88598e", "iso-8859-8"),
    ("csiso88598i", "iso-8859-8-i"),
    ("csisolatin1", "windows-1252"),
    ("csisolatin2", "iso-8859-2"),
    ("csisolatin3", "iso-8859-3"),
    ("csisolatin4", "iso-8859-4"),
    ("csisolatin5", "windows-1254"),
    ("csisolatin6", "iso-8859-10"),
    ("csisolatin9", "iso-8859-15"),
    ("csisolatinarabic", "iso-8859-6"),
    ("csisolatincyrillic", "iso-8859-5"),
    ("csisolatingreek", "iso-8859-7"),
    ("csisolatinhebrew", "iso-8859-8"),
    ("cskoi8r", "koi8-r"),
    ("csksc56011987", "euc-kr"),
    ("csmacintosh", "macintosh"),
    ("csshiftjis", "shift_jis"),
    ("csunicode", "utf-16le"),
    ("cyrillic", "iso-8859-5"),
    ("dos-874", "windows-874"),
    ("ecma-114", "iso-8859-6"),
    ("ecma-118", "iso-8859-7"),
    ("elot_928", "iso-8859-7"),
    ("euc-jp", "euc-jp"),
    ("euc-kr", "euc-kr"),
    ("gb18030", "gb18030"),
    ("gb2312", "gbk"),
    ("gb_2312", "gbk"),
    ("gb_2312-80", "gbk"),
    ("gbk", "gbk"),
    ("greek", "iso-8859-7"),
    ("greek8", "iso-8859-7"),
    ("hebrew", "iso-8859-8"),
    ("hz-gb-2312", "replacement"),
    ("ibm819", "windows-1252"),
    ("ibm866", "ibm866"),
    ("iso-10646-ucs-2", "utf-16le"),
    ("iso-2022-cn", "replacement"),
    ("iso-2022-cn-ext", "replacement"),
    ("iso-2022-jp", "iso-2022-jp"),
    ("iso-2022-kr", "replacement"),
    ("iso-8859-1", "windows-1252"),
    ("iso-8859-10", "iso-8859-10"),
    ("iso-8859-11", "windows-874"),
    ("iso-8859-13", "iso-8859-13"),
    ("iso-8859-14", "iso-8859-14"),
    ("iso-8859-15", "iso-8859-15"),
    ("iso-8859-16", "iso-8859-16"),
    ("iso-8859-2", "iso-8859-2"),
    ("iso-8859-3", "iso-8859-3"),
    ("iso-8859-4", "iso-8859-4"),
    ("iso-8859-5", "iso-8859-5"),
    ("iso-8859-6", "iso-8859-6"),
    ("iso-8859-6-e", "iso-8859-6"),
    ("iso-8859-6-i", "iso-8859-6"),
    ("iso-8859-7", "iso-8859-7"),
    ("iso-8859-8", "iso-8859-8"),
    ("iso-8859-8-e", "iso-8859-8"),
    ("iso-8859-8-i", "iso-8859-8-i"),
    ("iso-8859-9", "windows-1254"),
    ("iso-ir-100", "windows-1252"),
    ("iso-ir-101", "iso-8859-2"),
    ("iso-ir-109", "iso-8859-3"),
    ("iso-ir-110", "iso-8859-4"),
    ("iso-ir-126", "iso-8859-7"),
    ("iso-ir-127", "iso-8859-6"),
    ("iso-ir-138", "iso-8859-8"),
    ("iso-ir-144", "iso-8859-5"),
    ("iso-ir-148", "windows-1254"),
    ("iso-ir-149", "euc-kr"),
    ("iso-ir-157", "iso-8859-10"),
    ("iso-ir-58", "gbk"),
    ("iso8859-1", "windows-1252"),
    ("iso8859-10", "iso-8859-10"),
    ("iso8859-11", "windows-874"),
    ("iso8859-13", "iso-8859-13"),
    ("iso8859-14", "iso-8859-14"),
    ("iso8859-15", "iso-8859-15"),
    ("iso8859-2", "iso-8859-2"),
    ("iso8859-3", "iso-8859-3"),
    ("iso8859-4", "iso-8859-4"),
    ("iso8859-5", "iso-8859-5"),
    ("iso8859-6", "iso-8859-6"),
    ("iso8859-7", "iso-8859-7"),
    ("iso8859-8", "iso-8859-8"),
    ("iso8859-9", "windows-1254"),
    ("iso88591", "windows-1252"),
    ("iso885910", "iso-8859-10"),
    ("iso885911", "windows-874"),
    ("iso885913", "iso-8859-13"),
    ("iso885914", "iso-8859-14"),
    ("iso885915", "iso-8859-15"),
    ("iso88592", "iso-8859-2"),
    ("iso88593", "iso-8859-3"),
    ("iso88594", "iso-8859-4"),
    ("iso88595", "iso-8859-5"),
    ("iso88596", "iso-8859-6"),
    ("iso88597", "iso-8859-7"),
    ("iso88598", "iso-8859-8"),
    ("iso88599", "windows-1254"),
    ("iso_8859-1", "windows-1252"),
    ("iso_8859-15", "iso-8859-15"),
    ("iso_8859-1:1987", "windows-1252"),
    ("iso_8859-2", "iso-8859-2"),
    ("iso_8859-2:1987", "iso-8859-2"),
    ("iso_8859-3", "iso-8859-3"),
    ("iso_8859-3:1988", "iso-8859-3"),
    ("iso_8859-4", "iso-8859-4"),
    ("iso_8859-4:1988", "iso-8859-4"),
    ("iso_8859-5", "iso-8859-5"),
    ("iso_8859-5:1988", "iso-8859-5"),
    ("iso_8859-6", "iso-8859-6"),
    ("iso_8859-6:1987", "iso-8859-6"),
    ("iso_8859-7", "iso-8859-7"),
    ("iso_8859-7:1987", "iso-8859-7"),
    ("iso_8859-8", "iso-8859-8"),
    ("iso_8859-8:1988", "iso-8859-8"),
    ("iso_8859-9", "windows-1254"),
    ("iso_8859-9:1989", "windows-1254"),
    ("koi", "koi8-r"),
    ("koi8", "koi8-r"),
    ("koi8-r", "koi8-r"),
    ("koi8-ru", "koi8-u"),
    ("koi8-u", "koi8-u"),
    ("koi8_r", "koi8-r"),
    ("korean", "euc-kr"),
    ("ks_c_5601-1987", "euc-kr"),
    ("ks_c_5601-1989", "euc-kr"),
    ("ksc5601", "euc-kr"),
    ("ksc_5601", "euc-kr"),
    ("l1", "windows-1252"),
    ("l2", "iso-8859-2"),
    ("l3", "iso-8859-3"),
    ("l4", "iso-8859-4"),
    ("l5", "windows-1254"),
    ("l6", "iso-8859-10"),
    ("l9", "iso-8859-15"),
    ("latin1", "windows-1252"),
    ("latin2", "iso-8859-2"),
    ("latin3", "iso-8859-3"),
    ("latin4", "iso-8859-4"),
    ("latin5", "windows-1254"),
    ("latin6", "iso-8859-10"),
    ("logical", "iso-8859-8-i"),
    ("mac", "macintosh"),
    ("macintosh", "macintosh"),
    ("ms932", "shift_jis"),
    ("ms_kanji", "shift_jis"),
    ("replacement", "replacement"),
    ("shift-jis", "shift_jis"),
    ("shift_jis", "shift_jis"),
    ("sjis", "shift_jis"),
    ("sun_eu_greek", "iso-8859-7"),
    ("tis-620", "windows-874"),
    ("ucs-2", "utf-16le"),
    ("unicode", "utf-16le"),
    ("unicode-1-1-utf-8", "utf-8"),
    ("unicode11utf8", "utf-8"),
    ("unicode20utf8", "utf-8"),
    ("unicodefeff", "utf-16le"),
    ("unicodefffe", "utf-16be"),
    ("us-ascii", "windows-1252"),
    ("utf-16", "utf-16le"),
    ("utf-16be", "utf-16be"),
    ("utf-16le", "utf-16le"),
    ("utf-8", "utf-8"),
    ("utf8", "utf-8"),
    ("visual", "iso-8859-8"),
    ("windows-1250", "windows-1250"),
    ("windows-1251", "windows-1251"),
    ("windows-1252", "windows-1252"),
    ("windows-1253", "windows-1253"),
    ("windows-1254", "windows-1254"),
    ("windows-1255", "windows-1255"),
    ("windows-1256", "windows-1256"),
    ("windows-1257", "windows-1257"),
    ("windows-1258", "windows-1258"),
    ("windows-31j", "shift_jis"),
    ("windows-874", "windows-874"),
    ("windows-949", "euc-kr"),
    ("x-cp1250", "windows-1250"),
    ("x-cp1251", "windows-1251"),
    ("x-cp1252", "windows-1252"),
    ("x-cp1253", "windows-1253"),
    ("x-cp1254", "windows-1254"),
    ("x-cp1255", "windows-1255"),
    ("x-cp1256", "windows-1256"),
    ("x-cp1257", "windows-1257"),
    ("x-cp1258", "windows-1258"),
    ("x-euc-jp", "euc-jp"),
    ("x-gbk", "gbk"),
    ("x-mac-cyrillic", "x-mac-cyrillic"),
    ("x-mac-roman", "macintosh"),
    ("x-mac-ukrainian", "x-mac-cyrillic"),
    ("x-sjis", "shift_jis"),
    ("x-unicode20utf8", "utf-8"),
    ("x-user-defined", "x-user-defined"),
    ("x-x-big5", "big5"),
];

/// The encoding a label names (labels are matched case-insensitively,
/// surrounding spaces ignored), as its WHATWG name.
///
/// ```
/// use mcp_switchboard::web::encoding_for_label;
///
/// assert_eq!(encoding_for_label(" ISO-8859-1 "), Some("windows-1252"));
/// assert_eq!(encoding_for_label("Shift_JIS"), Some("shift_jis"));
/// assert_eq!(encoding_for_label("utf-9"), None);
/// ```
pub fn encoding_for_label(label: &str) -> Option<&'static str> {
    let l = label
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .to_ascii_lowercase();
    LABELS
        .binary_search_by(|(k, _)| k.cmp(&l.as_str()))
        .ok()
        .and_then(|i| LABELS.get(i))
        .map(|&(_, n)| n)
}

/// Where the encoding was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CharsetSource {
    /// A byte order mark.
    Bom,
    /// The `Content-Type` header.
    Header,
    /// A `<meta>` element.
    Meta,
    /// Nothing declared: decided from the bytes.
    Sniffed,
}

/// An encoding decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Charset {
    /// The WHATWG name (`"utf-8"`, `"windows-1252"`, `"shift_jis"`, …).
    pub name: &'static str,
    /// Where it came from.
    pub source: CharsetSource,
}

/// The `charset` parameter of a `Content-Type` value, unquoted.
pub fn charset_param(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches(|c| c == '"' || c == '\''))
    })
}

/// Decides the encoding of `body` served with `content_type`.
///
/// ```
/// use mcp_switchboard::web::{sniff_charset, CharsetSource};
///
/// let c = sniff_charset(Some("text/html; charset=ISO-8859-1"), b"<p>caf\xe9");
/// assert_eq!((c.name, c.source), ("windows-1252", CharsetSource::Header));
/// let c = sniff_charset(None, b"<meta charset='shift_jis'>");
/// assert_eq!(c.name, "shift_jis");
/// let c = sniff_charset(Some("text/html"), b"<p>caf\xe9 au lait");
/// assert_eq!((c.name, c.source), ("windows-1252", CharsetSource::Sniffed));
/// ```
pub fn sniff_charset(content_type: Option<&str>, body: &[u8]) -> Charset {
    let found = |name, source| Charset { name, source };
    match body {
        [0xef, 0xbb, 0xbf, ..] => return found("utf-8", CharsetSource::Bom),
        [0xfe, 0xff, ..] => return found("utf-16be", CharsetSource::Bom),
        [0xff, 0xfe, ..] => return found("utf-16le", CharsetSource::Bom),
        _ => {}
    }
    if let Some(name) = content_type
        .and_then(charset_param)
        .and_then(encoding_for_label)
        .filter(|&n| n != "replacement")
    {
        return found(name, CharsetSource::Header);
    }
    let is_html = content_type.is_none_or(|c| {
        let c = c.to_ascii_lowercase();
        c.contains("html") || c.trim().is_empty()
    });
    if is_html {
        if let Some(name) = prescan(body.get(..1024).unwrap_or(body)) {
            return found(name, CharsetSource::Meta);
        }
    }
    let valid = match std::str::from_utf8(body) {
        Ok(_) => true,
        // cut in the middle of a character at the end (a capped body)
        Err(e) => e.error_len().is_none(),
    };
    found(
        if valid { "utf-8" } else { "windows-1252" },
        CharsetSource::Sniffed,
    )
}

/// The encoding a `<meta>` in `head` declares.
fn prescan(head: &[u8]) -> Option<&'static str> {
    struct Meta(Option<&'static str>);
    impl<'a> Sink<'a> for Meta {
        fn start(&mut self, name: &'a str, attrs: &[Attr<'a>], _: bool) {
            if self.0.is_some() || !name.eq_ignore_ascii_case("meta") {
                return;
            }
            let get = |n: &str| {
                attrs
                    .iter()
                    .find(|a| a.name.eq_ignore_ascii_case(n))
                    .map(|a| a.value)
            };
            let label = get("charset").or_else(|| {
                let equiv = get("http-equiv")?;
                if !equiv.trim().eq_ignore_ascii_case("content-type") {
                    return None;
                }
                let content = get("content")?;
                let lower = content.to_ascii_lowercase();
                let at = lower.find("charset")?;
                let rest = content.get(at + 7..)?.trim_start().strip_prefix('=')?;
                let rest = rest.trim_start().trim_start_matches(['"', '\'']);
                let end = rest
                    .find(|c: char| c == ';' || c == '"' || c == '\'' || c.is_whitespace())
                    .unwrap_or(rest.len());
                rest.get(..end)
            });
            self.0 = label.and_then(encoding_for_label).map(|n| match n {
                "utf-16be" | "utf-16le" => "utf-8",
                "x-user-defined" => "windows-1252",
                n => n,
            });
        }
        fn end(&mut self, _: &'a str) {}
        fn text(&mut self, _: &'a str, _: bool) {}
    }
    let text = String::from_utf8_lossy(head);
    let mut m = Meta(None);
    tokenize(&text, &mut m);
    m.0.filter(|&n| n != "replacement")
}

/// windows-1252's characters for 0x80–0x9F (the bytes it does not define
/// stand for the C1 control of the same number, as in the WHATWG index).
pub(crate) fn windows_1252_high(b: u8) -> Option<char> {
    const HIGH: [u16; 32] = [
        0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039,
        0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
        0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
    ];
    let i = usize::from(b.checked_sub(0x80)?);
    HIGH.get(i).and_then(|&c| char::from_u32(u32::from(c)))
}

/// Whether [`decode`] handles an encoding (by WHATWG name).
pub fn decodes(name: &str) -> bool {
    matches!(
        name,
        "utf-8" | "utf-16le" | "utf-16be" | "windows-1252" | "x-user-defined"
    )
}

/// Decodes `bytes` in the encoding `name` (a WHATWG name), replacing
/// malformed sequences with U+FFFD and dropping a leading byte order mark;
/// `None` for an encoding this module leaves to the shell (see
/// [`decodes`]).
pub fn decode(bytes: &[u8], name: &str) -> Option<String> {
    decode_limited(bytes, name, usize::MAX)
}

/// [`decode`], stopping once the text reaches `max` bytes (a malformed
/// byte becomes three bytes of U+FFFD, so the text can outgrow the input).
pub(crate) fn decode_limited(bytes: &[u8], name: &str, max: usize) -> Option<String> {
    let mut out = String::new();
    let add = |out: &mut String, c: char| {
        if out.len() >= max {
            return false;
        }
        out.push(c);
        true
    };
    match name {
        "utf-8" => {
            let b = bytes.strip_prefix(&[0xef, 0xbb, 0xbf]).unwrap_or(bytes);
            out.reserve(b.len().min(max));
            for chunk in b.utf8_chunks() {
                let valid = chunk.valid();
                let room = max.saturating_sub(out.len());
                if valid.len() > room {
                    let mut cut = room;
                    while !valid.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    out.push_str(valid.get(..cut).unwrap_or(""));
                    break;
                }
                out.push_str(valid);
                if !chunk.invalid().is_empty() && !add(&mut out, '\u{fffd}') {
                    break;
                }
            }
        }
        "utf-16le" | "utf-16be" => {
            let le = name == "utf-16le";
            let b = match (le, bytes) {
                (true, [0xff, 0xfe, rest @ ..]) | (false, [0xfe, 0xff, rest @ ..]) => rest,
                _ => bytes,
            };
            let units = b.chunks(2).map(|c| match (c, le) {
                ([a, b], true) => u16::from_le_bytes([*a, *b]),
                ([a, b], false) => u16::from_be_bytes([*a, *b]),
                _ => 0xfffd,
            });
            for r in char::decode_utf16(units) {
                if !add(&mut out, r.unwrap_or('\u{fffd}')) {
                    break;
                }
            }
        }
        "windows-1252" => {
            for &b in bytes {
                let c = match b {
                    0x80..=0x9f => windows_1252_high(b).unwrap_or('\u{fffd}'),
                    _ => char::from(b),
                };
                if !add(&mut out, c) {
                    break;
                }
            }
        }
        "x-user-defined" => {
            for &b in bytes {
                let c = if b < 0x80 {
                    char::from(b)
                } else {
                    char::from_u32(0xf780 + u32::from(b) - 0x80).unwrap_or('\u{fffd}')
                };
                if !add(&mut out, c) {
                    break;
                }
            }
        }
        _ => return None,
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_sorted() {
        for w in LABELS.windows(2) {
            assert!(w[0].0 < w[1].0, "{}", w[1].0);
        }
        assert_eq!(LABELS.len(), 228);
        assert_eq!(encoding_for_label("latin1"), Some("windows-1252"));
        assert_eq!(encoding_for_label("UTF8"), Some("utf-8"));
        assert_eq!(encoding_for_label("x-sjis"), Some("shift_jis"));
        assert_eq!(encoding_for_label(""), None);
    }

    #[test]
    fn order_of_evidence() {
        let s = |ct: Option<&str>, b: &[u8]| {
            let c = sniff_charset(ct, b);
            (c.name, c.source)
        };
        use CharsetSource::*;
        assert_eq!(
            s(Some("text/html; charset=latin1"), b"\xef\xbb\xbfx"),
            ("utf-8", Bom)
        );
        assert_eq!(s(None, b"\xff\xfex\x00"), ("utf-16le", Bom));
        assert_eq!(
            s(Some("text/html; charset=\"Windows-1251\""), b"x"),
            ("windows-1251", Header)
        );
        assert_eq!(
            s(Some("text/html; charset=bogus"), b"<meta charset=koi8-r>"),
            ("koi8-r", Meta)
        );
        assert_eq!(
            s(
                None,
                b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-15\">"
            ),
            ("iso-8859-15", Meta)
        );
        assert_eq!(s(None, b"<meta charset=utf-16>"), ("utf-8", Meta));
        assert_eq!(
            s(Some("text/html"), "caf\u{e9}".as_bytes()),
            ("utf-8", Sniffed)
        );
        assert_eq!(s(Some("text/html"), b"caf\xc3"), ("utf-8", Sniffed));
        assert_eq!(s(Some("text/html"), b"caf\xe9!"), ("windows-1252", Sniffed));
        assert_eq!(
            s(Some("text/plain"), b"<meta charset=koi8-r>"),
            ("utf-8", Sniffed)
        );
        assert_eq!(
            s(Some("text/html; charset=iso-2022-kr"), b"x"),
            ("utf-8", Sniffed)
        );
        // a meta past the first 1024 bytes is not seen
        let mut late = vec![b' '; 1100];
        late.extend_from_slice(b"<meta charset=koi8-r>");
        assert_eq!(s(None, &late), ("utf-8", Sniffed));
    }

    #[test]
    fn decoding() {
        assert_eq!(decode(b"\xef\xbb\xbfcaf\xc3\xa9", "utf-8").unwrap(), "café");
        assert_eq!(
            decode(b"bad \xff\xfe", "utf-8").unwrap(),
            "bad \u{fffd}\u{fffd}"
        );
        assert_eq!(
            decode(b"caf\xe9 \x80 \x81", "windows-1252").unwrap(),
            "café € \u{81}"
        );
        assert_eq!(decode(b"\xff\xfeh\x00i\x00", "utf-16le").unwrap(), "hi");
        assert_eq!(decode(b"\x00h\x00i\xd8", "utf-16be").unwrap(), "hi\u{fffd}");
        assert_eq!(decode(b"\xd8\x00", "utf-16be").unwrap(), "\u{fffd}");
        assert_eq!(decode(b"a\x80", "x-user-defined").unwrap(), "a\u{f780}");
        assert_eq!(decode(b"x", "shift_jis"), None);
        assert_eq!(
            decode_limited(b"\xff\xff\xff\xff", "utf-8", 6).unwrap(),
            "\u{fffd}\u{fffd}"
        );
        assert_eq!(decode_limited("ééé".as_bytes(), "utf-8", 3).unwrap(), "é");
        assert_eq!(decode_limited(b"abc", "windows-1252", 2).unwrap(), "ab");
        assert!(decodes("utf-8") && !decodes("gbk"));
        assert_eq!(charset_param("text/html;Charset='utf-8'"), Some("utf-8"));
        assert_eq!(charset_param("text/html"), None);
    }
}
