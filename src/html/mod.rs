//! HTML to Markdown or plain text, for reading web pages to a model.
//!
//! [`convert`] reads a page the way a reader sees it: scripts, styles,
//! navigation, forms' controls, embedded content (`iframe`, `svg`, media),
//! dialogs, hidden elements (`hidden`, `aria-hidden`, `display: none`),
//! cookie banners and ad slots are left out; headings, paragraphs,
//! emphasis, links (resolved against the page's URL and `<base>`), images
//! (their alt text), lists (nested, numbered from `start`), blockquotes,
//! inline code and code blocks (with the language from `language-*`,
//! `highlight-*` or Pandoc's classes), tables (GFM pipe tables; layout
//! tables and tables inside tables become blocks), definition lists and
//! line breaks are kept. When the page has a `<main>` (or `role=main`), or
//! exactly one `<article>`, holding at least a quarter of its text, only
//! that part is converted.
//!
//! The page's title and metadata come back beside the text: `lang`, the
//! meta description, the canonical URL, author, published and modified
//! dates (from `meta` elements, Open Graph and JSON-LD), the site name and
//! every `og:*` property.
//!
//! ```
//! use mcp_switchboard::html::{convert, HtmlOptions};
//!
//! let page = convert(
//!     r#"<html lang="en"><head><title>Heating</title>
//!        <script>track()</script></head>
//!        <body><nav><a href="/">Home</a></nav>
//!        <main><h1>Radiator valves</h1>
//!        <p>Set the <b>thermostat</b> to <a href="/modes#eco">eco</a>:</p>
//!        <ol start="3"><li>Open the app<li>Pick a room</ol>
//!        <table><tr><th>Room<th>°C<tr><td>Kitchen<td>19</table>
//!        </main></body></html>"#,
//!     &HtmlOptions::new().with_base_url("https://example.com/help/"),
//! );
//! assert_eq!(page.metadata.title.as_deref(), Some("Heating"));
//! assert_eq!(page.metadata.lang.as_deref(), Some("en"));
//! assert_eq!(page.content, "\
//! ## Radiator valves
//!
//! Set the **thermostat** to [eco](https://example.com/modes#eco):
//!
//! 3. Open the app
//! 4. Pick a room
//!
//! | Room | °C |
//! | --- | --- |
//! | Kitchen | 19 |");
//! ```
//!
//! ## Limits
//!
//! The converter is built for hostile input. Every stage is one forward
//! pass: the tokenizer looks at each byte a bounded number of times, the
//! tree builder does O(1) amortised work per token (each tag keeps a stack
//! of where it is open, so no end tag walks the open elements), and the
//! writer walks the tree with an explicit stack, entering and leaving each
//! node once. Nothing recurses, so a page nested 100,000 deep cannot
//! overflow a stack. The [`HtmlOptions`] limits bound the rest:
//!
//! * `max_input` (8 MiB): bytes of HTML read; the rest is ignored.
//! * `max_depth` (512): open elements kept; deeper start tags are ignored
//!   (their text joins the innermost element kept) and their end tags
//!   counted off.
//! * `max_elements` (200,000): elements kept; later ones are ignored alike.
//! * `max_output` (1 MiB): bytes of output; the text is cut there and
//!   [`Page::truncated`] is set.
//!
//! Inline wrappers nest at most 16 deep in the output and list or quote
//! indentation at most 24 levels, so no byte of text is copied more than a
//! bounded number of times. Character references never grow the text (an
//! "entity bomb" is just text); the named references pages use are known
//! (362 of the standard's 2,125, see the design notes in the README).
//! [`Page::stats`] counts the work done, which the tests compare with the
//! input size.
//!
//! Bytes in an unknown encoding go through [`convert_bytes`], which picks
//! the encoding as browsers do (byte order mark, `Content-Type`, `<meta>`,
//! then UTF-8 or windows-1252 by validity; see [`crate::web::sniff_charset`])
//! and decodes invalid sequences to U+FFFD.

mod entities;
mod entity_table;
mod render;
mod tags;
pub(crate) mod tokenizer;
mod tree;

use serde_json::{Map, Value};

use crate::web::url::Url;

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Format {
    /// CommonMark with GFM tables.
    #[default]
    Markdown,
    /// Plain text: the same blocks and list markers, no markup.
    Text,
}

impl Format {
    /// `"markdown"` or `"text"`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
            Format::Text => "text",
        }
    }
}

/// Conversion settings: `new` gives the defaults, `with_*` changes one.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HtmlOptions {
    /// Markdown (default) or plain text.
    pub format: Format,
    /// The page's URL: relative links and images are resolved against it.
    pub base_url: Option<String>,
    /// Convert only `<main>` or the one `<article>` when the page has them
    /// (default true).
    pub main_content: bool,
    /// Bytes of input read (default 8 MiB).
    pub max_input: usize,
    /// Bytes of output written (default 1 MiB).
    pub max_output: usize,
    /// Open elements kept (default 512).
    pub max_depth: usize,
    /// Elements kept (default 200,000).
    pub max_elements: usize,
}

