//! Building the index: searchable fields from every tool, curated metadata
//! merged on top, derived categories, and precomputed BM25F postings.

use serde_json::Value;

use super::act;
use super::analyze::{
    fold_into, for_each_word, for_each_word_bytes, is_number, letter_mask, Lang, Stemmers, Strings,
    CLASS, JOIN, LOWER, SEP, UPPER, WIDE,
};
use super::lexicon::Lexicon;
use super::memo::{Entry, Memo, Seen};
use super::scan::{self, ToolText};
use super::ToolIndex;
use crate::catalog::Catalog;
#[cfg(test)]
use crate::catalog::Tool;
use crate::error::{Error, ErrorKind};
use crate::pointer;
use crate::text::{cut, first_sentence, Cut, Ends};

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
/// Term lengths (bytes) told apart for typo search; longer ones share the
/// last bucket.
const MAX_TERM_BYTES: usize = 64;
/// Records per block of the builder's records, at least.
const BLOCK: usize = 1 << 14;
/// Bytes the build's [`Memo`] of texts read before holds, at most.
const MEMO_BYTES: usize = 1 << 20;
/// Chars of the short description in a hit, at most.
const MAX_SHORT_DESCRIPTION: usize = 200;

/// One indexed tool.
#[derive(Debug, Clone)]
pub(crate) struct Doc {
    pub(crate) name: String,
    pub(crate) description: String,
    /// The number of its category in `ToolIndex::categories`.
    pub(crate) category: u32,
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

/// What a distinct folded word contributes: its own term and the terms of
/// its lexicon expansion.
#[derive(Debug, Clone, Copy)]
struct Analyzed {
    /// A stop-word, a number or a single letter: kept in names only.
    skip: bool,
    /// A number: never kept.
    number: bool,
    /// A stop-word.
    stop: bool,
    /// The category it names as a verb ([`act::word_category`]).
    verb: Option<&'static str>,
    primary: u32,
    /// The expansion's terms and weights, `Builder::exps[exp_start..exp_end]`.
    exp_start: u32,
    exp_end: u32,
}

/// A term of the tool being read, with its frequency in each field.
#[derive(Debug, Clone, Copy)]
struct DocTerm {
    term: u32,
    /// The fields it is in, one bit each.
    fields: u8,
    tf: [f32; FIELDS],
}

struct Builder<'a> {
    stemmers: Stemmers,
    lex: &'a Lexicon,
    /// The index terms: English stems and lexicon expansions.
    terms: Strings,
    /// Every distinct folded word read, numbered like `analyzed`.
    words: Strings,
    analyzed: Vec<Analyzed>,
    exps: Vec<(u32, f32)>,
    surfaces: Strings,
    /// Per term, its place in `doc_terms` when the tool being read has it
    /// (a sparse set: `doc_terms` is cleared, never `slot`).
    slot: Vec<u32>,
    /// The terms of the tool being read: the first `doc_len` (the rest is
    /// room kept from tools before).
    doc_terms: Vec<DocTerm>,
    doc_len: usize,
    lens: [f32; FIELDS],
    /// Per term, the tools that have it.
    df: Vec<u32>,
    /// Every tool's terms one after the other: `(term << 3 | field,
    /// frequency)`, a term's fields together, in blocks of [`BLOCK`] or
    /// more (no block is copied to grow, and each is freed once read).
    records: Vec<Vec<(u32, f32)>>,
    /// Each tool's number of records; a tool's records are in one block.
    counts: Vec<u32>,
    /// Each tool's field lengths.
    all_lens: Vec<[f32; FIELDS]>,
    /// The words of the name being read, as numbers in `words`.
    name_words: Vec<u32>,
    /// The words of the title being read, likewise.
    title_words: Vec<u32>,
    /// The first words of descriptions read, and the category each names
    /// as a verb.
    first_words: Strings,
    first_verbs: Vec<Option<&'static str>>,
    /// What texts read before counted (dropped with the builder's words
    /// once every tool is read).
    memo: Memo,
    /// The terms and weights counted for the text being read, to keep in
    /// `memo`.
    run: Vec<(u32, f32)>,
}

