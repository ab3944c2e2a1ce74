//! Conversion from catalog text straight to a dialect's text, without
//! building value trees, for what needs no rewriting.
//!
//! Most tools of real catalogs have plain input schemas: objects of named
//! properties whose leaves are strings, numbers, booleans, string enums
//! and arrays of those, with descriptions and simple bounds. Lowering
//! such a schema changes nothing but the spelling of its types (Gemini
//! writes `STRING`) and adds `format: "enum"` where Gemini wants it.
//!
//! A few shapes that Gemini rewrites by fixed rules are written here too,
//! as the general path writes them (the other dialects take them as they
//! are): an untyped property (any value: the typed branches, `nullable`
//! and a sentence), a type array of scalars (`anyOf`, one branch a type),
//! an object with free keys (a string of JSON text, said in the
//! description) and a type beside a union of objects (left to the
//! branches). So are the "or null" unions Python's schema generators
//! write: a string enum beside `{"type": "null"}`, and `{"type": "null"}`
//! among several branches (Gemini's `nullable`; the others put it last).
//!
//! This path reads the catalog's text once, writes each plain tool's item
//! while reading it, and hands every other tool, as its own text, to the
//! general path ([`super::declare`]), so a catalog is converted exactly as
//! [`super::convert_json`] converts it, only faster. Whatever this path is
//! not sure of (a document of another shape, a tool the catalog reader
//! would report on, a name given twice, strict mode, dialects whose items
//! depend on each other) makes it step aside for the general path.
//!
//! A schema node is read member by member ([`Plain::member`]) and finished
//! by its kind, each step naming the lowering rules whose shapes it
//! writes; the text of a rule's rewrite lives in the rule's file, beside
//! its general form. Every rule file also says, with examples, which of
//! its shapes this path writes and which it leaves to the general path
//! (its `FAST_PATH`); a test holds every rule file to having one and every
//! example to what it says, so a new rule cannot be skipped here unseen.

use super::{
    declare_one, finish_stream, item, names_kept, output_dropped, report_renamed, separate,
    Dialect, Options,
};
use crate::catalog::{mcp_name_problem, Limits, Tool};
use crate::lower::{
    any_of_siblings, enum_strings, json_text_maps, nullable, one_of, type_array, untyped, words,
    Nulls,
};
use crate::names::NameMap;
use crate::pointer;
use crate::rawjson::{self, string_end, value_end, ws};
use crate::report::{Action, ReportEntry};

/// Deepest nesting of a plain schema (below the general walk's cut).
const MAX_DEPTH: usize = 24;
/// Most nodes of one plain schema (below the general walk's limits).
const MAX_NODES: usize = 4096;

/// The keywords a plain schema node may hold, one bit each.
const KEYS: [&str; 18] = [
    "type",
    "description",
    "title",
    "properties",
    "required",
    "items",
    "enum",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "default",
    "additionalProperties",
    "$schema",
    "anyOf",
    "oneOf",
];
const TYPE: u32 = 1;
const DESCRIPTION: u32 = 1 << 1;
const TITLE: u32 = 1 << 2;
const PROPERTIES: u32 = 1 << 3;
const REQUIRED: u32 = 1 << 4;
const ITEMS: u32 = 1 << 5;
const ENUM: u32 = 1 << 6;
const NUMBER_BOUNDS: u32 = 3 << 7;
const LENGTHS: u32 = 3 << 9;
const ITEM_COUNTS: u32 = 3 << 11;
const DEFAULT: u32 = 1 << 13;
/// Only `false`, on objects: kept where the dialect closes objects, else
/// dropped and reported.
const ADDITIONAL: u32 = 1 << 14;
/// Only at the root: dropped and reported.
const SCHEMA: u32 = 1 << 15;
/// Plain branches of distinct types (or objects), one of them may be
/// `{"type": "null"}`, or one scalar branch (a string enum, bounds) and
/// `{"type": "null"}`, beside a description, a title and a default only.
const ANY_OF: u32 = 1 << 16;
/// As [`ANY_OF`], without the null branch; where the dialect has no
/// `oneOf`, written as `anyOf` after the node's own keywords and reported.
const ONE_OF: u32 = 1 << 17;
/// The keywords that say something about any type.
const ANY: u32 = TYPE | DESCRIPTION | TITLE;

/// The keywords each type may have beside [`ANY`].
fn allowed_for(ty: &str) -> Option<u32> {
    Some(match ty {
        "object" => PROPERTIES | REQUIRED | ADDITIONAL | SCHEMA,
        "array" => ITEMS | ITEM_COUNTS,
        "string" => ENUM | LENGTHS | DEFAULT,
        "number" | "integer" => NUMBER_BOUNDS | DEFAULT,
        "boolean" => DEFAULT,
        _ => return None,
    })
}

/// What became of a keyword, for the report.
#[derive(Debug, Clone)]
enum Note {
    /// Dropped: the dialect does not take it.
    Dropped,
    /// A null branch written as `nullable`.
    NullBranch,
    /// `oneOf` written as `anyOf`.
    OneOf,
    /// An untyped value offered as any typed value.
    AnyValue,
    /// An object with free keys sent as JSON text.
    AsText,
    /// A type array (the names, joined by ", ") written as `anyOf`.
    TypeArray(String),
    /// A type beside a union (`anyOf` or `oneOf`), the type of all its
    /// branches, left out.
    TypeMoved(&'static str),
}

impl Note {
    /// The report's action and detail.
    fn said(&self, keyword: &str) -> (Action, String) {
        match self {
            Note::NullBranch => (Action::Rewritten, nullable::NULL_BRANCH.to_string()),
            Note::OneOf => (Action::Rewritten, one_of::AS_ANY_OF.to_string()),
            Note::Dropped => (Action::Dropped, crate::lower::drop_reason(keyword)),
            Note::AnyValue => (Action::Narrowed, untyped::ANY_VALUE.to_string()),
            Note::AsText => (Action::Rewritten, json_text_maps::AS_TEXT.to_string()),
            Note::TypeArray(list) => (Action::Rewritten, type_array::as_any_of(list)),
            Note::TypeMoved(origin) => (Action::Rewritten, any_of_siblings::moved("type", origin)),
        }
    }
}

/// Index tokens of union branches in report pointers.
const INDEX: [&str; 8] = ["0", "1", "2", "3", "4", "5", "6", "7"];

/// The place of a keyword in [`KEYS`] (a scan: at `"z"`, smaller than a
/// `match` on the names, and as fast on so few).
fn key_place(key: &[u8]) -> Option<usize> {
    KEYS.iter().position(|k| k.as_bytes() == key)
}

/// A type's name as the dialect writes it (Gemini in capitals).
fn type_name(ty: &str, upper: bool) -> Option<&'static str> {
    let [lower, capitals] = match ty {
        "object" => ["object", "OBJECT"],
        "array" => ["array", "ARRAY"],
        "string" => ["string", "STRING"],
        "number" => ["number", "NUMBER"],
        "integer" => ["integer", "INTEGER"],
        "boolean" => ["boolean", "BOOLEAN"],
        _ => return None,
    };
    Some(if upper { capitals } else { lower })
}

