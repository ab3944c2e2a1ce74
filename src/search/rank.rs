//! Ranking: a query becomes groups of alternative terms (a word, its
//! lexicon expansion, its compound parts, its typo corrections); each group
//! adds its best alternative's BM25F score to every tool it matches.

use super::analyze::{
    edit_distance, fold, guess_lang, is_determiner, is_number, is_stopword, letter_mask,
    split_compound, words, Lang, Stemmers,
};
use super::index::name_key;
use super::lexicon::{Expansion, Lexicon};
use super::{Hit, SearchOptions, SearchResults, ToolIndex};

/// Words of a query read, at most.
const MAX_QUERY_WORDS: usize = 64;
/// Term groups per query, at most.
const MAX_GROUPS: usize = 32;
/// Words per query that may be corrected as typos, at most.
const MAX_TYPO_WORDS: usize = 6;
/// Candidate corrections kept per word, at most.
const MAX_TYPO_CANDIDATES: usize = 3;
/// Weight of a typo correction at edit distance 1 and 2: low, since an
/// unknown word is more often a name (a room, a device) than a typo.
const TYPO_WEIGHT: [f32; 2] = [0.5, 0.3];
/// Weight of a match through a Dutch or German stem only.
const OTHER_STEM_WEIGHT: f32 = 0.9;
/// Weight of a compound's modifiers (`slaapkamer` in `slaapkamerlamp`).
const MODIFIER_WEIGHT: f32 = 0.5;

/// Score added to a tool whose whole name the query names (a share of it
/// for part of the name).
const NAME_BONUS: f32 = 2.0;

/// Alternative terms with their weights; a tool scores its best one.
type Group = Vec<(u32, f32)>;

struct Query<'a> {
    index: &'a ToolIndex,
    lex: &'static Lexicon,
    stemmers: Stemmers,
    groups: Vec<Group>,
    typo_words: usize,
}

