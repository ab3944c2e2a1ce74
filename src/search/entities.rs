//! The home's own things by the names people say: zones, devices, Flows
//! and moods, read with the tool search's analysis (folding, stems in
//! English, Dutch and German, the lexicon, compounds, typos).

use serde::Serialize;
use serde_json::Value;

use super::analyze::{
    desc, edit_distance, fold, halves, is_determiner, is_stopword, key as sort_key, letter_mask,
    split_compound, undesc, words, Lang, Stemmers, Strings,
};
use super::index::order_by;
use super::lexicon::Lexicon;
use crate::error::{Error, ErrorKind};
use crate::pointer;

/// Things indexed, at most (the rest are left out).
const MAX_THINGS: usize = 100_000;
/// Words of a name read, at most.
const MAX_NAME_WORDS: usize = 12;
/// Words of a reference read, at most.
const MAX_TEXT_WORDS: usize = 24;
/// Zones above a thing read for its place, at most (and the most a cycle
/// of parents is followed).
const MAX_DEPTH: usize = 8;
/// Words corrected as typos per reference, at most.
const MAX_TYPO_WORDS: usize = 4;

/// How much a word counts where it matched: the thing's own name, the
/// zones it is in (a zone's parents), its class.
const NAME: f32 = 1.0;
const PLACE: f32 = 0.8;
const CLASS: f32 = 0.8;
/// How much a word counts by how it matched: as written, by a stem, by a
/// compound's part, by meaning (the lexicon: `lamp`, `light`, `Lampe`),
/// as a typo (one edit, two).
const SAME: f32 = 1.0;
const STEM: f32 = 0.9;
const PART: f32 = 0.95;
const MEANING: f32 = 0.8;
const TYPO: [f32; 2] = [0.75, 0.55];
/// Factor of a thing of another kind than the reference names (`room`,
/// `flow`, `sfeer`).
const OTHER_KIND: f32 = 0.5;
/// The bit of a posting that says it is a class: a thing known by its
/// class is half named (`the kitchen speaker` for `Sonos One`).
const CLASS_BIT: u32 = 1 << 31;
/// Words of a name counted for coverage, at most (the bits below
/// [`CLASS_BIT`]).
const NAME_BITS: u32 = 31;
/// Lowest score reported.
const MIN_SCORE: f32 = 0.15;
/// Share of the best score within which a match is as good (ambiguous).
const AS_GOOD: f32 = 0.97;

/// What a thing of the home is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum EntityKind {
    /// A zone (a room, a floor, the house), which may be in another.
    Zone,
    /// A device, in a zone, of a class (`light`, `socket`, ...).
    Device,
    /// A Flow (an automation).
    Flow,
    /// A mood (a scene of a zone).
    Mood,
}

impl EntityKind {
    /// Reads a kind's name (`zone`, `device`, `flow`, `mood`, ignoring case).
    pub fn parse(name: &str) -> Option<EntityKind> {
        Some(match fold(name.trim()).as_str() {
            "zone" => EntityKind::Zone,
            "device" => EntityKind::Device,
            "flow" => EntityKind::Flow,
            "mood" => EntityKind::Mood,
            _ => return None,
        })
    }

    fn plural(self) -> &'static str {
        match self {
            EntityKind::Zone => "zones",
            EntityKind::Device => "devices",
            EntityKind::Flow => "Flows",
            EntityKind::Mood => "moods",
        }
    }
}

/// One thing of the home.
#[derive(Debug, Clone)]
struct Thing {
    id: String,
    name: String,
    kind: EntityKind,
    /// The zone it is in (a zone: its parent), by number.
    zone: Option<u32>,
    class: Option<String>,
    /// Words of the name that count for coverage (not stop-words), at
    /// most 32.
    words: u8,
}

/// Where a word matched a thing.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Posting {
    thing: u32,
    /// [`NAME`], [`PLACE`] or [`CLASS`] times how it was indexed (a
    /// compound's part, a meaning).
    weight: f32,
    /// The word of the name (a bit of the coverage), or 0 for a place or
    /// a class.
    word: u32,
}

