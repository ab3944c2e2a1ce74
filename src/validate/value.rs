//! JSON value helpers that are safe on any input: equality, hashing and
//! cloning without recursion on the value's depth, numbers compared the way
//! JSON Schema compares them (`1 == 1.0`), and instance locations.

use std::cmp::Ordering;
use std::hash::{BuildHasher, Hasher};

use serde_json::{Map, Number, Value};

use crate::pointer;

/// A number with a zero fractional part (`1`, `1.0`, `-0.0`).
pub(crate) fn is_integer(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// A count limit (`maxLength`, `minItems`, ...): a non-negative integer,
/// also when written with a zero fraction (`2.0`).
pub(crate) fn count_limit(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64().or_else(|| {
            let f = n.as_f64()?;
            (f >= 0.0 && f.fract() == 0.0 && f < 1.8e19).then_some(f as u64)
        }),
        _ => None,
    }
}

/// The number as an exact integer, when it is one that fits.
fn as_i128(n: &Number) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i));
    }
    n.as_u64().map(i128::from)
}

/// Orders two numbers: exactly when both are integers, as `f64` otherwise.
pub(crate) fn cmp_numbers(a: &Number, b: &Number) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (as_i128(a), as_i128(b)) {
        return Some(x.cmp(&y));
    }
    a.as_f64()?.partial_cmp(&b.as_f64()?)
}

/// Whether `x` is a multiple of `m` (`m > 0`), exactly for integers and with
/// a relative tolerance for floats, so that `0.0075` is a multiple of
/// `0.0001` although the `f64` division is `75.00000000000001`.
pub(crate) fn is_multiple(x: &Number, m: &Number) -> bool {
    if let (Some(x), Some(m)) = (as_i128(x), as_i128(m)) {
        return m == 0 || x % m == 0;
    }
    let (Some(x), Some(m)) = (x.as_f64(), m.as_f64()) else {
        return true;
    };
    if m <= 0.0 || !m.is_finite() {
        return true;
    }
    let q = x / m;
    if !q.is_finite() {
        return false;
    }
    (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
}

/// JSON equality where numbers compare by value (`1 == 1.0`) and object
/// key order does not matter. Iterative: any depth is fine.
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    let mut stack: Vec<(&Value, &Value)> = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (a, b) {
            (Value::Null, Value::Null) => {}
            (Value::Bool(x), Value::Bool(y)) if x == y => {}
            (Value::Number(x), Value::Number(y)) if cmp_numbers(x, y) == Some(Ordering::Equal) => {}
            (Value::String(x), Value::String(y)) if x == y => {}
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                stack.extend(x.iter().zip(y.iter()));
            }
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for (k, xv) in x {
                    let Some(yv) = y.get(k) else { return false };
                    stack.push((xv, yv));
                }
            }
            _ => return false,
        }
    }
    true
}

/// One hash of a tag, a number, a text and earlier hashes (one function,
/// not one per shape of input: the module stays small).
fn one(tag: u8, n: u64, text: &str, parts: &[u64]) -> u64 {
    let mut h = foldhash::fast::FixedState::with_seed(0).build_hasher();
    h.write_u8(tag);
    h.write_u64(n);
    h.write_usize(text.len());
    h.write(text.as_bytes());
    for p in parts {
        h.write_u64(*p);
    }
    h.finish()
}

/// [`json_hash`] of the string `s`, without making a value of it.
pub(crate) fn str_hash(s: &str) -> u64 {
    one(3, 0, s, &[])
}

/// A hash consistent with [`json_eq`]: equal values hash equally (numbers
/// by value, objects whatever their key order). Iterative: any depth is
/// fine, and every level counts, so unequal deep values rarely collide.
pub(crate) fn json_hash(v: &Value) -> u64 {
    enum Step<'a> {
        Enter(&'a Value),
        Array(usize),
        Object(Vec<&'a str>),
    }
    let mut steps = vec![Step::Enter(v)];
    let mut done: Vec<u64> = Vec::new();
    while let Some(step) = steps.pop() {
        match step {
            Step::Enter(v) => match v {
                Value::Null => done.push(one(0, 0, "", &[])),
                Value::Bool(b) => done.push(one(1, u64::from(*b), "", &[])),
                Value::Number(n) => {
                    // equal numbers have equal f64 approximations; -0.0 == 0.0
                    let f = n.as_f64().unwrap_or(0.0);
                    let f = if f == 0.0 { 0.0 } else { f };
                    done.push(one(2, f.to_bits(), "", &[]));
                }
                Value::String(s) => done.push(str_hash(s)),
                Value::Array(a) => {
                    steps.push(Step::Array(a.len()));
                    steps.extend(a.iter().rev().map(Step::Enter));
                }
                Value::Object(m) => {
                    steps.push(Step::Object(m.keys().map(String::as_str).collect()));
                    steps.extend(m.values().rev().map(Step::Enter));
                }
            },
            Step::Array(n) => {
                let start = done.len().saturating_sub(n);
                let h = one(4, n as u64, "", done.get(start..).unwrap_or_default());
                done.truncate(start);
                done.push(h);
            }
            Step::Object(keys) => {
                let start = done.len().saturating_sub(keys.len());
                // key order must not matter: entry hashes are summed
                let sum = keys
                    .iter()
                    .zip(done.get(start..).unwrap_or_default())
                    .fold(0u64, |acc, (k, h)| acc.wrapping_add(one(6, *h, k, &[])));
                done.truncate(start);
                done.push(one(5, keys.len() as u64, "", &[sum]));
            }
        }
    }
    done.pop().unwrap_or_default()
}

/// Levels under which the derived (recursive, faster) `Clone` is safe.
const SHALLOW: usize = 64;

/// Whether `v` nests at most `max` levels (without recursion).
fn nests_at_most(v: &Value, max: usize) -> bool {
    let mut stack = vec![(v, 0usize)];
    while let Some((v, d)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(a) => Box::new(a.iter()),
            Value::Object(m) => Box::new(m.values()),
            _ => continue,
        };
        if d >= max {
            return false;
        }
        stack.extend(children.map(|c| (c, d + 1)));
    }
    true
}