/// How one dialect writes plain schemas.
struct Plain<'t> {
    text: &'t str,
    /// The [`KEYS`] the dialect accepts.
    accepted: u32,
    upper_case_types: bool,
    string_enums: bool,
    max_min_items: Option<u64>,
    /// "Or null" is `nullable: true` (else a type array); so is a type
    /// array written as `anyOf`.
    nullable_keyword: bool,
    /// Every schema needs a type: an untyped value is offered as any typed
    /// value, and a type beside a union goes into its branches.
    require_type: bool,
    /// Objects with free keys are sent as JSON text.
    maps_as_text: bool,
    /// How many unions hold the node being written.
    unions: usize,
    /// The node about to be written is a property's value or an array's
    /// items, where an untyped value or an object with free keys may
    /// stand.
    value_slot: bool,
    nodes: usize,
    /// The type of the node written last (`None`: a union).
    last_type: Option<&'t str>,
    /// The root written last declares no parameters.
    no_parameters: bool,
    /// The property names of the nodes being written, each node's above
    /// its parent's (a node's are let go when it is written).
    names: Vec<&'t [u8]>,
    /// The same for `required` (and, for a moment, `enum`) strings.
    listed: Vec<&'t [u8]>,
    /// The way from the schema's root to the node being written.
    path: Vec<&'t str>,
    /// What lowering reports so far: `(pointer below the schema, keyword,
    /// what became of it)`.
    dropped: Vec<(String, &'static str, Note)>,
}

/// The dialects whose items are written here (both directions of each
/// stay in its own file: this writes the same items as its `tool` or
/// `declaration` builds).
fn handled(dialect: Dialect) -> bool {
    matches!(
        dialect,
        Dialect::Gemini | Dialect::OpenAi | Dialect::OpenAiResponses | Dialect::Anthropic
    )
}

/// One tool as found in the text.
struct Found<'t> {
    /// The whole tool object as written.
    raw: &'t str,
    /// The MCP name (written without escapes).
    name: &'t str,
    /// The description as written (quotes included), when it is a string.
    description: Option<&'t str>,
    /// Where the tool's schema, written for the dialect, lies in the
    /// schemas' text; `None`: the schema is not plain.
    schema: Option<(usize, usize)>,
    /// The schema declares no parameters.
    no_parameters: bool,
    /// What lowering reports, as `(pointer below the schema, keyword,
    /// what became of it)`, in the order the general walk reports it.
    dropped: Vec<(String, &'static str, Note)>,
    /// The tool declares an output schema (an object).
    output: bool,
}

/// Converts `text`, or `None` when the general path must (see the module
/// manual); a `Some` is byte for byte what [`Catalog::parse`] and
/// [`super::convert_json`] give.
///
/// [`Catalog::parse`]: crate::Catalog::parse
pub(super) fn convert(text: &str, dialect: Dialect, options: &Options) -> Option<String> {
    if options.strict || !handled(dialect) {
        return None;
    }
    let limits = Limits::default();
    limits.check_size(text.len()).ok()?;
    let mut plain = Plain::new(text, dialect);
    let mut schemas = String::with_capacity(text.len());
    let (tools_at, found) = read(text, &mut plain, &mut schemas)?;
    if found.len() > limits.max_tools {
        return None;
    }
    let pointer_of = |i: usize| pointer::index(tools_at, i);
    let (all_names, renamed) = NameMap::assign(found.iter().map(|t| t.name), dialect.name_rule());
    // a name given twice (the reader keeps the first tool) or two names
    // that fit the rule the same way: the general path says so
    let rule = dialect.name_rule();
    if renamed.iter().any(|(mcp, new)| rule.fit(mcp) != *new) {
        return None;
    }
    let mut report = Vec::new();
    if !renamed.is_empty() {
        let places: Vec<(&str, String)> = found
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name, pointer_of(i)))
            .collect();
        report_renamed(renamed, dialect, &mut report, |mcp| {
            places
                .iter()
                .find(|(n, _)| *n == mcp)
                .map(|(_, p)| p.as_str())
        });
    }
    let wrapped = dialect == Dialect::Gemini;
    let mut out = String::with_capacity(schemas.len() + text.len() / 4 + 1024);
    out.push_str("{\"dialect\":");
    rawjson::push_str(&mut out, dialect.as_str());
    out.push_str(",\"tools\":[");
    let mut entries = Vec::new();
    let mut converted = Vec::with_capacity(found.len());
    let mut skipped = false;
    let mut written = 0usize;
    for (i, (t, (name, _))) in found.iter().zip(all_names.iter()).enumerate() {
        let mark = out.len();
        separate(&mut out, &mut written, wrapped);
        let schema = t.schema.and_then(|(s, e)| schemas.get(s..e));
        if let (Some(schema), Some(description)) = (schema, t.description) {
            // Gemini sends no parameters for a tool without them
            let schema = Some(schema).filter(|_| !(wrapped && t.no_parameters));
            if write_item(dialect, name, description, schema, &mut out) {
                // the tool's place is written out only for a report
                if !t.dropped.is_empty() {
                    let at = pointer::push(&pointer_of(i), "inputSchema");
                    for (below, keyword, note) in &t.dropped {
                        let (action, detail) = note.said(keyword);
                        entries.push(ReportEntry {
                            tool: Some(t.name.to_string()),
                            pointer: format!("{at}{below}"),
                            keyword: (*keyword).into(),
                            action,
                            detail,
                        });
                    }
                }
                if t.output {
                    entries.push(output_dropped(dialect, t.name, &pointer_of(i)));
                }
                converted.push((name, t.name));
                continue;
            }
        }
        // the general path, for this tool alone
        out.truncate(mark);
        written -= 1;
        let value: serde_json::Value = serde_json::from_str(t.raw).ok()?;
        let (tool, notes) = Tool::from_value(value, &pointer_of(i)).ok()?;
        if !notes.is_empty() {
            return None;
        }
        match declare_one(&tool, name, dialect, false, options, &mut report) {
            Some((d, tool_entries)) => {
                separate(&mut out, &mut written, wrapped);
                entries.extend(tool_entries);
                // items of these dialects stand alone: nothing is kept
                rawjson::push_value(&mut out, &item(dialect, d, &mut Vec::new()));
                converted.push((name, t.name));
            }
            None => skipped = true,
        }
    }
    report.extend(entries);
    let kept_names = names_kept(converted, skipped);
    finish_stream(
        &mut out,
        wrapped && written > 0,
        kept_names.as_ref().unwrap_or(&all_names),
        &report,
    );
    Some(out)
}

/// Writes a plain tool's item in the dialect's shape (what its `tool` or
/// `declaration` builds); `false` when the description is blank.
fn write_item(
    dialect: Dialect,
    name: &str,
    description: &str,
    schema: Option<&str>,
    out: &mut String,
) -> bool {
    let (head, key, tail) = match dialect {
        Dialect::Gemini => ("{\"name\":", ",\"parameters\":", "}"),
        Dialect::OpenAi => (
            "{\"type\":\"function\",\"function\":{\"name\":",
            ",\"parameters\":",
            "}}",
        ),
        Dialect::OpenAiResponses => (
            "{\"type\":\"function\",\"name\":",
            ",\"parameters\":",
            ",\"strict\":false}",
        ),
        Dialect::Anthropic => ("{\"name\":", ",\"input_schema\":", "}"),
        _ => return false,
    };
    out.push_str(head);
    rawjson::push_str(out, name);
    out.push_str(",\"description\":");
    if push_string(out, description, true).is_none() {
        return false;
    }
    if let Some(schema) = schema {
        out.push_str(key);
        out.push_str(schema);
    }
    out.push_str(tail);
    true
}

