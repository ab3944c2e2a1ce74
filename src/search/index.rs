//! Building the index: searchable fields from every tool, curated metadata
//! merged on top, derived categories, and precomputed BM25F postings.

use serde_json::Value;

use super::analyze::{
    desc, fold, for_each_word, is_number, is_stopword, key, letter_mask, undesc, FxMap, Lang,
    Stemmers,
};
use super::lexicon::Lexicon;
use super::ToolIndex;
use crate::catalog::{Catalog, Tool};
use crate::error::{Error, ErrorKind};
use crate::pointer;

/// The fields a tool's words come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    /// The name, split into words.
    Name = 0,
    /// `title` or `annotations.title`.
    Title,
    /// The first sentence of the description, and the curated description.
    Summary,
    /// Curated tags and keywords.
    Keywords,
    /// The rest of the description.
    Body,
    /// Parameter names, titles and descriptions.
    Params,
    /// Enum and const values of parameters.
    Enums,
    /// The category and the annotation hints (`read only`, `destructive`).
    Category,
}

pub(crate) const FIELDS: usize = 8;

/// How much a word counts in each field.
const FIELD_WEIGHT: [f32; FIELDS] = [3.0, 2.0, 1.6, 2.0, 0.6, 0.5, 0.5, 0.5];
/// BM25 length normalisation per field.
const FIELD_B: [f32; FIELDS] = [0.3, 0.5, 0.5, 0.5, 0.75, 0.75, 0.75, 0.3];
/// BM25 term-frequency saturation.
pub(crate) const K1: f32 = 1.2;
/// How much a lexicon expansion of an indexed word counts, relative to the
/// word itself (`bulb` is indexed as `light` too, at this weight).
const EXPANSION_TF: f32 = 0.4;
/// Schema nodes read per tool for parameter words, at most.
const MAX_SCHEMA_NODES: usize = 2000;
/// Schema depth read for parameter words, at most.
const MAX_SCHEMA_DEPTH: usize = 6;
/// Term lengths (bytes) told apart for typo search; longer ones share the
/// last bucket.
const MAX_TERM_BYTES: usize = 64;
/// Chars of the short description in a hit, at most.
const MAX_SHORT_DESCRIPTION: usize = 200;

/// One indexed tool.
#[derive(Debug, Clone)]
pub(crate) struct Doc {
    pub(crate) name: String,
    /// The name folded, its words joined by `_`: `HassTurnOn` → `hass_turn_on`.
    pub(crate) key: String,
    pub(crate) description: String,
    pub(crate) category: String,
}

/// Curated metadata for one tool.
#[derive(Debug, Default)]
struct Meta {
    category: Option<String>,
    tags: Vec<String>,
    description: Option<String>,
    keywords: Vec<String>,
}

/// The folded words of a name joined by `_`, for name comparisons that
/// ignore case and separators.
pub(crate) fn name_key(name: &str) -> String {
    let mut key = String::new();
    for_each_word(name, |w| {
        if !key.is_empty() {
            key.push('_');
        }
        key.push_str(w);
    });
    key
}

/// What a distinct surface word contributes: its own term and the terms of
/// its lexicon expansion, or nothing for stop-words and numbers.
struct Analyzed {
    skip: bool,
    primary: u32,
    expansions: Vec<(u32, f32)>,
}

struct Builder<'a> {
    stemmers: Stemmers,
    lex: &'a Lexicon,
    vocab: FxMap<String, u32>,
    terms: Vec<String>,
    cache: FxMap<String, u32>,
    analyzed: Vec<Analyzed>,
    surfaces: FxMap<String, u32>,
}

