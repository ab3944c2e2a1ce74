//! Coercion: fixes what models commonly get wrong in tool-call arguments,
//! guided by the tool's original schema, before validation. A value that
//! already validates is left as it is; the one exception is a number with
//! a zero fraction where the schema wants an integer (`80.0` → `80`), which
//! is valid JSON Schema but breaks servers that parse integers strictly.
//! Every change is recorded.

use std::rc::Rc;

use serde_json::{Number, Value};

use super::eval::{type_matches, Evaluator, MAX_DEPTH};
use super::keywords::Keywords;
use super::refs::addr;
use super::value::{deep_clone, dismantle, Path};
use super::Coercion;

/// Alternatives (`anyOf` / `oneOf` branches) tried on a copy of the value,
/// in all, for one call.
const MAX_ATTEMPTS: usize = 1_000;
/// Attempts inside attempts: deeper alternatives are not tried, so the
/// copies made cannot multiply level after level.
const MAX_NESTED_ATTEMPTS: usize = 2;

/// Walks arguments and schema together, changing what needs changing.
pub(crate) struct Coercer<'e, 's> {
    ev: &'e mut Evaluator<'s>,
    pub(crate) out: Vec<Coercion>,
    active: Vec<(usize, usize)>,
    attempts: usize,
    nesting: usize,
}

impl<'e, 's> Coercer<'e, 's> {
    pub(crate) fn new(ev: &'e mut Evaluator<'s>) -> Self {
        Coercer {
            ev,
            out: Vec::new(),
            active: Vec::new(),
            attempts: 0,
            nesting: 0,
        }
    }

    /// Coerces the whole arguments value against the root schema. `true`
    /// when the arguments were valid as they came, with nothing to change
    /// (no fractions): validating them again would find nothing.
    pub(crate) fn run(&mut self, v: &mut Value) -> bool {
        let root = self.ev.root;
        let base = self.ev.index.root_base.clone();
        // valid arguments without fractions have nothing to change
        let valid = self.ev.is_valid(root, &base, v, 0);
        if valid && !has_float(v) {
            return true;
        }
        self.coerce(root, &base, v, &Path::ROOT, 0, Some(valid));
        false
    }

    /// Drops the changes recorded since `saved` (an attempt that failed);
    /// their values may be deep, so they are taken apart without recursion.
    fn forget_since(&mut self, saved: usize) {
        for c in self.out.drain(saved.min(self.out.len())..) {
            dismantle(c.from);
            if let Some(to) = c.to {
                dismantle(to);
            }
        }
    }

    fn record(&mut self, path: &Path<'_>, from: Value, to: Option<Value>, reason: &str) {
        self.out.push(Coercion {
            pointer: path.render(),
            from,
            to,
            reason: reason.to_string(),
        });
    }

    fn coerce(
        &mut self,
        s: &'s Value,
        base: &Rc<str>,
        v: &mut Value,
        path: &Path<'_>,
        depth: usize,
        known: Option<bool>,
    ) {
        if depth > MAX_DEPTH || !self.ev.tick() {
            return;
        }
        let Value::Object(m) = s else { return };
        let k = self.ev.keywords(s, m);
        let own;
        let base = if k.has_id {
            own = self.ev.base_of(s, base);
            &own
        } else {
            base
        };
        let valid = match known {
            Some(valid) => valid,
            None => self.ev.is_valid(s, base, v, depth),
        };
        if valid && matches!(v, Value::Null | Value::Bool(_) | Value::String(_)) {
            return;
        }
        if !valid {
            self.fix_here(&k, v, path);
        }
        self.integer(&k, v, path);
        if let Some(r) = k.reference {
            if let Some((target, tbase)) = self.ev.target(s, r, base) {
                let key = (addr(target), &*v as *const Value as usize);
                if !self.active.contains(&key) {
                    self.active.push(key);
                    self.coerce(target, &tbase, v, path, depth + 1, valid.then_some(true));
                    self.active.pop();
                }
            }
        }
        for sub in k.all_of.unwrap_or_default() {
            self.coerce(sub, base, v, path, depth + 1, valid.then_some(true));
        }
        for subs in [k.any_of, k.one_of].into_iter().flatten() {
            self.choose(subs, base, v, path, depth, valid);
        }
        if let Some(cond) = k.condition {
            let branch = if self.ev.is_valid(cond, base, v, depth + 1) {
                k.then
            } else {
                k.otherwise
            };
            if let Some(sub) = branch {
                self.coerce(sub, base, v, path, depth + 1, valid.then_some(true));
            }
        }
        match v {
            Value::Object(_) => self.members(&k, base, v, path, depth, valid),
            Value::Array(_) => self.items(&k, base, v, path, depth, valid),
            _ => {}
        }
    }

