//! Hostile pages are converted in bounded work and memory, proven by
//! counting (no clock): the builder's and writer's steps against the
//! input's size, the output against its limit, and the heap's peak
//! through a counting allocator. `cargo run --release --example
//! html_convert -- --hostile` times the same inputs.
//!
//! This binary holds a single test so the allocator counts only it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod html_inputs;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_switchboard::html::{convert, convert_bytes, HtmlOptions};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let now = CURRENT.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                - layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        } else {
            CURRENT.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const MIB: usize = 1024 * 1024;

#[test]
fn hostile_inputs_are_bounded() {
    let options = HtmlOptions::new();
    let mut report = Vec::new();
    for (name, bytes) in html_inputs::inputs(1) {
        let before = CURRENT.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let page = convert_bytes(&bytes, Some("text/html"), &options);
        let peak = PEAK.load(Ordering::Relaxed) - before;
        let read = page.stats.input_bytes;
        report.push(format!(
            "{name:<24} {:>6.1} MB in, {:>8} bytes out, depth {:>3}, {:>8} steps, peak {:>5.1} MiB",
            bytes.len() as f64 / 1e6,
            page.content.len(),
            page.stats.max_depth,
            page.stats.steps,
            peak as f64 / MIB as f64
        ));
        // work: a few steps per byte read, whatever the shape
        assert!(
            page.stats.tokens <= read + 1,
            "{name}: {} tokens",
            page.stats.tokens
        );
        assert!(
            page.stats.steps <= 4 * read + 64,
            "{name}: {} steps for {read} bytes",
            page.stats.steps
        );
        assert!(page.stats.max_depth <= options.max_depth, "{name}");
        assert!(page.stats.elements <= options.max_elements, "{name}");
        // output: within its limit, and never more than a small multiple
        // of the input (no blow-up from nesting or references)
        assert!(page.content.len() <= options.max_output, "{name}");
        assert!(
            page.content.len() <= 8 * read + 64,
            "{name}: {} out",
            page.content.len()
        );
        // memory: the decoded copy of the input read, the tree, the output;
        // never more than 48 MiB over what was there, and for inputs under
        // the input limit a bounded multiple of their size
        assert!(peak <= 48 * MIB, "{name}: peak {peak}");
        assert!(
            peak <= 20 * read + 2 * MIB,
            "{name}: peak {peak} for {read} bytes"
        );
    }
    println!("{}", report.join("\n"));

    // the 50 MB page is read up to the input limit and says so
    let big = "<p>x</p>".repeat(7_000_000);
    let page = convert(&big, &options);
    assert!(page.truncated && page.stats.input_bytes == options.max_input);

    // depth past the limit: text still comes out, in order
    let deep = format!("{}a{}b", "<div>".repeat(100_000), "</div>".repeat(100_000));
    let page = convert(&deep, &options);
    assert_eq!(page.content, "a\nb");
    assert_eq!(page.stats.max_depth, 512);

    // ten nested tables stay linear (html2md needs gigabytes here)
    let tables = format!(
        "{}core{}",
        "<table><tr><td>a<td>b<td>".repeat(10),
        "</td></tr></table>".repeat(10)
    );
    let page = convert(&tables, &options);
    assert!(page.content.contains("core") && page.content.len() < tables.len());

    // a wrong charset label: bytes that are not what the header says
    let latin1 = b"<p>Caf\xe9 cr\xe8me \x80 5</p>";
    let page = convert_bytes(latin1, Some("text/html; charset=utf-8"), &options);
    assert_eq!(page.content, "Caf\u{fffd} cr\u{fffd}me \u{fffd} 5");
    let page = convert_bytes(latin1, Some("text/html; charset=x-no-such"), &options);
    assert_eq!(page.content, "Café crème € 5");
    let page = convert_bytes(b"\xfe\xff\x00<\x00p\x00>\x00h\x00i", None, &options);
    assert_eq!(page.content, "hi");
}
