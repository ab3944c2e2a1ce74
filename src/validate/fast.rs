//! A quick answer for the commonest calls: arguments that are valid as
//! sent, or valid once numbers and booleans sent as strings are turned into
//! what they spell, checked straight from their JSON text (no value tree
//! built) against the schema, whose keywords the evaluator has read once.
//! The changes come back as [`Edit`]s of the text, in the order the general
//! path makes them.
//!
//! The check covers the plain shapes tool schemas mostly have: `type` (one
//! name), `enum` of strings, `properties`, `required`,
//! `additionalProperties` as a boolean and `items` as one schema; other
//! members are annotations. Any other keyword the evaluator reads, on the
//! way through the schema, and the answer is "not known". So it is for an
//! object schema with more than [`MAX_MEMBERS`] declared or required
//! members (a call stays linear in its members: names are compared one by
//! one here, hashed on the general path; a long enum is looked up through
//! the evaluator's table), for a number with a fraction or an exponent (or
//! `-0`), a string with an escape, nesting deeper than [`MAX_VALUE_DEPTH`]
//! or anything unexpected: the call then takes the general path, which gives
//! every error and coercion. "Valid as sent" implies what the general path
//! says: valid, no coercions, the arguments unchanged; "valid after these
//! edits" implies valid, exactly these coercions, and the arguments the
//! edited text holds. A string is read as a number only when it holds an
//! integer as JSON writes it (no spaces, no fraction or exponent, at most
//! 18 digits) where the schema wants a number or an integer, and as a
//! boolean only when it spells `true` or `false` (in any case) where the
//! schema wants a boolean; a name given twice in an object is "not known".

use std::ops::Range;

use serde_json::Value;

use super::eval::Evaluator;
use super::keywords::Keywords;
use super::value::{count_limit, Path};
use super::{words, ArgumentError};

/// Value levels read; deeper arguments take the general path (whose
/// parser has its own limit, and an error to report past it).
const MAX_VALUE_DEPTH: usize = 64;

/// One change the general path would make to the arguments: the string
/// at `at` in the text (its quotes included) becomes the number or
/// boolean it spells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    /// The string's place in the text, quotes included.
    pub(crate) at: Range<usize>,
    /// The JSON Pointer of the value.
    pub(crate) pointer: String,
    /// What the string becomes.
    pub(crate) to: To,
    /// Why, as the general path says it.
    pub(crate) reason: &'static str,
}

/// What an edited string becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum To {
    /// The integer it holds (written as it is in the string).
    Number,
    /// The boolean it spells.
    Bool(bool),
    /// Nothing: the edit removes a member sent as `null` (its range holds
    /// the member and a comma beside it).
    Absent,
    /// A one-item array of the value.
    Wrap,
}

// read by the wasm facade and the tests
#[cfg_attr(any(not(feature = "js"), feature = "web-module"), allow(dead_code))]
impl Edit {
    /// The integer a string edited into a number holds.
    fn digits<'t>(&self, text: &'t str) -> &'t str {
        text.get(self.at.start + 1..self.at.end.saturating_sub(1))
            .unwrap_or("0")
    }

    /// Writes the JSON text that replaces the edited range onto `out`
    /// (nothing for a removal).
    pub(crate) fn push_replacement(&self, text: &str, out: &mut String) {
        match self.to {
            To::Number => out.push_str(self.digits(text)),
            To::Bool(b) => out.push_str(if b { "true" } else { "false" }),
            To::Absent => {}
            To::Wrap => {
                out.push('[');
                out.push_str(self.sent(text));
                out.push(']');
            }
        }
    }

    /// Writes the JSON text of the value after the edit (`null` for none)
    /// onto `out`.
    pub(crate) fn push_result(&self, text: &str, out: &mut String) {
        match self.to {
            To::Absent => out.push_str("null"),
            _ => self.push_replacement(text, out),
        }
    }

    /// The value a string edited into a number or a boolean becomes.
    fn value(&self, text: &str) -> Option<Value> {
        match self.to {
            To::Number => self.digits(text).parse::<i64>().ok().map(Value::from),
            To::Bool(b) => Some(Value::Bool(b)),
            To::Absent | To::Wrap => None,
        }
    }

    /// The JSON text of the value as sent.
    pub(crate) fn sent<'t>(&self, text: &'t str) -> &'t str {
        match self.to {
            To::Absent => "null",
            _ => text.get(self.at.clone()).unwrap_or("\"\""),
        }
    }
}