impl Default for HtmlOptions {
    fn default() -> Self {
        HtmlOptions {
            format: Format::Markdown,
            base_url: None,
            main_content: true,
            max_input: 8 * 1024 * 1024,
            max_output: 1024 * 1024,
            max_depth: 512,
            max_elements: 200_000,
        }
    }
}

impl HtmlOptions {
    /// The defaults.
    pub fn new() -> HtmlOptions {
        HtmlOptions::default()
    }

    /// Sets the output format.
    pub fn with_format(mut self, format: Format) -> HtmlOptions {
        self.format = format;
        self
    }

    /// Sets the page's URL.
    pub fn with_base_url(mut self, url: impl Into<String>) -> HtmlOptions {
        self.base_url = Some(url.into());
        self
    }

    /// Converts the main content only (true) or the whole page.
    pub fn with_main_content(mut self, main: bool) -> HtmlOptions {
        self.main_content = main;
        self
    }

    /// Sets the input limit in bytes (at most 1 GiB).
    pub fn with_max_input(mut self, bytes: usize) -> HtmlOptions {
        self.max_input = bytes.min(1 << 30);
        self
    }

    /// Sets the output limit in bytes.
    pub fn with_max_output(mut self, bytes: usize) -> HtmlOptions {
        self.max_output = bytes;
        self
    }

    /// Sets the depth limit (at least 1).
    pub fn with_max_depth(mut self, depth: usize) -> HtmlOptions {
        self.max_depth = depth.max(1);
        self
    }

    /// Sets the element limit.
    pub fn with_max_elements(mut self, elements: usize) -> HtmlOptions {
        self.max_elements = elements;
        self
    }
}

/// What a page says about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Metadata {
    /// `<title>`, else `og:title`, else JSON-LD `headline`.
    pub title: Option<String>,
    /// `<html lang>` (or `Content-Language`).
    pub lang: Option<String>,
    /// The meta description (else `og:description`).
    pub description: Option<String>,
    /// `<link rel=canonical>`, resolved.
    pub canonical: Option<String>,
    /// The author (meta, `article:author` or JSON-LD).
    pub author: Option<String>,
    /// When it was published (meta, `article:published_time` or JSON-LD).
    pub published: Option<String>,
    /// When it was last changed.
    pub modified: Option<String>,
    /// `og:site_name`.
    pub site_name: Option<String>,
    /// Meta keywords.
    pub keywords: Option<String>,
    /// The charset a `<meta>` declares.
    pub charset: Option<String>,
    /// Every `og:*` property, in order (at most 32).
    pub open_graph: Vec<(String, String)>,
}

impl Metadata {
    /// The fields that are present, as a JSON object (`openGraph` an
    /// object of the `og:*` properties, first value wins).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        let fields = [
            ("lang", &self.lang),
            ("description", &self.description),
            ("canonical", &self.canonical),
            ("author", &self.author),
            ("published", &self.published),
            ("modified", &self.modified),
            ("siteName", &self.site_name),
            ("keywords", &self.keywords),
        ];
        for (k, v) in fields {
            if let Some(v) = v {
                m.insert(k.into(), Value::String(v.clone()));
            }
        }
        if !self.open_graph.is_empty() {
            let mut og = Map::new();
            for (k, v) in &self.open_graph {
                og.entry(k.clone())
                    .or_insert_with(|| Value::String(v.clone()));
            }
            m.insert("openGraph".into(), Value::Object(og));
        }
        Value::Object(m)
    }
}

/// Counts of the work a conversion did (no clock: these are what the
/// bounds are proven with).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// Bytes of HTML read.
    pub input_bytes: usize,
    /// Tokens (tags and text runs) read.
    pub tokens: usize,
    /// Elements kept in the tree.
    pub elements: usize,
    /// Start tags ignored past a limit or unknown beyond the name table.
    pub ignored: usize,
    /// The deepest nesting kept.
    pub max_depth: usize,
    /// Nodes in the tree (elements and text runs).
    pub nodes: usize,
    /// Steps of the tree builder and the writer together.
    pub steps: usize,
}

/// A converted page.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Page {
    /// The Markdown or text.
    pub content: String,
    /// Title and metadata.
    pub metadata: Metadata,
    /// Whether a limit cut the input or the output.
    pub truncated: bool,
    /// The work done.
    pub stats: Stats,
}