impl Builder<'_> {
    fn term_id(&mut self, term: &str) -> u32 {
        let (id, new) = self.terms.insert(term);
        if new {
            self.slot.push(u32::MAX);
            self.df.push(0);
        }
        id
    }

    /// The number and analysis of a folded word, computed once per
    /// distinct word.
    #[inline(always)]
    fn analyze(&mut self, word: &[u8]) -> Option<(u32, Analyzed)> {
        match self.words.find_hot(word) {
            Some(i) => self.analyzed.get(i as usize).map(|&a| (i, a)),
            None => self.analyze_new(std::str::from_utf8(word).ok()?),
        }
    }

    #[inline(never)]
    fn analyze_new(&mut self, word: &str) -> Option<(u32, Analyzed)> {
        let number = is_number(word);
        let stop = self.lex.is_stopword(word);
        let skip = number || word.len() < 2 || stop;
        let en = self.stemmers.stem(Lang::En, word);
        let primary = self.term_id(&en);
        let exp_start = u32::try_from(self.exps.len()).unwrap_or(u32::MAX);
        let exp = if skip {
            None
        } else {
            self.lex
                .separable_joined(word)
                .or_else(|| self.lex.lookup_index(word, &en, &self.stemmers))
        };
        if let Some(exp) = exp {
            for (alt, w) in exp.groups.iter().flatten() {
                let id = self.term_id(alt);
                let seen = self
                    .exps
                    .get(exp_start as usize..)
                    .is_some_and(|e| e.iter().any(|&(e, _)| e == id));
                if id != primary && !seen {
                    self.exps.push((id, *w));
                }
            }
        }
        if !skip && word.chars().count() >= 3 {
            self.surfaces.insert(word);
        }
        let a = Analyzed {
            skip,
            number,
            stop,
            verb: act::word_category(word, &en),
            primary,
            exp_start,
            exp_end: u32::try_from(self.exps.len()).unwrap_or(u32::MAX),
        };
        let (id, _) = self.words.insert(word);
        self.analyzed.push(a);
        Some((id, a))
    }

    /// Counts `w` more of `term` in field `f` of the tool being read.
    #[inline(always)]
    fn bump(&mut self, term: u32, f: usize, w: f32) {
        let at = self.slot.get(term as usize).copied().unwrap_or(u32::MAX) as usize;
        if at < self.doc_len {
            if let Some(d) = self.doc_terms.get_mut(at).filter(|d| d.term == term) {
                let bit = 1 << f;
                if let Some(tf) = d.tf.get_mut(f) {
                    *tf = if d.fields & bit != 0 { *tf + w } else { w };
                }
                d.fields |= bit;
                return;
            }
        }
        let at = self.doc_len;
        if let Some(s) = self.slot.get_mut(term as usize) {
            *s = u32::try_from(at).unwrap_or(u32::MAX);
        }
        // a frequency counts only when its field's bit is set: the others
        // may hold numbers of an earlier tool
        if self.doc_terms.len() <= at {
            self.doc_terms.push(DocTerm {
                term,
                fields: 0,
                tf: [0.0; FIELDS],
            });
        }
        if let Some(d) = self.doc_terms.get_mut(at) {
            d.term = term;
            d.fields = 1 << f;
            if let Some(x) = d.tf.get_mut(f) {
                *x = w;
            }
        }
        self.doc_len += 1;
    }

    /// Adds every word of `text` to `field`. Stop-words are kept in the
    /// name (they are part of it) and dropped elsewhere. The name's words
    /// are kept in `name_words`, the title's in `title_words`; any other
    /// text read before is played again from the memo.
    fn add(&mut self, field: Field, text: &str) {
        self.add_text(field, text, false);
    }

    /// [`Builder::add`], knowing whether the text names no tool (for the
    /// memo).
    fn add_text(&mut self, field: Field, text: &str, unnamed: bool) {
        let f = field as usize;
        let name = field == Field::Name;
        let title = field == Field::Title;
        if name {
            self.name_words.clear();
        }
        let seen = if name || title {
            Seen::Full
        } else {
            self.memo.enter(text)
        };
        if let Seen::Before(e) = seen {
            self.count(f, Some(e), e.words);
            return;
        }
        self.run.clear();
        let mut words = 0u32;
        for_each_word_bytes(text, &mut |w| {
            let Some((id, a)) = self.analyze(w) else {
                return;
            };
            if name {
                self.name_words.push(id);
            } else if title {
                self.title_words.push(id);
            }
            if a.skip && (!name || a.number) {
                return;
            }
            // the word's own term, then its expansion's
            let (mut term, mut weight, mut k) = (a.primary, 1.0, a.exp_start);
            loop {
                self.run.push((term, weight));
                let Some(&(e, x)) = self.exps.get(k as usize).filter(|_| k < a.exp_end) else {
                    break;
                };
                (term, weight, k) = (e, EXPANSION_TF * x, k + 1);
            }
            words = words.saturating_add(1);
        });
        self.count(f, None, words);
        if let Seen::New(id) = seen {
            self.memo.fill(id, &self.run, words, unnamed);
        }
    }

    /// Counts a run of terms with their weights in field `f`, in order,
    /// and `words` more words in the field's length: the run of the text
    /// just read (`run`), or of one read before (`from`, in the memo).
    #[inline(never)]
    fn count(&mut self, f: usize, from: Option<Entry>, words: u32) {
        let mut k = 0;
        while let Some((term, weight)) = match from {
            Some(e) => self.memo.run_at(e, k),
            None => self.run.get(k as usize).copied(),
        } {
            self.bump(term, f, weight);
            k += 1;
        }
        if let Some(l) = self.lens.get_mut(f) {
            // one at a time, as the words were always counted
            for _ in 0..words {
                *l += 1.0;
            }
        }
    }

    /// The verb categories of the name's words, for [`category_of`].
    fn name_verbs(&self) -> impl Iterator<Item = Option<&'static str>> + '_ {
        let analyzed = |&w: &u32| self.analyzed.get(w as usize);
        self.name_words
            .iter()
            .map(move |w| analyzed(w).and_then(|a| a.verb))
    }

    /// [`act::description_category`], computed once per distinct first
    /// word (it reads nothing else of the description).
    fn description_category(&mut self, description: Option<&str>) -> Option<&'static str> {
        let first = description?
            .split(|c: char| !c.is_alphanumeric())
            .find(|w| !w.is_empty())?;
        if let Some(i) = self.first_words.find(first) {
            return self.first_verbs.get(i as usize).copied().flatten();
        }
        let verb = act::description_category(Some(first), &self.stemmers);
        self.first_words.insert(first);
        self.first_verbs.push(verb);
        verb
    }

    /// The name's words joined by `_` (see [`name_key`]).
    fn name_key(&self, key: &mut String) {
        key.clear();
        for &w in &self.name_words {
            if !key.is_empty() {
                key.push('_');
            }
            key.push_str(self.words.get(w));
        }
    }

    /// The name's terms (stop-words only when there is nothing else), for
    /// the bonus a query gets for naming the tool.
    fn name_terms(&self, out: &mut Vec<u32>) {
        let start = out.len();
        let analyzed = |&w: &u32| self.analyzed.get(w as usize);
        let content = |a: &&Analyzed| !a.stop && !a.number;
        let any_content = self
            .name_words
            .iter()
            .filter_map(analyzed)
            .any(|a| content(&a));
        for a in self.name_words.iter().filter_map(analyzed) {
            if (!any_content || content(&a))
                && !out.get(start..).is_some_and(|s| s.contains(&a.primary))
            {
                out.push(a.primary);
            }
        }
    }

    /// Words with their English stems (the name's and the title's, for a
    /// tool's acts).
    fn word_stems<'s>(&'s self, words: &'s [u32]) -> impl Iterator<Item = (&'s str, &'s str)> + 's {
        words.iter().map(|&w| {
            let stem = self
                .analyzed
                .get(w as usize)
                .map_or("", |a| self.terms.get(a.primary));
            (self.words.get(w), stem)
        })
    }

    /// Adds a description, leaving out mentions of other tools by name
    /// (`prefer set_light`): they describe the other tool, not this one.
    /// Mentions are looked for in the chunks between white space and
    /// punctuation; the text between them is added in one piece (words
    /// never span a chunk boundary, so that reads the same words).
    fn add_prose(&mut self, field: Field, text: &str, names: &Strings, own: &str) {
        if names.len() == 0 {
            self.add(field, text);
            return;
        }
        if let Some(e) = self.memo.find(text).filter(|e| e.unnamed) {
            self.count(field as usize, Some(e), e.words);
            return;
        }
        // whether a chunk is a tool's name (this tool's too)
        let mut named = false;
        let b = text.as_bytes();
        let mut from = 0; // start of the text not added yet
        let mut i = 0;
        while i < b.len() {
            // a chunk: up to white space or punctuation other than `_ . - /`
            let chunk = i;
            let mut seen = 0u8; // the classes of its bytes
            while let Some(&x) = b.get(i) {
                let c = CLASS[x as usize];
                if c & SEP != 0 {
                    break;
                }
                if c == WIDE {
                    let ch = text.get(i..).and_then(|t| t.chars().next());
                    if ch.is_some_and(char::is_whitespace) {
                        break;
                    }
                    i += ch.map_or(1, char::len_utf8);
                    continue;
                }
                seen |= c;
                i += 1;
            }
            // only a chunk with `_ . - /` or with both cases can be a name
            if seen & JOIN != 0 || seen & (LOWER | UPPER) == LOWER | UPPER {
                let bare = text
                    .get(chunk..i)
                    .unwrap_or("")
                    .trim_end_matches(['.', '-', '/']);
                if is_identifier_like(bare) && names.contains(bare) {
                    named = true;
                    if bare != own {
                        self.add(field, text.get(from..chunk).unwrap_or(""));
                        from = i;
                    }
                }
            }
            // past the separator (white space that is not ASCII included)
            i += text
                .get(i..)
                .and_then(|t| t.chars().next())
                .map_or(1, char::len_utf8);
        }
        // read whole when it names no tool: the same for any tool then
        self.add_text(field, text.get(from..).unwrap_or(""), !named);
    }

    /// Ends the tool being read.
    fn end_doc(&mut self) {
        let terms = self.doc_terms.get(..self.doc_len).unwrap_or(&[]);
        let count: u32 = terms.iter().map(|d| d.fields.count_ones()).sum();
        let n = count as usize;
        if self
            .records
            .last()
            .is_none_or(|b| b.len() + n > b.capacity())
        {
            self.records.push(Vec::with_capacity(BLOCK.max(n)));
        }
        let Some(block) = self.records.last_mut() else {
            return;
        };
        let start = block.len();
        block.resize(start + n, (0, 0.0));
        let mut out = block.get_mut(start..).unwrap_or(&mut []).iter_mut();
        for d in terms {
            if let Some(n) = self.df.get_mut(d.term as usize) {
                *n += 1;
            }
            let t = d.term.min(u32::MAX >> 3) << 3;
            let mut fields = d.fields;
            while fields != 0 {
                let f = fields.trailing_zeros();
                fields &= fields - 1;
                if let Some(r) = out.next() {
                    *r = (t | f, d.tf.get(f as usize).copied().unwrap_or(0.0));
                }
            }
        }
        self.doc_len = 0;
        self.counts.push(count);
        self.all_lens.push(self.lens);
        self.lens = [0.0; FIELDS];
    }
}

