//! The token estimator against a real tokenizer (OpenAI's o200k_base and
//! cl100k_base through tiktoken-rs): within ±10% on every corpus catalog in
//! every dialect.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use mcp_switchboard::{convert, estimate_tokens, Catalog, Dialect, Options};
use serde_json::Value;

#[test]
fn estimates_are_within_ten_percent_of_tiktoken() {
    let o200k = tiktoken_rs::o200k_base().unwrap();
    let mut rows = Vec::new();
    let mut worst: f64 = 0.0;
    for (file, bytes) in common::catalogs() {
        let catalog = Catalog::parse(&bytes).unwrap();
        for d in Dialect::ALL {
            let c = convert(&catalog, d, &Options::default());
            let text = match d {
                Dialect::Prompted => c.extra["prompt"].as_str().unwrap().to_string(),
                _ => Value::Array(c.tools.clone()).to_string(),
            };
            let real = o200k.encode_with_special_tokens(&text).len() as f64;
            let est = estimate_tokens(&text) as f64;
            let err = (est - real) / real;
            worst = worst.max(err.abs());
            rows.push(format!(
                "{file:50} {d:18} real {real:7} est {est:7} {:+.1}%",
                err * 100.0
            ));
        }
    }
    println!("{}", rows.join("\n"));
    assert!(
        worst <= 0.10,
        "worst error {:.1}%:\n{}",
        worst * 100.0,
        rows.join("\n")
    );
}