/// The quick check's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Quick {
    /// The strings read as numbers or booleans, in the text's order.
    pub(crate) edits: Vec<Edit>,
    /// The values that fail, as the general path reports them.
    pub(crate) errors: Vec<ArgumentError>,
}

/// Declared members, and required ones, of an object schema the quick
/// check reads: one bit each, found by comparing names one by one (a
/// larger object takes the general path, whose look-ups are hashed, so a
/// call stays linear in its members).
const MAX_MEMBERS: usize = 64;

/// Errors the quick check reports; more are left to the general path.
const MAX_QUICK_ERRORS: usize = 100;

/// `text` with every edit made (edits in the text's order, as
/// [`Evaluator::quick`] gives them), written onto the end of `out`.
#[cfg_attr(any(not(feature = "js"), feature = "web-module"), allow(dead_code))]
pub(crate) fn splice(out: &mut String, text: &str, edits: &[Edit]) {
    let mut from = 0;
    for e in edits {
        out.push_str(text.get(from..e.at.start).unwrap_or_default());
        e.push_replacement(text, out);
        from = e.at.end;
    }
    out.push_str(text.get(from..).unwrap_or_default());
}

/// The validation the general path gives, built from the text and the
/// quick check's edits; `None` when the edited text is not JSON (which a
/// quick answer never leaves).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn validation(text: &str, quick: &Quick) -> Option<super::Validation> {
    let value = |t: &str| serde_json::from_str::<Value>(t).ok();
    let edits = &quick.edits;
    let mut coercions = Vec::with_capacity(edits.len());
    for e in edits {
        coercions.push(super::Coercion {
            pointer: e.pointer.clone(),
            from: value(e.sent(text))?,
            to: match e.to {
                To::Absent => None,
                _ => Some(value(&{
                    let mut to = String::new();
                    e.push_replacement(text, &mut to);
                    to
                })?),
            },
            reason: e.reason.to_string(),
        });
    }
    Some(super::Validation {
        arguments: value(&{
            let mut out = String::with_capacity(text.len());
            splice(&mut out, text, edits);
            out
        })?,
        coercions,
        errors: quick.errors.clone(),
    })
}

impl<'s> Evaluator<'s> {
    /// Whether `text` (JSON) holds arguments that are valid as they are,
    /// with nothing to coerce; `false` means "not known".
    pub(crate) fn valid_as_is(&mut self, text: &str) -> bool {
        self.quick(text)
            .is_some_and(|q| q.edits.is_empty() && q.errors.is_empty())
    }

    /// What the general path would answer for `text` (JSON), read from
    /// the text: the edits that make it the coerced arguments, in the
    /// order the general path makes them, which is the text's (none:
    /// unchanged), and the errors left, in the general path's order (none:
    /// valid). `None` means "not known", also when the members holding
    /// edits or errors are not in the order the general path walks them.
    pub(crate) fn quick(&mut self, text: &str) -> Option<Quick> {
        let mut r = Reader {
            text,
            b: text.as_bytes(),
            i: 0,
            edits: Vec::new(),
            errors: Vec::new(),
            unsure: false,
            ids: false,
        };
        // the evaluator checks some values: a budget for this text
        self.reset_budget_to(text.len() as u64);
        // arguments are an object, whatever the schema allows
        r.ws();
        let read =
            r.b.get(r.i) == Some(&b'{') && self.plain(self.root, &mut r, &Path::ROOT, 0) && {
                r.ws();
                r.i == r.b.len()
            };
        if !read || self.exhausted || (r.unsure && !(r.edits.is_empty() && r.errors.is_empty())) {
            return None;
        }
        Some(Quick {
            edits: r.edits,
            errors: r.errors,
        })
    }

