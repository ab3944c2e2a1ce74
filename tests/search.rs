//! Tool search on the real catalogs of the shared corpus. The full
//! evaluation (recall, MRR, baselines) is `bash tests/search/eval.sh`; these
//! tests pin what must never regress.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use mcp_switchboard::{Catalog, EntityIndex, SearchOptions, ToolIndex};
use serde_json::{json, Value};

fn index(file: &str) -> ToolIndex {
    let catalog = Catalog::parse(&common::corpus(file)).unwrap();
    ToolIndex::build(&catalog, None).unwrap()
}

fn top3(index: &ToolIndex, q: &str) -> Vec<String> {
    index
        .search(q, &SearchOptions::new().with_limit(3))
        .hits
        .into_iter()
        .map(|h| h.name)
        .collect()
}

#[test]
fn every_exact_name_is_the_first_hit() {
    for (file, bytes) in common::catalogs() {
        let catalog = Catalog::parse(&bytes).unwrap();
        let index = ToolIndex::build(&catalog, None).unwrap();
        assert_eq!(index.len(), catalog.len());
        for t in catalog.tools() {
            let r = index.search(t.name(), &SearchOptions::default());
            assert_eq!(r.hits[0].name, t.name(), "{file}");
        }
    }
}

#[test]
fn home_assistant_in_three_languages() {
    let ha = index("home-assistant-2025.4.tools-list.json");
    let cases = [
        ("turn on the kitchen lights", "HassTurnOn"),
        ("switch off the fan", "HassTurnOff"),
        ("set the bedroom lamp brightness to 50%", "HassLightSet"),
        ("skip to the next song", "HassMediaNext"),
        ("doe het licht aan in de keuken", "HassTurnOn"),
        (
            "zet de woonkamerthermostaat op 19 graden",
            "HassClimateSetTemperature",
        ),
        ("pauzeer de muziek", "HassMediaPause"),
        (
            "stuur rover terug naar het basisstation",
            "HassVacuumReturnToBase",
        ),
        ("schalte das Licht im Wohnzimmer aus", "HassTurnOff"),
        (
            "Stelle die Helligkeit der Schlafzimmerlampe auf 10%",
            "HassLightSet",
        ),
        ("füge Putzen zur Liste Haushalt hinzu", "HassListAddItem"),
        ("Lautstärke auf 20 Prozent", "HassSetVolume"),
    ];
    for (q, want) in cases {
        let got = top3(&ha, q);
        assert!(got.iter().any(|n| n == want), "{q:?}: {got:?}");
    }
}

#[test]
fn homey_and_github_short_queries() {
    let homey = index("homey-ai-chat-control-2.2.1.tools-list.json");
    for (q, want) in [
        ("lamp aan", "set_light"),
        ("thermostaat", "set_thermostat"),
        ("installed apps", "get_installed_apps"),
        ("trigger flow", "trigger_any_flow"),
    ] {
        assert_eq!(top3(&homey, q)[0], want, "{q}");
    }
    let github = index("github-mcp-server.tools-list.json");
    for (q, want) in [
        ("merge PR", "merge_pull_request"),
        ("create branch", "create_branch"),
        ("list tags", "list_tags"),
    ] {
        assert_eq!(top3(&github, q)[0], want, "{q}");
    }
    assert_eq!(github.category("delete_file"), Some("delete"));
    assert_eq!(github.category("list_issues"), Some("query"));
    assert_eq!(
        github.suggest("merge_pullrequest", 1),
        ["merge_pull_request"]
    );
}

fn first(index: &ToolIndex, q: &str) -> String {
    index
        .search(q, &SearchOptions::default())
        .hits
        .into_iter()
        .next()
        .map(|h| h.name)
        .unwrap_or_default()
}

#[test]
fn questions_about_the_state_find_the_tools_that_read_it() {
    // question words are stop-words: read as keywords, these questions
    // found the tools that change what they ask about
    let ha = index("home-assistant-2025.4.tools-list.json");
    for q in [
        "hoe warm is het boven?",
        "Is the garage door still open?",
        "Ist die Haustür abgeschlossen",
        "wordt er ergens beweging geregistreerd",
        "la lumière de la cuisine est allumée ?",
    ] {
        assert_eq!(first(&ha, q), "GetLiveContext", "{q}");
    }
    let homey = index("homey-ai-chat-control-2.2.1.tools-list.json");
    for (q, want) in [
        ("welke lampen branden er nog?", "get_states"),
        ("Sind noch Fenster offen?", "get_states"),
        ("what's the temperature in the bedroom?", "get_states"),
        // a command with the same words still changes things
        ("set the bedroom temperature to 20", "set_thermostat"),
        ("doe de lampen uit", "set_light"),
    ] {
        assert_eq!(first(&homey, q), want, "{q}");
    }
    // a question about the past asks for the history
    let past = first(&homey, "what was the temperature yesterday");
    assert!(past.starts_with("get_insight_"), "{past}");
    let ha = index("home-assistant-2026.11.tools-list.json");
    for q in [
        "hoe laat is het?",
        "Wie spät ist es?",
        "what time is it",
        "quelle heure est-il ?",
    ] {
        assert_eq!(first(&ha, q), "llm__GetDateTime", "{q}");
    }
    let github = index("github-mcp-server.tools-list.json");
    assert_eq!(
        first(&github, "which pull requests are open?"),
        "list_pull_requests"
    );
}