    /// `anyOf` / `oneOf`: the first alternative the value satisfies guides
    /// it; otherwise the first alternative that a coerced copy satisfies
    /// wins.
    fn choose(
        &mut self,
        subs: &'s [Value],
        base: &Rc<str>,
        v: &mut Value,
        path: &Path<'_>,
        depth: usize,
        valid: bool,
    ) {
        for sub in subs {
            if self.ev.is_valid(sub, base, v, depth + 1) {
                self.coerce(sub, base, v, path, depth + 1, Some(true));
                return;
            }
        }
        if valid || self.nesting >= MAX_NESTED_ATTEMPTS {
            return;
        }
        for sub in subs {
            if self.attempts >= MAX_ATTEMPTS || self.ev.exhausted {
                return;
            }
            if !could_fix(sub, v) {
                continue;
            }
            self.attempts += 1;
            self.nesting += 1;
            let mut attempt = deep_clone(v);
            let saved = self.out.len();
            self.coerce(sub, base, &mut attempt, path, depth + 1, None);
            let fixed = self.out.len() > saved && self.ev.is_valid(sub, base, &attempt, depth + 1);
            self.nesting -= 1;
            if fixed {
                dismantle(std::mem::replace(v, attempt));
                return;
            }
            self.forget_since(saved);
            dismantle(attempt);
        }
    }

    /// Scalar fixes at one value: enum values written as strings, numbers
    /// and booleans in strings, JSON in strings, a single value for an array.
    fn fix_here(&mut self, k: &Keywords<'s>, v: &mut Value, path: &Path<'_>) {
        let ty = k.ty;
        let wants = |name: &str| match ty {
            Some(Value::String(t)) => t == name,
            Some(Value::Array(ts)) => ts.iter().any(|t| t == name),
            _ => false,
        };
        if let Value::String(text) = &*v {
            if let Some(declared) = enum_value(self.ev, k, text) {
                let from = std::mem::replace(v, declared.clone());
                self.record(
                    path,
                    from,
                    Some(declared),
                    "the declared enum value was sent as a string",
                );
                return;
            }
            if ty.is_some_and(|t| type_matches(t, v)) {
                return;
            }
            let trimmed = text.trim();
            if (wants("object") && trimmed.starts_with('{'))
                || (wants("array") && trimmed.starts_with('['))
            {
                if let Ok(parsed) = serde_json::from_str::<Value>(trimmed) {
                    if (wants("object") && parsed.is_object())
                        || (wants("array") && parsed.is_array())
                    {
                        let to = deep_clone(&parsed);
                        let from = std::mem::replace(v, parsed);
                        let reason = if to.is_object() {
                            "a string holding a JSON object; an object is wanted"
                        } else {
                            "a string holding a JSON array; an array is wanted"
                        };
                        self.record(path, from, Some(to), reason);
                        return;
                    }
                }
            }
            if wants("integer") || wants("number") {
                if let Some(n) = parse_number(trimmed) {
                    let converted = if wants("integer") {
                        integral(&n).or_else(|| wants("number").then(|| Value::Number(n)))
                    } else {
                        Some(Value::Number(n))
                    };
                    if let Some(to) = converted {
                        let reason =
                            if to.as_f64().is_some_and(|f| f.fract() == 0.0) && wants("integer") {
                                "a string holding a number; an integer is wanted"
                            } else {
                                "a string holding a number; a number is wanted"
                            };
                        let from = std::mem::replace(v, to.clone());
                        self.record(path, from, Some(to), reason);
                        return;
                    }
                }
            }
            if wants("boolean") {
                let b = if trimmed.eq_ignore_ascii_case("true") {
                    Some(true)
                } else if trimmed.eq_ignore_ascii_case("false") {
                    Some(false)
                } else {
                    None
                };
                if let Some(b) = b {
                    let from = std::mem::replace(v, Value::Bool(b));
                    self.record(
                        path,
                        from,
                        Some(Value::Bool(b)),
                        "a string holding a boolean; a boolean is wanted",
                    );
                    return;
                }
            }
        }
        if wants("array")
            && !v.is_array()
            && !v.is_null()
            && !ty.is_some_and(|t| type_matches(t, v))
        {
            let from = deep_clone(v);
            let inner = std::mem::take(v);
            *v = Value::Array(vec![inner]);
            let to = deep_clone(v);
            self.record(path, from, Some(to), "a single value; an array is wanted");
        }
    }

