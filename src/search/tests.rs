//! Behaviour of the tool search.

use super::*;
use crate::ErrorKind;
use serde_json::{json, Value};

fn catalog(tools: Value) -> Catalog {
    Catalog::parse(tools.to_string().as_bytes()).unwrap()
}

/// A small Homey-like catalog.
fn homey() -> Catalog {
    catalog(json!([
        {"name": "set_light", "description": "Control a light: turn it on or off, or dim it.",
         "inputSchema": {"type": "object", "properties": {
            "deviceId": {"type": "string", "description": "The ID of the light device"},
            "state": {"type": "string", "enum": ["on", "off", "toggle"]},
            "dim": {"type": "number", "description": "Dim level (0-100)"}}}},
        {"name": "set_thermostat", "description": "Set the target temperature of a thermostat.",
         "inputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}}}},
        {"name": "toggle_device", "description": "Toggle a device between on and off."},
        {"name": "get_states", "description": "Get the current state of devices.",
         "annotations": {"readOnlyHint": true}},
        {"name": "get_flow_overview", "description": "Get all automation flows."},
        {"name": "control_device", "description": "Control any device capability. Prefer set_light."},
        {"name": "delete_flow", "description": "Delete a flow.",
         "annotations": {"destructiveHint": true}}
    ]))
}

/// The index of a catalog of these tools.
fn indexed(tools: Value) -> ToolIndex {
    ToolIndex::build(&catalog(tools), None).unwrap()
}

/// Asserts that each query finds `tool` first.
fn all_first(index: &ToolIndex, queries: &[&str], tool: &str) {
    for q in queries {
        assert_eq!(top(index, q), tool, "{q}");
    }
}

fn index() -> ToolIndex {
    ToolIndex::build(&homey(), None).unwrap()
}

fn names(r: &SearchResults) -> Vec<&str> {
    r.hits.iter().map(|h| h.name.as_str()).collect()
}

fn top(index: &ToolIndex, q: &str) -> String {
    index
        .search(q, &SearchOptions::default())
        .hits
        .first()
        .map(|h| h.name.clone())
        .unwrap_or_default()
}

#[test]
fn english_dutch_and_german_queries_find_the_tool() {
    let i = index();
    for q in [
        "turn on the light",
        "lamp aan",
        "zet de lamp aan",
        "doe het licht uit",
        "Licht einschalten",
        "schalte die Lampe aus",
        "dim the lights",
        "lampen dimmen",
    ] {
        assert_eq!(top(&i, q), "set_light", "{q}");
    }
    for q in [
        "thermostat",
        "thermostaat",
        "verwarming",
        "Heizung",
        "set temperature",
    ] {
        assert_eq!(top(&i, q), "set_thermostat", "{q}");
    }
    for q in ["automations", "automatiseringen", "Automatisierungen"] {
        let r = i.search(q, &SearchOptions::new().with_limit(2));
        assert!(names(&r).contains(&"get_flow_overview"), "{q}: {r:?}");
    }
}

#[test]
fn words_are_folded_stemmed_and_split() {
    let i = index();
    // diacritics
    assert_eq!(
        i.search("Gerätestatus", &SearchOptions::default()),
        i.search("geratestatus", &SearchOptions::default())
    );
    // stems: plural, verb forms
    assert_eq!(top(&i, "toggling devices"), "toggle_device");
    // Dutch and German compounds
    assert_eq!(top(&i, "slaapkamerlamp aan"), "set_light");
    assert_eq!(top(&i, "Wohnzimmerlicht dimmen"), "set_light");
    // identifiers in the query
    assert_eq!(top(&i, "setLight"), "set_light");
}

#[test]
fn typos_are_corrected_within_bounds() {
    let i = index();
    assert_eq!(top(&i, "thermostst"), "set_thermostat");
    assert_eq!(top(&i, "ligth on"), "set_light");
    assert_eq!(top(&i, "verwarmnig"), "set_thermostat");
    // too far from anything: nothing matches, and without a fallback
    // nothing is answered
    let off = SearchOptions::default().with_fallback(false);
    let r = i.search("qwertyuiop", &off);
    assert_eq!((r.total, r.fallback), (0, None));
}

#[test]
fn nothing_matched_is_answered_with_guesses_said_to_be_guesses() {
    let i = index();
    let opts = SearchOptions::default();
    // no word is close enough for typo search, but the letters are
    let r = i.search("qqthermoszz", &opts);
    assert_eq!(r.fallback, Some(Fallback::Spelling), "{r:?}");
    assert_eq!(r.hits[0].name, "set_thermostat");
    assert!(r.hits.iter().all(|h| h.guess));
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["fallback"], "spelling");
    assert_eq!(json["hits"][0]["guess"], true);
    // nothing alike at all: the tools that do what the query asks
    let r = i.search("please archive it", &opts);
    assert_eq!(r.fallback, Some(Fallback::Act));
    assert_eq!(
        names(&r),
        [
            "control_device",
            "set_light",
            "set_thermostat",
            "toggle_device"
        ]
    );
    // a question about something nobody knows still asks for the state
    let r = i.search("what is qqqq zzzz?", &opts);
    assert_eq!((r.fallback, r.hits[0].name.as_str()), (None, "get_states"));
    let r = i.search("qqqq zzzz xxxx", &opts);
    assert_eq!((r.fallback, r.total), (Some(Fallback::Act), 7));
    // a match is no guess, and says nothing of a fallback
    let r = i.search("thermostat", &opts);
    assert!(r.fallback.is_none() && !r.hits[0].guess);
    let json = serde_json::to_value(&r).unwrap();
    assert!(json.get("fallback").is_none() && json["hits"][0].get("guess").is_none());
    // within a category
    let r = i.search("qqqq", &opts.clone().with_category("query"));
    assert!(r.hits.iter().all(|h| h.category == "query") && r.total > 0);
    let r = i.search("qqqq", &opts.with_category("nope"));
    assert_eq!((r.total, r.fallback), (0, None));
}

