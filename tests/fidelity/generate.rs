//! Arguments valid for a tool's ORIGINAL input schema, drawn at random
//! (seeded, so every run draws the same): a value is built from the schema
//! (types, enums, consts, bounds, formats, patterns, properties, other keys,
//! unions, `$ref`, `allOf`), then kept only if the project's validator
//! accepts it without coercion.

use mcp_switchboard::validate;
use serde_json::{json, Map, Number, Value};

/// A small seeded generator (splitmix64).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'v, T>(&mut self, items: &'v [T]) -> Option<&'v T> {
        let i = self.below(items.len());
        items.get(i)
    }
}

/// FNV-1a of a text, for seeds.
pub fn seed_of(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// How many properties the objects of one draw carry.
#[derive(Clone, Copy)]
pub enum Fill {
    /// Only the required ones.
    Least,
    /// Each optional one by a coin toss.
    Some,
    /// Every declared one, and other keys where the schema names them.
    Most,
}

struct Gen<'a> {
    root: &'a Value,
    rng: Rng,
    fill: Fill,
    /// Still at the arguments object itself: "any value" there is an
    /// object with no keys (other keys only where the schema names them).
    top: bool,
}

/// Up to `want` distinct argument sets valid for `schema`, from at most
/// `tries` draws.
pub fn arguments(schema: &Value, seed: u64, want: usize, tries: usize) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut g = Gen {
        root: schema,
        rng: Rng::new(seed),
        fill: Fill::Least,
        top: true,
    };
    for i in 0..tries {
        if out.len() >= want {
            break;
        }
        g.top = true;
        g.fill = match i % 3 {
            0 => Fill::Least,
            1 => Fill::Most,
            _ => Fill::Some,
        };
        let Some(v) = g.value(schema, 0) else {
            continue;
        };
        if !v.is_object() || out.contains(&v) {
            continue;
        }
        if validate(schema, &v).is_empty() {
            out.push(v);
        }
    }
    out
}

/// The deepest a draw goes; deeper optional parts are left out.
const DEPTH: usize = 7;

