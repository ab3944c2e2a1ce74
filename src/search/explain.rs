//! Why a search ranked its hits: the query's reading (question, command
//! or need; the act; the places; the terms each word became) and, per hit,
//! what each term added and the bonuses and factors after them. The same
//! reading and the same arithmetic as the search, done again for the hits
//! only.

use serde::Serialize;

use super::act::{self, QueryAct};
use super::analyze::Lang;
use super::rank::{
    act_fit, analyze, exact, head_bonus_of, media_factor, name_bonus_of, name_weights,
    objects_mass, postings, search, Group, Source,
};
use super::{Fallback, SearchOptions, ToolIndex};

/// Why a search ranked its hits: see [`ToolIndex::explain`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Explanation {
    /// How the query was read.
    pub reading: Reading,
    /// The tools that matched, as [`SearchResults::total`](super::SearchResults::total).
    pub total: usize,
    /// How the hits were guessed when nothing matched (absent when they
    /// matched).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Fallback>,
    /// The hits of the search, best first, each with why it ranked.
    pub hits: Vec<HitExplanation>,
}

/// How a query was read.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Reading {
    /// The words as read: folded, neighbours that are one word joined
    /// (`back-up` → `backup`); at most 64.
    pub words: Vec<String>,
    /// The language the words are most likely in (`en`, `nl`, `de`, `fr`;
    /// absent when nothing tells).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<&'static str>,
    /// What the sentence is: `question`, `command` (a request to act or to
    /// read), `need` (a statement of a need: `I'm cold`) or `keywords`
    /// (words that ask nothing).
    pub kind: &'static str,
    /// The act asked for: `read`, `change`, `create` or `delete` (absent
    /// when the query does not say).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub act: Option<&'static str>,
    /// A question about the past (`yesterday`, `gisteren`).
    pub past: bool,
    /// A question why (`why did the light turn on`).
    pub why: bool,
    /// The words that say where (`kitchen`, `woonkamer`): beside a thing,
    /// they weigh less than the thing.
    pub places: Vec<String>,
    /// The groups of alternative terms the query became, each with what it
    /// was read from; a tool scores the best term of each group.
    pub groups: Vec<TermGroup>,
}

/// One group of alternative terms and what it was read from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct TermGroup {
    /// The query's word (or `verb … particle` for a separable verb), or,
    /// when `implied`, what the reading implies (`state` in a question).
    pub from: String,
    /// Not said but implied by the reading.
    #[serde(skip_serializing_if = "is_false")]
    pub implied: bool,
    /// The index terms with their weights (a synonym, a compound's part or
    /// a typo's correction weighs less than the word).
    pub terms: Vec<WeightedTerm>,
}

/// An index term and its weight in a group.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct WeightedTerm {
    /// The term, as the index holds it (stemmed English: `light`).
    pub term: String,
    /// Its weight, rounded to 4 decimals.
    pub weight: f64,
}

/// Why one tool ranked where it did. Its score is
/// `(matched + name_bonus + head_bonus) × act_factor × media_factor`, or,
/// for the tool the query names exactly, one more than the best other.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HitExplanation {
    /// The tool's MCP name.
    pub name: String,
    /// Its score, as the search gave it.
    pub score: f64,
    /// Its category.
    pub category: String,
    /// A fallback's guess (nothing matched): no term explains it.
    #[serde(skip_serializing_if = "is_false")]
    pub guess: bool,
    /// The query names the tool exactly (`set light` for `set_light`): it
    /// comes first.
    #[serde(skip_serializing_if = "is_false")]
    pub exact: bool,
    /// What each group of the query added: the group's best term in this
    /// tool (BM25F over its fields, times the term's weight).
    pub terms: Vec<TermContribution>,
    /// The sum of `terms`.
    pub matched: f64,
    /// Added for the share of the tool's name the query names.
    pub name_bonus: f64,
    /// Added when the tool does what the query asks and its name is about
    /// the query's object (`updates` in `are there updates?` for
    /// `ha_manage_updates`).
    pub head_bonus: f64,
    /// How the tool's acts fit the query's (above 1 a fit, below a misfit:
    /// a question is rarely answered by a tool that only writes).
    pub act_factor: f64,
    /// Below 1 for a tool that gives something seen, in a question about
    /// the state that asks for nothing seen.
    pub media_factor: f64,
}