/// Clones a value of any depth without deep recursion (the derived `Clone`
/// recurses once per level and overflows the stack on deep values).
pub(crate) fn deep_clone(v: &Value) -> Value {
    if nests_at_most(v, SHALLOW) {
        return v.clone();
    }
    enum Frame<'a> {
        Array(std::slice::Iter<'a, Value>, Vec<Value>),
        Object(serde_json::map::Iter<'a>, Map<String, Value>, String),
    }
    fn shallow(v: &Value) -> Option<Value> {
        match v {
            Value::Array(_) | Value::Object(_) => None,
            other => Some(other.clone()),
        }
    }
    fn open(v: &Value) -> Frame<'_> {
        match v {
            Value::Object(m) => Frame::Object(m.iter(), Map::new(), String::new()),
            Value::Array(a) => Frame::Array(a.iter(), Vec::with_capacity(a.len())),
            _ => Frame::Array([].iter(), Vec::new()),
        }
    }
    if let Some(s) = shallow(v) {
        return s;
    }
    let mut stack = vec![open(v)];
    loop {
        let Some(top) = stack.last_mut() else {
            return Value::Null;
        };
        let next = match top {
            Frame::Array(it, _) => it.next(),
            Frame::Object(it, _, key) => it.next().map(|(k, x)| {
                key.clone_from(k);
                x
            }),
        };
        let done = match next {
            Some(child) => match shallow(child) {
                Some(s) => Some(s),
                None => {
                    stack.push(open(child));
                    None
                }
            },
            None => {
                let finished = match stack.pop() {
                    Some(Frame::Array(_, out)) => Value::Array(out),
                    Some(Frame::Object(_, out, _)) => Value::Object(out),
                    None => Value::Null,
                };
                if stack.is_empty() {
                    return finished;
                }
                Some(finished)
            }
        };
        if let Some(value) = done {
            match stack.last_mut() {
                Some(Frame::Array(_, out)) => out.push(value),
                Some(Frame::Object(_, out, key)) => {
                    out.insert(std::mem::take(key), value);
                }
                None => return value,
            }
        }
    }
}

/// Takes a value apart without recursion, so that dropping a deep value
/// cannot overflow the stack.
pub(crate) fn dismantle(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => stack.extend(m.into_iter().map(|(_, x)| x)),
            _ => {}
        }
    }
}

/// Characters of a string shown before it is cut in messages.
const SHORT_CHARS: usize = 40;

/// A value as a few words for a message: `150`, `"dim"`, `an object`,
/// `an array of 3 items`. Never long, whatever the value.
pub(crate) fn short(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => quote_str(s),
        Value::Array(a) => match a.len() {
            0 => "an empty array".into(),
            1 => "an array of 1 item".into(),
            n => format!("an array of {n} items"),
        },
        Value::Object(m) if m.is_empty() => "an empty object".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A string in JSON quotes, cut after a few words with its length said.
pub(crate) fn quote_str(s: &str) -> String {
    let mut chars = s.char_indices();
    match chars.nth(SHORT_CHARS) {
        None => Value::String(s.to_string()).to_string(),
        Some((cut, _)) => {
            let head = s.get(..cut).unwrap_or_default();
            let quoted = Value::String(head.to_string()).to_string();
            let inner = quoted
                .strip_suffix('"')
                .unwrap_or(quoted.as_str())
                .to_string();
            format!("{inner}…\" ({} characters)", s.chars().count())
        }
    }
}

/// Characters of compact JSON shown before it is cut.
const COMPACT_CHARS: usize = 60;
/// Levels of compact JSON shown before `…`.
const COMPACT_DEPTH: usize = 4;

/// A value as compact JSON, cut when long or deep: `{"a":[1,2]}`.
pub(crate) fn compact(v: &Value) -> String {
    let mut out = String::new();
    write_compact(v, COMPACT_DEPTH, &mut out);
    crate::text::cut(&out, COMPACT_CHARS, crate::text::Cut::Keep)
}

fn write_compact(v: &Value, depth: usize, out: &mut String) {
    if out.len() > COMPACT_CHARS * 4 {
        return;
    }
    match v {
        Value::String(s) => out.push_str(&quote_str(s)),
        Value::Array(a) if depth == 0 && !a.is_empty() => out.push_str("[…]"),
        Value::Object(m) if depth == 0 && !m.is_empty() => out.push_str("{…}"),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if out.len() > COMPACT_CHARS * 4 {
                    break;
                }
                write_compact(x, depth - 1, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if out.len() > COMPACT_CHARS * 4 {
                    break;
                }
                out.push_str(&quote_str(k));
                out.push(':');
                write_compact(x, depth - 1, out);
            }
            out.push('}');
        }
        other => out.push_str(&short(other)),
    }
}