/// The category of a tool without curated metadata: `query` when it is
/// read-only (by `readOnlyHint` or by the first verb of its name), else
/// `create`, `update`, `delete` or `control` by that verb, then by the
/// first word of its description; `control` when the annotations say it
/// changes things; `other` when nothing tells.
#[cfg(test)]
pub(crate) fn derive_category(tool: &Tool) -> &'static str {
    let stemmers = Stemmers::new();
    let mut verbs = Vec::new();
    for_each_word(tool.name(), |w| {
        verbs.push(act::word_category(w, &stemmers.stem(Lang::En, w)));
    });
    category_of(
        verbs.into_iter(),
        act::description_category(tool.description(), &stemmers),
        tool.hint("readOnlyHint"),
        tool.hint("destructiveHint"),
    )
}

/// [`derive_category`] from the verb categories of the words of the
/// tool's name ([`act::word_category`]), that of its description
/// ([`act::description_category`]) and its hints.
fn category_of(
    name_verbs: impl Iterator<Item = Option<&'static str>>,
    description_verb: Option<&'static str>,
    read_only: Option<bool>,
    destructive: Option<bool>,
) -> &'static str {
    if read_only == Some(true) {
        return "query";
    }
    let allowed = |c: &&str| !(read_only == Some(false) && *c == "query");
    let mut found = None;
    for verb in name_verbs {
        found = verb.filter(allowed);
        if found.is_some() {
            break;
        }
    }
    if found.is_none() {
        found = description_verb.filter(allowed);
    }
    found.unwrap_or(if read_only == Some(false) || destructive == Some(true) {
        "control"
    } else {
        "other"
    })
}