impl Query<'_> {
    fn push(&mut self, mut g: Group) {
        if g.is_empty() || self.groups.len() >= MAX_GROUPS {
            return;
        }
        g.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
        g.dedup_by_key(|a| a.0);
        if !self.groups.contains(&g) {
            self.groups.push(g);
        }
    }

    fn alts(&self, alts: &[(String, f32)], weight: f32, into: &mut Group) {
        for (a, w) in alts {
            if let Some(&t) = self.index.vocab.get(a.as_str()) {
                into.push((t, weight * w));
            }
        }
    }

    /// The terms of one word from the index and the lexicon: `group` gets
    /// the word's own term and single-group expansions, `extra` the groups
    /// of a multi-word expansion (`aanzetten` → `turn`, `on`). Returns
    /// whether the lexicon knew the word.
    fn lookup(&self, w: &str, weight: f32, group: &mut Group, extra: &mut Vec<Group>) -> bool {
        let s = &self.stemmers;
        let stems = [
            s.stem(Lang::En, w),
            s.stem(Lang::Nl, w),
            s.stem(Lang::De, w),
        ];
        let exp = self
            .lex
            .separable_joined(w)
            .or_else(|| self.lex.lookup(w, &stems));
        if !exp.is_some_and(|e| e.replace) {
            if let Some(&t) = self.index.vocab.get(stems[0].as_str()) {
                group.push((t, weight));
            } else if let Some(&t) = self.index.vocab.get(w) {
                group.push((t, weight));
            }
        }
        if let Some(exp) = exp {
            self.expand(exp, weight, group, extra);
        }
        if group.is_empty() && extra.is_empty() {
            for s in &stems[1..] {
                if let Some(&t) = self.index.vocab.get(s.as_str()) {
                    group.push((t, weight * OTHER_STEM_WEIGHT));
                }
            }
        }
        exp.is_some()
    }

    fn expand(&self, exp: &Expansion, weight: f32, group: &mut Group, extra: &mut Vec<Group>) {
        if let [only] = exp.groups.as_slice() {
            self.alts(only, weight, group);
        } else {
            for g in &exp.groups {
                let mut e = Group::new();
                self.alts(g, weight, &mut e);
                extra.push(e);
            }
        }
    }

    /// Adds one query word: its own terms, else its compound parts, else
    /// its closest corrections.
    fn add_word(&mut self, w: &str) {
        let mut group = Group::new();
        let mut extra = Vec::new();
        let known = self.lookup(w, 1.0, &mut group, &mut extra);
        if group.is_empty() && extra.is_empty() && !known {
            self.compound(w, &mut group, &mut extra);
        }
        if group.is_empty() && extra.is_empty() && !known && self.typo_words < MAX_TYPO_WORDS {
            self.typo_words += 1;
            self.typo(w, &mut group, &mut extra);
        }
        self.push(group);
        for e in extra {
            self.push(e);
        }
    }

    fn compound(&self, w: &str, group: &mut Group, extra: &mut Vec<Group>) {
        let known = |part: &str| {
            self.lex.knows(part)
                || self.index.surfaces.contains(part)
                || self.index.vocab.contains_key(part)
        };
        let Some(parts) = split_compound(w, &known) else {
            return;
        };
        let last = parts.len() - 1;
        for (i, part) in parts.iter().enumerate() {
            let weight = if i == last { 1.0 } else { MODIFIER_WEIGHT };
            let mut g = Group::new();
            self.lookup(part, weight, &mut g, extra);
            if i == last {
                group.append(&mut g);
            } else {
                extra.push(g);
            }
        }
    }

    /// Corrections within one edit (two for words of 9 chars or more) among
    /// the index's terms and the lexicon's words.
    fn typo(&self, w: &str, group: &mut Group, extra: &mut Vec<Group>) {
        let len = w.chars().count();
        if len < 5 || !w.chars().all(char::is_alphabetic) {
            return;
        }
        let max = if len >= 9 { 2 } else { 1 };
        let stem = self.stemmers.stem(Lang::En, w);
        let mut found: Vec<(usize, &str, Option<u32>)> = Vec::new();
        let mut best = max;
        let qmask = letter_mask(&stem);
        for (t, term) in self.index.terms.iter().enumerate() {
            let Some(&mask) = self.index.masks.get(t) else {
                continue;
            };
            if term.len() < 3
                || (mask ^ qmask).count_ones() as usize > 2 * best
                || term.len().abs_diff(stem.len()) > best
            {
                continue;
            }
            if let Some(d) = edit_distance(&stem, term, best) {
                if d < best {
                    best = d;
                    found.retain(|c| c.0 <= d);
                }
                let id = u32::try_from(t).ok();
                found.push((d, term.as_str(), id));
            }
        }
        let wmask = letter_mask(w);
        for (key, mask) in self.lex.keys() {
            if key.len() < 4
                || (mask ^ wmask).count_ones() as usize > 2 * best
                || key.len().abs_diff(w.len()) > best
            {
                continue;
            }
            if let Some(d) = edit_distance(w, key, best) {
                if d < best {
                    best = d;
                    found.retain(|c| c.0 <= d);
                }
                found.push((d, key, None));
            }
        }
        found.retain(|c| c.0 <= best && c.0 > 0);
        found.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(b.1)));
        found.dedup_by(|a, b| a.1 == b.1);
        for &(d, key, term) in found.iter().take(MAX_TYPO_CANDIDATES) {
            let weight = TYPO_WEIGHT.get(d - 1).copied().unwrap_or(0.0);
            match term {
                Some(t) => group.push((t, weight)),
                None => {
                    let stems = [key.to_string(), String::new(), String::new()];
                    if let Some(exp) = self.lex.lookup(key, &stems) {
                        self.expand(exp, weight, group, extra);
                    }
                }
            }
        }
    }
}

/// What a particle means when no verb of the query takes it: `Some(None)`
/// to drop it, `Some(Some(word))` to read it as `word`, `None` to read it
/// as any other word.
fn lone_particle(
    w: &str,
    next: Option<&str>,
    last: bool,
    lang: Option<Lang>,
) -> Option<Option<&'static str>> {
    let preposition = next.is_some_and(is_determiner);
    let keep = |word| Some((!preposition).then_some(word));
    match w {
        "aan" => keep("on"),
        "uit" => keep("off"),
        "aus" => keep("off"),
        "an" if lang == Some(Lang::De) || last => keep("on"),
        "ein" if last => keep("on"),
        "auf" if last => keep("open"),
        "zu" | "toe" if last => keep("close"),
        "an" | "ein" | "auf" | "zu" | "toe" => Some(None),
        _ => None,
    }
}

