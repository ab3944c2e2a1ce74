//! Rule: the keyword allowlist, applied last. Whatever the dialect does not
//! accept and no earlier rule rewrote or described is dropped and reported.
//! Nullability and the collected sentences are rendered here too.

use serde_json::{Map, Value};

use super::{nullable, words, At, Cx, Node, Nulls};
use crate::report::Action;

/// Every JSON Schema 2020-12 keyword (plus draft-07's `definitions`), for
/// dialects that accept JSON Schema as it is.
#[cfg(test)]
pub(crate) const JSON_SCHEMA: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "definitions",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$comment",
    "type",
    "enum",
    "const",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "items",
    "prefixItems",
    "contains",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "required",
    "maxProperties",
    "minProperties",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedItems",
    "unevaluatedProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
];

/// The JSON Schema core that every JSON-Schema-speaking model API accepts
/// and models read well: no composition beyond `anyOf`, no conditionals.
pub(crate) const PORTABLE: &[&str] = &[
    "$ref",
    "$defs",
    "definitions",
    "type",
    "enum",
    "const",
    "title",
    "description",
    "default",
    "format",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "additionalProperties",
    "required",
    "minProperties",
    "maxProperties",
    "anyOf",
    "multipleOf",
    "examples",
];

/// [`PORTABLE`] without `const`.
#[cfg(test)]
pub(crate) fn portable_no_const() -> &'static [&'static str] {
    let list: Vec<&'static str> = PORTABLE.iter().copied().filter(|k| *k != "const").collect();
    Box::leak(list.into_boxed_slice())
}

/// Every keyword a dialect may accept, by length: the JSON Schema keywords,
/// draft-04's `additionalItems` and OpenAPI's `nullable`,
/// `propertyOrdering`, `example`. A keyword's place here is its bit in
/// allow masks and in [`super::Obj`]'s presence mask.
const KNOWN: &[&str] = &[
    "if",
    "$id",
    "not",
    "$ref",
    "type",
    "enum",
    "then",
    "else",
    "$defs",
    "const",
    "title",
    "items",
    "allOf",
    "anyOf",
    "oneOf",
    "format",
    "$schema",
    "$anchor",
    "default",
    "maximum",
    "minimum",
    "pattern",
    "example",
    "$comment",
    "examples",
    "readOnly",
    "contains",
    "maxItems",
    "minItems",
    "required",
    "nullable",
    "writeOnly",
    "maxLength",
    "minLength",
    "deprecated",
    "multipleOf",
    "properties",
    "definitions",
    "$dynamicRef",
    "description",
    "prefixItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "contentSchema",
    "propertyNames",
    "maxProperties",
    "minProperties",
    "$dynamicAnchor",
    "contentEncoding",
    "additionalItems",
    "contentMediaType",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "dependentSchemas",
    "unevaluatedItems",
    "propertyOrdering",
    "patternProperties",
    "dependentRequired",
    "additionalProperties",
    "unevaluatedProperties",
];

/// Longest name in [`KNOWN`].
const LONGEST: usize = 21;

/// `STARTS[n]..STARTS[n + 1]` are the places of the names of length `n`
/// (worked out while compiling; the build fails if `KNOWN` is not sorted by
/// length).
const STARTS: [u8; LONGEST + 2] = starts();

const fn starts() -> [u8; LONGEST + 2] {
    let mut out = [0u8; LONGEST + 2];
    let mut i = 0;
    while i < KNOWN.len() {
        let n = KNOWN[i].len();
        assert!(n <= LONGEST && (i == 0 || KNOWN[i - 1].len() <= n));
        i += 1;
        // every length after `n` starts after this name
        let mut m = n + 1;
        while m < LONGEST + 2 {
            out[m] = i as u8;
            m += 1;
        }
    }
    out
}

/// The bit of a [`KNOWN`] keyword, [`UNKNOWN`] for any other key: a look
/// at the few names of the same length.
pub(crate) fn bit(key: &str) -> u8 {
    let k = key.as_bytes();
    let (Some(&from), Some(&to)) = (STARTS.get(k.len()), STARTS.get(k.len() + 1)) else {
        return UNKNOWN;
    };
    for i in from..to {
        if let Some(name) = KNOWN.get(usize::from(i)) {
            let n = name.as_bytes();
            if n.first() == k.first() && n.last() == k.last() && n == k {
                return i;
            }
        }
    }
    UNKNOWN
}

/// The bit of a key outside [`KNOWN`].
pub(crate) const UNKNOWN: u8 = u8::MAX;

/// `bit` as a one-bit mask (none for [`UNKNOWN`]).
pub(crate) fn mask(bit: u8) -> u64 {
    1u64.checked_shl(u32::from(bit)).unwrap_or(0)
}

/// A keyword known while compiling, as its bit (`kw!("type")`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kw(pub u8);

impl Kw {
    /// Looks `name` up in [`KNOWN`]; only used in constants (`kw!`), where
    /// a name missing from the list stops the build.
    pub(crate) const fn new(name: &'static str) -> Kw {
        let mut i = 0;
        while i < KNOWN.len() {
            if same(KNOWN[i], name) {
                return Kw(i as u8);
            }
            i += 1;
        }
        panic!("not a known keyword")
    }

    /// The keyword as a mask, to test several at once
    /// ([`super::Obj::contains_any`]).
    pub(crate) const fn mask(self) -> u64 {
        1 << self.0
    }

    /// The keyword's name.
    pub(crate) fn name(self) -> &'static str {
        KNOWN.get(usize::from(self.0)).copied().unwrap_or_default()
    }
}

