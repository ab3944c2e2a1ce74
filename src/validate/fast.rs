//! A quick answer for the commonest call: arguments that are valid as
//! sent, with nothing to coerce, checked straight from their JSON text
//! (no value tree built) against the schema, whose keywords the evaluator
//! has read once.
//!
//! The check covers the plain shapes tool schemas mostly have: `type` (one
//! name), `enum` of strings, `properties`, `required`,
//! `additionalProperties` as a boolean and `items` as one schema; other
//! members are annotations. Any other keyword the evaluator reads, on the
//! way through the schema, and the answer is "not known". So it is for a
//! number with a fraction or an exponent (or `-0`), a string with an
//! escape, nesting deeper than [`MAX_VALUE_DEPTH`] or
//! anything unexpected: the call then takes the general path, which gives
//! every error and coercion. "Valid as sent" implies what the general path
//! says: valid, no coercions, the arguments unchanged.

use serde_json::Value;

use super::eval::Evaluator;
use super::keywords::Keywords;

/// Value levels read; deeper arguments take the general path (whose
/// parser has its own limit, and an error to report past it).
const MAX_VALUE_DEPTH: usize = 64;

impl<'s> Evaluator<'s> {
    /// Whether `text` (JSON) holds arguments that are valid as they are,
    /// with nothing to coerce; `false` means "not known".
    pub(crate) fn valid_as_is(&mut self, text: &str) -> bool {
        let mut r = Reader {
            text,
            b: text.as_bytes(),
            i: 0,
        };
        // arguments are an object, whatever the schema allows
        r.ws();
        r.b.get(r.i) == Some(&b'{') && self.plain(self.root, &mut r, 0) && {
            r.ws();
            r.i == r.b.len()
        }
    }

    /// Reads one value valid against `s`.
    fn plain(&mut self, s: &'s Value, r: &mut Reader<'_>, depth: usize) -> bool {
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
        let ty = k.ty.and_then(Value::as_str).unwrap_or("");
        if let Some(choices) = k.enumeration {
            // an enum of strings: a string, one of them
            return (ty.is_empty() || ty == "string")
                && r.string().is_some_and(|s| choices.iter().any(|c| c == s));
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
            "integer" | "number" => r.integer(),
            "boolean" => r.literal(b"true") || r.literal(b"false"),
            "null" => r.literal(b"null"),
            "array" => {
                r.eat(b'[')
                    && r.list(b']', |r| match k.items {
                        Some(sub) => self.plain(sub, r, depth + 1),
                        None => r.any(depth + 1),
                    })
            }
            "object" => self.plain_object(&k, r, depth),
            _ => false,
        }
    }

    fn plain_object(&mut self, k: &Keywords<'s>, r: &mut Reader<'_>, depth: usize) -> bool {
        let closed = match k.additional_properties {
            None | Some(Value::Bool(true)) => false,
            Some(Value::Bool(false)) => true,
            Some(_) => return false,
        };
        let required = k.required.unwrap_or_default();
        // the required names met, as bits by position in the list (a name
        // listed twice is met once: "not known")
        let mut met = 0u64;
        r.eat(b'{')
            && r.list(b'}', |r| {
                let Some(name) = r.string().filter(|_| r.eat(b':')) else {
                    return false;
                };
                if let Some(at) = required.iter().position(|n| n == name) {
                    met |= 1u64.checked_shl(at as u32).unwrap_or(0);
                }
                // a repeated name is read each time: stricter than the
                // general path, which keeps the last
                let declared = k.properties.into_iter().flatten();
                match declared.into_iter().find(|(n, _)| *n == name) {
                    Some((_, sub)) => self.plain(sub, r, depth + 1),
                    None => !closed && r.any(depth + 1),
                }
            })
            && met.count_ones() as usize == required.len()
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

/// Reads JSON text as far as it is plain; every method says `false` (or
/// `None`) at anything else.
struct Reader<'t> {
    text: &'t str,
    b: &'t [u8],
    i: usize,
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
        let minus = self.b.get(self.i) == Some(&b'-');
        self.i += usize::from(minus);
        let start = self.i;
        while self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        let digits = self.i - start;
        let zero = self.b.get(start) == Some(&b'0');
        (1..=18).contains(&digits)
            && !(zero && (minus || digits > 1))
            && !matches!(self.b.get(self.i), Some(b'.' | b'e' | b'E'))
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
