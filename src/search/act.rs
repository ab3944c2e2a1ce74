//! What a query asks for and what a tool does: the kind of act.
//!
//! A query is a **question** about the current state (`is the garage door
//! open?`, `hoe warm is het boven?`, `Sind noch Fenster offen?`), a request
//! to **read** (`list my scenes`, `toon de logboeken`), or a command to
//! **change**, **create** or **delete** something (`turn off the lights`,
//! `maak een back-up`, `lösche die Szene`). The act comes from the form of
//! the sentence (question words, a verb first that only asks, a question
//! mark, a modal such as `can you` that makes a question a command) and
//! from its verbs, in English, Dutch, German and French.
//!
//! A tool's acts are derived from the catalog: `readOnlyHint`, the verbs
//! of its name and title (`get`, `list`, `set`, `create`, `delete`, ...),
//! the first verb of its description, `destructiveHint`, and, when nothing
//! else tells, the shape of its parameters (a value to write).
//!
//! Ranking multiplies a tool's score by how well its acts fit the query's
//! (a command is rarely answered by a read-only tool; a question rarely by
//! one that only writes), and a question adds what it implies: the
//! current state, or the history when it asks about the past.

use std::sync::OnceLock;

use super::analyze::{fold, is_determiner, Lang, Stemmers, Strings};

/// Reads: answers questions, lists, shows.
pub(crate) const READ: u8 = 1;
/// Changes the state of something (set, turn, control, update, run).
pub(crate) const CHANGE: u8 = 2;
/// Creates something (create, add, new).
pub(crate) const CREATE: u8 = 4;
/// Deletes something (delete, remove).
pub(crate) const DELETE: u8 = 8;
/// Gives something seen (a camera's image, a snapshot, a screenshot): not
/// an act, a kind of answer, by the tool's name.
pub(crate) const MEDIA: u8 = 16;

/// Whether a word of a tool's name says it gives something seen.
pub(crate) fn media_word(word: &str) -> bool {
    matches!(
        word,
        "image"
            | "images"
            | "camera"
            | "photo"
            | "picture"
            | "video"
            | "stream"
            | "screenshot"
            | "thumbnail"
            | "recording"
    )
}

/// The act of a verb's category (see [`verb_category`]).
pub(crate) fn act_of_category(category: &str) -> u8 {
    match category {
        "query" => READ,
        "create" => CREATE,
        "delete" => DELETE,
        "update" | "control" => CHANGE,
        _ => 0,
    }
}

/// Verbs that name what a tool does, by the category they imply.
pub(crate) fn verb_category(word: &str) -> Option<&'static str> {
    VERBS
        .binary_search_by(|(v, _)| (*v).cmp(word))
        .ok()
        .and_then(|i| VERBS.get(i))
        .map(|&(_, c)| c)
}

