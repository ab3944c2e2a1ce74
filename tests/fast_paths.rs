//! The conversion's fast paths against the general ones: every catalog of
//! the corpus (and the schema edge cases), in every dialect, with and
//! without strict mode, gives the same bytes both ways.

mod common;

use mcp_switchboard::{convert, Catalog, Dialect, Options};

/// Every catalog to compare: the corpus's and the edge cases.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut all = common::catalogs();
    all.push(("schema-edge-cases".into(), common::edge_cases()));
    all
}

/// `Conversion::to_json_string` writes what serde_json writes for the
/// conversion.
#[test]
fn json_text_is_serde_jsons() {
    let mut compared = 0;
    for (name, bytes) in inputs() {
        let catalog = Catalog::parse(&bytes).expect("catalog");
        for dialect in Dialect::ALL {
            for strict in [false, true] {
                let conversion = convert(&catalog, dialect, &Options::strict(strict));
                let general = serde_json::to_string(&conversion).expect("json");
                let fast = conversion.to_json_string();
                assert!(
                    fast == general,
                    "{name} {dialect} strict={strict}: the texts differ"
                );
                compared += fast.len();
            }
        }
    }
    assert!(compared > 1_000_000, "{compared} bytes compared");
}
