//! Schema lowering: rewrites a tool's JSON Schema into what one dialect
//! accepts, one rule per file, and reports every change.
//!
//! The walk visits each schema node once, applies the node rules in a fixed
//! order, lowers the children, then finishes the node (strict transform,
//! keyword allowlist, nullability, words appended to the description). The
//! input is never modified; the output is built fresh, so pointers in the
//! report always name places in the input.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind};
use crate::pointer;
use crate::report::{Action, ReportEntry};
use keywords::Kw;

/// The [`Kw`] of a schema keyword, found while compiling (an unknown name
/// does not compile).
macro_rules! kw {
    ($name:literal) => {
        const { $crate::lower::keywords::Kw::new($name) }
    };
}

mod all_of;
pub(crate) mod any_of_siblings;
mod array_items;
mod bounds;
mod const_enum;
mod describe;
mod empty_branch;
pub(crate) mod enum_strings;
mod formats;
pub(crate) mod json_text_maps;
mod keywords;
pub(crate) mod nullable;
mod object_props;
pub(crate) mod one_of;
mod refs;
mod required;
pub(crate) mod strict;
pub(crate) mod type_array;
pub(crate) mod untyped;
mod unused_defs;
pub(crate) mod words;

pub(crate) use json_text_maps::takes_free_keys;

/// Why a keyword the dialect does not take was dropped, as the report
/// says it.
pub(crate) fn drop_reason(key: &str) -> String {
    keywords::reason(key)
}

/// The portable JSON Schema keyword set (see `keywords::PORTABLE`).
pub(crate) fn keywords_portable() -> &'static [&'static str] {
    keywords::PORTABLE
}

/// Deepest schema nesting walked; deeper parts are cut with a report entry.
pub(crate) const MAX_DEPTH: usize = 40;
/// Most schema nodes produced for one tool (guards against `$ref` fan-out).
pub(crate) const MAX_NODES: usize = 50_000;
/// Most bytes of names, strings and report text produced for one tool's
/// schema: `$ref` fan-out over long names (or deep pointers in the report)
/// would otherwise fill megabytes per node.
pub(crate) const MAX_BYTES: usize = 8 * 1024 * 1024;
/// Below those caps, a schema may expand to this many times its own size
/// (plus a little): real catalogs stay under 3 times, while a kilobyte of
/// `$ref`s referring to each other twice would otherwise become megabytes.
pub(crate) const MAX_EXPANSION: usize = 32;

/// The nodes and bytes (names and strings) of a schema as written,
/// counted up to the caps.
fn own_size(schema: &Value) -> (usize, usize) {
    let (mut nodes, mut bytes) = (0usize, 0usize);
    let mut stack = vec![schema];
    while let Some(v) = stack.pop() {
        nodes += 1;
        if nodes > MAX_NODES || bytes > MAX_BYTES {
            break;
        }
        match v {
            Value::String(s) => bytes += s.len(),
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => {
                for (k, x) in m {
                    bytes += k.len();
                    stack.push(x);
                }
            }
            _ => bytes += 8,
        }
    }
    (nodes, bytes)
}

/// How a dialect wants `$ref`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refs {
    /// Inline every reference; recursion is unrolled `depth` times.
    Inline { depth: usize },
    /// Keep `$ref`/`$defs`; inline only references that have sibling keywords.
    Keep,
}

/// How a dialect says "or null".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Nulls {
    /// OpenAPI style: `nullable: true`.
    Nullable,
    /// JSON Schema style: `type: ["string", "null"]`, or a `{"type": "null"}`
    /// branch in `anyOf`.
    TypeArray,
}

/// Strict-mode flavours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Strict {
    /// OpenAI structured outputs: closed objects, every property required,
    /// optional ones nullable.
    AllRequired,
    /// Anthropic strict tool use: closed objects, optional properties stay.
    ClosedObjects,
}