impl Builder<'_> {
    fn term_id(&mut self, term: &str) -> u32 {
        if let Some(&id) = self.vocab.get(term) {
            return id;
        }
        let id = u32::try_from(self.terms.len()).unwrap_or(u32::MAX);
        self.vocab.insert(term.to_string(), id);
        self.terms.push(term.to_string());
        id
    }

    /// The analysis of a folded word, computed once per distinct word.
    fn analyze(&mut self, word: &str) -> usize {
        if let Some(&i) = self.cache.get(word) {
            return i as usize;
        }
        let skip = is_number(word) || word.len() < 2 || is_stopword(word);
        let en = self.stemmers.stem(Lang::En, word);
        let primary = self.term_id(&en);
        let mut expansions = Vec::new();
        let exp = if skip {
            None
        } else {
            self.lex
                .separable_joined(word)
                .or_else(|| self.lex.lookup_lazy(word, &en, &self.stemmers))
        };
        if let Some(exp) = exp {
            for (alt, w) in exp.groups.iter().flatten() {
                let id = self.term_id(alt);
                if id != primary && !expansions.iter().any(|&(e, _)| e == id) {
                    expansions.push((id, *w));
                }
            }
        }
        if !skip && word.chars().count() >= 3 {
            self.surfaces.insert(word.to_string(), 0);
        }
        self.analyzed.push(Analyzed {
            skip,
            primary,
            expansions,
        });
        let i = self.analyzed.len() - 1;
        self.cache
            .insert(word.to_string(), u32::try_from(i).unwrap_or(u32::MAX));
        i
    }
}

/// Occurrences of terms: `key(term << 3 | field, weight bits)`, packed so
/// that sorting groups them by term (see [`key`]).
type Occurrences = Vec<u64>;

/// Packs one occurrence.
fn occurrence(term: u32, field: Field, weight: f32) -> u64 {
    key((term.min(u32::MAX >> 3) << 3) | field as u32, desc(weight))
}

struct DocText<'a, 'b> {
    builder: &'a mut Builder<'b>,
    occ: &'a mut Occurrences,
    lens: [f32; FIELDS],
}

impl DocText<'_, '_> {
    /// Adds every word of `text` to `field`. Stop-words are kept in the
    /// name (they are part of it) and dropped elsewhere.
    fn add(&mut self, field: Field, text: &str) {
        let (builder, occ, lens) = (&mut *self.builder, &mut *self.occ, &mut self.lens);
        for_each_word(text, |w| {
            let i = builder.analyze(w);
            let Some(a) = builder.analyzed.get(i) else {
                return;
            };
            if a.skip && (field != Field::Name || is_number(w)) {
                return;
            }
            occ.push(occurrence(a.primary, field, 1.0));
            for &(e, x) in &a.expansions {
                occ.push(occurrence(e, field, EXPANSION_TF * x));
            }
            lens[field as usize] += 1.0;
        });
    }

    /// Adds a description, leaving out mentions of other tools by name
    /// (`prefer set_light`): they describe the other tool, not this one.
    fn add_prose(&mut self, field: Field, text: &str, names: &FxMap<&str, u32>, own: &str) {
        let is_sep = |c: char| {
            c.is_whitespace() || (c.is_ascii_punctuation() && !matches!(c, '_' | '.' | '-' | '/'))
        };
        if names.is_empty() {
            self.add(field, text);
            return;
        }
        for chunk in text.split(is_sep) {
            let bare = chunk.trim_end_matches(['.', '-', '/']);
            if is_identifier_like(bare) && bare != own && names.contains_key(bare) {
                continue;
            }
            self.add(field, chunk);
        }
    }
}

/// Splits a description into its first sentence and the rest. A sentence
/// ends at a line break, or at `.`, `!` or `?` followed by white space and
/// a capital letter (so `e.g. this` does not end one).
pub(crate) fn first_sentence(text: &str) -> (&str, &str) {
    let text = text.trim();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\n' {
            return (
                text.get(..i).unwrap_or(text).trim(),
                text.get(i..).unwrap_or(""),
            );
        }
        if matches!(c, '.' | '!' | '?') {
            let rest = text.get(i + c.len_utf8()..).unwrap_or("");
            let after = rest.trim_start();
            let spaced = rest.len() != after.len();
            if rest.is_empty() || (spaced && after.chars().next().is_some_and(char::is_uppercase)) {
                let end = i + c.len_utf8();
                return (text.get(..end).unwrap_or(text).trim(), rest);
            }
        }
        let _ = chars.peek();
    }
    (text, "")
}

