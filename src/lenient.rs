//! Finding JSON in model prose: fenced or bare objects and arrays, with the
//! slips models make (single quotes, trailing commas, unquoted keys,
//! Python's `True`/`False`/`None`). Anything else is "no JSON", never a
//! panic.

use serde_json::{Map, Number, Value};

/// Deepest nesting read.
const MAX_DEPTH: usize = 64;

/// Most JSON values (nodes at any depth) built from one text: past it the
/// scan stops with what it found. A model's tool calls are a few dozen
/// nodes; prose made of `{}` by the million is not a reason to build
/// millions of maps.
pub(crate) const MAX_NODES: usize = 65_536;

/// Every JSON value found in `text`, in order: first the contents of fenced
/// code blocks, then (if there were none) bare objects and arrays. At most
/// [`MAX_NODES`] values are built in all.
pub(crate) fn find_values(text: &str) -> Vec<Value> {
    let fenced = fenced_blocks(text);
    let mut out = Vec::new();
    let mut nodes = MAX_NODES;
    for block in &fenced {
        scan(block, &mut nodes, &mut out);
    }
    if out.is_empty() {
        nodes = MAX_NODES;
        scan(text, &mut nodes, &mut out);
    }
    out
}

/// The bodies of ``` fenced blocks.
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        // skip an info string such as `json` up to the end of the line
        let body_start = after.find('\n').map(|i| i + 1).unwrap_or(0);
        let body = &after[body_start..];
        match body.find("```") {
            Some(end) => {
                out.push(&body[..end]);
                rest = &body[end + 3..];
            }
            None => {
                out.push(body);
                break;
            }
        }
    }
    out
}

/// Bare top-level objects and arrays in `text`, left to right, into `out`,
/// building at most `nodes` values.
fn scan(text: &str, nodes: &mut usize, out: &mut Vec<Value>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    // failed attempts re-read text; cap the re-reading so the scan stays linear
    let mut budget = bytes.len().saturating_mul(4).saturating_add(1 << 20);
    while i < bytes.len() && *nodes > 0 {
        if matches!(bytes.get(i), Some(b'{') | Some(b'[')) {
            let mut p = Parser {
                s: text,
                i,
                nodes: &mut *nodes,
            };
            match p.value(0) {
                Some(v) if v.is_object() || v.is_array() => {
                    out.push(v);
                    i = p.i;
                    continue;
                }
                _ => {
                    let cost = p.i.saturating_sub(i);
                    if cost > budget {
                        break;
                    }
                    budget -= cost;
                }
            }
        }
        i += 1;
    }
}

struct Parser<'a, 'n> {
    s: &'a str,
    i: usize,
    /// Values that may still be built.
    nodes: &'n mut usize,
}