/// What a dialect's schema language accepts.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    /// Keywords kept; everything else is rewritten, described or dropped.
    pub keywords: &'static [&'static str],
    /// `(type, format)` pairs kept; `("*", "*")` keeps every format.
    pub formats: &'static [(&'static str, &'static str)],
    pub refs: Refs,
    pub nulls: Nulls,
    /// Every schema must name a type (no untyped values).
    pub require_type: bool,
    /// `enum` may only hold strings.
    pub string_enums: bool,
    /// Arrays must say what their items are.
    pub require_items: bool,
    pub strict: Option<Strict>,
    /// Largest `minItems` the dialect accepts, when it caps it.
    pub max_min_items: Option<u64>,
    /// Type names are written in capitals (`STRING`), as Google's OpenAPI
    /// subset spells them on the wire.
    pub upper_case_types: bool,
    /// Every object must declare properties: objects with free keys are
    /// sent as JSON text (`json_text_maps`).
    pub maps_as_json_text: bool,
}

impl Target {
    pub(crate) fn allows_format(&self, ty: &str, format: &str) -> bool {
        self.formats
            .iter()
            .any(|&(t, f)| (t == "*" || t == ty) && (f == "*" || f == format))
    }
}

/// A schema node's keywords while it is lowered: a small map kept as a
/// vector in input order, whose values borrow from the input until a rule
/// replaces them. Known keywords are looked up by their [`Kw`] bit: a
/// bitmask of the ones present answers "absent" (most questions a rule
/// asks) without looking at the entries, and a present one is found by
/// comparing bits, not strings. The mask is kept by every method that adds
/// or removes an entry. The order semantics are `serde_json::Map`'s:
/// `insert` keeps an existing key's place, `shift_remove` keeps the order
/// of the rest.
#[derive(Debug, Default)]
pub(crate) struct Obj<'a> {
    entries: Vec<Entry<'a>>,
    /// Bit `b` is set when the keyword with [`Kw`] bit `b` is present.
    present: u64,
}

#[derive(Debug)]
struct Entry<'a> {
    /// The key's [`keywords::bit`], or [`keywords::UNKNOWN`].
    bit: u8,
    key: Cow<'a, str>,
    value: Cow<'a, Value>,
}