    /// Reads one value valid against `s` (perhaps after an edit).
    fn plain(&mut self, s: &'s Value, r: &mut Reader<'_>, trail: &Path<'_>, depth: usize) -> bool {
        let m = match s {
            _ if depth > MAX_VALUE_DEPTH => return false,
            Value::Bool(true) => return r.any(depth),
            Value::Object(m) => m,
            _ => return false,
        };
        let k = self.keywords(s, m);
        let choices = k.any_of.is_some() || k.one_of.is_some();
        if !plain_keywords(&k)
            || !k.ty.is_none_or(Value::is_string)
            || (choices && !self.required_choices(&k))
        {
            return self.other(s, &k, r, trail, depth);
        }
        r.ids |= k.has_id;
        let ty = k.ty.and_then(Value::as_str).unwrap_or("");
        if let Some(choices) = k.enumeration {
            // an enum of strings: a string, one of them (another string is
            // an error when every choice is a string: none is coerced)
            r.ws();
            let at = r.i;
            if !(ty.is_empty() || ty == "string") {
                return self.other(s, &k, r, trail, depth);
            }
            return match r.string() {
                Some(t) if self.in_enum_str(choices, t) => true,
                Some(t) if self.enum_of_strings(choices) => self.wrong(s, m, r, t, trail, "enum"),
                // another value: the evaluator's answer
                _ => {
                    r.i = at;
                    self.other(s, &k, r, trail, depth)
                }
            };
        }
        let object = k.properties.is_some() || k.required.is_some();
        let ty = match ty {
            "" if object || k.additional_properties.is_some() => "object",
            "" if k.items.is_some() => "array",
            t => t,
        };
        r.ws();
        let at = r.i;
        let read = match ty {
            "" => return r.any(depth),
            "string" => r.string().is_some(),
            "integer" | "number" => r.integer() || r.number_in_string(ty, trail),
            "boolean" => r.literal(b"true") || r.literal(b"false") || r.bool_in_string(trail),
            "null" => return r.literal(b"null"),
            "array" if r.b.get(r.i) != Some(&b'[') => {
                // a single value: made an array where the type says so
                return k.ty.is_some() && self.wrapped(&k, r, trail, depth);
            }
            "array" => {
                let mut i = 0usize;
                let edits = r.edits.len();
                // for `uniqueItems`, the items' texts: strings without
                // escapes and integers, equal only when written the same
                let mut texts: Vec<Range<usize>> = Vec::new();
                let read = r.eat(b'[')
                    && r.list(b']', |r| {
                        let item = trail.index(i);
                        i += 1;
                        r.ws();
                        let start = r.i;
                        let ok = match k.items {
                            Some(sub) => self.plain(sub, r, &item, depth + 1),
                            None => r.any(depth + 1),
                        };
                        if !k.unique_items {
                            return ok;
                        }
                        texts.push(start..r.i);
                        ok && matches!(r.b.get(start), Some(b'"' | b'-' | b'0'..=b'9'))
                    });
                // too few or too many items, or two the same (also after an
                // edit): the general path says so
                let n = i as u64;
                return read
                    && items_fit(&k, n)
                    && (!k.unique_items || (r.edits.len() == edits && distinct(r.text, &texts)));
            }
            "object" => return self.plain_object(&k, r, trail, depth),
            _ => return false,
        };
        // a value of another kind, read again
        read || {
            r.i = at;
            self.other(s, &k, r, trail, depth)
        }
    }