/// Reads the object at `i` field by field: `each(key, value start)`
/// consumes a value and returns where it ends. Returns where the object
/// ends; `None` for anything but an object whose keys are written without
/// escapes, each once.
fn object<'t>(
    b: &'t [u8],
    i: usize,
    mut each: impl FnMut(&'t [u8], usize) -> Option<usize>,
) -> Option<usize> {
    if !matches!(b.get(i), Some(b'{')) {
        return None;
    }
    let mut keys: Vec<&[u8]> = Vec::new();
    let mut j = ws(b, i + 1);
    if matches!(b.get(j), Some(b'}')) {
        return Some(j + 1);
    }
    loop {
        let k = string_end(b, j).ok()?;
        let key = b.get(j + 1..k - 1)?;
        if key.contains(&b'\\') || keys.contains(&key) {
            return None;
        }
        keys.push(key);
        j = ws(b, k);
        if !matches!(b.get(j), Some(b':')) {
            return None;
        }
        j = ws(b, each(key, ws(b, j + 1))?);
        match b.get(j) {
            Some(b',') => j = ws(b, j + 1),
            Some(b'}') => return Some(j + 1),
            _ => return None,
        }
    }
}

/// Finds the tools of a `tools/list` response or its result, checking
/// what the catalog reader checks (`None` when it would report anything
/// or read the document otherwise), and writes each plain schema onto
/// `schemas`. Returns the pointer of the tools array and the tools.
fn read<'t>(
    text: &'t str,
    plain: &mut Plain<'t>,
    schemas: &mut String,
) -> Option<(&'static str, Vec<Found<'t>>)> {
    let b = text.as_bytes();
    // how many levels of nesting each value may still hold: serde_json's
    // limit, as the catalog reader meets it
    let room = rawjson::MAX_DEPTH;
    let mut found: Vec<Found<'t>> = Vec::new();
    let mut tools_at = None;
    let mut result = false;
    let mut error = false;
    let mut tools = |i: usize, room: usize, found: &mut Vec<Found<'t>>| -> Option<usize> {
        if !matches!(b.get(i), Some(b'[')) || room < 3 {
            return None;
        }
        let mut j = ws(b, i + 1);
        if matches!(b.get(j), Some(b']')) {
            return Some(j + 1);
        }
        loop {
            let t = tool(text, j, room - 2, plain, schemas)?;
            found.push(t.0);
            j = ws(b, t.1);
            match b.get(j) {
                Some(b',') => j = ws(b, j + 1),
                Some(b']') => return Some(j + 1),
                _ => return None,
            }
        }
    };
    let end = object(b, ws(b, 0), |key, v| match key {
        b"result" => {
            result = true;
            object(b, v, |key, v| match key {
                b"tools" => {
                    tools_at = Some("/result/tools");
                    tools(v, room - 2, &mut found)
                }
                _ => value_end(b, v, room - 2).ok(),
            })
        }
        b"tools" => {
            tools_at.get_or_insert("/tools");
            tools(v, room - 1, &mut found)
        }
        b"error" => {
            error = true;
            value_end(b, v, room - 1).ok()
        }
        _ => value_end(b, v, room - 1).ok(),
    })?;
    if ws(b, end) != b.len() || error {
        return None;
    }
    // tools beside a result are not the page's: the reader looks inside
    // the result only
    match (result, tools_at) {
        (true, Some("/result/tools")) | (false, Some("/tools")) => Some((tools_at?, found)),
        _ => None,
    }
}

/// Reads one tool at `i` (its values may nest `room` levels), writing its
/// schema onto `schemas` when it is plain. Returns the tool and where it
/// ends.
fn tool<'t>(
    text: &'t str,
    i: usize,
    room: usize,
    plain: &mut Plain<'t>,
    schemas: &mut String,
) -> Option<(Found<'t>, usize)> {
    let b = text.as_bytes();
    let mut name = None;
    let mut description = None;
    let mut schema = None;
    let mut has_schema = false;
    let mut no_parameters = false;
    let mut dropped = Vec::new();
    let mut output = false;
    let end = object(b, i, |key, v| {
        let string = matches!(b.get(v), Some(b'"'));
        match key {
            b"inputSchema" => {
                has_schema = true;
                let mark = schemas.len();
                plain.nodes = 0;
                plain.path.clear();
                plain.names.clear();
                plain.listed.clear();
                plain.dropped.clear();
                plain.unions = 0;
                plain.value_slot = false;
                if let Some(e) = plain.node(v, 0, schemas) {
                    schema = Some((mark, schemas.len()));
                    no_parameters = plain.no_parameters;
                    dropped = std::mem::take(&mut plain.dropped);
                    return Some(e);
                }
                schemas.truncate(mark);
            }
            // the reader reports a description or title that is not a string
            b"description" | b"title" if !string => return None,
            b"description" => description = Some(v),
            b"name" if !string => return None,
            b"name" => name = Some(v),
            b"outputSchema" => output = matches!(b.get(v), Some(b'{')),
            _ => {}
        }
        value_end(b, v, room).ok()
    })?;
    let raw = text.get(i..end)?;
    let name = name.and_then(|v| {
        let e = string_end(b, v).ok()?;
        text.get(v + 1..e - 1)
    })?;
    // names the reader reports on, or reads with escapes, go its way
    if !has_schema
        || name.contains('\\')
        || name.trim().is_empty()
        || mcp_name_problem(name).is_some()
    {
        return None;
    }
    let description = match description {
        Some(v) => Some(text.get(v..string_end(b, v).ok()?)?),
        None => None,
    };
    Some((
        Found {
            raw,
            name,
            description,
            schema,
            no_parameters,
            dropped,
            output,
        },
        end,
    ))
}

/// Appends a string written in the text (quotes included) as serde_json
/// writes it: as it is when it has no escapes, else read and written
/// again. Returns whether it is blank (empty once its surrounding
/// whitespace is left out). `trim`: that whitespace left out, and `None`
/// when nothing is left.
fn push_string(out: &mut String, raw: &str, trim: bool) -> Option<bool> {
    let read = read_string(raw)?;
    let trimmed = read.trim();
    let blank = trimmed.is_empty();
    if trim && blank {
        return None;
    }
    let s = if trim { trimmed } else { &read };
    if s.len() + 2 == raw.len() {
        // no escapes and nothing trimmed: the text as written
        out.push_str(raw);
    } else {
        rawjson::push_str(out, s);
    }
    Some(blank)
}

/// Whether `raw` is an integer serde_json reads and writes back as it is
/// written (`-0` is not: it is read as a float); `unsigned`: not negative.
fn plain_integer(raw: &[u8], unsigned: bool) -> bool {
    let digits = match raw.split_first() {
        Some((b'-', rest)) if !unsigned => rest,
        _ => raw,
    };
    !digits.is_empty()
        && digits.len() <= 18
        && digits.iter().all(u8::is_ascii_digit)
        && (!matches!(digits.first(), Some(b'0')) || (digits.len() == 1 && raw.len() == 1))
}

