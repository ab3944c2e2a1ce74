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
use super::value::Path;
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
}

// read by the wasm facade and the tests
#[cfg_attr(
    not(all(target_arch = "wasm32", not(feature = "web-module"))),
    allow(dead_code)
)]
impl Edit {
    /// The JSON text of the value that replaces the string.
    pub(crate) fn replacement<'t>(&self, text: &'t str) -> &'t str {
        match self.to {
            To::Number => text
                .get(self.at.start + 1..self.at.end.saturating_sub(1))
                .unwrap_or("0"),
            To::Bool(true) => "true",
            To::Bool(false) => "false",
        }
    }

    /// The JSON text of the string as sent.
    pub(crate) fn sent<'t>(&self, text: &'t str) -> &'t str {
        text.get(self.at.clone()).unwrap_or("\"\"")
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
#[cfg_attr(
    not(all(target_arch = "wasm32", not(feature = "web-module"))),
    allow(dead_code)
)]
pub(crate) fn splice(out: &mut String, text: &str, edits: &[Edit]) {
    let mut from = 0;
    for e in edits {
        out.push_str(text.get(from..e.at.start).unwrap_or_default());
        out.push_str(e.replacement(text));
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
            to: Some(value(e.replacement(text))?),
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
        // arguments are an object, whatever the schema allows
        r.ws();
        let read =
            r.b.get(r.i) == Some(&b'{') && self.plain(self.root, &mut r, &Path::ROOT, 0) && {
                r.ws();
                r.i == r.b.len()
            };
        if !read || (r.unsure && !(r.edits.is_empty() && r.errors.is_empty())) {
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
        if !plain_keywords(&k) || !k.ty.is_none_or(Value::is_string) {
            return false;
        }
        r.ids |= k.has_id;
        let ty = k.ty.and_then(Value::as_str).unwrap_or("");
        if let Some(choices) = k.enumeration {
            // an enum of strings: a string, one of them (another string is
            // an error when every choice is a string: none is coerced)
            if !(ty.is_empty() || ty == "string") {
                return false;
            }
            return match r.string() {
                Some(t) if self.in_enum_str(choices, t) => true,
                Some(t) if self.enum_of_strings(choices) => self.wrong(s, m, r, t, trail, "enum"),
                _ => false,
            };
        }
        let object = k.properties.is_some() || k.required.is_some();
        let ty = match ty {
            "" if object || k.additional_properties.is_some() => "object",
            "" if k.items.is_some() => "array",
            t => t,
        };
        match ty {
            "" => r.any(depth),
            "string" => r.string().is_some(),
            "integer" | "number" => {
                r.integer() || r.number_in_string(ty, trail) || self.wrong_word(s, m, r, trail)
            }
            "boolean" => {
                r.literal(b"true")
                    || r.literal(b"false")
                    || r.bool_in_string(trail)
                    || self.wrong_word(s, m, r, trail)
            }
            "null" => r.literal(b"null"),
            "array" => {
                let mut i = 0usize;
                r.eat(b'[')
                    && r.list(b']', |r| {
                        let item = trail.index(i);
                        i += 1;
                        match k.items {
                            Some(sub) => self.plain(sub, r, &item, depth + 1),
                            None => r.any(depth + 1),
                        }
                    })
            }
            "object" => self.plain_object(&k, r, trail, depth),
            _ => false,
        }
    }

    /// Reads a string made of one word (a letter, then letters, digits,
    /// `-` and `_`) where a number, an integer or a boolean is wanted: no
    /// coercion reads it as one, so it is a `type` error.
    fn wrong_word(
        &mut self,
        s: &'s Value,
        m: &'s serde_json::Map<String, Value>,
        r: &mut Reader<'_>,
        trail: &Path<'_>,
    ) -> bool {
        match r.string() {
            Some(t)
                if t.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
                    && t.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                    && !t.eq_ignore_ascii_case("true")
                    && !t.eq_ignore_ascii_case("false") =>
            {
                self.wrong(s, m, r, t, trail, "type")
            }
            _ => false,
        }
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

    fn plain_object(
        &mut self,
        k: &Keywords<'s>,
        r: &mut Reader<'_>,
        trail: &Path<'_>,
        depth: usize,
    ) -> bool {
        let closed = match k.additional_properties {
            None | Some(Value::Bool(true)) => false,
            Some(Value::Bool(false)) => true,
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
        // the same for errors, and the members read
        let mut last_errored: Option<usize> = None;
        let mut errors_unordered = false;
        let mut members = 0usize;
        r.eat(b'{')
            && r.list(b'}', |r| {
                let Some(name) = r.string().filter(|_| r.eat(b':')) else {
                    return false;
                };
                if let Some(at) = required.iter().position(|n| n == name) {
                    met |= 1u64.checked_shl(at as u32).unwrap_or(0);
                }
                let declared = k.properties.into_iter().flatten();
                match declared.enumerate().find(|(_, (n, _))| *n == name) {
                    Some((at, (_, sub))) => {
                        match 1u64.checked_shl(at as u32) {
                            Some(bit) if read & bit != 0 => return false,
                            Some(bit) => read |= bit,
                            None => r.unsure = true,
                        }
                        let member = trail.key(name);
                        let (edits, errors) = (r.edits.len(), r.errors.len());
                        let ok = self.plain(sub, r, &member, depth + 1);
                        if r.edits.len() > edits {
                            // edits out of the declared order: "not known"
                            r.unsure |= last_edited.is_some_and(|l| l > at);
                            last_edited = Some(at);
                        }
                        if r.errors.len() > errors {
                            errors_unordered |= last_errored.is_some_and(|l| l > at);
                            last_errored = Some(at);
                        }
                        members += 1;
                        ok
                    }
                    None => {
                        members += 1;
                        !closed && r.any(depth + 1)
                    }
                }
            })
            && met.count_ones() as usize == required.len()
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
        self.ws();
        let n = integer_len(self.b.get(self.i..).unwrap_or_default());
        self.i += n;
        n > 0
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
