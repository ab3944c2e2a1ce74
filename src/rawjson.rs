//! JSON text handled without building a `serde_json::Value`: checked,
//! compacted, and split into an object's top-level fields as slices of the
//! text. Tool results pass through the engine and the result helpers this
//! way, so they are scanned and spliced, not parsed into a tree and written
//! again. (`serde_json`'s `RawValue` would do the splitting but adds 8 KB
//! gzipped to the wasm; this scanner, with the value-tree paths it
//! replaced removed, left the module slightly smaller.)

use std::borrow::Cow;

use crate::error::{Error, ErrorKind};

/// Nested arrays and objects allowed: as many as `serde_json` reads (its
/// recursion limit of 128 admits 127 levels), so every text this scanner
/// passes is one `serde_json` (and so the engine and Rust clients) can read.
pub(crate) const MAX_DEPTH: usize = 127;

/// Where a JSON text stops being valid: the byte offset.
pub(crate) type Invalid = usize;

#[inline(always)]
pub(crate) fn ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        i += 1;
    }
    i
}

/// The end of the JSON value that starts at `i`.
pub(crate) fn value_end(b: &[u8], i: usize, depth: usize) -> Result<usize, Invalid> {
    match b.get(i) {
        Some(b'{') => container_end(b, i, depth, b'}', true),
        Some(b'[') => container_end(b, i, depth, b']', false),
        Some(b'"') => string_end(b, i),
        Some(b't') => literal_end(b, i, b"true"),
        Some(b'f') => literal_end(b, i, b"false"),
        Some(b'n') => literal_end(b, i, b"null"),
        Some(b'-' | b'0'..=b'9') => number_end(b, i),
        _ => Err(i),
    }
}

/// The end of an object (`keyed`) or array that starts at `i`.
fn container_end(
    b: &[u8],
    i: usize,
    depth: usize,
    close: u8,
    keyed: bool,
) -> Result<usize, Invalid> {
    if depth == 0 {
        return Err(i);
    }
    let mut j = ws(b, i + 1);
    if matches!(b.get(j), Some(&x) if x == close) {
        return Ok(j + 1);
    }
    loop {
        if keyed {
            j = ws(b, string_end(b, j)?);
            if !matches!(b.get(j), Some(b':')) {
                return Err(j);
            }
            j = ws(b, j + 1);
        }
        j = ws(b, value_end(b, j, depth - 1)?);
        match b.get(j) {
            Some(b',') => j = ws(b, j + 1),
            Some(&c) if c == close => return Ok(j + 1),
            _ => return Err(j),
        }
    }
}

/// The code unit of the `\uXXXX` escape at `j` (which points at `\`).
fn hex_escape(b: &[u8], j: usize) -> Option<u16> {
    if !matches!(b.get(j), Some(b'\\')) || !matches!(b.get(j + 1), Some(b'u')) {
        return None;
    }
    let hex = b.get(j + 2..j + 6)?;
    let mut n: u16 = 0;
    for &h in hex {
        n = n * 16 + (char::from(h).to_digit(16)? as u16);
    }
    Some(n)
}

pub(crate) fn string_end(b: &[u8], i: usize) -> Result<usize, Invalid> {
    if !matches!(b.get(i), Some(b'"')) {
        return Err(i);
    }
    let mut j = i + 1;
    loop {
        // eight plain bytes at a time: most strings hold no escape
        if let Some(word) = b.get(j..j + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
            if !needs_escape(u64::from_le_bytes(word)) {
                j += 8;
                continue;
            }
        }
        match b.get(j) {
            Some(b'"') => return Ok(j + 1),
            Some(b'\\') => match b.get(j + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => j += 2,
                Some(b'u') => {
                    // surrogates must come in pairs, as serde_json (and
                    // UTF-8) require: a lone one is refused
                    match hex_escape(b, j).ok_or(j)? {
                        0xDC00..=0xDFFF => return Err(j),
                        0xD800..=0xDBFF => match hex_escape(b, j + 6) {
                            Some(0xDC00..=0xDFFF) => j += 12,
                            _ => return Err(j),
                        },
                        _ => j += 6,
                    }
                }
                _ => return Err(j),
            },
            Some(0..=0x1f) | None => return Err(j),
            Some(_) => j += 1,
        }
    }
}

