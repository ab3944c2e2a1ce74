//! HTML to Markdown and text on real and realistic pages (provenance in
//! `tests/fixtures/html/README.md`). A change in output fails here;
//! regenerate on purpose with `UPDATE_SNAPSHOTS=1 cargo test --test html`
//! and review the diff.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use mcp_switchboard::html::{convert, convert_bytes, Format, HtmlOptions};

/// Fixture, the URL it is read as, and the formats snapshotted.
const FIXTURES: &[(&str, &str, &[Format])] = &[
    (
        "docs-sphinx",
        "https://www.sphinx-doc.org/en/master/development/tutorials/helloworld.html",
        &[Format::Markdown],
    ),
    (
        "nl-installation-guide",
        "https://www.debian.org/releases/bookworm/amd64/apds02.nl.html",
        &[Format::Markdown, Format::Text],
    ),
    (
        "news-article",
        "https://news.example.org/weather/2025/11/19/amber-wind-warning",
        &[Format::Markdown, Format::Text],
    ),
    (
        "product-page",
        "https://shop.example.de/p/ht-200",
        &[Format::Markdown],
    ),
    (
        "malformed",
        "http://www.stoomfluit.example/news.htm",
        &[Format::Markdown],
    ),
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/html")
}

fn snapshot(name: &str, url: &str, format: Format) -> String {
    let bytes = std::fs::read(dir().join(format!("{name}.html"))).expect("fixture");
    let page = convert_bytes(
        &bytes,
        Some("text/html"),
        &HtmlOptions::new().with_base_url(url).with_format(format),
    );
    assert!(!page.truncated, "{name}");
    let mut meta = page.metadata.to_json();
    if let Some(t) = &page.metadata.title {
        meta["title"] = t.as_str().into();
    }
    format!(
        "<!-- {}: {} -->\n\n{}\n",
        format.name(),
        serde_json::to_string(&meta).expect("json"),
        page.content
    )
}

#[test]
fn fixtures_match_their_snapshots() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut stale = Vec::new();
    for (name, url, formats) in FIXTURES {
        for &format in *formats {
            let ext = if format == Format::Markdown {
                "md"
            } else {
                "txt"
            };
            let path = dir().join(format!("{name}.{ext}"));
            let text = snapshot(name, url, format);
            if update {
                std::fs::write(&path, &text).expect("write snapshot");
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(old) if old == text => {}
                Ok(_) => stale.push(format!("{name}.{ext} differs")),
                Err(_) => stale.push(format!("{name}.{ext} is missing")),
            }
        }
    }
    assert!(
        stale.is_empty(),
        "snapshots out of date (review, then UPDATE_SNAPSHOTS=1 cargo test --test html):\n{}",
        stale.join("\n")
    );
}

/// What the snapshots must show, said once more as assertions, so a
/// regenerated snapshot cannot quietly lose it.
#[test]
fn fixtures_keep_content_and_drop_clutter() {
    let md = |name: &str, url: &str| {
        let bytes = std::fs::read(dir().join(format!("{name}.html"))).expect("fixture");
        convert_bytes(&bytes, None, &HtmlOptions::new().with_base_url(url))
    };
    let news = md("news-article", "https://news.example.org/weather/x");
    let c = &news.content;
    assert!(c.starts_with("[Weather](https://news.example.org/weather)\n\n# Amber wind warning"));
    for gone in [
        "cookies",
        "Accept all",
        "Advertisement",
        "Most read",
        "Comments",
        "gtag",
        "Sign up",
        "Skip to content",
        "About us",
    ] {
        assert!(!c.contains(gone), "{gone} should be gone");
    }
    assert!(c.contains("| Coast | Amber | 20:00–06:00 |"));
    assert!(c.contains("> — Regional fire service"));
    assert_eq!(news.metadata.author.as_deref(), Some("Maria Jansen"));
    assert_eq!(
        news.metadata.published.as_deref(),
        Some("2025-11-19T14:05:00+01:00")
    );
    assert_eq!(
        news.metadata.canonical.as_deref(),
        Some("https://news.example.org/weather/2025/11/19/amber-wind-warning")
    );

    let docs = md(
        "docs-sphinx",
        "https://www.sphinx-doc.org/en/master/x/y.html",
    );
    assert!(docs
        .content
        .contains("```python\nfrom docutils import nodes\n"));
    assert!(!docs.content.contains('¶'));
    assert!(!docs.content.contains("Navigation"));

    let shop = md("product-page", "https://shop.example.de/p/ht-200");
    assert!(
        shop.content
            .contains("| HT-300](https://shop.example.de/p/ht-300) | Zigbee 3.0 \\| Thread |")
            || shop
                .content
                .contains("| [HT-300](https://shop.example.de/p/ht-300) | Zigbee 3.0 \\| Thread |")
    );
    assert!(shop.content.contains(
        "![HT-200 Thermostat, Seitenansicht](https://shop.example.de/media/ht-200-side.jpg)"
    ));
    assert!(!shop.content.contains("Warenkorb") && !shop.content.contains("Cookies"));

    let nl = md(
        "nl-installation-guide",
        "https://www.debian.org/releases/bookworm/amd64/apds02.nl.html",
    );
    assert!(nl.content.contains("| • KDE Plasma | 4584 | 1316 | 5900 |"));
    assert!(nl.content.contains("Geïnstalleerde grootte"));

    let bad = md("malformed", "http://www.stoomfluit.example/news.htm");
    assert!(bad
        .content
        .contains("## Latest news\n\nThe **winter exhibition**"));
    assert!(bad
        .content
        .contains("  - DCC on the right\n- [Read the rules]"));
    assert!(bad.content.contains("| Saturday | 10:00 | 16:00 |"));
    assert!(bad
        .content
        .contains("| A cell without a row | and another |"));
    assert!(!bad.content.contains("not markup"));
    assert!(bad
        .content
        .ends_with("This page was cut off in the middle of a"));
}