/// Keys merged from one schema into another when they meet (`allOf`, a
/// union's branch with its parent, `$ref` with siblings).
fn meet(into: &mut Map<String, Value>, from: &Map<String, Value>) {
    for (k, v) in from {
        match (k.as_str(), into.get_mut(k)) {
            ("properties", Some(Value::Object(p))) => {
                if let Value::Object(q) = v {
                    for (name, s) in q {
                        p.entry(name.clone()).or_insert_with(|| s.clone());
                    }
                }
            }
            ("required", Some(Value::Array(r))) => {
                if let Value::Array(q) = v {
                    for n in q {
                        if !r.contains(n) {
                            r.push(n.clone());
                        }
                    }
                }
            }
            ("type", Some(t)) => {
                // a value must have both: keep the common types
                let mine = types(t);
                let theirs = types(v);
                let both: Vec<Value> = mine
                    .iter()
                    .filter(|m| {
                        theirs
                            .iter()
                            .any(|x| x == *m || (*x == "number" && **m == "integer"))
                    })
                    .chain(
                        theirs
                            .iter()
                            .filter(|x| **x == "integer" && mine.contains(&"number")),
                    )
                    .map(|s| Value::String((*s).into()))
                    .collect();
                *t = Value::Array(both);
            }
            (_, Some(_)) => {}
            (_, None) => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

fn types(t: &Value) -> Vec<&str> {
    match t {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn resolve<'v>(root: &'v Value, reference: &str) -> Option<&'v Value> {
    let p = reference.strip_prefix('#')?;
    let p = p.replace("%25", "%").replace("%22", "\"");
    root.pointer(&p)
}

impl Gen<'_> {
    fn value(&mut self, schema: &Value, depth: usize) -> Option<Value> {
        let m = match schema {
            Value::Bool(true) => return Some(self.anything(depth)),
            Value::Bool(false) => return None,
            Value::Object(m) => m,
            _ => return Some(self.anything(depth)),
        };
        if depth > DEPTH + 6 {
            return None;
        }
        let mut m = m.clone();
        // $ref: the definition, with the siblings
        for _ in 0..8 {
            let Some(Value::String(r)) = m.shift_remove("$ref") else {
                break;
            };
            let Some(Value::Object(t)) = resolve(self.root, &r) else {
                return Some(self.anything(depth));
            };
            meet(&mut m, t);
        }
        if let Some(Value::Array(all)) = m.shift_remove("allOf") {
            for b in &all {
                match b {
                    Value::Object(b) => {
                        let mut b = b.clone();
                        if let Some(Value::String(r)) = b.shift_remove("$ref") {
                            if let Some(Value::Object(t)) = resolve(self.root, &r) {
                                meet(&mut b, t);
                            }
                        }
                        meet(&mut m, &b);
                    }
                    Value::Bool(false) => return None,
                    _ => {}
                }
            }
            return self.value(&Value::Object(m), depth + 1);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = m.shift_remove(key) {
                let b = self.rng.pick(&branches)?.clone();
                let mut merged = m.clone();
                merged.shift_remove(if key == "anyOf" { "oneOf" } else { "anyOf" });
                let b = match b {
                    Value::Object(b) => b,
                    Value::Bool(true) => Map::new(),
                    _ => return None,
                };
                // the branch's own words first, then the parent's
                let mut out = b;
                meet(&mut out, &merged);
                if let Some(other) = m.get(if key == "anyOf" { "oneOf" } else { "anyOf" }) {
                    out.insert(
                        if key == "anyOf" { "oneOf" } else { "anyOf" }.into(),
                        other.clone(),
                    );
                }
                return self.value(&Value::Object(out), depth + 1);
            }
        }
        if let Some(c) = m.get("const") {
            return Some(c.clone());
        }
        if let Some(Value::Array(values)) = m.get("enum") {
            return self.rng.pick(values).cloned();
        }
        let listed = match m.get("type") {
            Some(t) => types(t).into_iter().map(str::to_owned).collect(),
            None => implied(&m),
        };
        let ty = match listed.as_slice() {
            [] if m.get("type").is_some() => return None,
            [] => return Some(self.anything(depth)),
            ts => self.rng.pick(ts)?.clone(),
        };
        match ty.as_str() {
            "null" => Some(Value::Null),
            "boolean" => Some(Value::Bool(self.rng.chance(50))),
            "integer" => self.integer(&m),
            "number" => self.number(&m),
            "string" => self.string(&m),
            "array" => self.array(&m, depth),
            "object" => self.object(&m, depth),
            _ => None,
        }
    }

    /// Any JSON value, small.
    fn anything(&mut self, depth: usize) -> Value {
        if self.top {
            return json!({});
        }
        let deep = depth > DEPTH;
        match self.rng.below(if deep { 5 } else { 8 }) {
            0 => Value::Null,
            1 => Value::Bool(self.rng.chance(50)),
            2 => json!(self.rng.below(100)),
            3 => json!(self.rng.below(1000) as f64 / 8.0),
            4 => Value::String(self.text()),
            5 => json!([self.text(), self.rng.below(9)]),
            6 => json!({"k": self.text()}),
            _ => json!([{"id": self.rng.below(9)}]),
        }
    }

    /// Short text, sometimes one that looks like something else.
    fn text(&mut self) -> String {
        const WORDS: &[&str] = &[
            "kitchen",
            "light.living_room",
            "Living Room",
            "42",
            "true",
            "null",
            "{\"a\": 1}",
            "[1, 2]",
            "",
            "héllo wörld",
            "a,b",
        ];
        self.rng
            .pick(WORDS)
            .map(|w| (*w).to_string())
            .unwrap_or_default()
    }

    fn integer(&mut self, m: &Map<String, Value>) -> Option<Value> {
        let (lo, hi) = bounds(m, true)?;
        let (lo, hi) = (lo.ceil() as i64, hi.floor() as i64);
        if lo > hi {
            return None;
        }
        let step = multiple_of(m);
        for _ in 0..8 {
            let span = (hi - lo).clamp(0, 1_000) as usize;
            let mut n = lo.saturating_add(self.rng.below(span + 1) as i64);
            if let Some(s) = step {
                n = ((n as f64 / s).round() * s) as i64;
            }
            if n >= lo && n <= hi {
                return Some(json!(n));
            }
        }
        None
    }

    fn number(&mut self, m: &Map<String, Value>) -> Option<Value> {
        let (lo, hi) = bounds(m, false)?;
        if lo > hi {
            return None;
        }
        let step = multiple_of(m);
        for _ in 0..8 {
            let frac = self.rng.below(1001) as f64 / 1000.0;
            let mut x = lo + (hi - lo).min(1_000.0) * frac;
            if let Some(s) = step {
                x = (x / s).round() * s;
            } else if self.rng.chance(50) {
                x = x.round();
            }
            // as a model writes numbers: a few decimals
            x = format!("{x:.3}").parse().unwrap_or(x);
            let excl_lo = m.get("exclusiveMinimum").and_then(Value::as_f64);
            let excl_hi = m.get("exclusiveMaximum").and_then(Value::as_f64);
            if x >= lo && x <= hi && excl_lo.is_none_or(|e| x > e) && excl_hi.is_none_or(|e| x < e)
            {
                return Number::from_f64(x).map(Value::Number);
            }
        }
        None
    }

    fn string(&mut self, m: &Map<String, Value>) -> Option<Value> {
        let lo = m.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let hi = m
            .get("maxLength")
            .and_then(Value::as_u64)
            .map(|h| h as usize);
        let fits = |s: &str| {
            let n = s.chars().count();
            n >= lo && hi.is_none_or(|h| n <= h)
        };
        if let Some(f) = m.get("format").and_then(Value::as_str) {
            if let Some(s) = format_sample(f, self.rng.below(3)) {
                return fits(&s).then(|| Value::String(s));
            }
        }
        if let Some(p) = m.get("pattern").and_then(Value::as_str) {
            for _ in 0..6 {
                if let Some(s) = from_regex(p, &mut self.rng) {
                    if fits(&s) {
                        return Some(Value::String(s));
                    }
                }
            }
            return None;
        }
        let t = self.text();
        if fits(&t) {
            return Some(Value::String(t));
        }
        let n = lo.max(hi.map_or(lo, |h| h.min(lo + 3)));
        Some(Value::String("x".repeat(n)))
    }

    fn array(&mut self, m: &Map<String, Value>, depth: usize) -> Option<Value> {
        self.top = false;
        let lo = m.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let hi = m
            .get("maxItems")
            .and_then(Value::as_u64)
            .map(|h| h as usize)
            .unwrap_or(lo + 3);
        if lo > hi {
            return None;
        }
        let prefix: Vec<Value> = match m
            .get("prefixItems")
            .or_else(|| m.get("items").filter(|i| i.is_array()))
        {
            Some(Value::Array(p)) => p.clone(),
            _ => Vec::new(),
        };
        let rest = m
            .get("items")
            .filter(|i| !i.is_array())
            .cloned()
            .unwrap_or(Value::Bool(true));
        let mut n = lo + self.rng.below(hi.saturating_sub(lo).min(3) + 1);
        if depth > DEPTH {
            n = lo;
        }
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let s = prefix.get(i).unwrap_or(&rest);
            let v = self.value(s, depth + 1)?;
            if m.get("uniqueItems") == Some(&Value::Bool(true)) && out.contains(&v) {
                continue;
            }
            out.push(v);
        }
        Some(Value::Array(out))
    }

    fn object(&mut self, m: &Map<String, Value>, depth: usize) -> Option<Value> {
        self.top = false;
        let props = m
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let required: Vec<String> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let mut out = Map::new();
        for (name, s) in &props {
            let wanted = required.contains(name)
                || (depth <= DEPTH
                    && match self.fill {
                        Fill::Least => false,
                        Fill::Some => self.rng.chance(50),
                        Fill::Most => true,
                    });
            if !wanted {
                continue;
            }
            match self.value(s, depth + 1) {
                Some(v) => {
                    out.insert(name.clone(), v);
                }
                None if required.contains(name) => return None,
                None => {}
            }
        }
        for name in &required {
            if !out.contains_key(name) {
                // required but not declared: what other keys take
                let s = m
                    .get("additionalProperties")
                    .cloned()
                    .unwrap_or(Value::Bool(true));
                out.insert(name.clone(), self.value(&s, depth + 1)?);
            }
        }
        // other keys, where the schema says they are welcome
        let more = !matches!(self.fill, Fill::Least) && depth <= DEPTH;
        if let (true, Some(Value::Object(pp))) = (more, m.get("patternProperties")) {
            for (p, s) in pp {
                if let Some(k) = from_regex(p, &mut self.rng) {
                    if !out.contains_key(&k) && self.rng.chance(60) {
                        if let Some(v) = self.value(s, depth + 1) {
                            out.insert(k, v);
                        }
                    }
                }
            }
        }
        let additional = m.get("additionalProperties");
        let open = matches!(additional, Some(Value::Bool(true) | Value::Object(_)));
        let least = m.get("minProperties").and_then(Value::as_u64).unwrap_or(0) as usize;
        let extra = if open && more && self.rng.chance(70) {
            1 + self.rng.below(2)
        } else {
            0
        };
        let extra = extra.max(least.saturating_sub(out.len()));
        for i in 0..extra {
            let s = match additional {
                Some(s @ Value::Object(_)) => s.clone(),
                _ if open || least > 0 => Value::Bool(true),
                _ => break,
            };
            let key = match m
                .get("propertyNames")
                .and_then(|n| n.get("pattern"))
                .and_then(Value::as_str)
            {
                Some(p) => from_regex(p, &mut self.rng)?,
                None => format!("extra_{i}"),
            };
            if out.contains_key(&key) || props.contains_key(&key) {
                continue;
            }
            out.insert(key, self.value(&s, depth + 1)?);
        }
        if let Some(Value::Object(deps)) = m.get("dependentRequired") {
            for (k, names) in deps {
                if out.contains_key(k) {
                    for n in names
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                    {
                        if !out.contains_key(n) {
                            let s = props.get(n).cloned().unwrap_or(Value::Bool(true));
                            out.insert(n.to_string(), self.value(&s, depth + 1)?);
                        }
                    }
                }
            }
        }
        Some(Value::Object(out))
    }
}

/// The `multipleOf` a number must keep, when there is a usable one.
fn multiple_of(m: &Map<String, Value>) -> Option<f64> {
    m.get("multipleOf")
        .and_then(Value::as_f64)
        .filter(|s| *s > 0.0)
}

/// The inclusive range a number must fall in (exclusive bounds moved in
/// a little), centred on small values when open.
fn bounds(m: &Map<String, Value>, integer: bool) -> Option<(f64, f64)> {
    let nudge = if integer { 1.0 } else { 0.001 };
    let mut lo = m.get("minimum").and_then(Value::as_f64);
    let mut hi = m.get("maximum").and_then(Value::as_f64);
    match m.get("exclusiveMinimum") {
        Some(Value::Number(n)) => {
            let e = n.as_f64()? + nudge;
            lo = Some(lo.map_or(e, |l| l.max(e)));
        }
        Some(Value::Bool(true)) => lo = lo.map(|l| l + nudge),
        _ => {}
    }
    match m.get("exclusiveMaximum") {
        Some(Value::Number(n)) => {
            let e = n.as_f64()? - nudge;
            hi = Some(hi.map_or(e, |h| h.min(e)));
        }
        Some(Value::Bool(true)) => hi = hi.map(|h| h - nudge),
        _ => {}
    }
    Some(match (lo, hi) {
        (Some(l), Some(h)) => (l, h),
        (Some(l), None) => (l, l + 100.0),
        (None, Some(h)) => (h - 100.0, h),
        (None, None) => (-5.0, 120.0),
    })
}

/// The type the keywords imply, when there is no `type`.
fn implied(m: &Map<String, Value>) -> Vec<String> {
    let has = |ks: &[&str]| ks.iter().any(|k| m.contains_key(*k));
    let t = if has(&[
        "properties",
        "additionalProperties",
        "patternProperties",
        "required",
        "minProperties",
        "maxProperties",
        "propertyNames",
        "dependentRequired",
    ]) {
        "object"
    } else if has(&[
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
    ]) {
        "array"
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        "string"
    } else if has(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]) {
        "number"
    } else {
        return Vec::new();
    };
    vec![t.to_string()]
}