impl<'t> Plain<'t> {
    /// How `dialect` (without strict mode) writes plain schemas of `text`.
    fn new(text: &'t str, dialect: Dialect) -> Plain<'t> {
        let target = dialect.target(false);
        let accepted = KEYS
            .iter()
            .enumerate()
            .filter(|(_, k)| target.keywords.contains(k))
            .fold(0u32, |m, (i, _)| m | 1 << i);
        Plain {
            text,
            accepted,
            upper_case_types: target.upper_case_types,
            string_enums: target.string_enums,
            max_min_items: target.max_min_items,
            nullable_keyword: target.nulls == Nulls::Nullable,
            require_type: target.require_type,
            maps_as_text: target.maps_as_json_text,
            unions: 0,
            value_slot: false,
            nodes: 0,
            last_type: None,
            no_parameters: false,
            names: Vec::new(),
            listed: Vec::new(),
            path: Vec::new(),
            dropped: Vec::new(),
        }
    }

    /// Writes the plain schema at `i` as the dialect has it and returns
    /// where it ends; `None` when it is not plain. The members are read
    /// and written one by one ([`Plain::member`]); what the lowering rules
    /// rewrite is finished at the end of the node, by the kind of node: a
    /// union ([`Plain::union_node`]), an untyped value or a type array
    /// ([`Plain::untyped`]), or a typed node ([`Plain::typed`]).
    fn node(&mut self, i: usize, depth: usize, out: &mut String) -> Option<usize> {
        self.nodes += 1;
        let value_slot = std::mem::take(&mut self.value_slot);
        if depth > MAX_DEPTH || self.nodes > MAX_NODES {
            return None;
        }
        let b = self.text.as_bytes();
        if !matches!(b.get(i), Some(b'{')) {
            return None;
        }
        push_ascii(out, "{");
        let mut n = NodeRead {
            seen: 0,
            ty: None,
            types: Vec::new(),
            props: self.names.len(),
            required: self.listed.len(),
            default: None,
            drops: [None, None],
            later: None,
            union: None,
            type_at: (0, 0, 0),
            properties_at: (0, 0),
            description_at: (0, 0, 0, 0),
            value_slot,
            depth,
        };
        let mut j = ws(b, i + 1);
        if !matches!(b.get(j), Some(b'}')) {
            loop {
                match self.member(&mut n, j, out)? {
                    Member::More(next) => j = next,
                    Member::End(last) => {
                        j = last;
                        break;
                    }
                }
            }
        }
        if n.union.is_some() {
            return self.union_node(n, j, out);
        }
        match n.ty {
            None => self.untyped(n, j, out),
            Some(ty) => self.typed(n, ty, j, out),
        }
    }

    /// Reads the member at `j` and writes it, or sets it aside for the end
    /// of the node; returns what follows it.
    fn member(&mut self, n: &mut NodeRead<'t>, j: usize, out: &mut String) -> Option<Member> {
        let text = self.text;
        let b = text.as_bytes();
        let k = string_end(b, j).ok()?;
        let key = b.get(j + 1..k - 1)?;
        let place = key_place(key)?;
        let bit = 1u32 << place;
        if n.seen & bit != 0 {
            return None;
        }
        n.seen |= bit;
        let colon = ws(b, k);
        if !matches!(b.get(colon), Some(b':')) {
            return None;
        }
        let v = ws(b, colon + 1);
        if let Some(e) = self.set_aside(n, bit, place, v, out)? {
            return next_member(b, e);
        }
        let member = out.len();
        comma(out);
        out.push_str(text.get(k - key.len() - 2..k)?);
        push_ascii(out, ":");
        let value_at = out.len();
        let e = match bit {
            TYPE => self.type_value(n, v, member, value_at, out)?,
            DESCRIPTION | TITLE => self.text_value(n, bit, v, value_at, out)?,
            ADDITIONAL | PROPERTIES | REQUIRED => self.object_value(n, bit, v, member, out)?,
            ITEMS => {
                self.path.push("items");
                self.value_slot = true;
                let e = self.node(v, n.depth + 1, out);
                self.path.pop();
                e?
            }
            _ => self.scalar_value(n, bit, v, out)?,
        };
        next_member(b, e)
    }

    /// A member not written in place, for the keyword allowlist
    /// (`lower::keywords`: `additionalProperties: false` and `$schema`
    /// dropped where the dialect does not take them, any other keyword it
    /// does not take refused), a type array the dialect writes as `anyOf`
    /// (`lower::type_array`, at the end of the node) and a union
    /// ([`Plain::union`]; Gemini's `anyOf` from a `oneOf` at the end of
    /// the node, `lower::one_of`). `Some(Some(end))`: set aside, the value
    /// ending at `end`; `Some(None)`: to be written in place.
    fn set_aside(
        &mut self,
        n: &mut NodeRead<'t>,
        bit: u32,
        place: usize,
        v: usize,
        out: &mut String,
    ) -> Option<Option<usize>> {
        let text = self.text;
        let b = text.as_bytes();
        let mut read_to = None;
        if bit & (ADDITIONAL | SCHEMA) != 0 {
            let e = value_end(b, v, 1).ok()?;
            let fits = match bit {
                ADDITIONAL => b.get(v..e)? == b"false",
                _ => n.depth == 0 && matches!(b.get(v), Some(b'"')),
            };
            if !fits {
                return None;
            }
            if self.accepted & bit == 0 {
                let name = KEYS.get(place)?;
                *n.drops.iter_mut().find(|d| d.is_none())? = Some(name);
                read_to = Some(e);
            }
        } else if self.accepted & bit == 0 && bit != ONE_OF {
            return None;
        }
        if bit == TYPE && matches!(b.get(v), Some(b'[')) {
            let e = type_list(text, v, &mut n.types)?;
            // written as anyOf at the end of the node
            if self.nullable_keyword {
                read_to = Some(e);
            }
        }
        if bit & (ANY_OF | ONE_OF) != 0 {
            if n.seen & ANY_OF != 0 && n.seen & ONE_OF != 0 {
                return None;
            }
            // Gemini has no oneOf: written as anyOf after the node's own
            // keywords, reported before its branches
            let keyword = if bit == ANY_OF { "anyOf" } else { "oneOf" };
            let (read, mark) = if bit == ONE_OF && self.accepted & ONE_OF == 0 {
                self.note("oneOf", Note::OneOf);
                let mark = self.dropped.len();
                let mut branches = String::new();
                let read = self.union(v, n.depth, "oneOf", &mut branches)?;
                n.later = Some(branches);
                (read, mark)
            } else {
                let mark = self.dropped.len();
                (self.union(v, n.depth, keyword, out)?, mark)
            };
            read_to = Some(read.end);
            n.union = Some((keyword, read, mark));
        }
        Some(read_to)
    }

    /// Writes `type`: a type array kept as a list (compact, as serde_json
    /// writes it), or one type's name as the dialect spells it.
    fn type_value(
        &mut self,
        n: &mut NodeRead<'t>,
        v: usize,
        member: usize,
        value_at: usize,
        out: &mut String,
    ) -> Option<usize> {
        let text = self.text;
        let b = text.as_bytes();
        if !n.types.is_empty() {
            push_ascii(out, "[");
            for (i, t) in n.types.iter().enumerate() {
                if i > 0 {
                    push_ascii(out, ",");
                }
                push_ascii(out, "\"");
                out.push_str(t);
                push_ascii(out, "\"");
            }
            push_ascii(out, "]");
            return value_end(b, v, 2).ok();
        }
        let e = string_end(b, v).ok()?;
        let t = text.get(v + 1..e - 1)?;
        let name = type_name(t, self.upper_case_types)?;
        n.ty = Some(t);
        push_ascii(out, "\"");
        out.push_str(name);
        push_ascii(out, "\"");
        n.type_at = (member, value_at, out.len());
        Some(e)
    }

    /// Writes `description` or `title` (a blank description is not plain:
    /// the general path drops and reports it).
    fn text_value(
        &mut self,
        n: &mut NodeRead<'t>,
        bit: u32,
        v: usize,
        value_at: usize,
        out: &mut String,
    ) -> Option<usize> {
        let e = string_end(self.text.as_bytes(), v).ok()?;
        let blank = push_string(out, self.text.get(v..e)?, false)?;
        if blank && bit == DESCRIPTION {
            return None;
        }
        if bit == DESCRIPTION {
            n.description_at = (value_at, out.len(), v, e);
        }
        Some(e)
    }

    /// Writes an object's `additionalProperties: false`, `properties` or
    /// `required` (names each given once; `lower::required` rewrites any
    /// other list, so it is not plain).
    fn object_value(
        &mut self,
        n: &mut NodeRead<'t>,
        bit: u32,
        v: usize,
        member: usize,
        out: &mut String,
    ) -> Option<usize> {
        match bit {
            ADDITIONAL => {
                out.push_str("false");
                value_end(self.text.as_bytes(), v, 1).ok()
            }
            PROPERTIES => {
                self.path.push("properties");
                let e = self.properties(v, n.depth, out);
                self.path.pop();
                n.properties_at = (member, out.len());
                e
            }
            _ => strings(self.text, v, true, &mut self.listed, out),
        }
    }

    /// Writes a string `enum` (`lower::enum_strings` rewrites any other),
    /// a `default` of a plain value, or a bound given as an integer.
    fn scalar_value(
        &mut self,
        n: &mut NodeRead<'t>,
        bit: u32,
        v: usize,
        out: &mut String,
    ) -> Option<usize> {
        let text = self.text;
        let b = text.as_bytes();
        match bit {
            ENUM => {
                let mark = self.listed.len();
                let e = strings(text, v, false, &mut self.listed, out);
                self.listed.truncate(mark);
                e
            }
            DEFAULT => {
                let e = value_end(b, v, 1).ok()?;
                let raw = text.get(v..e)?;
                n.default = b.get(v).copied();
                match n.default {
                    Some(b'"') => {
                        push_string(out, raw, false)?;
                    }
                    Some(b't' | b'f' | b'n') => out.push_str(raw),
                    _ if plain_integer(raw.as_bytes(), false) => out.push_str(raw),
                    _ => return None,
                }
                Some(e)
            }
            _ => {
                let e = value_end(b, v, 1).ok()?;
                if !plain_integer(b.get(v..e)?, bit & NUMBER_BOUNDS == 0) {
                    return None;
                }
                out.push_str(text.get(v..e)?);
                Some(e)
            }
        }
    }

    /// Finishes a node holding `anyOf` or `oneOf` (`lower::one_of`,
    /// `lower::nullable`, `lower::any_of_siblings`): a type beside the
    /// union must be the type of each branch, and where every schema needs
    /// a type it moves into them; Gemini's `anyOf` from a `oneOf` is
    /// written after the node's own keywords; a null branch among several
    /// is reported as `nullable` before the branches.
    fn union_node(&mut self, n: NodeRead<'t>, j: usize, out: &mut String) -> Option<usize> {
        let (keyword, read, mark) = n.union?;
        if !n.types.is_empty() {
            return None;
        }
        if let Some(t) = n.ty {
            if read.same != Some(t) || read.null {
                return None;
            }
            if self.require_type {
                let (start, _, end) = n.type_at;
                remove_member(out, start, end);
                self.note_at(mark, keyword, Note::TypeMoved(keyword));
            }
        }
        if let Some(branches) = n.later {
            comma(out);
            out.push_str(&branches);
        }
        let null = read.null && read.scalar.is_none();
        if null && self.nullable_keyword {
            self.note_at(mark, "anyOf", Note::NullBranch);
        }
        self.union_end(n.seen & !TYPE, &read, n.default, n.depth, j, out)
    }

    /// Finishes a node without one type, a property's or items' value with
    /// a description and a title at most: a type array of scalars
    /// (`lower::type_array`: Gemini's `anyOf` of one type each, written by
    /// [`type_array::push_any_of`]) or an untyped value (`lower::untyped`:
    /// Gemini's "any value", [`untyped::TYPED_ANY_VALUE`], and a sentence
    /// in the description). The other dialects take both as they are.
    fn untyped(&mut self, n: NodeRead<'t>, j: usize, out: &mut String) -> Option<usize> {
        let rewrite = self.require_type && self.upper_case_types && self.nullable_keyword;
        if n.seen & !(TYPE | DESCRIPTION | TITLE) != 0
            || !n.value_slot
            || (!n.types.is_empty() && self.unions > 0)
        {
            return None;
        }
        if self.require_type && !rewrite {
            return None;
        }
        self.last_type = None;
        if !n.types.is_empty() {
            if self.nullable_keyword {
                if !rewrite {
                    return None;
                }
                comma(out);
                let names: Option<Vec<&str>> = n.types.iter().map(|t| type_name(t, true)).collect();
                type_array::push_any_of(out, &names?);
                self.note("type", Note::TypeArray(n.types.join(", ")));
            }
        } else if rewrite {
            let (a, e, v, ve) = n.description_at;
            if e > a {
                out.replace_range(a..e, &appended(self.text.get(v..ve)?, untyped::NO_OBJECTS)?);
            }
            comma(out);
            out.push_str(untyped::TYPED_ANY_VALUE);
            if e == a {
                described(out, untyped::NO_OBJECTS);
            }
            self.note("type", Note::AnyValue);
        }
        push_ascii(out, "}");
        Some(j + 1)
    }

    /// Finishes a typed node: the keywords of its type only
    /// (`lower::object_props`), an object with free keys
    /// ([`Plain::free_keys`]), an object's properties and an array's items
    /// present (`lower::array_items`), `required` naming declared
    /// properties (`lower::required`), a `default` of the type, no capped
    /// `minItems` (`lower::bounds`), Gemini's `format: "enum"`
    /// ([`enum_strings::FORMAT_ENUM`]), the root's `properties` where the
    /// dialect wants them, and the keywords dropped reported
    /// (`lower::keywords`).
    fn typed(&mut self, n: NodeRead<'t>, ty: &'t str, j: usize, out: &mut String) -> Option<usize> {
        let (seen, depth) = (n.seen, n.depth);
        let allowed = allowed_for(ty)? | ANY;
        if seen & !allowed != 0 {
            return None;
        }
        let declared = self.names.get(n.props..)?;
        if ty == "object" && depth > 0 && declared.is_empty() {
            return self.free_keys(n, ty, j, out);
        }
        // only the root may leave its properties out (or empty)
        let needs = match ty {
            "object" if depth > 0 => PROPERTIES,
            "array" => ITEMS,
            _ => 0,
        };
        if seen & needs != needs
            || self
                .listed
                .get(n.required..)?
                .iter()
                .any(|r| !declared.contains(r))
        {
            return None;
        }
        let default_fits = match (n.default, ty) {
            (None, _) => true,
            (Some(b'"'), "string") => true,
            (Some(b't' | b'f'), "boolean") => true,
            (Some(c), "number" | "integer") => c == b'-' || c.is_ascii_digit(),
            _ => false,
        };
        self.last_type = Some(ty);
        if !default_fits || (depth == 0 && ty != "object") {
            return None;
        }
        // a capped minItems is said in words
        if self.max_min_items.is_some() && seen & ITEM_COUNTS != 0 {
            return None;
        }
        if seen & ENUM != 0 && self.string_enums {
            out.push_str(enum_strings::FORMAT_ENUM);
        }
        if depth == 0 {
            self.no_parameters = declared.is_empty();
            // what `openai::with_properties` adds
            if seen & PROPERTIES == 0 && !self.upper_case_types {
                comma(out);
                out.push_str("\"properties\":{}");
            }
        }
        self.names.truncate(n.props);
        self.listed.truncate(n.required);
        for keyword in n.drops.into_iter().flatten() {
            self.note(keyword, Note::Dropped);
        }
        push_ascii(out, "}");
        Some(j + 1)
    }

    /// Finishes an object with free keys (no declared properties), a
    /// property's or items' value with a description and a title at most:
    /// where objects must declare properties (`lower::json_text_maps`), a
    /// string of JSON text, the description saying so
    /// ([`json_text_maps::AS_TEXT_SENTENCE`]); elsewhere as it is.
    fn free_keys(
        &mut self,
        n: NodeRead<'t>,
        ty: &'t str,
        j: usize,
        out: &mut String,
    ) -> Option<usize> {
        let rewrite = self.require_type && self.upper_case_types && self.nullable_keyword;
        if !n.value_slot || n.seen & !(TYPE | DESCRIPTION | TITLE | PROPERTIES) != 0 {
            return None;
        }
        self.last_type = Some(ty);
        if self.maps_as_text {
            if !rewrite || self.unions > 0 {
                return None;
            }
            // a string, without properties, the description saying so;
            // changed from the last place in `out` to the first
            let (a, e, v, ve) = n.description_at;
            let sentence = json_text_maps::AS_TEXT_SENTENCE;
            let mut edits = [
                (a, e, 0),
                (n.type_at.1, n.type_at.2, 1),
                (n.properties_at.0, n.properties_at.1, 2),
            ];
            edits.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
            for (start, end, what) in edits {
                match what {
                    0 if end > start => {
                        out.replace_range(start..end, &appended(self.text.get(v..ve)?, sentence)?)
                    }
                    1 => out.replace_range(start..end, "\"STRING\""),
                    2 if end > start => remove_member(out, start, end),
                    _ => {}
                }
            }
            if e == a {
                described(out, sentence);
            }
            self.note("type", Note::AsText);
        }
        push_ascii(out, "}");
        Some(j + 1)
    }

    /// Reports what became of `keyword` in the node being written.
    fn note(&mut self, keyword: &'static str, note: Note) {
        self.note_at(self.dropped.len(), keyword, note);
    }

    /// [`Plain::note`], placed at `index` of the report so far.
    fn note_at(&mut self, index: usize, keyword: &'static str, note: Note) {
        let mut at = String::new();
        for token in &self.path {
            pointer::push_token(&mut at, token);
        }
        pointer::push_token(&mut at, keyword);
        let index = index.min(self.dropped.len());
        self.dropped.insert(index, (at, keyword, note));
    }

    /// Reads the `anyOf` at `i`: plain branches of distinct types (or
    /// objects) are written in place, with a `{"type": "null"}` among
    /// them written last or, where the dialect says `nullable`, left for
    /// the end of the node; one scalar branch beside `{"type": "null"}`
    /// is left for [`Plain::union_end`].
    fn union(
        &mut self,
        i: usize,
        depth: usize,
        keyword: &'static str,
        out: &mut String,
    ) -> Option<UnionRead<'t>> {
        let b = self.text.as_bytes();
        if depth == 0 || !matches!(b.get(i), Some(b'[')) {
            return None;
        }
        // the branches' places, first, and the null branch's
        let mut starts = Vec::new();
        let mut null_at = None;
        let mut j = ws(b, i + 1);
        let end = loop {
            let e = value_end(b, j, rawjson::MAX_DEPTH - 8).ok()?;
            if e - j < 256 && is_null_schema(b, j) {
                if null_at.is_some() {
                    return None;
                }
                null_at = Some(starts.len());
            }
            starts.push(j);
            j = ws(b, e);
            match b.get(j) {
                Some(b',') => j = ws(b, j + 1),
                Some(b']') => break j + 1,
                _ => return None,
            }
        };
        let null = match (null_at, starts.len()) {
            (None, _) => false,
            // a scalar branch beside null, for `union_end`
            (Some(1), 2) => {
                return (keyword == "anyOf").then_some(UnionRead {
                    end,
                    scalar: starts.first().copied(),
                    same: None,
                    null: true,
                });
            }
            // among several: Gemini's `nullable`, the last branch in the
            // others (where the general path puts it)
            (Some(at), n) if n > 2 && keyword == "anyOf" && at < n => {
                starts.remove(at);
                true
            }
            _ => return None,
        };
        if starts.len() < 2 || starts.len() > INDEX.len() {
            return None;
        }
        // (an empty `out`: the branches kept for the end of the node)
        if !matches!(out.as_bytes().last(), Some(b'{') | None) {
            push_ascii(out, ",");
        }
        out.push_str(if keyword == "anyOf" || self.accepted & ONE_OF == 0 {
            "\"anyOf\":["
        } else {
            "\"oneOf\":["
        });
        let mut types: Vec<&str> = Vec::new();
        self.path.push(keyword);
        self.unions += 1;
        for (n, &start) in starts.iter().enumerate() {
            if n > 0 {
                push_ascii(out, ",");
            }
            self.path.push(INDEX.get(n)?);
            let e = self.node(start, depth + 1, out);
            self.path.pop();
            e?;
            // branches of one type are objects (told apart by their
            // properties)
            let ty = self.last_type?;
            if types.contains(&ty) && ty != "object" {
                return None;
            }
            types.push(ty);
        }
        self.unions -= 1;
        self.path.pop();
        if null && !self.nullable_keyword {
            out.push_str(",{\"type\":\"null\"}");
        }
        push_ascii(out, "]");
        let same = types.first().filter(|t| types.iter().all(|u| u == *t));
        Some(UnionRead {
            end,
            scalar: None,
            same: same.copied(),
            null,
        })
    }