/// Converts an HTML document (or fragment).
pub fn convert(html: &str, options: &HtmlOptions) -> Page {
    let mut truncated = false;
    let input = if html.len() > options.max_input {
        truncated = true;
        let mut cut = options.max_input;
        while !html.is_char_boundary(cut) {
            cut -= 1;
        }
        html.get(..cut).unwrap_or("")
    } else {
        html
    };
    let mut builder = tree::Builder::new(tree::Limits {
        max_depth: options.max_depth,
        max_elements: options.max_elements,
    });
    let tags = input
        .as_bytes()
        .windows(2)
        .filter(|w| w.first() == Some(&b'<') && w.get(1).is_some_and(u8::is_ascii_alphabetic))
        .count();
    builder.reserve(tags);
    tokenizer::tokenize(input, &mut builder);
    let tree = builder.finish();

    let page_url = options.base_url.as_deref().and_then(|u| Url::parse(u).ok());
    let base = match (&page_url, tree.base.as_deref()) {
        (Some(p), Some(b)) => p.join(b).ok().or_else(|| page_url.clone()),
        (None, Some(b)) => Url::parse(b).ok(),
        (p, None) => p.clone(),
    };
    let root = if options.main_content {
        main_root(&tree)
    } else {
        0
    };
    let out = render::render(
        &tree,
        root,
        options.format,
        base.clone(),
        options.max_output,
    );
    let metadata = metadata(&tree, base.as_ref());
    Page {
        content: out.text,
        metadata,
        truncated: truncated || out.truncated,
        stats: Stats {
            input_bytes: input.len(),
            tokens: tree.counts.tokens,
            elements: tree.counts.elements,
            ignored: tree.counts.ignored,
            max_depth: tree.counts.max_depth,
            nodes: tree.nodes.len(),
            steps: tree.counts.steps + out.steps,
        },
    }
}

/// Converts HTML bytes: the encoding is found from a byte order mark,
/// `content_type`'s charset, a `<meta>` declaration or the bytes themselves
/// (see [`crate::web::sniff_charset`]). Encodings this crate does not
/// decode (see [`crate::web::decodes`]) are read as UTF-8 with
/// replacement characters; decode them first (`TextDecoder` in
/// JavaScript) and call [`convert`].
pub fn convert_bytes(bytes: &[u8], content_type: Option<&str>, options: &HtmlOptions) -> Page {
    let bytes = bytes.get(..options.max_input).unwrap_or(bytes);
    let charset = crate::web::sniff_charset(content_type, bytes);
    let text = match (charset.name, std::str::from_utf8(bytes)) {
        ("utf-8", Ok(s)) => std::borrow::Cow::Borrowed(s.strip_prefix('\u{feff}').unwrap_or(s)),
        (name, _) => std::borrow::Cow::Owned(
            crate::web::charset::decode_limited(bytes, name, options.max_input)
                .or_else(|| crate::web::charset::decode_limited(bytes, "utf-8", options.max_input))
                .unwrap_or_default(),
        ),
    };
    convert(&text, options)
}

/// The node to convert: `<main>`, or the only `<article>`, when it holds a
/// quarter of the page's text; else the whole page.
fn main_root(tree: &tree::Tree) -> u32 {
    let total = tree.node(0).map_or(0, |n| n.text_len);
    let big = |n: u32| {
        tree.node(n)
            .is_some_and(|n| n.text_len.saturating_mul(4) >= total && n.text_len > 0)
    };
    if let Some(m) = tree.main.filter(|&m| big(m)) {
        return m;
    }
    if tree.articles.0 == 1 && big(tree.articles.1) {
        return tree.articles.1;
    }
    0
}

fn metadata(tree: &tree::Tree, base: Option<&Url>) -> Metadata {
    let mut out = tree.meta.clone();
    let og = |k: &str| {
        out.open_graph
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    let (title, description) = (og("og:title"), og("og:description"));
    out.title = out.title.or(title);
    out.description = out.description.or(description);
    if let (Some(c), Some(b)) = (&out.canonical, base) {
        if let Ok(u) = b.join(c) {
            out.canonical = Some(u.as_str().to_string());
        }
    }
    for text in &tree.json_ld {
        json_ld(text, &mut out);
    }
    out
}

/// Fills what is missing from JSON-LD (`headline`, `author`,
/// `datePublished`, `dateModified`), looking at up to 1,000 objects.
fn json_ld(text: &str, out: &mut Metadata) {
    let Ok(v) = serde_json::from_str::<Value>(text.trim()) else {
        return;
    };
    let mut stack = vec![&v];
    let mut seen = 0;
    while let Some(v) = stack.pop() {
        seen += 1;
        if seen > 1000 {
            break;
        }
        match v {
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(o) => {
                let s = |k: &str| {
                    o.get(k).and_then(Value::as_str).and_then(|s| {
                        let t = s.trim();
                        (!t.is_empty()).then(|| t.chars().take(2000).collect::<String>())
                    })
                };
                if out.published.is_none() {
                    out.published = s("datePublished");
                }
                if out.modified.is_none() {
                    out.modified = s("dateModified");
                }
                if out.title.is_none() {
                    out.title = s("headline");
                }
                if out.author.is_none() {
                    out.author = match o.get("author") {
                        Some(Value::String(a)) => Some(a.trim().to_string()),
                        Some(Value::Object(a)) => {
                            a.get("name").and_then(Value::as_str).map(str::to_string)
                        }
                        Some(Value::Array(a)) => a.first().and_then(|a| match a {
                            Value::String(s) => Some(s.clone()),
                            Value::Object(o) => {
                                o.get("name").and_then(Value::as_str).map(str::to_string)
                            }
                            _ => None,
                        }),
                        _ => None,
                    }
                    .filter(|a| !a.is_empty());
                }
                if let Some(g) = o.get("@graph") {
                    stack.push(g);
                }
            }
            _ => {}
        }
    }
}