/// An index of the home's names: zones with their parents, devices with
/// their zone and class, Flows and moods. Build it once per home (and
/// again when the home changes); [`EntityIndex::resolve`] then matches
/// what people say to them.
///
/// Names are read like the tool search reads a catalog: folded (`Kantoor`,
/// `kantoor`), stemmed in English, Dutch and German (`lampen`, `lamps`),
/// by meaning through the search's lexicon (`lamp`, `light`, `Lampe`;
/// `study`, `studeerkamer`, `Arbeitszimmer`), split when they are
/// compounds (`Leeslamp`: `lees` + `lamp`; `Slaapkamerraam`), and
/// corrected within one or two edits (`leeslmap`). A device is also known
/// by its zone and the zones above it (`the lamp in the study`,
/// `slaapkamer boven`) and by its class (`light`, `socket`); a zone by its
/// parents. Words for a floor say where (`boven`, `upstairs`, `oben`;
/// `begane grond`, `downstairs`, `Erdgeschoss`), and words for a kind say
/// what (`room`, `kamer`, `Flow`, `sfeer`, `Stimmung`).
///
/// ```
/// use mcp_switchboard::{EntityIndex, EntityKind, ResolveOptions};
///
/// let home = serde_json::json!({
///   "zones": [
///     {"id": "z0", "name": "Huis"},
///     {"id": "z1", "name": "Begane grond", "parent": "z0"},
///     {"id": "z2", "name": "Woonkamer", "parent": "z1"},
///     {"id": "z3", "name": "Boven", "parent": "z0"},
///     {"id": "z4", "name": "Studeerkamer", "parent": "z3"}
///   ],
///   "devices": [
///     {"id": "d1", "name": "Leeslamp", "zone": "z2", "class": "light"},
///     {"id": "d2", "name": "Leeslamp", "zone": "z4", "class": "light"},
///     {"id": "d3", "name": "Lamp naast de bank", "zone": "z2", "class": "light"}
///   ],
///   "flows": [{"id": "f1", "name": "Goedemorgen"}],
///   "moods": [{"id": "m1", "name": "Filmavond", "zone": "z2"}]
/// });
/// let index = EntityIndex::build(&home)?;
/// let opts = ResolveOptions::new();
/// let r = index.resolve("the reading lamp in the study", &opts);
/// assert_eq!(r.matches[0].id, "d2");
/// assert_eq!(index.resolve("lamp naast de bank", &opts).matches[0].id, "d3");
/// assert_eq!(index.resolve("begane grond", &opts).matches[0].id, "z1");
/// // one name, two lamps: said, with where they are
/// let r = index.resolve("Leeslamp", &opts);
/// assert!(r.ambiguous);
/// assert_eq!(r.note.as_deref(), Some("2 devices called Leeslamp: Woonkamer, Studeerkamer"));
/// assert!(r.unique().is_none());
/// // a kind narrows it
/// let r = index.resolve("filmavond", &ResolveOptions::new().with_kind(EntityKind::Mood));
/// assert_eq!(r.unique().map(|m| m.id.as_str()), Some("m1"));
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
///
/// ## The home's shape
///
/// ```json
/// {"zones":   [{"id": "…", "name": "Woonkamer", "parent": "<zone id>"}],
///  "devices": [{"id": "…", "name": "Leeslamp", "zone": "<zone id>", "class": "light"}],
///  "flows":   [{"id": "…", "name": "Goedemorgen"}],
///  "moods":   [{"id": "…", "name": "Filmavond", "zone": "<zone id>"}]}
/// ```
///
/// ## Tool arguments that name a thing
///
/// [`EntityIndex::resolve_id`] gives the ID a tool argument should carry
/// when a model wrote a name where a tool takes an ID (`zoneId:
/// "Begane grond"`): a host that knows which of its tools' arguments name
/// things replaces the value before the call, and asks the model which
/// one it means when the name is ambiguous (the [`Resolution::note`]).
///
/// ## The home's shape, in detail
///
/// Every list is optional and may also be an object keyed by ID (as
/// Homey's API gives them; an item's own `id` wins over its key). A zone's
/// `parent` and a device's or mood's `zone` (or `zoneId`) name a zone by
/// its ID; unknown IDs are left out. A device's `virtualClass`, when it
/// has one, is its class (a socket that switches a light is a light).
/// Other fields are ignored. An item that is not an object, or without a
/// string `name` or `id`, is an [`ErrorKind::Shape`] error with its JSON
/// Pointer. At most 100,000 things are read.
#[derive(Debug, Clone)]
pub struct EntityIndex {
    things: Vec<Thing>,
    /// Keys (`=` surface, `~` stem, `#` meaning, `!` whole name), each
    /// with its postings.
    keys: Strings,
    postings: Vec<Vec<Posting>>,
    /// Words of names and places, with their letter masks, for typos.
    vocab: Strings,
    masks: Vec<u32>,
    /// Each thing's place among zones, devices, Flows and moods, each kind
    /// by name and ID (how equal scores are ordered), and the things in
    /// that order.
    order: Vec<u32>,
    by_order: Vec<u32>,
}

/// What to resolve a reference to.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResolveOptions {
    /// Only things of this kind.
    pub kind: Option<EntityKind>,
    /// Most matches returned (default 5).
    pub limit: usize,
}

impl Default for ResolveOptions {
    fn default() -> Self {
        ResolveOptions {
            kind: None,
            limit: 5,
        }
    }
}

impl ResolveOptions {
    /// The default options: every kind, 5 matches.
    pub fn new() -> Self {
        ResolveOptions::default()
    }

    /// Only things of this kind.
    pub fn with_kind(mut self, kind: EntityKind) -> Self {
        self.kind = Some(kind);
        self
    }

    /// Sets the most matches returned.
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }
}

/// What a reference resolved to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
#[must_use]
pub struct Resolution {
    /// The things it may mean, best first.
    pub matches: Vec<EntityMatch>,
    /// Whether more than one thing matches as well as the best: the
    /// reference does not say which (`2 devices called Leeslamp`).
    pub ambiguous: bool,
    /// What is ambiguous, for a person or a model to ask about: `2
    /// devices called Leeslamp: Woonkamer, Studeerkamer`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Resolution {
    /// The one thing the reference means: the best match, when there is
    /// one and nothing else matches as well (what a tool argument that
    /// names a thing can be replaced with before a call).
    pub fn unique(&self) -> Option<&EntityMatch> {
        self.matches.first().filter(|_| !self.ambiguous)
    }
}

/// One thing a reference may mean.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct EntityMatch {
    /// The thing's ID.
    pub id: String,
    /// Its name, as the home has it.
    pub name: String,
    /// What it is.
    pub kind: EntityKind,
    /// The zone it is in (a zone: its parent), by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// That zone's ID.
    #[serde(rename = "zoneId", skip_serializing_if = "Option::is_none")]
    pub zone_id: Option<String>,
    /// A device's class.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// How well it matches, 0 to 2 (above 1: the whole name, as said),
    /// rounded to 4 decimals.
    pub score: f64,
    /// Why it matches: each word of the reference and what it matched
    /// (`"lees: name (part of Leeslamp)"`, `"study: zone Studeerkamer (by
    /// meaning)"`).
    pub why: Vec<String>,
}

/// Words of the home's names that mean the same in English, Dutch and
/// German, finer than the search's lexicon (which reads a front door and
/// a back door both as a door, a dishwasher and a dryer both as a
/// device), one meaning a line: `meaning: words`. Read before the
/// lexicon, for names and references alike.
pub(crate) const WORDS: &str = r"
bed: bed bedside bett
upstairs: upstairs upper boven bovenverdieping bovenste eerste oben obergeschoss erste
downstairs: downstairs ground beneden begane grond benedenverdieping gelijkvloers parterre unten erdgeschoss
frontdoor: frontdoor front voordeur haustur vordertur
backdoor: backdoor achterdeur hintertur
ceiling: ceiling plafond decke
pendant: pendant hang hangelampe pendelleuchte
mirror: mirror spiegel
towel: towel handdoek handtuch
stairs: stairs stair staircase trap treppe
christmas: christmas xmas kerst kerstboom weihnachten weihnachtsbaum
tree: tree boom baum
purifier: purifier luchtreiniger luftreiniger
pond: pond vijver teich
pump: pump pomp pumpe
charger: charger charging wallbox laadpaal laadpunt lader oplader ladestation
car: car auto
heater: heater verwarmer kachel heizstrahler
study: study studeerkamer studeer studierzimmer
office: office kantoor werkkamer buro arbeitszimmer
guest: guest guestroom logeerkamer logeer logeren gastzimmer gast
laundry: laundry laundryroom washok wasruimte waschkuche
driveway: driveway oprit einfahrt auffahrt
shed: shed schuur schuppen
left: left links linke linken
right: right rechts rechter rechte
underfloor: underfloor floorheating vloerverwarming fussbodenheizung
dishwasher: dishwasher vaatwasser vaatwasmachine spulmaschine geschirrspuler
washer: washer washingmachine wasmachine waschmaschine
dryer: dryer tumbledryer droger wasdroger trockner
kettle: kettle waterkoker wasserkocher
coffee: coffee koffie kaffee
fridge: fridge refrigerator koelkast kuhlschrank
freezer: freezer vriezer diepvries gefrierschrank
";

