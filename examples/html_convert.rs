//! Converts HTML files to Markdown (or text) and reports the throughput.
//!
//! ```sh
//! cargo run --release --example html_convert -- page.html            # print the Markdown
//! cargo run --release --example html_convert -- --text page.html     # plain text
//! cargo run --release --example html_convert -- --bench tests/fixtures/html/*.html
//! cargo run --release --example html_convert -- --hostile            # time the hostile inputs
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use mcp_switchboard::html::{convert_bytes, Format, HtmlOptions};

#[path = "../tests/html_inputs/mod.rs"]
mod html_inputs;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--hostile") {
        for (name, bytes) in html_inputs::inputs(1) {
            let start = Instant::now();
            let page = convert_bytes(&bytes, Some("text/html"), &HtmlOptions::new());
            let ms = start.elapsed().as_secs_f64() * 1e3;
            println!(
                "{name:<24} {:>6.1} MB in {:>8.1} ms ({:>6.1} MB/s of input read), {} bytes out",
                bytes.len() as f64 / 1e6,
                ms,
                page.stats.input_bytes as f64 / 1e3 / ms,
                page.content.len()
            );
        }
        return;
    }
    let bench = args.iter().any(|a| a == "--bench");
    let text = args.iter().any(|a| a == "--text");
    let base = args
        .iter()
        .position(|a| a == "--base")
        .and_then(|i| args.get(i + 1).cloned());
    args.retain(|a| !a.starts_with("--") && Some(a) != base.as_ref());
    let mut options = HtmlOptions::new();
    if text {
        options = options.with_format(Format::Text);
    }
    if let Some(b) = base {
        options = options.with_base_url(b);
    }
    for path in &args {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        };
        if !bench {
            let page = convert_bytes(&bytes, None, &options);
            println!("{}", page.content);
            eprintln!(
                "title: {:?}\nmetadata: {}",
                page.metadata.title,
                page.metadata.to_json()
            );
            continue;
        }
        // enough rounds for about 50 MB of input per file
        let rounds = (50_000_000 / bytes.len().max(1)).clamp(3, 10_000);
        let start = Instant::now();
        let mut out = 0;
        for _ in 0..rounds {
            out += convert_bytes(&bytes, None, &options).content.len();
        }
        let secs = start.elapsed().as_secs_f64();
        let mb = (bytes.len() * rounds) as f64 / 1e6;
        println!(
            "{path}: {} bytes -> {} bytes, {:.1} MB/s",
            bytes.len(),
            out / rounds,
            mb / secs
        );
    }
}
