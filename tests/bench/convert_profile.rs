//! Converts the GitHub catalog ×10 (as `tests/bench/convert.mjs` builds it)
//! to one dialect many times over, JSON text in and out, for a profiler:
//!
//! ```sh
//! cargo build --release --example convert_profile
//! perf record -g target/release/examples/convert_profile 200 gemini
//! perf record -g target/release/examples/convert_profile 200 gemini text
//! ONLY=projects_write,issue_write target/release/examples/convert_profile 200 gemini
//! ```
//!
//! `ONLY` (tool names, comma-separated) keeps those tools of the catalog.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use mcp_switchboard::{convert, convert_text, Catalog, Dialect, Options};
use serde_json::Value;

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let dialect: Dialect = args
        .next()
        .unwrap_or_else(|| "gemini".into())
        .parse()
        .unwrap_or(Dialect::Gemini);
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus/github-mcp-server.tools-list.json"
    );
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let mut doc: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let tools = doc
        .pointer("/result/tools")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let only = std::env::var("ONLY").unwrap_or_default();
    let tools: Vec<Value> = tools
        .into_iter()
        .filter(|t| only.is_empty() || only.split(',').any(|n| t["name"] == n))
        .collect();
    let mut all = Vec::new();
    for c in 0..10 {
        for t in &tools {
            let mut t = t.clone();
            if c > 0 {
                if let Some(Value::String(n)) = t.get_mut("name") {
                    n.push_str(&format!("_c{c}"));
                }
            }
            all.push(t);
        }
    }
    if let Some(v) = doc.pointer_mut("/result/tools") {
        *v = Value::Array(all);
    }
    let payload = doc.to_string();
    // the text path (catalog text in, conversion text out), as the wasm
    // package's convertJson runs it
    let t = Instant::now();
    let mut direct = 0;
    for _ in 0..rounds {
        direct += convert_text(&payload, dialect, &Options::strict(false))
            .map(|s| s.len())
            .unwrap_or_default();
    }
    println!(
        "{:.2} ms per conversion by convert_text ({} bytes out)",
        t.elapsed().as_secs_f64() * 1e3 / rounds as f64,
        direct / rounds
    );
    // a third argument `text`: only the text path, for a profile of it
    if args.next().as_deref() == Some("text") {
        return;
    }
    let mut out = 0;
    // read, convert, write, free: each phase's time
    let mut phases = [0f64; 4];
    let start = Instant::now();
    for _ in 0..rounds {
        let t = Instant::now();
        let catalog = Catalog::parse(payload.as_bytes()).expect("catalog");
        phases[0] += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let conversion = convert(&catalog, dialect, &Options::strict(false));
        phases[1] += t.elapsed().as_secs_f64();
        let t = Instant::now();
        out += conversion.to_json_string().len();
        phases[2] += t.elapsed().as_secs_f64();
        let t = Instant::now();
        drop(conversion);
        drop(catalog);
        phases[3] += t.elapsed().as_secs_f64();
    }
    let per = |s: f64| s * 1e3 / rounds as f64;
    let ms = per(start.elapsed().as_secs_f64());
    println!(
        "{ms:.2} ms per conversion ({} bytes in, {} out): read {:.2}, convert {:.2}, write {:.2}, free {:.2}",
        payload.len(),
        out / rounds,
        per(phases[0]),
        per(phases[1]),
        per(phases[2]),
        per(phases[3])
    );
}
