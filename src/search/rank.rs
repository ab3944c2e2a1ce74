//! Ranking: a query becomes groups of alternative terms (a word, its
//! lexicon expansion, its compound parts, its typo corrections); each group
//! adds its best alternative's BM25F score to every tool it matches.

use super::act::{self, QueryAct};
use super::analyze::MAX_WORD_CHARS;
use super::analyze::{
    desc, edit_distance, fold, guess_lang, halves, is_determiner, is_number, is_stopword, key,
    letter_mask, split_compound, undesc, words, Lang, Stemmers,
};
use super::index::name_key;
use super::lexicon::{
    is_again, Expansion, Lexicon, AMOUNT, LIST, OFF, ON, PLACE, SET, SOUND, START, THING, TROUBLE,
    VISUAL,
};
use super::{Fallback, Hit, SearchOptions, SearchResults, ToolIndex};

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
/// Weight of what a question about the present implies: the current
/// state (`state`, `current`, `status`).
const STATE_WEIGHT: f32 = 0.8;
/// Weight of `current` in a question about the present: less than the
/// state, which says more about what is asked (the time is current too).
const CURRENT_WEIGHT: f32 = 0.6;
/// Weight, in a question, of the words that would change something: they
/// describe the state asked about.
const QUESTION_STATE_WEIGHT: f32 = 0.4;
/// Weight of what a question why implies: debugging, traces.
const WHY_WEIGHT: f32 = 0.8;
/// Weight of a place beside the thing a query is about.
const PLACE_WEIGHT: f32 = 0.6;
/// Weight of `device` for a word nobody knows in a command or a question.
const UNKNOWN_WEIGHT: f32 = 0.5;
/// Weight of `capability` for a thing no tool that writes has a word for.
const CAPABILITY_WEIGHT: f32 = 0.4;
/// Weight of what a question about the past implies: the history.
const PAST_WEIGHT: f32 = 0.6;
/// Share of the implications of a question why that stays when the query
/// says what goes wrong (a crash, a device out of reach).
const TROUBLE_WHY: f32 = 0.25;
/// Weight of `value` in a question about the present (`how loud is the
/// speaker`: a capability's value).
const VALUE_WEIGHT: f32 = 0.5;
/// Weight of `capability` in `what can X do`.
const CAN_WEIGHT: f32 = 0.8;
/// Factor of a tool that gives something seen (a camera's image) in a
/// question about the state that does not ask for anything seen.
const MEDIA_IN_STATE: f32 = 0.3;
/// Weight of the logs and the history in a question why.
const WHY_LOG_WEIGHT: f32 = 0.5;
/// Weight of the automations in a question why (`which flow turns it on`).
const WHY_AUTOMATION_WEIGHT: f32 = 0.4;
/// Weight of `device` beside a need (`I'm cold`): a catalog with one tool
/// for every device answers it too.
const NEED_DEVICE_WEIGHT: f32 = 0.3;
/// Weight of the quantity a thing is set by, when a query says how much
/// (`blinds to 30%`: the position).
const QUANTITY_WEIGHT: f32 = 0.8;
/// Weight of `set` in a query that names a value to reach (`to 20%`).
const TARGET_WEIGHT: f32 = 0.6;
/// Weight of `step` in a query that asks for a small step.
const STEP_WEIGHT: f32 = 0.6;
/// Weight of going somewhere, for a web address in a query.
const ADDRESS_VERB_WEIGHT: f32 = 0.7;
/// Score added to a tool that reads, for a query that reads, when the
/// query's object is what the tool's name is about (the last word of
/// `ha_manage_updates`, `list_flows`, `get_installed_apps`).
const HEAD_BONUS: f32 = 3.0;
/// The same for a tool that writes, for a command (`create a toggle
/// helper` is about a helper more than about a backup): less, since the
/// verb names the tool as often (`herstart de add-on`: `ha_restart`).
const COMMAND_HEAD_BONUS: f32 = 1.0;
/// Score factors by how a tool's acts fit the query's (see [`act_fit`]).
const FIT_READ: f32 = 1.3;
const MISFIT_READ: f32 = 0.6;
const MISFIT_CHANGE: f32 = 0.5;
const FIT_CREATE_DELETE: f32 = 1.3;
const MISFIT_OTHER: f32 = 0.7;

/// Alternative terms with their weights; a tool scores its best one.
type Group = Vec<(u32, f32)>;

/// Sorts terms by id and keeps each term once, with its highest weight.
fn sort_terms(g: &mut Group) {
    let mut keys: Vec<u64> = g.iter().map(|&(t, w)| key(t, desc(w))).collect();
    keys.sort_unstable();
    g.clear();
    for k in keys {
        let (t, w) = halves(k);
        if g.last().map(|x| x.0) != Some(t) {
            g.push((t, undesc(w)));
        }
    }
}