impl Parser<'_, '_> {
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.i).copied()
    }

    fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace() {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH || *self.nodes == 0 {
            return None;
        }
        *self.nodes -= 1;
        self.ws();
        match self.peek()? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' | b'\'' => self.string().map(Value::String),
            b'-' | b'0'..=b'9' => self.number(),
            _ => {
                let word = self.word();
                match word.as_str() {
                    "true" | "True" => Some(Value::Bool(true)),
                    "false" | "False" => Some(Value::Bool(false)),
                    "null" | "None" => Some(Value::Null),
                    _ => None,
                }
            }
        }
    }

    fn word(&mut self) -> String {
        let start = self.i;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'.' {
                self.i += 1;
            } else {
                break;
            }
        }
        self.s.get(start..self.i).unwrap_or("").to_string()
    }

    fn object(&mut self, depth: usize) -> Option<Value> {
        self.i += 1;
        let mut m = Map::new();
        loop {
            self.ws();
            match self.peek()? {
                b'}' => {
                    self.i += 1;
                    return Some(Value::Object(m));
                }
                b',' => {
                    self.i += 1;
                    continue;
                }
                b'"' | b'\'' => {
                    let k = self.string()?;
                    self.colon_value(&mut m, k, depth)?;
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let k = self.word();
                    self.colon_value(&mut m, k, depth)?;
                }
                _ => return None,
            }
        }
    }

    fn colon_value(&mut self, m: &mut Map<String, Value>, key: String, depth: usize) -> Option<()> {
        self.ws();
        if self.peek()? != b':' {
            return None;
        }
        self.i += 1;
        let v = self.value(depth + 1)?;
        m.insert(key, v);
        Some(())
    }

    fn array(&mut self, depth: usize) -> Option<Value> {
        self.i += 1;
        let mut a = Vec::new();
        loop {
            self.ws();
            match self.peek()? {
                b']' => {
                    self.i += 1;
                    return Some(Value::Array(a));
                }
                b',' => {
                    self.i += 1;
                }
                _ => a.push(self.value(depth + 1)?),
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        let quote = self.peek()?;
        self.i += 1;
        let mut out = String::new();
        let rest = self.s.get(self.i..)?;
        let mut chars = rest.char_indices();
        while let Some((off, c)) = chars.next() {
            match c {
                c if c as u32 == u32::from(quote) => {
                    self.i += off + 1;
                    return Some(out);
                }
                '\\' => {
                    let (_, e) = chars.next()?;
                    match e {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        'b' => out.push('\u{8}'),
                        'f' => out.push('\u{c}'),
                        'u' => {
                            let hex4 = |chars: &mut std::str::CharIndices<'_>| {
                                let hex: String = (0..4)
                                    .filter_map(|_| chars.next().map(|(_, h)| h))
                                    .collect();
                                u32::from_str_radix(&hex, 16).ok()
                            };
                            let code = hex4(&mut chars)?;
                            // a surrogate pair (`\ud83d\ude00`) is one character
                            let pair = (0xD800..0xDC00).contains(&code)
                                && chars.as_str().starts_with("\\u")
                                && chars
                                    .as_str()
                                    .get(2..6)
                                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                                    .is_some_and(|low| (0xDC00..0xE000).contains(&low));
                            let code = if pair {
                                chars.next();
                                chars.next();
                                let low = hex4(&mut chars)?;
                                0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                code
                            };
                            out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                        }
                        other => out.push(other),
                    }
                }
                '\n' if quote == b'\'' => return None,
                c => out.push(c),
            }
        }
        None
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.i;
        while let Some(c) = self.peek() {
            if c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E') {
                self.i += 1;
            } else {
                break;
            }
        }
        let text = self.s.get(start..self.i)?;
        if let Ok(n) = text.parse::<i64>() {
            return Some(Value::Number(n.into()));
        }
        if let Ok(n) = text.parse::<u64>() {
            return Some(Value::Number(n.into()));
        }
        let f: f64 = text.parse().ok()?;
        Number::from_f64(f).map(Value::Number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fenced_and_bare() {
        let t = "Sure!\n```json\n{\"name\": \"a\", \"arguments\": {}}\n```\nDone.";
        assert_eq!(find_values(t), vec![json!({"name": "a", "arguments": {}})]);
        let t = "I will call {\"name\": \"a\"} and then [1, 2].";
        assert_eq!(find_values(t), vec![json!({"name": "a"}), json!([1, 2])]);
    }

    #[test]
    fn slips_models_make() {
        let t = "{'name': 'set_light', 'arguments': {'on': True, 'dim': 0.5,},}";
        assert_eq!(
            find_values(t),
            vec![json!({"name": "set_light", "arguments": {"on": true, "dim": 0.5}})]
        );
        let t = "{name: \"x\", arguments: {level: -3, note: None}}";
        assert_eq!(
            find_values(t),
            vec![json!({"name": "x", "arguments": {"level": -3, "note": null}})]
        );
    }

    #[test]
    fn nothing_to_find() {
        for t in [
            "",
            "no json here",
            "{",
            "{'a': ",
            "[[[[",
            "}{",
            "{\"a\" 1}",
            "```",
            "```json\n{oops\n```",
        ] {
            let _ = find_values(t);
        }
        assert!(find_values("plain words").is_empty());
        let deep = "[".repeat(100_000);
        assert!(find_values(&deep).is_empty());
        // unterminated nesting of many small arrays: linear, not quadratic
        let many = "[".to_string() + &"[1,".repeat(500_000);
        let _ = find_values(&many);
        assert_eq!(
            find_values("{\"s\": \"\\u00e9\\n\"}"),
            vec![json!({"s": "é\n"})]
        );
        // surrogate pairs and the whole u64 range read as JSON reads them
        assert_eq!(
            find_values(r#"["\ud83d\ude00", "\ud83d", 18446744073709551615]"#),
            vec![json!(["😀", "\u{fffd}", 18446744073709551615u64])]
        );
    }

    #[test]
    fn values_built_are_bounded() {
        let found = find_values(&"{}".repeat(200_000));
        assert_eq!(found.len(), MAX_NODES);
        let one = format!("[{}]", "{},".repeat(200_000));
        // the array is cut short: nothing is returned for it
        assert!(find_values(&one).is_empty());
        // a call after a little prose is still found
        let t = format!("{} {{\"name\": \"a\"}}", "{}".repeat(100));
        assert_eq!(find_values(&t).last(), Some(&json!({"name": "a"})));
    }
}
