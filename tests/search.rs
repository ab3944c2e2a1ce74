//! Tool search on the real catalogs of the shared corpus. The full
//! evaluation (recall, MRR, baselines) is `bash tests/search/eval.sh`; these
//! tests pin what must never regress.

mod common;

use mcp_switchboard::{Catalog, SearchOptions, ToolIndex};
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