/// The meaning a word has in [`WORDS`].
fn home_word(w: &str) -> Option<&'static str> {
    Lexicon::get().home_word(w)
}

/// Words that say where, not what (`naast`, `neben`, `next to`).
fn relation(word: &str) -> bool {
    matches!(
        word,
        "naast"
            | "bij"
            | "tegenover"
            | "achter"
            | "next"
            | "near"
            | "beside"
            | "behind"
            | "neben"
            | "hinter"
            | "gegenuber"
            | "opposite"
    )
}

/// The kind a word names (`room`, `kamer`, `Flow`, `sfeer`), by its meaning.
fn kind_word(meaning: &str) -> Option<EntityKind> {
    Some(match meaning {
        "room" | "area" | "zone" | "floor" | "upstairs" | "downstairs" => EntityKind::Zone,
        "automat" | "flow" => EntityKind::Flow,
        "mood" => EntityKind::Mood,
        "devic" => EntityKind::Device,
        _ => return None,
    })
}

/// A word read once: its surface, stems and meaning.
struct Word {
    surface: String,
    stems: Vec<String>,
    meaning: Option<String>,
}

/// The analysis shared by names and references.
struct Reader {
    lex: &'static Lexicon,
    stemmers: Stemmers,
}

impl Reader {
    fn new() -> Reader {
        Reader {
            lex: Lexicon::get(),
            stemmers: Stemmers::new(),
        }
    }

    fn word(&self, w: &str) -> Word {
        // each stem once, for the keys and for the lexicon (French: none)
        let all = [
            self.stemmers.stem(Lang::En, w),
            self.stemmers.stem(Lang::Nl, w),
            self.stemmers.stem(Lang::De, w),
            String::new(),
        ];
        let mut stems: Vec<String> = Vec::with_capacity(3);
        for s in all.iter().take(3) {
            if s.len() >= 3 && s != w && !stems.contains(s) {
                stems.push(s.clone());
            }
        }
        let meaning = home_word(w).map(str::to_string).or_else(|| {
            self.lex
                .lookup(w, &all)
                .and_then(|e| e.groups.first()?.first())
                .map(|(m, _)| m.clone())
        });
        Word {
            surface: w.to_string(),
            stems,
            meaning,
        }
    }
}

/// A home's items read from its JSON, before indexing.
struct Item {
    id: String,
    name: String,
    kind: EntityKind,
    zone: Option<String>,
    class: Option<String>,
}

/// A shape error at `ptr`.
fn shape(ptr: String, msg: String) -> Error {
    Error::new(ErrorKind::Shape, ptr, msg)
}

/// The items of one list of the home (an array, or an object keyed by ID).
fn read_list(
    home: &serde_json::Map<String, Value>,
    key: &str,
    kind: EntityKind,
    out: &mut Vec<Item>,
) -> Result<(), Error> {
    let at = pointer::push("", key);
    match home.get(key) {
        None | Some(Value::Null) => Ok(()),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| read_item(pointer::index(&at, i), None, v, kind, out)),
        Some(Value::Object(m)) => m
            .iter()
            .try_for_each(|(k, v)| read_item(pointer::push(&at, k), Some(k), v, kind, out)),
        Some(other) => Err(shape(
            at,
            format!(
                "{key} must be an array of {} or an object keyed by ID, not {}",
                kind.plural(),
                crate::catalog::kind_of(other)
            ),
        )),
    }
}

/// One item of a list at `ptr` (`key`: its key in an object keyed by ID).
fn read_item(
    ptr: String,
    key: Option<&str>,
    v: &Value,
    kind: EntityKind,
    out: &mut Vec<Item>,
) -> Result<(), Error> {
    if out.len() >= MAX_THINGS {
        return Ok(());
    }
    let Value::Object(m) = v else {
        return Err(shape(
            ptr,
            format!(
                "an item must be an object, not {}",
                crate::catalog::kind_of(v)
            ),
        ));
    };
    // a string field, required or not
    let text = |k: &str, required: bool| -> Result<Option<String>, Error> {
        match m.get(k) {
            Some(Value::String(s)) => Ok(Some(s.clone())),
            None | Some(Value::Null) if !required => Ok(None),
            None => Err(shape(
                ptr.clone(),
                format!("an item needs a string \"{k}\""),
            )),
            Some(other) => Err(shape(
                pointer::push(&ptr, k),
                format!(
                    "{k} must be a string, not {}",
                    crate::catalog::kind_of(other)
                ),
            )),
        }
    };
    let name = text("name", true)?.unwrap_or_default();
    let id = match key {
        Some(k) => text("id", false)?.unwrap_or_else(|| k.to_string()),
        None => text("id", true)?.unwrap_or_default(),
    };
    let string = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
    let zone = match kind {
        EntityKind::Zone => string("parent"),
        _ => string("zone").or_else(|| string("zoneId")),
    };
    let class = match kind {
        EntityKind::Device => string("virtualClass").or_else(|| string("class")),
        _ => None,
    };
    out.push(Item {
        id,
        name,
        kind,
        zone,
        class,
    });
    Ok(())
}

/// The words of a name or a reference: folded, at most `max`.
fn name_words(text: &str, max: usize) -> Vec<String> {
    words(text, max)
}