    /// `80.0` → `80` where the schema wants an integer (and not any number).
    fn integer(&mut self, k: &Keywords<'s>, v: &mut Value, path: &Path<'_>) {
        let Value::Number(n) = &*v else { return };
        if n.is_i64() || n.is_u64() {
            return;
        }
        let wanted = match k.ty {
            Some(Value::String(t)) => t == "integer",
            Some(Value::Array(ts)) => {
                ts.iter().any(|t| t == "integer") && !ts.iter().any(|t| t == "number")
            }
            None => k
                .enumeration
                .is_some_and(|vals| self.ev.enum_of_integers(vals)),
            _ => false,
        };
        if !wanted {
            return;
        }
        if let Some(to) = integral(n) {
            let from = std::mem::replace(v, to.clone());
            self.record(
                path,
                from,
                Some(to),
                "a number with no fraction; an integer is wanted",
            );
        }
    }

    fn members(
        &mut self,
        k: &Keywords<'s>,
        base: &Rc<str>,
        v: &mut Value,
        path: &Path<'_>,
        depth: usize,
        valid: bool,
    ) {
        let Value::Object(props) = v else { return };
        let required = k.required.unwrap_or_default();
        // looked up once per null member, not scanned each time
        let mut required_set: Option<std::collections::HashSet<&str>> = None;
        let mut absent: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let declared = k.properties;
        if let Some(declared) = declared {
            if !self.ev.charge_items(declared.len()) {
                return;
            }
            for (name, sub) in declared {
                let Some(x) = props.get_mut(name) else {
                    continue;
                };
                let p = path.key(name);
                if x.is_null()
                    && !valid
                    && !required_set
                        .get_or_insert_with(|| required.iter().filter_map(Value::as_str).collect())
                        .contains(name.as_str())
                    && !self.ev.is_valid(sub, base, &Value::Null, depth + 1)
                {
                    absent.insert(name.as_str());
                    self.record(
                        &p,
                        Value::Null,
                        None,
                        "null for an optional property means it is absent",
                    );
                    continue;
                }
                self.coerce(sub, base, x, &p, depth + 1, valid.then_some(true));
            }
        }
        if !absent.is_empty() {
            // one pass: removing members one by one from an ordered map
            // moves the rest each time
            props.retain(|name, _| !absent.contains(name.as_str()));
        }
        let patterns: Vec<(&'s str, &'s Value)> = k
            .pattern_properties
            .map(|pp| pp.iter().map(|(p, s)| (p.as_str(), s)).collect())
            .unwrap_or_default();
        let additional = match k.additional_properties {
            Some(s @ Value::Object(_)) => Some(s),
            _ => None,
        };
        if patterns.is_empty() && additional.is_none() {
            return;
        }
        let keys: Vec<String> = props.keys().cloned().collect();
        for name in &keys {
            let mut matched = declared.is_some_and(|d| d.contains_key(name));
            let p = path.key(name);
            for (pattern, sub) in &patterns {
                if self.ev.matches(pattern, name) == Some(true) {
                    matched = true;
                    if let Some(x) = props.get_mut(name) {
                        self.coerce(sub, base, x, &p, depth + 1, valid.then_some(true));
                    }
                }
            }
            if let (false, Some(sub), Some(x)) = (matched, additional, props.get_mut(name)) {
                self.coerce(sub, base, x, &p, depth + 1, valid.then_some(true));
            }
        }
    }