/// What one group of the query added to a tool's score.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct TermContribution {
    /// What the group was read from (see [`TermGroup::from`]).
    pub from: String,
    /// Implied by the reading, not said.
    #[serde(skip_serializing_if = "is_false")]
    pub implied: bool,
    /// The term that matched.
    pub term: String,
    /// Its weight in the group.
    pub weight: f64,
    /// What it added, rounded to 4 decimals.
    pub score: f64,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn round(x: f32) -> f64 {
    (f64::from(x) * 10_000.0).round() / 10_000.0
}

fn lang_code(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::Nl => "nl",
        Lang::De => "de",
        Lang::Fr => "fr",
    }
}

fn act_name(a: u8) -> Option<&'static str> {
    match a {
        act::READ => Some("read"),
        act::CHANGE => Some("change"),
        act::CREATE => Some("create"),
        act::DELETE => Some("delete"),
        _ => None,
    }
}

fn kind(a: QueryAct, need: bool) -> &'static str {
    if a.question {
        "question"
    } else if need {
        "need"
    } else if a.act != 0 {
        "command"
    } else {
        "keywords"
    }
}

/// What a group was read from, in words, and whether it was implied.
fn source_text(source: Source, words: &[String]) -> (String, bool) {
    let word = |i: usize| words.get(i).map_or("", String::as_str);
    match source {
        Source::Word(i) => (word(i).to_string(), false),
        Source::Verb(verb, particle) if verb < particle => {
            (format!("{} … {}", word(verb), word(particle)), false)
        }
        Source::Verb(verb, particle) => (format!("{} … {}", word(particle), word(verb)), false),
        Source::Implied(w) => (w.to_string(), true),
    }
}

/// The impact of term `t` in tool `d` (0 when the tool does not have it),
/// times the term's idf.
fn impact(index: &ToolIndex, t: u32, d: u32) -> f32 {
    let Some((docs, impacts, idf)) = postings(index, t as usize) else {
        return 0.0;
    };
    docs.iter()
        .position(|&x| x == d)
        .and_then(|i| impacts.get(i))
        .map_or(0.0, |&v| idf * v)
}

/// The best term of group `g` in tool `d`: its term, weight and score.
fn best_in(index: &ToolIndex, g: &Group, d: u32) -> Option<(u32, f32, f32)> {
    let mut best: Option<(u32, f32, f32)> = None;
    for &(t, w) in g {
        let v = w * impact(index, t, d);
        if v > 0.0 && best.is_none_or(|(_, _, b)| v > b) {
            best = Some((t, w, v));
        }
    }
    best
}

pub(crate) fn explain(index: &ToolIndex, query: &str, opts: &SearchOptions) -> Explanation {
    let results = search(index, query, opts);
    let a = analyze(index, query);
    let texts: Vec<(String, bool)> = a
        .sources
        .iter()
        .map(|&s| source_text(s, &a.words))
        .collect();
    let groups = a
        .groups
        .iter()
        .zip(&texts)
        .map(|(g, (from, implied))| TermGroup {
            from: from.clone(),
            implied: *implied,
            terms: g
                .iter()
                .map(|&(t, w)| WeightedTerm {
                    term: index.terms.get(t).to_string(),
                    weight: round(w),
                })
                .collect(),
        })
        .collect();
    let reading = Reading {
        language: a.lang.map(lang_code),
        kind: kind(a.act, a.need),
        act: act_name(a.act.act),
        past: a.act.past,
        why: a.act.why,
        places: a
            .places
            .iter()
            .filter_map(|&i| a.words.get(i).cloned())
            .collect(),
        groups,
        words: a.words.clone(),
    };
    let weights = name_weights(index, &a.groups);
    let mass = objects_mass(index, &a.objects);
    let named = exact(index, query);
    let hits = results
        .hits
        .iter()
        .filter_map(|hit| {
            let d = index.docs.iter().position(|doc| doc.name == hit.name)?;
            let id = u32::try_from(d).ok()?;
            let acts = index.acts.get(d).copied().unwrap_or(0);
            let mut terms = Vec::new();
            let mut matched = 0f32;
            if !hit.guess {
                for (g, (from, implied)) in a.groups.iter().zip(&texts) {
                    if let Some((t, w, v)) = best_in(index, g, id) {
                        matched += v;
                        terms.push(TermContribution {
                            from: from.clone(),
                            implied: *implied,
                            term: index.terms.get(t).to_string(),
                            weight: round(w),
                            score: round(v),
                        });
                    }
                }
            }
            let scored = matched > 0.0;
            let name_bonus = if scored {
                name_bonus_of(index, &weights, index.name_terms_of(d))
            } else {
                0.0
            };
            let acting = scored && a.act.act != 0;
            let head = index.name_terms_of(d).last().copied();
            let head_bonus = if acting {
                head_bonus_of(index, &a.objects, mass, a.act.act, head, acts)
            } else {
                0.0
            };
            let (act_factor, media) = if acting {
                (act_fit(a.act, acts), media_factor(a.act, a.visual, acts))
            } else {
                (1.0, 1.0)
            };
            Some(HitExplanation {
                name: hit.name.clone(),
                score: hit.score,
                category: hit.category.clone(),
                guess: hit.guess,
                exact: named == Some(id),
                terms,
                matched: round(matched),
                name_bonus: round(name_bonus),
                head_bonus: round(head_bonus),
                act_factor: round(act_factor),
                media_factor: round(media),
            })
        })
        .collect();
    Explanation {
        reading,
        total: results.total,
        fallback: results.fallback,
        hits,
    }
}

