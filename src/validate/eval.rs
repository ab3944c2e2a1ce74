//! The JSON Schema 2020-12 evaluator. It walks schema and instance
//! together, with the recursion bounded by [`MAX_DEPTH`], `$ref` loops cut
//! when the same schema meets the same instance again on the way down, and
//! the total work bounded by a step budget. It either collects every
//! problem (with messages) or stops at the first one (for quick checks).

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::hash::BuildHasher;
use std::rc::Rc;

use regex_lite::Regex;
use serde_json::{Map, Value};

use super::keywords::Keywords;
use super::refs::{addr, Index};
use super::value::{
    cmp_numbers, count_limit, is_integer, is_multiple, json_eq, json_hash, str_hash, Path,
};
use super::{format, regex, words, ArgumentError};

/// Nested schema evaluations followed before giving up on a branch.
pub(crate) const MAX_DEPTH: usize = 96;

/// Schema evaluations allowed for one pass over any value...
const BASE_BUDGET: u64 = 500_000;
/// ...and more for each JSON value in it: the work may grow with the
/// input, but not explode with the schema (`allOf` of two references to a
/// definition that does the same, 40 levels deep, is 2^40 evaluations).
const BUDGET_PER_VALUE: u64 = 64;

/// Problems kept from one pass; more are summed up in one last entry.
pub(crate) const MAX_ERRORS: usize = 1_000;

/// Work that grows with the schema or with a string is charged to the
/// step budget in these units: one step per this many schema members,
/// list entries or string bytes looked at...
const ITEMS_PER_STEP: u64 = 8;
const BYTES_PER_STEP: u64 = 256;
/// ...and one step per this many (pattern byte × text byte) pairs a
/// regular expression may visit (`regex-lite` runs in time proportional
/// to their product).
const REGEX_PAIRS_PER_STEP: u64 = 512;
/// Enums longer than this are looked up through a hash table built once
/// per schema (not compared value by value for every instance).
const ENUM_SCAN: usize = 8;

/// Whether `x` is an integer that fits 64 bits.
fn is_integer_value(x: &Value) -> bool {
    x.as_i64().is_some() || x.as_u64().is_some()
}

/// A long enum read once: the places of its values by their hash, and
/// whether every value is an integer, or a string.
struct EnumTable {
    places: HashMap<u64, Vec<usize>>,
    integers: bool,
    strings: bool,
}

/// Where problems go.
pub(crate) struct Sink {
    /// Collect every problem with a message (`true`), or stop at the first
    /// one without building messages (`false`).
    pub(crate) collect: bool,
    pub(crate) errors: Vec<ArgumentError>,
    pub(crate) dropped: usize,
    /// Hashes of the problems kept, to keep each only once (a definition
    /// reached on two ways reports the same problem twice).
    seen: HashSet<u64>,
}

impl Sink {
    pub(crate) fn collecting() -> Self {
        Sink {
            collect: true,
            errors: Vec::new(),
            dropped: 0,
            seen: HashSet::new(),
        }
    }

    fn quick() -> Self {
        Sink {
            collect: false,
            errors: Vec::new(),
            dropped: 0,
            seen: HashSet::new(),
        }
    }

    fn push(&mut self, path: &Path<'_>, keyword: &str, message: String) {
        self.push_at(path.render(), keyword, message);
    }

    fn push_at(&mut self, pointer: String, keyword: &str, message: String) {
        let h = foldhash::fast::FixedState::with_seed(0).hash_one((&pointer, keyword, &message));
        if !self.seen.insert(h) {
            return;
        }
        if self.errors.len() >= MAX_ERRORS && keyword != "limit" {
            self.dropped += 1;
            return;
        }
        self.errors.push(ArgumentError {
            pointer,
            keyword: keyword.to_string(),
            message,
        });
    }
}

/// Where in the schema and the instance an evaluation stands.
pub(crate) struct At<'s, 'a> {
    /// The schema object.
    s: &'s Value,
    m: &'s Map<String, Value>,
    /// Its base URI.
    base: &'a Rc<str>,
    /// The instance location.
    path: &'a Path<'a>,
    depth: usize,
}