/// `(verb, category)`, sorted by verb for binary search.
#[rustfmt::skip]
pub(crate) const VERBS: &[(&str, &str)] = &[
    ("activate", "control"), ("add", "create"), ("adjust", "control"), ("announce", "control"),
    ("archive", "update"), ("arm", "control"), ("assign", "update"), ("backup", "create"),
    ("broadcast", "control"), ("browse", "query"), ("call", "control"), ("cancel", "control"),
    ("change", "control"), ("check", "query"), ("clean", "control"), ("clear", "delete"),
    ("clone", "create"), ("close", "control"), ("comment", "update"), ("complete", "update"),
    ("configure", "update"), ("control", "control"), ("copy", "create"), ("count", "query"),
    ("create", "create"), ("deactivate", "control"), ("debug", "query"),
    ("decrease", "control"), ("delete", "delete"), ("describe", "query"), ("destroy", "delete"),
    ("dim", "control"), ("disable", "control"), ("disarm", "control"), ("dismiss", "update"),
    ("display", "query"), ("download", "query"), ("drop", "delete"), ("duplicate", "create"),
    ("edit", "update"), ("enable", "control"), ("erase", "delete"), ("evaluate", "query"),
    ("execute", "control"), ("explain", "query"), ("export", "query"), ("fetch", "query"),
    ("find", "query"), ("fire", "control"), ("fork", "create"), ("get", "query"),
    ("hide", "update"), ("import", "create"), ("increase", "control"), ("insert", "create"), ("inspect", "query"),
    ("install", "create"), ("invoke", "control"), ("label", "update"), ("launch", "control"),
    ("list", "query"), ("load", "query"), ("lock", "control"), ("look", "query"),
    ("lookup", "query"), ("make", "create"), ("manage", "update"), ("mark", "update"),
    ("merge", "update"), ("modify", "update"), ("move", "update"), ("mute", "control"),
    ("new", "create"), ("next", "control"), ("notify", "control"), ("open", "control"),
    ("patch", "update"), ("pause", "control"), ("play", "control"), ("post", "create"),
    ("press", "control"), ("preview", "query"), ("previous", "control"), ("purge", "delete"),
    ("push", "create"), ("put", "update"), ("query", "query"), ("read", "query"),
    ("reboot", "control"), ("refresh", "update"), ("register", "create"), ("reload", "update"),
    ("remove", "delete"), ("rename", "update"), ("render", "query"), ("replace", "update"),
    ("reply", "update"), ("report", "query"), ("reprioritize", "update"), ("request", "update"),
    ("rerun", "control"), ("reset", "control"), ("resolve", "update"), ("restart", "control"),
    ("restore", "update"), ("resume", "control"), ("retrieve", "query"), ("return", "control"),
    ("run", "control"), ("save", "update"), ("search", "query"), ("select", "control"),
    ("send", "control"), ("set", "control"), ("show", "query"), ("skip", "control"),
    ("star", "update"), ("start", "control"), ("state", "query"), ("status", "query"),
    ("stop", "control"), ("submit", "update"), ("summarize", "query"), ("switch", "control"),
    ("sync", "update"), ("tell", "query"), ("toggle", "control"), ("trigger", "control"),
    ("turn", "control"), ("unassign", "update"), ("uninstall", "delete"), ("unlock", "control"),
    ("unmute", "control"), ("unpause", "control"), ("unregister", "delete"),
    ("unresolve", "update"), ("unset", "delete"), ("unstar", "update"), ("update", "update"),
    ("upload", "create"), ("vacuum", "control"), ("view", "query"), ("wipe", "delete"),
    ("write", "update"),
];

/// The words the act is read from, by role, one role a line (`role:
/// words`, a line that starts with white space goes on): text rather than
/// code, the way the lexicon is kept (see [`role`]).
const ROLES: &str = r"
weak: list state status comment label request post check count query report backup next
    previous load reply star new
filler: hey hi ok okay please pls plz kindly just now then you u i we want wanna d ll like let
    lets s need to go ahead quickly also and hallo hoi graag even eens alsjeblieft aub je jij
    ik wil wij nu ook bitte mal doch du ich mochte will wir jetzt auch bonjour salut stp
    svp tu vous veux voudrais peux pouvez pourrais pourriez
modal: can could would will kun kunt kan zou wil wilt kannst konntest wurdest willst magst peux
    pouvez pourrais pourriez veux voulez
asks: what whats which who whose when where why how hows is isn are aren was were did didn does
    doesn do has have any anything anyone anybody wat welke welk wie wanneer waar waarom hoe
    hoeveel hoelang hoelaat zijn staat staan brandt branden draait draaien heb hebben hebt
    heeft ligt liggen zit zitten regent waren moet speelt loopt wordt worden werd welche
    welcher welches welchen wer wann wo warum wieviel wieviele ist sind lauft laufen brennt
    brennen hat habe hab hast haben gibt regnet war steht stehen muss spielt wird werden wurde
    est quel quelle quels quelles qui quand ou pourquoi combien qu sont
asks-fr: on il y comment
whether: if whether which what of welke wat ob welche welcher welches si quel quelle quels
    quelles
past: yesterday overnight ago last past gisteren gisteravond vannacht afgelopen vorige vorig
    geleden gestern letzte letzten letzter vergangene vergangenen vorgestern hier
why: why waarom warum wieso weshalb pourquoi
subject: er es sich iets etwas iemand jemand irgendjemand ergens irgendwo overal uberall
make: make maak maken mach mache machen fais set zet stel stell setze setz put
article: a an new een nieuwe nieuw ein eine einen neue neuen neues un une nouveau nouvelle
give: give geef geven gib gebe geben donne
keeps: keeps constantly repeatedly itself randomly steeds telkens vanzelf voortdurend continu
    standig dauernd andauernd immerzu selbst allein
step: bit little notch tad touch beetje beetjes tandje ietsje stukje bisschen wenig peu
noun-next: any some no there er es geen kein keine keinen for op nach voor fur des du which what
    welke welk wat welche welcher welches welchen quel quelle quels quelles