    /// Finishes a node holding `anyOf`: a union written in place, or the
    /// scalar branch beside null written after the node's own keywords,
    /// with the dialect's "or null".
    fn union_end(
        &mut self,
        seen: u32,
        read: &UnionRead<'t>,
        default: Option<u8>,
        depth: usize,
        j: usize,
        out: &mut String,
    ) -> Option<usize> {
        if depth == 0 || seen & !(ANY_OF | ONE_OF | DESCRIPTION | TITLE | DEFAULT) != 0 {
            return None;
        }
        self.last_type = None;
        let null = read.null && read.scalar.is_none();
        let Some(x) = read.scalar else {
            // a default beside branches is said in each of them (a null
            // default beside a null branch stays)
            if seen & DEFAULT != 0 && !(null && default == Some(b'n')) {
                return None;
            }
            if null && self.nullable_keyword {
                out.push_str(",\"nullable\":true");
            }
            push_ascii(out, "}");
            return Some(j + 1);
        };
        let text = self.text;
        let b = text.as_bytes();
        let mut ty = None;
        let mut keys = 0u32;
        object(b, x, |key, v| {
            let bit = 1u32 << key_place(key)?;
            keys |= bit;
            let e = value_end(b, v, 1).ok()?;
            if !matches!(out.as_bytes().last(), Some(b'{')) {
                push_ascii(out, ",");
            }
            push_ascii(out, "\"");
            out.push_str(std::str::from_utf8(key).ok()?);
            out.push_str("\":");
            if bit == TYPE {
                let t = text.get(v + 1..e.checked_sub(1)?)?;
                if !matches!(b.get(v), Some(b'"')) || matches!(t, "object" | "array") {
                    return None;
                }
                let name = type_name(t, self.upper_case_types)?;
                ty = Some(t);
                if self.nullable_keyword {
                    push_ascii(out, "\"");
                    out.push_str(name);
                    push_ascii(out, "\"");
                } else {
                    out.push_str("[\"");
                    out.push_str(name);
                    out.push_str("\",\"null\"]");
                }
            } else if bit & (NUMBER_BOUNDS | LENGTHS) != 0 && self.accepted & bit != 0 {
                if !plain_integer(b.get(v..e)?, bit & NUMBER_BOUNDS == 0) {
                    return None;
                }
                out.push_str(text.get(v..e)?);
            } else if bit == ENUM && self.accepted & ENUM != 0 {
                let mark = self.listed.len();
                let read = strings(text, v, false, &mut self.listed, out);
                self.listed.truncate(mark);
                read?;
                // where a type array says "or null", so does the enum
                if !self.nullable_keyword {
                    out.pop();
                    out.push_str(",null]");
                }
            } else {
                return None;
            }
            Some(e)
        })?;
        let ty = ty?;
        // the branch's own bounds and string enum only (its type's)
        if keys & !(TYPE | (allowed_for(ty)? & (NUMBER_BOUNDS | LENGTHS | ENUM))) != 0 {
            return None;
        }
        let default_fits = match (default, ty) {
            (None | Some(b'n'), _) => true,
            (Some(b'"'), "string") => true,
            (Some(b't' | b'f'), "boolean") => true,
            (Some(c), "number" | "integer") => c == b'-' || c.is_ascii_digit(),
            _ => false,
        };
        if !default_fits {
            return None;
        }
        if keys & ENUM != 0 && self.string_enums {
            out.push_str(enum_strings::FORMAT_ENUM);
        }
        if self.nullable_keyword {
            out.push_str(",\"nullable\":true");
            self.note("anyOf", Note::NullBranch);
        }
        push_ascii(out, "}");
        Some(j + 1)
    }