/// A value of a `format`, in one of a few spellings.
fn format_sample(format: &str, variant: usize) -> Option<String> {
    let pick = |options: &[&str]| {
        options
            .get(variant % options.len())
            .map(|s| (*s).to_string())
    };
    match format {
        "date-time" => pick(&[
            "2025-01-31T13:45:00Z",
            "2025-06-01T08:00:00+02:00",
            "2024-02-29T23:59:59.5Z",
        ]),
        "date" => pick(&["2025-01-31", "2024-02-29"]),
        "time" => pick(&["13:45:00Z", "08:00:00+02:00"]),
        "duration" => pick(&["PT15M", "P1D"]),
        "email" | "idn-email" => pick(&["someone@example.com", "a.b@home.arpa"]),
        "uri" | "url" | "iri" => pick(&[
            "https://example.com/a?b=1",
            "http://homeassistant.local:8123/",
        ]),
        "uri-reference" | "iri-reference" => pick(&["/api/states", "https://example.com"]),
        "uuid" => pick(&[
            "123e4567-e89b-12d3-a456-426614174000",
            "00000000-0000-0000-0000-000000000000",
        ]),
        "ipv4" => pick(&["192.168.1.10", "10.0.0.1"]),
        "ipv6" => pick(&["::1", "fe80::1"]),
        "hostname" | "idn-hostname" => pick(&["homeassistant.local", "example.com"]),
        _ => None,
    }
}