    /// Reads one value at a schema node that the plain reading above does
    /// not cover (other keywords, a value of another JSON type): a scalar
    /// (a string without escapes, an integer, `true`, `false`, `null`) is
    /// checked by the evaluator itself, which answers "valid" exactly as the
    /// general path would (no coercion touches a valid scalar). A failing
    /// value, and a string read as a number or a boolean, are answered only
    /// at a node of one type beside checks of its value
    /// ([`assertion_type`]), where no other coercion applies: its errors
    /// are the evaluator's own for that value (and, for an edit, the value
    /// edited). Anything else is "not known".
    fn other(
        &mut self,
        s: &'s Value,
        k: &Keywords<'s>,
        r: &mut Reader<'_>,
        trail: &Path<'_>,
        depth: usize,
    ) -> bool {
        // under a `$id` the base is not the root's
        if r.ids || k.has_id {
            return false;
        }
        let base = self.index.root_base.clone();
        let ty = assertion_type(k);
        r.ws();
        let start = r.i;
        let value = match r.b.get(r.i) {
            Some(b'"') => {
                let Some(t) = r.string() else { return false };
                let v = Value::String(t.to_string());
                if self.is_valid(s, &base, &v, depth) {
                    return true;
                }
                match ty {
                    Some("string") => v,
                    Some(_) if is_word(t) => v,
                    Some(ty) => {
                        r.i = start;
                        let edited = if ty == "boolean" {
                            r.bool_in_string(trail)
                        } else {
                            r.number_in_string(ty, trail)
                        };
                        match r
                            .edits
                            .last()
                            .filter(|_| edited)
                            .and_then(|e| e.value(r.text))
                        {
                            Some(v) => v,
                            None => return false,
                        }
                    }
                    None => return false,
                }
            }
            Some(b'n') => {
                return r.literal(b"null") && self.is_valid(s, &base, &Value::Null, depth)
            }
            Some(b'[' | b'{') if ty.is_some() => {
                if !r.any(depth) {
                    return false;
                }
                match r.text.get(start..r.i).map(serde_json::from_str::<Value>) {
                    Some(Ok(v)) => v,
                    _ => return false,
                }
            }
            Some(b't') if r.literal(b"true") => Value::Bool(true),
            Some(b'f') if r.literal(b"false") => Value::Bool(false),
            _ => match r.integer_text().map(str::parse::<i64>) {
                Some(Ok(n)) => Value::from(n),
                _ => return false,
            },
        };
        if self.is_valid(s, &base, &value, depth) {
            return true;
        }
        if ty.is_none() || r.errors.len() >= MAX_QUICK_ERRORS {
            return false;
        }
        let errors = self.errors_of(s, &base, &value, trail, depth);
        let known = !errors.is_empty() && !self.exhausted;
        r.errors.extend(errors);
        known
    }

    /// Records that the string `t` just read fails `keyword` of the schema
    /// `s` (whose members are `m`), as the general path says it.
    fn wrong(
        &mut self,
        s: &'s Value,
        m: &'s serde_json::Map<String, Value>,
        r: &mut Reader<'_>,
        t: &str,
        trail: &Path<'_>,
        keyword: &str,
    ) -> bool {
        // past a `$id` the base is not the root's, and past the errors
        // this check lists the general path counts them: "not known"
        if r.ids || r.errors.len() >= MAX_QUICK_ERRORS {
            return false;
        }
        let base = self.index.root_base.clone();
        let wanted = self.wanted_of(s, m, &base);
        r.errors.push(ArgumentError {
            pointer: trail.render(),
            keyword: keyword.to_string(),
            message: words::must(&wanted, m, &Value::String(t.to_string())),
        });
        true
    }