/// One schema document, ready to validate instances against.
pub(crate) struct Evaluator<'s> {
    pub(crate) root: &'s Value,
    pub(crate) index: Index<'s>,
    regexes: HashMap<&'s str, Option<Regex>>,
    /// The keywords of each schema object met, by address: read once, not
    /// on every value checked against it.
    keywords: HashMap<usize, Rc<Keywords<'s>>>,
    refs: HashMap<usize, Option<(&'s Value, Rc<str>)>>,
    /// What each schema object that failed wants, in words, by address
    /// (with the base it was described under): described once, not on
    /// every failure.
    wanted: HashMap<usize, (Rc<str>, Rc<str>)>,
    /// Long enums met so far, by address (a schema may have one on each
    /// of thousands of members).
    enums: HashMap<usize, EnumTable>,
    /// `(schema, instance)` pairs entered through a reference and not yet
    /// left: meeting one again is a loop.
    active: Vec<(usize, usize)>,
    steps: u64,
    budget: u64,
    pub(crate) exhausted: bool,
    reported_exhausted: bool,
}

/// Keeps going after a failed check when collecting; returns `false` at
/// once otherwise.
macro_rules! check {
    ($ok:ident, $sink:ident, $e:expr) => {
        if !$e {
            $ok = false;
            if !$sink.collect {
                return false;
            }
        }
    };
}

impl<'s> Evaluator<'s> {
    pub(crate) fn new(root: &'s Value) -> Self {
        Evaluator {
            root,
            index: Index::new(root),
            regexes: HashMap::new(),
            keywords: HashMap::new(),
            refs: HashMap::new(),
            wanted: HashMap::new(),
            enums: HashMap::new(),
            active: Vec::new(),
            steps: 0,
            budget: BASE_BUDGET,
            exhausted: false,
            reported_exhausted: false,
        }
    }

    /// A fresh step budget for one pass over `v`.
    pub(crate) fn reset_budget(&mut self, v: &Value) {
        self.reset_budget_to(count_values(v));
    }

    /// A fresh step budget for one pass over `values` JSON values (or
    /// fewer).
    pub(crate) fn reset_budget_to(&mut self, values: u64) {
        self.budget = BASE_BUDGET.saturating_add(values.saturating_mul(BUDGET_PER_VALUE));
        self.steps = 0;
        self.exhausted = false;
        self.reported_exhausted = false;
    }

    /// Every problem with `v` against the whole schema.
    pub(crate) fn validate(&mut self, v: &Value) -> Vec<ArgumentError> {
        self.reset_budget(v);
        let mut sink = Sink::collecting();
        let base = self.index.root_base.clone();
        self.eval(self.root, &base, v, &Path::ROOT, 0, &mut sink);
        if self.exhausted && !self.reported_exhausted {
            // the budget ran out inside a keyword (a regular expression on
            // a long string): the value was not checked completely
            self.reported_exhausted = true;
            sink.push_at(String::new(), "limit", self.limit_message());
        }
        if sink.dropped > 0 {
            let n = sink.dropped;
            sink.errors.push(ArgumentError {
                pointer: String::new(),
                keyword: "limit".into(),
                message: format!("{n} more problem(s) not listed"),
            });
        }
        sink.errors
    }

    /// Whether `v` is valid against the subschema `s`, stopping at the first
    /// problem.
    pub(crate) fn is_valid(
        &mut self,
        s: &'s Value,
        base: &Rc<str>,
        v: &Value,
        depth: usize,
    ) -> bool {
        self.eval(s, base, v, &Path::ROOT, depth, &mut Sink::quick())
    }

    /// The problems of `v` against `s`, reported at `path`.
    pub(crate) fn errors_of(
        &mut self,
        s: &'s Value,
        base: &Rc<str>,
        v: &Value,
        path: &Path<'_>,
        depth: usize,
    ) -> Vec<ArgumentError> {
        let mut sink = Sink::collecting();
        self.eval(s, base, v, path, depth, &mut sink);
        sink.errors
    }

    /// The base URI in force inside `s`.
    pub(crate) fn base_of(&self, s: &Value, base: &Rc<str>) -> Rc<str> {
        match self.index.id_base(s) {
            Some(b) => b.clone(),
            None => base.clone(),
        }
    }

