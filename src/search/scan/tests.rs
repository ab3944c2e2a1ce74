use super::*;
use serde_json::json;
use std::path::Path;

fn tool(v: Value) -> Tool {
    Tool::from_value(v, "").unwrap().0
}

/// What the index reads of the text, or `None` when the reader gives up;
/// when it does not, the same as what it reads of the parsed catalog.
fn read(text: &str) -> Option<Vec<ToolText<'_>>> {
    let got = of_text(text).ok()?;
    let catalog = Catalog::parse(text.as_bytes()).expect("read, so a catalog");
    assert_eq!(got, of_catalog(&catalog), "{text}");
    Some(got)
}

#[test]
fn tool_text_reads_like_the_tool() {
    for v in [
        json!({"name": "a"}),
        json!({"name": "a", "title": "  T  ", "description": " d ",
               "inputSchema": {"type": "object", "properties": {"x": {}}},
               "annotations": {"title": "A", "readOnlyHint": true, "destructiveHint": false}}),
        json!({"name": "a", "title": "   ", "description": "",
               "annotations": {"title": " A "}}),
        json!({"name": "a", "title": 3, "annotations": {"readOnlyHint": "yes"}}),
        json!({"name": "a", "annotations": []}),
        json!({"name": "a", "title": "\n\"T\"\t", "description": " \\d\\ "}),
    ] {
        let t = tool(v.clone());
        let f = of_tool(&t);
        assert_eq!(f.title.as_deref(), t.title(), "{v}");
        assert_eq!(f.description.as_deref(), t.description(), "{v}");
        assert_eq!(f.read_only, t.hint("readOnlyHint"), "{v}");
        assert_eq!(f.destructive, t.hint("destructiveHint"), "{v}");
        let text = json!([v]).to_string();
        assert_eq!(read(&text).unwrap().len(), 1);
    }
}

#[test]
fn schema_words_are_bounded() {
    let mut deep = json!({"type": "string", "description": "bottom"});
    for _ in 0..100 {
        deep = json!({"type": "object", "properties": {"p": deep}});
    }
    let t = tool(json!({"name": "a", "inputSchema": deep}));
    assert!(!of_tool(&t).params.contains(&Cow::Borrowed("bottom")));
    let s = json!({"type": "object", "properties": {"state": {"enum": ["on", "off"], "description": "Light state"},
        "list": {"type": "array", "items": {"anyOf": [{"const": "x"}]}}}});
    let t = tool(json!({"name": "a", "inputSchema": s}));
    let f = of_tool(&t);
    assert!(f.params.contains(&Cow::Borrowed("state")));
    assert!(f.params.contains(&Cow::Borrowed("Light state")));
    let mut values = f.enums.clone();
    values.sort_unstable();
    assert_eq!(values, ["off", "on", "x"]);
    assert!(f.writes_value);
    // nested past what the text reader follows: read the usual way
    let text =
        json!({"tools": [{"name": "a", "inputSchema": s}, {"name": "b", "inputSchema": deep}]});
    assert!(read(&text.to_string()).is_none());
    // the text reader stops where the parsed one does
    let mut deep = json!({"type": "string", "description": "bottom", "enum": ["z"]});
    for i in 0..9 {
        deep = json!({"type": "object", "title": format!("level {i}"), "properties": {"p": deep},
            "$defs": {"d": {"items": [deep.clone()]}}, "examples": [1, "e", {"x": "y"}]});
    }
    let text =
        json!({"tools": [{"name": "a", "inputSchema": s}, {"name": "b", "inputSchema": deep}]});
    let text = text.to_string();
    let tools = read(&text).unwrap();
    assert!(!tools[1].params.contains(&Cow::Borrowed("bottom")));
    assert!(tools[1].params.contains(&Cow::Borrowed("level 5")));
    assert!(tools[1].enums.contains(&Cow::Borrowed("e")));
    // enums read up to their 200th item, nodes up to the 2000th
    let many: Vec<Value> = (0..300).map(|i| json!(format!("v{i}"))).collect();
    let wide: serde_json::Map<String, Value> = (0..2500)
        .map(|i| {
            (
                format!("p{i}"),
                json!({"description": format!("d{i}"), "enum": many}),
            )
        })
        .collect();
    let text =
        json!([{"name": "w", "inputSchema": {"type": "object", "properties": wide}}]).to_string();
    let tools = read(&text).unwrap();
    assert!(tools[0].enums.contains(&Cow::Borrowed("v199")));
    assert!(!tools[0].enums.contains(&Cow::Borrowed("v200")));
    assert!(tools[0].params.contains(&Cow::Borrowed("p2499")));
    assert!(!tools[0].params.contains(&Cow::Borrowed("d0")));
}

/// Every catalog of the corpus, in each shape, reads the same from its
/// text as from the parsed catalog.
#[test]
fn corpus_catalogs_read_like_the_catalog() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut read_any = 0;
    for entry in std::fs::read_dir(&corpus).unwrap() {
        let path = entry.unwrap().path();
        if !path.to_string_lossy().ends_with(".tools-list.json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let tools = v
            .pointer("/result/tools")
            .or(v.get("tools"))
            .cloned()
            .unwrap();
        let shapes = [
            text.clone(),
            json!({"tools": tools}).to_string(),
            serde_json::to_string_pretty(&json!({"nextCursor": "x", "tools": tools})).unwrap(),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}).to_string(),
            tools.to_string(),
        ];
        for (i, shape) in shapes.iter().enumerate() {
            let got = read(shape).unwrap_or_else(|| panic!("{path:?} shape {i}"));
            assert!(!got.is_empty());
            read_any += 1;
        }
    }
    assert!(read_any >= 30, "{read_any}");
}