impl<'a> Obj<'a> {
    fn with_capacity(n: usize) -> Obj<'a> {
        Obj {
            entries: Vec::with_capacity(n),
            present: 0,
        }
    }

    fn push(&mut self, bit: u8, key: Cow<'a, str>, value: Cow<'a, Value>) {
        self.present |= keywords::mask(bit);
        self.entries.push(Entry { bit, key, value });
    }

    /// A node reading the input map in place.
    pub(crate) fn borrowed(m: &'a Map<String, Value>) -> Obj<'a> {
        let mut obj = Obj::with_capacity(m.len());
        for (k, v) in m {
            obj.push(keywords::bit(k), Cow::Borrowed(k), Cow::Borrowed(v));
        }
        obj
    }

    /// A node owning its map.
    pub(crate) fn owned(m: Map<String, Value>) -> Obj<'a> {
        let mut obj = Obj::with_capacity(m.len());
        for (k, v) in m {
            obj.push(keywords::bit(&k), Cow::Owned(k), Cow::Owned(v));
        }
        obj
    }

    fn position(&self, key: Kw) -> Option<usize> {
        if self.present & keywords::mask(key.0) == 0 {
            return None;
        }
        self.entries.iter().position(|e| e.bit == key.0)
    }

    fn entry_mut(&mut self, key: Kw) -> Option<&mut Cow<'a, Value>> {
        let i = self.position(key)?;
        self.entries.get_mut(i).map(|e| &mut e.value)
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn contains_key(&self, key: Kw) -> bool {
        self.present & keywords::mask(key.0) != 0
    }

    /// Whether any of the keywords in `keys` (a [`Kw::mask`]) is present.
    pub(crate) fn contains_any(&self, keys: u64) -> bool {
        self.present & keys != 0
    }

    pub(crate) fn get(&self, key: Kw) -> Option<&Value> {
        let i = self.position(key)?;
        self.entries.get(i).map(|e| &*e.value)
    }

    /// The value to change in place (a borrowed value is copied first).
    pub(crate) fn get_mut(&mut self, key: Kw) -> Option<&mut Value> {
        self.entry_mut(key).map(Cow::to_mut)
    }

    /// The bit, key and value at `i`, in order.
    pub(crate) fn get_index(&self, i: usize) -> Option<(u8, &str, &Value)> {
        self.entries.get(i).map(|e| (e.bit, &*e.key, &*e.value))
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|e| (&*e.key, &*e.value))
    }

    /// Sets `key`, keeping its place when present, else appending it.
    pub(crate) fn insert(&mut self, key: Kw, value: Value) {
        self.insert_cow(key, Cow::Owned(value));
    }

    /// [`Obj::insert`] for a value that may still borrow from the input.
    pub(crate) fn insert_cow(&mut self, key: Kw, value: Cow<'a, Value>) {
        match self.entry_mut(key) {
            Some(v) => *v = value,
            None => self.push(key.0, Cow::Borrowed(key.name()), value),
        }
    }

    /// The value at `key`, set to `value` when missing.
    pub(crate) fn or_insert(&mut self, key: Kw, value: Value) -> Option<&mut Value> {
        if !self.contains_key(key) {
            self.push(key.0, Cow::Borrowed(key.name()), Cow::Owned(value));
        }
        self.get_mut(key)
    }

    /// Removes `key`, keeping the order of the others.
    pub(crate) fn shift_remove(&mut self, key: Kw) -> Option<Cow<'a, Value>> {
        let i = self.position(key)?;
        self.remove_index(i).map(|(_, v)| v)
    }

    /// Removes the entry at `i`, keeping the order of the others.
    pub(crate) fn remove_index(&mut self, i: usize) -> Option<(Cow<'a, str>, Cow<'a, Value>)> {
        if i >= self.entries.len() {
            return None;
        }
        let e = self.entries.remove(i);
        self.present &= !keywords::mask(e.bit);
        Some((e.key, e.value))
    }

    /// Takes the value out of `key` when `wanted` accepts it, leaving
    /// `null` in its place (put it back with [`Obj::insert`], which keeps
    /// the place).
    fn take_if(&mut self, key: Kw, wanted: fn(&Value) -> bool) -> Option<Cow<'a, Value>> {
        let v = self.entry_mut(key)?;
        wanted(v).then(|| std::mem::replace(v, Cow::Owned(Value::Null)))
    }

    /// Keeps the entries `keep(bit, key, value)` accepts.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(u8, &str, &Value) -> bool) {
        self.entries.retain(|e| keep(e.bit, &e.key, &e.value));
        self.present = self
            .entries
            .iter()
            .fold(0, |m, e| m | keywords::mask(e.bit));
    }

    /// Sets a key given as text: appended when new; when present, the
    /// value is replaced only if `replace` says so. (A scan: merging a big
    /// map into a big node costs the product of their sizes, as removing
    /// keys one by one from an ordered map does.)
    pub(crate) fn put(&mut self, key: Cow<'a, str>, value: Cow<'a, Value>, replace: bool) {
        let bit = keywords::bit(&key);
        let known = bit != keywords::UNKNOWN;
        if known && self.present & keywords::mask(bit) == 0 {
            return self.push(bit, key, value);
        }
        match self
            .entries
            .iter_mut()
            .find(|e| if known { e.bit == bit } else { e.key == key })
        {
            Some(e) => {
                if replace {
                    e.value = value;
                }
            }
            None => self.push(bit, key, value),
        }
    }

    /// The finished node as JSON.
    pub(crate) fn into_map(self) -> Map<String, Value> {
        let mut m = Map::with_capacity(self.entries.len());
        for e in self.entries {
            m.insert(e.key.into_owned(), e.value.into_owned());
        }
        m
    }
}

/// Where a node sits, relative to the schema root: a chain of pointer
/// tokens on the stack, written out only when a report entry needs it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum At<'p> {
    Root,
    Key(&'p At<'p>, &'p str),
    Index(&'p At<'p>, usize),
}

impl At<'_> {
    pub(crate) fn is_root(&self) -> bool {
        matches!(self, At::Root)
    }

    /// Appends the pointer (depth is bounded by the walk's `MAX_DEPTH`).
    fn write(&self, out: &mut String) {
        match self {
            At::Root => {}
            At::Key(parent, key) => {
                parent.write(out);
                pointer::push_token(out, key);
            }
            At::Index(parent, i) => {
                parent.write(out);
                out.push('/');
                push_decimal(out, *i);
            }
        }
    }

    /// The JSON Pointer relative to the schema root.
    pub(crate) fn pointer(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }
}

/// Appends `n` in decimal.
fn push_decimal(out: &mut String, n: usize) {
    if n >= 10 {
        push_decimal(out, n / 10);
    }
    out.extend(char::from_digit((n % 10) as u32, 10));
}

