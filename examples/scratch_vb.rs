use mcp_switchboard::{Catalog, Validator};
use serde_json::Value;
use std::time::Instant;
fn main() {
    let text = std::fs::read("homey-app/lib/tools.json").unwrap();
    let cat = Catalog::parse(&text).unwrap();
    let mut v = Validator::new(cat);
    let cases: Vec<Value> =
        serde_json::from_slice(&std::fs::read("/tmp/cases-the_Homey_app.json").unwrap()).unwrap();
    let mut rows = vec![];
    for c in &cases {
        let tool = c["tool"].as_str().unwrap();
        let args = c["args"].clone();
        let text = args.to_string();
        let n = 20000;
        let t0 = Instant::now();
        for _ in 0..n {
            let a: Value = serde_json::from_str(&text).unwrap();
            let r = v.validate(tool, a).unwrap();
            std::hint::black_box(r);
        }
        let g = t0.elapsed().as_secs_f64() / n as f64 * 1e6;
        let t0 = Instant::now();
        for _ in 0..n {
            std::hint::black_box(v.valid_as_is(tool, &text));
        }
        let q = t0.elapsed().as_secs_f64() / n as f64 * 1e6;
        let t0 = Instant::now();
        for _ in 0..n {
            let a: Value = serde_json::from_str(&text).unwrap();
            std::hint::black_box(a);
        }
        let p = t0.elapsed().as_secs_f64() / n as f64 * 1e6;
        let q = p;
        rows.push((
            g,
            q,
            c["shape"].as_str().unwrap().to_string(),
            tool.to_string(),
        ));
    }
    rows.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    for r in rows {
        println!("{:.2} {:.2} {} {}", r.0, r.1, r.2, r.3);
    }
}
