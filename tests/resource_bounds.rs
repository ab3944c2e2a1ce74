//! Resource bounds on hostile input (the README's limits table): work that
//! grows linearly with the input, and memory bounded by a stated multiple
//! of it.
//!
//! Nothing here compares a time with a threshold. Scaling is checked by a
//! ratio within one run: the same input at n and 4n, the best of three
//! timings each; linear work gives about 4, quadratic 16, and the test
//! allows 10. The timings are the thread's own CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`), so time spent waiting for a busy
//! machine's cores does not count; wall time where there is no such
//! clock. Memory is the peak of the heap (this test binary counts the
//! bytes allocated by its own thread) during one call.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::Instant;

use mcp_switchboard::client::SseParser;
use mcp_switchboard::{
    convert, lint, parse_calls, validate_arguments, Catalog, Dialect, NameMap, Options, Validator,
};
use serde_json::{json, Map, Value};

/// Heap bytes in use and their peak, per thread.
struct Counting;

thread_local! {
    static IN_USE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // `try_with`: a thread being torn down has no counters any more
    let _ = IN_USE.try_with(|c| {
        let now = c.get() + delta;
        c.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

// SAFETY: every call is passed to the system allocator unchanged; the
// counters are thread-local cells that never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The most heap `f` holds at once beyond what was in use before it, in
/// bytes (what it returns is dropped inside).
fn peak_of<R>(f: impl FnOnce() -> R) -> usize {
    let base = IN_USE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    drop(f());
    (PEAK.with(Cell::get) - base).max(0) as usize
}

/// This thread's CPU time in seconds, if the system reports it.
#[cfg(unix)]
fn thread_cpu_seconds() -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec for the call's duration.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (r == 0).then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// This thread's CPU time in seconds, if the system reports it.
#[cfg(not(unix))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// Seconds `f(n)` takes: on-CPU time of this thread, else wall time.
fn time_of(n: usize, f: &impl Fn(usize)) -> f64 {
    let cpu = thread_cpu_seconds();
    let wall = Instant::now();
    f(n);
    match (cpu, thread_cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed().as_secs_f64(),
    }
}

/// The best of three timings of `f(n)`, in seconds.
fn best_of_three(n: usize, f: &impl Fn(usize)) -> f64 {
    (0..3).map(|_| time_of(n, f)).fold(f64::INFINITY, f64::min)
}

/// Checks that `f` does about four times the work at `4n` as at `n`.
fn assert_linear(what: &str, n: usize, f: impl Fn(usize)) {
    let small = best_of_three(n, &f);
    let large = best_of_three(4 * n, &f);
    let ratio = large / small.max(1e-6);
    assert!(
        ratio < 10.0,
        "{what}: {:.1} ms at n = {n}, {:.1} ms at 4n: {ratio:.1}× (linear is about 4, quadratic 16)",
        small * 1e3,
        large * 1e3
    );
}

fn catalog(tools: &Value) -> Catalog {
    Catalog::parse(tools.to_string().as_bytes()).expect("a catalog")
}

#[test]
fn sse_comment_lines_are_linear() {
    // an event stream of short comment lines (the parser once drained its
    // buffer from the front, one line at a time)
    assert_linear("SSE comment lines", 100_000, |n| {
        let body = ": c\n".repeat(n);
        let mut p = SseParser::new();
        assert!(p.push(&body).expect("parsed").is_empty());
    });
    assert_linear("SSE in small chunks", 20_000, |n| {
        let body = "data: x\n\n".repeat(n);
        let mut p = SseParser::new();
        let mut events = 0;
        for chunk in body.as_bytes().chunks(7) {
            events += p
                .push(std::str::from_utf8(chunk).expect("ASCII"))
                .expect("parsed")
                .len();
        }
        assert_eq!(events, n);
    });
}

#[test]
fn sse_memory_is_bounded_by_the_chunk() {
    let body = ": c\n".repeat(2 << 20);
    let mut p = SseParser::new();
    let peak = peak_of(|| p.push(&body).expect("parsed"));
    assert!(
        peak <= 2 * body.len(),
        "{peak} bytes for {} bytes in",
        body.len()
    );
}

#[test]
fn lint_is_linear_in_the_number_of_tools() {
    assert_linear("lint", 60, |n| {
        let tools: Vec<Value> = (0..n)
            .map(|i| json!({"name": format!("tool_{i}"), "description": "Does a thing to a device.",
                "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "format": "uri"}}}}))
            .collect();
        assert_eq!(lint(&catalog(&json!(tools))).tools.len(), n);
    });
}

fn wide(n: usize) -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    for i in 0..n {
        props.insert(format!("p{i}"), json!({"type": "string"}));
        if i % 2 == 0 {
            required.push(json!(format!("p{i}")));
        }
    }
    json!({"type": "object", "properties": props, "required": required})
}

#[test]
fn long_required_lists_are_linear() {
    assert_linear("strict conversion of a wide schema", 1_500, |n| {
        let c = catalog(&json!([{"name": "t", "description": "wide", "inputSchema": wide(n)}]));
        convert(&c, Dialect::OpenAi, &Options::strict(true));
        convert(&c, Dialect::Prompted, &Options::default());
    });
    assert_linear("coercion of many null members", 1_500, |n| {
        let schema = wide(n);
        let args: Map<String, Value> = (0..n).map(|i| (format!("p{i}"), Value::Null)).collect();
        let v = validate_arguments(&schema, &Value::Object(args));
        assert!(!v.coercions.is_empty());
    });
}

#[test]
fn long_enums_are_looked_up_not_scanned() {
    assert_linear("enum × array", 1_000, |n| {
        let values: Vec<Value> = (0..n).map(|i| json!(format!("v{i}"))).collect();
        let schema = json!({"type": "object", "properties": {"a": {"type": "array", "items": {"enum": values}}}});
        let items: Vec<Value> = (0..n).map(|i| json!(format!("w{i}"))).collect();
        let v = validate_arguments(&schema, &json!({"a": items}));
        assert!(!v.is_valid());
    });
}

#[test]
fn regular_expressions_are_charged_to_the_budget() {
    // 500 patterns against 50,000 keys, and a 1,000-branch alternation
    // against a 256 KiB string: the validation stops at its step budget
    // and says so, instead of running for seconds
    let patterns: Map<String, Value> = (0..500)
        .map(|i| (format!("^k{i}x"), json!({"type": "string"})))
        .collect();
    let schema = json!({"type": "object", "patternProperties": patterns});
    let args: Map<String, Value> = (0..50_000).map(|i| (format!("key{i}"), json!(1))).collect();
    let v = validate_arguments(&schema, &Value::Object(args));
    assert!(
        v.errors.iter().any(|e| e.keyword == "limit"),
        "{:?}",
        v.errors.first()
    );

    let branches: Vec<String> = (0..1_000).map(|i| format!("w{i}")).collect();
    let schema = json!({"type": "object", "properties": {"s": {"type": "string", "pattern": format!("({})x", branches.join("|"))}}});
    let v = validate_arguments(&schema, &json!({"s": "a".repeat(256 * 1024)}));
    assert!(!v.is_valid());
    assert!(
        v.errors.iter().any(|e| e.keyword == "limit"),
        "{:?}",
        v.errors
    );
    // a short string is still checked
    let v = validate_arguments(&schema, &json!({"s": "w7x"}));
    assert!(v.is_valid(), "{:?}", v.errors);
}

fn names() -> NameMap {
    NameMap::from_json(&json!({"t": "t"})).expect("names")
}

#[test]
fn many_calls_are_linear_and_capped() {
    assert_linear("Anthropic tool_use blocks", 2_000, |n| {
        let blocks: Vec<Value> = (0..n)
            .map(|i| json!({"type": "tool_use", "id": format!("id{i}"), "name": "t", "input": {}}))
            .collect();
        let turn = parse_calls(
            Dialect::Anthropic,
            &json!({"content": blocks}),
            &names(),
            None,
        )
        .expect("read");
        assert_eq!(turn.calls.len(), n);
        let run = turn.calls.iter().filter(|c| c.request.is_some()).count();
        assert_eq!(run, n.min(mcp_switchboard::MAX_CALLS));
    });
}

#[test]
fn call_memory_is_a_bounded_multiple_of_the_response() {
    let blocks: Vec<Value> = (0..20_000)
        .map(
            |i| json!({"type": "tool_use", "id": format!("id{i}"), "name": "t", "input": {"n": i}}),
        )
        .collect();
    let response = json!({"content": blocks});
    let text_len = response.to_string().len();
    let peak = peak_of(|| parse_calls(Dialect::Anthropic, &response, &names(), None));
    // the turn holds the response's content again (the assistant turn,
    // verbatim) and one entry per call: as value trees, about 40 times the
    // JSON text
    assert!(
        peak <= 48 * text_len,
        "{peak} bytes for a {text_len}-byte response"
    );
}

#[test]
fn prose_full_of_braces_is_bounded() {
    // ten million bytes of `{}` once took a gigabyte of wasm memory
    let text = "{}".repeat(5_000_000);
    let mut turn_calls = 0;
    let peak = peak_of(|| {
        let t = parse_calls(Dialect::Prompted, &json!(text), &names(), None).expect("read");
        turn_calls = t.calls.len();
        t
    });
    assert_eq!(turn_calls, 0);
    // the text (copied twice into the turn) and at most 65,536 small values
    assert!(
        peak <= 3 * text.len() + 16 * 1024 * 1024,
        "{peak} bytes for {} bytes of text",
        text.len()
    );
}

#[test]
fn ref_fan_out_over_long_names_is_bounded() {
    // definitions referring to each other twice, under 1,000-character
    // names: 42 KB of catalog once took 2.3 GB and two minutes to refuse
    let mut defs = Map::new();
    let n = 20;
    for i in 0..n {
        let mut props = Map::new();
        props.insert(
            format!("{}{i}", "a".repeat(1000)),
            json!({"$ref": format!("#/$defs/d{}", (i + 1) % n)}),
        );
        props.insert(
            format!("{}{i}", "b".repeat(1000)),
            json!({"$ref": format!("#/$defs/d{}", (i + 2) % n)}),
        );
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": props}),
        );
    }
    let tools = json!([{"name": "t", "description": "refs", "inputSchema":
        {"type": "object", "$defs": defs, "properties": {"r": {"$ref": "#/$defs/d0"}}}}]);
    let c = catalog(&tools);
    for dialect in Dialect::ALL {
        let peak = peak_of(|| convert(&c, dialect, &Options::default()));
        assert!(peak <= 64 * 1024 * 1024, "{dialect}: {peak} bytes");
    }
}

#[test]
fn ref_fan_out_expands_at_most_a_stated_multiple() {
    // twelve definitions, each referring to the next twice (one to itself):
    // 1.3 KB that once converted to 7 MB for Gemini (fuzz regression
    // ref-fan-out-with-recursion.json)
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fuzz/regressions/catalog/ref-fan-out-with-recursion.json"
    ))
    .expect("the regression input");
    let c = Catalog::parse(&text).expect("a catalog");
    for dialect in Dialect::ALL {
        for strict in [false, true] {
            let out = convert(&c, dialect, &Options::strict(strict)).to_json_string();
            assert!(
                out.len() <= 64 * 1024 + 32 * text.len(),
                "{dialect}: {} bytes out of {}",
                out.len(),
                text.len()
            );
        }
    }
}

/// One shape of arguments for the validator: the schema, the arguments
/// for `n`, and whether they are valid (after coercion).
type Shape = fn(usize) -> (Value, Value, bool);

/// `n` members `p0`, `p1`, … each with the schema `each(i)`, the object's
/// schema holding `rest`, and arguments giving each member `arg(i)`.
fn members(
    n: usize,
    each: impl Fn(usize) -> Value,
    rest: Value,
    arg: impl Fn(usize) -> Value,
) -> (Value, Value) {
    let props: Map<String, Value> = (0..n).map(|i| (format!("p{i}"), each(i))).collect();
    let mut schema = json!({"type": "object", "properties": props});
    if let (Some(s), Value::Object(rest)) = (schema.as_object_mut(), rest) {
        s.extend(rest);
    }
    let args: Map<String, Value> = (0..n).map(|i| (format!("p{i}"), arg(i))).collect();
    (schema, Value::Object(args))
}

/// An array member `a` whose items are one of `n` strings, and `n` items.
fn items_in_enum(n: usize, prefix: &str) -> (Value, Value) {
    let values: Vec<Value> = (0..n).map(|i| json!(format!("v{i}"))).collect();
    let items: Vec<Value> = (0..n).map(|i| json!(format!("{prefix}{i}"))).collect();
    let schema = json!({"type": "object",
        "properties": {"a": {"type": "array", "items": {"enum": values}}}});
    (schema, json!({"a": items}))
}

const SHAPES: [(&str, Shape); 8] = [
    ("n properties", |n| {
        let (s, a) = members(n, |_| json!({"type": "string"}), json!({}), |_| json!("x"));
        (s, a, true)
    }),
    ("n properties, all required", |n| {
        let names: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let (s, a) = members(
            n,
            |_| json!({"type": "string"}),
            json!({ "required": names }),
            |_| json!("x"),
        );
        (s, a, true)
    }),
    ("n items of an n-value enum", |n| {
        let (s, a) = items_in_enum(n, "v");
        (s, a, true)
    }),
    ("n items not in an n-value enum", |n| {
        let (s, a) = items_in_enum(n, "w");
        (s, a, false)
    }),
    (
        "n items of an n-integer enum, as strings and whole floats",
        |n| {
            let values: Vec<Value> = (0..n).map(|i| json!(i)).collect();
            let items: Vec<Value> = (0..n)
                .map(|i| match i % 2 {
                    0 => json!(i.to_string()),
                    _ => json!(i as f64),
                })
                .collect();
            let schema = json!({"type": "object",
            "properties": {"a": {"type": "array", "items": {"enum": values}}}});
            (schema, json!({ "a": items }), true)
        },
    ),
    ("n properties, an enum each", |n| {
        let (s, a) = members(
            n,
            |i| json!({"enum": (0..10).map(|j| format!("e{i}_{j}")).collect::<Vec<_>>()}),
            json!({}),
            |i| json!(format!("e{i}_9")),
        );
        (s, a, true)
    }),
    ("n unknown members of a closed object", |n| {
        let (s, _) = members(
            n,
            |_| json!({"type": "string"}),
            json!({"additionalProperties": false}),
            |_| json!("x"),
        );
        let args: Map<String, Value> = (0..n).map(|i| (format!("q{i}"), json!("x"))).collect();
        (s, Value::Object(args), false)
    }),
    ("n integers sent as strings", |n| {
        let (s, a) = members(
            n,
            |_| json!({"type": "integer"}),
            json!({}),
            |i| json!(i.to_string()),
        );
        (s, a, true)
    }),
];

#[test]
fn the_validator_is_linear_in_properties_items_and_enums() {
    // each shape both ways into a `Validator`: from the arguments' JSON
    // text, read without a value tree (as the wasm `Validator` reads a JS
    // object), and as a value
    for (what, shape) in SHAPES {
        assert_linear(&format!("{what}, from text"), 1_000, |n| {
            let (schema, args, valid) = shape(n);
            let mut v = Validator::new(catalog(&json!([{"name": "t", "inputSchema": schema}])));
            let text = args.to_string();
            for _ in 0..4 {
                // "valid as is" only for valid arguments with nothing to coerce
                let quick = v.valid_as_is("t", &text);
                assert!(!quick || valid, "{what}");
            }
        });
        assert_linear(&format!("{what}, as a value"), 1_000, |n| {
            let (schema, args, valid) = shape(n);
            let mut v = Validator::new(catalog(&json!([{"name": "t", "inputSchema": schema}])));
            let got = v.validate("t", args).expect("the tool");
            assert_eq!(got.is_valid(), valid, "{what}: {:?}", got.errors.first());
        });
    }
}