fn literal_end(b: &[u8], i: usize, word: &[u8]) -> Result<usize, Invalid> {
    match b.get(i..i + word.len()) {
        Some(w) if w == word => Ok(i + word.len()),
        _ => Err(i),
    }
}

fn number_end(b: &[u8], i: usize) -> Result<usize, Invalid> {
    let digits = |mut j: usize| {
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        j
    };
    let mut j = if matches!(b.get(i), Some(b'-')) {
        i + 1
    } else {
        i
    };
    j = match b.get(j) {
        Some(b'0') => j + 1,
        Some(b'1'..=b'9') => digits(j + 1),
        _ => return Err(j),
    };
    if matches!(b.get(j), Some(b'.')) {
        let k = digits(j + 1);
        if k == j + 1 {
            return Err(k);
        }
        j = k;
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        j += 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let k = digits(j);
        if k == j {
            return Err(k);
        }
        j = k;
    }
    // a number past the range of f64 (`1e400`, 400 digits) is refused by
    // serde_json: ask it about every number that could be one
    let token = b.get(i..j).unwrap_or_default();
    let plain_short = token.len() <= 18 && token.iter().all(|&c| c == b'-' || c.is_ascii_digit());
    if !plain_short {
        let in_range = std::str::from_utf8(token)
            .is_ok_and(|t| serde_json::from_str::<serde_json::Value>(t).is_ok());
        if !in_range {
            return Err(i);
        }
    }
    Ok(j)
}

/// The JSON documents of `text`, one after the other (pages as a server
/// sent them), each read by serde_json's `FromStr`. Refused is what
/// serde_json's stream reader refuses, with its error: a document that
/// does not end where it should is read again with everything before it
/// blanked (newlines kept), so that the error names the same line and
/// column.
pub(crate) fn documents(text: &str) -> Result<Vec<serde_json::Value>, serde_json::Error> {
    let b = text.as_bytes();
    let mut docs = Vec::new();
    let mut at = ws(b, 0);
    while at < b.len() {
        // after a number or a literal the stream reader wants whitespace
        // or a bracket, quote, comma or colon
        let end = value_end(b, at, MAX_DEPTH).ok().filter(|&e| {
            matches!(b.get(at), Some(b'{' | b'[' | b'"'))
                || matches!(
                    b.get(e),
                    None | Some(
                        b' ' | b'\n'
                            | b'\r'
                            | b'\t'
                            | b'"'
                            | b'['
                            | b']'
                            | b'{'
                            | b'}'
                            | b','
                            | b':'
                    )
                )
        });
        docs.push(match end {
            Some(e) => text.get(at..e).unwrap_or_default().parse()?,
            None => {
                let before = b.get(..at).unwrap_or_default();
                let mut padded: String = before
                    .iter()
                    .map(|&c| if c == b'\n' { '\n' } else { ' ' })
                    .collect();
                padded.push_str(text.get(at..).unwrap_or_default());
                padded.parse()?
            }
        });
        at = ws(b, end.unwrap_or(b.len()));
    }
    Ok(docs)
}

/// Checks that `text` is one JSON value and returns it without whitespace
/// between tokens: borrowed when it has none (what `JSON.stringify` and
/// `serde_json::to_string` write). Exactly the texts `serde_json` reads as
/// a `Value` pass.
pub(crate) fn compact(text: &str) -> Result<Cow<'_, str>, Error> {
    compact_nested(text, 0)
}