/// Reads a query into term groups; also says whether it had any word to
/// search for (a query of stop-words has none; one of unknown words has).
fn analyze(index: &ToolIndex, query: &str) -> (Vec<Group>, bool) {
    let lex = Lexicon::get();
    let words = words(query, MAX_QUERY_WORDS);
    let lang = guess_lang(&words);
    let mut q = Query {
        index,
        lex,
        stemmers: Stemmers::new(),
        groups: Vec::new(),
        typo_words: 0,
    };
    let n = words.len();
    let mut consumed = vec![false; n];
    let mut searchable = false;
    let next_of = |i: usize| words.get(i + 1).map(String::as_str);
    // separable verbs written apart: the particle usually comes last, its
    // verb before it
    for i in (0..n).rev() {
        let Some(p) = words.get(i) else { continue };
        if consumed[i]
            || !lex.is_particle(p)
            || (next_of(i).is_some_and(is_determiner) && !lex.is_english_particle(p))
        {
            continue;
        }
        // an infinitive right after its particle (`aan zetten`), else the
        // first verb of the clause (`haal X van de lijst af`)
        let takes = |j: usize| !consumed[j] && lex.separable_pair(p, &words[j]).is_some();
        let verb = (i + 1 < n && takes(i + 1))
            .then_some(i + 1)
            .or_else(|| (0..n).filter(|&j| j != i).find(|&j| takes(j)));
        if let Some(j) = verb {
            if let Some(exp) = lex.separable_pair(p, &words[j]) {
                let mut group = Group::new();
                let mut extra = Vec::new();
                q.expand(exp, 1.0, &mut group, &mut extra);
                q.push(group);
                for e in extra {
                    q.push(e);
                }
            }
            consumed[i] = true;
            consumed[j] = true;
        }
    }
    for (i, w) in words.iter().enumerate() {
        if consumed[i] {
            continue;
        }
        let last = words[i + 1..].iter().all(|w| is_stopword(w));
        if let Some(reading) = lone_particle(w, next_of(i), last, lang) {
            if let Some(word) = reading {
                q.add_word(word);
                searchable = true;
            }
            continue;
        }
        if is_number(w) || w.chars().count() < 2 || is_stopword(w) {
            continue;
        }
        q.add_word(w);
        searchable = true;
    }
    let searchable = searchable || consumed.iter().any(|&c| c);
    (q.groups, searchable)
}

/// The tool whose name the query is, ignoring case, diacritics and
/// separators.
fn exact(index: &ToolIndex, query: &str) -> Option<u32> {
    let q = query.trim();
    if q.is_empty() || q.len() > 512 {
        return None;
    }
    index
        .by_name
        .get(&fold(q))
        .or_else(|| index.by_key.get(&name_key(q)))
        .copied()
}

pub(crate) fn search(index: &ToolIndex, query: &str, opts: &SearchOptions) -> SearchResults {
    let (groups, searchable) = analyze(index, query);
    let n = index.docs.len();
    let mut scores = vec![0f32; n];
    let mut best = vec![0f32; n];
    let mut touched: Vec<usize> = Vec::new();
    for g in &groups {
        for &(t, w) in g {
            let t = t as usize;
            let (Some(&lo), Some(&hi), Some(&idf)) = (
                index.offsets.get(t),
                index.offsets.get(t + 1),
                index.idf.get(t),
            ) else {
                continue;
            };
            let range = lo as usize..hi as usize;
            let (Some(docs), Some(impacts)) = (
                index.post_doc.get(range.clone()),
                index.post_impact.get(range),
            ) else {
                continue;
            };
            for (&d, &impact) in docs.iter().zip(impacts) {
                let d = d as usize;
                let v = w * idf * impact;
                if let Some(b) = best.get_mut(d) {
                    if *b == 0.0 {
                        touched.push(d);
                    }
                    if v > *b {
                        *b = v;
                    }
                }
            }
        }
        for &d in &touched {
            if let (Some(s), Some(b)) = (scores.get_mut(d), best.get_mut(d)) {
                *s += *b;
                *b = 0.0;
            }
        }
        touched.clear();
    }
    name_bonus(index, &groups, &mut scores);
    let category = opts.category.as_deref().map(fold);
    let in_category = |d: usize| match (&category, index.docs.get(d)) {
        (None, Some(_)) => true,
        (Some(c), Some(doc)) => fold(&doc.category) == *c,
        _ => false,
    };
    let exact = exact(index, query).map(|d| d as usize);
    let browse = !searchable;
    let mut found: Vec<usize> = (0..n)
        .filter(|&d| browse || scores[d] > 0.0 || Some(d) == exact)
        .filter(|&d| in_category(d))
        .collect();
    let top = found
        .iter()
        .filter(|&&d| Some(d) != exact)
        .map(|&d| scores[d])
        .fold(0f32, f32::max);
    if let Some(e) = exact {
        if let Some(s) = scores.get_mut(e) {
            *s = s.max(top) + 1.0;
        }
    }
    let name = |d: usize| index.docs.get(d).map(|doc| doc.name.as_str()).unwrap_or("");
    let order = |a: &usize, b: &usize| {
        let (a, b) = (*a, *b);
        scores[b]
            .total_cmp(&scores[a])
            .then_with(|| name(a).cmp(name(b)))
    };
    let total = found.len();
    // only the hits returned are sorted
    if opts.limit == 0 {
        found.clear();
    } else if found.len() > opts.limit {
        found.select_nth_unstable_by(opts.limit - 1, order);
        found.truncate(opts.limit);
    }
    found.sort_by(order);
    let hits = found
        .into_iter()
        .filter_map(|d| {
            let doc = index.docs.get(d)?;
            Some(Hit {
                name: doc.name.clone(),
                score: (f64::from(scores[d]) * 10_000.0).round() / 10_000.0,
                category: doc.category.clone(),
                description: doc.description.clone(),
            })
        })
        .collect();
    SearchResults { total, hits }
}