/// Cuts `s` to at most `max` chars, at a word boundary when there is one,
/// with `…` when cut.
fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let cut: String = s.chars().take(max).collect();
    let at_word = cut
        .rfind(char::is_whitespace)
        .filter(|&i| i > max / 2)
        .and_then(|i| cut.get(..i))
        .unwrap_or(&cut);
    format!("{}…", at_word.trim_end())
}

/// Verbs that name what a tool does, by the category they imply.
fn verb_category(word: &str) -> Option<&'static str> {
    VERBS
        .binary_search_by(|(v, _)| (*v).cmp(word))
        .ok()
        .and_then(|i| VERBS.get(i))
        .map(|&(_, c)| c)
}

/// `(verb, category)`, sorted by verb for binary search.
#[rustfmt::skip]
const VERBS: &[(&str, &str)] = &[
    ("activate", "control"), ("add", "create"), ("adjust", "control"), ("announce", "control"),
    ("archive", "update"), ("arm", "control"), ("assign", "update"), ("broadcast", "control"),
    ("browse", "query"), ("call", "control"), ("cancel", "control"), ("change", "control"),
    ("check", "query"), ("clear", "delete"), ("clone", "create"), ("close", "control"),
    ("comment", "update"), ("control", "control"), ("copy", "create"), ("count", "query"),
    ("create", "create"), ("deactivate", "control"), ("decrease", "control"),
    ("delete", "delete"), ("describe", "query"), ("destroy", "delete"), ("dim", "control"),
    ("disable", "control"), ("disarm", "control"), ("dismiss", "update"), ("download", "query"),
    ("drop", "delete"), ("duplicate", "create"), ("edit", "update"), ("enable", "control"),
    ("erase", "delete"), ("execute", "control"), ("explain", "query"), ("export", "query"),
    ("fetch", "query"), ("find", "query"), ("fork", "create"), ("get", "query"),
    ("import", "create"), ("increase", "control"), ("insert", "create"), ("inspect", "query"),
    ("install", "create"), ("invoke", "control"), ("label", "update"), ("list", "query"),
    ("lock", "control"), ("look", "query"), ("lookup", "query"), ("make", "create"),
    ("manage", "update"), ("mark", "update"), ("merge", "update"), ("modify", "update"),
    ("move", "update"), ("mute", "control"), ("new", "create"), ("next", "control"),
    ("notify", "control"), ("open", "control"), ("patch", "update"), ("pause", "control"),
    ("play", "control"), ("post", "create"), ("press", "control"), ("preview", "query"),
    ("previous", "control"), ("purge", "delete"), ("push", "create"), ("query", "query"),
    ("read", "query"), ("refresh", "update"), ("register", "create"), ("reload", "update"),
    ("remove", "delete"), ("rename", "update"), ("replace", "update"), ("reply", "update"),
    ("reprioritize", "update"), ("request", "update"), ("resolve", "update"),
    ("resume", "control"), ("retrieve", "query"), ("return", "control"), ("run", "control"),
    ("save", "update"), ("search", "query"), ("select", "control"), ("send", "control"),
    ("set", "control"), ("show", "query"), ("skip", "control"), ("star", "update"),
    ("start", "control"), ("state", "query"), ("status", "query"), ("stop", "control"),
    ("submit", "update"), ("summarize", "query"), ("switch", "control"), ("sync", "update"),
    ("toggle", "control"), ("trigger", "control"), ("turn", "control"), ("unassign", "update"),
    ("uninstall", "delete"), ("unlock", "control"), ("unmute", "control"),
    ("unpause", "control"), ("unregister", "delete"), ("unresolve", "update"),
    ("unset", "delete"), ("unstar", "update"), ("update", "update"), ("upload", "create"),
    ("view", "query"), ("wipe", "delete"), ("write", "update"),
];

