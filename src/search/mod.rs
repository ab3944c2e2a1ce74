//! Ranked tool search without an embedding model: [`ToolIndex`] says
//! what it reads, how it ranks and what a query can ask; [`EntityIndex`]
//! finds the home's own things by the names people say, with the same
//! analysis.

mod act;
mod analyze;
mod entities;
mod index;
mod lexicon;
mod memo;
mod rank;
mod scan;

use serde::Serialize;

pub use entities::{EntityIndex, EntityKind, EntityMatch, Resolution, ResolveOptions};

use analyze::Strings;

use crate::catalog::Catalog;
use crate::error::Error;

/// Catalog text length past which [`ToolIndex::parse`] copies the strings
/// it reads out of the text, to let the text go before the words are read.
const OWN_STRINGS_PAST: usize = 4 << 20;

/// A search index over a catalog's tools. Build it once per catalog; every
/// search then reads precomputed postings.
///
/// [`ToolIndex::build`] reads every tool of a [`Catalog`] into searchable
/// fields, each with its own weight:
///
/// | field | from |
/// |---|---|
/// | name | the name split on camelCase, `snake_case`, dots, `__` namespaces and digits |
/// | title | `title` or `annotations.title` |
/// | summary | the first sentence of the description, and the curated description |
/// | keywords | curated tags and keywords |
/// | body | the rest of the description, less mentions of other tools by name |
/// | params | parameter names, titles and descriptions (nested ones too) |
/// | enums | `enum` and `const` values |
/// | category | the category and the hints `read only` and `destructive` |
///
/// [`ToolIndex::search`] ranks tools with BM25F (per-field length
/// normalisation, one saturation per term), on words that are:
///
/// * **folded**: lower case, diacritics stripped (`Lautstärke` →
///   `lautstarke`), split like identifiers (`HassTurnOn` → `hass turn on`);
/// * **stemmed** with Snowball: English for the index, and English, Dutch,
///   German and French for looking words up;
/// * **expanded** through a small English, Dutch, German and French
///   smart-home lexicon of words, not phrases (`lamp`, `licht`, `Lampe`,
///   `lumière` → `light`; `verwarming`, `Heizung`, `chauffage` →
///   `thermostat|climate|heating`), including separable verbs (`zet ...
///   aan`, `schalte ... aus`, `einschalten` → `turn on`);
/// * **joined** when two neighbours are one word the index or the lexicon
///   knows (`back-up` → `backup`, `hoe laat` → `hoelaat`), and **read
///   together** when a pair means something else: the sound switched off
///   is muted (`Ton aus`, `geluid uit`, `coupe le son`), switched on again
///   unmuted, started again restarted (`neu starten`, `opnieuw
///   opstarten`), when the catalog has such a tool;
/// * **read as what they do** where a catalog names the act and not the
///   thing: a lock is locked by switching it on or closing it and unlocked
///   by switching it off or opening it, a scene, a script or a mode is
///   switched on to run it, a robot is most likely the vacuum, and what is
///   set on a list is added to it (`zet melk op de lijst`, `setz Milch auf
///   die Liste`);
/// * **split** when they are Dutch or German compounds
///   (`slaapkamerlamp` → `slaapkamer` + `lamp`);
/// * **corrected** when they are in neither the index nor the lexicon
///   (words of 5 letters or more): the closest index terms or lexicon words
///   within one edit, two for words of 9 chars or more, weighted down.
///
/// Each query word becomes a group of alternatives (the word, its lexicon
/// synonyms, its corrections); a tool scores the best alternative of each
/// group. A tool whose name the query names gets a bonus for the share of
/// its name words (by idf) the query matches, so `turn off the lights`
/// ranks `HassTurnOff` above a script whose description turns lights off.
/// A query that is exactly a tool's name (ignoring case and separators:
/// `set light` finds `set_light`) puts that tool first. Ties are broken by
/// name, so results are the same on every platform and every run.
///
/// ## What the query asks for
///
/// A query also says what kind of act it wants, and each tool what it
/// does. The query is a **question** about the state of things (`is the
/// garage door still open?`, `hoe warm is het boven?`, `Sind noch Fenster
/// offen?`, `quelle heure est-il ?`), a request to **read** (`list my
/// scenes`, `toon het logboek`), or a command to **change**, **create** or
/// **delete** (`turn off the lights`, `maak een back-up`, `lösche die
/// Szene`). That is read from the form of the sentence: question words,
/// a verb first that only asks (`is`, `staat`, `läuft`), a conjugated
/// Dutch or German verb first with its subject (`wordt er ... gemeten`,
/// `öffnet sich das Rollo`), a question mark, a modal that makes a question
/// a request (`can you`, `kun je`, `kannst du`, `peux-tu`), `tell me if`;
/// and from the verb: first, last for a Dutch or German infinitive, or a
/// separable verb (`make a` and `maak een` create).
///
/// A tool's acts are derived from its catalog entry, never listed per tool:
/// `readOnlyHint`, the verbs of its name and title (`get`, `list`, `set`,
/// `create`, `delete`, ...; a noun that is also a verb, as `list` in
/// `HassListAddItem`, gives way to the real verb), the first verb of its
/// description, `destructiveHint`, and when nothing else tells, whether a
/// parameter holds a value to write. A tool's score is multiplied by how
/// its acts fit the query's: a question is rarely answered by a tool that
/// only writes, a command never by one that only reads.
///
/// A question also brings what it implies: the current state (`state`,
/// `status`, `current`: the words of the tools that report it), or the
/// history when it is about times gone by (`yesterday`, `vannacht`,
/// `gestern`), or debugging and traces when it asks why. In a question, the
/// words that would change something describe the state asked about (`is
/// the door open`, `what is it set to`) and weigh less. A word nobody knows
/// that is the only object of a command or a question is taken for a
/// device's name (`zet de koffiezetter aan`), and so is a thing the
/// catalog has no word for (`tuinverlichting` where the tools only control
/// devices). A place beside the thing a query is about only says where it
/// is and weighs less (`the kitchen light` is a light), unless an
/// indefinite article makes it the thing (`a new zone`). A tool that
/// manages something (`ha_manage_updates`) does every act on it.
///
/// ## Needs, quantities, troubles
///
/// A statement that neither asks nor commands says a need (`I'm cold`,
/// `ik zie niks in de gang`, `die Musik ist zu laut`, `de melk is op`):
/// what answers it is searched for, from a table of needs in English,
/// Dutch and German that the index never reads (cold: heat up; dark or
/// nothing to see: light on; too bright or the sun in the eyes: dim,
/// close the covers; stuffy: air the room; too loud: volume down; not
/// heard: volume up; dirty: vacuum; out of something: the shopping list;
/// slow: the system's health). A quantity (a number, `%`, `procent`,
/// degrees, a step such as `a bit` or `een tandje`, more or less) brings
/// what the thing it is said of is set by: a cover's position, a light's
/// brightness, a speaker's volume, a fan's speed; a number to reach (`to
/// 20%`) asks to set a value rather than to step. Something that keeps
/// happening (`keeps turning on by itself`, `steeds vanzelf`, `ständig`)
/// asks why, and a question why brings traces, logs, the history and the
/// automations (less when it says what goes wrong: a crash, a device out
/// of reach). A question about the present state of a thing in the home
/// implies a device's state and a capability's value, and a tool whose
/// name says it gives something seen (a camera's image, a screenshot)
/// weighs less in it unless something seen is asked for. A command whose
/// things no tool that writes has a word for (`lock the front door` where
/// a tool sets any device's capabilities) is read as a device's
/// capability. A web address (`example.com`, `nu.nl`, `https://…`) is a
/// page to go to.
///
/// A word after a determiner, a quantifier, `there` (`er`, `es`) or
/// `which`, or right after a question's opening `are` (`zijn`, `sind`), is
/// a noun even if it could be a verb (`zijn er updates?`). A query that
/// reads about what a reading tool's name is about (the name's last word
/// is one of the query's objects) gets that tool a bonus by the share of
/// the query's objects that word is: `are there any updates?` is about
/// `ha_manage_updates`, not about the state of a device. A command gets a
/// tool that writes a smaller bonus the same way (`create a toggle
/// helper` is about `ha_config_set_helper` more than about a backup).
/// `Give` a thing something sets it (`geef de sproeiers een label`, `gib
/// der Lampe einen Namen`), and a word only the lexicon reads as a verb
/// says how a thing is even after `er` (`welke updates staan er klaar`).
///
/// Everything a search reads is computed by `build`: per-term postings
/// with the BM25F impact of every (term, tool) pair, idf, each tool's
/// acts, a name-order permutation for tie-breaking and term lengths for
/// typo search. A search reads each query word once (stem, lexicon,
/// act), looks it up in hash maps, adds postings into one score array and
/// sorts only the hits it returns; typo search only looks at terms of a
/// reachable length with a compatible letter set.
///
/// ```
/// use mcp_switchboard::{Catalog, SearchOptions, ToolIndex};
///
/// let catalog = Catalog::parse(br#"[
///   {"name": "set_light", "description": "Turn a light on or off, or dim it."},
///   {"name": "set_thermostat", "description": "Set the target temperature."},
///   {"name": "get_states", "description": "Get current device states.",
///    "annotations": {"readOnlyHint": true}}
/// ]"#)?;
/// let index = ToolIndex::build(&catalog, None)?;
/// let found = index.search("lamp aan", &SearchOptions::default());
/// assert_eq!(found.hits[0].name, "set_light");
/// assert_eq!(index.search("verwarming", &SearchOptions::default()).hits[0].name, "set_thermostat");
/// assert_eq!(index.category("get_states"), Some("query"));
/// // a question about the state, a command: the same words, other tools
/// assert_eq!(index.search("is the light on?", &SearchOptions::default()).hits[0].name, "get_states");
/// assert_eq!(index.search("turn the light on", &SearchOptions::default()).hits[0].name, "set_light");
/// assert_eq!(index.suggest("set_lights", 1), ["set_light"]);
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
///
/// ## Curated metadata
///
/// An optional JSON document adds to what the catalog says, per tool name:
///
/// ```json
/// {"tools": {
///   "set_light": {
///     "category": "control",
///     "tags": ["lights"],
///     "description": "Turn a light on or off, or dim it",
///     "keywords": ["lamp", "verlichting", "Lampe", "dimmen"]
///   }
/// }}
/// ```
///
/// Every field is optional. `category` replaces the derived category;
/// `description` is searched with the first sentence of the tool's own
/// description and becomes the hit's short description; `tags` and
/// `keywords` (strings or arrays of strings, any language) are searched
/// with a weight close to the name's. Entries for tools not in the catalog
/// are ignored, and so are unknown fields. A value of the wrong type is an
/// [`ErrorKind::Shape`](crate::ErrorKind::Shape) error with its JSON
/// Pointer.
///
/// Without a curated category, one is derived: `query` for read-only tools
/// (`readOnlyHint`, or a first verb such as get, list, search), else
/// `create`, `update`, `delete` or `control` by the first verb of the name
/// (`set`, `turn`, `toggle` are `control`) or of the description;
/// `control` for tools annotated as writing; `other` when nothing tells.
///
/// ## Never an empty answer
///
/// A search that matches nothing answers with guesses, said to be
/// guesses ([`SearchResults::fallback`], and [`Hit::guess`] on each hit):
/// the tools whose words are spelled most like the query's (letter
/// trigrams, for words cut short, run together or mistyped past what typo
/// correction fixes), weighed by how they fit the act asked for
/// ([`Fallback::Spelling`]); else the tools that do what the query asks,
/// or every tool when it does not say ([`Fallback::Act`]). Only an empty
/// catalog or category answers with nothing, or a search with
/// [`SearchOptions::with_fallback`] off.
///
/// ```
/// use mcp_switchboard::{Catalog, Fallback, SearchOptions, ToolIndex};
///
/// let catalog = Catalog::parse(br#"[
///   {"name": "set_thermostat", "description": "Set the target temperature."},
///   {"name": "get_states", "description": "Current device states.", "annotations": {"readOnlyHint": true}}
/// ]"#)?;
/// let index = ToolIndex::build(&catalog, None)?;
/// let r = index.search("qqthermoszz", &SearchOptions::new());
/// assert_eq!(r.fallback, Some(Fallback::Spelling));
/// assert!(r.hits[0].guess && r.hits[0].name == "set_thermostat");
/// // a need said as a feeling
/// assert_eq!(index.search("I'm freezing", &SearchOptions::new()).hits[0].name, "set_thermostat");
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
///
/// ## Bad input
///
/// Queries are read up to their first 64 words (each cut at 40 chars);
/// anything is accepted, and nothing panics. A query with no searchable
/// word (empty, only punctuation or emoji, only stop-words) lists the tools
/// by name with score 0, so that a category filter alone browses a
/// category.
#[derive(Debug, Clone)]
pub struct ToolIndex {
    docs: Vec<index::Doc>,
    /// What each tool does (see `act`), one byte a tool.
    acts: Vec<u8>,
    /// The categories, numbered (each tool has the number of its own).
    categories: Strings,
    /// The index terms, numbered.
    terms: Strings,
    masks: Vec<u32>,
    /// Term ids by byte length, for typo search; `len_start[n]` is where
    /// length `n` starts.
    by_len: Vec<u32>,
    len_start: Vec<u32>,
    idf: Vec<f32>,
    offsets: Vec<u32>,
    post_doc: Vec<u32>,
    post_impact: Vec<f32>,
    surfaces: Strings,
    /// Each tool's name terms, one tool after the other; `name_ends[d]` is
    /// where tool `d`'s end.
    name_terms: Vec<u32>,
    name_ends: Vec<u32>,
    /// Tools in name order.
    by_rank: Vec<u32>,
    /// Each tool's place in name order.
    name_rank: Vec<u32>,
    /// Folded names, and the first tool of each.
    folded: Strings,
    folded_doc: Vec<u32>,
    /// Name keys (the folded words of the name joined by `_`: `HassTurnOn`
    /// → `hass_turn_on`), each tool's key, and the first tool of each key.
    keys: Strings,
    key_ids: Vec<u32>,
    key_doc: Vec<u32>,
}

