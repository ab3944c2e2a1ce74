//! The fields of a tool that the index reads ([`ToolText`]), taken from a
//! parsed [`Tool`] or straight from a catalog's JSON text.
//!
//! Reading the text directly keeps no value tree: the strings the index
//! wants are borrowed from the text (copied only when they hold escapes),
//! everything else is checked and passed over. The reader takes the
//! common shapes (a `tools/list` response, its result, an array of tools)
//! and is at least as strict as the JSON parser behind
//! [`Catalog::parse`]; on anything else (another shape, a duplicate key
//! where it matters, deep nesting, a number near the edge of `f64`, text
//! that is not JSON) it gives up, and the caller reads the catalog the
//! usual way, so results and errors are the same either way.

use std::borrow::Cow;

use serde_json::Value;

use super::analyze::Strings;
use crate::catalog::{Catalog, Limits, Tool};

/// Schema nodes read per tool for parameter words, at most.
const MAX_SCHEMA_NODES: usize = 2000;
/// Schema depth read for parameter words, at most.
const MAX_SCHEMA_DEPTH: usize = 6;
/// Enum (and `examples`) items read per schema node, at most.
const MAX_ENUM_ITEMS: usize = 200;
/// Nesting the text reader follows before giving up (the JSON parser
/// stops at 128).
const MAX_NESTING: usize = 100;

/// What the index reads of one tool.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ToolText<'t> {
    pub(crate) name: Cow<'t, str>,
    /// `title`, or `annotations.title`; trimmed, not blank.
    pub(crate) title: Option<Cow<'t, str>>,
    /// Trimmed, not blank.
    pub(crate) description: Option<Cow<'t, str>>,
    /// Parameter names, titles and descriptions, in schema order.
    pub(crate) params: Vec<Cow<'t, str>>,
    /// Enum, const and example values of parameters.
    pub(crate) enums: Vec<Cow<'t, str>>,
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    /// Whether a top-level parameter takes a value to set (`value`, `state`...).
    pub(crate) writes_value: bool,
}

impl ToolText<'_> {
    /// The same, its strings copied (to let go of the text they are in).
    pub(crate) fn into_owned(self) -> ToolText<'static> {
        fn own(s: Cow<'_, str>) -> Cow<'static, str> {
            Cow::Owned(s.into_owned())
        }
        fn own_all(v: Vec<Cow<'_, str>>) -> Vec<Cow<'static, str>> {
            let mut out = Vec::with_capacity(v.len());
            for s in v {
                out.push(own(s));
            }
            out
        }
        ToolText {
            name: own(self.name),
            title: self.title.map(own),
            description: self.description.map(own),
            params: own_all(self.params),
            enums: own_all(self.enums),
            read_only: self.read_only,
            destructive: self.destructive,
            writes_value: self.writes_value,
        }
    }
}

/// The parts of an input schema node that parameter words come from, in
/// the node's member order.
#[derive(Debug)]
enum Node<'t> {
    /// Not an object, or deeper than is read.
    Leaf,
    Object(Vec<Part<'t>>),
}