#[test]
fn sound_off_is_mute_and_again_is_restart() {
    let ha = index("home-assistant-2026.11.tools-list.json");
    for (q, want) in [
        ("Ton aus", "media_player__HassMediaPlayerMute"),
        (
            "zet het geluid van de tv uit",
            "media_player__HassMediaPlayerMute",
        ),
        ("turn the sound off", "media_player__HassMediaPlayerMute"),
        ("geluid weer aan", "media_player__HassMediaPlayerUnmute"),
        ("Ton wieder an", "media_player__HassMediaPlayerUnmute"),
        // `on the TV` is where, not what
        (
            "turn the volume down to 20 percent on the TV",
            "media_player__HassSetVolume",
        ),
    ] {
        assert_eq!(first(&ha, q), want, "{q}");
    }
    // without a mute tool, the words are read one by one
    let old = index("home-assistant-2025.4.tools-list.json");
    assert_eq!(first(&old, "turn the sound down"), "HassSetVolume");
    let ha_mcp = index("ha-mcp-8.7.0.tools-list.json");
    for (q, want) in [
        ("herstart home assistant", "ha_restart"),
        ("Home Assistant neu starten", "ha_restart"),
        ("start HA opnieuw op", "ha_restart"),
        ("maak een back-up", "ha_manage_backup"),
        // `maak een`, `create a`: the tool that creates, not the one that reads
        ("maak een scène", "ha_config_set_scene"),
        ("create a scene", "ha_config_set_scene"),
        ("list my scenes", "ha_config_get_scene"),
        ("delete the scene", "ha_config_remove_scene"),
        ("why didn't my automation run?", "ha_get_automation_traces"),
    ] {
        assert_eq!(first(&ha_mcp, q), want, "{q}");
    }
}

#[test]
fn french_queries_find_the_tool() {
    let ha = index("home-assistant-2025.4.tools-list.json");
    for (q, want) in [
        ("allume la lumière du salon", "HassTurnOn"),
        ("éteins la lampe de la cuisine", "HassTurnOff"),
        ("mets le chauffage à 21 degrés", "HassClimateSetTemperature"),
        ("chanson suivante", "HassMediaNext"),
        ("ajoute du lait à la liste de courses", "HassListAddItem"),
    ] {
        assert_eq!(first(&ha, q), want, "{q}");
    }
}

#[test]
fn progressive_disclosure_categories_as_metadata() {
    // the Homey app's own categories, read into the metadata shape
    let pd: Value = serde_json::from_slice(&common::corpus(
        "homey-ai-chat-control.progressive-disclosure.json",
    ))
    .unwrap();
    let mut tools = serde_json::Map::new();
    for (category, names) in pd["discoverable_categories"].as_object().unwrap() {
        for n in names.as_array().unwrap() {
            tools.insert(n.as_str().unwrap().into(), json!({"category": category}));
        }
    }
    let meta = json!({ "tools": tools });
    let catalog = Catalog::parse(&common::corpus(
        "homey-ai-chat-control-2.2.1.tools-list.json",
    ))
    .unwrap();
    let index = ToolIndex::build(&catalog, Some(&meta)).unwrap();
    assert_eq!(index.category("get_insight_data"), Some("insights"));
    let r = index.search("history", &SearchOptions::new().with_category("insights"));
    assert!(r.total >= 1 && r.hits.iter().all(|h| h.category == "insights"));
    // the six curated ones, and trigger_any_flow by its verb
    let control = index.search(
        "",
        &SearchOptions::new().with_category("control").with_limit(20),
    );
    let names: Vec<&str> = control.hits.iter().map(|h| h.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "control_device",
            "control_zone_capability",
            "control_zone_lights",
            "set_light",
            "set_thermostat",
            "toggle_device",
            "trigger_any_flow"
        ]
    );
}