/// One schema node while it is being lowered.
#[derive(Debug, Default)]
pub(crate) struct Node<'a> {
    pub map: Obj<'a>,
    /// The value may also be `null`; rendered at the end in the dialect's style.
    pub nullable: bool,
    /// Sentences appended to the description at the end.
    pub notes: Vec<String>,
    /// The input keyword the node's `anyOf` came from (`oneOf`, `type`),
    /// so report pointers inside it name places in the input.
    pub any_of_from: Option<&'static str>,
    /// The node is where a recursive `$ref` stopped being unrolled.
    pub cut: bool,
    /// The node's one-branch union (`anyOf`, or the keyword it came from)
    /// was folded into it: its subschemas sit under `<keyword>/0` in the
    /// input.
    pub folded_from: Option<&'static str>,
    /// A branch of the node's union took any object (a free map, any
    /// value), whatever became of it.
    pub any_object_branch: bool,
    /// The node's type was inferred from its keywords: the input schema
    /// takes values of every type there.
    pub type_inferred: bool,
}

impl Node<'_> {
    /// The single JSON type of the node, when it has one.
    pub(crate) fn ty(&self) -> Option<&str> {
        self.map.get(kw!("type")).and_then(Value::as_str)
    }
}

/// Result of lowering one tool's schema.
#[derive(Debug)]
pub(crate) struct Lowered {
    pub schema: Value,
    pub report: Vec<ReportEntry>,
    /// Strict mode was asked for but the schema cannot satisfy it.
    pub not_strict: Vec<(String, String)>,
}

/// Walk state for one schema.
pub(crate) struct Cx<'a> {
    pub target: &'a Target,
    allowed: keywords::Allowed,
    pub root: &'a Value,
    tool: &'a str,
    base: &'a str,
    pub report: Vec<ReportEntry>,
    pub ref_stack: Vec<String>,
    nodes: usize,
    /// Bytes produced so far (see [`MAX_BYTES`]).
    bytes: usize,
    /// This schema's limits: [`MAX_EXPANSION`] times its own size, at
    /// most [`MAX_NODES`] and [`MAX_BYTES`]. Until the walk passes the
    /// least they can be ([`FLOOR_NODES`], [`FLOOR_BYTES`]), the schema is
    /// not measured (`sized`): most schemas never get there.
    max_nodes: usize,
    max_bytes: usize,
    sized: bool,
    exhausted: bool,
    pub not_strict: Vec<(String, String)>,
    /// Objects written as JSON text so far (`json_text_maps`).
    pub json_texts: usize,
}

impl<'a> Cx<'a> {
    /// Whether the dialect accepts a known keyword.
    pub(crate) fn allows(&self, keyword: Kw) -> bool {
        self.allowed.has(keyword)
    }

    /// Whether the dialect accepts a node's key (whose [`keywords::bit`]
    /// is `bit`).
    pub(crate) fn allows_key(&self, bit: u8, key: &str) -> bool {
        self.allowed.contains(self.target.keywords, bit, key)
    }

    /// Records a report entry for the keyword at `at` (a place relative to
    /// the schema root).
    pub(crate) fn note(
        &mut self,
        at: &At<'_>,
        keyword: &str,
        action: Action,
        detail: impl Into<String>,
    ) {
        let mut pointer = String::from(self.base);
        at.write(&mut pointer);
        if !keyword.is_empty() {
            pointer::push_token(&mut pointer, keyword);
        }
        let detail = detail.into();
        self.bytes = self
            .bytes
            .saturating_add(pointer.len() + detail.len() + self.tool.len() + 64);
        self.report.push(ReportEntry {
            tool: Some(self.tool.to_string()),
            pointer,
            keyword: keyword.to_string(),
            action,
            detail,
        });
    }
}