#[cfg(test)]
mod tests {
    use super::super::ToolIndex;
    use super::*;
    use crate::Catalog;

    fn homey() -> ToolIndex {
        let catalog = Catalog::parse(
            br#"[
            {"name": "set_light", "description": "Control a light: turn it on or off, or dim it.",
             "inputSchema": {"type": "object", "properties": {
                "deviceId": {"type": "string", "description": "The ID of the light device"},
                "state": {"type": "string", "enum": ["on", "off", "toggle"]},
                "dim": {"type": "number", "description": "Dim level (0-100)"}}}},
            {"name": "set_thermostat", "description": "Set the target temperature of a thermostat."},
            {"name": "get_states", "description": "Get the current state of devices.",
             "annotations": {"readOnlyHint": true}},
            {"name": "get_camera_image", "description": "Get the current image of a camera.",
             "annotations": {"readOnlyHint": true}},
            {"name": "get_flow_overview", "description": "Get all automation flows."},
            {"name": "delete_flow", "description": "Delete a flow.",
             "annotations": {"destructiveHint": true}}
        ]"#,
        )
        .unwrap();
        ToolIndex::build(&catalog, None).unwrap()
    }

    /// The score each hit's parts add up to: the search's own, unless the
    /// query names the tool exactly (then it is lifted above the others).
    fn adds_up(why: &Explanation) {
        for h in why.hits.iter().filter(|h| !h.exact && !h.guess) {
            let sum: f64 = h.terms.iter().map(|t| t.score).sum();
            assert!(
                (sum - h.matched).abs() < 1e-3,
                "{}: terms {sum} ≠ {}",
                h.name,
                h.matched
            );
            let total = (h.matched + h.name_bonus + h.head_bonus) * h.act_factor * h.media_factor;
            assert!(
                (total - h.score).abs() <= 1e-3 * h.score.max(1.0),
                "{}: {total} ≠ {}",
                h.name,
                h.score
            );
        }
    }

    #[test]
    fn the_hits_are_the_searchs_with_why_they_ranked() {
        let index = homey();
        for q in [
            "turn on the kitchen light",
            "zet het licht in de woonkamer aan",
            "is the light on?",
            "Wie warm ist es im Schlafzimmer?",
            "delete the morning flow",
            "I'm cold",
            "show me the camera",
            "thermostat",
        ] {
            let opts = SearchOptions::new().with_limit(4);
            let found = index.search(q, &opts);
            let why = index.explain(q, &opts);
            let names: Vec<_> = why.hits.iter().map(|h| (&h.name, h.score)).collect();
            let expected: Vec<_> = found.hits.iter().map(|h| (&h.name, h.score)).collect();
            assert_eq!(names, expected, "{q}");
            assert_eq!(why.total, found.total, "{q}");
            adds_up(&why);
        }
    }

    #[test]
    fn the_reading_says_question_command_need_act_and_place() {
        let index = homey();
        let opts = SearchOptions::new();
        let r = index
            .explain("zet het licht in de woonkamer aan", &opts)
            .reading;
        assert_eq!(
            (r.kind, r.act, r.language),
            ("command", Some("change"), Some("nl"))
        );
        assert_eq!(r.places, ["woonkamer"]);
        // the separable verb read whole, the place weighing less than the thing
        assert!(
            r.groups.iter().any(|g| g.from == "zet … aan"),
            "{:?}",
            r.groups
        );
        let place = r.groups.iter().find(|g| g.from == "woonkamer");
        assert!(place.is_none_or(|g| g.terms.iter().all(|t| t.weight < 1.0)));
        let light = r.groups.iter().find(|g| g.from == "licht").unwrap();
        assert!(light
            .terms
            .iter()
            .any(|t| t.term == "light" && t.weight == 1.0));

        let r = index.explain("is the light on?", &opts).reading;
        assert_eq!((r.kind, r.act), ("question", Some("read")));
        // a question implies the current state
        assert!(r.groups.iter().any(|g| g.implied && g.from == "state"));
        let r = index
            .explain("why did the light turn on yesterday?", &opts)
            .reading;
        assert!(r.why && r.past);
        assert_eq!(index.explain("I'm cold", &opts).reading.kind, "need");
        assert_eq!(index.explain("thermostat", &opts).reading.kind, "keywords");
        assert_eq!(index.explain("thermostat", &opts).reading.act, None);
    }

    #[test]
    fn each_hit_says_what_its_terms_bonuses_and_factors_did() {
        let index = homey();
        let opts = SearchOptions::new();
        // a question: the tool that reads fits, the camera is not asked for
        let why = index.explain("is the light on?", &opts);
        let states = why.hits.iter().find(|h| h.name == "get_states").unwrap();
        assert!(states.act_factor > 1.0);
        assert_eq!(states.media_factor, 1.0);
        let set = why.hits.iter().find(|h| h.name == "set_light").unwrap();
        assert!(set
            .terms
            .iter()
            .any(|t| t.term == "light" && t.from == "light"));
        assert!(set.name_bonus > 0.0, "the name names light");
        if let Some(camera) = why.hits.iter().find(|h| h.name == "get_camera_image") {
            assert!(camera.media_factor < 1.0);
        }
        // the exact name comes first and says so
        let why = index.explain("set light", &opts);
        assert!(why.hits[0].exact && why.hits[0].name == "set_light");
        assert!(why.hits.iter().skip(1).all(|h| !h.exact));
    }

    #[test]
    fn guesses_and_bad_input_are_explained_without_a_panic() {
        let index = homey();
        let opts = SearchOptions::new();
        let why = index.explain("qqthermoszz", &opts);
        assert_eq!(why.fallback, Some(Fallback::Spelling));
        assert!(why.hits.iter().all(|h| h.guess && h.terms.is_empty()));
        let long = "licht ".repeat(5_000);
        for q in ["", "   ", "?!", "🙂🙂", long.as_str(), "\u{0}\u{ffff}"] {
            let why = index.explain(q, &opts);
            assert!(why.reading.words.len() <= 64);
            adds_up(&why);
        }
        let json = serde_json::to_value(index.explain("turn on the light", &opts)).unwrap();
        assert_eq!(json["reading"]["kind"], "command");
        assert!(json["hits"][0]["terms"][0]["score"].is_number());
        assert!(json["hits"][0]["nameBonus"].is_number());
    }

    /// On the real catalogs of the corpus (beside the checkout), every
    /// query of the labelled sets: the parts add up to the search's scores.
    #[test]
    fn explanations_add_up_on_the_corpus() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let corpus = root.join("../shared/corpus");
        let mut checked = 0;
        for (file, queries) in [
            (
                "home-assistant-2025.4.tools-list.json",
                "tests/search/home-assistant-queries.json",
            ),
            (
                "ha-mcp-8.7.0.tools-list.json",
                "tests/search/ha-mcp-queries.json",
            ),
        ] {
            let (Ok(text), Ok(qs)) = (
                std::fs::read(corpus.join(file)),
                std::fs::read_to_string(root.join(queries)),
            ) else {
                continue;
            };
            let index = ToolIndex::parse(&text, None).unwrap();
            let qs: serde_json::Value = serde_json::from_str(&qs).unwrap();
            let mut all = Vec::new();
            collect_queries(&qs, &mut all);
            for q in all.iter().take(300) {
                let opts = SearchOptions::new().with_limit(5);
                let why = index.explain(q, &opts);
                let found = index.search(q, &opts);
                assert_eq!(why.hits.len(), found.hits.len(), "{q}");
                adds_up(&why);
                checked += 1;
            }
        }
        // the corpus is beside every checkout that runs the tests
        assert!(
            checked > 100,
            "only {checked} queries checked: is ../shared/corpus there?"
        );
    }

    /// Every string under a `text` key.
    fn collect_queries(v: &serde_json::Value, into: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    match (k.as_str(), x) {
                        ("text", serde_json::Value::String(s)) => into.push(s.clone()),
                        _ => collect_queries(x, into),
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| collect_queries(x, into)),
            _ => {}
        }
    }
}