    /// The keywords of the schema object `m` (which is `s`), cached by node.
    pub(crate) fn keywords(&mut self, s: &'s Value, m: &'s Map<String, Value>) -> Rc<Keywords<'s>> {
        self.keywords
            .entry(addr(s))
            .or_insert_with(|| Rc::new(Keywords::of(m)))
            .clone()
    }

    /// What the schema object at `at` wants, in words, cached by node.
    fn wanted(&mut self, at: &At<'s, '_>) -> Rc<str> {
        self.wanted_of(at.s, at.m, at.base)
    }

    /// What the schema object `s` (whose members are `m`) wants, in words,
    /// under the base `base`, cached by node.
    pub(crate) fn wanted_of(
        &mut self,
        s: &'s Value,
        m: &Map<String, Value>,
        base: &Rc<str>,
    ) -> Rc<str> {
        let key = addr(s);
        if let Some((b, wanted)) = self.wanted.get(&key) {
            if **b == **base {
                return wanted.clone();
            }
        }
        let wanted: Rc<str> = words::wanted(&self.index, base, m).into();
        self.wanted.insert(key, (base.clone(), wanted.clone()));
        wanted
    }

    /// Where `$ref` in the schema node `holder` points, cached by node.
    pub(crate) fn target(
        &mut self,
        holder: &'s Value,
        reference: &str,
        base: &str,
    ) -> Option<(&'s Value, Rc<str>)> {
        let key = addr(holder) ^ reference.len().rotate_left(48);
        if let Some(hit) = self.refs.get(&key) {
            return hit.clone();
        }
        let hit = self.index.resolve(base, reference);
        self.refs.insert(key, hit.clone());
        hit
    }

    /// Runs `f` with `(target, instance)` marked as entered; `None` when it
    /// already is (a loop, which adds no constraint).
    pub(crate) fn enter<T>(
        &mut self,
        target: &Value,
        v: &Value,
        f: impl FnOnce(&mut Self) -> T,
    ) -> Option<T> {
        let key = (addr(target), v as *const Value as usize);
        if self.active.contains(&key) {
            return None;
        }
        self.active.push(key);
        let out = f(self);
        self.active.pop();
        Some(out)
    }

    /// Whether the pattern matches; `None` when the pattern cannot be run,
    /// or when running it on `s` would pass the step budget (the budget is
    /// then spent, and the validation says it could not finish).
    pub(crate) fn matches(&mut self, pattern: &'s str, s: &str) -> Option<bool> {
        let pairs = (pattern.len() as u64).saturating_mul(s.len() as u64);
        if !self.charge(1 + pairs / REGEX_PAIRS_PER_STEP) {
            return None;
        }
        self.regexes
            .entry(pattern)
            .or_insert_with(|| regex::compile(pattern))
            .as_ref()
            .map(|r| r.is_match(s))
    }

    fn limit_message(&self) -> String {
        format!(
            "could not be checked completely: the schema takes more than {} steps for these arguments",
            self.budget
        )
    }

    /// Counts one step; `false` once the budget is spent.
    pub(crate) fn tick(&mut self) -> bool {
        self.charge(1)
    }

    /// Counts `steps` steps; `false` once the budget is spent.
    pub(crate) fn charge(&mut self, steps: u64) -> bool {
        self.steps = self.steps.saturating_add(steps);
        if self.steps > self.budget {
            self.exhausted = true;
        }
        !self.exhausted
    }

    /// Charges for looking at `n` schema members or list entries.
    pub(crate) fn charge_items(&mut self, n: usize) -> bool {
        self.charge(n as u64 / ITEMS_PER_STEP)
    }

    /// Whether `v` is one of `values`: a hash lookup for long enums (the
    /// table is built once per enum, its cost charged once).
    fn in_enum(&mut self, values: &'s [Value], v: &Value) -> bool {
        self.enum_place(values, v).is_some()
    }

    /// The place in `values` of the first value equal to `v`.
    pub(crate) fn enum_place(&mut self, values: &'s [Value], v: &Value) -> Option<usize> {
        self.enum_find(values, || json_hash(v), |e| json_eq(e, v))
    }

    /// Whether the string `t` is one of `values` (no value made of it).
    pub(crate) fn in_enum_str(&mut self, values: &'s [Value], t: &str) -> bool {
        self.enum_find(values, || str_hash(t), |e| e.as_str() == Some(t))
            .is_some()
    }

    /// Whether `values` is not empty and every value is an integer (of a
    /// long enum, found once).
    pub(crate) fn enum_of_integers(&mut self, values: &'s [Value]) -> bool {
        match self.enum_table(values) {
            Some(table) => table.integers,
            None => !values.is_empty() && values.iter().all(is_integer_value),
        }
    }

    /// Whether every value of `values` is a string (of a long enum, found
    /// once).
    pub(crate) fn enum_of_strings(&mut self, values: &'s [Value]) -> bool {
        match self.enum_table(values) {
            Some(table) => table.strings,
            None => values.iter().all(Value::is_string),
        }
    }

    /// The first place in `values` whose value is `same`, the value's hash
    /// being `hash()`: compared one by one in a short enum, looked up in
    /// the table of a long one.
    fn enum_find(
        &mut self,
        values: &'s [Value],
        hash: impl FnOnce() -> u64,
        same: impl Fn(&Value) -> bool,
    ) -> Option<usize> {
        let Some(table) = self.enum_table(values) else {
            return values.iter().position(same);
        };
        table
            .places
            .get(&hash())?
            .iter()
            .copied()
            .find(|&i| values.get(i).is_some_and(&same))
    }

    /// The table of a long enum (built the first time, its cost charged
    /// then); `None` for a short one.
    fn enum_table(&mut self, values: &'s [Value]) -> Option<&EnumTable> {
        if values.len() <= ENUM_SCAN {
            return None;
        }
        let key = values.as_ptr() as usize;
        if !self.enums.contains_key(&key) {
            self.charge_items(values.len());
            let mut places: HashMap<u64, Vec<usize>> = HashMap::new();
            for (i, e) in values.iter().enumerate() {
                places.entry(json_hash(e)).or_default().push(i);
            }
            let table = EnumTable {
                places,
                integers: values.iter().all(is_integer_value),
                strings: values.iter().all(Value::is_string),
            };
            self.enums.insert(key, table);
        }
        self.enums.get(&key)
    }

    pub(crate) fn eval(
        &mut self,
        s: &'s Value,
        base: &Rc<str>,
        v: &Value,
        path: &Path<'_>,
        depth: usize,
        sink: &mut Sink,
    ) -> bool {
        if !self.tick() {
            if sink.collect && !self.reported_exhausted {
                self.reported_exhausted = true;
                sink.push_at(String::new(), "limit", self.limit_message());
            }
            return false;
        }
        if depth > MAX_DEPTH {
            if sink.collect {
                sink.push(
                    path,
                    "depth",
                    format!("nested too deeply to check (more than {MAX_DEPTH} levels)"),
                );
            }
            return false;
        }
        match s {
            Value::Bool(false) => {
                if sink.collect {
                    sink.push(path, "false", words::nothing_allowed(v));
                }
                false
            }
            Value::Object(m) => {
                // reading the keywords looks at every member of the node
                if !self.charge_items(m.len()) {
                    return false;
                }
                let k = self.keywords(s, m);
                let own;
                let base = if k.has_id {
                    own = self.base_of(s, base);
                    &own
                } else {
                    base
                };
                let at = At {
                    s,
                    m,
                    base,
                    path,
                    depth,
                };
                self.eval_map(&k, &at, v, sink)
            }
            // `true`, and anything that is not a schema, allows every value
            _ => true,
        }
    }

    fn eval_map(&mut self, k: &Keywords<'s>, at: &At<'s, '_>, v: &Value, sink: &mut Sink) -> bool {
        let mut ok = true;
        for r in [k.reference, k.dynamic_reference].into_iter().flatten() {
            check!(ok, sink, self.eval_ref(at, r, v, sink));
        }
        check!(ok, sink, self.assertions(k, at, v, sink));
        match v {
            Value::Array(items) => check!(ok, sink, self.array(k, at, items, sink)),
            Value::Object(props) => check!(ok, sink, self.object(k, at, v, props, sink)),
            _ => {}
        }
        check!(ok, sink, self.applicators(k, at, v, sink));
        ok
    }

    fn eval_ref(&mut self, at: &At<'s, '_>, reference: &str, v: &Value, sink: &mut Sink) -> bool {
        // a reference to outside this schema is not the caller's fault
        let Some((target, tbase)) = self.target(at.s, reference, at.base) else {
            return true;
        };
        let (path, depth) = (at.path, at.depth + 1);
        self.enter(target, v, |ev| {
            ev.eval(target, &tbase, v, path, depth, sink)
        })
        .unwrap_or(true)
    }

    /// Evaluates a subschema one level down.
    fn sub(
        &mut self,
        at: &At<'s, '_>,
        s: &'s Value,
        v: &Value,
        path: &Path<'_>,
        sink: &mut Sink,
    ) -> bool {
        self.eval(s, at.base, v, path, at.depth + 1, sink)
    }

    /// Whether `v` is valid against a subschema one level down.
    fn sub_valid(&mut self, at: &At<'s, '_>, s: &'s Value, v: &Value) -> bool {
        self.is_valid(s, at.base, v, at.depth + 1)
    }

    /// The keywords that look at one value: type, enum, const, the number
    /// and string keywords, format.
    fn assertions(
        &mut self,
        k: &Keywords<'s>,
        at: &At<'s, '_>,
        v: &Value,
        sink: &mut Sink,
    ) -> bool {
        let mut ok = true;
        let fail = |ev: &mut Self, sink: &mut Sink, keyword: &str| {
            if sink.collect {
                let message = words::must(&ev.wanted(at), at.m, v);
                sink.push(at.path, keyword, message);
            }
        };
        if let Some(t) = k.ty {
            if let Value::Array(names) = t {
                self.charge_items(names.len());
            }
            if !type_matches(t, v) {
                fail(self, sink, "type");
                check!(ok, sink, false);
            }
        }
        if let Some(values) = k.enumeration {
            if !self.in_enum(values, v) {
                fail(self, sink, "enum");
                check!(ok, sink, false);
            }
        }
        if let Some(c) = k.constant {
            if !json_eq(c, v) {
                fail(self, sink, "const");
                check!(ok, sink, false);
            }
        }
        match v {
            Value::Number(n) => {
                let draft4 = |x: Option<&Value>| x == Some(&Value::Bool(true));
                let checks = [
                    ("minimum", k.minimum),
                    ("maximum", k.maximum),
                    ("exclusiveMinimum", k.exclusive_minimum),
                    ("exclusiveMaximum", k.exclusive_maximum),
                    ("multipleOf", k.multiple_of),
                ];
                for (keyword, limit) in checks {
                    // draft 4 booleans: `exclusiveMaximum: true` makes `maximum` exclusive
                    let Some(Value::Number(limit)) = limit else {
                        continue;
                    };
                    let order = cmp_numbers(n, limit);
                    let good = match keyword {
                        "minimum" if draft4(k.exclusive_minimum) => {
                            order.is_some_and(|o| o.is_gt())
                        }
                        "maximum" if draft4(k.exclusive_maximum) => {
                            order.is_some_and(|o| o.is_lt())
                        }
                        "minimum" => order.is_some_and(|o| o.is_ge()),
                        "maximum" => order.is_some_and(|o| o.is_le()),
                        "exclusiveMinimum" => order.is_some_and(|o| o.is_gt()),
                        "exclusiveMaximum" => order.is_some_and(|o| o.is_lt()),
                        _ => is_multiple(n, limit),
                    };
                    if !good {
                        fail(self, sink, keyword);
                        check!(ok, sink, false);
                    }
                }
            }
            Value::String(text) => {
                let min = k.min_length.and_then(count_limit);
                let max = k.max_length.and_then(count_limit);
                let bytes = text.len() as u64;
                if k.min_length.is_some() || k.max_length.is_some() || k.format.is_some() {
                    // counting characters and checking formats read the string
                    self.charge(bytes / BYTES_PER_STEP);
                }
                // bytes bound code points from above: count only when needed
                let needs_count = min.is_some_and(|n| bytes >= n) || max.is_some_and(|n| bytes > n);
                let count = if needs_count {
                    text.chars().count() as u64
                } else {
                    bytes
                };
                let mut length_ok = true;
                if min.is_some_and(|n| count < n) {
                    fail(self, sink, "minLength");
                    length_ok = false;
                    check!(ok, sink, false);
                }
                if max.is_some_and(|n| count > n) {
                    fail(self, sink, "maxLength");
                    length_ok = false;
                    check!(ok, sink, false);
                }
                // the length message already asks for the pattern: a string
                // of the wrong length is not also searched (it may be huge)
                if let (Some(p), true) = (k.pattern, length_ok) {
                    if self.matches(p, text) == Some(false) {
                        fail(self, sink, "pattern");
                        check!(ok, sink, false);
                    }
                }
                if let Some(f) = k.format {
                    if format::check(f, text) == Some(false) {
                        fail(self, sink, "format");
                        check!(ok, sink, false);
                    }
                }
            }
            _ => {}
        }
        ok
    }

    fn array(
        &mut self,
        k: &Keywords<'s>,
        at: &At<'s, '_>,
        items: &[Value],
        sink: &mut Sink,
    ) -> bool {
        let mut ok = true;
        let len = items.len();
        let (prefix, rest) = k.item_schemas();
        for (i, item) in items.iter().enumerate() {
            let Some(sub) = prefix.get(i).or(rest) else {
                break;
            };
            let p = at.path.index(i);
            check!(ok, sink, self.sub(at, sub, item, &p, sink));
        }
        if let Some(sub) = k.contains {
            let min = k.min_contains.and_then(count_limit).unwrap_or(1);
            let max = k.max_contains.and_then(count_limit);
            let mut found: u64 = 0;
            for item in items {
                if self.sub_valid(at, sub, item) {
                    found += 1;
                    if found >= min && max.is_none() {
                        break;
                    }
                }
            }
            if found < min {
                if sink.collect {
                    let message = words::contains(&self.index, at.base, sub, min, found, true);
                    sink.push(at.path, "contains", message);
                }
                check!(ok, sink, false);
            }
            if let Some(max) = max.filter(|&x| found > x) {
                if sink.collect {
                    let message = words::contains(&self.index, at.base, sub, max, found, false);
                    sink.push(at.path, "maxContains", message);
                }
                check!(ok, sink, false);
            }
        }
        if let Some(n) = k.min_items.and_then(count_limit) {
            if (len as u64) < n {
                if sink.collect {
                    sink.push(at.path, "minItems", words::count(n, len, "item", true));
                }
                check!(ok, sink, false);
            }
        }
        if let Some(n) = k.max_items.and_then(count_limit) {
            if (len as u64) > n {
                if sink.collect {
                    sink.push(at.path, "maxItems", words::count(n, len, "item", false));
                }
                check!(ok, sink, false);
            }
        }
        if k.unique_items {
            if let Some((a, b)) = first_duplicate(items) {
                if sink.collect {
                    sink.push(
                        at.path,
                        "uniqueItems",
                        format!("items must be unique; items {a} and {b} are equal"),
                    );
                }
                check!(ok, sink, false);
            }
        }
        ok
    }

    fn object(
        &mut self,
        k: &Keywords<'s>,
        at: &At<'s, '_>,
        whole: &Value,
        props: &Map<String, Value>,
        sink: &mut Sink,
    ) -> bool {
        let mut ok = true;
        let declared = k.properties;
        if let Some(declared) = declared {
            if declared.len() <= props.len() {
                for (name, sub) in declared {
                    if let Some(x) = props.get(name) {
                        let p = at.path.key(name);
                        check!(ok, sink, self.sub(at, sub, x, &p, sink));
                    }
                }
            } else {
                for (name, x) in props {
                    if let Some(sub) = declared.get(name) {
                        let p = at.path.key(name);
                        check!(ok, sink, self.sub(at, sub, x, &p, sink));
                    }
                }
            }
        }
        let patterns: Vec<(&'s str, &'s Value)> = k
            .pattern_properties
            .map(|pp| pp.iter().map(|(p, s)| (p.as_str(), s)).collect())
            .unwrap_or_default();
        let additional = k.additional_properties;
        if !patterns.is_empty() || additional.is_some() {
            let mut unknown: Vec<&str> = Vec::new();
            for (name, x) in props {
                let mut matched = declared.is_some_and(|d| d.contains_key(name));
                for (pattern, sub) in &patterns {
                    // a pattern that cannot be run matches nothing
                    if self.matches(pattern, name) == Some(true) {
                        matched = true;
                        let p = at.path.key(name);
                        check!(ok, sink, self.sub(at, sub, x, &p, sink));
                    }
                }
                if matched {
                    continue;
                }
                match additional {
                    Some(Value::Bool(false)) => {
                        if !sink.collect {
                            return false;
                        }
                        ok = false;
                        unknown.push(name);
                    }
                    Some(sub) => {
                        let p = at.path.key(name);
                        check!(ok, sink, self.sub(at, sub, x, &p, sink));
                    }
                    None => {}
                }
            }
            if !unknown.is_empty() {
                let message = words::unknown(&unknown, declared, &patterns);
                sink.push(at.path, "additionalProperties", message);
            }
        }
        let required = k.required.unwrap_or_default();
        if !self.charge_items(required.len()) && !sink.collect {
            return false;
        }
        for name in required.iter().filter_map(Value::as_str) {
            if !props.contains_key(name) {
                if sink.collect {
                    let prop = declared.and_then(|d| d.get(name));
                    let message = words::required(&self.index, at.base, prop, None);
                    sink.push_at(at.path.key(name).render(), "required", message);
                }
                check!(ok, sink, false);
            }
        }
        for deps in [k.dependent_required, k.dependent_schemas, k.dependencies]
            .into_iter()
            .flatten()
        {
            // the smaller side is walked: the triggers, or the members
            if !self.charge_items(deps.len().min(props.len())) && !sink.collect {
                return false;
            }
            let triggered: Vec<(&String, &'s Value)> = if deps.len() <= props.len() {
                deps.iter()
                    .filter(|(t, _)| props.contains_key(*t))
                    .collect()
            } else {
                props.keys().filter_map(|t| deps.get_key_value(t)).collect()
            };
            for (trigger, dep) in triggered {
                if let Value::Array(names) = dep {
                    self.charge_items(names.len());
                    for name in names.iter().filter_map(Value::as_str) {
                        if !props.contains_key(name) {
                            if sink.collect {
                                let prop = declared.and_then(|d| d.get(name));
                                let message =
                                    words::required(&self.index, at.base, prop, Some(trigger));
                                sink.push_at(
                                    at.path.key(name).render(),
                                    "dependentRequired",
                                    message,
                                );
                            }
                            check!(ok, sink, false);
                        }
                    }
                } else {
                    check!(ok, sink, self.sub(at, dep, whole, at.path, sink));
                }
            }
        }
        if let Some(sub) = k.property_names {
            for name in props.keys() {
                let as_value = Value::String(name.clone());
                if !self.sub_valid(at, sub, &as_value) {
                    if sink.collect {
                        let message = words::property_name(&self.index, at.base, name, sub);
                        sink.push(at.path, "propertyNames", message);
                    }
                    check!(ok, sink, false);
                }
            }
        }
        let count = props.len();
        if let Some(n) = k.min_properties.and_then(count_limit) {
            if (count as u64) < n {
                if sink.collect {
                    sink.push(
                        at.path,
                        "minProperties",
                        words::count(n, count, "property", true),
                    );
                }
                check!(ok, sink, false);
            }
        }
        if let Some(n) = k.max_properties.and_then(count_limit) {
            if (count as u64) > n {
                if sink.collect {
                    sink.push(
                        at.path,
                        "maxProperties",
                        words::count(n, count, "property", false),
                    );
                }
                check!(ok, sink, false);
            }
        }
        ok
    }

    fn applicators(
        &mut self,
        k: &Keywords<'s>,
        at: &At<'s, '_>,
        v: &Value,
        sink: &mut Sink,
    ) -> bool {
        let mut ok = true;
        for sub in k.all_of.unwrap_or_default() {
            check!(ok, sink, self.sub(at, sub, v, at.path, sink));
        }
        if let Some(any) = k.any_of {
            let passed = any.iter().any(|sub| self.sub_valid(at, sub, v));
            if !passed {
                if sink.collect {
                    self.explain_alternatives(any, at, v, sink, "anyOf", &[]);
                }
                check!(ok, sink, false);
            }
        }
        if let Some(one) = k.one_of {
            let mut passing = Vec::new();
            for (i, sub) in one.iter().enumerate() {
                if self.sub_valid(at, sub, v) {
                    passing.push(i);
                    if passing.len() > 1 && !sink.collect {
                        break;
                    }
                }
            }
            if passing.len() != 1 {
                if sink.collect {
                    self.explain_alternatives(one, at, v, sink, "oneOf", &passing);
                }
                check!(ok, sink, false);
            }
        }
        if let Some(sub) = k.not {
            if self.sub_valid(at, sub, v) && !self.exhausted {
                if sink.collect {
                    let message = words::must_not(&self.index, at.base, sub, v);
                    sink.push(at.path, "not", message);
                }
                check!(ok, sink, false);
            }
        }
        if let Some(cond) = k.condition {
            let branch = if self.sub_valid(at, cond, v) {
                k.then
            } else {
                k.otherwise
            };
            if let Some(sub) = branch {
                check!(ok, sink, self.sub(at, sub, v, at.path, sink));
            }
        }
        ok
    }

    /// Reports a failed `anyOf` / `oneOf`: the errors of the one alternative
    /// the value was evidently meant for, or else a summary of them all.
    fn explain_alternatives(
        &mut self,
        subs: &'s [Value],
        at: &At<'s, '_>,
        v: &Value,
        sink: &mut Sink,
        keyword: &str,
        passing: &[usize],
    ) {
        let (base, path, depth) = (at.base, at.path, at.depth);
        if passing.is_empty() {
            let here = path.render();
            let mut candidates: Vec<(usize, Vec<ArgumentError>)> = Vec::new();
            for (i, sub) in subs.iter().enumerate() {
                let errors = self.errors_of(sub, base, v, path, depth + 1);
                // an alternative of another type was not what the caller meant
                let wrong_type = errors
                    .iter()
                    .any(|e| e.pointer == here && matches!(e.keyword.as_str(), "type" | "false"));
                if !wrong_type {
                    candidates.push((i, errors));
                }
            }
            if candidates.len() > 1 {
                // a discriminator: a member whose const or enum did not match
                let prefix = format!("{here}/");
                let by_tag: Vec<usize> = candidates
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, errors))| {
                        !errors.iter().any(|e| {
                            matches!(e.keyword.as_str(), "const" | "enum")
                                && e.pointer
                                    .strip_prefix(&prefix)
                                    .is_some_and(|rest| !rest.contains('/'))
                        })
                    })
                    .map(|(j, _)| j)
                    .collect();
                if let [j] = by_tag[..] {
                    let chosen = candidates.swap_remove(j);
                    candidates = vec![chosen];
                }
            }
            if let [(_, errors)] = &mut candidates[..] {
                if !errors.is_empty() {
                    for e in errors.drain(..) {
                        sink.push_at(e.pointer, &e.keyword, e.message);
                    }
                    return;
                }
            }
        }
        let message = words::alternatives(&self.index, base, subs, v, keyword, passing);
        sink.push(path, keyword, message);
    }
}