#[test]
fn gives_up_on_what_it_does_not_read() {
    for text in [
        "",
        " ",
        "null",
        "3",
        r#"{"name": "a"}"#,
        r#"[{"tools": []}]"#,
        r#"[{"result": {"tools": []}}]"#,
        r#"[{"name": "a", "error": 1}]"#,
        r#"{"tools": [], "error": {"code": 1}}"#,
        r#"{"tools": [], "result": {"tools": []}}"#,
        r#"{"result": {"tools": []}, "tools": []}"#,
        r#"{"result": []}"#,
        r#"{"tools": {}}"#,
        r#"{"tools": [], "tools": []}"#,
        r#"{"tools": []} {"tools": []}"#,
        r#"{"tools": [{"name": "a", "name": "b"}]}"#,
        r#"{"tools": [{"name": "a", "inputSchema": {"properties": {"x": {}, "x": {}}}}]}"#,
        r#"{"tools": [{"name": "a", "inputSchema": {"title": "t", "title": "u"}}]}"#,
        r#"{"tools": [{"name": "a", "inputSchema": {"type": "object", "type": "object"}}]}"#,
        r#"{"tools": [{"name": "a", "annotations": {"readOnlyHint": true, "readOnlyHint": false}}]}"#,
        r#"{"tools": [{"name": "a", "x": 1e400}]}"#,
        r#"{"tools": [{"name": "a", "x": 01}]}"#,
        r#"{"tools": [{"name": "a", "x": 1.}]}"#,
        r#"{"tools": [{"name": "a", "x": -}]}"#,
        r#"{"tools": [{"name": "a", "x": "\ud800"}]}"#,
        r#"{"tools": [{"name": "a", "x": "\udc00\ud800"}]}"#,
        r#"{"tools": [{"name": "a", "x": "\q"}]}"#,
        "{\"tools\": [{\"name\": \"a\", \"x\": \"\u{1}\"}]}",
        r#"{"tools": [{"name": "a",}]}"#,
        r#"{"tools": [{"name": "a"}],}"#,
        r#"{"tools": [{"name": "a"}]"#,
        r#"{"tools": [{"name": "a"} {"name": "b"}]}"#,
        r#"{"tools": [tru]}"#,
        "\u{feff}{\"tools\": []}",
    ] {
        assert!(of_text(text).is_err(), "{text}");
    }
}

#[test]
fn reads_what_the_catalog_keeps() {
    for (text, names) in [
        (r#"{"tools": []}"#, vec![]),
        ("[]", vec![]),
        (
            r#"{"jsonrpc": "2.0", "result": {"tools": [{"name": "a"}], "nextCursor": "c"}, "id": 1}"#,
            vec!["a"],
        ),
        (
            r#"[{"name": "a"}, 3, {"name": " "}, {"name": 3}, {"title": "x"}, {"name": "a"}, {"name": "b"}]"#,
            vec!["a", "b"],
        ),
        (
            r#"{"tools": [{"name": "a", "inputSchema": {"type": "string"}}, {"name": "b", "inputSchema": []},
                {"name": "c", "inputSchema": {"type": ["object"]}}, {"name": "d", "inputSchema": {"type": "object"}}]}"#,
            vec!["d"],
        ),
        (
            r#"{"tools": [{"name": "a\u00e9\ud83d\ude00", "description": "say \"hi\"\n\t/\/", "x": [1, -0.5e-3, 12345678901234567890, true, false, null, {}]}]}"#,
            vec!["a\u{e9}\u{1f600}"],
        ),
        (
            r#"{"tools": [{"name": "a", "tools": {}, "result": 1, "error": 2}]}"#,
            vec!["a"],
        ),
    ] {
        let got = read(text).unwrap_or_else(|| panic!("{text}"));
        let got: Vec<&str> = got.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(got, names, "{text}");
    }
}

/// An index read from the text answers like one built from the parsed
/// catalog, and bad input fails with the same error.
#[test]
fn index_from_text_is_the_index_from_the_catalog() {
    use crate::{SearchOptions, ToolIndex};
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let text = std::fs::read(corpus.join("home-assistant-2025.4.tools-list.json")).unwrap();
    let a = ToolIndex::parse(&text, None).unwrap();
    let b = ToolIndex::build(&Catalog::parse(&text).unwrap(), None).unwrap();
    let opts = SearchOptions::new().with_limit(50);
    for q in [
        "turn on the kitchen light",
        "what is the temperature",
        "zet de muziek zachter",
        "timer",
    ] {
        assert_eq!(a.search(q, &opts), b.search(q, &opts), "{q}");
    }
    for bad in [
        &b"{"[..],
        b"{\"tools\": 3}",
        b"[{\"tools\": []}, {\"result\": 3}]",
        b"\xff",
        b"",
    ] {
        let want = Catalog::parse(bad).unwrap_err();
        let got = ToolIndex::parse(bad, None).unwrap_err();
        assert_eq!(
            (got.kind(), got.pointer(), got.message()),
            (want.kind(), want.pointer(), want.message())
        );
    }
}

/// `plain8` agrees with a look at each byte: every byte value at every
/// place among plain bytes, and pseudo-random words.
#[test]
fn plain8_finds_every_byte_that_ends_plain_text() {
    let plain = |w: [u8; 8]| w.iter().all(|&c| c >= 0x20 && c != b'"' && c != b'\\');
    for at in 0..8 {
        for c in 0..=255u8 {
            let mut w = *b"abcdefgh";
            w[at] = c;
            assert_eq!(plain8(u64::from_le_bytes(w)), plain(w), "{at} {c}");
        }
    }
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        assert_eq!(plain8(x), plain(x.to_le_bytes()), "{x:#x}");
    }
}