/// A string matching a regular expression, drawn from its syntax: literals,
/// `.`, classes (`[a-z0-9_]`, `\d`, `\w`, `\s`), groups with alternatives,
/// and the quantifiers `?`, `*`, `+`, `{n,m}`. Anchors are dropped (the
/// whole string is drawn). `None` when the syntax is beyond this.
pub fn from_regex(pattern: &str, rng: &mut Rng) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let mut out = String::new();
    alternatives(&chars, &mut i, rng, &mut out, 0)?;
    (i == chars.len()).then_some(out)
}

fn alternatives(
    c: &[char],
    i: &mut usize,
    rng: &mut Rng,
    out: &mut String,
    depth: usize,
) -> Option<()> {
    if depth > 8 {
        return None;
    }
    // draw each alternative, keep one
    let mut options = vec![String::new()];
    while *i < c.len() {
        match c.get(*i)? {
            ')' => break,
            '|' => {
                *i += 1;
                options.push(String::new());
            }
            _ => {
                let last = options.last_mut()?;
                atom(c, i, rng, last, depth)?;
            }
        }
    }
    let k = rng.below(options.len());
    out.push_str(options.get(k)?);
    Some(())
}

fn atom(c: &[char], i: &mut usize, rng: &mut Rng, out: &mut String, depth: usize) -> Option<()> {
    let start = *i;
    let mut piece = String::new();
    let draw = |rng: &mut Rng, piece: &mut String, c: &[char], at: usize| -> Option<usize> {
        // draws one occurrence of the atom at `at`; returns where it ends
        let mut j = at;
        match c.get(j)? {
            '^' | '$' => {
                j += 1;
            }
            '(' => {
                j += 1;
                if c.get(j) == Some(&'?') {
                    // (?:...)
                    j += 2;
                }
                alternatives(c, &mut j, rng, piece, depth + 1)?;
                if c.get(j)? != &')' {
                    return None;
                }
                j += 1;
            }
            '[' => {
                j += 1;
                let negate = c.get(j) == Some(&'^');
                if negate {
                    j += 1;
                }
                let mut set: Vec<char> = Vec::new();
                let mut first = true;
                while c.get(j)? != &']' || first {
                    first = false;
                    let a = match c.get(j)? {
                        '\\' => {
                            j += 1;
                            let e = *c.get(j)?;
                            set.extend(class(e)?);
                            j += 1;
                            continue;
                        }
                        x => *x,
                    };
                    if c.get(j + 1) == Some(&'-') && c.get(j + 2).is_some_and(|x| *x != ']') {
                        let b = *c.get(j + 2)?;
                        set.extend((a..=b).take(200));
                        j += 3;
                    } else {
                        set.push(a);
                        j += 1;
                    }
                }
                j += 1;
                if negate {
                    let candidates: Vec<char> =
                        "aZ0_-. x".chars().filter(|x| !set.contains(x)).collect();
                    piece.push(*rng.pick(&candidates)?);
                } else {
                    piece.push(*rng.pick(&set)?);
                }
            }
            '\\' => {
                j += 1;
                let e = *c.get(j)?;
                match class(e) {
                    Some(set) => piece.push(*rng.pick(&set)?),
                    None => piece.push(e),
                }
                j += 1;
            }
            '.' => {
                piece.push(*rng.pick(&['a', 'Z', '3', '_', ' '])?);
                j += 1;
            }
            '*' | '+' | '?' | '{' | ')' | '|' => return None,
            x => {
                piece.push(*x);
                j += 1;
            }
        }
        Some(j)
    };
    let end = draw(rng, &mut piece, c, start)?;
    // a quantifier after the atom
    let (lo, hi, after) = match c.get(end) {
        Some('?') => (0, 1, end + 1),
        Some('*') => (0, 3, end + 1),
        Some('+') => (1, 3, end + 1),
        Some('{') => {
            let close = (end..c.len()).find(|&k| c.get(k) == Some(&'}'))?;
            let inner: String = c.get(end + 1..close)?.iter().collect();
            let (a, b) = match inner.split_once(',') {
                Some((a, "")) => (a.trim().parse().ok()?, a.trim().parse::<usize>().ok()? + 2),
                Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
                None => {
                    let n = inner.trim().parse().ok()?;
                    (n, n)
                }
            };
            (a, b, close + 1)
        }
        _ => (1, 1, end),
    };
    // a lazy or possessive mark
    let after = if matches!(c.get(after), Some('?' | '+')) && after != end {
        after + 1
    } else {
        after
    };
    let times = lo + rng.below(hi.saturating_sub(lo).min(4) + 1);
    if times > 0 {
        out.push_str(&piece);
        for _ in 1..times {
            let mut again = String::new();
            draw(rng, &mut again, c, start)?;
            out.push_str(&again);
        }
    }
    *i = after;
    Some(())
}

/// The characters an escape class stands for.
fn class(e: char) -> Option<Vec<char>> {
    Some(match e {
        'd' => "0123456789".chars().collect(),
        'w' => "abcXYZ019_".chars().collect(),
        's' => vec![' '],
        'D' => "abc-".chars().collect(),
        'W' => "-. ".chars().collect(),
        'S' => "aZ9".chars().collect(),
        _ => return None,
    })
}