/// Lowers `schema` (a tool's input or output schema) for `target`.
///
/// `tool` names the tool in the report; `base` is the pointer of the schema
/// in the input document.
pub(crate) fn lower(
    target: &Target,
    schema: &Value,
    tool: &str,
    base: &str,
) -> Result<Lowered, Error> {
    let mut cx = Cx {
        target,
        allowed: keywords::Allowed::new(target.keywords),
        root: schema,
        tool,
        base,
        report: Vec::new(),
        ref_stack: Vec::new(),
        nodes: 0,
        bytes: 0,
        max_nodes: FLOOR_NODES,
        max_bytes: FLOOR_BYTES,
        sized: false,
        exhausted: false,
        not_strict: Vec::new(),
        json_texts: 0,
    };
    let mut root = match schema {
        Value::Object(m) => Obj::borrowed(m),
        _ => Obj::default(),
    };
    object_props::root_object(&mut cx, &mut root);
    let out = match limit(&mut cx, &At::Root, 0) {
        Some(cut) => cut,
        None => Value::Object(lower_node(&mut cx, root, &At::Root, 0)),
    };
    if cx.exhausted {
        return Err(Error::new(
            ErrorKind::Limit,
            base,
            format!(
                "the schema expands (through $ref) to more than {} nodes or {} bytes, {MAX_EXPANSION} times its own size; not converted",
                cx.max_nodes, cx.max_bytes
            ),
        ));
    }
    Ok(Lowered {
        schema: out,
        report: cx.report,
        not_strict: cx.not_strict,
    })
}

/// The least a schema's node limit can be (its own size counts at least
/// one node).
const FLOOR_NODES: usize = 256;
/// The least a schema's byte limit can be.
const FLOOR_BYTES: usize = 64 * 1024;

/// Counts a node against the limits; `Some` is what replaces a node that
/// is over them.
fn limit(cx: &mut Cx<'_>, at: &At<'_>, depth: usize) -> Option<Value> {
    cx.nodes += 1;
    if (cx.nodes > cx.max_nodes || cx.bytes > cx.max_bytes) && !cx.sized {
        // past the floor: the schema's own size sets the real limits
        let (own_nodes, own_bytes) = own_size(cx.root);
        cx.max_nodes = MAX_NODES.min(FLOOR_NODES + MAX_EXPANSION * own_nodes);
        cx.max_bytes = MAX_BYTES.min(FLOOR_BYTES + MAX_EXPANSION * own_bytes);
        cx.sized = true;
    }
    if cx.nodes > cx.max_nodes || cx.bytes > cx.max_bytes {
        cx.exhausted = true;
        return Some(Value::Object(Map::new()));
    }
    if depth > MAX_DEPTH {
        cx.note(
            at,
            "",
            Action::Narrowed,
            format!("schema nested deeper than {MAX_DEPTH} levels; the rest is cut"),
        );
        let mut cut = Map::new();
        if cx.target.require_type {
            // every schema needs a type here; text is the least that can be sent
            let ty = if cx.target.upper_case_types {
                "STRING"
            } else {
                "string"
            };
            cut.insert("type".into(), Value::String(ty.into()));
            cut.insert(
                "description".into(),
                Value::String("Nested too deeply; this level is left out.".into()),
            );
        }
        return Some(Value::Object(cut));
    }
    None
}

/// What copying a node's own members costs: names, strings, and lists of
/// strings (`enum`, `required`); subschemas are counted when walked.
fn shallow_bytes(m: &Map<String, Value>) -> usize {
    m.iter()
        .map(|(k, v)| {
            k.len()
                + match v {
                    Value::String(s) => s.len(),
                    Value::Array(a) => a.iter().map(|x| x.as_str().map_or(16, str::len)).sum(),
                    _ => 16,
                }
        })
        .sum()
}

/// Lowers one schema node. `None` means the node admits no value (`false`)
/// and the parent should drop it.
pub(crate) fn walk<'a: 'b, 'b>(
    cx: &mut Cx<'a>,
    value: &'b Value,
    at: &At<'_>,
    depth: usize,
) -> Option<Value> {
    if let Some(cut) = limit(cx, at, depth) {
        return Some(cut);
    }
    if let Value::Object(m) = value {
        cx.bytes = cx.bytes.saturating_add(shallow_bytes(m));
    }
    let map = match value {
        Value::Object(m) => Obj::borrowed(m),
        Value::Bool(true) => Obj::default(),
        Value::Bool(false) => return None,
        other => {
            cx.note(
                at,
                "",
                Action::Dropped,
                format!("{other} is not a schema; read as \"any value\""),
            );
            Obj::default()
        }
    };
    Some(Value::Object(lower_node(cx, map, at, depth)))
}