#[derive(Debug)]
enum Part<'t> {
    /// `description` or `title`.
    Text(Cow<'t, str>),
    /// The strings among the first items of `enum` or `examples`, or `const`.
    Values(Vec<Cow<'t, str>>),
    /// `properties`: names and schemas.
    Properties(Vec<(Cow<'t, str>, Node<'t>)>),
    /// `items`, `anyOf`, `oneOf`, `allOf`, `prefixItems`, `$defs`.
    Subs(Vec<Node<'t>>),
}

/// Member names of a schema node that [`Part`]s come from, by number.
const SCHEMA_KEYS: [&str; 12] = [
    "description",
    "title",
    "enum",
    "examples",
    "const",
    "properties",
    "items",
    "anyOf",
    "oneOf",
    "allOf",
    "prefixItems",
    "$defs",
];

/// Parameter words and enum values of a schema, bounded in depth and node
/// count: a depth-first walk, the last member's subschemas first.
fn schema_words<'t>(root: Node<'t>, out: &mut ToolText<'t>) {
    let mut stack: Vec<(Node<'t>, usize)> = vec![(root, 0)];
    let mut nodes = 0;
    while let Some((node, depth)) = stack.pop() {
        nodes += 1;
        if nodes > MAX_SCHEMA_NODES || depth > MAX_SCHEMA_DEPTH {
            break;
        }
        let Node::Object(parts) = node else { continue };
        for part in parts {
            match part {
                Part::Text(s) if depth > 0 => out.params.push(s),
                Part::Text(_) => {}
                Part::Values(v) => out.enums.extend(v),
                Part::Properties(props) => {
                    for (name, sub) in props {
                        out.params.push(name);
                        stack.push((sub, depth + 1));
                    }
                }
                Part::Subs(subs) => {
                    for s in subs {
                        stack.push((s, depth + 1));
                    }
                }
            }
        }
    }
}

/// A schema value as a [`Node`], borrowed.
fn node_of(v: &Value, depth: usize) -> Node<'_> {
    let Value::Object(map) = v else {
        return Node::Leaf;
    };
    if depth > MAX_SCHEMA_DEPTH {
        return Node::Leaf;
    }
    let sub = |v| node_of(v, depth + 1);
    let mut parts = Vec::new();
    for (key, v) in map {
        let mut subs = Vec::new();
        let part = match (key.as_str(), v) {
            ("description" | "title", Value::String(s)) => Part::Text(Cow::Borrowed(s)),
            ("enum" | "examples", Value::Array(values)) => {
                let mut strings = Vec::new();
                for v in values.iter().take(MAX_ENUM_ITEMS) {
                    if let Value::String(s) = v {
                        strings.push(Cow::Borrowed(s.as_str()));
                    }
                }
                Part::Values(strings)
            }
            ("const", Value::String(s)) => Part::Values(vec![Cow::Borrowed(s)]),
            ("properties", Value::Object(props)) => {
                let mut named = Vec::new();
                for (k, v) in props {
                    named.push((Cow::Borrowed(k.as_str()), sub(v)));
                }
                Part::Properties(named)
            }
            ("items", v) => Part::Subs(vec![sub(v)]),
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(list)) => {
                for v in list {
                    subs.push(sub(v));
                }
                Part::Subs(subs)
            }
            ("$defs", Value::Object(defs)) => {
                for v in defs.values() {
                    subs.push(sub(v));
                }
                Part::Subs(subs)
            }
            _ => continue,
        };
        parts.push(part);
    }
    Node::Object(parts)
}

/// A string that is not blank, trimmed.
fn trimmed(s: Cow<'_, str>) -> Option<Cow<'_, str>> {
    let t = s.trim();
    if t.is_empty() {
        return None;
    }
    Some(match s {
        Cow::Borrowed(b) => Cow::Borrowed(b.trim()),
        Cow::Owned(o) if o.len() == t.len() => Cow::Owned(o),
        Cow::Owned(o) => Cow::Owned(o.trim().to_string()),
    })
}

/// What the index reads of a parsed tool.
pub(crate) fn of_tool(tool: &Tool) -> ToolText<'_> {
    fn text(v: Option<&Value>) -> Option<Cow<'_, str>> {
        v.and_then(Value::as_str)
            .map(Cow::Borrowed)
            .and_then(trimmed)
    }
    let map = tool.as_map();
    let annotations = map.get("annotations").and_then(Value::as_object);
    let hint = |key| {
        annotations
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
    };
    let schema = map.get("inputSchema");
    let mut out = ToolText {
        name: Cow::Borrowed(tool.name()),
        title: text(map.get("title")).or_else(|| text(annotations.and_then(|a| a.get("title")))),
        description: text(map.get("description")),
        read_only: hint("readOnlyHint"),
        destructive: hint("destructiveHint"),
        ..ToolText::default()
    };
    if let Some(schema) = schema {
        schema_words(node_of(schema, 0), &mut out);
        out.writes_value = schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.keys().any(|k| super::act::value_param(k)));
    }
    out
}

/// What the index reads of every tool of a catalog.
pub(crate) fn of_catalog(catalog: &Catalog) -> Vec<ToolText<'_>> {
    let mut out = Vec::with_capacity(catalog.len());
    for t in catalog.tools() {
        out.push(of_tool(t));
    }
    out
}

