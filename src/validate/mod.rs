//! Tool-call arguments against the tool's JSON Schema (2020-12).
//!
//! [`validate`] is plain validation: every problem, each with the JSON
//! Pointer of the value, the keyword and a message that says what to send
//! instead. [`validate_arguments`] first coerces what models commonly get
//! wrong (numbers and booleans sent as strings, enum values stringified by
//! Gemini, `null` for an absent optional property from OpenAI strict mode,
//! a single value where an array is wanted, JSON sent as a string), records
//! every change, and then validates.
//!
//! Only the schema itself is searched for `$ref` targets: nothing is
//! fetched. Bad input never panics: recursion is bounded, `$ref` loops end,
//! the total work has a budget, and a `pattern` that cannot be compiled is
//! skipped (it is the schema's fault, not the caller's).

use foldhash::{HashSet, HashSetExt};

use serde::Serialize;
use serde_json::Value;

mod coerce;
mod compiled;
mod eval;
mod fast;
mod format;
mod keywords;
mod refs;
mod regex;
mod value;
mod words;

use coerce::Coercer;
pub(crate) use compiled::SchemaCache;
pub use compiled::Validator;
use eval::Evaluator;
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use fast::validation as quick_validation;
#[cfg(all(feature = "js", not(feature = "web-module")))]
pub(crate) use fast::{splice, Quick};

/// One problem with call arguments, for people and models.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ArgumentError {
    /// JSON Pointer into the arguments; `""` is the whole object.
    pub pointer: String,
    /// The JSON Schema keyword that failed (`"type"`, `"required"`, ...), or
    /// `"limit"` / `"depth"` when the arguments could not be checked fully.
    pub keyword: String,
    /// What is wrong and what to send instead.
    pub message: String,
}

/// One change made by coercion.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Coercion {
    /// JSON Pointer of the changed value in the arguments.
    pub pointer: String,
    /// The value as sent.
    pub from: Value,
    /// The value now; `None` when the member was removed.
    pub to: Option<Value>,
    /// Why, in a few words.
    pub reason: String,
}

/// Result of [`validate_arguments`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Validation {
    /// The arguments after coercion.
    pub arguments: Value,
    /// Every change coercion made, in order.
    pub coercions: Vec<Coercion>,
    /// Every problem left after coercion.
    pub errors: Vec<ArgumentError>,
}

/// Problems listed by [`Validation::message`] before the rest is counted.
const MESSAGE_ERRORS: usize = 20;

impl Validation {
    /// Whether the (coerced) arguments are valid.
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// Every error in one text a model can act on, e.g. `/brightness: must
    /// be an integer from 0 to 100; got 150. /name: required (a string).`
    /// The whole object is written `/`. Empty when valid.
    pub fn message(&self) -> String {
        let mut out = String::new();
        message_pieces(&self.errors, &mut |piece| out.push_str(piece));
        out
    }
}

/// A line of [`Validation::message`] for an error: where, and the
/// message without its own full stops (the line is "{at}: {message}.").
fn line(e: &ArgumentError) -> (&str, &str) {
    let at = if e.pointer.is_empty() {
        "/"
    } else {
        e.pointer.as_str()
    };
    (at, e.message.trim_end_matches('.'))
}

/// Whether two lines read the same: where and what, unless a `:` in a
/// pointer could make different ones read alike.
fn same_line(a: (&str, &str), b: (&str, &str)) -> bool {
    if a.0.contains(':') || b.0.contains(':') {
        format!("{}: {}", a.0, a.1) == format!("{}: {}", b.0, b.1)
    } else {
        a == b
    }
}

/// Errors whose duplicates [`message_pieces`] finds by comparing with
/// every earlier one; more are remembered in a set.
const FEW_ERRORS: usize = 16;

/// The text of [`Validation::message`] for `errors`, handed to `piece` in
/// pieces (nothing formatted twice, no line built for the few errors most
/// calls have).
pub(crate) fn message_pieces(errors: &[ArgumentError], piece: &mut dyn FnMut(&str)) {
    let mut seen = HashSet::new();
    let mut lines = 0usize;
    for (i, e) in errors.iter().enumerate() {
        let l = line(e);
        // a line said before is not said again
        let repeated = if errors.len() <= FEW_ERRORS {
            errors.iter().take(i).any(|p| same_line(line(p), l))
        } else {
            !seen.insert(format!("{}: {}", l.0, l.1))
        };
        if repeated {
            continue;
        }
        lines += 1;
        if lines > MESSAGE_ERRORS {
            continue;
        }
        if lines > 1 {
            piece(" ");
        }
        piece(l.0);
        piece(": ");
        piece(l.1);
        piece(".");
    }
    let more = lines.saturating_sub(MESSAGE_ERRORS);
    if more > 0 {
        piece(&format!(" … and {more} more problem(s)."));
    }
}