/// Applies the rules to one node and lowers its children.
fn lower_node<'a: 'b, 'b>(
    cx: &mut Cx<'a>,
    map: Obj<'b>,
    at: &At<'_>,
    depth: usize,
) -> Map<String, Value> {
    let mut node = Node {
        map,
        ..Node::default()
    };
    let pushed = refs::expand(cx, &mut node, at);
    all_of::merge(cx, &mut node, at);
    one_of::rewrite(cx, &mut node, at);
    type_array::split(cx, &mut node, at);
    const_enum::rewrite(cx, &mut node, at);
    nullable::absorb(cx, &mut node, at);
    empty_branch::drop_any(cx, &mut node, at);
    any_of_siblings::distribute(cx, &mut node, at);
    untyped::infer(cx, &mut node, at);
    enum_strings::rewrite(cx, &mut node, at);
    array_items::ensure(cx, &mut node, at);
    object_props::clean(cx, &mut node, at);
    required::clean(cx, &mut node, at);
    json_text_maps::apply(cx, &mut node, at);
    formats::apply(cx, &mut node, at);
    bounds::apply(cx, &mut node, at);
    strict::check(cx, &mut node, at);
    describe::apply(cx, &mut node, at);
    let texts = cx.json_texts;
    children(cx, &mut node, at, depth);
    any_of_siblings::after_children(cx, &mut node, at, texts);
    empty_branch::collapse(cx, &mut node, at);
    strict::apply(cx, &mut node, at);
    let map = keywords::finish(cx, node, at);
    for _ in 0..pushed {
        cx.ref_stack.pop();
    }
    map
}

/// Keywords holding one subschema.
const SUBSCHEMA_KEYS: &[Kw] = &[
    kw!("items"),
    kw!("additionalProperties"),
    kw!("not"),
    kw!("propertyNames"),
    kw!("contains"),
];
/// Keywords holding a list of subschemas.
const LIST_KEYS: &[Kw] = &[kw!("anyOf"), kw!("oneOf"), kw!("allOf"), kw!("prefixItems")];
/// Keywords holding a map of subschemas.
const MAP_KEYS: &[Kw] = &[
    kw!("$defs"),
    kw!("definitions"),
    kw!("patternProperties"),
    kw!("dependentSchemas"),
];

/// Lowers every subschema the node keeps. Each list of subschemas is taken
/// out of the node and walked from here, borrowed: the children read the
/// input (or a value a rule made) in place.
fn children(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>, depth: usize) {
    let (branch_key, branch_at);
    let at = match node.folded_from {
        Some(origin) => {
            branch_key = At::Key(at, origin);
            branch_at = At::Index(&branch_key, 0);
            &branch_at
        }
        None => at,
    };
    if let Some(props) = node.map.take_if(kw!("properties"), Value::is_object) {
        if let Value::Object(props) = &*props {
            let here = At::Key(at, "properties");
            let mut out = Map::with_capacity(props.len());
            for (name, sub) in props {
                let at = At::Key(&here, name);
                match walk(cx, sub, &at, depth + 1) {
                    Some(v) => {
                        out.insert(name.clone(), v);
                    }
                    None => {
                        cx.note(
                            &at,
                            "",
                            Action::Dropped,
                            "the schema is `false`: this property may never be sent",
                        );
                        required::forget(&mut node.map, name);
                    }
                }
            }
            node.map.insert(kw!("properties"), Value::Object(out));
        }
    }
    for &key in SUBSCHEMA_KEYS {
        if !node.map.contains_key(key) {
            continue;
        }
        if let Some(sub) = node.map.take_if(key, Value::is_object) {
            let v =
                walk(cx, &sub, &At::Key(at, key.name()), depth + 1).unwrap_or(Value::Bool(false));
            node.map.insert(key, v);
        }
    }
    for &key in LIST_KEYS {
        if !node.map.contains_key(key) {
            continue;
        }
        if let Some(list) = node.map.take_if(key, Value::is_array) {
            if let Value::Array(list) = &*list {
                let origin = if key == kw!("anyOf") {
                    node.any_of_from.unwrap_or(key.name())
                } else {
                    key.name()
                };
                let here = At::Key(at, origin);
                let mut out = Vec::with_capacity(list.len());
                for (i, sub) in list.iter().enumerate() {
                    let at = At::Index(&here, i);
                    match walk(cx, sub, &at, depth + 1) {
                        Some(v) => out.push(v),
                        None if key == kw!("prefixItems") || key == kw!("allOf") => {
                            out.push(Value::Bool(false))
                        }
                        None => {
                            cx.note(&at, "", Action::Dropped, "a `false` branch matches nothing")
                        }
                    }
                }
                node.map.insert(key, Value::Array(out));
            }
        }
    }
    // the root's definitions, where `$ref` stays, are lowered last and only
    // when something refers to them
    let prune = at.is_root() && cx.target.refs == Refs::Keep;
    for &key in MAP_KEYS {
        if !node.map.contains_key(key) {
            continue;
        }
        if prune && (key == kw!("$defs") || key == kw!("definitions")) {
            continue;
        }
        if let Some(defs) = node.map.take_if(key, Value::is_object) {
            if let Value::Object(defs) = &*defs {
                let here = At::Key(at, key.name());
                let mut out = Map::with_capacity(defs.len());
                for (name, sub) in defs {
                    let v = walk(cx, sub, &At::Key(&here, name), depth + 1)
                        .unwrap_or(Value::Bool(false));
                    out.insert(name.clone(), v);
                }
                node.map.insert(key, Value::Object(out));
            }
        }
    }
    if prune {
        unused_defs::lower_used(cx, node, at, depth);
    }
}