";

/// A verb in a tool's name only when nothing else is: usually a noun
/// (`HassListAddItem` adds, `update_issue_state` updates).
const WEAK: u16 = 1;
/// May open a query without being its verb: greetings, politeness,
/// subjects of a modal (`you`), `I want`, `let's`.
const FILLER: u16 = 2;
/// Turns a question into a request (`can you ...`, `kun je ...`,
/// `kannst du ...`, `peux-tu ...`).
const MODAL: u16 = 4;
/// Opens a question: a question word, or a verb that, first in a
/// sentence, only asks (`is`, `staat`, `läuft`: never an imperative).
const ASKS: u16 = 8;
/// Opens a question in French only (`on`, `il`: English words too).
const ASKS_FR: u16 = 16;
/// After a verb, makes the sentence an indirect question (`tell me if
/// ...`, `laat zien of ...`, `zeig mir, ob ...`).
const WHETHER: u16 = 32;
/// Puts a question in the past: times gone by (a past tense alone, as in
/// `did I leave the door open`, still asks about now).
const PAST: u16 = 64;
/// Asks why: about what went wrong.
const WHY: u16 = 128;
/// A subject right after a verb (`wordt er`, `öffnet sich`).
const SUBJECT: u16 = 256;
/// `make`: with an [`ARTICLE`] after it, creates.
const MAKE: u16 = 512;
/// An article or `new` (`make a ...`, `maak een nieuwe ...`).
const ARTICLE: u16 = 1024;
/// Says that a noun comes next: a quantifier, `there` and its Dutch and
/// German kin (`are there any updates`, `zijn er updates`, `gibt es
/// Updates`), a preposition that takes an object (`check for updates`).
const NOUN_NEXT: u16 = 2048;

/// `give`: with a thing and then an article after it (`geef de sproeiers
/// een label`, `gib der Lampe einen Namen`), sets something on the thing.
const GIVE: u16 = 4096;

/// Says that something keeps happening (`keeps turning on`, `steeds
/// vanzelf aan`, `ständig von selbst`): a question why, about what went
/// wrong.
const KEEPS: u16 = 8192;
/// A small step (`a bit`, `een tandje`, `ein bisschen`): more or less of
/// something, relative to what it is.
const STEP: u16 = 16384;

/// The roles of a folded word (0 for none).
fn role(word: &str) -> u16 {
    static ROLE: OnceLock<(Strings, Vec<u16>)> = OnceLock::new();
    let (words, roles) = ROLE.get_or_init(|| {
        let mut words = Strings::default();
        let mut roles: Vec<u16> = Vec::new();
        let mut current = 0u16;
        for line in ROLES.lines() {
            let rest = match line.split_once(':') {
                Some((name, rest)) if !line.starts_with(' ') => {
                    current = match name {
                        "weak" => WEAK,
                        "filler" => FILLER,
                        "modal" => MODAL,
                        "asks" => ASKS,
                        "asks-fr" => ASKS_FR,
                        "whether" => WHETHER,
                        "past" => PAST,
                        "why" => WHY,
                        "subject" => SUBJECT,
                        "make" => MAKE,
                        "article" => ARTICLE,
                        "noun-next" => NOUN_NEXT,
                        "give" => GIVE,
                        "keeps" => KEEPS,
                        "step" => STEP,
                        _ => 0,
                    };
                    rest
                }
                _ => line,
            };
            for w in rest.split_whitespace() {
                let (id, new) = words.insert(w);
                if new {
                    roles.push(0);
                }
                if let Some(r) = roles.get_mut(id as usize) {
                    *r |= current;
                }
            }
        }
        (words, roles)
    });
    words
        .find(word)
        .and_then(|i| roles.get(i as usize))
        .copied()
        .unwrap_or(0)
}

/// Whether the word has the role.
fn is(word: &str, r: u16) -> bool {
    role(word) & r != 0
}

/// Whether the word after this one is a noun, even if it could be a verb:
/// after a determiner, an article, a quantifier, `there` (`er`, `es`) or
/// a preposition (`the update`, `any updates`, `zijn er updates`, `check
/// for updates`).
pub(crate) fn noun_next(word: &str) -> bool {
    is_determiner(word) || is(word, ARTICLE | NOUN_NEXT)
}

/// Whether the word is `give` (`geef`, `gib`): in a command that sets
/// something on a thing it is no word to search for.
pub(crate) fn give(word: &str) -> bool {
    is(word, GIVE)
}