/// One step of an instance location.
#[derive(Clone, Copy)]
pub(crate) enum Seg<'a> {
    /// The top of the instance.
    Root,
    /// An object member.
    Key(&'a str),
    /// An array item.
    Index(usize),
}

/// An instance location as a chain on the stack: built for free while
/// walking, rendered as a JSON Pointer only when a message needs it.
#[derive(Clone, Copy)]
pub(crate) struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    seg: Seg<'a>,
}

impl<'a> Path<'a> {
    /// The whole instance.
    pub(crate) const ROOT: Path<'static> = Path {
        parent: None,
        seg: Seg::Root,
    };

    /// The member `key` of the object here.
    pub(crate) fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Seg::Key(key),
        }
    }

    /// The item `i` of the array here.
    pub(crate) fn index(&'a self, i: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Seg::Index(i),
        }
    }

    /// The JSON Pointer (`""` for the root).
    pub(crate) fn render(&self) -> String {
        let mut segs = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            segs.push(p.seg);
            at = p.parent;
        }
        let mut out = String::new();
        for seg in segs.iter().rev() {
            out = match seg {
                Seg::Root => out,
                Seg::Key(k) => pointer::push(&out, k),
                Seg::Index(i) => pointer::index(&out, *i),
            };
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value() {
        assert!(json_eq(&json!(1), &json!(1.0)));
        assert!(json_eq(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert!(!json_eq(&json!([1]), &json!([true])));
        assert!(!json_eq(&json!({"a": 1}), &json!({"b": 1})));
        assert_eq!(
            json_hash(&json!([1, {"a": 0}])),
            json_hash(&json!([1.0, {"a": -0.0}]))
        );
        assert_eq!(
            json_hash(&json!({"a": 1, "b": 2})),
            json_hash(&json!({"b": 2, "a": 1}))
        );
        assert_ne!(json_hash(&json!([[1], 2])), json_hash(&json!([1, [2]])));
        assert_ne!(json_hash(&json!({"a": [1]})), json_hash(&json!({"a": 1})));
        assert_ne!(json_hash(&json!("1")), json_hash(&json!(1)));
    }

    #[test]
    fn multiples_are_float_safe() {
        let n = |v: Value| match v {
            Value::Number(n) => n,
            _ => unreachable!(),
        };
        assert!(is_multiple(&n(json!(0.0075)), &n(json!(0.0001))));
        assert!(!is_multiple(&n(json!(0.00751)), &n(json!(0.0001))));
        assert!(is_multiple(&n(json!(19.99)), &n(json!(0.01))));
        assert!(is_multiple(&n(json!(10)), &n(json!(5))));
        assert!(!is_multiple(&n(json!(7)), &n(json!(5))));
        assert!(!is_multiple(&n(json!(1e308)), &n(json!(0.123456789))));
    }

    #[test]
    fn deep_values_clone_and_compare_without_recursion() {
        let mut v = json!(1);
        for i in 0..20_000 {
            v = if i % 2 == 0 {
                Value::Array(vec![v])
            } else {
                Value::Object(Map::from_iter([("a".to_string(), v)]))
            };
        }
        let c = deep_clone(&v);
        assert!(json_eq(&v, &c));
        let _ = json_hash(&v);
        dismantle(v);
        dismantle(c);
        assert_eq!(
            deep_clone(&json!({"a": [1, {"b": null}], "c": "x"})),
            json!({"a": [1, {"b": null}], "c": "x"})
        );
    }

    #[test]
    fn short_values_stay_short() {
        assert_eq!(short(&json!("dim")), "\"dim\"");
        let long = "x".repeat(1000);
        let s = short(&json!(long));
        assert!(s.ends_with("…\" (1000 characters)"), "{s}");
        assert!(s.len() < 70);
        assert_eq!(short(&json!([1, 2])), "an array of 2 items");
        let p = Path::ROOT;
        let a = p.key("a/b");
        let b = a.index(3);
        assert_eq!(b.render(), "/a~1b/3");
        assert_eq!(p.render(), "");
    }
}