/// [`compact`] for a value that will be written `above` arrays or objects
/// deep: it may nest only as deep as the whole can still be read.
pub(crate) fn compact_nested(text: &str, above: usize) -> Result<Cow<'_, str>, Error> {
    let b = text.as_bytes();
    let start = ws(b, 0);
    let depth = MAX_DEPTH.saturating_sub(above);
    if depth == 0 {
        return Err(Error::new(ErrorKind::Limit, "", "nested too deeply"));
    }
    let end = value_end(b, start, depth)
        .and_then(|e| match ws(b, e) {
            rest if rest == b.len() => Ok(e),
            rest => Err(rest),
        })
        .map_err(|at| {
            let what = if at >= b.len() {
                "input ends too early".to_string()
            } else {
                format!("not valid JSON (or nested deeper than {depth} levels, or a number out of range, or a lone surrogate) at byte {at}")
            };
            Error::new(ErrorKind::Json, "", what)
        })?;
    let body = text.get(start..end).unwrap_or_default();
    // bytes, not chars: whitespace and quotes are ASCII, and no byte of a
    // multi-byte UTF-8 character is
    let mut out: Option<String> = None;
    let mut run_start = 0;
    let mut in_string = false;
    let mut escaped = false;
    for (i, &c) in body.as_bytes().iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
            continue;
        }
        match c {
            b'"' => in_string = true,
            b' ' | b'\n' | b'\r' | b'\t' => {
                let o = out.get_or_insert_with(|| String::with_capacity(body.len()));
                o.push_str(body.get(run_start..i).unwrap_or_default());
                run_start = i + 1;
            }
            _ => {}
        }
    }
    Ok(match out {
        None => Cow::Borrowed(body),
        Some(mut o) => {
            o.push_str(body.get(run_start..).unwrap_or_default());
            Cow::Owned(o)
        }
    })
}

/// One field of an object: its key (unescaped), the key as written
/// (quotes included), and its value as written.
pub(crate) struct Field<'a> {
    pub key: Cow<'a, str>,
    pub raw_key: &'a str,
    pub value: &'a str,
}

/// An object's fields in order. A key given twice keeps its first place
/// and its last value, as `serde_json::Map` does.
pub(crate) struct Fields<'a>(pub Vec<Field<'a>>);

impl<'a> Fields<'a> {
    /// The value of `key` as written, if present.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.0.iter().find(|f| f.key == key).map(|f| f.value)
    }
}

/// What a compact JSON text holds at the top.
pub(crate) enum Top<'a> {
    /// An object, field by field.
    Object(Fields<'a>),
    /// Any other value, as written (`null` included).
    Other(&'a str),
}

/// Splits compact JSON text (as [`compact`] returns it) at its top level.
pub(crate) fn top(text: &str) -> Top<'_> {
    let b = text.as_bytes();
    if !matches!(b.first(), Some(b'{')) {
        return Top::Other(text);
    }
    let mut fields: Vec<Field<'_>> = Vec::new();
    let mut j = 1;
    while matches!(b.get(j), Some(b'"')) {
        let Ok(key_end) = string_end(b, j) else {
            break;
        };
        let raw_key = text.get(j..key_end).unwrap_or_default();
        let Ok(value_end) = value_end(b, key_end + 1, MAX_DEPTH) else {
            break;
        };
        let value = text.get(key_end + 1..value_end).unwrap_or_default();
        let key = unescape(raw_key);
        match fields.iter_mut().find(|f| f.key == key) {
            Some(f) => f.value = value,
            None => fields.push(Field {
                key,
                raw_key,
                value,
            }),
        }
        j = value_end + 1;
    }
    Top::Object(Fields(fields))
}

/// A JSON string's content (quotes and escapes removed).
fn unescape(raw: &str) -> Cow<'_, str> {
    let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
    if !inner.contains('\\') {
        return Cow::Borrowed(inner);
    }
    serde_json::from_str::<String>(raw).map_or(Cow::Borrowed(inner), Cow::Owned)
}