/// Whether the word is `make` (`maak`, `mach`): `make it warm` commands
/// what `it's warm` only says.
pub(crate) fn makes(word: &str) -> bool {
    is(word, MAKE)
}

/// Whether the word asks for a small step (`a bit`, `een tandje`).
pub(crate) fn step(word: &str) -> bool {
    is(word, STEP)
}

/// Whether the word is a form of `to be` that opens a question (`are`,
/// `zijn`, `sind`): its subject comes next.
pub(crate) fn be(word: &str) -> bool {
    matches!(word, "is" | "are" | "ist" | "sind" | "zijn")
}

/// Whether the word is an indefinite article or `new` (`a`, `een`,
/// `nieuwe`, `einen`): what follows is a thing, not a place it is in.
pub(crate) fn indefinite(word: &str) -> bool {
    is(word, ARTICLE)
}

/// The verb category of one folded word of a tool's name, title or
/// description: by the word, or by its English stem when it is inflected
/// (`Turns`, `Gets`, `listing`).
pub(crate) fn word_category(word: &str, stem: &str) -> Option<&'static str> {
    let inflected = matches!(word.bytes().last(), Some(b's' | b'd' | b'g'));
    verb_category(word).or_else(|| if inflected { verb_category(stem) } else { None })
}

/// The verb category of the first word of a description (`Turns off all
/// lights`).
pub(crate) fn description_category(
    description: Option<&str>,
    stemmers: &Stemmers,
) -> Option<&'static str> {
    let first = description?
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())?;
    let w = fold(first);
    word_category(&w, &stemmers.stem(Lang::En, &w))
}

/// Whether a parameter name holds a value to write (`value`,
/// `brightness`, `temperature`, ...), ignoring case.
pub(crate) fn value_param(name: &str) -> bool {
    [
        "value",
        "state",
        "brightness",
        "dim",
        "temperature",
        "position",
        "volume",
        "level",
        "color",
        "percentage",
        "speed",
        "mode",
    ]
    .iter()
    .any(|v| v.eq_ignore_ascii_case(name))
}

/// What a tool does, from its catalog entry. `name` and `title` are the
/// folded words with their English stems; `first_verb` is the act of the
/// description's first word; `writes_value` whether a parameter holds a
/// value to write ([`value_param`]).
pub(crate) fn tool_acts<'a>(
    name: impl Iterator<Item = (&'a str, &'a str)>,
    title: impl Iterator<Item = (&'a str, &'a str)>,
    first_verb: u8,
    read_only: Option<bool>,
    destructive: Option<bool>,
    writes_value: bool,
) -> u8 {
    if read_only == Some(true) {
        return READ;
    }
    let (mut strong, mut weak) = (0u8, 0u8);
    // `manage` names every act on its object (`ha_manage_updates` lists,
    // installs and skips them): reading too, whatever the hints say
    let mut manages = false;
    for (w, stem) in name.chain(title) {
        manages |= w == "manage";
        let a = word_category(w, stem).map_or(0, act_of_category);
        if is(w, WEAK) {
            weak |= a;
        } else {
            strong |= a;
        }
    }
    let mut acts = if strong != 0 { strong } else { weak };
    if acts == 0 {
        acts = first_verb;
    }
    if read_only == Some(false) {
        acts &= !READ;
    }
    if manages {
        acts |= READ | CHANGE | CREATE | DELETE;
    }
    if acts == 0 && (read_only == Some(false) || destructive == Some(true) || writes_value) {
        acts = CHANGE;
    }
    acts
}

/// What a query asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct QueryAct {
    /// The act asked for ([`READ`], [`CHANGE`], [`CREATE`], [`DELETE`]),
    /// 0 when the query does not say.
    pub(crate) act: u8,
    /// A question (about the state of things, unless [`QueryAct::past`]).
    pub(crate) question: bool,
    /// About the past (`yesterday`, `gisteren`, `hier soir`).
    pub(crate) past: bool,
    /// Asks why (`why didn't it work`, `waarom`, `warum`): about what went
    /// wrong, not about the state.
    pub(crate) why: bool,
}

