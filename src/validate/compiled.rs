//! A catalog's input schemas read once for many validations: each tool's
//! evaluator keeps what it learnt of its schema (`$id`s and anchors,
//! resolved references, compiled patterns, long enums' tables) from one
//! call to the next.

use serde_json::Value;

use super::eval::Evaluator;
use super::{coerce_and_validate, Validation};
use crate::catalog::Catalog;

self_cell::self_cell!(
    /// One input schema and its evaluator, which borrows it.
    struct Compiled {
        owner: Value,
        #[covariant]
        dependent: Evaluator,
    }
);

/// Validation against the tools of one catalog, each tool's input schema
/// read once (its `$id`s, anchors and references, the patterns compiled
/// and the long enums hashed on first use) instead of on every call, as a
/// compiled validator does.
///
/// ```
/// use mcp_switchboard::{Catalog, Validator};
/// use serde_json::json;
///
/// let catalog = Catalog::parse(br#"[{"name": "dim", "inputSchema": {"type": "object",
///     "properties": {"level": {"type": "integer", "maximum": 100}}}}]"#)?;
/// let mut validator = Validator::new(catalog);
/// let v = validator.validate("dim", json!({"level": "80"})).unwrap();
/// assert!(v.is_valid());
/// assert_eq!(v.arguments, json!({"level": 80}));
/// assert!(validator.validate("nope", json!({})).is_none());
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
pub struct Validator {
    tools: foldhash::HashMap<String, Compiled>,
}

impl Validator {
    /// Takes the input schemas of every tool of `catalog`.
    pub fn new(catalog: Catalog) -> Validator {
        let mut tools =
            foldhash::HashMap::with_capacity_and_hasher(catalog.len(), Default::default());
        for tool in catalog.into_tools() {
            let (name, schema) = tool.into_name_and_input_schema();
            tools.insert(name, Compiled::new(schema, |s| Evaluator::new(s)));
        }
        Validator { tools }
    }

    /// Whether the catalog has a tool by this name.
    pub fn contains(&self, tool: &str) -> bool {
        self.tools.contains_key(tool)
    }

    /// Coerces and validates `arguments` for the tool `tool`, exactly as
    /// [`validate_arguments`](crate::validate_arguments) with that tool's
    /// input schema does; `None` when the catalog has no such tool.
    #[must_use]
    pub fn validate(&mut self, tool: &str, arguments: Value) -> Option<Validation> {
        let compiled = self.tools.get_mut(tool)?;
        Some(compiled.with_dependent_mut(|_, ev| coerce_and_validate(ev, arguments)))
    }

    /// Whether the JSON text `arguments` is known valid for `tool` as it
    /// is, with nothing to coerce, read without building a value: when
    /// `true`, [`validate`](Self::validate) would answer valid, with no
    /// coercions and the arguments unchanged. `false` means "not known":
    /// an unknown tool, invalid arguments, or arguments or a schema beyond
    /// the quick check (a keyword other than `type`, `enum` of strings,
    /// `properties`, `required`, `additionalProperties` as a boolean and
    /// `items` as one schema; an object schema with more than 64 declared
    /// or required members; a number with a fraction or an exponent; a
    /// string with an escape); [`validate`](Self::validate) then answers.
    /// Either way the time is linear in the members, items and enum
    /// values.
    ///
    /// ```
    /// use mcp_switchboard::{Catalog, Validator};
    ///
    /// let catalog = Catalog::parse(br#"[{"name": "set", "inputSchema": {"type": "object",
    ///     "properties": {"state": {"enum": ["on", "off"]}, "level": {"type": "integer"}},
    ///     "required": ["state"]}}]"#)?;
    /// let mut validator = Validator::new(catalog);
    /// assert!(validator.valid_as_is("set", r#"{"state":"on","level":80}"#));
    /// assert!(!validator.valid_as_is("set", r#"{"state":"dim"}"#)); // invalid
    /// assert!(!validator.valid_as_is("set", r#"{"state":"on","level":"80"}"#)); // to coerce
    /// assert!(!validator.valid_as_is("set", r#"{"state":"on","level":80.0}"#)); // to coerce
    /// # Ok::<(), mcp_switchboard::Error>(())
    /// ```
    #[must_use]
    pub fn valid_as_is(&mut self, tool: &str, arguments: &str) -> bool {
        self.tools
            .get_mut(tool)
            .is_some_and(|c| c.with_dependent_mut(|_, ev| ev.valid_as_is(arguments)))
    }

