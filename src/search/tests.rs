//! Behaviour of the tool search.

use super::*;
use serde_json::json;

fn catalog() -> Catalog {
    Catalog::parse(
        json!([
            {"name": "set_light", "description": "Turn a light on or off, or dim it."},
            {"name": "set_thermostat", "description": "Set the target temperature of a thermostat."},
            {"name": "get_states", "description": "Get current device states.",
             "annotations": {"readOnlyHint": true}}
        ])
        .to_string()
        .as_bytes(),
    )
    .unwrap()
}

#[test]
fn smoke() {
    let index = ToolIndex::build(&catalog(), None).unwrap();
    let r = index.search("lamp aan", &SearchOptions::default());
    assert_eq!(r.hits[0].name, "set_light");
}

#[test]
#[ignore]
fn debug_queries() {
    let path = std::env::var("CAT").unwrap();
    let cat = Catalog::parse(&std::fs::read(path).unwrap()).unwrap();
    let index = ToolIndex::build(&cat, None).unwrap();
    for q in std::env::var("Q").unwrap().split(';') {
        let r = index.search(q, &SearchOptions::default());
        println!("{q:?}\n  groups {:?}", rank::explain(&index, q));
        for h in r.hits.iter().take(4) {
            println!("  {} {}", h.name, h.score);
        }
    }
}