/// Whether none of 8 bytes (little-endian in `x`) is `"`, `\\` or below
/// 0x20: the bytes a string's text is read past without a look. Bytes of
/// UTF-8 past ASCII are plain.
#[inline(always)]
fn plain8(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // a byte of `v` is zero exactly when this sets its high bit (a borrow
    // may set more above it, never one where there is no zero)
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let below_space = x.wrapping_sub(0x20 * ONES) & !x & HIGH;
    (below_space | zero(x ^ (u64::from(b'"') * ONES)) | zero(x ^ (u64::from(b'\\') * ONES))) == 0
}

/// The reader gave up: the catalog is read the usual way.
#[derive(Debug)]
pub(crate) struct GiveUp;

type R<T> = Result<T, GiveUp>;

/// A JSON value as far as the reader cares.
enum Scalar<'t> {
    Str(Cow<'t, str>),
    Bool(bool),
    Array,
    Other,
}

/// A strict JSON reader over text, with nothing kept but what is asked for.
struct Scan<'t> {
    s: &'t str,
    i: usize,
    depth: usize,
}

impl<'t> Scan<'t> {
    fn peek(&mut self) -> R<u8> {
        while let Some(&c) = self.s.as_bytes().get(self.i) {
            if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                return Ok(c);
            }
            self.i += 1;
        }
        Err(GiveUp)
    }

    fn eat(&mut self, c: u8) -> R<()> {
        if self.peek()? != c {
            return Err(GiveUp);
        }
        self.i += 1;
        Ok(())
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(GiveUp);
        }
        Ok(())
    }

    /// Opens an object or an array.
    fn open(&mut self, c: u8) -> R<()> {
        self.eat(c)?;
        self.enter()
    }

    /// Whether the container opened has one more member or item (then
    /// past the comma before it); at its end, closes it.
    fn more(&mut self, close: u8, first: &mut bool) -> R<bool> {
        if self.peek()? == close {
            self.i += 1;
            self.depth -= 1;
            return Ok(false);
        }
        if !std::mem::replace(first, false) {
            self.eat(b',')?;
        }
        Ok(true)
    }

    /// The key of the next member of the object opened, its value next;
    /// `None` at its end.
    fn key(&mut self, first: &mut bool) -> R<Option<Cow<'t, str>>> {
        if !self.more(b'}', first)? {
            return Ok(None);
        }
        let key = self.string()?;
        self.eat(b':')?;
        Ok(Some(key))
    }

    /// Any value, checked and passed over.
    fn skip(&mut self) -> R<()> {
        self.scalar().map(drop)
    }

    /// Any value: a string or a boolean kept, containers passed over.
    fn scalar(&mut self) -> R<Scalar<'t>> {
        Ok(match self.peek()? {
            b'"' => Scalar::Str(self.string()?),
            b'{' => {
                self.open(b'{')?;
                let mut first = true;
                while self.key(&mut first)?.is_some() {
                    self.skip()?;
                }
                Scalar::Other
            }
            b'[' => {
                self.open(b'[')?;
                let mut first = true;
                while self.more(b']', &mut first)? {
                    self.skip()?;
                }
                Scalar::Array
            }
            b't' => {
                self.word("true")?;
                Scalar::Bool(true)
            }
            b'f' => {
                self.word("false")?;
                Scalar::Bool(false)
            }
            b'n' => {
                self.word("null")?;
                Scalar::Other
            }
            _ => {
                self.number()?;
                Scalar::Other
            }
        })
    }

    fn word(&mut self, w: &str) -> R<()> {
        let end = self.i + w.len();
        if self.s.as_bytes().get(self.i..end) != Some(w.as_bytes()) {
            return Err(GiveUp);
        }
        self.i = end;
        Ok(())
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self
            .s
            .as_bytes()
            .get(self.i)
            .is_some_and(u8::is_ascii_digit)
        {
            self.i += 1;
        }
        self.i - start
    }

    /// A number by the JSON grammar, refused when it may be past `f64`'s
    /// range (the parser refuses those): 10^300 and up.
    fn number(&mut self) -> R<()> {
        let b = self.s.as_bytes();
        if b.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let int = self.digits();
        if int == 0 || (int > 1 && b.get(self.i - int) == Some(&b'0')) {
            return Err(GiveUp);
        }
        if b.get(self.i) == Some(&b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return Err(GiveUp);
            }
        }
        let mut exp: usize = 0;
        if matches!(b.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            let negative = b.get(self.i) == Some(&b'-');
            if matches!(b.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            let start = self.i;
            if self.digits() == 0 {
                return Err(GiveUp);
            }
            if !negative {
                for &d in b.get(start..self.i).unwrap_or(&[]) {
                    exp = exp.saturating_mul(10).saturating_add(usize::from(d - b'0'));
                }
            }
        }
        if int.saturating_add(exp) > 300 {
            return Err(GiveUp);
        }
        Ok(())
    }

    /// A string, borrowed unless it holds escapes.
    fn string(&mut self) -> R<Cow<'t, str>> {
        self.eat(b'"')?;
        let b = self.s.as_bytes();
        let mut owned: Option<String> = None;
        let mut from = self.i;
        loop {
            // most of a string: 8 bytes at a time while none ends it,
            // starts an escape or is a control character
            while let Some(w) = b.get(self.i..self.i + 8) {
                let x = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
                if plain8(x) {
                    self.i += 8;
                } else {
                    break;
                }
            }
            let c = *b.get(self.i).ok_or(GiveUp)?;
            match c {
                b'"' => {
                    let tail = self.s.get(from..self.i).ok_or(GiveUp)?;
                    self.i += 1;
                    return Ok(match owned {
                        None => Cow::Borrowed(tail),
                        Some(mut o) => {
                            o.push_str(tail);
                            Cow::Owned(o)
                        }
                    });
                }
                b'\\' => {
                    let o = owned.get_or_insert_with(String::new);
                    o.push_str(self.s.get(from..self.i).ok_or(GiveUp)?);
                    self.i += 1;
                    let e = *b.get(self.i).ok_or(GiveUp)?;
                    self.i += 1;
                    match e {
                        b'"' => o.push('"'),
                        b'\\' => o.push('\\'),
                        b'/' => o.push('/'),
                        b'b' => o.push('\u{8}'),
                        b'f' => o.push('\u{c}'),
                        b'n' => o.push('\n'),
                        b'r' => o.push('\r'),
                        b't' => o.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = match hi {
                                0xD800..=0xDBFF => {
                                    self.word("\\u")?;
                                    let lo = self.hex4()?;
                                    if !(0xDC00..=0xDFFF).contains(&lo) {
                                        return Err(GiveUp);
                                    }
                                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                                }
                                0xDC00..=0xDFFF => return Err(GiveUp),
                                _ => hi,
                            };
                            o.push(char::from_u32(code).ok_or(GiveUp)?);
                        }
                        _ => return Err(GiveUp),
                    }
                    from = self.i;
                }
                0..=0x1f => return Err(GiveUp),
                _ => self.i += 1,
            }
        }
    }

    fn hex4(&mut self) -> R<u32> {
        let h = self.s.get(self.i..self.i + 4).ok_or(GiveUp)?;
        if !h.bytes().all(|c| c.is_ascii_hexdigit()) {
            return Err(GiveUp);
        }
        self.i += 4;
        u32::from_str_radix(h, 16).map_err(|_| GiveUp)
    }

    /// Marks `bit` in `seen`; a member met twice gives up (the parser
    /// keeps the first one's place and the last one's value).
    fn once(seen: &mut u32, bit: usize) -> R<()> {
        let m = 1u32 << bit;
        if *seen & m != 0 {
            return Err(GiveUp);
        }
        *seen |= m;
        Ok(())
    }

    /// A schema node at `depth`; for the root, `object_type` is set to
    /// whether its `type`, when present, is `"object"`.
    fn node(&mut self, depth: usize, mut object_type: Option<&mut bool>) -> R<Node<'t>> {
        if self.peek()? != b'{' || depth > MAX_SCHEMA_DEPTH {
            self.skip()?;
            return Ok(Node::Leaf);
        }
        let mut parts = Vec::new();
        let mut seen = 0u32;
        self.open(b'{')?;
        let mut first = true;
        while let Some(key) = self.key(&mut first)? {
            if let (Some(ty), "type") = (object_type.as_deref_mut(), key.as_ref()) {
                Self::once(&mut seen, SCHEMA_KEYS.len())?;
                *ty = matches!(self.scalar()?, Scalar::Str(t) if t == "object");
                continue;
            }
            let Some(bit) = SCHEMA_KEYS.iter().position(|k| *k == key) else {
                self.skip()?;
                continue;
            };
            Self::once(&mut seen, bit)?;
            let c = self.peek()?;
            let part = match (bit, c) {
                (0 | 1, b'"') => Part::Text(self.string()?),
                (4, b'"') => Part::Values(vec![self.string()?]),
                (2 | 3 | 7..=10, b'[') => {
                    let mut values = Vec::new();
                    let mut subs = Vec::new();
                    self.open(b'[')?;
                    let (mut first, mut items) = (true, 0);
                    while self.more(b']', &mut first)? {
                        if bit > 3 {
                            subs.push(self.node(depth + 1, None)?);
                        } else if let Scalar::Str(v) = self.scalar()? {
                            if items < MAX_ENUM_ITEMS {
                                values.push(v);
                            }
                        }
                        items += 1;
                    }
                    if bit > 3 {
                        Part::Subs(subs)
                    } else {
                        Part::Values(values)
                    }
                }
                (5 | 11, b'{') => {
                    let mut props: Vec<(Cow<'t, str>, Node<'t>)> = Vec::new();
                    self.open(b'{')?;
                    let mut first = true;
                    while let Some(name) = self.key(&mut first)? {
                        if props.iter().any(|(n, _)| *n == name) {
                            return Err(GiveUp);
                        }
                        let sub = self.node(depth + 1, None)?;
                        props.push((name, sub));
                    }
                    if bit == 5 {
                        Part::Properties(props)
                    } else {
                        let mut subs = Vec::with_capacity(props.len());
                        for (_, n) in props {
                            subs.push(n);
                        }
                        Part::Subs(subs)
                    }
                }
                (6, _) => Part::Subs(vec![self.node(depth + 1, None)?]),
                _ => {
                    self.skip()?;
                    continue;
                }
            };
            parts.push(part);
        }
        Ok(Node::Object(parts))
    }

    /// A tool's input schema (an object): its parameter words, whether a
    /// top-level property takes a value to set, and whether its `type`
    /// (when present) is `"object"`.
    fn input_schema(&mut self, out: &mut ToolText<'t>) -> R<bool> {
        let mut object_type = true;
        let node = self.node(0, Some(&mut object_type))?;
        if let Node::Object(parts) = &node {
            out.writes_value = parts.iter().any(|p| match p {
                Part::Properties(props) => props.iter().any(|(k, _)| super::act::value_param(k)),
                _ => false,
            });
        }
        schema_words(node, out);
        Ok(object_type)
    }

    /// One item of a tools array: the tool when it is one the catalog
    /// keeps (`None` when it is skipped); gives up on an item that looks
    /// like a page when `top` (an array of pages is read the usual way).
    fn tool(&mut self, top: bool) -> R<Option<ToolText<'t>>> {
        if self.peek()? != b'{' {
            self.skip()?;
            return Ok(None);
        }
        let mut out = ToolText::default();
        let mut name = None;
        let mut title = None;
        let mut ann_title = None;
        let mut valid_schema = true;
        let mut seen = 0u32;
        self.open(b'{')?;
        let mut first = true;
        while let Some(key) = self.key(&mut first)? {
            match key.as_ref() {
                "name" => {
                    Self::once(&mut seen, 0)?;
                    name = Some(self.scalar()?);
                }
                "title" => {
                    Self::once(&mut seen, 1)?;
                    title = Some(self.scalar()?);
                }
                "description" => {
                    Self::once(&mut seen, 2)?;
                    if let Scalar::Str(d) = self.scalar()? {
                        out.description = trimmed(d);
                    }
                }
                "inputSchema" => {
                    Self::once(&mut seen, 3)?;
                    valid_schema = if self.peek()? == b'{' {
                        self.input_schema(&mut out)?
                    } else {
                        self.skip()?;
                        false
                    };
                }
                "annotations" if self.peek()? == b'{' => {
                    Self::once(&mut seen, 4)?;
                    let mut seen = 0u32;
                    self.open(b'{')?;
                    let mut first = true;
                    while let Some(key) = self.key(&mut first)? {
                        let bit = match key.as_ref() {
                            "title" => 0,
                            "readOnlyHint" => 1,
                            "destructiveHint" => 2,
                            _ => {
                                self.skip()?;
                                continue;
                            }
                        };
                        Self::once(&mut seen, bit)?;
                        match (bit, self.scalar()?) {
                            (0, Scalar::Str(t)) => ann_title = Some(t),
                            (1, Scalar::Bool(b)) => out.read_only = Some(b),
                            (2, Scalar::Bool(b)) => out.destructive = Some(b),
                            _ => {}
                        }
                    }
                }
                "annotations" => {
                    Self::once(&mut seen, 4)?;
                    self.skip()?;
                }
                "result" | "error" if top => return Err(GiveUp),
                "tools" if top => {
                    if matches!(self.scalar()?, Scalar::Array) {
                        return Err(GiveUp);
                    }
                }
                _ => self.skip()?,
            }
        }
        let Some(Scalar::Str(name)) = name else {
            return Ok(None);
        };
        if name.trim().is_empty() || !valid_schema {
            return Ok(None);
        }
        out.name = name;
        out.title = match title {
            Some(Scalar::Str(t)) => trimmed(t),
            _ => None,
        }
        .or_else(|| ann_title.and_then(trimmed));
        Ok(Some(out))
    }

    /// A tools array, each tool kept once by name.
    fn tools(&mut self, top: bool, out: &mut Vec<ToolText<'t>>) -> R<()> {
        let mut names = Strings::default();
        let mut count = 0;
        self.open(b'[')?;
        let mut first = true;
        while self.more(b']', &mut first)? {
            count += 1;
            if let Some(t) = self.tool(top)? {
                if names.insert(&t.name).1 {
                    out.push(t);
                }
            }
        }
        if count > Limits::default().max_tools {
            return Err(GiveUp);
        }
        Ok(())
    }

    /// `{"tools": [...]}` with no `error`, `result` or `name` beside it
    /// (`want` is `"tools"`), or a `tools/list` response whose `result`
    /// is one (`want` is `"result"`).
    fn page(&mut self, want: &str, out: &mut Vec<ToolText<'t>>) -> R<()> {
        let mut found = false;
        self.open(b'{')?;
        let mut first = true;
        while let Some(key) = self.key(&mut first)? {
            match key.as_ref() {
                k if k == want && !found => {
                    found = true;
                    if want == "tools" && self.peek()? == b'[' {
                        self.tools(false, out)?;
                    } else if want == "result" && self.peek()? == b'{' {
                        self.page("tools", out)?;
                    } else {
                        return Err(GiveUp);
                    }
                }
                "tools" | "error" | "result" | "name" => return Err(GiveUp),
                _ => self.skip()?,
            }
        }
        if found {
            Ok(())
        } else {
            Err(GiveUp)
        }
    }
}

/// What the index reads of every tool in a catalog's JSON text, the same
/// as [`of_catalog`] of [`Catalog::parse`]'s catalog; [`GiveUp`] when the
/// text is not one of the shapes read here (or not JSON).
pub(crate) fn of_text(text: &str) -> Result<Vec<ToolText<'_>>, GiveUp> {
    Limits::default()
        .check_size(text.len())
        .map_err(|_| GiveUp)?;
    let mut s = Scan {
        s: text,
        i: 0,
        depth: 0,
    };
    let mut out = Vec::new();
    match s.peek()? {
        b'[' => s.tools(true, &mut out)?,
        b'{' => {
            // a result, or a response holding one
            let start = s.i;
            if s.page("tools", &mut out).is_err() {
                out.clear();
                s.i = start;
                s.depth = 0;
                s.page("result", &mut out)?;
            }
        }
        _ => return Err(GiveUp),
    }
    if s.peek().is_ok() {
        // more after the document: pages one after the other
        return Err(GiveUp);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