    /// Writes a `properties` object of plain schemas, noting the names.
    fn properties(&mut self, i: usize, depth: usize, out: &mut String) -> Option<usize> {
        let text: &'t str = self.text;
        let b = text.as_bytes();
        if !matches!(b.get(i), Some(b'{')) {
            return None;
        }
        push_ascii(out, "{");
        let mut j = ws(b, i + 1);
        if matches!(b.get(j), Some(b'}')) {
            push_ascii(out, "}");
            return Some(j + 1);
        }
        let start = self.names.len();
        loop {
            let k = string_end(b, j).ok()?;
            let name = b.get(j + 1..k - 1)?;
            let token = text.get(j + 1..k - 1)?;
            if name.contains(&b'\\') || self.names.get(start..)?.contains(&name) {
                return None;
            }
            if self.names.len() > start {
                push_ascii(out, ",");
            }
            self.names.push(name);
            out.push_str(text.get(j..k)?);
            j = ws(b, k);
            if !matches!(b.get(j), Some(b':')) {
                return None;
            }
            push_ascii(out, ":");
            self.path.push(token);
            self.value_slot = true;
            let e = self.node(ws(b, j + 1), depth + 1, out);
            self.path.pop();
            j = ws(b, e?);
            match b.get(j) {
                Some(b',') => j = ws(b, j + 1),
                Some(b'}') => break,
                _ => return None,
            }
        }
        push_ascii(out, "}");
        Some(j + 1)
    }
}