    /// Reads a single value where the type `array` is wanted: the
    /// general path makes it a one-item array and reads the item. Answered
    /// when the value is a string (not one that starts with `[`, which may
    /// be an array in JSON), an integer or a boolean, and the item is valid
    /// as it is.
    fn wrapped(
        &mut self,
        k: &Keywords<'s>,
        r: &mut Reader<'_>,
        trail: &Path<'_>,
        depth: usize,
    ) -> bool {
        let start = r.i;
        let single = match r.b.get(start) {
            Some(b'"') => r.string().is_some_and(|t| !t.trim_start().starts_with('[')),
            Some(b't' | b'f' | b'-' | b'0'..=b'9') => r.any(depth),
            _ => false,
        };
        let end = r.i;
        if !single || !items_fit(k, 1) {
            return false;
        }
        // the item, read again
        r.i = start;
        let (edits, errors) = (r.edits.len(), r.errors.len());
        let item = match k.items {
            Some(sub) => self.plain(sub, r, &trail.index(0), depth + 1),
            None => r.any(depth + 1),
        };
        if !item || r.i != end || r.edits.len() > edits || r.errors.len() > errors {
            return false;
        }
        r.edits.push(Edit {
            at: start..end,
            pointer: trail.render(),
            to: To::Wrap,
            reason: "a single value; an array is wanted",
        });
        true
    }

    /// Whether the `anyOf` and `oneOf` of the object schema `k` (if any)
    /// are choices between sets of its declared members, each branch only
    /// `required` (the coercion of the object does not depend on them), at
    /// most [`MAX_MEMBERS`] names in all.
    fn required_choices(&mut self, k: &Keywords<'s>) -> bool {
        let mut names = 0usize;
        for branch in [k.any_of, k.one_of].into_iter().flatten().flatten() {
            let Value::Object(m) = branch else {
                return false;
            };
            let b = self.keywords(branch, m);
            let Some(list) = b.required.filter(|_| b.count == 1) else {
                return false;
            };
            names += list.len();
            let declared = |n: &Value| {
                n.as_str()
                    .is_some_and(|n| k.properties.is_some_and(|d| d.contains_key(n)))
            };
            if names > MAX_MEMBERS || !list.iter().all(declared) {
                return false;
            }
        }
        true
    }