/// What the conversion's fast path (`dialect::fast`, which writes plain
/// schemas straight from a catalog's text) does with the shapes a rule
/// rewrites, by examples (each a tool's input schema): `written` there
/// exactly as the rule writes them, or `refused`, so that the tool takes
/// the general path. Every rule file declares its own (`FAST_PATH`, with
/// where its fast form lives); the fast path's tests hold every rule file
/// to having one in [`FAST_PATHS`] and every example to what it says.
#[cfg(test)]
pub(crate) struct FastPath {
    pub(crate) written: &'static [&'static str],
    pub(crate) refused: &'static [&'static str],
    /// The examples are converted in strict mode.
    pub(crate) strict: bool,
}

/// Each rule file's [`FastPath`], by its name.
#[cfg(test)]
pub(crate) const FAST_PATHS: &[(&str, FastPath)] = &[
    ("all_of", all_of::FAST_PATH),
    ("any_of_siblings", any_of_siblings::FAST_PATH),
    ("array_items", array_items::FAST_PATH),
    ("bounds", bounds::FAST_PATH),
    ("const_enum", const_enum::FAST_PATH),
    ("describe", describe::FAST_PATH),
    ("empty_branch", empty_branch::FAST_PATH),
    ("enum_strings", enum_strings::FAST_PATH),
    ("formats", formats::FAST_PATH),
    ("json_text_maps", json_text_maps::FAST_PATH),
    ("keywords", keywords::FAST_PATH),
    ("nullable", nullable::FAST_PATH),
    ("object_props", object_props::FAST_PATH),
    ("one_of", one_of::FAST_PATH),
    ("refs", refs::FAST_PATH),
    ("required", required::FAST_PATH),
    ("strict", strict::FAST_PATH),
    ("type_array", type_array::FAST_PATH),
    ("untyped", untyped::FAST_PATH),
    ("unused_defs", unused_defs::FAST_PATH),
];

/// Test helpers shared by the rule files.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// A target that keeps everything, so a test sees one rule at work.
    pub(crate) fn permissive() -> Target {
        Target {
            keywords: keywords::JSON_SCHEMA,
            formats: &[("*", "*")],
            refs: Refs::Keep,
            nulls: Nulls::TypeArray,
            require_type: false,
            string_enums: false,
            require_items: false,
            strict: None,
            max_min_items: None,
            upper_case_types: false,
            maps_as_json_text: false,
        }
    }

    /// Lowers `schema` for `target`, returning the schema and the report as
    /// `(pointer, action)` pairs.
    pub(crate) fn run(target: &Target, schema: Value) -> (Value, Vec<(String, Action)>) {
        let l = lower(target, &schema, "t", "").expect("lowering failed");
        let r = l
            .report
            .iter()
            .map(|e| (e.pointer.clone(), e.action))
            .collect();
        (l.schema, r)
    }
}