/// Builds the index: keys and postings of every thing's name, places
/// and class.
struct Builder {
    reader: Reader,
    keys: Strings,
    postings: Vec<Vec<Posting>>,
    vocab: Strings,
    /// Each distinct word read (a name's words repeat: `Plafondlamp` in
    /// every room), with its keys: `(key, weight, part)` in `entries`,
    /// part 0 for the word, `i` for its `i`th part.
    read: Strings,
    spans: Vec<(u32, u32, u8)>,
    entries: Vec<(u32, f32, u8)>,
}

impl Builder {
    fn key(&mut self, key: &str) -> u32 {
        let (id, new) = self.keys.insert(key);
        if new {
            self.postings.push(Vec::new());
        }
        id
    }

    /// Posts `key` for the whole name of thing `thing`.
    fn whole(&mut self, key: &str, thing: u32) {
        let id = self.key(key);
        let p = Posting {
            thing,
            weight: NAME,
            word: mask(NAME_BITS),
        };
        self.post(id, p);
    }

    fn post(&mut self, id: u32, p: Posting) {
        if let Some(list) = self.postings.get_mut(id as usize) {
            // once per thing and key, at its best weight
            match list.last_mut() {
                Some(last) if last.thing == p.thing => {
                    if p.weight > last.weight {
                        *last = p;
                    } else {
                        last.word |= p.word;
                    }
                }
                _ => list.push(p),
            }
        }
    }

    /// The keys of one word (as written, its stems, its meaning) into
    /// `entries`, for `part`, at `weight`.
    fn keys_of(&mut self, w: &str, weight: f32, part: u8) {
        let word = self.reader.word(w);
        let id = self.key(&format!("={}", word.surface));
        self.entries.push((id, weight * SAME, part));
        for s in &word.stems {
            let id = self.key(&format!("~{s}"));
            self.entries.push((id, weight * STEM, part));
        }
        if let Some(m) = &word.meaning {
            let id = self.key(&format!("#{m}"));
            self.entries.push((id, weight * MEANING, part));
        }
    }

    /// A word's keys, read once: the word's own and, when it is a
    /// compound, its parts'; and how many parts it has.
    fn analyzed(&mut self, w: &str) -> (usize, usize, u8) {
        let (n, new) = self.read.insert(w);
        if !new {
            let (a, b, parts) = self.spans.get(n as usize).copied().unwrap_or_default();
            return (a as usize, b as usize, parts);
        }
        let start = self.entries.len();
        self.keys_of(w, 1.0, 0);
        // the word itself is no part of it
        let known = |part: &str| {
            part != w
                && (self.reader.lex.knows(part)
                    || self.vocab.contains(part)
                    || home_word(part).is_some())
        };
        let parts = split_compound(w, &known).unwrap_or_default();
        for (i, part) in parts.iter().enumerate() {
            self.keys_of(part, PART, u8::try_from(i + 1).unwrap_or(u8::MAX));
        }
        let parts = u8::try_from(parts.len()).unwrap_or(u8::MAX);
        let end = self.entries.len();
        self.spans.push((
            u32::try_from(start).unwrap_or(0),
            u32::try_from(end).unwrap_or(0),
            parts,
        ));
        (start, end, parts)
    }

    /// Indexes a word and, when it is a compound (and `split`), its parts.
    /// `bits` gives the word's bits of coverage, one a part (the word said
    /// whole covers them all, a part only its own).
    fn word_and_parts(
        &mut self,
        w: &str,
        thing: u32,
        weight: f32,
        split: bool,
        bits: &mut dyn FnMut() -> u32,
    ) {
        let (start, end, parts) = self.analyzed(w);
        let parts = if split { usize::from(parts) } else { 0 };
        let own: Vec<u32> = (0..parts.max(1)).map(|_| bits()).collect();
        let whole = own.iter().fold(0, |a, b| a | b);
        for k in start..end {
            let Some(&(id, x, part)) = self.entries.get(k) else {
                continue;
            };
            let word = match usize::from(part) {
                0 => whole,
                i if i <= parts => own.get(i - 1).copied().unwrap_or(0),
                _ => continue,
            };
            self.post(
                id,
                Posting {
                    thing,
                    weight: weight * x,
                    word,
                },
            );
        }
    }
}

impl EntityIndex {
    /// Indexes a home (see [`EntityIndex`] for its shape).
    pub fn build(home: &Value) -> Result<EntityIndex, Error> {
        let Value::Object(root) = home else {
            return Err(Error::new(
                ErrorKind::Shape,
                String::new(),
                format!(
                    "a home must be an object like {{\"zones\": [...], \"devices\": [...]}}, not {}",
                    crate::catalog::kind_of(home)
                ),
            ));
        };
        let mut items = Vec::new();
        read_list(root, "zones", EntityKind::Zone, &mut items)?;
        read_list(root, "devices", EntityKind::Device, &mut items)?;
        read_list(root, "flows", EntityKind::Flow, &mut items)?;
        read_list(root, "moods", EntityKind::Mood, &mut items)?;
        Ok(Self::index(items))
    }

    /// Reads a home's JSON text and indexes it.
    pub fn parse(text: &[u8]) -> Result<EntityIndex, Error> {
        let value: Value = serde_json::from_slice(text).map_err(|e| {
            Error::new(
                ErrorKind::Json,
                String::new(),
                format!("the home is not JSON: {e}"),
            )
        })?;
        EntityIndex::build(&value)
    }