/// Whether any of the 8 bytes of `w` must be escaped in a JSON string: a
/// control character, `"` or `\\`. (A byte at or above 0x80 never sets the
/// high bit of the first test; the tests may flag a clean word, which is
/// then looked at byte by byte, but never miss one.)
#[inline(always)]
fn needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let control = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    let quote = zero_byte(w ^ (ONES * u64::from(b'"')));
    let backslash = zero_byte(w ^ (ONES * u64::from(b'\\')));
    (control | quote | backslash) != 0
}

/// Appends `s` as a JSON string, escaped as `serde_json` escapes it.
pub(crate) fn push_str(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    let b = s.as_bytes();
    let mut run_start = 0;
    let mut i = 0;
    while i < b.len() {
        // eight clean bytes at a time: most text needs no escape at all
        if let Some(word) = b.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
            if !needs_escape(u64::from_le_bytes(word)) {
                i += 8;
                continue;
            }
        }
        let c = b.get(i).copied().unwrap_or(0);
        i += 1;
        let escape: &str = match c {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        // every byte matched above is ASCII: a char boundary
        out.push_str(s.get(run_start..i - 1).unwrap_or_default());
        run_start = i;
        if escape.is_empty() {
            out.push_str("\\u00");
            for nibble in [c >> 4, c & 0xf] {
                out.push(char::from(*HEX.get(usize::from(nibble)).unwrap_or(&b'0')));
            }
        } else {
            out.push_str(escape);
        }
    }
    out.push_str(s.get(run_start..).unwrap_or_default());
    out.push('"');
}

/// JSON text in ASCII: each character past ASCII written as a `\u`
/// escape (a surrogate pair past U+FFFF), as Python's `json.dumps` writes
/// by default. Such characters stand only inside strings, where the escape
/// means the same character: any JSON reader reads the same value. (A JS
/// engine keeps ASCII text one byte a character and builds it from bytes
/// without decoding UTF-8; text holding one character past ASCII takes
/// two bytes a character.) Text already in ASCII is handed back as it is.
#[cfg(any(
    all(feature = "js", not(feature = "web-module")),
    feature = "fuzzing",
    test
))]
pub(crate) fn ascii(text: String) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    if text.is_ascii() {
        return text;
    }
    let b = text.as_bytes();
    // room for a few escapes before the text grows
    let mut out = String::with_capacity(b.len() + 60);
    let (mut run, mut i) = (0, 0);
    while let Some(rest) = b.get(i..).filter(|r| !r.is_empty()) {
        // 32 bytes at a time while they are ASCII (most of the text)
        let n = rest.len().min(32);
        if rest.get(..n).is_some_and(<[u8]>::is_ascii) {
            i += n;
            continue;
        }
        let Some(c) = text.get(i..).and_then(|s| s.chars().next()) else {
            break;
        };
        i += c.len_utf8();
        if c.is_ascii() {
            continue;
        }
        out.push_str(text.get(run..i - c.len_utf8()).unwrap_or_default());
        run = i;
        for unit in c.encode_utf16(&mut [0; 2]) {
            out.push_str("\\u");
            for shift in [12, 8, 4, 0] {
                let nibble = usize::from(*unit >> shift & 0xf);
                out.push(char::from(*HEX.get(nibble).unwrap_or(&b'0')));
            }
        }
    }
    out.push_str(text.get(run..).unwrap_or_default());
    out
}

/// Appends `v` as compact JSON text: byte for byte what
/// `serde_json::to_string` writes, without its generic serializer (which
/// the crate's size-first build leaves slow on strings). Recursion follows
/// the value, whose depth its parser or builder bounded.
pub(crate) fn push_value(out: &mut String, v: &serde_json::Value) {
    push_json(out, v, None);
}

/// [`push_value`] as `serde_json::to_string_pretty` writes it: two spaces
/// per level.
pub(crate) fn push_value_pretty(out: &mut String, v: &serde_json::Value) {
    push_json(out, v, Some(0));
}