    /// Whether the object whose declared members kept are `present` (bits
    /// by declared position) meets the `anyOf` (one branch or more) and
    /// the `oneOf` (exactly one) that [`required_choices`] accepted.
    ///
    /// [`required_choices`]: Self::required_choices
    fn choices_met(&mut self, k: &Keywords<'s>, present: u64) -> bool {
        let mut met = |list: &'s [Value]| {
            let mut n = 0usize;
            for branch in list {
                let Value::Object(m) = branch else { continue };
                let names = self.keywords(branch, m).required.unwrap_or_default();
                let here = |name: &Value| {
                    let declared = k.properties.into_iter().flatten();
                    let at = declared
                        .map(|(d, _)| d)
                        .position(|d| Some(d.as_str()) == name.as_str());
                    at.is_some_and(|at| present & 1u64.checked_shl(at as u32).unwrap_or(0) != 0)
                };
                n += usize::from(names.iter().all(here));
            }
            n
        };
        k.any_of.is_none_or(|list| met(list) >= 1) && k.one_of.is_none_or(|list| met(list) == 1)
    }

    fn plain_object(
        &mut self,
        k: &Keywords<'s>,
        r: &mut Reader<'_>,
        trail: &Path<'_>,
        depth: usize,
    ) -> bool {
        // other members: any value, none, or values valid as they are
        // against a schema (edits and errors there come after the declared
        // members' on the general path: "not known")
        let (closed, others) = match k.additional_properties {
            None | Some(Value::Bool(true)) => (false, None),
            Some(Value::Bool(false)) => (true, None),
            Some(s @ Value::Object(_)) => (false, Some(s)),
            Some(_) => return false,
        };
        let required = k.required.unwrap_or_default();
        if required.len() > MAX_MEMBERS || k.properties.is_some_and(|d| d.len() > MAX_MEMBERS) {
            return false;
        }
        // the required names met, as bits by position in the list (a name
        // listed twice is met once: "not known"); the declared members
        // read, as bits by declared position (one read twice: "not known");
        // the declared position of the last member edited
        let mut met = 0u64;
        let mut read = 0u64;
        let mut last_edited: Option<usize> = None;
        // the same for errors, and the members kept (not removed as null)
        let mut last_errored: Option<usize> = None;
        let mut errors_unordered = false;
        let mut members = 0usize;
        // the declared members kept, as bits by declared position
        let mut present = 0u64;
        let base = self.index.root_base.clone();
        r.eat(b'{')
            && r.list(b'}', |r| {
                r.ws();
                let from = r.i;
                let Some(name) = r.string().filter(|_| r.eat(b':')) else {
                    return false;
                };
                let optional = match required.iter().position(|n| n == name) {
                    Some(at) => {
                        met |= 1u64.checked_shl(at as u32).unwrap_or(0);
                        false
                    }
                    None => true,
                };
                let declared = k.properties.into_iter().flatten();
                match declared.enumerate().find(|(_, (n, _))| *n == name) {
                    Some((at, (_, sub))) => {
                        let bit = 1u64.checked_shl(at as u32).unwrap_or(0);
                        if read & bit != 0 {
                            return false;
                        }
                        read |= bit;
                        let member = trail.key(name);
                        let (edits, errors) = (r.edits.len(), r.errors.len());
                        // null for an optional member whose schema refuses
                        // it: absent (the object is then invalid as sent)
                        let absent = optional
                            && !r.ids
                            && r.peek_null()
                            && !self.is_valid(sub, &base, &Value::Null, depth + 1);
                        let ok = if absent {
                            r.remove(from, members > 0, &member)
                        } else {
                            present |= bit;
                            members += 1;
                            self.plain(sub, r, &member, depth + 1)
                        };
                        if r.edits.len() > edits {
                            // edits out of the declared order: "not known"
                            r.unsure |= last_edited.is_some_and(|l| l > at);
                            last_edited = Some(at);
                        }
                        if r.errors.len() > errors {
                            errors_unordered |= last_errored.is_some_and(|l| l > at);
                            last_errored = Some(at);
                        }
                        ok
                    }
                    None => {
                        members += 1;
                        let (edits, errors) = (r.edits.len(), r.errors.len());
                        match others {
                            Some(sub) => {
                                self.plain(sub, r, &trail.key(name), depth + 1)
                                    && r.edits.len() == edits
                                    && r.errors.len() == errors
                            }
                            None => !closed && r.any(depth + 1),
                        }
                    }
                }
            })
            && met.count_ones() as usize == required.len()
            && self.choices_met(k, present)
            && {
                // the general path reports members' errors in the declared
                // order when there are at least as many members as
                // declared ones, else in the order sent
                let declared = k.properties.map_or(0, serde_json::Map::len);
                r.unsure |= errors_unordered && declared <= members;
                true
            }
    }
}

/// Whether `n` items meet the array schema's `minItems` and `maxItems`.
fn items_fit(k: &Keywords<'_>, n: u64) -> bool {
    k.min_items.and_then(count_limit).is_none_or(|min| n >= min)
        && k.max_items.and_then(count_limit).is_none_or(|max| n <= max)
}

/// Whether the texts at `ranges` of `text` are all different.
fn distinct(text: &str, ranges: &[Range<usize>]) -> bool {
    let mut seen = foldhash::HashSet::with_capacity_and_hasher(ranges.len(), Default::default());
    ranges.iter().all(|at| seen.insert(text.get(at.clone())))
}

/// A string made of one word (a letter, then letters, digits, `-` and
/// `_`), other than `true` and `false` in any case: no coercion reads it as
/// a number or a boolean.
fn is_word(t: &str) -> bool {
    t.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && !t.eq_ignore_ascii_case("true")
        && !t.eq_ignore_ascii_case("false")
}