/// The category of a tool without curated metadata: `query` when it is
/// read-only (by `readOnlyHint` or by the first verb of its name), else
/// `create`, `update`, `delete` or `control` by that verb, then by the
/// first word of its description; `control` when the annotations say it
/// changes things; `other` when nothing tells.
pub(crate) fn derive_category(tool: &Tool) -> &'static str {
    let read_only = tool.hint("readOnlyHint");
    if read_only == Some(true) {
        return "query";
    }
    let allowed = |c: &&str| !(read_only == Some(false) && *c == "query");
    let stemmers = Stemmers::new();
    // `Turns`, `Gets`, `listing`: stem only inflected forms
    let verb = |w: &str| {
        let w = fold(w);
        verb_category(&w).or_else(|| {
            [b's', b'd', b'g']
                .contains(&w.bytes().last().unwrap_or(0))
                .then(|| stemmers.stem(Lang::En, &w))
                .and_then(|s| verb_category(&s))
        })
    };
    let mut found = None;
    for_each_word(tool.name(), |w| {
        if found.is_none() {
            found = verb(w).filter(allowed);
        }
    });
    if found.is_none() {
        let first = tool.description().and_then(|d| {
            d.split(|c: char| !c.is_alphanumeric())
                .find(|w| !w.is_empty())
        });
        found = first.and_then(verb).filter(allowed);
    }
    found.unwrap_or(
        if read_only == Some(false) || tool.hint("destructiveHint") == Some(true) {
            "control"
        } else {
            "other"
        },
    )
}

/// Reads the curated metadata document (see the module docs for its shape).
fn read_meta(meta: Option<&Value>) -> Result<FxMap<String, Meta>, Error> {
    let mut out = FxMap::default();
    let Some(meta) = meta else { return Ok(out) };
    let shape = |ptr: String, msg: String| Error::new(ErrorKind::Shape, ptr, msg);
    let Value::Object(root) = meta else {
        return Err(shape(
            String::new(),
            format!(
                "search metadata must be an object like {{\"tools\": {{...}}}}, not {}",
                crate::catalog::kind_of(meta)
            ),
        ));
    };
    let tools = match root.get("tools") {
        None => return Ok(out),
        Some(Value::Object(t)) => t,
        Some(other) => {
            return Err(shape(
                "/tools".into(),
                format!(
                    "\"tools\" must be an object keyed by tool name, not {}",
                    crate::catalog::kind_of(other)
                ),
            ))
        }
    };
    for (name, entry) in tools {
        let at = pointer::push("/tools", name);
        let Value::Object(entry) = entry else {
            return Err(shape(
                at,
                format!(
                    "a tool's metadata must be an object, not {}",
                    crate::catalog::kind_of(entry)
                ),
            ));
        };
        let string = |key: &str| -> Result<Option<String>, Error> {
            match entry.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.trim().to_string()).filter(|s| !s.is_empty())),
                Some(other) => Err(shape(
                    pointer::push(&at, key),
                    format!(
                        "{key} must be a string, not {}",
                        crate::catalog::kind_of(other)
                    ),
                )),
            }
        };
        let strings = |key: &str| -> Result<Vec<String>, Error> {
            match entry.get(key) {
                None | Some(Value::Null) => Ok(Vec::new()),
                Some(Value::String(s)) => Ok(vec![s.clone()]),
                Some(Value::Array(items)) => items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| match v {
                        Value::String(s) => Ok(s.clone()),
                        other => Err(shape(
                            pointer::index(&pointer::push(&at, key), i),
                            format!(
                                "{key} must hold strings, not {}",
                                crate::catalog::kind_of(other)
                            ),
                        )),
                    })
                    .collect(),
                Some(other) => Err(shape(
                    pointer::push(&at, key),
                    format!(
                        "{key} must be an array of strings, not {}",
                        crate::catalog::kind_of(other)
                    ),
                )),
            }
        };
        out.insert(
            name.clone(),
            Meta {
                category: string("category")?,
                tags: strings("tags")?,
                description: string("description")?,
                keywords: strings("keywords")?,
            },
        );
    }
    Ok(out)
}