    fn index(items: Vec<Item>) -> EntityIndex {
        // zones by ID: the first of each
        let mut zone_ids = Strings::default();
        let mut zone_of_id: Vec<u32> = Vec::new();
        for (i, it) in items.iter().enumerate() {
            if it.kind == EntityKind::Zone && zone_ids.insert(&it.id).1 {
                zone_of_id.push(u32::try_from(i).unwrap_or(u32::MAX));
            }
        }
        let zone_index = |id: &Option<String>| -> Option<u32> {
            let n = zone_ids.find(id.as_deref()?)?;
            zone_of_id.get(n as usize).copied()
        };
        let mut things: Vec<Thing> = items
            .iter()
            .map(|it| Thing {
                id: it.id.clone(),
                name: it.name.clone(),
                kind: it.kind,
                zone: zone_index(&it.zone),
                class: it.class.clone(),
                words: 0,
            })
            .collect();
        let mut b = Builder {
            reader: Reader::new(),
            keys: Strings::default(),
            postings: Vec::new(),
            vocab: Strings::default(),
            read: Strings::default(),
            spans: Vec::new(),
            entries: Vec::new(),
        };
        // every word of every name first: the parts compounds split into
        let names: Vec<Vec<String>> = things
            .iter()
            .map(|t| name_words(&t.name, MAX_NAME_WORDS))
            .collect();
        for w in names.iter().flatten() {
            if w.chars().count() >= 3 {
                b.vocab.insert(w);
            }
        }
        for (i, t) in things.iter_mut().enumerate() {
            let n = u32::try_from(i).unwrap_or(u32::MAX);
            let words = names.get(i).map_or(&[][..], Vec::as_slice);
            let mut used = 0u32;
            let mut joined = String::new();
            let mut next = || {
                let bit = if used < NAME_BITS { 1 << used } else { 0 };
                used = (used + 1).min(NAME_BITS);
                bit
            };
            for (k, w) in words.iter().enumerate() {
                joined.push_str(w);
                // a preposition of a name (`Lamp boven de eettafel`) says
                // where, and is no word of the thing
                let before_determiner = words.get(k + 1).is_some_and(|x| is_determiner(x));
                if (is_stopword(w) && home_word(w).is_none())
                    || w.chars().count() < 2
                    || (before_determiner && k > 0)
                {
                    continue;
                }
                b.word_and_parts(w, n, NAME, true, &mut next);
            }
            t.words = u8::try_from(used).unwrap_or(0);
            // each piece of the name as written, run together (`PlayStation`,
            // `TV-meubel`, `Cv-ketel`)
            for piece in t.name.split_whitespace().take(MAX_NAME_WORDS) {
                let folded: String = fold(piece)
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .collect();
                if folded.chars().count() >= 3 && !words.contains(&folded) {
                    b.vocab.insert(&folded);
                    b.whole(&format!("={folded}"), n);
                }
            }
            if !joined.is_empty() {
                b.whole(&format!("!{joined}"), n);
                // the name said as one word (`leeslamp` for `Lees lamp`)
                if words.len() > 1 {
                    b.whole(&format!("={joined}"), n);
                }
            }
        }
        // places: the zones a thing is in, a zone's parents
        for i in 0..things.len() {
            let n = u32::try_from(i).unwrap_or(u32::MAX);
            let mut zone = things.get(i).and_then(|t| t.zone);
            let mut depth = 0;
            while let Some(z) = zone.filter(|&z| z != n && depth < MAX_DEPTH) {
                for w in names.get(z as usize).into_iter().flatten() {
                    if !is_stopword(w) && w.chars().count() >= 2 {
                        b.word_and_parts(w, n, PLACE, true, &mut || 0);
                    }
                }
                zone = things.get(z as usize).and_then(|t| t.zone);
                depth += 1;
            }
            if let Some(class) = things.get(i).and_then(|t| t.class.clone()) {
                for w in class_words(&class) {
                    b.word_and_parts(&w, n, CLASS, false, &mut || CLASS_BIT);
                }
            }
        }
        let mut masks = Vec::with_capacity(b.vocab.len());
        for w in b.vocab.iter() {
            masks.push(letter_mask(w));
        }
        let by = |t: u32| {
            things
                .get(t as usize)
                .map(|x| (x.kind as u8, x.name.as_str(), x.id.as_str()))
        };
        let sorted = order_by(things.len(), &|a, b| by(a) <= by(b));
        let mut order = vec![0u32; things.len()];
        for (rank, &t) in sorted.iter().enumerate() {
            if let Some(o) = order.get_mut(t as usize) {
                *o = u32::try_from(rank).unwrap_or(u32::MAX);
            }
        }
        EntityIndex {
            things,
            keys: b.keys,
            postings: b.postings,
            vocab: b.vocab,
            masks,
            order,
            by_order: sorted,
        }
    }

    /// Number of things indexed.
    pub fn len(&self) -> usize {
        self.things.len()
    }

    /// Whether no thing is indexed.
    pub fn is_empty(&self) -> bool {
        self.things.is_empty()
    }

    /// The things `text` may mean, best first, with why; says when it is
    /// ambiguous. `text` is a name or a reference as people say it
    /// (`Leeslamp`, `lamp naast de bank`, `the reading lamp in the study`,
    /// `slaapkamer boven`), in any of the home's languages, with typos; at
    /// most its first 24 words are read. Nothing matching gives no
    /// matches.
    pub fn resolve(&self, text: &str, opts: &ResolveOptions) -> Resolution {
        resolve(self, text, opts)
    }

    /// The ID a tool argument that names a thing should carry: `value`
    /// itself when it is the ID of a thing (of `kind`, when given), else
    /// the ID of the one thing it means ([`Resolution::unique`]), else
    /// `None` (nothing, or more than one thing, matches: ask which). What
    /// a host that knows which arguments name things (`zoneId`,
    /// `deviceId`) calls before a tool call, so that a model may write
    /// `Begane grond` where the tool takes a zone's ID.
    ///
    /// ```
    /// use mcp_switchboard::{EntityIndex, EntityKind};
    ///
    /// let home = serde_json::json!({"zones": [
    ///   {"id": "z1", "name": "Begane grond"}, {"id": "z2", "name": "Boven"}]});
    /// let index = EntityIndex::build(&home)?;
    /// assert_eq!(index.resolve_id("begane grond", Some(EntityKind::Zone)).as_deref(), Some("z1"));
    /// assert_eq!(index.resolve_id("z2", Some(EntityKind::Zone)).as_deref(), Some("z2"));
    /// assert_eq!(index.resolve_id("z2", Some(EntityKind::Device)), None);
    /// # Ok::<(), mcp_switchboard::Error>(())
    /// ```
    pub fn resolve_id(&self, value: &str, kind: Option<EntityKind>) -> Option<String> {
        let of_kind = |t: &&Thing| kind.is_none_or(|k| k == t.kind);
        if let Some(t) = self.things.iter().filter(of_kind).find(|t| t.id == value) {
            return Some(t.id.clone());
        }
        let mut opts = ResolveOptions::new().with_limit(2);
        opts.kind = kind;
        self.resolve(value, &opts).unique().map(|m| m.id.clone())
    }