/// What to search for besides the query text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchOptions {
    /// Most hits returned (default 5). [`SearchResults::total`] still
    /// counts every match.
    pub limit: usize,
    /// Only tools of this category (compared ignoring case).
    pub category: Option<String>,
    /// When nothing matches, answer with guesses (default `true`; see
    /// [`SearchResults::fallback`]).
    pub fallback: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            limit: 5,
            category: None,
            fallback: true,
        }
    }
}

impl SearchOptions {
    /// The default options: 5 hits, every category.
    pub fn new() -> Self {
        SearchOptions::default()
    }

    /// Sets the most hits returned.
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// Keeps only tools of this category.
    pub fn with_category(mut self, category: impl Into<String>) -> Self {
        self.category = Some(category.into());
        self
    }

    /// Whether a search that matches nothing answers with guesses.
    pub fn with_fallback(mut self, fallback: bool) -> Self {
        self.fallback = fallback;
        self
    }
}

/// The outcome of a search: the best hits and how many tools matched.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SearchResults {
    /// Tools that matched (after the category filter), of which `hits`
    /// holds the first `limit`; in a fallback, the tools guessed.
    pub total: usize,
    /// The best matches, best first.
    pub hits: Vec<Hit>,
    /// How the hits were guessed when nothing matched the query (absent
    /// from the JSON when they matched): the answer is never empty unless
    /// the catalog or the category is (or [`SearchOptions::fallback`] is
    /// off), and a model reading it knows the hits are guesses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Fallback>,
}