#[test]
fn needs_said_as_feelings_ask_for_what_answers_them() {
    let i = index();
    all_first(
        &i,
        &[
            "I'm freezing",
            "ik heb het koud",
            "mir ist kalt",
            "it's a bit chilly in here",
        ],
        "set_thermostat",
    );
    all_first(
        &i,
        &[
            "it's too dark in the hallway",
            "ik zie niks",
            "es ist dunkel hier",
        ],
        "set_light",
    );
    // the same word in a question asks about the state
    assert_eq!(top(&i, "is it cold in the bedroom?"), "get_states");
    // and a command with it says what to do
    assert_eq!(top(&i, "make the light warm"), "set_light");
}

#[test]
fn a_quantity_sets_what_its_thing_is_set_by() {
    let i = indexed(json!([
        {"name": "set_position", "description": "Sets the position of a device."},
        {"name": "set_fan_speed", "description": "Sets a fan's speed by percentage."},
        {"name": "set_volume", "description": "Sets the volume of a media player."},
        {"name": "turn_off", "description": "Turns off or closes a device."}
    ]));
    all_first(
        &i,
        &[
            "zet de zonwering op 70 procent",
            "blinds to 30%",
            "Rollladen auf 50 Prozent",
        ],
        "set_position",
    );
    all_first(
        &i,
        &["turn the tv down", "turn down the music a bit"],
        "set_volume",
    );
    assert_eq!(top(&i, "close the blinds"), "turn_off");
}

#[test]
fn what_keeps_happening_asks_why() {
    let i = indexed(json!([
        {"name": "set_light", "description": "Turns a light on or off."},
        {"name": "get_traces", "description": "Execution traces of automations, to debug them.",
         "annotations": {"readOnlyHint": true}},
        {"name": "get_logs", "description": "The system log.", "annotations": {"readOnlyHint": true}}
    ]));
    for q in [
        "the hallway light keeps turning on by itself",
        "waarom gaat de lamp steeds vanzelf aan",
        "das Licht geht ständig von selbst an",
    ] {
        let r = i.search(q, &SearchOptions::default());
        assert_ne!(r.hits[0].name, "set_light", "{q}");
    }
    assert_eq!(top(&i, "turn on the light"), "set_light");
}