    fn postings_of(&self, key: &str) -> &[Posting] {
        self.keys
            .find(key)
            .and_then(|k| self.postings.get(k as usize))
            .map_or(&[], Vec::as_slice)
    }
}

/// The words a device class is known by (`windowcoverings`: blinds).
fn class_words(class: &str) -> Vec<String> {
    let c = fold(class);
    let extra: &[&str] = match c.as_str() {
        "windowcoverings" | "blinds" | "curtain" | "sunshade" => &["blind", "curtain"],
        "garagedoor" => &["garage", "door", "gate"],
        "socket" => &["socket", "plug"],
        "vacuumcleaner" => &["vacuum"],
        "heater" | "thermostat" | "radiator" => &["heating", "thermostat"],
        "tv" => &["tv"],
        _ => &[],
    };
    let mut out = name_words(&c, 4);
    for e in extra {
        if !out.iter().any(|w| w == e) {
            out.push((*e).to_string());
        }
    }
    out
}

/// How a word of a reference matched: as said, by a stem, by meaning, as
/// a compound's part, as a typo.
const HOW: [&str; 5] = ["as said", "by its stem", "by meaning", "a part", "a typo"];

/// A word of a reference read, with the keys it looks up: each key's
/// number, weight and how it matches ([`HOW`]).
struct Said {
    word: String,
    keys: Vec<(u32, f32, u8)>,
}

fn resolve(index: &EntityIndex, text: &str, opts: &ResolveOptions) -> Resolution {
    let reader = Reader::new();
    let mut said = name_words(text, MAX_TEXT_WORDS);
    // two words said for one of a name or a meaning (`lees lamp` for
    // `Leeslamp`, `living room`, `front door`)
    let mut i = 0;
    while i + 1 < said.len() {
        let (Some(a), Some(b)) = (said.get(i), said.get(i + 1)) else {
            break;
        };
        let joined = format!("{a}{b}");
        if index.vocab.contains(&joined)
            || reader.lex.knows(&joined)
            || home_word(&joined).is_some()
        {
            if let Some(slot) = said.get_mut(i) {
                *slot = joined;
            }
            said.remove(i + 1);
        }
        i += 1;
    }
    let whole: String = said.concat();
    let mut kind_hint: Option<EntityKind> = None;
    // per thing: its score so far and the words of its name said (zeroed
    // arrays: allocated as zeroed memory, not written one by one)
    let mut total = vec![0f32; index.things.len()];
    let mut named_by = vec![0u32; index.things.len()];
    let mut best = vec![0f32; index.things.len()];
    let mut bits = vec![0u32; index.things.len()];
    let mut touched: Vec<u32> = Vec::new();
    let mut seen: Vec<u32> = Vec::new();
    let mut counted = 0usize;
    let mut typos = 0usize;
    let mut read: Vec<Said> = Vec::new();
    let mut buf = String::new();
    for (k, w) in said.iter().enumerate() {
        // a preposition (`above the table`) says where
        let before_determiner = k > 0 && said.get(k + 1).is_some_and(|x| is_determiner(x));
        if (is_stopword(w) && home_word(w).is_none())
            || relation(w)
            || w.chars().count() < 2
            || before_determiner
        {
            continue;
        }
        let word = reader.word(w);
        let mut keys: Vec<(u32, f32, u8)> = Vec::new();
        let mut look =
            |keys: &mut Vec<(u32, f32, u8)>, prefix: char, text: &str, weight: f32, how: u8| {
                buf.clear();
                buf.push(prefix);
                buf.push_str(text);
                if let Some(id) = index.keys.find(&buf) {
                    keys.push((id, weight, how));
                }
            };
        look(&mut keys, '=', w, SAME, 0);
        look(&mut keys, '~', w, STEM, 1);
        for s in &word.stems {
            look(&mut keys, '~', s, SAME, 1);
            look(&mut keys, '=', s, STEM, 1);
        }
        if let Some(m) = &word.meaning {
            look(&mut keys, '#', m, SAME, 2);
        }
        // a typo of a word of the home's names (before its parts: a typo
        // splits into parts of which one is unknown)
        if keys.is_empty() && typos < MAX_TYPO_WORDS {
            typos += 1;
            for (v, d) in typo_candidates(index, w) {
                look(
                    &mut keys,
                    '=',
                    &v,
                    TYPO.get(d - 1).copied().unwrap_or(0.0),
                    4,
                );
            }
        }
        // a compound said (`slaapkamerlamp`): its parts
        if keys.is_empty() {
            let known = |p: &str| {
                p != w && (index.vocab.contains(p) || reader.lex.knows(p) || home_word(p).is_some())
            };
            if let Some(parts) = split_compound(w, &known) {
                for p in parts {
                    let meaning = reader.word(&p).meaning;
                    look(&mut keys, '=', &p, PART, 3);
                    if let Some(m) = &meaning {
                        look(&mut keys, '#', m, PART, 3);
                    }
                }
            }
        }
        let postings = |id: u32| {
            index
                .postings
                .get(id as usize)
                .map_or(&[][..], Vec::as_slice)
        };
        // a word for a kind says what is meant, unless it is part of a
        // name (`Kamer Emma`)
        if let Some(k) = word.meaning.as_deref().and_then(kind_word) {
            let in_name = keys.iter().any(|&(id, _, _)| {
                postings(id)
                    .iter()
                    .any(|p| p.word != 0 && p.word & CLASS_BIT == 0)
            });
            if !in_name {
                kind_hint.get_or_insert(k);
            }
        }
        if keys.is_empty() {
            // a verb or a particle is not part of a reference
            if reader
                .lex
                .verb_act(w, &reader.stemmers.stem(Lang::En, w), &reader.stemmers)
                == 0
                && !reader.lex.is_particle(w)
                && !matches!(w.as_str(), "on" | "off")
            {
                counted += 1;
            }
            continue;
        }
        counted += 1;
        for &(id, x, _) in &keys {
            for p in postings(id) {
                let t = p.thing as usize;
                let v = p.weight * x;
                if let Some(b) = best.get_mut(t) {
                    if *b == 0.0 {
                        touched.push(p.thing);
                    }
                    if v > *b {
                        *b = v;
                    }
                }
                if let Some(bit) = bits.get_mut(t) {
                    *bit |= p.word;
                }
            }
        }
        for &t in &touched {
            let t = t as usize;
            if let (Some(s), Some(n), Some(b), Some(bit)) = (
                total.get_mut(t),
                named_by.get_mut(t),
                best.get_mut(t),
                bits.get_mut(t),
            ) {
                if *s <= 0.0 {
                    seen.push(u32::try_from(t).unwrap_or(u32::MAX));
                }
                *s += *b;
                *n |= *bit;
                *b = 0.0;
                *bit = 0;
            }
        }
        touched.clear();
        read.push(Said {
            word: w.clone(),
            keys,
        });
    }
    let exact = index.postings_of(&format!("!{whole}"));
    // the things any word matched, and those said whole
    for p in exact {
        if total.get(p.thing as usize).is_some_and(|&x| x <= 0.0) {
            seen.push(p.thing);
        }
    }
    let mut keys: Vec<u64> = Vec::new();
    let mut top = 0f32;
    for &t in &seen {
        let (Some(&score_so_far), Some(&said_bits), Some(thing)) = (
            total.get(t as usize),
            named_by.get(t as usize),
            index.things.get(t as usize),
        ) else {
            continue;
        };
        if opts.kind.is_some_and(|k| k != thing.kind) {
            continue;
        }
        let is_exact = exact.iter().any(|p| p.thing == t);
        let coverage = if counted == 0 {
            0.0
        } else {
            score_so_far / counted as f32
        };
        let words = u32::from(thing.words).min(32);
        let mut named = if words == 0 {
            1.0
        } else {
            (said_bits & mask(words)).count_ones() as f32 / words as f32
        };
        // known by its class: half named (`the kitchen speaker`)
        if said_bits & CLASS_BIT != 0 {
            named = named.max(0.5);
        }
        let mut score = coverage.min(1.0) * (0.5 + 0.5 * named);
        if is_exact {
            score += 1.0;
        }
        if opts.kind.is_none() && kind_hint.is_some_and(|k| k != thing.kind) {
            score *= OTHER_KIND;
        }
        if score >= MIN_SCORE {
            top = top.max(score);
            let order = index.order.get(t as usize).copied().unwrap_or(u32::MAX);
            keys.push(sort_key(desc(score), order));
        }
    }
    // the matches as good as the best, and the best `limit` (best first,
    // then zones, devices, Flows, moods, then by name and ID): only those
    // are sorted
    let good = keys
        .iter()
        .filter(|&&k| undesc(halves(k).0) >= top * AS_GOOD)
        .count();
    let keep = good.max(opts.limit).min(keys.len());
    if keep > 0 && keep < keys.len() {
        keys.select_nth_unstable(keep - 1);
        keys.truncate(keep);
    }
    keys.sort_unstable();
    let thing_of = |k: u64| {
        index
            .by_order
            .get(halves(k).1 as usize)
            .copied()
            .unwrap_or(0)
    };
    let tied: Vec<u32> = keys.iter().take(good).map(|&k| thing_of(k)).collect();
    let ambiguous = tied.len() > 1;
    let note = ambiguous.then(|| ambiguity(index, &tied));
    let matches = keys
        .iter()
        .take(opts.limit)
        .filter_map(|&k| describe(index, thing_of(k), undesc(halves(k).0), &read))
        .collect();
    Resolution {
        matches,
        ambiguous,
        note,
    }
}