/// Writes `v`; `level` is the indentation of pretty text, `None` for
/// compact text.
fn push_json(out: &mut String, v: &serde_json::Value, level: Option<usize>) {
    use serde_json::Value;
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => {
            use std::fmt::Write;
            let _ = write!(out, "{n}");
        }
        Value::String(s) => push_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                separate(out, i, level);
                push_json(out, x, level.map(|l| l + 1));
            }
            close(out, items.is_empty(), level, ']');
        }
        Value::Object(m) => push_object(out, m, level),
    }
}

/// Writes an object; `level` as in [`push_json`].
pub(crate) fn push_object(
    out: &mut String,
    m: &serde_json::Map<String, serde_json::Value>,
    level: Option<usize>,
) {
    out.push('{');
    for (i, (k, x)) in m.iter().enumerate() {
        separate(out, i, level);
        push_str(out, k);
        out.push_str(if level.is_some() { ": " } else { ":" });
        push_json(out, x, level.map(|l| l + 1));
    }
    close(out, m.is_empty(), level, '}');
}

/// Before the `i`th member of an array or object.
fn separate(out: &mut String, i: usize, level: Option<usize>) {
    if i > 0 {
        out.push(',');
    }
    if let Some(l) = level {
        out.push('\n');
        indent(out, l + 1);
    }
}

