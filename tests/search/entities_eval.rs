//! The entity index's evaluation: the spoken references of
//! `tests/search/home/references.json` resolved in the home of
//! `tests/search/home/home.json`. Shared by `tests/search.rs` (which holds
//! it to its target) and the `search_eval entities` report.

use std::path::Path;

use mcp_switchboard::{EntityIndex, EntityKind, ResolveOptions};
use serde_json::Value;

/// One labelled reference.
pub struct Reference {
    pub text: String,
    pub kind: Option<EntityKind>,
    /// The ID of the thing meant; `None` for a reference that names more
    /// than one thing equally.
    pub expect: Option<String>,
}

/// The home's JSON and the labelled references of one set: `references`
/// (tuned on) or `references-heldout` (never tuned on).
pub fn load(root: &Path, set: &str) -> (Value, Vec<Reference>) {
    let read = |f: &str| -> Value {
        let bytes = std::fs::read(root.join("tests/search/home").join(f)).expect("read");
        serde_json::from_slice(&bytes).expect("json")
    };
    let home = read("home.json");
    let refs = read(&format!("{set}.json"));
    let list = refs["references"].as_array().expect("references");
    let references = list
        .iter()
        .map(|r| {
            let text = r["text"].as_str().expect("text").to_string();
            let expect = if r["ambiguous"] == Value::Bool(true) {
                None
            } else {
                let label = r["expect"].as_str().expect("expect");
                Some(id_of(&home, label).unwrap_or_else(|| panic!("no thing {label}")))
            };
            Reference {
                kind: r["kind"].as_str().and_then(EntityKind::parse),
                text,
                expect,
            }
        })
        .collect();
    (home, references)
}

/// The ID of the thing a label names: `device:<zone>/<name>`,
/// `zone:<parent>/<name>`, `flow:<name>`, `mood:<zone>/<name>`; a zone
/// may be given with the zones above it (`Begane grond/Toilet`).
fn id_of(home: &Value, label: &str) -> Option<String> {
    let (kind, rest) = label.split_once(':')?;
    let mut parts: Vec<&str> = rest.split('/').collect();
    let name = parts.pop()?;
    // the names of a zone and the zones above it, nearest first
    let path = |mut id: Value| -> Vec<String> {
        let mut out = Vec::new();
        while let Some(z) = home["zones"]
            .as_array()
            .and_then(|zs| zs.iter().find(|z| z["id"] == id))
        {
            out.push(z["name"].as_str().unwrap_or("").to_string());
            id = z["parent"].clone();
            if out.len() > 8 {
                break;
            }
        }
        out
    };
    let (list, key) = match kind {
        "flow" => ("flows", ""),
        "zone" => ("zones", "parent"),
        "device" => ("devices", "zone"),
        "mood" => ("moods", "zone"),
        _ => return None,
    };
    home[list]
        .as_array()?
        .iter()
        .find(|t| {
            t["name"] == name
                && (key.is_empty()
                    || path(t[key].clone())
                        .iter()
                        .zip(parts.iter().rev())
                        .all(|(a, b)| a == b))
        })
        .and_then(|t| t["id"].as_str().map(String::from))
}

/// What the references resolved to.
pub struct Report {
    /// References to one thing, and those with that thing first.
    pub total: usize,
    pub right: usize,
    /// References to several things, and those said to be ambiguous.
    pub ambiguous_total: usize,
    pub ambiguous_said: usize,
    /// References to one thing said to be ambiguous.
    pub wrongly_ambiguous: usize,
    /// Each reference that went wrong, with what came first.
    pub misses: Vec<String>,
}

impl Report {
    /// The share of references to one thing with that thing first.
    pub fn accuracy(&self) -> f64 {
        self.right as f64 / self.total.max(1) as f64
    }
}

/// Resolves every reference.
pub fn run(index: &EntityIndex, references: &[Reference]) -> Report {
    let mut r = Report {
        total: 0,
        right: 0,
        ambiguous_total: 0,
        ambiguous_said: 0,
        wrongly_ambiguous: 0,
        misses: Vec::new(),
    };
    for reference in references {
        let mut opts = ResolveOptions::new();
        if let Some(k) = reference.kind {
            opts = opts.with_kind(k);
        }
        let found = index.resolve(&reference.text, &opts);
        let first = found.matches.first();
        let got = first.map_or("nothing".to_string(), |m| {
            format!("{} ({:?})", m.name, m.zone)
        });
        match &reference.expect {
            Some(id) => {
                r.total += 1;
                if first.is_some_and(|m| &m.id == id) {
                    r.right += 1;
                    r.wrongly_ambiguous += usize::from(found.ambiguous);
                } else {
                    r.misses.push(format!("{:?}: got {got}", reference.text));
                }
            }
            None => {
                r.ambiguous_total += 1;
                if found.ambiguous {
                    r.ambiguous_said += 1;
                } else {
                    r.misses.push(format!(
                        "{:?}: not said to be ambiguous, got {got}",
                        reference.text
                    ));
                }
            }
        }
    }
    r
}
