//! Hostile HTML inputs, shared by `tests/html_hostile.rs` (which proves
//! their cost bounded by counting) and `examples/html_convert.rs --hostile`
//! (which times them).

#![allow(dead_code)]

/// `(name, bytes)` of every hostile input; `scale` 1 is the full size
/// (a 50 MB page, 100,000-deep nesting).
pub fn inputs(scale: usize) -> Vec<(&'static str, Vec<u8>)> {
    let n = |full: usize| (full / scale).max(10);
    let rep = |s: &str, k: usize| s.repeat(k).into_bytes();
    let mut out: Vec<(&'static str, Vec<u8>)> = Vec::new();
    out.push((
        "100k nested div",
        [
            rep("<div>", n(100_000)),
            b"deep".to_vec(),
            rep("</div>", n(100_000)),
        ]
        .concat(),
    ));
    out.push(("100k unclosed div", rep("<div>x", n(100_000))));
    out.push((
        "100k nested inline",
        [
            rep("<b><i><s><code><a href=x>y", n(25_000)),
            rep("</a></code></s></i></b>", n(25_000)),
        ]
        .concat(),
    ));
    out.push((
        "100k nested blocks",
        rep("<ul><li><blockquote><ol><li><dl><dd>t", n(14_000)),
    ));
    out.push(("100k nested tables", rep("<table><tr><td>cell", n(33_000))));
    out.push((
        "nested tables x10",
        [
            rep("<table><tr><td>a<td>b<td>", 10),
            b"core".to_vec(),
            rep("</td></tr></table>", 10),
        ]
        .concat(),
    ));
    out.push((
        "50 MB page",
        rep(
            "<p>Lorem ipsum <b>dolor</b> sit amet, <a href=\"/x\">consectetur</a>.</p>\n",
            n(700_000),
        ),
    ));
    out.push(("one huge line", rep("word ", n(4_000_000))));
    out.push(("one huge word", rep("x", n(20_000_000))));
    out.push((
        "unterminated attribute",
        [b"<a href=\"".to_vec(), rep("x", n(10_000_000))].concat(),
    ));
    out.push((
        "100k attributes",
        [b"<p ".to_vec(), rep("a=1 ", n(100_000)), b">t".to_vec()].concat(),
    ));
    out.push((
        "entity bomb named",
        rep("&NotEqualTilde;&amp;&nbsp;", n(1_000_000)),
    ));
    out.push((
        "entity bomb numeric",
        rep("&#x10FFFF;&#99999999999;&#0;", n(1_000_000)),
    ));
    out.push((
        "entity bomb unknown",
        rep("&abcdefghijklmnopqrstuvwxyzabcdefgh;", n(500_000)),
    ));
    out.push(("lt storm", rep("< </ <! <? <a", n(1_000_000))));
    out.push((
        "unterminated comment",
        [b"<!--".to_vec(), rep("-", n(10_000_000))].concat(),
    ));
    out.push((
        "script end-tag storm",
        [b"<script>".to_vec(), rep("</scrip</scrip", n(1_000_000))].concat(),
    ));
    out.push((
        "unknown tag names",
        (0..n(100_000))
            .flat_map(|i| format!("<x-{i}>t</x-{i}>").into_bytes())
            .collect(),
    ));
    out.push((
        "stray end tags",
        [rep("<span>", 500), rep("</div></p></li></td>", n(500_000))].concat(),
    ));
    out.push((
        "invalid UTF-8",
        (0..n(10_000_000))
            .map(|i| [0xff, 0xc3, b'<', 0x80, b'a', 0xe2, 0x82][i % 7])
            .collect(),
    ));
    out.push(("deep pre", rep("<pre>x\n", n(100_000))));
    out
}