    fn items(
        &mut self,
        k: &Keywords<'s>,
        base: &Rc<str>,
        v: &mut Value,
        path: &Path<'_>,
        depth: usize,
        valid: bool,
    ) {
        let Value::Array(items) = v else { return };
        let (prefix, rest) = k.item_schemas();
        for (i, x) in items.iter_mut().enumerate() {
            let p = path.index(i);
            match prefix.get(i).or(rest) {
                Some(sub) => self.coerce(sub, base, x, &p, depth + 1, valid.then_some(true)),
                None => break,
            }
        }
    }
}

/// Whether coercion under the alternative `s` could make `v` valid: not
/// when `s` declares types that `v` does not have and cannot be turned
/// into (only strings change type, and any value can become an array).
fn could_fix(s: &Value, v: &Value) -> bool {
    let Some(t) = s.get("type") else { return true };
    v.is_string()
        || type_matches(t, v)
        || match t {
            Value::String(name) => name == "array",
            Value::Array(names) => names.iter().any(|n| n == "array"),
            _ => true,
        }
}

/// Whether `v` holds a number stored as a float (without recursion).
fn has_float(v: &Value) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if n.is_f64() => return true,
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    false
}

/// The declared non-string `enum` (or `const`) value that `text` spells:
/// `"2"` for `2`, `"true"` / `"TRUE"` for `true`, `"[1,2]"` for `[1, 2]`.
/// A text spells one value at most (a boolean, `null`, a number, or an
/// array or object in JSON), looked up as any value is (a long enum
/// through its table, not value by value).
fn enum_value<'s>(ev: &mut Evaluator<'s>, k: &Keywords<'s>, text: &str) -> Option<Value> {
    let values: &'s [Value] = match (k.enumeration, k.constant) {
        (Some(vals), _) => vals,
        (None, Some(c)) => std::slice::from_ref(c),
        _ => return None,
    };
    let t = text.trim();
    let spelt = if t.eq_ignore_ascii_case("true") || t.eq_ignore_ascii_case("false") {
        Value::Bool(t.len() == 4)
    } else if t.eq_ignore_ascii_case("null") {
        Value::Null
    } else if let Some(n) = parse_number(t) {
        Value::Number(n)
    } else if t.starts_with(['[', '{']) {
        serde_json::from_str::<Value>(t).ok()?
    } else {
        return None;
    };
    let place = ev.enum_place(values, &spelt)?;
    values.get(place).map(deep_clone)
}

/// A JSON number written in a string (`"21"`, `" 21.5 "`, `"1e3"`).
fn parse_number(t: &str) -> Option<Number> {
    // a JSON number starts with a digit or a minus (no parser run for words)
    if t.len() > 64 || !matches!(t.as_bytes().first(), Some(b'-' | b'0'..=b'9')) {
        return None;
    }
    match serde_json::from_str::<Value>(t) {
        Ok(Value::Number(n)) => Some(n),
        _ => None,
    }
}

/// The number as an integer value, when it has no fraction and fits.
fn integral(n: &Number) -> Option<Value> {
    if n.is_i64() || n.is_u64() {
        return Some(Value::Number(n.clone()));
    }
    let f = n.as_f64()?;
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
        Some(Value::from(f as i64))
    } else if (0.0..18_446_744_073_709_551_616.0).contains(&f) {
        Some(Value::from(f as u64))
    } else {
        None
    }
}