/// A query word read once: its English stem and lexicon expansion.
struct Read<'l> {
    en: String,
    exp: Option<&'l Expansion>,
}

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
        sort_terms(&mut g);
        if !self.groups.contains(&g) {
            self.groups.push(g);
        }
    }

    fn alts(&self, alts: &[(String, f32)], weight: f32, into: &mut Group) {
        for (a, w) in alts {
            if let Some(t) = self.index.terms.find(a) {
                into.push((t, weight * w));
            }
        }
    }

    /// A word's English stem and lexicon expansion.
    fn read(&self, w: &str) -> Read<'static> {
        let en = self.stemmers.stem(Lang::En, w);
        let exp = self
            .lex
            .separable_joined(w)
            .or_else(|| self.lex.lookup_lazy(w, &en, &self.stemmers));
        Read { en, exp }
    }

    /// The terms of one word from the index and the lexicon: `group` gets
    /// the word's own term and single-group expansions, `extra` the groups
    /// of a multi-word expansion (`aanzetten` → `turn`, `on`). Returns
    /// whether the lexicon knew the word.
    fn lookup(&self, w: &str, weight: f32, group: &mut Group, extra: &mut Vec<Group>) -> bool {
        let read = self.read(w);
        self.lookup_read(w, &read, weight, group, extra)
    }

    /// [`Query::lookup`] of a word already read.
    fn lookup_read(
        &self,
        w: &str,
        read: &Read<'_>,
        weight: f32,
        group: &mut Group,
        extra: &mut Vec<Group>,
    ) -> bool {
        let s = &self.stemmers;
        let (en, exp) = (&read.en, read.exp);
        if !exp.is_some_and(|e| e.replace) {
            if let Some(t) = self.index.terms.find(en) {
                group.push((t, weight));
            } else if let Some(t) = self.index.terms.find(w) {
                group.push((t, weight));
            }
        }
        if let Some(exp) = exp {
            self.expand(exp, weight, group, extra);
        }
        if group.is_empty() && extra.is_empty() {
            for lang in [Lang::Nl, Lang::De] {
                if let Some(t) = self.index.terms.find(&s.stem(lang, w)) {
                    group.push((t, weight * OTHER_STEM_WEIGHT));
                }
            }
        }
        exp.is_some()
    }

    /// Adds the groups of an expansion read whole (a separable verb, a
    /// need).
    fn push_expansion(&mut self, exp: &Expansion) {
        let mut group = Group::new();
        let mut extra = Vec::new();
        self.expand(exp, 1.0, &mut group, &mut extra);
        self.push(group);
        for e in extra {
            self.push(e);
        }
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
        let read = self.read(w);
        self.add_word_weighted(w, &read, 1.0);
    }

    /// Adds the terms of a lexicon word at a weight.
    fn add_implied(&mut self, word: &str, weight: f32) {
        let en = self.stemmers.stem(Lang::En, word);
        let mut group = Group::new();
        let mut extra = Vec::new();
        if let Some(t) = self.index.terms.find(&en) {
            group.push((t, weight));
        }
        if let Some(exp) = self.lex.lookup_lazy(word, &en, &self.stemmers) {
            self.expand(exp, weight, &mut group, &mut extra);
        }
        self.push(group);
        for e in extra {
            self.push(e);
        }
    }

    /// [`Query::add_word`] with a weight; says whether the word was found
    /// (in the index or the lexicon, whole, in parts or corrected), and
    /// whether it matched any term of the index.
    fn add_word_weighted(&mut self, w: &str, read: &Read<'_>, weight: f32) -> (bool, bool) {
        let mut group = Group::new();
        let mut extra = Vec::new();
        let known = self.lookup_read(w, read, weight, &mut group, &mut extra);
        if group.is_empty() && extra.is_empty() && !known {
            self.compound(w, weight, &mut group, &mut extra);
        }
        if group.is_empty() && extra.is_empty() && !known && self.typo_words < MAX_TYPO_WORDS {
            self.typo_words += 1;
            self.typo(w, weight, &mut group, &mut extra);
        }
        let matched = !group.is_empty() || extra.iter().any(|e| !e.is_empty());
        self.push(group);
        for e in extra {
            self.push(e);
        }
        (known || matched, matched)
    }

    fn compound(&self, w: &str, weight: f32, group: &mut Group, extra: &mut Vec<Group>) {
        let known = |part: &str| {
            self.lex.knows(part)
                || self.index.surfaces.contains(part)
                || self.index.terms.contains(part)
        };
        let Some(parts) = split_compound(w, &known) else {
            return;
        };
        let last = parts.len() - 1;
        for (i, part) in parts.iter().enumerate() {
            let part_weight = if i == last { 1.0 } else { MODIFIER_WEIGHT };
            let mut g = Group::new();
            self.lookup(part, weight * part_weight, &mut g, extra);
            if i == last {
                group.append(&mut g);
            } else {
                extra.push(g);
            }
        }
    }

    /// Corrections within one edit (two for words of 9 chars or more) among
    /// the index's terms and the lexicon's words.
    fn typo(&self, w: &str, scale: f32, group: &mut Group, extra: &mut Vec<Group>) {
        let len = w.chars().count();
        if len < 5 || !w.chars().all(char::is_alphabetic) {
            return;
        }
        let max = if len >= 9 { 2 } else { 1 };
        let stem = self.stemmers.stem(Lang::En, w);
        // candidates as keys: (distance, 0 for an index term or 1 for a
        // lexicon word), then the term or word's number
        let mut found: Vec<u64> = Vec::new();
        let mut best = max;
        let take = |found: &mut Vec<u64>, best: &mut usize, d: usize, src: u32, id: usize| {
            if d < *best {
                *best = d;
                found.retain(|&k| (halves(k).0 >> 1) as usize <= d);
            }
            let id = u32::try_from(id).unwrap_or(u32::MAX);
            found.push(key((u32::try_from(d).unwrap_or(u32::MAX) << 1) | src, id));
        };
        let qmask = letter_mask(&stem);
        // only the terms whose length is within reach
        let lo = stem.len().saturating_sub(max).max(3);
        let hi = (stem.len() + max + 1).min(self.index.len_start.len().saturating_sub(1));
        let (Some(&from), Some(&to)) = (self.index.len_start.get(lo), self.index.len_start.get(hi))
        else {
            return;
        };
        let ids = self
            .index
            .by_len
            .get(from as usize..to as usize)
            .unwrap_or(&[]);
        for &t in ids {
            let t = t as usize;
            let Some(&mask) = self.index.masks.get(t) else {
                continue;
            };
            if (mask ^ qmask).count_ones() as usize > 2 * best {
                continue;
            }
            let term = self.index.terms.get(t as u32);
            if term.len() < 3 || term.len().abs_diff(stem.len()) > best {
                continue;
            }
            if let Some(d) = edit_distance(&stem, term, best) {
                take(&mut found, &mut best, d, 0, t);
            }
        }
        let wmask = letter_mask(w);
        for (i, &(word, mask)) in self.lex.keys().iter().enumerate() {
            if word.len() < 4
                || (mask ^ wmask).count_ones() as usize > 2 * best
                || word.len().abs_diff(w.len()) > best
            {
                continue;
            }
            if let Some(d) = edit_distance(w, word, best) {
                take(&mut found, &mut best, d, 1, i);
            }
        }
        found.sort_unstable();
        let mut taken: Vec<&str> = Vec::new();
        for k in found {
            let (hi, id) = halves(k);
            let d = (hi >> 1) as usize;
            if d == 0 || d > best || taken.len() >= MAX_TYPO_CANDIDATES {
                continue;
            }
            let weight = scale * TYPO_WEIGHT.get(d - 1).copied().unwrap_or(0.0);
            if hi & 1 == 0 {
                let term = self.index.terms.get(id);
                if !taken.contains(&term) {
                    taken.push(term);
                    group.push((id, weight));
                }
            } else if let Some(word) = self.lex.key_at(id as usize) {
                if !taken.contains(&word) {
                    taken.push(word);
                    let stems = [
                        word.to_string(),
                        String::new(),
                        String::new(),
                        String::new(),
                    ];
                    if let Some(exp) = self.lex.lookup(word, &stems) {
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

/// A query read for ranking: its term groups, whether it had any word to
/// search for (a query of stop-words has none; one of unknown words has),
/// and what it asks for.
struct Analysis {
    groups: Vec<Group>,
    searchable: bool,
    act: QueryAct,
    /// The term groups of the things the query is about (not its verbs,
    /// places or particles).
    objects: Vec<Group>,
    /// Whether the query says it wants something seen (a camera, a
    /// picture).
    visual: bool,
}

/// Joins two neighbouring words that the index or the lexicon knows as
/// one (`back-up` → `backup`, `hoe laat` → `hoelaat`).
fn join_words(index: &ToolIndex, lex: &Lexicon, words: &mut Vec<String>) {
    let mut joined = String::new();
    let mut i = 0;
    while i + 1 < words.len() {
        joined.clear();
        joined.push_str(&words[i]);
        joined.push_str(&words[i + 1]);
        let known = joined.len() >= 6
            && (lex.knows(&joined)
                || (index.surfaces.contains(&joined)
                    && !is_stopword(&words[i])
                    && !is_stopword(&words[i + 1])));
        if known {
            words[i].clone_from(&joined);
            words.remove(i + 1);
        }
        i += 1;
    }
}

/// Top-level domains an address in a query may end with (`nu.nl`,
/// `example.com`); other dotted words are names (`light.kitchen`).
const TLDS: [&str; 40] = [
    "ai", "app", "at", "au", "be", "biz", "br", "ca", "ch", "cn", "co", "com", "cz", "de", "dev",
    "dk", "edu", "es", "eu", "fi", "fr", "gov", "info", "io", "it", "jp", "me", "net", "nl", "no",
    "nz", "org", "pl", "ru", "se", "shop", "tv", "uk", "us", "xyz",
];

/// Whether a piece of a query between white space is a web address: with
/// a scheme or `www.`, or a host name ending in a known top-level domain.
fn is_address(piece: &str) -> bool {
    let p = piece.trim_matches(|c: char| !c.is_alphanumeric() && c != '/');
    let lower = p.to_ascii_lowercase();
    if ["http://", "https://", "www."]
        .iter()
        .any(|s| lower.starts_with(s) && lower.len() > s.len() + 2)
    {
        return true;
    }
    let host = lower.split('/').next().unwrap_or("");
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        && labels.first().is_some_and(|l| l.len() >= 2)
        && labels.last().is_some_and(|t| TLDS.contains(t))
}

/// The query without its web addresses, and whether it had any.
fn without_addresses(query: &str) -> (std::borrow::Cow<'_, str>, bool) {
    if !query.contains('.') {
        return (query.into(), false);
    }
    let mut found = false;
    let mut out = String::with_capacity(query.len());
    for piece in query.split_whitespace() {
        if is_address(piece) {
            found = true;
        } else {
            out.push_str(piece);
        }
        out.push(' ');
    }
    if found {
        (out.into(), true)
    } else {
        (query.into(), false)
    }
}

/// Reads a query into term groups and its act.
fn analyze(index: &ToolIndex, query: &str) -> Analysis {
    let lex = Lexicon::get();
    // a web address is a page to go to, not words to look for
    let (text, address) = without_addresses(query);
    let mut words = words(&text, MAX_QUERY_WORDS);
    join_words(index, lex, &mut words);
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
    let next_of = |i: usize| words.get(i + 1).map(String::as_str);
    // separable verbs written apart: the particle usually comes last, its
    // verb before it
    let mut pairs: Vec<(usize, usize, &Expansion)> = Vec::new();
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
                pairs.push((i, j, exp));
            }
            consumed[i] = true;
            consumed[j] = true;
        }
    }
    // how each word is read: a lone particle as the word it stands for
    // (or nothing), any other word as itself
    let reading: Vec<Option<&str>> = (0..n)
        .map(|i| {
            let w = words[i].as_str();
            let last = words[i + 1..].iter().all(|w| is_stopword(w));
            match lone_particle(w, next_of(i), last, lang) {
                Some(r) => r,
                None => Some(w),
            }
        })
        .collect();
    let particle = (0..n).any(|i| {
        !consumed[i] && reading[i].is_some_and(|r| r != words[i] && matches!(r, "on" | "off"))
    });
    // the act: a separable verb or a lone `on`/`off` commands
    let command = pairs
        .iter()
        .map(|&(_, _, e)| if e.act != 0 { e.act } else { act::CHANGE })
        .next()
        .unwrap_or(if particle { act::CHANGE } else { 0 });
    // each word read once: its stem, expansion and act as a verb
    // (function words, numbers and single letters are not read: they are
    // never searched for, and never a verb or a sense)
    let reads: Vec<Option<Read<'static>>> = (0..n)
        .map(|i| match reading[i] {
            Some(w) if !(consumed[i] || is_number(w) || w.len() < 2 || is_stopword(w)) => {
                Some(q.read(w))
            }
            _ => None,
        })
        .collect();
    let verb_at = |i: usize| -> u8 {
        match (reading[i], &reads[i]) {
            (Some(w), Some(r)) => lex.verb_act_read(w, &r.en, r.exp),
            _ => 0,
        }
    };
    let verb = |w: &str| match words.iter().position(|x| x == w) {
        Some(i) if reading[i] == Some(w) && reads[i].is_some() => verb_at(i),
        _ if is_stopword(w) => 0,
        _ => lex.verb_act(w, &q.stemmers.stem(Lang::En, w), &q.stemmers),
    };
    let question_mark = query.contains('?');
    let known = |w: &str| {
        lex.knows(w) || index.terms.contains(&q.stemmers.stem(Lang::En, w)) || is_stopword(w)
    };
    let mut act = act::query_act(&words, lang, question_mark, command, &verb, &known);
    // a need said as a feeling or an observation, in a statement that
    // neither asks nor commands (`I'm cold`, `het is hier te donker`,
    // `die Musik ist zu laut`, `de melk is op`): what answers it
    let mut needs: Vec<&Expansion> = Vec::new();
    if !act.question && act.act == 0 && !words.iter().any(|w| act::makes(w)) {
        for i in 0..n {
            let Some(w) = reading[i].filter(|_| !consumed[i]) else {
                continue;
            };
            // a verb first with its object is a command (`warm the room`)
            let next = next_of(i);
            if i == 0 && next.is_some_and(|x| is_determiner(x) || lex.is_english_particle(x)) {
                continue;
            }
            // two words that end the query or say `out of` (`is op`,
            // `ist alle`, `out of milk`)
            let pair = next
                .filter(|x| *x == "of" || i + 2 == n)
                .and_then(|x| lex.need(&format!("{w}_{x}")));
            if let Some(e) = pair {
                for c in consumed.iter_mut().skip(i).take(2) {
                    *c = true;
                }
                needs.push(e);
            } else if let Some(e) = lex.need(w) {
                consumed[i] = true;
                needs.push(e);
            }
        }
        if let Some(e) = needs.first() {
            act.act = e.act;
        }
    }
    // English `on` and `off` switch something when they follow a verb or end
    // the query (`turn off the sound`, `sound off`), not in `on the TV`
    let switched = |i: usize| i + 1 == n || i.checked_sub(1).is_some_and(|p| verb(&words[p]) != 0);
    let senses_of = |i: usize| -> u16 {
        match reading[i] {
            Some("on") if switched(i) || reading[i] != Some(words[i].as_str()) => ON,
            Some("off") if switched(i) || reading[i] != Some(words[i].as_str()) => OFF,
            Some("on" | "off") => 0,
            Some(_) => reads[i]
                .as_ref()
                .and_then(|r| r.exp)
                .map_or(0, |e| e.senses),
            None => 0,
        }
    };
    let senses: Vec<u16> = (0..n)
        .map(|i| if consumed[i] { 0 } else { senses_of(i) })
        .collect();
    // words read together: the sound switched off is muted, on unmuted;
    // started again is restarted
    let mut dropped = vec![false; n];
    let mut dropped_pairs = vec![false; pairs.len()];
    let mut combined: Vec<&str> = Vec::new();
    let has_term = |w: &str| index.terms.contains(&q.stemmers.stem(Lang::En, w));
    let mut combine = |with: u16, first: &dyn Fn(usize) -> bool, word: &'static str| {
        let Some(a) = (0..n).find(|&i| first(i)) else {
            return;
        };
        let by_word = (0..n).find(|&i| i != a && senses[i] & with != 0 && !dropped[i]);
        let by_pair = (0..pairs.len()).find(|&k| pairs[k].2.senses & with != 0);
        if (by_word.is_none() && by_pair.is_none()) || !has_term(word) {
            return;
        }
        dropped[a] = true;
        match by_word {
            Some(i) => dropped[i] = true,
            None => {
                if let Some(k) = by_pair {
                    dropped_pairs[k] = true;
                }
            }
        }
        combined.push(word);
    };
    let sound = |i: usize| senses[i] & SOUND != 0;
    combine(OFF, &sound, "mute");
    combine(ON, &sound, "unmute");
    combine(START, &|i| !consumed[i] && is_again(&words[i]), "restart");
    // set on a list is added to it (`zet melk op de lijst`, `setz Milch
    // auf die Liste`, `put milk on the list`)
    let set = (0..n).find(|&i| senses[i] & SET != 0 && !dropped[i]);
    let list = (0..n).any(|i| senses[i] & LIST != 0);
    if let Some(i) = set.filter(|_| list && has_term("add")) {
        dropped[i] = true;
        combined.push("add");
    }
    for (k, &(_, _, exp)) in pairs.iter().enumerate() {
        if !dropped_pairs[k] {
            q.push_expansion(exp);
        }
    }
    let mut searchable = !pairs.is_empty() || !needs.is_empty() || address;
    for w in combined {
        q.add_word(w);
        searchable = true;
    }
    for e in &needs {
        q.push_expansion(e);
    }
    if !needs.is_empty() {
        // a catalog with one tool for every device answers needs too
        q.add_implied("device", NEED_DEVICE_WEIGHT);
    }
    if address {
        q.add_implied("website", 1.0);
        q.add_implied("navigate", ADDRESS_VERB_WEIGHT);
    }
    let commands = act.act != 0 && act.act != act::READ;
    let (mut unknown, mut object) = (false, false);
    let mut objects: Vec<Group> = Vec::new();
    // a place says where, unless an indefinite article makes it a thing
    // (`a new zone`, `een nieuwe ruimte`, `einen neuen Bereich`)
    let is_place = |i: usize| {
        reads[i]
            .as_ref()
            .and_then(|r| r.exp)
            .is_some_and(|e| e.senses & PLACE != 0)
            && !i
                .checked_sub(1)
                .and_then(|p| words.get(p))
                .is_some_and(|w| act::indefinite(w))
    };
    // a place beside the thing a query is about only says where it is
    // (`the kitchen light`): it weighs less than the thing
    let thing = (0..n).any(|i| {
        !consumed[i]
            && !dropped[i]
            && reads[i].is_some()
            && !is_place(i)
            && verb_at(i) == 0
            && reading[i].is_some_and(|w| w == words[i] && !lex.is_english_particle(w))
    });
    for i in 0..n {
        if consumed[i] || dropped[i] {
            continue;
        }
        let Some(w) = reading[i] else { continue };
        // Dutch `weer` is `again` in a command (`zet de tv weer aan`)
        if commands && w == "weer" {
            continue;
        }
        // `geef de lamp een label` sets a label: it gets nothing
        if commands && act::give(w) {
            continue;
        }
        let particle = w != words[i];
        if !particle && (is_number(w) || w.chars().count() < 2 || is_stopword(w)) {
            continue;
        }
        // in a question, what would change something describes the state
        // asked about (`is the door open`, `what is it set to`)
        // a word after a determiner, a quantifier or `there` is a noun,
        // even one that could be a verb (`zijn er updates`); so is the
        // subject of a question opened by `to be` (`sind Updates da?`);
        // a word the catalog does not use that only the lexicon reads as
        // a verb is still one, said of the thing (`welke updates staan er klaar`)
        let verb = match i.checked_sub(1).and_then(|p| words.get(p)) {
            Some(prev)
                if !particle
                    && (act::noun_next(prev) || (i == 1 && act::be(prev)))
                    && (!lex.knows(w)
                        || act::indefinite(w)
                        || reads[i]
                            .as_ref()
                            .is_some_and(|r| index.terms.contains(&r.en))) =>
            {
                0
            }
            _ => verb_at(i),
        };
        let weight =
            if act.question && (particle || matches!(w, "on" | "off") || verb & !act::READ != 0) {
                QUESTION_STATE_WEIGHT
            } else if thing && is_place(i) {
                PLACE_WEIGHT
            } else {
                1.0
            };
        let Some(read) = &reads[i] else { continue };
        let before = q.groups.len();
        let (_, matched) = q.add_word_weighted(w, read, weight);
        if matched && !particle && verb == 0 && !is_place(i) && !lex.is_english_particle(w) {
            objects.extend(q.groups.get(before..).unwrap_or(&[]).iter().cloned());
        }
        // a thing the catalog has no word for (`tuinverlichting` where
        // tools only control devices) names a device as much as a name
        // does; a place does not
        unknown |= !matched
            && !is_place(i)
            && verb == 0
            && w.chars().count() >= 3
            && w.chars().all(char::is_alphabetic);
        object |= matched && !particle && verb == 0 && !lex.is_english_particle(w);
        searchable = true;
    }
    // a quantity (a number, a percentage, degrees, a step, more or less)
    // said of a thing sets what the thing is set by: a cover's position,
    // a light's brightness, a speaker's volume, a fan's speed
    let step = words.iter().any(|w| act::step(w));
    let amount = step
        || query.contains('%')
        || words.iter().any(|w| is_number(w))
        || (0..n).any(|i| {
            !consumed[i]
                && reads[i]
                    .as_ref()
                    .and_then(|r| r.exp)
                    .is_some_and(|e| e.senses & AMOUNT != 0)
        })
        || pairs.iter().any(|&(_, _, e)| e.senses & AMOUNT != 0);
    if amount {
        let mut said: Vec<&str> = Vec::new();
        for i in 0..n {
            let quantity = reads[i]
                .as_ref()
                .and_then(|r| r.exp)
                .filter(|e| !consumed[i] && e.senses & PLACE == 0)
                .and_then(|e| e.quantity.as_deref());
            if let Some(qty) = quantity.filter(|q| !q.is_empty() && !said.contains(q)) {
                said.push(qty);
            }
        }
        for qty in said {
            if let Some(t) = index.terms.find(qty) {
                q.push(vec![(t, QUANTITY_WEIGHT)]);
            }
        }
        // a number to reach (`to 20 percent`, `op 70`, `auf 50`) is a
        // value to set, however the query says it gets there
        let target = words.windows(2).any(|w| {
            matches!(
                w[0].as_str(),
                "to" | "op" | "auf" | "naar" | "tot" | "at" | "on" | "zu"
            ) && is_number(&w[1])
        });
        if target {
            q.add_implied("set", TARGET_WEIGHT);
        } else if step {
            if let Some(t) = index.terms.find("step") {
                q.push(vec![(t, STEP_WEIGHT)]);
            }
        }
    }
    // a name nobody knows, the only object of a command or a question
    // about the home, is most likely a device's (`zet de koffiezetter aan`)
    // and a thing no tool that writes has a word for (`lock the front
    // door` where only a tool for any device's capabilities locks) is
    // changed as a device's capability
    let uncovered = act.act == act::CHANGE
        && !objects.is_empty()
        && !objects
            .iter()
            .any(|g| g.iter().any(|&(t, _)| writes(index, t)));
    let device = (unknown && !object && (act.question || act.act == act::CHANGE)) || uncovered;
    if device {
        q.add_implied("device", UNKNOWN_WEIGHT);
    }
    if uncovered {
        q.add_implied("capability", CAPABILITY_WEIGHT);
    }
    let sense = |s: u16| {
        (0..n).any(|i| {
            !consumed[i]
                && reads[i]
                    .as_ref()
                    .and_then(|r| r.exp)
                    .is_some_and(|e| e.senses & s != 0)
        }) || pairs.iter().any(|&(_, _, e)| e.senses & s != 0)
    };
    // what a question implies: the current state, or the history
    if act.past && act.act == act::READ {
        q.add_implied("history", PAST_WEIGHT);
    }
    if act.why {
        // what went wrong: traces, logs, the history, the automations;
        // less when the query says what (a crash, a device out of reach)
        let x = if sense(TROUBLE) { TROUBLE_WHY } else { 1.0 };
        q.add_implied("debug", WHY_WEIGHT * x);
        q.add_implied("log", WHY_LOG_WEIGHT * x);
        q.add_implied("history", WHY_LOG_WEIGHT * x);
        q.add_implied("automation", WHY_AUTOMATION_WEIGHT * x);
    }
    // `what can X do`, `wat kan X`, `was kann X`: its capabilities, not
    // its state
    let can = words
        .first()
        .is_some_and(|w| matches!(w.as_str(), "what" | "wat" | "was"))
        && words
            .get(1)
            .is_some_and(|w| matches!(w.as_str(), "can" | "kan" | "kann"));
    if can {
        q.add_implied("capability", CAN_WEIGHT);
    } else if act.question && !act.why {
        let now: &[(&[&str], f32)] = if act.past {
            &[(&["state", "status"], STATE_WEIGHT)]
        } else {
            &[
                (&["state", "status"], STATE_WEIGHT),
                (&["current"], CURRENT_WEIGHT),
                (&["value"], VALUE_WEIGHT),
            ]
        };
        for &(alts, weight) in now {
            let group = alts
                .iter()
                .filter_map(|w| index.terms.find(w))
                .map(|t| (t, weight))
                .collect();
            q.push(group);
        }
        // about a thing in the home: a device's state
        if !act.past && !device && sense(THING) {
            q.add_implied("device", UNKNOWN_WEIGHT);
        }
    }
    Analysis {
        groups: q.groups,
        searchable,
        act,
        objects,
        visual: sense(VISUAL),
    }
}

/// Whether a tool that changes things has the term.
fn writes(index: &ToolIndex, term: u32) -> bool {
    let Some((docs, _, _)) = postings(index, term as usize) else {
        return false;
    };
    docs.iter().any(|&d| {
        index
            .acts
            .get(d as usize)
            .is_some_and(|&a| a & (act::CHANGE | act::CREATE) != 0)
    })
}

/// The tools of term `t`, with the term's impact in each and its idf.
fn postings(index: &ToolIndex, t: usize) -> Option<(&[u32], &[f32], f32)> {
    let (&lo, &hi, &idf) = (
        index.offsets.get(t)?,
        index.offsets.get(t + 1)?,
        index.idf.get(t)?,
    );
    let range = lo as usize..hi as usize;
    Some((
        index.post_doc.get(range.clone())?,
        index.post_impact.get(range)?,
        idf,
    ))
}

/// How well a tool's acts fit a query's: a command is rarely answered by a
/// tool that only reads, a question rarely by one that only writes.
fn act_fit(query: QueryAct, tool: u8) -> f32 {
    use act::{CHANGE, CREATE, DELETE, READ};
    let tool = tool & (READ | CHANGE | CREATE | DELETE);
    if query.act == 0 || tool == 0 {
        return 1.0;
    }
    let has = |a: u8| tool & a != 0;
    match query.act {
        READ if has(READ) => FIT_READ,
        READ => MISFIT_READ,
        CHANGE if has(CHANGE) => 1.0,
        CHANGE if has(READ) && !has(CREATE | DELETE) => MISFIT_CHANGE,
        CHANGE if has(CREATE) => 1.0,
        CREATE if has(CREATE) => FIT_CREATE_DELETE,
        DELETE if has(DELETE) => FIT_CREATE_DELETE,
        CREATE | DELETE if has(CHANGE) => 1.0,
        _ => MISFIT_OTHER,
    }
}

/// The tool whose name the query is, ignoring case, diacritics and
/// separators.
fn exact(index: &ToolIndex, query: &str) -> Option<u32> {
    let q = query.trim();
    if q.is_empty() || q.len() > 512 {
        return None;
    }
    let by_name = index
        .folded
        .find(&fold(q))
        .and_then(|i| index.folded_doc.get(i as usize));
    let by_key = || {
        let key = name_key(q);
        if key.is_empty() {
            return None;
        }
        index
            .keys
            .find(&key)
            .and_then(|i| index.key_doc.get(i as usize))
    };
    by_name.or_else(by_key).copied()
}

pub(crate) fn search(index: &ToolIndex, query: &str, opts: &SearchOptions) -> SearchResults {
    let Analysis {
        groups,
        searchable,
        act,
        objects,
        visual,
    } = analyze(index, query);
    let n = index.docs.len();
    let mut scores = vec![0f32; n];
    let mut best = vec![0f32; n];
    let mut touched: Vec<usize> = Vec::new();
    for g in &groups {
        for &(t, w) in g {
            let Some((docs, impacts, idf)) = postings(index, t as usize) else {
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
    if act.act != 0 {
        head_bonus(index, &objects, act.act, &mut scores);
        // a question about the state is not answered with a picture
        let media = act.question && !act.past && !act.why && !visual;
        for (s, &acts) in scores.iter_mut().zip(&index.acts) {
            if *s > 0.0 {
                *s *= act_fit(act, acts);
                if media && acts & act::MEDIA != 0 {
                    *s *= MEDIA_IN_STATE;
                }
            }
        }
    }
    // which categories the filter takes, folded once each
    let wanted: Option<Vec<bool>> = opts.category.as_deref().map(|c| {
        let c = fold(c);
        index.categories.iter().map(|k| fold(k) == c).collect()
    });
    let in_category = |d: usize| match (&wanted, index.docs.get(d)) {
        (None, Some(_)) => true,
        (Some(w), Some(doc)) => w.get(doc.category as usize) == Some(&true),
        _ => false,
    };
    let exact = exact(index, query).map(|d| d as usize);
    let browse = !searchable;
    // one pass: the matching tools in the category, and the best score
    // of the others than the exact name
    let mut found: Vec<usize> = Vec::new();
    let mut top = 0f32;
    for (d, &s) in scores.iter().enumerate() {
        if (browse || s > 0.0 || Some(d) == exact) && in_category(d) {
            if Some(d) != exact && s > top {
                top = s;
            }
            found.push(d);
        }
    }
    if let Some(e) = exact {
        if let Some(s) = scores.get_mut(e) {
            *s = if *s > top { *s } else { top } + 1.0;
        }
    }
    // nothing matched: the best guesses, said to be guesses
    let mut fallback = None;
    if found.is_empty() && opts.fallback {
        fallback = guess(index, query, act, &mut scores, &mut found, &in_category);
    }
    // best score first, then name order
    let mut keys: Vec<u64> = found
        .iter()
        .map(|&d| {
            let rank = index.name_rank.get(d).copied().unwrap_or(u32::MAX);
            key(desc(scores.get(d).copied().unwrap_or(0.0)), rank)
        })
        .collect();
    let total = keys.len();
    // only the hits returned are sorted
    if opts.limit == 0 {
        keys.clear();
    } else if keys.len() > opts.limit {
        keys.select_nth_unstable(opts.limit - 1);
        keys.truncate(opts.limit);
    }
    keys.sort_unstable();
    let hits = keys
        .into_iter()
        .filter_map(|k| {
            let d = *index.by_rank.get(halves(k).1 as usize)? as usize;
            let doc = index.docs.get(d)?;
            Some(Hit {
                name: doc.name.clone(),
                score: (f64::from(scores[d]) * 10_000.0).round() / 10_000.0,
                category: index.categories.get(doc.category).to_string(),
                description: doc.description.clone(),
                guess: fallback.is_some(),
            })
        })
        .collect();
    SearchResults {
        total,
        hits,
        fallback,
    }
}

/// Similarity of spelling at which a query word and an index term count
/// as alike in a fallback (the Dice coefficient of their letter trigrams).
const ALIKE: f32 = 0.4;

/// Letter trigrams of `^word$`, hashed, sorted and without repeats, into
/// `out` (cleared first; `u64`s, sorted by the search's one sort routine).
fn trigrams(word: &str, out: &mut Vec<u64>) {
    out.clear();
    let chars: Vec<char> = std::iter::once('^')
        .chain(word.chars().take(MAX_WORD_CHARS))
        .chain(std::iter::once('$'))
        .collect();
    for w in chars.windows(3) {
        let h = w.iter().fold(0u64, |h, &c| {
            h.wrapping_mul(0x0100_0000_01b3) ^ u64::from(c)
        });
        out.push(h);
    }
    out.sort_unstable();
    out.dedup();
}

/// The Dice coefficient of two sorted trigram sets.
fn dice(a: &[u64], b: &[u64]) -> f32 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        match x.cmp(y) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * shared as f32 / (a.len() + b.len()) as f32
}

/// Guesses for a query nothing matched, into `scores` and `found` (tools
/// in the category only): the tools whose words are spelled most like the
/// query's (letter trigrams: words cut, run together or mistyped past what
/// typo search corrects), weighed by how their acts fit the query's; else
/// the tools that do what the query asks (read, change, create, delete);
/// else every tool. `None` when the category has no tool.
fn guess(
    index: &ToolIndex,
    query: &str,
    act: QueryAct,
    scores: &mut [f32],
    found: &mut Vec<usize>,
    in_category: &dyn Fn(usize) -> bool,
) -> Option<Fallback> {
    let mut qgrams: Vec<Vec<u64>> = Vec::new();
    for w in words(query, MAX_QUERY_WORDS) {
        if w.chars().count() >= 3 && !is_stopword(&w) && !is_number(&w) && qgrams.len() < 8 {
            let mut g = Vec::new();
            trigrams(&w, &mut g);
            qgrams.push(g);
        }
    }
    let mut tgrams = Vec::new();
    let mut best = vec![0f32; scores.len()];
    for q in &qgrams {
        for (t, term) in index.terms.iter().enumerate() {
            if term.len() < 3 {
                continue;
            }
            trigrams(term, &mut tgrams);
            let alike = dice(q, &tgrams);
            if alike < ALIKE {
                continue;
            }
            let Some((docs, impacts, idf)) = postings(index, t) else {
                continue;
            };
            for (&d, &impact) in docs.iter().zip(impacts) {
                if let Some(b) = best.get_mut(d as usize) {
                    *b = b.max(alike * idf * impact);
                }
            }
        }
        for (s, b) in scores.iter_mut().zip(best.iter_mut()) {
            *s += *b;
            *b = 0.0;
        }
    }
    for (d, (s, &acts)) in scores.iter_mut().zip(&index.acts).enumerate() {
        if *s > 0.0 && in_category(d) {
            *s *= act_fit(act, acts);
            found.push(d);
        }
    }
    if !found.is_empty() {
        return Some(Fallback::Spelling);
    }
    // the act alone: the tools that do it, else any
    for pass in [true, false] {
        for (d, (s, &acts)) in scores.iter_mut().zip(&index.acts).enumerate() {
            let fit = act_fit(act, acts);
            if in_category(d) && (!pass || (act.act != 0 && fit >= 1.0)) {
                *s = if pass { fit } else { 0.0 };
                found.push(d);
            }
        }
        if !found.is_empty() {
            return Some(Fallback::Act);
        }
    }
    None
}

/// Adds to each matching tool the share of its name the query names
/// (words weighted by idf): a query that says `turn off` is about
/// `HassTurnOff` more than about a script whose description turns things
/// off.
fn name_bonus(index: &ToolIndex, groups: &[Group], scores: &mut [f32]) {
    // each query term's weight (at most 1), by term: one load a name word
    let mut weight = vec![0f32; index.terms.len()];
    for &(t, w) in groups.iter().flatten() {
        if let Some(x) = weight.get_mut(t as usize) {
            *x = x.max(w.min(1.0));
        }
    }
    let mut start = 0;
    for (score, &end) in scores.iter_mut().zip(&index.name_ends) {
        let name = index
            .name_terms
            .get(start as usize..end as usize)
            .unwrap_or(&[]);
        start = end;
        if *score <= 0.0 {
            continue;
        }
        let (mut hit, mut all) = (0f32, 0f32);
        for &t in name {
            let idf = index.idf.get(t as usize).copied().unwrap_or(0.0);
            all += idf;
            hit += idf * weight.get(t as usize).copied().unwrap_or(0.0);
        }
        if all > 0.0 {
            let share = hit / all;
            *score += NAME_BONUS * share * share;
        }
    }
}

/// Adds to each matching tool that does what the query asks (reads for a
/// query that reads, writes for a command) and whose name is about what
/// the query is about (its name's last term is one of the query's
/// objects) [`HEAD_BONUS`] or [`COMMAND_HEAD_BONUS`] times the share of
/// the query's objects that term is (by idf): `zijn er updates?` is about
/// `ha_manage_updates`, not about the state of a device; `search HACS for
/// a weather card` is about more than `ha_manage_hacs`; `create a toggle
/// helper` is about a helper more than a backup.
fn head_bonus(index: &ToolIndex, objects: &[Group], query_act: u8, scores: &mut [f32]) {
    let idf = |t: u32| index.idf.get(t as usize).copied().unwrap_or(0.0);
    let mass = |g: &Group| {
        g.iter()
            .map(|&(t, w)| w.min(1.0) * idf(t))
            .fold(0f32, f32::max)
    };
    let total: f32 = objects.iter().map(mass).sum();
    if total <= 0.0 {
        return;
    }
    let mut start = 0;
    for ((score, &end), &acts) in scores.iter_mut().zip(&index.name_ends).zip(&index.acts) {
        let head = index
            .name_terms
            .get(start as usize..end as usize)
            .and_then(<[u32]>::last)
            .copied();
        start = end;
        let wanted = if query_act == act::READ {
            act::READ
        } else {
            act::CHANGE | act::CREATE | act::DELETE
        };
        let Some(head) = head.filter(|_| *score > 0.0 && acts & wanted != 0) else {
            continue;
        };
        let named: f32 = objects
            .iter()
            .filter_map(|g| g.iter().find(|&&(t, _)| t == head))
            .map(|&(t, w)| w.min(1.0) * idf(t))
            .sum();
        let bonus = if query_act == act::READ {
            HEAD_BONUS
        } else {
            COMMAND_HEAD_BONUS
        };
        *score += bonus * (named / total).min(1.0);
    }
}

/// Longest compact name compared by edit distance.
const MAX_SUGGEST_CHARS: usize = 48;

pub(crate) fn suggest(index: &ToolIndex, unknown: &str, k: usize) -> Vec<String> {
    let stemmers = Stemmers::new();
    let qkey = name_key(unknown.get(..unknown.len().min(512)).unwrap_or(""));
    if qkey.is_empty() || k == 0 {
        return Vec::new();
    }
    let compact: String = qkey.chars().filter(|&c| c != '_').collect();
    let qlen = compact.chars().count();
    // the query's name words as index terms, filtered as tools' names are
    let mut words: Vec<&str> = qkey.split('_').filter(|w| !w.is_empty()).collect();
    if words.iter().any(|w| !is_stopword(w) && !is_number(w)) {
        words.retain(|w| !is_stopword(w) && !is_number(w));
    }
    let mut qterms: Vec<Option<u32>> = Vec::new();
    for w in words {
        let t = index.terms.find(&stemmers.stem(Lang::En, w));
        if t.is_none() || !qterms.contains(&t) {
            qterms.push(t);
        }
    }
    let mut scored: Vec<u64> = Vec::new();
    for i in 0..index.docs.len() {
        let dcompact: String = index.key_of(i).chars().filter(|&c| c != '_').collect();
        let longest = qlen.max(dcompact.chars().count());
        let by_edit = if longest <= MAX_SUGGEST_CHARS && longest > 0 {
            // a third of the name wrong at most: "close" names only
            edit_distance(&compact, &dcompact, (longest / 3).max(1))
                .map(|d| 1.0 - d as f32 / longest as f32)
                .unwrap_or(0.0)
        } else {
            0.0
        };
        let dterms = index.name_terms_of(i);
        let shared = qterms
            .iter()
            .filter(|t| t.is_some_and(|t| dterms.contains(&t)))
            .count();
        let union = qterms.len() + dterms.len() - shared;
        let by_words = if union > 0 {
            shared as f32 / union as f32
        } else {
            0.0
        };
        let score = by_edit.max(by_words);
        if score >= 0.5 {
            let rank = index.name_rank.get(i).copied().unwrap_or(u32::MAX);
            scored.push(key(desc(score), rank));
        }
    }
    scored.sort_unstable();
    scored
        .into_iter()
        .take(k)
        .filter_map(|s| {
            let d = *index.by_rank.get(halves(s).1 as usize)? as usize;
            index.docs.get(d).map(|doc| doc.name.clone())
        })
        .collect()
}