/// The type of a schema node that holds one type name (a string, an
/// integer, a number or a boolean) and beside it only keywords that check
/// such a value (bounds, `multipleOf`, lengths, `pattern`, `format`) and
/// annotations: a value there is coerced only when it is a string read as
/// a number or a boolean.
fn assertion_type<'s>(k: &Keywords<'s>) -> Option<&'s str> {
    let ty = k.ty?.as_str()?;
    let read = [
        true,
        k.minimum.is_some(),
        k.maximum.is_some(),
        k.exclusive_minimum.is_some(),
        k.exclusive_maximum.is_some(),
        k.multiple_of.is_some(),
        k.min_length.is_some(),
        k.max_length.is_some(),
        k.pattern.is_some(),
        k.format.is_some(),
    ];
    let only = k.count == read.into_iter().filter(|&b| b).count();
    (only && matches!(ty, "string" | "integer" | "number" | "boolean")).then_some(ty)
}

/// Whether the schema object uses only the keywords the quick check reads
/// (each of the JSON type it reads; any other keyword the evaluator reads
/// is counted but not listed here).
fn plain_keywords(k: &Keywords<'_>) -> bool {
    let known = [
        k.has_id,
        k.ty.is_some(),
        k.enumeration.is_some(),
        k.items.is_some(),
        k.properties.is_some(),
        k.additional_properties.is_some(),
        k.required.is_some(),
        k.min_items.is_some(),
        k.max_items.is_some(),
        k.unique_items,
        k.any_of.is_some(),
        k.one_of.is_some(),
    ];
    k.count == known.into_iter().filter(|&b| b).count()
}

/// The length of the integer at the start of `b` as JSON writes it, short
/// enough to be one exactly (not `-0`, which the parser reads as a
/// float); 0 when there is none.
fn integer_len(b: &[u8]) -> usize {
    let minus = usize::from(b.first() == Some(&b'-'));
    let digits = b
        .iter()
        .skip(minus)
        .take_while(|c| c.is_ascii_digit())
        .count();
    let zero = b.get(minus) == Some(&b'0');
    let plain = (1..=18).contains(&digits)
        && !(zero && (minus > 0 || digits > 1))
        && !matches!(b.get(minus + digits), Some(b'.' | b'e' | b'E'));
    if plain {
        minus + digits
    } else {
        0
    }
}

/// Reads JSON text as far as it is plain; every method says `false` (or
/// `None`) at anything else.
struct Reader<'t> {
    text: &'t str,
    b: &'t [u8],
    i: usize,
    /// The strings read as numbers or booleans.
    edits: Vec<Edit>,
    /// Values that fail the schema, as the general path reports them.
    errors: Vec<ArgumentError>,
    /// The answer may differ from the general path's: a member read whose
    /// repetition could not be watched for, edits or errors out of the
    /// general path's order, or too many errors.
    unsure: bool,
    /// A schema with a `$id` was read (descriptions would need its base).
    ids: bool,
}