    /// The quick check of [`valid_as_is`](Self::valid_as_is) that also
    /// reads numbers and booleans sent as strings, and words where they
    /// or other words are wanted: the edits of the text that give the
    /// arguments [`validate`](Self::validate) would give, with exactly its
    /// coercions and errors; `None` means "not known".
    #[cfg_attr(any(not(feature = "js"), feature = "web-module"), allow(dead_code))]
    pub(crate) fn quick(&mut self, tool: &str, arguments: &str) -> Option<super::fast::Quick> {
        self.tools
            .get_mut(tool)?
            .with_dependent_mut(|_, ev| ev.quick(arguments))
    }
}

/// Input schemas compiled on first use, by tool name, for a catalog that
/// may change (an engine's): [`SchemaCache::clear`] forgets them all. Each
/// answer is exactly [`validate_arguments`](crate::validate_arguments)'s
/// with the schema given.
#[derive(Default)]
pub(crate) struct SchemaCache {
    tools: foldhash::HashMap<String, Compiled>,
}

impl Clone for SchemaCache {
    /// A cache: a copy starts empty and fills again.
    fn clone(&self) -> Self {
        SchemaCache::default()
    }
}

impl SchemaCache {
    /// Coerces and validates `arguments` for `tool`, whose input schema is
    /// `schema` (read the first time, remembered until [`clear`](Self::clear)).
    pub(crate) fn validate(&mut self, tool: &str, schema: &Value, arguments: &Value) -> Validation {
        // the name is copied once, when the tool is first called
        if !self.tools.contains_key(tool) {
            let compiled = Compiled::new(super::value::deep_clone(schema), |s| Evaluator::new(s));
            self.tools.insert(tool.to_string(), compiled);
        }
        match self.tools.get_mut(tool) {
            Some(compiled) => compiled.with_dependent_mut(|_, ev| {
                coerce_and_validate(ev, super::value::deep_clone(arguments))
            }),
            None => super::validate_arguments(schema, arguments),
        }
    }

    /// Forgets every schema (the catalog changed).
    pub(crate) fn clear(&mut self) {
        self.tools.clear();
    }
}

impl std::fmt::Debug for Validator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Validator")
            .field("tools", &self.tools.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate_arguments;
    use serde_json::json;

    /// Every call gives what the one-shot function gives, also when the
    /// same evaluator has served earlier calls (its caches filled).
    #[test]
    fn same_as_one_shot_validation_call_after_call() {
        let schema = json!({"type": "object",
            "$defs": {"level": {"type": "integer", "minimum": 0, "maximum": 100}},
            "properties": {
                "level": {"$ref": "#/$defs/level"},
                "name": {"type": "string", "pattern": "^[a-z]+$"},
                "mode": {"enum": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]},
                "tags": {"type": "array", "items": {"type": "string"}}},
            "required": ["level"], "additionalProperties": false});
        let catalog = Catalog::parse(
            json!([{"name": "t", "inputSchema": schema}])
                .to_string()
                .as_bytes(),
        )
        .unwrap();
        let mut validator = Validator::new(catalog);
        let calls = [
            json!({"level": 5, "name": "abc", "mode": "c", "tags": ["x"]}),
            json!({"level": "50", "name": "ABC", "mode": "z", "tags": "x"}),
            json!({"level": 500, "extra": true}),
            json!({"level": 80.0}),
            json!("{\"level\": 1}"),
            json!([1]),
            json!({"level": null, "name": 3}),
            json!({"level": 5, "name": "abc", "mode": "c", "tags": ["x"]}),
        ];
        for round in 0..2 {
            for args in &calls {
                let want = validate_arguments(&schema, args);
                let got = validator.validate("t", args.clone()).unwrap();
                assert_eq!(got, want, "round {round}: {args}");
                assert_eq!(got.message(), want.message());
            }
        }
        assert!(validator.contains("t"));
        assert!(!validator.contains("u"));
        // the engine's cache answers the same, and reads a schema anew
        // after clear(); a copy of it starts empty
        let mut cache = SchemaCache::default();
        for round in 0..2 {
            for args in &calls {
                let want = validate_arguments(&schema, args);
                assert_eq!(
                    cache.validate("t", &schema, args),
                    want,
                    "round {round}: {args}"
                );
            }
        }
        assert_eq!(cache.clone().tools.len(), 0);
        cache.clear();
        let other = json!({"type": "object", "properties": {"level": {"type": "string"}}});
        for args in &calls {
            assert_eq!(
                cache.validate("t", &other, args),
                validate_arguments(&other, args),
                "{args}"
            );
        }
    }
}