#[test]
fn a_web_address_is_a_page_to_go_to() {
    let i = indexed(json!([
        {"name": "browser_navigate", "description": "Navigate to a URL",
         "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}}},
        {"name": "browser_tabs", "description": "List, create, close, or select a tab."},
        {"name": "com_philips_hue", "description": "Hue lights."}
    ]));
    all_first(
        &i,
        &[
            "open example.com",
            "ga naar nu.nl",
            "https://www.example.org/a?b=c",
        ],
        "browser_navigate",
    );
    // a dotted name that is no address stays words
    assert_eq!(top(&i, "light.kitchen hue"), "com_philips_hue");
}

#[test]
fn exact_name_is_always_first() {
    let i = index();
    for q in [
        "control_device",
        "CONTROL_DEVICE",
        "Control Device",
        " controlDevice ",
    ] {
        let r = i.search(q, &SearchOptions::default());
        assert_eq!(r.hits[0].name, "control_device", "{q}");
        assert!(r.hits[0].score > r.hits.get(1).map_or(0.0, |h| h.score));
    }
    // a name whose words match other tools better still comes first
    let c = catalog(json!([
        {"name": "light", "description": "Unrelated."},
        {"name": "set_light", "description": "Light light light, lights and lamps."}
    ]));
    let i = ToolIndex::build(&c, None).unwrap();
    assert_eq!(top(&i, "light"), "light");
}

#[test]
fn limit_total_and_category() {
    let i = index();
    let all = i.search("device", &SearchOptions::new().with_limit(100));
    assert!(all.total >= 3, "{all:?}");
    assert_eq!(all.hits.len(), all.total);
    let one = i.search("device", &SearchOptions::new().with_limit(1));
    assert_eq!(one.total, all.total);
    assert_eq!(one.hits, all.hits[..1]);
    let none = i.search("device", &SearchOptions::new().with_limit(0));
    assert_eq!((none.total, none.hits.len()), (all.total, 0));
    // category filter, ignoring case
    let q = i.search("device", &SearchOptions::new().with_category("QUERY"));
    assert_eq!(names(&q), ["get_states"]);
    assert_eq!(q.total, 1);
    let c = i.search("device", &SearchOptions::new().with_category("nope"));
    assert_eq!(c.total, 0);
    // the exact name obeys the filter too
    let e = i.search("set_light", &SearchOptions::new().with_category("query"));
    assert!(!names(&e).contains(&"set_light"));
}

#[test]
fn categories_are_derived() {
    let i = index();
    assert_eq!(i.category("set_light"), Some("control"));
    assert_eq!(i.category("get_states"), Some("query"));
    assert_eq!(i.category("get_flow_overview"), Some("query"));
    assert_eq!(i.category("delete_flow"), Some("delete"));
    assert_eq!(i.category("missing"), None);
    assert_eq!(i.len(), 7);
    assert!(!i.is_empty());
    // annotations are searchable words
    assert_eq!(top(&i, "destructive"), "delete_flow");
    assert_eq!(top(&i, "read only"), "get_states");
}

#[test]
fn ties_are_broken_by_name() {
    let c = catalog(json!([
        {"name": "b_tool", "description": "Water the plants."},
        {"name": "c_tool", "description": "Water the plants."},
        {"name": "a_tool", "description": "Water the plants."}
    ]));
    let i = ToolIndex::build(&c, None).unwrap();
    let r = i.search("plants", &SearchOptions::default());
    assert_eq!(names(&r), ["a_tool", "b_tool", "c_tool"]);
    assert_eq!(r.hits[0].score, r.hits[2].score);
}

#[test]
fn results_are_deterministic() {
    let a = index();
    let b = index();
    for q in ["turn on the light", "lamp aan", "device", "", "thermostst"] {
        let ra = a.search(q, &SearchOptions::default());
        assert_eq!(ra, a.search(q, &SearchOptions::default()));
        assert_eq!(ra, b.search(q, &SearchOptions::default()));
    }
}

#[test]
fn mentions_of_other_tools_do_not_count() {
    let i = index();
    // control_device says "Prefer set_light": that is not about lights
    let r = i.search("set_light light", &SearchOptions::new().with_limit(10));
    assert!(!names(&r).contains(&"control_device"), "{r:?}");
}

#[test]
fn json_shape_and_rounding() {
    let i = index();
    let r = i.search("lamp aan", &SearchOptions::new().with_limit(2));
    let v = serde_json::to_value(&r).unwrap();
    let obj = v.as_object().unwrap();
    assert_eq!(obj.keys().collect::<Vec<_>>(), ["total", "hits"]);
    let hit = v["hits"][0].as_object().unwrap();
    assert_eq!(
        hit.keys().collect::<Vec<_>>(),
        ["name", "score", "category", "description"]
    );
    assert_eq!(v["hits"][0]["name"], "set_light");
    assert_eq!(v["hits"][0]["category"], "control");
    assert_eq!(
        v["hits"][0]["description"],
        "Control a light: turn it on or off, or dim it."
    );
    for h in &r.hits {
        assert_eq!(h.score, (h.score * 10_000.0).round() / 10_000.0);
    }
}

#[test]
fn metadata_merges_on_top() {
    let meta = json!({"tools": {
        "get_flow_overview": {
            "category": "flows",
            "tags": ["automation"],
            "description": "All flows, with their cards",
            "keywords": ["Ablaufsteuerung", "zeitschema"]
        },
        "not_in_catalog": {"category": "x"}
    }});
    let i = ToolIndex::build(&homey(), Some(&meta)).unwrap();
    assert_eq!(i.category("get_flow_overview"), Some("flows"));
    let r = i.search("zeitschema", &SearchOptions::default());
    assert_eq!(names(&r), ["get_flow_overview"]);
    assert_eq!(r.hits[0].description, "All flows, with their cards");
    assert_eq!(r.hits[0].category, "flows");
    assert_eq!(top(&i, "Ablaufsteuerung"), "get_flow_overview");
    let f = i.search("", &SearchOptions::new().with_category("Flows"));
    assert_eq!(names(&f), ["get_flow_overview"]);
    // a wrong shape is an error with a pointer
    let bad = json!({"tools": {"set_light": {"keywords": [1]}}});
    let err = ToolIndex::build(&homey(), Some(&bad)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Shape);
    assert_eq!(err.pointer(), "/tools/set_light/keywords/0");
}

#[test]
fn queries_without_words_list_the_tools() {
    let i = index();
    for q in [
        "",
        "   ",
        "the of and",
        "de het een",
        "der die das",
        "🙂💡🔥",
        "12345",
        "?!",
    ] {
        let r = i.search(q, &SearchOptions::new().with_limit(3));
        assert_eq!(r.total, 7, "{q:?}");
        assert_eq!(
            names(&r),
            ["control_device", "delete_flow", "get_flow_overview"],
            "{q:?}"
        );
        assert!(r.hits.iter().all(|h| h.score == 0.0));
    }
}

#[test]
fn bad_queries_never_panic() {
    let i = index();
    let huge = "turn on the light ".repeat(600); // ~10 KB
    let one_word = "a".repeat(10_000);
    let mut mixed = String::new();
    for k in 0..2_000 {
        mixed.push(char::from_u32(0x20 + (k * 7919) % 0x3000).unwrap_or('x'));
    }
    let queries = [
        huge.as_str(),
        one_word.as_str(),
        mixed.as_str(),
        ".*[](){}^$|\\+?",
        "(?i)light.*",
        "\u{0}\u{1}\u{7f}",
        "💡 lamp 💡",
        "ﬁ ǉ ß İ Σ",
        "e\u{301}\u{301}\u{301}",
        "\u{202e}thgil",
        "aan uit an aus ein auf zu toe",
        "zet aan aan aan",
        // the act and the words read together
        "? ? ?",
        "is",
        "the the the ?",
        "make a",
        "can you",
        "Ton Ton aus aus an",
        "neu neu starten starten opnieuw",
        "why why why",
        "sich",
        "wordt er",
        "hoe laat hoe laat",
    ];
    for q in queries {
        let r = i.search(q, &SearchOptions::new().with_limit(5));
        assert!(r.hits.len() <= 5);
        assert!(r.total <= i.len());
        let _ = i.suggest(q, 3);
    }
    let r = i.search(&huge, &SearchOptions::default());
    assert_eq!(r.hits[0].name, "set_light");
    assert_eq!(top(&i, "💡 lamp 💡"), "set_light");
}

#[test]
fn empty_catalog() {
    let i = ToolIndex::build(&Catalog::default(), None).unwrap();
    assert!(i.is_empty());
    let r = i.search("anything", &SearchOptions::default());
    assert_eq!((r.total, r.hits.len()), (0, 0));
    assert_eq!(i.search("", &SearchOptions::default()).total, 0);
    assert!(i.suggest("x", 3).is_empty());
}

#[test]
fn suggests_close_names() {
    let i = index();
    assert_eq!(i.suggest("set_lights", 1), ["set_light"]);
    assert_eq!(i.suggest("setLight", 2)[0], "set_light");
    assert_eq!(i.suggest("get_state", 1), ["get_states"]);
    assert_eq!(i.suggest("thermostat_set", 1), ["set_thermostat"]);
    assert!(i.suggest("completely_unrelated_thing", 3).is_empty());
    assert!(i.suggest("set_light", 0).is_empty());
    assert!(i.suggest("", 3).is_empty());
    let s = i.suggest("device", 5);
    assert!(s.contains(&"toggle_device".to_string()), "{s:?}");
}

#[test]
fn names_of_every_shape_are_searchable() {
    let c = catalog(json!([
        {"name": "light__HassTurnOn", "description": "Turns on a device"},
        {"name": "admin.tools.list", "description": "Lists tools"},
        {"name": "HTTPServer2go", "description": "Serves"},
        {"name": "kebab-case-name", "description": "Kebab"}
    ]));
    let i = ToolIndex::build(&c, None).unwrap();
    assert_eq!(top(&i, "turn on"), "light__HassTurnOn");
    assert_eq!(top(&i, "HassTurnOn"), "light__HassTurnOn");
    assert_eq!(top(&i, "tools list"), "admin.tools.list");
    assert_eq!(top(&i, "http server"), "HTTPServer2go");
    assert_eq!(top(&i, "kebab case"), "kebab-case-name");
}

#[test]
fn questions_read_and_commands_change() {
    // the same words; what each tool does is read from its name, its
    // annotations or its parameters, never from a list of tools
    let i = ToolIndex::build(
        &catalog(json!([
            {"name": "fetch_climate", "description": "Temperature and humidity of a room."},
            {"name": "climate_target", "description": "Temperature of a room's thermostat.",
             "inputSchema": {"type": "object", "properties": {"value": {"type": "number"}}}},
            {"name": "door_report", "description": "Which doors are open.",
             "annotations": {"readOnlyHint": true}},
            {"name": "door_motor", "description": "Open or close a door.",
             "annotations": {"readOnlyHint": false}}
        ])),
        None,
    )
    .unwrap();
    for (q, want) in [
        ("how warm is it in the kitchen?", "fetch_climate"),
        ("what is the thermostat set to", "fetch_climate"),
        ("set the thermostat to 21 degrees", "climate_target"),
        ("is the front door open?", "door_report"),
        ("staat de voordeur open", "door_report"),
        ("open the front door", "door_motor"),
        ("doe de voordeur open", "door_motor"),
    ] {
        assert_eq!(top(&i, q), want, "{q}");
    }
}

/// A catalog whose generic switches also lock and unlock (as Home
/// Assistant's: a lock is switched on to lock it), beside a script that
/// names locks in its description.
fn switches() -> ToolIndex {
    let enums = json!({"type": "object", "properties": {
        "name": {"type": "string"},
        "device_class": {"type": "array", "items": {"type": "string",
            "enum": ["door", "garage", "gate", "window", "outlet"]}}}});
    indexed(json!([
        {"name": "HassTurnOn", "description": "Turns on/opens a device or entity", "inputSchema": enums},
        {"name": "HassTurnOff", "description": "Turns off/closes a device or entity", "inputSchema": enums},
        {"name": "HassSetPosition", "description": "Sets the position of a device or entity", "inputSchema": enums},
        {"name": "good_night", "description": "Turns off all lights and locks the doors"}
    ]))
}

#[test]
fn locking_switches_on_or_closes_and_unlocking_switches_off_or_opens() {
    let i = switches();
    let within = |q: &str, tool: &str, k: usize| {
        let r = i.search(q, &SearchOptions::new().with_limit(k));
        assert!(names(&r).contains(&tool), "{q}: {:?}", names(&r));
    };
    for q in [
        "lock the back door",
        "vergrendel de achterdeur",
        "sluit de sloten af",
        "verriegle die Hintertür",
        "schließ die Hintertür zu",
    ] {
        within(q, "HassTurnOn", 3);
    }
    for q in [
        "unlock the back door",
        "ontgrendel de achterdeur",
        "entriegle die Hintertür",
        "schließ die Hintertür auf",
    ] {
        within(q, "HassTurnOff", 3);
    }
}

#[test]
fn a_scene_or_script_by_name_is_switched_on() {
    let i = switches();
    for q in [
        "the party scene please",
        "de scène feestje",
        "das Skript Kinoabend",
    ] {
        let r = i.search(q, &SearchOptions::new().with_limit(2));
        assert!(names(&r).contains(&"HassTurnOn"), "{q}: {:?}", names(&r));
    }
}

#[test]
fn a_thing_the_catalog_has_no_word_for_is_a_device() {
    let i = indexed(json!([
        {"name": "list_devices", "description": "List all Homey devices with their current state"},
        {"name": "control_device", "description": "Control a Homey device capability",
         "inputSchema": {"type": "object", "properties": {
            "device_id": {"type": "string"}, "capability": {"type": "string"}, "value": {}}}},
        {"name": "list_flows", "description": "List automation flows",
         "inputSchema": {"type": "object", "properties": {"enabled_only": {"type": "boolean"}}}},
        {"name": "list_zones", "description": "List all Homey zones"}
    ]));
    all_first(
        &i,
        &[
            "zet de tuinverlichting aan",
            "turn on the garden lights",
            "schalte die Gartenbeleuchtung ein",
        ],
        "control_device",
    );
}

#[test]
fn a_place_beside_the_thing_only_says_where() {
    let i = indexed(json!([
        {"name": "set_area", "description": "Set up an area such as the kitchen, and the lights and switches in the kitchen"},
        {"name": "call_service", "description": "Call a service: turn a light or a switch on or off, set a thermostat, open a cover, and more"}
    ]));
    all_first(
        &i,
        &[
            "turn on the kitchen light",
            "zet de lamp in de keuken aan",
            "schalte das Licht in der Küche ein",
        ],
        "call_service",
    );
    // a place alone is what the query is about
    assert_eq!(top(&i, "kitchen"), "set_area");
    // and so is a place with an indefinite article: a thing to make
    let i = indexed(json!([
        {"name": "set_zone", "description": "Create or update a zone"},
        {"name": "set_work_item", "description": "Create or update a work item in a project"}
    ]));
    all_first(
        &i,
        &[
            "create a new zone for work",
            "maak een nieuwe zone voor het werk",
            "lege eine neue Zone für die Arbeit an",
        ],
        "set_zone",
    );
}

#[test]
fn robots_and_vacuum_brands_are_vacuums_and_modes_are_switched_on() {
    let i = indexed(json!([
        {"name": "HassTurnOn", "description": "Turns on/opens a device or entity"},
        {"name": "HassVacuumStart", "description": "Starts a vacuum"},
        {"name": "HassVacuumReturnToBase", "description": "Returns a vacuum to base"},
        {"name": "HassMediaPrevious", "description": "Replays the previous item for a media player"},
        {"name": "GetLiveContext", "description": "Provides the current state, value, or mode of devices",
         "annotations": {"readOnlyHint": true}}
    ]));
    assert_eq!(top(&i, "stuur de robot terug"), "HassVacuumReturnToBase");
    assert_eq!(top(&i, "send the roomba home"), "HassVacuumReturnToBase");
    assert_eq!(top(&i, "start the roborock"), "HassVacuumStart");
    for q in ["switch to party mode", "Partymodus aktivieren"] {
        let r = i.search(q, &SearchOptions::new().with_limit(1));
        assert_eq!(names(&r), ["HassTurnOn"], "{q}");
    }
}

#[test]
fn set_on_a_list_is_added_to_it() {
    let i = indexed(json!([
        {"name": "HassListAddItem", "description": "Add item to a todo list"},
        {"name": "HassListCompleteItem", "description": "Complete item on a todo list"},
        {"name": "HassLightSet", "description": "Sets the brightness percentage or color of a light"}
    ]));
    all_first(
        &i,
        &[
            "zet wc-papier op de boodschappenlijst",
            "setz Milch auf die Einkaufsliste",
            "put milk on the shopping list",
            "mets du lait sur la liste de courses",
        ],
        "HassListAddItem",
    );
    assert_eq!(top(&i, "zet de lamp op 50 procent"), "HassLightSet");
}

#[test]
fn a_question_about_what_a_tool_is_about_finds_it_over_the_state() {
    // `update` is mostly a verb in these descriptions; asked about, it is
    // the thing one tool's name is about
    let i = indexed(json!([
        {"name": "get_state", "description": "Get the current state and status of an entity."},
        {"name": "manage_updates", "description": "Manage updates: list, install or skip them."},
        {"name": "set_scene", "description": "Create or update a scene."},
        {"name": "set_script", "description": "Create or update a script."},
        {"name": "list_labels", "description": "List the labels.",
         "annotations": {"readOnlyHint": true}},
        {"name": "set_label", "description": "Create or update a label."}
    ]));
    all_first(
        &i,
        &[
            "are there any updates?",
            "zijn er updates?",
            "Gibt es Updates?",
            "check for updates",
            "Sind Updates verfügbar?",
        ],
        "manage_updates",
    );
    all_first(
        &i,
        &[
            "which labels are there?",
            "welke labels zijn er",
            "welche Labels gibt es",
        ],
        "list_labels",
    );
    // a question about the state of a thing no tool is about still is
    all_first(
        &i,
        &[
            "is the porch light on?",
            "zijn er lampen aan?",
            "sind noch Fenster offen?",
        ],
        "get_state",
    );
}

#[test]
fn taking_away_removes_and_letting_see_shows() {
    // `gooi ... weg`, `haal ... weg`, `mach ... weg` remove; `laat ... zien`,
    // `zeig ... an` show; hiding changes what a tool reads
    let i = indexed(json!([
        {"name": "get_label", "description": "Get a label or list the labels.",
         "annotations": {"readOnlyHint": true}},
        {"name": "set_label", "description": "Create or update a label."},
        {"name": "remove_label", "description": "Delete a label.",
         "annotations": {"destructiveHint": true}},
        {"name": "get_traces", "description": "Get the execution traces of automations.",
         "annotations": {"readOnlyHint": true}},
        {"name": "get_entity", "description": "Get entity registry entries: hidden_by, aliases, labels.",
         "annotations": {"readOnlyHint": true}},
        {"name": "set_entity", "description": "Update an entity: name, visibility, labels."}
    ]));
    all_first(
        &i,
        &[
            "gooi het label kerst weg",
            "haal het label weg",
            "mach das Label weg",
            "label weggooien",
        ],
        "remove_label",
    );
    all_first(
        &i,
        &[
            "laat de sporen van de automatisering zien",
            "zeig mir die Ablaufverfolgung an",
        ],
        "get_traces",
    );
    all_first(
        &i,
        &["hide the old sensor entity", "verberg de entiteit"],
        "set_entity",
    );
}

#[test]
fn a_word_only_the_lexicon_reads_as_a_verb_says_how_things_are() {
    // `klaar` (done, ready) after `er` says how the updates are; it is not
    // a second thing the question is about
    let i = indexed(json!([
        {"name": "get_state", "description": "Get the current state and status of an entity: whether a task is done, complete or checked.",
         "annotations": {"readOnlyHint": true}},
        {"name": "manage_updates", "description": "Manage updates: list, install or skip them."},
        {"name": "set_scene", "description": "Create or update a scene."},
        {"name": "set_script", "description": "Create or update a script."}
    ]));
    all_first(
        &i,
        &["welke updates staan er klaar", "zijn er updates?"],
        "manage_updates",
    );
}

#[test]
fn giving_a_thing_something_sets_it() {
    let tools = json!([
        {"name": "get_label", "description": "Get a label or list the labels.",
         "annotations": {"readOnlyHint": true}},
        {"name": "set_label", "description": "Create or update a label: name, color, icon."},
        {"name": "set_integration", "description": "Manage an integration: enable or disable it, add it, change its options or reconfigure it."},
        {"name": "get_overview", "description": "Get an overview of the home.",
         "annotations": {"readOnlyHint": true}}
    ]);
    let i = indexed(tools);
    all_first(
        &i,
        &[
            "geef de sproeiers een label",
            "gib der Lampe ein Label",
            "give the lamp a label",
        ],
        "set_label",
    );
    all_first(
        &i,
        &["geef me een overzicht", "give me an overview"],
        "get_overview",
    );
}