/// How the hits of a search that matched nothing were guessed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Fallback {
    /// The tools whose words are spelled most like the query's (letter
    /// trigrams: words cut short, run together or mistyped past what typo
    /// correction fixes), weighed by how they fit the act asked for.
    Spelling,
    /// The tools that do what the query asks (read, change, create,
    /// delete), or every tool when it does not say.
    Act,
}

/// One search hit.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Hit {
    /// The tool's MCP name.
    pub name: String,
    /// The relevance score, rounded to 4 decimals (higher is better; only
    /// comparable within one search).
    pub score: f64,
    /// The tool's category, curated or derived.
    pub category: String,
    /// A short description: the curated one, else the first sentence of
    /// the tool's description (at most 200 chars).
    pub description: String,
    /// A guess of a fallback, not a match (see [`SearchResults::fallback`];
    /// absent from the JSON when `false`).
    #[serde(skip_serializing_if = "is_false")]
    pub guess: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl ToolIndex {
    /// Indexes every tool of `catalog`, with optional curated metadata (see
    /// [`ToolIndex`] for its shape). Fails only when the metadata
    /// has the wrong shape.
    pub fn build(catalog: &Catalog, meta: Option<&serde_json::Value>) -> Result<ToolIndex, Error> {
        index::build(catalog, meta)
    }

    /// Reads a catalog's JSON text and indexes it: the same index, and the
    /// same errors, as [`Catalog::parse`] then [`ToolIndex::build`], with
    /// far less memory and time. The usual shapes (a `tools/list`
    /// response, its result, an array of tools) are read straight from the
    /// text, only the strings the index needs taken and no value tree
    /// built; any other input is read through [`Catalog::parse`].
    ///
    /// ```
    /// use mcp_switchboard::{Catalog, SearchOptions, ToolIndex};
    ///
    /// let text = br#"{"tools": [{"name": "set_light", "description": "Turn a light on or off.",
    ///     "inputSchema": {"type": "object", "properties": {"on": {"type": "boolean"}}}}]}"#;
    /// let index = ToolIndex::parse(text, None)?;
    /// let same = ToolIndex::build(&Catalog::parse(text)?, None)?;
    /// let opts = SearchOptions::new();
    /// assert_eq!(index.search("turn on the light", &opts), same.search("turn on the light", &opts));
    /// # Ok::<(), mcp_switchboard::Error>(())
    /// ```
    pub fn parse(input: &[u8], meta: Option<&serde_json::Value>) -> Result<ToolIndex, Error> {
        ToolIndex::parse_text(std::borrow::Cow::Borrowed(input), meta)
    }

    /// [`ToolIndex::parse`] of text given away: the text is let go as
    /// soon as it is not needed. A large text (past [`OWN_STRINGS_PAST`])
    /// goes before the tools' words are read, their strings copied out of
    /// it first (a catalog's text is mostly what the index does not read);
    /// a smaller one once they are read.
    pub(crate) fn parse_text(
        input: std::borrow::Cow<'_, [u8]>,
        meta: Option<&serde_json::Value>,
    ) -> Result<ToolIndex, Error> {
        let read = match std::str::from_utf8(&input).ok().map(scan::of_text) {
            Some(Ok(tools)) if input.len() > OWN_STRINGS_PAST => {
                let mut owned = Vec::with_capacity(tools.len());
                for t in tools {
                    owned.push(t.into_owned());
                }
                drop(input);
                index::read(owned, meta)?
            }
            Some(Ok(tools)) => index::read(tools, meta)?,
            _ => return index::build(&Catalog::parse(&input)?, meta),
        };
        Ok(index::finish(read))
    }

    /// Ranks the tools for `query`.
    pub fn search(&self, query: &str, opts: &SearchOptions) -> SearchResults {
        rank::search(self, query, opts)
    }

    /// Number of tools indexed.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Whether no tool is indexed.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The category of the tool with this exact name.
    pub fn category(&self, name: &str) -> Option<&str> {
        self.docs
            .iter()
            .find(|d| d.name == name)
            .map(|d| self.categories.get(d.category))
    }

    /// The name terms of tool `d`.
    fn name_terms_of(&self, d: usize) -> &[u32] {
        let start = match d.checked_sub(1) {
            Some(p) => self.name_ends.get(p).copied().unwrap_or(0),
            None => 0,
        };
        let end = self.name_ends.get(d).copied().unwrap_or(start);
        self.name_terms
            .get(start as usize..end as usize)
            .unwrap_or(&[])
    }

    /// The name key of tool `d`.
    fn key_of(&self, d: usize) -> &str {
        self.key_ids.get(d).map_or("", |&k| self.keys.get(k))
    }

    /// Up to `k` tool names closest to a name that is not in the catalog,
    /// best first, for an "unknown tool, did you mean ..." answer. Names
    /// are compared ignoring case and separators, by edit distance (a third
    /// of the longer name at most) and by the share of words they have in
    /// common (half at least); other names are not suggested.
    pub fn suggest(&self, unknown_name: &str, k: usize) -> Vec<String> {
        rank::suggest(self, unknown_name, k)
    }
}

#[cfg(test)]
mod tests;