#[test]
fn text_format_has_no_markup() {
    let bytes = std::fs::read(dir().join("news-article.html")).expect("fixture");
    let page = convert(
        &String::from_utf8_lossy(&bytes),
        &HtmlOptions::new().with_format(Format::Text),
    );
    for markup in ["**", "](", "# ", "| --- |"] {
        assert!(!page.content.contains(markup), "{markup}");
    }
    assert!(page
        .content
        .contains("- secure or bring inside garden furniture"));
    assert!(page.content.contains("Coast | Amber | 20:00–06:00"));
}

/// A small deterministic generator (xorshift), so the run is the same
/// every time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next() % items.len()]
    }
}

/// Random soups of real markup pieces, cut anywhere, converted with tiny
/// limits so every limit path runs: nothing may panic (tests run with
/// overflow checks) and the limits must hold.
#[test]
fn random_markup_never_panics() {
    #[rustfmt::skip]
    const PIECES: &[&str] = &[
        "<p>", "</p>", "<div class=\"highlight-rust\">", "</div>", "<b>", "</b>", "<i>", "</i>",
        "<a href=\"/x?a=1&amp;b=2\">", "<a href='#top'>", "</a>", "<ul>", "<ol start=9 reversed>",
        "<li value=3>", "</li>", "</ul>", "</ol>", "<table>", "<tr>", "<td colspan=99>", "<th>",
        "</td>", "</tr>", "</table>", "<caption>", "<pre>", "</pre>", "<code>", "</code>",
        "<blockquote>", "</blockquote>", "<dl>", "<dt>", "<dd>", "<h1>", "<h3>", "</h2>", "<br>",
        "<hr>", "<img src=x.png alt=\"a [b]\">", "<script>", "</script>", "<style>", "<!--",
        "-->", "<![CDATA[", "]]>", "<?x", "</", "<", ">", "&", "&amp;", "&#x1F600;", "&#0;",
        "&notit;", "&copy", "text", " ", "\n", "\t", "*_`|#", "1.", "- ", "é", "\u{ad}", "\u{200b}",
        "<title>", "</title>", "<meta charset=utf-8>", "<base href=\"http://b.example/\">",
        "<main>", "</main>", "<article>", "<nav>", "</nav>", "<span hidden>", "<q>", "</q>",
        "<select><option>", "<textarea>", "</textarea>", "<plaintext>", "<x-custom a=b>",
        "</x-custom>", "<svg><title>s</title>", "</svg>", "<form><h2>f</h2>", "</form>",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let tight = HtmlOptions::new()
        .with_base_url("https://example.com/a/b")
        .with_max_depth(6)
        .with_max_elements(40)
        .with_max_output(300);
    for round in 0..3000 {
        let n = rng.next() % 120;
        let mut doc = String::new();
        for _ in 0..n {
            doc.push_str(rng.pick(PIECES));
        }
        // cut anywhere on a character boundary
        let mut cut = rng.next() % (doc.len() + 1);
        while !doc.is_char_boundary(cut) {
            cut -= 1;
        }
        let doc = &doc[..cut];
        for options in [
            &tight,
            &tight.clone().with_format(Format::Text),
            &HtmlOptions::new(),
        ] {
            let page = convert(doc, options);
            assert!(page.content.len() <= options.max_output, "round {round}");
            assert!(page.stats.max_depth <= options.max_depth, "round {round}");
            assert!(page.stats.elements <= options.max_elements, "round {round}");
        }
        let bytes: Vec<u8> = doc.bytes().map(|b| b ^ (rng.next() as u8 & 0x80)).collect();
        convert_bytes(&bytes, None, &tight);
    }
}