/// Collects parameter words and enum values from an input schema, bounded
/// in depth and node count.
fn schema_words(schema: &Value, params: &mut String, enums: &mut String) {
    let mut stack: Vec<(&Value, usize)> = vec![(schema, 0)];
    let mut nodes = 0;
    while let Some((node, depth)) = stack.pop() {
        nodes += 1;
        if nodes > MAX_SCHEMA_NODES || depth > MAX_SCHEMA_DEPTH {
            break;
        }
        let Value::Object(map) = node else { continue };
        for (key, v) in map {
            match (key.as_str(), v) {
                ("description" | "title", Value::String(s)) if depth > 0 => {
                    params.push_str(s);
                    params.push('\n');
                }
                ("enum" | "examples", Value::Array(values)) => {
                    for v in values.iter().take(200) {
                        if let Value::String(s) = v {
                            enums.push_str(s);
                            enums.push('\n');
                        }
                    }
                }
                ("const", Value::String(s)) => {
                    enums.push_str(s);
                    enums.push('\n');
                }
                ("properties", Value::Object(props)) => {
                    for (name, sub) in props {
                        params.push_str(name);
                        params.push('\n');
                        stack.push((sub, depth + 1));
                    }
                }
                ("items", sub) => stack.push((sub, depth + 1)),
                ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(subs)) => {
                    for sub in subs {
                        stack.push((sub, depth + 1));
                    }
                }
                ("$defs", Value::Object(defs)) => {
                    for sub in defs.values() {
                        stack.push((sub, depth + 1));
                    }
                }
                _ => {}
            }
        }
    }
}

/// Whether a name looks like an identifier (has a separator or a hump), so
/// that its mentions in other tools' descriptions can be recognised.
fn is_identifier_like(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() >= 3
        && (b.iter().any(|c| matches!(c, b'_' | b'.' | b'-' | b'/'))
            || b.windows(2)
                .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase()))
}