/// Adds to each matching tool the share of its name the query names
/// (words weighted by idf): a query that says `turn off` is about
/// `HassTurnOff` more than about a script whose description turns things
/// off.
fn name_bonus(index: &ToolIndex, groups: &[Group], scores: &mut [f32]) {
    let mut terms: Vec<(u32, f32)> = groups.iter().flatten().copied().collect();
    terms.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
    terms.dedup_by_key(|t| t.0);
    for (d, score) in scores.iter_mut().enumerate() {
        if *score <= 0.0 {
            continue;
        }
        let Some(name) = index.name_terms.get(d) else {
            continue;
        };
        let (mut hit, mut all) = (0f32, 0f32);
        for &t in name {
            let idf = index.idf.get(t as usize).copied().unwrap_or(0.0);
            all += idf;
            if let Ok(i) = terms.binary_search_by_key(&t, |x| x.0) {
                hit += idf * terms.get(i).map_or(0.0, |x| x.1.min(1.0));
            }
        }
        if all > 0.0 {
            let share = hit / all;
            *score += NAME_BONUS * share * share;
        }
    }
}

/// Longest compact name compared by edit distance.
const MAX_SUGGEST_CHARS: usize = 48;

pub(crate) fn suggest(index: &ToolIndex, unknown: &str, k: usize) -> Vec<String> {
    let stemmers = Stemmers::new();
    let key = name_key(unknown.get(..unknown.len().min(512)).unwrap_or(""));
    if key.is_empty() || k == 0 {
        return Vec::new();
    }
    let compact: String = key.chars().filter(|&c| c != '_').collect();
    let stems = |k: &str| -> Vec<String> {
        let mut v: Vec<String> = k
            .split('_')
            .filter(|w| !w.is_empty())
            .map(|w| stemmers.stem(Lang::En, w))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let qwords = stems(&key);
    let mut scored: Vec<(f32, &str)> = Vec::new();
    for doc in &index.docs {
        let dcompact: String = doc.key.chars().filter(|&c| c != '_').collect();
        let longest = compact.chars().count().max(dcompact.chars().count());
        let by_edit = if longest <= MAX_SUGGEST_CHARS && longest > 0 {
            edit_distance(&compact, &dcompact, longest / 2)
                .map(|d| 1.0 - d as f32 / longest as f32)
                .unwrap_or(0.0)
        } else {
            0.0
        };
        let dwords = stems(&doc.key);
        let shared = qwords.iter().filter(|w| dwords.contains(w)).count();
        let union = qwords.len() + dwords.len() - shared;
        let by_words = if union > 0 {
            shared as f32 / union as f32
        } else {
            0.0
        };
        let score = by_edit.max(by_words);
        if score >= 0.5 {
            scored.push((score, doc.name.as_str()));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored
        .into_iter()
        .take(k)
        .map(|(_, n)| n.to_string())
        .collect()
}

/// The term groups of a query, as text (for debugging).
#[cfg(test)]
pub(crate) fn explain(index: &ToolIndex, query: &str) -> Vec<String> {
    analyze(index, query)
        .0
        .iter()
        .map(|g| {
            g.iter()
                .map(|&(t, w)| format!("{}:{w}", index.terms[t as usize]))
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect()
}