/// Reads the curated metadata document (see [`super::ToolIndex`] for its shape).
fn read_meta(meta: Option<&Value>) -> Result<(Strings, Vec<Meta>), Error> {
    let mut out = (Strings::default(), Vec::new());
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
        let m = Meta {
            category: string("category")?,
            tags: strings("tags")?,
            description: string("description")?,
            keywords: strings("keywords")?,
        };
        match out.0.insert(name) {
            (_, true) => out.1.push(m),
            (id, false) => {
                if let Some(slot) = out.1.get_mut(id as usize) {
                    *slot = m;
                }
            }
        }
    }
    Ok(out)
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

/// Tool numbers in name order.
fn name_order(docs: &[Doc]) -> Vec<u32> {
    let name = |i: u32| docs.get(i as usize).map_or("", |d| d.name.as_str());
    order_by(docs.len(), &|a, b| name(a) <= name(b))
}

/// The numbers `0..n` in the order `le` (less or equal) says: a merge
/// sort, stable, a few hundred bytes of wasm where a standard sort costs
/// kilobytes for each comparison function.
pub(crate) fn order_by(n: usize, le: &dyn Fn(u32, u32) -> bool) -> Vec<u32> {
    let mut from: Vec<u32> = (0..u32::try_from(n).unwrap_or(u32::MAX)).collect();
    let mut to = vec![0u32; n];
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j) = (lo, mid);
            for slot in to.get_mut(lo..hi).unwrap_or(&mut []) {
                let (a, b) = (from.get(i).copied(), from.get(j).copied());
                let left = match (a, b) {
                    (Some(a), Some(b)) if i < mid && j < hi => le(a, b),
                    _ => i < mid,
                };
                if left {
                    *slot = a.unwrap_or(0);
                    i += 1;
                } else {
                    *slot = b.unwrap_or(0);
                    j += 1;
                }
            }
            lo = hi;
        }
        std::mem::swap(&mut from, &mut to);
        width *= 2;
    }
    from
}