pub(crate) fn build(catalog: &Catalog, meta: Option<&Value>) -> Result<ToolIndex, Error> {
    let metas = read_meta(meta)?;
    let lex = Lexicon::get();
    let mut b = Builder {
        stemmers: Stemmers::new(),
        lex,
        vocab: FxMap::default(),
        terms: Vec::new(),
        cache: FxMap::default(),
        analyzed: Vec::new(),
        surfaces: FxMap::default(),
    };
    let names: FxMap<&str, u32> = catalog
        .tools()
        .iter()
        .map(Tool::name)
        .filter(|n| is_identifier_like(n))
        .map(|n| (n, 0))
        .collect();
    let mut docs = Vec::with_capacity(catalog.len());
    // every tool's occurrences, one after the other
    let mut all_occ: Occurrences = Vec::new();
    let mut ranges: Vec<(usize, usize)> = Vec::with_capacity(catalog.len());
    let mut all_lens: Vec<[f32; FIELDS]> = Vec::with_capacity(catalog.len());
    let empty = Meta::default();
    for tool in catalog.tools() {
        let m = metas.get(tool.name()).unwrap_or(&empty);
        let start = all_occ.len();
        let mut dt = DocText {
            builder: &mut b,
            occ: &mut all_occ,
            lens: [0.0; FIELDS],
        };
        dt.add(Field::Name, tool.name());
        if let Some(t) = tool.title() {
            dt.add(Field::Title, t);
        }
        let (summary, body) = tool.description().map(first_sentence).unwrap_or(("", ""));
        dt.add_prose(Field::Summary, summary, &names, tool.name());
        dt.add_prose(Field::Body, body, &names, tool.name());
        if let Some(d) = &m.description {
            dt.add_prose(Field::Summary, d, &names, tool.name());
        }
        for k in m.tags.iter().chain(&m.keywords) {
            dt.add(Field::Keywords, k);
        }
        let mut params = String::new();
        let mut enums = String::new();
        schema_words(tool.input_schema(), &mut params, &mut enums);
        dt.add(Field::Params, &params);
        dt.add(Field::Enums, &enums);
        let category = match &m.category {
            Some(c) => c.clone(),
            None => derive_category(tool).to_string(),
        };
        let mut cat_words = category.clone();
        if tool.hint("readOnlyHint") == Some(true) {
            cat_words.push_str(" read only");
        }
        if tool.hint("destructiveHint") == Some(true) {
            cat_words.push_str(" destructive");
        }
        dt.add(Field::Category, &cat_words);
        let description = match &m.description {
            Some(d) => shorten(d, MAX_SHORT_DESCRIPTION),
            None if !summary.is_empty() => shorten(summary, MAX_SHORT_DESCRIPTION),
            None => shorten(tool.title().unwrap_or(""), MAX_SHORT_DESCRIPTION),
        };
        all_lens.push(dt.lens);
        ranges.push((start, all_occ.len()));
        docs.push(Doc {
            name: tool.name().to_string(),
            key: name_key(tool.name()),
            description,
            category,
        });
    }

    // BM25F: per field length normalisation, then one saturation per term
    let n = docs.len().max(1) as f32;
    let mut avg = [0f32; FIELDS];
    for lens in &all_lens {
        for (a, l) in avg.iter_mut().zip(lens) {
            *a += l / n;
        }
    }
    let nterms = b.terms.len();
    // (term, doc, impact) for every term of every tool
    let mut pairs: Vec<(u32, u32, f32)> = Vec::with_capacity(all_occ.len() / 2);
    for (d, (&(lo, hi), lens)) in ranges.iter().zip(&all_lens).enumerate() {
        let norm: [f32; FIELDS] = std::array::from_fn(|f| {
            let (bf, a, l) = (FIELD_B[f], avg[f], lens[f]);
            if a > 0.0 {
                1.0 - bf + bf * l / a
            } else {
                1.0
            }
        });
        let Some(occ) = all_occ.get_mut(lo..hi) else {
            continue;
        };
        occ.sort_unstable();
        let d = u32::try_from(d).unwrap_or(u32::MAX);
        for run in occ.chunk_by(|a, b| a >> 35 == b >> 35) {
            let x: f32 = run
                .iter()
                .map(|&k| {
                    let f = ((k >> 32) & 7) as usize;
                    FIELD_WEIGHT.get(f).copied().unwrap_or(0.0) * undesc(k as u32)
                        / norm.get(f).copied().unwrap_or(1.0)
                })
                .sum();
            if let Some(&k) = run.first() {
                pairs.push(((k >> 35) as u32, d, x * (K1 + 1.0) / (K1 + x)));
            }
        }
    }
    // postings by term, docs in order (a counting sort)
    let mut offsets = vec![0u32; nterms + 1];
    for &(t, _, _) in &pairs {
        if let Some(o) = offsets.get_mut(t as usize + 1) {
            *o += 1;
        }
    }
    for i in 1..offsets.len() {
        offsets[i] += offsets[i - 1];
    }
    let mut fill: Vec<u32> = offsets.clone();
    let mut post_doc = vec![0u32; pairs.len()];
    let mut post_impact = vec![0f32; pairs.len()];
    for &(t, d, w) in &pairs {
        if let Some(at) = fill.get_mut(t as usize) {
            let i = *at as usize;
            if let (Some(pd), Some(pw)) = (post_doc.get_mut(i), post_impact.get_mut(i)) {
                *pd = d;
                *pw = w;
            }
            *at += 1;
        }
    }
    let idf: Vec<f32> = offsets
        .windows(2)
        .map(|w| {
            let df = (w[1] - w[0]) as f32;
            (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
        })
        .collect();
    // the name's own words (stop-words only when there is nothing else),
    // for the bonus a query gets for naming the tool
    let name_terms = docs
        .iter()
        .map(|d| {
            let mut words: Vec<&str> = d.key.split('_').filter(|w| !w.is_empty()).collect();
            if words.iter().any(|w| !is_stopword(w) && !is_number(w)) {
                words.retain(|w| !is_stopword(w) && !is_number(w));
            }
            let mut ids: Vec<u32> = Vec::new();
            for w in words {
                let a = b.cache.get(w).and_then(|&i| b.analyzed.get(i as usize));
                if let Some(a) = a.filter(|a| !ids.contains(&a.primary)) {
                    ids.push(a.primary);
                }
            }
            ids
        })
        .collect();
    let masks = b.terms.iter().map(|t| letter_mask(t)).collect();
    // term ids by byte length (a counting sort), for typo search
    let len_of = |t: &String| t.len().min(MAX_TERM_BYTES);
    let mut len_start = vec![0u32; MAX_TERM_BYTES + 2];
    for t in &b.terms {
        if let Some(c) = len_start.get_mut(len_of(t) + 1) {
            *c += 1;
        }
    }
    for i in 1..len_start.len() {
        len_start[i] += len_start[i - 1];
    }
    let mut fill = len_start.clone();
    let mut by_len = vec![0u32; b.terms.len()];
    for (id, t) in b.terms.iter().enumerate() {
        if let Some(at) = fill.get_mut(len_of(t)) {
            if let Some(slot) = by_len.get_mut(*at as usize) {
                *slot = u32::try_from(id).unwrap_or(u32::MAX);
            }
            *at += 1;
        }
    }
    let mut by_name: FxMap<String, u32> = FxMap::default();
    let mut by_key: FxMap<String, u32> = FxMap::default();
    for (i, d) in docs.iter().enumerate() {
        let i = u32::try_from(i).unwrap_or(u32::MAX);
        let folded = fold(d.name.trim());
        by_name.entry(folded).or_insert(i);
        if !d.key.is_empty() && !by_key.contains_key(&d.key) {
            by_key.insert(d.key.clone(), i);
        }
    }
    // tools in name order, and each tool's place in it (ties are broken by
    // name with integer keys)
    let mut by_rank: Vec<u32> = (0..u32::try_from(docs.len()).unwrap_or(u32::MAX)).collect();
    by_rank.sort_unstable_by(|&a, &b| {
        let name = |i: u32| docs.get(i as usize).map_or("", |d| d.name.as_str());
        name(a).cmp(name(b))
    });
    let mut name_rank = vec![0u32; docs.len()];
    for (r, &d) in by_rank.iter().enumerate() {
        if let Some(slot) = name_rank.get_mut(d as usize) {
            *slot = u32::try_from(r).unwrap_or(u32::MAX);
        }
    }
    Ok(ToolIndex {
        docs,
        vocab: b.vocab,
        terms: b.terms,
        masks,
        by_len,
        len_start,
        idf,
        offsets,
        post_doc,
        post_impact,
        surfaces: b.surfaces,
        name_terms,
        by_rank,
        name_rank,
        by_name,
        by_key,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(v: Value) -> Tool {
        Tool::from_value(v, "").unwrap().0
    }

    #[test]
    fn first_sentence_ends_at_a_real_sentence_end() {
        assert_eq!(
            first_sentence("Turns on a light. Use it often."),
            ("Turns on a light.", " Use it often.")
        );
        assert_eq!(
            first_sentence("Sets things (e.g. a lamp). More"),
            ("Sets things (e.g. a lamp).", " More")
        );
        assert_eq!(first_sentence("TITLE - do it\n\nMore").0, "TITLE - do it");
        assert_eq!(first_sentence("no end"), ("no end", ""));
        assert_eq!(first_sentence(""), ("", ""));
        assert_eq!(first_sentence("Ünïcödé! Ça va."), ("Ünïcödé!", " Ça va."));
        assert_eq!(first_sentence("Ünïcödé! ça va."), ("Ünïcödé! ça va.", ""));
    }

    #[test]
    fn shortens_at_word_boundaries() {
        assert_eq!(shorten("short", 10), "short");
        assert_eq!(shorten("one two three four", 12), "one two…");
        assert_eq!(shorten(&"é".repeat(30), 10), format!("{}…", "é".repeat(10)));
    }

    #[test]
    fn verbs_are_sorted() {
        assert!(VERBS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(verb_category("get"), Some("query"));
        assert_eq!(verb_category("toggle"), Some("control"));
        assert_eq!(verb_category("lamp"), None);
    }

    #[test]
    fn derives_categories() {
        let cat = |v: Value| derive_category(&tool(v));
        assert_eq!(cat(json!({"name": "HassTurnOn"})), "control");
        assert_eq!(cat(json!({"name": "GetLiveContext"})), "query");
        assert_eq!(cat(json!({"name": "list_issues"})), "query");
        assert_eq!(cat(json!({"name": "delete_file"})), "delete");
        assert_eq!(cat(json!({"name": "create_issue"})), "create");
        assert_eq!(cat(json!({"name": "update_gist"})), "update");
        assert_eq!(
            cat(json!({"name": "issue_read", "annotations": {"readOnlyHint": true}})),
            "query"
        );
        // a read verb on a tool that says it writes
        assert_eq!(
            cat(
                json!({"name": "mark_all_notifications_read", "annotations": {"readOnlyHint": false}})
            ),
            "update"
        );
        // no verb in the name: the description's first word
        assert_eq!(
            cat(json!({"name": "good_night", "description": "Turns off all lights"})),
            "control"
        );
        assert_eq!(cat(json!({"name": "weird"})), "other");
        assert_eq!(
            cat(json!({"name": "weird", "annotations": {"destructiveHint": true}})),
            "control"
        );
    }

    #[test]
    fn metadata_errors_point_at_the_value() {
        let bad = [
            (json!([]), ""),
            (json!({"tools": []}), "/tools"),
            (json!({"tools": {"a": 1}}), "/tools/a"),
            (
                json!({"tools": {"a": {"category": 3}}}),
                "/tools/a/category",
            ),
            (
                json!({"tools": {"a/b": {"tags": [1]}}}),
                "/tools/a~1b/tags/0",
            ),
            (
                json!({"tools": {"a": {"keywords": {}}}}),
                "/tools/a/keywords",
            ),
        ];
        for (meta, ptr) in bad {
            let err = read_meta(Some(&meta)).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Shape);
            assert_eq!(err.pointer(), ptr, "{meta}");
        }
        let ok = read_meta(Some(
            &json!({"tools": {"a": {"tags": "x", "category": null}}}),
        ))
        .unwrap();
        assert_eq!(ok["a"].tags, ["x"]);
        assert!(read_meta(Some(&json!({}))).unwrap().is_empty());
    }

    #[test]
    fn schema_words_are_bounded() {
        let mut deep = json!({"type": "string", "description": "bottom"});
        for _ in 0..100 {
            deep = json!({"type": "object", "properties": {"p": deep}});
        }
        let (mut p, mut e) = (String::new(), String::new());
        schema_words(&deep, &mut p, &mut e);
        assert!(!p.contains("bottom"));
        let s = json!({"type": "object", "properties": {"state": {"enum": ["on", "off"], "description": "Light state"},
            "list": {"type": "array", "items": {"anyOf": [{"const": "x"}]}}}});
        let (mut p, mut e) = (String::new(), String::new());
        schema_words(&s, &mut p, &mut e);
        assert!(p.contains("state") && p.contains("Light state"));
        let mut values: Vec<&str> = e.lines().collect();
        values.sort_unstable();
        assert_eq!(values, ["off", "on", "x"]);
    }
}