/// The low `n` bits set.
fn mask(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Words of the home's names within one edit of `w` (two for words of 8
/// chars or more), with the distance.
fn typo_candidates(index: &EntityIndex, w: &str) -> Vec<(String, usize)> {
    let len = w.chars().count();
    if len < 4 || !w.chars().all(char::is_alphabetic) {
        return Vec::new();
    }
    let max = if len >= 8 { 2 } else { 1 };
    let m = letter_mask(w);
    let mut out: Vec<(String, usize)> = Vec::new();
    for (v, &vm) in index.vocab.iter().zip(&index.masks) {
        if (vm ^ m).count_ones() as usize > 2 * max || v.len().abs_diff(w.len()) > max {
            continue;
        }
        if let Some(d) = edit_distance(w, v, max) {
            if d > 0 {
                out.push((v.to_string(), d));
            }
        }
    }
    let closest = out.iter().map(|x| x.1).min().unwrap_or(0);
    out.retain(|x| x.1 == closest);
    out.truncate(8);
    out
}

/// The note of an ambiguous reference: one name for several things, or
/// several things as good.
fn ambiguity(index: &EntityIndex, tied: &[u32]) -> String {
    let thing = |t: &u32| index.things.get(*t as usize);
    let first = tied.first().and_then(thing);
    let where_ = |t: &Thing| {
        t.zone
            .and_then(|z| index.things.get(z as usize))
            .map_or_else(|| "no zone".to_string(), |z| z.name.clone())
    };
    let same = first.is_some_and(|f| {
        tied.iter()
            .filter_map(thing)
            .all(|t| fold(&t.name) == fold(&f.name) && t.kind == f.kind)
    });
    match first {
        Some(f) if same => {
            let places: Vec<String> = tied.iter().filter_map(thing).map(where_).collect();
            format!(
                "{} {} called {}: {}",
                tied.len(),
                f.kind.plural(),
                f.name,
                places.join(", ")
            )
        }
        _ => {
            let each: Vec<String> = tied
                .iter()
                .filter_map(thing)
                .map(|t| format!("{} ({}, {})", t.name, kind_name(t.kind), where_(t)))
                .collect();
            format!("{} things match as well: {}", tied.len(), each.join("; "))
        }
    }
}

fn kind_name(kind: EntityKind) -> &'static str {
    match kind {
        EntityKind::Zone => "zone",
        EntityKind::Device => "device",
        EntityKind::Flow => "Flow",
        EntityKind::Mood => "mood",
    }
}