pub(crate) fn build(catalog: &Catalog, meta: Option<&Value>) -> Result<ToolIndex, Error> {
    build_from(scan::of_catalog(catalog), meta)
}

/// [`build`] from what the index reads of each tool.
pub(crate) fn build_from(
    tools: Vec<ToolText<'_>>,
    meta: Option<&Value>,
) -> Result<ToolIndex, Error> {
    read(tools, meta).map(finish)
}

/// The tools read, their postings not yet put in order: what [`finish`]
/// needs, and nothing of the tools themselves (what they were read from
/// may go before the postings take their room).
pub(crate) struct Read {
    b: Builder<'static>,
    docs: Vec<Doc>,
    acts_of: Vec<u8>,
    categories: Strings,
    folded: Strings,
    folded_doc: Vec<u32>,
    keys: Strings,
    key_ids: Vec<u32>,
    name_terms: Vec<u32>,
    name_ends: Vec<u32>,
}

/// Reads every tool's words into a [`Builder`], letting each tool's
/// strings go once read.
pub(crate) fn read(tools: Vec<ToolText<'_>>, meta: Option<&Value>) -> Result<Read, Error> {
    read_with(tools, meta, Memo::new(MEMO_BYTES))
}

/// [`read`] with this memo of texts read before.
fn read_with(tools: Vec<ToolText<'_>>, meta: Option<&Value>, memo: Memo) -> Result<Read, Error> {
    let (meta_names, metas) = read_meta(meta)?;
    let lex = Lexicon::get();
    let mut b = Builder {
        stemmers: Stemmers::new(),
        lex,
        terms: Strings::default(),
        words: Strings::default(),
        analyzed: Vec::new(),
        exps: Vec::new(),
        surfaces: Strings::default(),
        slot: Vec::new(),
        doc_terms: Vec::new(),
        doc_len: 0,
        lens: [0.0; FIELDS],
        df: Vec::new(),
        records: Vec::new(),
        counts: Vec::with_capacity(tools.len()),
        all_lens: Vec::with_capacity(tools.len()),
        name_words: Vec::new(),
        title_words: Vec::new(),
        first_words: Strings::default(),
        first_verbs: Vec::new(),
        memo,
        run: Vec::new(),
    };
    let mut names = Strings::default();
    for t in &tools {
        if is_identifier_like(&t.name) {
            names.insert(&t.name);
        }
    }
    let mut docs = Vec::with_capacity(tools.len());
    // what each tool does: [`act::READ`], [`act::CHANGE`], [`act::CREATE`],
    // [`act::DELETE`] (0 when nothing tells)
    let mut acts_of: Vec<u8> = Vec::with_capacity(tools.len());
    let mut categories = Strings::default();
    // folded names and name keys, each to the first tool that has it
    let mut folded = Strings::default();
    let mut folded_doc = Vec::new();
    let mut buf = String::new();
    let mut keys = Strings::default();
    let mut key_ids = Vec::with_capacity(tools.len());
    let empty = Meta::default();
    let mut name_terms = Vec::new();
    let mut name_ends = Vec::with_capacity(tools.len());
    for tool in tools {
        let name: &str = &tool.name;
        let m = meta_names
            .find(name)
            .and_then(|i| metas.get(i as usize))
            .unwrap_or(&empty);
        let title = tool.title.as_deref();
        b.title_words.clear();
        b.add(Field::Name, name);
        if let Some(t) = title {
            b.add(Field::Title, t);
        }
        let description = tool.description.as_deref();
        let (summary, body) = description
            .map(|d| first_sentence(d, Ends::Capital))
            .unwrap_or(("", ""));
        b.add_prose(Field::Summary, summary, &names, name);
        b.add_prose(Field::Body, body, &names, name);
        if let Some(d) = &m.description {
            b.add_prose(Field::Summary, d, &names, name);
        }
        for k in m.tags.iter().chain(&m.keywords) {
            b.add(Field::Keywords, k);
        }
        for p in &tool.params {
            b.add(Field::Params, p);
        }
        for e in &tool.enums {
            b.add(Field::Enums, e);
        }
        let (read_only, destructive) = (tool.read_only, tool.destructive);
        let description_verb = b.description_category(description);
        let category = match &m.category {
            Some(c) => c.as_str(),
            None => category_of(b.name_verbs(), description_verb, read_only, destructive),
        };
        let acts = {
            let first_verb = description_verb.map_or(0, act::act_of_category);
            let writes_value = tool.writes_value;
            act::tool_acts(
                b.word_stems(&b.name_words),
                b.word_stems(&b.title_words),
                first_verb,
                read_only,
                destructive,
                writes_value,
            )
        };
        b.add(Field::Category, category);
        if read_only == Some(true) {
            b.add(Field::Category, "read only");
        }
        if destructive == Some(true) {
            b.add(Field::Category, "destructive");
        }
        b.end_doc();
        let short = match &m.description {
            Some(d) => cut(d, MAX_SHORT_DESCRIPTION, Cut::Word),
            None if !summary.is_empty() => cut(summary, MAX_SHORT_DESCRIPTION, Cut::Word),
            None => cut(title.unwrap_or(""), MAX_SHORT_DESCRIPTION, Cut::Word),
        };
        b.name_key(&mut buf);
        key_ids.push(keys.insert(&buf).0);
        fold_into(name.trim(), &mut buf);
        if folded.insert(&buf).1 {
            folded_doc.push(u32::try_from(docs.len()).unwrap_or(u32::MAX));
        }
        b.name_terms(&mut name_terms);
        name_ends.push(u32::try_from(name_terms.len()).unwrap_or(u32::MAX));
        docs.push(Doc {
            name: name.to_string(),
            description: short,
            category: categories.insert(category).0,
        });
        let media = b
            .name_words
            .iter()
            .any(|&w| act::media_word(b.words.get(w)));
        acts_of.push(acts | if media { act::MEDIA } else { 0 });
    }
    b.memo = Memo::new(0);
    b.run = Vec::new();
    Ok(Read {
        b,
        docs,
        acts_of,
        categories,
        folded,
        folded_doc,
        keys,
        key_ids,
        name_terms,
        name_ends,
    })
}