/// Whether `v` has one of the types named by `t` (a name or a list of
/// names). Unknown names are ignored; a list of only unknown names allows
/// every value.
pub(crate) fn type_matches(t: &Value, v: &Value) -> bool {
    let one = |name: &str| -> Option<bool> {
        Some(match name {
            "integer" => matches!(v, Value::Number(n) if is_integer(n)),
            "number" => v.is_number(),
            "string" => v.is_string(),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            "object" => v.is_object(),
            "array" => v.is_array(),
            _ => return None,
        })
    };
    match t {
        Value::String(name) => one(name).unwrap_or(true),
        Value::Array(names) => {
            let known: Vec<bool> = names
                .iter()
                .filter_map(Value::as_str)
                .filter_map(one)
                .collect();
            known.is_empty() || known.contains(&true)
        }
        _ => true,
    }
}

/// How many JSON values `v` holds, itself included (without recursion).
fn count_values(v: &Value) -> u64 {
    let mut n = 0u64;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        n += 1;
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    n
}

/// The first pair of equal items, found by hashing (not by comparing every
/// pair).
fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let bucket = seen.entry(json_hash(item)).or_default();
        if let Some(&j) = bucket
            .iter()
            .find(|&&j| items.get(j).is_some_and(|x| json_eq(x, item)))
        {
            return Some((j, i));
        }
        bucket.push(i);
    }
    None
}