/// The end of an array or object.
fn close(out: &mut String, empty: bool, level: Option<usize>, bracket: char) {
    if let (Some(l), false) = (level, empty) {
        out.push('\n');
        indent(out, l);
    }
    out.push(bracket);
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(text: &str) -> Vec<(String, String, String)> {
        match top(text) {
            Top::Object(f) => {
                f.0.iter()
                    .map(|f| {
                        (
                            f.key.to_string(),
                            f.raw_key.to_string(),
                            f.value.to_string(),
                        )
                    })
                    .collect()
            }
            Top::Other(_) => panic!("an object"),
        }
    }

    /// JSON text in ASCII reads as the same value; ASCII text is kept.
    #[test]
    fn ascii_text_reads_the_same() {
        for value in [
            json!({"a": "plain", "b": [1, "x"]}),
            json!({"beschrijving": "Zet de lamp aan — één keer → klaar", "ü": "ß"}),
            json!([
                "\u{1F600} at the start",
                "at the end \u{10FFFF}",
                "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}"
            ]),
            json!({"e": "escapes \\ \" \n \u{1} stay", "mixed": "a\u{e9}b\u{e9}\u{e9}c"}),
        ] {
            let text = value.to_string();
            let ascii = ascii(text.clone());
            assert!(ascii.is_ascii(), "{ascii}");
            let back: serde_json::Value = serde_json::from_str(&ascii).expect("JSON");
            assert_eq!(back, value);
            if text.is_ascii() {
                assert_eq!(ascii, text);
            }
        }
        assert_eq!(ascii("\"é😀\"".into()), r#""\u00e9\ud83d\ude00""#);
    }

    #[test]
    fn fields_keep_order_and_last_value() {
        let f = fields(r#"{"b":1,"a":{"x":[1,2]},"b":"two","q\"k":null}"#);
        let pairs: Vec<(&str, &str, &str)> = f
            .iter()
            .map(|(k, r, v)| (k.as_str(), r.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("b", "\"b\"", "\"two\""),
                ("a", "\"a\"", r#"{"x":[1,2]}"#),
                ("q\"k", r#""q\"k""#, "null")
            ]
        );
        assert!(fields("{}").is_empty());
        assert!(matches!(top("null"), Top::Other("null")));
        assert!(matches!(top("[1]"), Top::Other("[1]")));
    }

    #[test]
    fn compact_text() {
        assert!(matches!(compact(r#"{"a":"x y"}"#), Ok(Cow::Borrowed(_))));
        assert!(matches!(compact(r#"{"a":"q\" y"}"#), Ok(Cow::Borrowed(_))));
        assert_eq!(
            compact(" { \"a\" :\n [1, 2.5e-3, \"b c\", true, {}] } ")
                .ok()
                .as_deref(),
            Some(r#"{"a":[1,2.5e-3,"b c",true,{}]}"#)
        );
        assert_eq!(
            compact("\"é \\u00e9\"").ok().as_deref(),
            Some("\"é \\u00e9\"")
        );
        assert_eq!(
            compact("{ \"é\" :\t\"ü ü\" , \"😀\":[ ] }").ok().as_deref(),
            Some("{\"é\":\"ü ü\",\"😀\":[]}")
        );
    }

    /// The scanner accepts exactly what `serde_json` accepts, on valid and
    /// broken texts alike.
    #[test]
    fn agrees_with_serde_json() {
        let good = [
            "0",
            "-0",
            "1.5",
            "-12e+3",
            "1E5",
            "true",
            "false",
            "null",
            "\"\"",
            "\"\\n\\t\\\\\\/\"",
            "[]",
            "{}",
            "[1,[2,[3]]]",
            r#"{"a":{"b":[{"c":null}]}}"#,
            " 7 ",
            "\"\u{1F600}\"",
        ];
        let bad = [
            "",
            " ",
            "01",
            "1.",
            ".5",
            "1e",
            "-",
            "+1",
            "tru",
            "nul",
            "\"abc",
            "\"\\x\"",
            "\"\\u12\"",
            "[1,]",
            "[,1]",
            "{\"a\"}",
            "{\"a\":}",
            "{a:1}",
            "{\"a\":1,}",
            "[1 2]",
            "1 2",
            "\"\u{1}\"",
            "{\"a\":1",
            "[",
            "]",
            "NaN",
            "[1]x",
        ];
        for t in good {
            assert!(compact(t).is_ok(), "{t:?}");
            assert!(
                serde_json::from_str::<serde_json::Value>(t).is_ok(),
                "{t:?}"
            );
        }
        for t in bad {
            assert!(compact(t).is_err(), "{t:?}");
            assert!(
                serde_json::from_str::<serde_json::Value>(t).is_err(),
                "{t:?}"
            );
        }
        // every prefix of a valid document is refused by both, or accepted by both
        let doc = r#"{"content":[{"type":"text","text":"a \"b\" \u00e9"}],"n":-1.25e-2,"ok":true}"#;
        for i in 0..doc.len() {
            if let Some(p) = doc.get(..i) {
                let ours = compact(p).is_ok();
                let theirs = serde_json::from_str::<serde_json::Value>(p).is_ok();
                assert_eq!(ours, theirs, "{p:?}");
            }
        }
    }

    /// Several documents: what serde_json's stream reader reads, and its
    /// errors, line and column included.
    #[test]
    fn documents_as_serde_jsons_stream() {
        let stream = |t: &str| -> Result<Vec<serde_json::Value>, String> {
            serde_json::Deserializer::from_str(t)
                .into_iter::<serde_json::Value>()
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())
        };
        for t in [
            "",
            "  \n ",
            "{}",
            "{}{}",
            "{} {\"a\":1}\n[2]",
            "1 2 3",
            "1[2]",
            "\"a\"\"b\"",
            "true false null",
            "1x",
            "truex",
            "\"é\" 1.5.3",
            "{}\n  x",
            "[1,]",
            "{\"a\":1} {\"b\":",
            "01",
            "1e5e",
            "-",
            "é {}",
            "[] é",
            "{} \n\"é\" tru",
            &format!("{{}} {}", "[".repeat(200)),
            &format!("1 {}1{}", "[".repeat(127), "]".repeat(127)),
            "1e400 2",
        ] {
            let ours = documents(t).map_err(|e| e.to_string());
            assert_eq!(ours, stream(t), "{t:?}");
        }
    }

    #[test]
    fn depth_is_bounded() {
        let serde_ok = |t: &str| serde_json::from_str::<serde_json::Value>(t).is_ok();
        assert!(compact(&"[".repeat(100_000)).is_err());
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(compact(&ok).is_ok());
        assert!(serde_ok(&ok));
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert!(compact(&deep).is_err());
        assert!(!serde_ok(&deep));
        // spliced one level down, the value may nest one level less
        assert!(compact_nested(&ok, 1).is_err());
        let one_less = format!("{}{}", "[".repeat(MAX_DEPTH - 1), "]".repeat(MAX_DEPTH - 1));
        assert!(compact_nested(&one_less, 1).is_ok());
        assert!(compact_nested("1", MAX_DEPTH).is_err());
    }

    /// Texts serde_json refuses that a plain grammar check would pass.
    #[test]
    fn numbers_out_of_range_and_lone_surrogates() {
        for t in [
            "1e400",
            "-1e400",
            "[1.5e999]",
            &format!("1{}", "0".repeat(400)),
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"\\ud800\\ud800\"",
            "\"\\ud800x\"",
            "{\"\\udfff\":1}",
        ] {
            assert!(compact(t).is_err(), "{t}");
            assert!(serde_json::from_str::<serde_json::Value>(t).is_err(), "{t}");
        }
        for t in [
            "1e-400",
            "1e308",
            "123456789012345678901234567890",
            "-0.0e0",
            "\"\\ud83d\\ude00\"",
            "\"\\uD83D\\uDE00\"",
            "\"\\u00e9\"",
        ] {
            assert!(compact(t).is_ok(), "{t}");
            assert!(serde_json::from_str::<serde_json::Value>(t).is_ok(), "{t}");
        }
    }

    #[test]
    fn strings_are_escaped_as_serde_json_does() {
        let all: String = (0u8..=0x7f)
            .map(char::from)
            .chain("é😀\u{2028}".chars())
            .collect();
        for t in [
            "",
            "plain",
            "a\"b\n",
            "\\ \u{1} \u{1f} \u{7f}",
            all.as_str(),
        ] {
            let mut s = String::new();
            push_str(&mut s, t);
            assert_eq!(s, serde_json::Value::from(t).to_string(), "{t:?}");
        }
        // every position of an escaped byte in and around an 8-byte word
        for at in 0..20 {
            for c in ['"', '\\', '\n', '\u{1}', '\u{1f}', '\u{7f}', 'é', ' '] {
                let mut t = "abcdefghijklmnopqrstu".to_string();
                t.insert(at, c);
                let mut s = String::new();
                push_str(&mut s, &t);
                assert_eq!(s, serde_json::Value::from(t.as_str()).to_string(), "{t:?}");
            }
        }
    }

    #[test]
    fn values_are_written_as_serde_json_writes_them() {
        let text = r#"{"a":[1,-2,1.5,-0.0,1e300,2.5e-8,18446744073709551615,-9223372036854775808,0.1],"b":{"":null,"t":true,"f":false},"c":"x\"y\u0001é","d":[],"e":{},"é\n":[[{}]]}"#;
        let v: serde_json::Value = serde_json::from_str(text).expect("json");
        let mut s = String::new();
        push_value(&mut s, &v);
        assert_eq!(s, serde_json::to_string(&v).expect("json"));
        assert_eq!(s, text.replace("1e300", "1e+300"));
        let mut pretty = String::new();
        push_value_pretty(&mut pretty, &v);
        assert_eq!(pretty, serde_json::to_string_pretty(&v).expect("json"));
        for small in [
            "[]",
            "{}",
            "[[]]",
            "{\"a\":{}}",
            "[1,[2,{\"b\":[]}]]",
            "\"x\"",
        ] {
            let v: serde_json::Value = serde_json::from_str(small).expect("json");
            let mut pretty = String::new();
            push_value_pretty(&mut pretty, &v);
            assert_eq!(
                pretty,
                serde_json::to_string_pretty(&v).expect("json"),
                "{small}"
            );
        }
    }
}