/// What [`Plain::node`] has read of one schema node, and where it wrote
/// the parts the end of the node may change.
struct NodeRead<'t> {
    /// The keywords read, as [`KEYS`] bits.
    seen: u32,
    /// The type, when one name.
    ty: Option<&'t str>,
    /// A type array's names.
    types: Vec<&'t str>,
    /// Where the node's property names begin in [`Plain::names`], and its
    /// `required` strings in [`Plain::listed`].
    props: usize,
    required: usize,
    /// The first byte of the `default`.
    default: Option<u8>,
    /// Keywords the dialect does not take, reported once the node's
    /// children are, as the general walk does.
    drops: [Option<&'static str>; 2],
    /// Gemini's `anyOf` written from a `oneOf`, for the end of the node.
    later: Option<String>,
    /// The union: its keyword, what was read, and where its report begins.
    union: Option<(&'static str, UnionRead<'t>, usize)>,
    /// Where members were written in `out`: the type (member start, value
    /// start, end), the properties (member start, end) and the
    /// description (value start, end, and the value's place in the text).
    type_at: (usize, usize, usize),
    properties_at: (usize, usize),
    description_at: (usize, usize, usize, usize),
    /// The node is a property's value or an array's items, where an
    /// untyped value or an object with free keys may stand.
    value_slot: bool,
    depth: usize,
}

/// What [`Plain::union`] read.
struct UnionRead<'t> {
    /// Where the list ends.
    end: usize,
    /// The scalar branch beside `{"type": "null"}` (two branches), left
    /// for [`Plain::union_end`].
    scalar: Option<usize>,
    /// The one type of all the branches written.
    same: Option<&'t str>,
    /// A `{"type": "null"}` branch among three or more (or beside the
    /// scalar branch).
    null: bool,
}

/// What follows an object's member.
enum Member {
    /// Another member, starting here.
    More(usize),
    /// The closing brace, here.
    End(usize),
}

/// What follows a member that ends at `i`: a comma and another member, or
/// the end of the object; `None` for anything else.
fn next_member(b: &[u8], i: usize) -> Option<Member> {
    let j = ws(b, i);
    match b.get(j) {
        Some(b',') => Some(Member::More(ws(b, j + 1))),
        Some(b'}') => Some(Member::End(j)),
        _ => None,
    }
}

/// Appends one ASCII character given as text: at `"z"`, `String::push`
/// encodes the character in a call of its own, a cost on every key.
#[inline(always)]
fn push_ascii(out: &mut String, c: &'static str) {
    out.push_str(c);
}

/// A comma in `out` unless an object was just opened.
fn comma(out: &mut String) {
    if !matches!(out.as_bytes().last(), Some(b'{')) {
        push_ascii(out, ",");
    }
}

/// Removes the member written at `start..end` of `out` (from its comma,
/// or, for the first member, with the comma after it).
fn remove_member(out: &mut String, start: usize, end: usize) {
    let b = out.as_bytes();
    let end = match (b.get(start), b.get(end)) {
        (Some(b','), _) | (_, Some(b'}')) => end,
        (_, Some(b',')) => end + 1,
        _ => end,
    };
    out.replace_range(start..end, "");
}

/// A string written in the text (quotes included), read.
fn read_string(raw: &str) -> Option<std::borrow::Cow<'_, str>> {
    let inner = raw.get(1..raw.len().checked_sub(1)?)?;
    Some(if inner.contains('\\') {
        std::borrow::Cow::Owned(serde_json::from_str(raw).ok()?)
    } else {
        std::borrow::Cow::Borrowed(inner)
    })
}

/// The description written `raw` in the text with `sentence` appended, as
/// the general path's notes are, written as JSON.
fn appended(raw: &str, sentence: &str) -> Option<String> {
    let mut out = String::new();
    rawjson::push_str(
        &mut out,
        &words::append(Some(&read_string(raw)?), &[sentence.into()]),
    );
    Some(out)
}

/// A description holding `sentence` alone, after the node's members.
fn described(out: &mut String, sentence: &str) {
    comma(out);
    out.push_str("\"description\":");
    rawjson::push_str(out, sentence);
}

/// Reads a type array at `i` onto `types`: two or more of the scalar
/// types, each once. Returns where it ends.
fn type_list<'t>(text: &'t str, i: usize, types: &mut Vec<&'t str>) -> Option<usize> {
    let b = text.as_bytes();
    let mut j = ws(b, i + 1);
    loop {
        let e = string_end(b, j).ok()?;
        let t = text.get(j + 1..e - 1)?;
        if !matches!(t, "string" | "number" | "integer" | "boolean") || types.contains(&t) {
            return None;
        }
        types.push(t);
        j = ws(b, e);
        match b.get(j) {
            Some(b',') => j = ws(b, j + 1),
            Some(b']') if types.len() > 1 => return Some(j + 1),
            _ => return None,
        }
    }
}

