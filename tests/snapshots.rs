//! Snapshot tests: the Home Assistant and Homey catalogs in every dialect.
//! A change in output fails here; regenerate on purpose with
//! `UPDATE_SNAPSHOTS=1 cargo test --test snapshots` and review the diff.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;

use mcp_switchboard::{convert, Catalog, Dialect, Options};

const CATALOGS: &[(&str, &str)] = &[
    (
        "home-assistant-2025.4",
        "home-assistant-2025.4.tools-list.json",
    ),
    (
        "home-assistant-2026.11",
        "home-assistant-2026.11.tools-list.json",
    ),
    ("homey", "homey-ai-chat-control-2.2.1.tools-list.json"),
];

#[test]
fn outputs_match_the_snapshots() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut stale = Vec::new();
    for (label, file) in CATALOGS {
        let catalog = Catalog::parse(&common::corpus(file)).expect("catalog");
        for dialect in Dialect::ALL {
            for strict in [false, true] {
                if strict && (!dialect.has_strict() || dialect == Dialect::OpenAiResponses) {
                    continue;
                }
                let out = convert(&catalog, dialect, &Options::strict(strict)).to_json();
                let text = serde_json::to_string_pretty(&out).expect("json") + "\n";
                let name = format!(
                    "{label}.{dialect}{}.json",
                    if strict { "-strict" } else { "" }
                );
                let path = dir.join(&name);
                if update {
                    std::fs::create_dir_all(&dir).expect("snapshot dir");
                    std::fs::write(&path, &text).expect("write snapshot");
                    continue;
                }
                match std::fs::read_to_string(&path) {
                    Ok(old) if old == text => {}
                    Ok(_) => stale.push(format!("{name} differs")),
                    Err(_) => stale.push(format!("{name} is missing")),
                }
            }
        }
    }
    assert!(
        stale.is_empty(),
        "snapshots out of date (review, then UPDATE_SNAPSHOTS=1 cargo test --test snapshots):\n{}",
        stale.join("\n")
    );
}