/// The index from the tools [`read`].
pub(crate) fn finish(read: Read) -> ToolIndex {
    let Read {
        mut b,
        docs,
        acts_of,
        categories,
        mut folded,
        folded_doc,
        keys,
        key_ids,
        mut name_terms,
        name_ends,
    } = read;
    // BM25F: per field length normalisation, then one saturation per term
    let n = docs.len().max(1) as f32;
    let mut avg = [0f32; FIELDS];
    for lens in &b.all_lens {
        for (a, l) in avg.iter_mut().zip(lens) {
            *a += l / n;
        }
    }
    // postings by term, tools in order: each term's place from its
    // document frequency, then every tool's terms put in place
    let mut offsets = Vec::with_capacity(b.df.len() + 1);
    let mut total = 0u32;
    offsets.push(0);
    for &df in &b.df {
        total = total.saturating_add(df);
        offsets.push(total);
    }
    let mut fill: Vec<u32> = offsets.clone();
    let mut post_doc = vec![0u32; total as usize];
    let mut post_impact = vec![0f32; total as usize];
    let mut blocks = std::mem::take(&mut b.records).into_iter();
    let mut block = Vec::new();
    let mut at = 0;
    for (d, (&count, lens)) in b.counts.iter().zip(&b.all_lens).enumerate() {
        let count = count as usize;
        if at + count > block.len() {
            // the tool's records are in the next block; this one is done
            block = blocks.next().unwrap_or_default();
            at = 0;
        }
        let records = block.get(at..at + count).unwrap_or(&[]);
        at += count;
        let norm: [f32; FIELDS] = std::array::from_fn(|f| {
            let (bf, a, l) = (FIELD_B[f], avg[f], lens[f]);
            if a > 0.0 {
                1.0 - bf + bf * l / a
            } else {
                1.0
            }
        });
        let d = u32::try_from(d).unwrap_or(u32::MAX);
        for run in records.chunk_by(|x, y| x.0 >> 3 == y.0 >> 3) {
            let x: f32 = run
                .iter()
                .map(|&(k, tf)| {
                    let f = (k & 7) as usize;
                    FIELD_WEIGHT.get(f).copied().unwrap_or(0.0) * tf
                        / norm.get(f).copied().unwrap_or(1.0)
                })
                .sum();
            let Some(&(k, _)) = run.first() else { continue };
            if let Some(at) = fill.get_mut((k >> 3) as usize) {
                let i = *at as usize;
                if let (Some(pd), Some(pw)) = (post_doc.get_mut(i), post_impact.get_mut(i)) {
                    *pd = d;
                    *pw = x * (K1 + 1.0) / (K1 + x);
                }
                *at += 1;
            }
        }
    }
    drop(fill);
    let Builder {
        terms, surfaces, ..
    } = b;
    let idf: Vec<f32> = offsets
        .windows(2)
        .map(|w| {
            let df = (w[1] - w[0]) as f32;
            (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
        })
        .collect();
    let masks = terms.iter().map(letter_mask).collect();
    // term ids by byte length (a counting sort), for typo search
    let len_of = |t: &str| t.len().min(MAX_TERM_BYTES);
    let mut len_start = vec![0u32; MAX_TERM_BYTES + 2];
    for t in terms.iter() {
        if let Some(c) = len_start.get_mut(len_of(t) + 1) {
            *c += 1;
        }
    }
    for i in 1..len_start.len() {
        len_start[i] += len_start[i - 1];
    }
    let mut fill = len_start.clone();
    let mut by_len = vec![0u32; terms.len()];
    for (id, t) in terms.iter().enumerate() {
        if let Some(at) = fill.get_mut(len_of(t)) {
            if let Some(slot) = by_len.get_mut(*at as usize) {
                *slot = u32::try_from(id).unwrap_or(u32::MAX);
            }
            *at += 1;
        }
    }
    let mut key_doc = vec![u32::MAX; keys.len()];
    for (i, &k) in key_ids.iter().enumerate() {
        if let Some(slot) = key_doc.get_mut(k as usize).filter(|s| **s == u32::MAX) {
            *slot = u32::try_from(i).unwrap_or(u32::MAX);
        }
    }
    // tools in name order, and each tool's place in it (ties are broken by
    // name with integer keys)
    let by_rank = name_order(&docs);
    let mut name_rank = vec![0u32; docs.len()];
    for (r, &d) in by_rank.iter().enumerate() {
        if let Some(slot) = name_rank.get_mut(d as usize) {
            *slot = u32::try_from(r).unwrap_or(u32::MAX);
        }
    }
    let (mut terms, mut surfaces, mut keys) = (terms, surfaces, keys);
    terms.shrink_to_fit();
    surfaces.shrink_to_fit();
    keys.shrink_to_fit();
    folded.shrink_to_fit();
    name_terms.shrink_to_fit();
    ToolIndex {
        docs,
        acts: acts_of,
        categories,
        terms,
        masks,
        by_len,
        len_start,
        idf,
        offsets,
        post_doc,
        post_impact,
        surfaces,
        name_terms,
        name_ends,
        by_rank,
        name_rank,
        folded,
        folded_doc,
        keys,
        key_ids,
        key_doc,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(v: Value) -> Tool {
        Tool::from_value(v, "").unwrap().0
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
        let (names, metas) = read_meta(Some(
            &json!({"tools": {"a": {"tags": "x", "category": null}}}),
        ))
        .unwrap();
        assert_eq!(metas[names.find("a").unwrap() as usize].tags, ["x"]);
        assert_eq!(read_meta(Some(&json!({}))).unwrap().0.len(), 0);
    }

    /// The index built with the memo of texts read before is the index
    /// built without it, every field of it, bit for bit (`{:?}` writes
    /// each `f32` so that it reads back the same): every corpus catalog,
    /// the GitHub catalog three times over with renamed copies (the
    /// search benchmark's kind of catalog), with and without curated
    /// metadata, and with a memo that fills up part way.
    #[test]
    fn the_memo_changes_nothing() {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        let mut texts = Vec::new();
        for entry in std::fs::read_dir(&corpus).unwrap() {
            let path = entry.unwrap().path();
            if path.to_string_lossy().ends_with(".tools-list.json") {
                texts.push(std::fs::read(&path).unwrap());
            }
        }
        assert!(texts.len() >= 7, "the corpus catalogs");
        let gh: Value = serde_json::from_slice(
            &std::fs::read(corpus.join("github-mcp-server.tools-list.json")).unwrap(),
        )
        .unwrap();
        let base = gh["result"]["tools"].as_array().unwrap();
        let mut tools = Vec::new();
        for copy in 0..3 {
            for t in base {
                let mut t = t.clone();
                if copy > 0 {
                    t["name"] = json!(format!("{}_c{copy}", t["name"].as_str().unwrap()));
                }
                tools.push(t);
            }
        }
        texts.push(serde_json::to_vec(&json!({ "tools": tools })).unwrap());
        // a description that names its own tool, then the same one in a
        // tool it does not name (where the mention is left out)
        let same = "Sets a light. Prefer set_light for lights.";
        texts.push(
            serde_json::to_vec(&json!([
                {"name": "set_light", "description": same},
                {"name": "control_device", "description": same},
                {"name": "set_light_2", "description": same, "inputSchema": {"type": "object",
                    "properties": {"x": {"description": same}}}}
            ]))
            .unwrap(),
        );
        let meta = json!({"tools": {
            "get_me": {"description": "Who am I. Prefer search_users for others.", "tags": ["profile", "Who am I"]},
            "search_users": {"category": "people", "keywords": "Who am I"},
            "HassTurnOn": {"description": "Turns on a device. Use HassTurnOff to turn it off."}
        }});
        let mut built = 0;
        for text in &texts {
            let catalog = Catalog::parse(text).unwrap();
            for meta in [None, Some(&meta)] {
                let without =
                    finish(read_with(scan::of_catalog(&catalog), meta, Memo::new(0)).unwrap());
                let want = format!("{without:?}");
                for room in [MEMO_BYTES, 4096] {
                    let with = finish(
                        read_with(scan::of_catalog(&catalog), meta, Memo::new(room)).unwrap(),
                    );
                    assert!(
                        format!("{with:?}") == want,
                        "memo of {room} bytes changed an index"
                    );
                    built += 1;
                }
            }
        }
        assert_eq!(built, texts.len() * 4);
    }

    #[test]
    fn name_order_sorts_names() {
        for n in [0usize, 1, 2, 3, 7, 64, 100] {
            let docs: Vec<Doc> = (0..n)
                .map(|i| Doc {
                    name: format!("t{}", (i * 7919) % 1009),
                    description: String::new(),
                    category: 0,
                })
                .collect();
            let mut want: Vec<u32> = (0..n as u32).collect();
            want.sort_by(|&a, &b| docs[a as usize].name.cmp(&docs[b as usize].name));
            assert_eq!(name_order(&docs), want, "{n}");
        }
    }
}