/// Whether the value at `i` is exactly `{"type": "null"}`.
fn is_null_schema(b: &[u8], i: usize) -> bool {
    let mut only_null = true;
    let mut keys = 0;
    let read = object(b, i, |key, v| {
        keys += 1;
        let e = value_end(b, v, 1).ok()?;
        only_null &= key == b"type" && b.get(v..e) == Some(b"\"null\"".as_slice());
        Some(e)
    });
    read.is_some() && keys == 1 && only_null
}

/// Writes a non-empty array of strings, each given once, noting them;
/// `names`: written without escapes. Returns where it ends.
fn strings<'t>(
    text: &'t str,
    i: usize,
    names_only: bool,
    seen: &mut Vec<&'t [u8]>,
    out: &mut String,
) -> Option<usize> {
    let b = text.as_bytes();
    if !matches!(b.get(i), Some(b'[')) {
        return None;
    }
    push_ascii(out, "[");
    let start = seen.len();
    let mut j = ws(b, i + 1);
    loop {
        let e = string_end(b, j).ok()?;
        let raw = b.get(j + 1..e - 1)?;
        if seen.get(start..)?.contains(&raw) || (names_only && raw.contains(&b'\\')) {
            return None;
        }
        if seen.len() > start {
            push_ascii(out, ",");
        }
        seen.push(raw);
        push_string(out, text.get(j..e)?, false)?;
        j = ws(b, e);
        match b.get(j) {
            Some(b',') => j = ws(b, j + 1),
            Some(b']') => break,
            _ => return None,
        }
    }
    push_ascii(out, "]");
    Some(j + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tools of `text` whose schemas this path writes, for `dialect`.
    fn plain_tools(text: &str, dialect: Dialect) -> Vec<String> {
        let mut plain = Plain::new(text, dialect);
        let mut schemas = String::new();
        let (_, found) = read(text, &mut plain, &mut schemas).expect("read");
        found
            .iter()
            .filter(|t| t.schema.is_some())
            .map(|t| t.name.to_string())
            .collect()
    }

    #[test]
    fn plain_schemas_are_written_here() {
        let text = r##"{"tools":[
            {"name":"a","description":"A.","inputSchema":{"type":"object","properties":{"x":{"type":"string","enum":["p","q"]},"n":{"type":"integer","minimum":1}},"required":["x"]}},
            {"name":"b","description":"B.","inputSchema":{"type":"object","properties":{},"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}},
            {"name":"c","description":"C.","inputSchema":{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"type":"null"}],"default":null}}}},
            {"name":"d","description":"D.","inputSchema":{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}},
            {"name":"e","description":"E.","inputSchema":{"type":"object","properties":{"x":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}},
            {"name":"f","description":"F.","inputSchema":{"type":"object","properties":{"x":{"$ref":"#/$defs/y"}},"$defs":{"y":{"type":"string"}}}},
            {"name":"g","description":"G.","inputSchema":{"type":"object","properties":{"x":{"type":["string","null"]}}}},
            {"name":"h","description":"H.","inputSchema":{"type":"object","properties":{"x":{"description":"Any value."},"y":{"type":"array","items":{}}}}},
            {"name":"i","description":"I.","inputSchema":{"type":"object","properties":{"x":{"type":["string","number"],"title":"X"}}}},
            {"name":"j","description":"J.","inputSchema":{"type":"object","properties":{"x":{"type":"object","properties":{},"description":"Free."},"y":{"type":"object"}}}},
            {"name":"k","description":"K.","inputSchema":{"type":"object","properties":{"x":{"oneOf":[{"type":"object","properties":{"a":{"type":"string"},"v":{}}},{"type":"object","properties":{"b":{"type":"string"}}}],"type":"object"}}}},
            {"name":"l","description":"L.","inputSchema":{"type":"object","properties":{"x":{"anyOf":[{"enum":["p","q"],"type":"string"},{"type":"null"}],"default":null},"y":{"anyOf":[{"type":"string"},{"items":{"type":"string"},"type":"array"},{"type":"null"}],"default":null}}}}
        ]}"##;
        for dialect in [Dialect::Gemini, Dialect::OpenAi, Dialect::Anthropic] {
            assert_eq!(
                plain_tools(text, dialect),
                ["a", "b", "c", "d", "e", "h", "i", "j", "k", "l"],
                "{dialect}"
            );
        }
    }

    /// Every lowering rule (a file of `src/lower` whose manual begins
    /// "Rule:") says what this path does with the shapes it rewrites, and
    /// its examples hold: a schema `written` here comes out as the general
    /// path writes it, in every dialect this path serves; a `refused` one
    /// is left to the general path in each.
    #[test]
    fn every_lowering_rule_has_a_fast_path_entry() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/lower");
        let mut rules = Vec::new();
        for entry in std::fs::read_dir(dir).expect("src/lower") {
            let path = entry.expect("an entry").path();
            let text = std::fs::read_to_string(&path).expect("a rule file");
            if text.starts_with("//! Rule:") {
                let stem = path.file_stem().and_then(|s| s.to_str()).expect("a name");
                rules.push(stem.to_string());
            }
        }
        assert!(rules.len() >= 20, "{rules:?}");
        let listed = crate::lower::FAST_PATHS;
        for rule in &rules {
            assert!(
                listed.iter().any(|(name, _)| name == rule),
                "src/lower/{rule}.rs is a lowering rule without a fast-path entry: \
                 declare its FAST_PATH (written here or refused) and list it in \
                 lower::FAST_PATHS"
            );
        }
        for (name, fast) in listed {
            assert!(rules.iter().any(|r| r == name), "{name} is not a rule file");
            assert!(
                !(fast.written.is_empty() && fast.refused.is_empty()),
                "{name}: no example"
            );
            let options = Options::strict(fast.strict);
            let examples = fast.written.iter().map(|e| (e, true));
            for (schema, written) in examples.chain(fast.refused.iter().map(|e| (e, false))) {
                let text = format!(
                    r#"{{"tools":[{{"name":"t","description":"T.","inputSchema":{schema}}}]}}"#
                );
                let catalog = crate::Catalog::parse(text.as_bytes()).expect("an example catalog");
                for dialect in [
                    Dialect::Gemini,
                    Dialect::OpenAi,
                    Dialect::OpenAiResponses,
                    Dialect::Anthropic,
                ] {
                    let fast_out = convert(&text, dialect, &options);
                    let here = fast_out.is_some() && plain_tools(&text, dialect) == ["t"];
                    assert_eq!(here, written, "{name} {dialect}: {schema}");
                    if let Some(out) = fast_out {
                        let general = super::super::convert_json(&catalog, dialect, &options);
                        assert_eq!(out, general, "{name} {dialect}: {schema}");
                    }
                }
            }
        }
    }

    /// On a real catalog, the tools with plain schemas (nearly all of
    /// them) are written here in every dialect this path serves.
    #[test]
    fn real_catalogs_are_mostly_written_here() {
        let file = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/corpus/github-mcp-server.tools-list.json"
        );
        let text = std::fs::read_to_string(file).expect("the corpus beside the repository");
        for dialect in [
            Dialect::Gemini,
            Dialect::OpenAi,
            Dialect::OpenAiResponses,
            Dialect::Anthropic,
        ] {
            let plain = plain_tools(&text, dialect);
            let n = plain.len();
            assert!(n * 10 >= 114 * 9, "{dialect}: {n} of 114 tools");
            // a union of objects with a type beside it and an untyped
            // value, a type array, an object with free keys
            for name in ["projects_write", "issue_write", "actions_run_trigger"] {
                assert!(plain.iter().any(|p| p == name), "{dialect}: {name}");
            }
        }
    }
}