impl<'t> Reader<'t> {
    fn ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// The next byte after white space, consumed when it is `c`.
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        let hit = self.b.get(self.i) == Some(&c);
        self.i += usize::from(hit);
        hit
    }

    /// A string without escapes or control characters.
    fn string(&mut self) -> Option<&'t str> {
        if !self.eat(b'"') {
            return None;
        }
        let start = self.i;
        loop {
            match *self.b.get(self.i)? {
                b'"' => break,
                b'\\' | 0..=0x1f => return None,
                _ => self.i += 1,
            }
        }
        self.i += 1;
        self.text.get(start..self.i - 1)
    }

    fn literal(&mut self, word: &[u8]) -> bool {
        self.ws();
        let hit = self.b.get(self.i..self.i + word.len()) == Some(word);
        self.i += if hit { word.len() } else { 0 };
        hit
    }

    /// An integer as JSON writes it, short enough to be one exactly (not
    /// `-0`, which the parser reads as a float).
    fn integer(&mut self) -> bool {
        self.integer_text().is_some()
    }

    /// [`integer`](Self::integer), its text.
    fn integer_text(&mut self) -> Option<&'t str> {
        self.ws();
        let n = integer_len(self.b.get(self.i..).unwrap_or_default());
        let start = self.i;
        self.i += n;
        self.text.get(start..self.i).filter(|_| n > 0)
    }

    /// A string holding an integer as JSON writes it, where a number
    /// (`ty` "number") or an integer (`ty` "integer") is wanted.
    fn number_in_string(&mut self, ty: &str, trail: &Path<'_>) -> bool {
        let start = self.i;
        let Some(inner) = self.string() else {
            return false;
        };
        let plain = !inner.is_empty() && integer_len(inner.as_bytes()) == inner.len();
        if plain {
            let reason = if ty == "integer" {
                "a string holding a number; an integer is wanted"
            } else {
                "a string holding a number; a number is wanted"
            };
            self.edit(start, trail, To::Number, reason);
        } else {
            // read again by the next check
            self.i = start;
        }
        plain
    }

    /// A string spelling `true` or `false` in any case, where a boolean is
    /// wanted.
    fn bool_in_string(&mut self, trail: &Path<'_>) -> bool {
        let start = self.i;
        let to = match self.string() {
            Some(s) if s.eq_ignore_ascii_case("true") => true,
            Some(s) if s.eq_ignore_ascii_case("false") => false,
            _ => {
                // read again by the next check
                self.i = start;
                return false;
            }
        };
        self.edit(
            start,
            trail,
            To::Bool(to),
            "a string holding a boolean; a boolean is wanted",
        );
        true
    }

    /// Records that the string from `start` (after white space) to here
    /// becomes `to`.
    fn edit(&mut self, start: usize, trail: &Path<'_>, to: To, reason: &'static str) {
        let mut start = start;
        while matches!(self.b.get(start), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            start += 1;
        }
        self.edits.push(Edit {
            at: start..self.i,
            pointer: trail.render(),
            to,
            reason,
        });
    }

    /// Whether the next value is `null` (nothing consumed).
    fn peek_null(&mut self) -> bool {
        self.ws();
        self.b.get(self.i..self.i + 4) == Some(b"null")
    }

    /// Reads the `null` of the member that begins at `from`, recording
    /// its removal: the member and the comma before it when a member was
    /// kept before it, else the comma after it (if any), so that the
    /// removals of neighbours never overlap.
    fn remove(&mut self, from: usize, kept_before: bool, trail: &Path<'_>) -> bool {
        if !self.literal(b"null") {
            return false;
        }
        let mut start = from;
        let mut end = self.i;
        if kept_before {
            while start > 0 && self.b.get(start - 1) != Some(&b',') {
                start -= 1;
            }
            start = start.saturating_sub(1);
        } else {
            let mut after = end;
            while matches!(self.b.get(after), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                after += 1;
            }
            if self.b.get(after) == Some(&b',') {
                end = after + 1;
            }
        }
        self.edits.push(Edit {
            at: start..end,
            pointer: trail.render(),
            to: To::Absent,
            reason: "null for an optional property means it is absent",
        });
        true
    }

    /// Any plain value.
    fn any(&mut self, depth: usize) -> bool {
        self.ws();
        match self.b.get(self.i) {
            _ if depth > MAX_VALUE_DEPTH => false,
            Some(b'"') => self.string().is_some(),
            Some(b'[') => self.eat(b'[') && self.list(b']', |r| r.any(depth + 1)),
            Some(b'{') => {
                self.eat(b'{')
                    && self.list(b'}', |r| {
                        r.string().is_some() && r.eat(b':') && r.any(depth + 1)
                    })
            }
            _ => {
                self.literal(b"true")
                    || self.literal(b"false")
                    || self.literal(b"null")
                    || self.integer()
            }
        }
    }

    /// A comma-separated list up to `close`, each entry read by `entry`
    /// (one copy of the loop for every kind of entry).
    fn list(&mut self, close: u8, mut entry: impl FnMut(&mut Self) -> bool) -> bool {
        if self.eat(close) {
            return true;
        }
        loop {
            if !entry(self) {
                return false;
            }
            if self.eat(close) {
                return true;
            }
            if !self.eat(b',') {
                return false;
            }
        }
    }
}

#[cfg(test)]
mod tests;