/// Coerces what models commonly get wrong, then validates against
/// `schema` (the tool's ORIGINAL MCP `inputSchema`).
///
/// Coercions, each only where the schema asks for it and only on a value
/// that does not already validate: `"21"` → `21` and `"21.5"` → `21.5`
/// where a number is wanted; `"true"` / `"FALSE"` → booleans; `"2"` → `2`
/// and `"true"` → `true` where the `enum` declares those values (Gemini
/// sends enum values as strings); `null` for an optional property whose
/// schema does not allow `null` → the property is removed (OpenAI strict
/// mode sends `null` for "absent"); a single value → a one-item array; a
/// string holding a JSON object or array → parsed. Besides, `80.0` → `80`
/// wherever the schema wants an integer, valid or not. Arguments that are
/// not an object are an error; only a string holding a JSON object is
/// parsed first.
///
/// ```
/// use mcp_switchboard::validate_arguments;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "brightness": {"type": "integer", "minimum": 0, "maximum": 100},
///     "state": {"enum": ["on", "off"]}}, "required": ["state"]});
/// let v = validate_arguments(&schema, &json!({"brightness": "80", "state": "on"}));
/// assert!(v.is_valid());
/// assert_eq!(v.arguments, json!({"brightness": 80, "state": "on"}));
/// assert_eq!(v.coercions[0].pointer, "/brightness");
///
/// let v = validate_arguments(&schema, &json!({"brightness": 150}));
/// assert_eq!(v.message(), "/brightness: must be an integer from 0 to 100; got 150. \
///     /state: required (one of \"on\", \"off\").");
/// ```
pub fn validate_arguments(schema: &Value, arguments: &Value) -> Validation {
    coerce_and_validate(&mut Evaluator::new(schema), value::deep_clone(arguments))
}

/// [`validate_arguments`] with an evaluator that may have seen the schema
/// before (its references, patterns and long enums already read), on
/// arguments the caller gives away.
pub(crate) fn coerce_and_validate(ev: &mut Evaluator<'_>, mut args: Value) -> Validation {
    let mut coercions = Vec::new();
    if let Value::String(text) = &args {
        let trimmed = text.trim();
        if trimmed.starts_with('{') {
            if let Ok(parsed @ Value::Object(_)) = serde_json::from_str::<Value>(trimmed) {
                coercions.push(Coercion {
                    pointer: String::new(),
                    from: std::mem::replace(&mut args, Value::Null),
                    to: Some(value::deep_clone(&parsed)),
                    reason: "a string holding a JSON object; the arguments are an object".into(),
                });
                args = parsed;
            }
        }
    }
    if !args.is_object() {
        let errors = vec![ArgumentError {
            pointer: String::new(),
            keyword: "type".into(),
            message: format!(
                "the arguments must be a JSON object of named values; got {}",
                value::short(&args)
            ),
        }];
        return Validation {
            arguments: args,
            coercions,
            errors,
        };
    }
    ev.reset_budget(&args);
    let mut coercer = Coercer::new(ev);
    let untouched = coercer.run(&mut args);
    coercions.append(&mut coercer.out);
    // valid as sent and nothing changed: the quick pass already said so
    let errors = if untouched {
        Vec::new()
    } else {
        ev.validate(&args)
    };
    Validation {
        arguments: args,
        coercions,
        errors,
    }
}

/// Plain JSON Schema 2020-12 validation, no coercion: every problem, not
/// only the first. Empty when `instance` is valid.
///
/// ```
/// use mcp_switchboard::validate;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "state": {"enum": ["on", "off", "toggle"]}}, "additionalProperties": false});
/// let errors = validate(&schema, &json!({"state": "dim", "colour": "red"}));
/// assert_eq!(errors.len(), 2);
/// assert_eq!(errors[0].pointer, "/state");
/// assert_eq!(errors[0].message, "must be one of \"on\", \"off\", \"toggle\"; got \"dim\"");
/// assert_eq!(errors[1].pointer, "");
/// assert_eq!(errors[1].message, "unknown property \"colour\"; allowed: state");
/// ```
pub fn validate(schema: &Value, instance: &Value) -> Vec<ArgumentError> {
    Evaluator::new(schema).validate(instance)
}

#[cfg(test)]
mod tests;
