//! The HTML converter and the web machines compiled to wasm32 and run
//! under Node (wasm-bindgen-test): hostile pages at full size, where a
//! panic would trap and a deep recursion would overflow the small wasm
//! stack. Run with `cargo test --target wasm32-unknown-unknown --test
//! html_wasm`.
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![cfg(target_arch = "wasm32")]

mod html_inputs;

use mcp_switchboard::html::{convert_bytes, HtmlOptions};
use mcp_switchboard::web::{FetchAction, FetchOptions, WebFetch};
use serde_json::json;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn hostile_pages_convert_without_trapping() {
    let options = HtmlOptions::new();
    for (name, bytes) in html_inputs::inputs(1) {
        let page = convert_bytes(&bytes, Some("text/html"), &options);
        assert!(page.content.len() <= options.max_output, "{name}");
        assert!(page.stats.max_depth <= options.max_depth, "{name}");
    }
}

#[wasm_bindgen_test]
fn a_deep_page_through_the_fetch_machine() {
    let mut f = WebFetch::new(
        &json!({"url": "https://deep.example/"}),
        FetchOptions::new(),
    );
    assert!(matches!(f.start(), FetchAction::Resolve { .. }));
    assert!(matches!(
        f.resolved(&["93.184.215.14".parse().unwrap()]),
        FetchAction::Request { .. }
    ));
    let ct = vec![("content-type".to_string(), "text/html".to_string())];
    assert_eq!(f.response(200, &ct), FetchAction::Read);
    let deep = "<div><blockquote><ul><li><table><tr><td><b><a href=x>".repeat(20_000);
    for chunk in deep.as_bytes().chunks(64 * 1024) {
        assert_eq!(f.body(chunk), FetchAction::Read);
    }
    let FetchAction::Done(result) = f.end() else {
        panic!("not done")
    };
    assert!(result.contains("\"structuredContent\""));
}