#[test]
fn bad_queries_on_real_catalogs() {
    let long = "zet de lamp in de woonkamer aan en ".repeat(300);
    for (_, bytes) in common::catalogs() {
        let catalog = Catalog::parse(&bytes).unwrap();
        let index = ToolIndex::build(&catalog, None).unwrap();
        for q in [
            "",
            long.as_str(),
            "[a-z]+(?=x)\\d{2,}",
            "🏠🔥💡",
            "the and of",
            "\u{feff}\u{200b}",
        ] {
            let r = index.search(q, &SearchOptions::default());
            assert!(r.hits.len() <= 5 && r.total <= index.len());
            let again = index.search(q, &SearchOptions::default());
            assert_eq!(r, again);
        }
    }
}

#[path = "search/entities_eval.rs"]
mod entities_eval;

#[test]
fn needs_quantities_and_troubles_on_real_catalogs() {
    let ha = index("home-assistant-2025.4.tools-list.json");
    for (q, want) in [
        ("I'm freezing", "HassClimateSetTemperature"),
        ("ik zie niks in de gang", "HassLightSet"),
        ("es ist viel zu hell im Wohnzimmer", "HassLightSet"),
        ("zet de zonwering op 70 procent", "HassSetPosition"),
        ("turn the tv down", "HassSetVolume"),
        ("we're out of milk", "HassListAddItem"),
    ] {
        assert_eq!(first(&ha, q), want, "{q}");
    }
    let ha = index("home-assistant-2026.11.tools-list.json");
    assert_eq!(
        first(&ha, "een tandje zachter"),
        "media_player__HassSetVolumeRelative"
    );
    let ha_mcp = index("ha-mcp-8.7.0.tools-list.json");
    for (q, want) in [
        (
            "the hallway light keeps turning on by itself at night",
            "ha_get_automation_traces",
        ),
        ("is the garage door still open", "ha_get_state"),
        ("ist die Hintertür abgeschlossen?", "ha_get_state"),
    ] {
        assert_eq!(first(&ha_mcp, q), want, "{q}");
    }
}

#[test]
fn no_search_is_answered_with_nothing() {
    for (file, bytes) in common::catalogs() {
        let catalog = Catalog::parse(&bytes).unwrap();
        let index = ToolIndex::build(&catalog, None).unwrap();
        for q in ["qqqq", "zzxqw vvbnm", "🏠🔥💡", "the and of"] {
            let r = index.search(q, &SearchOptions::default());
            assert!(!r.hits.is_empty() && r.total > 0, "{file}: {q:?}");
            assert_eq!(r.hits.iter().all(|h| h.guess), r.fallback.is_some());
        }
    }
}

#[test]
fn search_tools_says_when_its_hits_are_guesses() {
    use mcp_switchboard::engine::{Disclosure, Engine, EngineConfig, Mode, Output, Reply};
    let catalog = Catalog::parse(&common::corpus(
        "homey-ai-chat-control-2.2.1.tools-list.json",
    ))
    .unwrap();
    let mut config = EngineConfig::default();
    let mut d = Disclosure::default();
    d.mode = Mode::Meta;
    config.disclosure = d;
    let mut e = Engine::new(catalog, config);
    let mut call = |id: u32, query: &str| -> Value {
        for msg in [
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "search_tools", "arguments": {"query": query}}}),
        ] {
            assert!(e.handle(&msg.to_string()), "a request is owed a reply");
        }
        let mut last = Value::Null;
        while let Some(o) = e.poll_output() {
            if let Output::Reply(Reply { message, .. }) = o {
                last = serde_json::from_str(&message).unwrap();
            }
        }
        last["result"]["structuredContent"].clone()
    };
    let guessed = call(1, "qqqq zzzz");
    assert_eq!(guessed["fallback"], "act", "{guessed}");
    assert!(guessed["note"].as_str().unwrap().contains("guesses"));
    assert_eq!(guessed["hits"][0]["guess"], true);
    let found = call(2, "thermostaat");
    assert!(found.get("note").is_none() && found.get("fallback").is_none());
    assert_eq!(found["hits"][0]["name"], "set_thermostat");
}

#[test]
fn spoken_references_find_the_home_s_things() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for (set, floor) in [("references", 0.95), ("references-heldout", 0.85)] {
        let (home, references) = entities_eval::load(&root, set);
        let index = EntityIndex::build(&home).unwrap();
        let r = entities_eval::run(&index, &references);
        assert!(
            r.accuracy() >= floor,
            "{set}: {:.3} {:#?}",
            r.accuracy(),
            r.misses
        );
        assert_eq!(
            r.ambiguous_said, r.ambiguous_total,
            "{set}: {:#?}",
            r.misses
        );
    }
}