/// A match with why: each word read, where it matched the thing (its
/// name, a zone above it, its class) and how.
fn describe(index: &EntityIndex, t: u32, score: f32, read: &[Said]) -> Option<EntityMatch> {
    let thing = index.things.get(t as usize)?;
    let zone = thing.zone.and_then(|z| index.things.get(z as usize));
    let posting = |id: u32, of: u32| {
        index
            .postings
            .get(id as usize)
            .and_then(|ps| ps.iter().find(|p| p.thing == of))
            .copied()
    };
    let mut why = Vec::new();
    for said in read {
        // the key that counted: the best for this thing
        let mut used: Option<(f32, u32, u8, Posting)> = None;
        for &(id, x, how) in &said.keys {
            if let Some(p) = posting(id, t) {
                if used.is_none_or(|u| p.weight * x > u.0) {
                    used = Some((p.weight * x, id, how, p));
                }
            }
        }
        let Some((_, id, how, p)) = used else {
            continue;
        };
        let place = if p.word & CLASS_BIT != 0 {
            format!("class {}", thing.class.as_deref().unwrap_or(""))
        } else if p.word == 0 {
            // the zone above whose own name the key matched
            let mut z = thing.zone;
            let mut depth = 0;
            let mut name = zone.map_or("", |z| z.name.as_str());
            while let Some(at) = z.filter(|_| depth < MAX_DEPTH) {
                if posting(id, at).is_some_and(|q| q.word != 0) {
                    name = index
                        .things
                        .get(at as usize)
                        .map_or(name, |x| x.name.as_str());
                    break;
                }
                z = index.things.get(at as usize).and_then(|x| x.zone);
                depth += 1;
            }
            format!("zone {name}")
        } else {
            format!("name {}", thing.name)
        };
        why.push(format!(
            "{}: {place} ({})",
            said.word,
            HOW.get(usize::from(how)).unwrap_or(&"")
        ));
    }
    Some(EntityMatch {
        id: thing.id.clone(),
        name: thing.name.clone(),
        kind: thing.kind,
        zone: zone.map(|z| z.name.clone()),
        zone_id: zone.map(|z| z.id.clone()),
        class: thing.class.clone(),
        score: (f64::from(score) * 10_000.0).round() / 10_000.0,
        why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn home() -> EntityIndex {
        EntityIndex::build(&json!({
            "zones": {
                "z0": {"name": "Huis"},
                "z1": {"name": "Begane grond", "parent": "z0"},
                "z2": {"name": "Woonkamer", "parent": "z1"},
                "z3": {"name": "Boven", "parent": "z0"},
                "z4": {"name": "Slaapkamer", "parent": "z3"},
                "z5": {"name": "Slaapkamer", "parent": "z1"},
                "z6": {"name": "Study", "parent": "z3"}
            },
            "devices": [
                {"id": "d1", "name": "Leeslamp", "zone": "z2", "class": "light"},
                {"id": "d2", "name": "Reading lamp", "zone": "z6", "class": "light"},
                {"id": "d3", "name": "Lamp naast de bank", "zone": "z2", "class": "light"},
                {"id": "d4", "name": "Rolluik", "zone": "z4", "class": "windowcoverings"},
                {"id": "d5", "name": "Stekker TV", "zone": "z2", "class": "socket", "virtualClass": "tv"}
            ],
            "flows": [{"id": "f1", "name": "Goedemorgen"}],
            "moods": {"m1": {"name": "Filmavond", "zone": "z2"}}
        }))
        .unwrap()
    }

    fn first(i: &EntityIndex, text: &str) -> String {
        i.resolve(text, &ResolveOptions::new())
            .matches
            .first()
            .map(|m| m.id.clone())
            .unwrap_or_default()
    }

    #[test]
    fn references_find_their_things() {
        let i = home();
        for (text, id) in [
            ("Leeslamp", "d1"),
            ("leeslmap", "d1"),
            ("lees lamp", "d1"),
            ("lamp naast de bank", "d3"),
            ("the lamp beside the couch", "d3"),
            ("slaapkamer boven", "z4"),
            ("slaapkamer beneden", "z5"),
            ("begane grond", "z1"),
            ("the reading lamp in the study", "d2"),
            ("rolluik slaapkamer", "d4"),
            ("de zonwering boven", "d4"),
            ("goedemorgen flow", "f1"),
            ("filmavond", "m1"),
            ("the tv", "d5"),
        ] {
            assert_eq!(first(&i, text), id, "{text}");
        }
        assert!(i.resolve("qqqq", &ResolveOptions::new()).matches.is_empty());
    }

    #[test]
    fn one_name_for_two_things_is_ambiguous() {
        let i = home();
        let r = i.resolve("slaapkamer", &ResolveOptions::new());
        assert!(r.ambiguous);
        assert_eq!(
            r.note.as_deref(),
            Some("2 zones called Slaapkamer: Boven, Begane grond")
        );
        assert!(r.unique().is_none());
        let r = i.resolve("slaapkamer boven", &ResolveOptions::new());
        assert!(!r.ambiguous);
        assert_eq!(r.unique().map(|m| m.id.as_str()), Some("z4"));
        let why = &r.matches[0].why;
        assert!(
            why.iter().any(|w| w.starts_with("boven: zone Boven")),
            "{why:?}"
        );
    }

    #[test]
    fn kinds_narrow_and_shapes_are_checked() {
        let i = home();
        let r = i.resolve(
            "woonkamer",
            &ResolveOptions::new().with_kind(EntityKind::Device),
        );
        assert!(r.matches.iter().all(|m| m.kind == EntityKind::Device));
        assert_eq!(EntityKind::parse(" Mood "), Some(EntityKind::Mood));
        for (bad, ptr) in [
            (json!([]), ""),
            (json!({"zones": 3}), "/zones"),
            (json!({"devices": [1]}), "/devices/0"),
            (json!({"devices": [{"id": "x"}]}), "/devices/0"),
            (
                json!({"devices": [{"id": "x", "name": 2}]}),
                "/devices/0/name",
            ),
            (json!({"flows": [{"name": "x"}]}), "/flows/0"),
        ] {
            let e = EntityIndex::build(&bad).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Shape, "{bad}");
            assert_eq!(e.pointer(), ptr, "{bad}");
        }
        // a cycle of parents ends
        let i = EntityIndex::build(&json!({"zones": [
            {"id": "a", "name": "A", "parent": "b"}, {"id": "b", "name": "B", "parent": "a"}]}))
        .unwrap();
        assert_eq!(i.len(), 2);
        let _ = i.resolve("a b a b", &ResolveOptions::new());
    }
}