/// Reads the act of a query from its folded words. `verb` gives the act of
/// a word used as a verb (0 when it is not one), `known` whether the
/// lexicon or the index knows a word; `command` is the act of the query's
/// separable verb or lone particle (`zet ... aan`, `an`), 0 for none.
pub(crate) fn query_act(
    words: &[String],
    lang: Option<Lang>,
    question_mark: bool,
    command: u8,
    verb: &dyn Fn(&str) -> u8,
    known: &dyn Fn(&str) -> bool,
) -> QueryAct {
    let mut first = words.iter().map(String::as_str).enumerate();
    // a modal and its subject first: a request (`can you turn on ...`)
    let mut requested = false;
    let mut start = None;
    // a subject first (`het is hier donker`, `the light is on?`): a
    // statement, a question only by its question mark
    let mut subject_first = false;
    for (i, w) in first.by_ref() {
        if is(w, MODAL) {
            requested = true;
            continue;
        }
        if is_determiner(w) {
            subject_first = true;
            continue;
        }
        if is(w, FILLER) {
            // `ik heb het koud`, `ich habe Hunger`: a subject, then its verb
            subject_first |= matches!(w, "i" | "ik" | "ich" | "we" | "wij" | "wir");
            continue;
        }
        start = Some(i);
        break;
    }
    let past = words.iter().any(|w| is(w, PAST));
    // something that keeps happening asks why (`the light keeps turning
    // on by itself`, `de verwarming slaat telkens af`)
    if words.iter().any(|w| is(w, KEEPS)) {
        return QueryAct {
            act: READ,
            question: true,
            past,
            why: true,
        };
    }
    let why = words.iter().any(|w| is(w, WHY));
    let Some(start) = start else {
        return QueryAct {
            act: command,
            question: false,
            past,
            why,
        };
    };
    let opener = words.get(start).map_or("", String::as_str);
    // the verb: the first word, else (Dutch and German put the infinitive
    // last) the last word; a single word, or a plural first (`labels`,
    // `scenes`), names a topic, not an act
    let alone = words.len() == start + 1;
    let plural = opener.len() > 3
        && opener.ends_with('s')
        && !opener.ends_with("ss")
        && lang != Some(Lang::Fr);
    let mut act = if alone || plural { 0 } else { verb(opener) };
    // `make a ...`, `maak een ...`, `mach ein ...`: create
    let makes = is(opener, MAKE);
    let article = words.get(start + 1).is_some_and(|w| is(w, ARTICLE));
    if makes && article {
        act = CREATE;
    }
    // `give the lamp a label`, `geef de lamp een andere kleur`: a thing
    // (not `me`), then what it gets: a change (`give me a list` reads)
    let gives = is(opener, GIVE)
        && words
            .get(start + 1)
            .is_some_and(|w| is_determiner(w) && !is(w, ARTICLE))
        && words.iter().skip(start + 3).any(|w| is(w, ARTICLE));
    if gives {
        act = CHANGE;
    }
    if act == 0 && lang != Some(Lang::En) {
        if let Some(last) = words
            .last()
            .filter(|w| w.ends_with("en") || w.ends_with('n'))
        {
            act = verb(last);
        }
    }
    if command != 0 {
        act = command;
    }
    // Dutch and German ask with the verb first, conjugated (`neemt de
    // sensor iets waar`, `öffnet sich das Rollo`), and command with its
    // bare stem (`zet`, `öffne`)
    let subject = words
        .get(start + 1)
        .is_some_and(|w| is_determiner(w) || is(w, SUBJECT));
    let conjugated = matches!(lang, None | Some(Lang::Nl | Lang::De))
        && subject
        && opener.len() >= 4
        && opener.ends_with('t')
        && verb(opener) == 0
        && !known(opener);
    let reflexive = words.get(start + 1).is_some_and(|w| w == "sich");
    let asks_in = |w: &str| is(w, ASKS) || (is(w, ASKS_FR) && lang == Some(Lang::Fr));
    let opens = !subject_first && (asks_in(opener) || conjugated || reflexive);
    // `tell me if ...`, `zeig mir, welche ...`: a question asked as a request
    let indirect = act == READ
        && words
            .iter()
            .skip(start + 1)
            .any(|w| is(w, WHETHER) && (w != "of" || lang == Some(Lang::Nl)));
    // `can you tell me ...` asks to read; `can you turn ...` to change
    let asks = !requested && (opens || question_mark) || indirect;
    if asks && (act == 0 || opens || indirect) {
        return QueryAct {
            act: READ,
            question: true,
            past,
            why,
        };
    }
    QueryAct {
        act,
        question: false,
        past: past && act == READ,
        why: why && act == READ,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::analyze::words;

    #[test]
    fn verbs_are_sorted() {
        assert!(VERBS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(verb_category("get"), Some("query"));
        assert_eq!(verb_category("toggle"), Some("control"));
        assert_eq!(verb_category("lamp"), None);
    }

    fn tool(name: &str, title: &str, ro: Option<bool>, params: &[&str]) -> u8 {
        let n = words(name, 20);
        let t = words(title, 20);
        let pairs = |v: &Vec<String>| -> Vec<(String, String)> {
            let s = crate::search::analyze::Stemmers::new();
            v.iter().map(|w| (w.clone(), s.stem(Lang::En, w))).collect()
        };
        let (n, t) = (pairs(&n), pairs(&t));
        tool_acts(
            n.iter().map(|(a, b)| (a.as_str(), b.as_str())),
            t.iter().map(|(a, b)| (a.as_str(), b.as_str())),
            0,
            ro,
            None,
            params.iter().any(|p| value_param(p)),
        )
    }

    #[test]
    fn tools_act_by_hints_verbs_and_parameters() {
        assert_eq!(tool("HassTurnOn", "", None, &[]), CHANGE);
        assert_eq!(tool("GetLiveContext", "", None, &[]), READ);
        assert_eq!(tool("issue_read", "", Some(true), &[]), READ);
        // a noun that is also a verb gives way to the real verb
        assert_eq!(tool("HassListAddItem", "", None, &[]), CREATE);
        assert_eq!(tool("list_issues", "", None, &[]), READ);
        assert_eq!(tool("update_issue_state", "", None, &[]), CHANGE);
        assert_eq!(
            tool(
                "ha_config_set_scene",
                "Create or Update Scene",
                Some(false),
                &[]
            ),
            CHANGE | CREATE
        );
        assert_eq!(tool("ha_remove_device", "", Some(false), &[]), DELETE);
        assert_eq!(
            tool("ha_manage_updates", "Manage Updates", Some(false), &[]),
            READ | CHANGE | CREATE | DELETE
        );
        assert_eq!(
            tool("mark_all_notifications_read", "", Some(false), &[]),
            CHANGE
        );
        // nothing but a value to write
        assert_eq!(tool("lamp", "", None, &["value"]), CHANGE);
        assert_eq!(tool("lamp", "", None, &["id"]), 0);
    }

    fn act(q: &str) -> QueryAct {
        let w = words(q, 64);
        let lang = crate::search::analyze::guess_lang(&w);
        let verb = |w: &str| {
            if crate::search::analyze::is_stopword(w) {
                0
            } else {
                verb_category(w).map_or(0, act_of_category)
            }
        };
        let known = |w: &str| matches!(w, "licht" | "lamp");
        query_act(&w, lang, q.trim_end().ends_with('?'), 0, &verb, &known)
    }

    #[test]
    fn queries_ask_or_command() {
        for q in [
            "is the garage door open",
            "what is the thermostat set to",
            "hoe warm is het boven",
            "staat de tv aan",
            "Sind noch Fenster offen",
            "Wie spät ist es",
            "quelle heure est-il",
            "the kitchen light is on?",
            "waar is Ada",
            "wordt er ergens beweging geregistreerd",
            "öffnet sich das Rollo im Wohnzimmer",
            "tell me if there are any switches on",
        ] {
            let a = act(q);
            assert!(a.question && a.act == READ && !a.past, "{q}: {a:?}");
        }
        assert!(act("what was the temperature yesterday").past);
        assert!(act("hoe was de temperatuur vannacht").past);
        assert!(!act("Was steht im Kalender").past);
        assert!(!act("did I leave the door open?").past);
        assert!(act("why didn't the automation run?").why);
        for (q, want) in [
            ("turn off the lights", CHANGE),
            ("can you set the heating to 20?", CHANGE),
            ("please delete the old scene", DELETE),
            ("list my scenes", READ),
            ("create a scene", CREATE),
            ("maak een back-up", CREATE),
            ("make the lights brighter", 0),
            ("geef de sproeiers een label", CHANGE),
            ("gib der Lampe einen Namen", CHANGE),
            ("give me a list of the scenes", 0),
            ("lights", 0),
            ("labels", 0),
            ("labels on issues", 0),
            ("restart", 0),
            ("licht aus", 0),
            ("het is hier te donker", 0),
        ] {
            let a = act(q);
            assert!(!a.question && a.act == want, "{q}: {a:?}");
        }
    }
}