impl std::fmt::Display for Kw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// An allow list as a mask over [`bit`], plus whether it names keywords
/// outside [`KNOWN`] (then those are looked up in the list).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Allowed {
    mask: u64,
    others: bool,
}

impl Allowed {
    pub(crate) fn new(keywords: &[&str]) -> Allowed {
        let mut allowed = Allowed {
            mask: 0,
            others: false,
        };
        for k in keywords {
            match bit(k) {
                UNKNOWN => allowed.others = true,
                b => allowed.mask |= mask(b),
            }
        }
        allowed
    }

    /// Whether a known keyword is in the list.
    pub(crate) fn has(self, keyword: Kw) -> bool {
        self.mask & keyword.mask() != 0
    }

    /// Whether `key` (whose [`bit`] is `bit`) is in `keywords`, the list
    /// this was made from.
    pub(crate) fn contains(self, keywords: &[&str], bit: u8, key: &str) -> bool {
        match bit {
            UNKNOWN => self.others && keywords.contains(&key),
            b => self.mask & mask(b) != 0,
        }
    }
}

pub(super) fn reason(key: &str) -> String {
    match key {
        "$schema" => "the dialect takes no $schema".into(),
        "$id" | "$anchor" | "$dynamicAnchor" | "$comment" => {
            format!("{key} means nothing to the model")
        }
        "if" | "then" | "else" => {
            "conditional schemas (if/then/else) are not supported here".into()
        }
        "readOnly" | "writeOnly" => format!("{key} does not apply to tool arguments"),
        "additionalProperties" => {
            "the dialect cannot close an object; the model is shown only the declared properties"
                .into()
        }
        "uniqueItems" => "uniqueItems: false has no effect".into(),
        "nullable" => "nullable is OpenAPI, not JSON Schema".into(),
        _ => format!("{key} is not supported by this dialect"),
    }
}

/// Finishes a node: drops what the dialect does not accept, renders the
/// nullability and the sentences, and returns the node as JSON.
pub(super) fn finish(cx: &mut Cx<'_>, node: Node<'_>, at: &At<'_>) -> Map<String, Value> {
    let Node {
        map: mut obj,
        nullable,
        notes,
        ..
    } = node;
    obj.retain(|bit, key, _| {
        let keep = cx.allows_key(bit, key);
        if !keep {
            cx.note(at, key, Action::Dropped, reason(key));
        }
        keep
    });
    if let Some(Value::String(d)) = obj.get(kw!("description")) {
        if d.trim().is_empty() {
            obj.shift_remove(kw!("description"));
            cx.note(
                at,
                "description",
                Action::Dropped,
                "the description is empty",
            );
        }
    }
    if nullable {
        match cx.target.nulls {
            Nulls::Nullable => obj.insert(kw!("nullable"), Value::Bool(true)),
            Nulls::TypeArray => {
                // rewrites several keywords: done on the map, read back
                let mut map = obj.into_map();
                nullable::render(&mut map, Nulls::TypeArray);
                obj = super::Obj::owned(map);
            }
        }
    }
    // finished by keyword bit before the map is built
    if !notes.is_empty() {
        let text = words::append(obj.get(kw!("description")).and_then(Value::as_str), &notes);
        obj.insert(kw!("description"), Value::String(text));
    }
    if cx.target.upper_case_types {
        if let Some(Value::String(t)) = obj.get_mut(kw!("type")) {
            t.make_ascii_uppercase();
        }
    }
    obj.into_map()
}

/// On the conversion's fast path (`dialect::fast`): the plain keywords the dialect takes are written; `additionalProperties: false` and the root's `$schema` are dropped and reported as here where it does not take them (`Plain::set_aside`); any other keyword is refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[
        r#"{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}"#,
    ],
    refused: &[r#"{"type":"object","properties":{"x":{"type":"string","examples":["a"]}}}"#],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::Target;
    use serde_json::json;

    #[test]
    fn unknown_keywords_are_dropped_and_reported() {
        let t = Target {
            keywords: &["type", "properties", "description"],
            ..permissive()
        };
        let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {
            "x": {"type": "string", "if": {"minLength": 1}, "then": {}, "x-vendor": 1, "description": " "}
        }});
        let (out, report) = run(&t, schema);
        assert_eq!(
            out,
            json!({"type": "object", "properties": {"x": {"type": "string"}}})
        );
        let kws: Vec<&str> = report
            .iter()
            .map(|(p, _)| p.rsplit('/').next().unwrap())
            .collect();
        assert_eq!(
            kws,
            vec!["if", "then", "x-vendor", "description", "$schema"]
        );
    }

    #[test]
    fn bit_finds_every_keyword() {
        for (i, k) in super::KNOWN.iter().enumerate() {
            assert_eq!(super::bit(k), i as u8, "{k}");
            assert_eq!(super::Kw::new(k).0, i as u8, "{k}");
            assert_eq!(super::Kw::new(k).name(), *k);
        }
        assert!(super::KNOWN.len() <= 64);
        for k in [
            "",
            "x",
            "typo",
            "x-vendor",
            "$refs",
            "nullable ",
            "propertyordering",
        ] {
            assert_eq!(super::bit(k), super::UNKNOWN, "{k}");
        }
        assert_eq!(super::mask(super::UNKNOWN), 0);
        let list = ["type", "x-vendor", "nullable"];
        let allowed = super::Allowed::new(&list);
        for k in super::KNOWN.iter().chain(&["x-vendor", "x-other"]) {
            assert_eq!(
                allowed.contains(&list, super::bit(k), k),
                list.contains(k),
                "{k}"
            );
        }
    }
}
