//! `web_search` as a client of a remote MCP search service (by default
//! Exa's public endpoint and its `web_search_exa` tool), sans I/O: the
//! arguments are checked, the `tools/call` request is built with the
//! upstream client helpers ([`crate::client`]), and the reply (JSON or an
//! SSE stream, a JSON-RPC error, an HTTP failure) becomes citable text —
//! one numbered entry per result with its title, URL, date and snippet —
//! or a clear tool error.

use serde_json::{json, Map, Value};

use crate::client::{self, ClientSession, ReplyAction};

/// Settings of `web_search`: `new` gives the defaults, `with_*` changes one.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchServiceOptions {
    /// The MCP endpoint (Streamable HTTP), `https://mcp.exa.ai/mcp` by default.
    pub endpoint: String,
    /// The search tool of that server, `web_search_exa` by default.
    pub tool: String,
    /// An API key, sent as the `exaApiKey` query parameter (Exa's hosted
    /// server works without one, with a rate limit).
    pub api_key: Option<String>,
    /// Results when the call asks for no number (8).
    pub default_results: u32,
    /// The most results a call may ask for (20).
    pub max_results: u32,
    /// The timeout of a search, in milliseconds (25 s).
    pub timeout_ms: u32,
}

impl Default for SearchServiceOptions {
    fn default() -> Self {
        SearchServiceOptions {
            endpoint: "https://mcp.exa.ai/mcp".into(),
            tool: "web_search_exa".into(),
            api_key: None,
            default_results: 8,
            max_results: 20,
            timeout_ms: 25_000,
        }
    }
}

impl SearchServiceOptions {
    /// The defaults.
    pub fn new() -> SearchServiceOptions {
        SearchServiceOptions::default()
    }

    /// Sets the endpoint and the tool called there.
    pub fn with_service(
        mut self,
        endpoint: impl Into<String>,
        tool: impl Into<String>,
    ) -> SearchServiceOptions {
        self.endpoint = endpoint.into();
        self.tool = tool.into();
        self
    }

    /// Sets the API key.
    pub fn with_api_key(mut self, key: impl Into<String>) -> SearchServiceOptions {
        self.api_key = Some(key.into()).filter(|k| !k.is_empty());
        self
    }

    /// Sets the timeout in milliseconds.
    pub fn with_timeout_ms(mut self, ms: u32) -> SearchServiceOptions {
        self.timeout_ms = ms;
        self
    }
}

/// Default and largest `context_max_chars`.
const DEFAULT_CHARS: usize = 10_000;
const MAX_CHARS: usize = 100_000;
const MIN_CHARS: usize = 1_000;
/// Longest snippet kept per result, in characters.
const SNIPPET_CHARS: usize = 1_200;
const MAX_QUERY: usize = 2_000;

/// `web_search`'s arguments, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchArguments {
    /// The query.
    pub query: String,
    /// How many results.
    pub num_results: u32,
    /// `auto`, `fast` or `deep`, when given.
    pub kind: Option<String>,
    /// `fallback`, `preferred`, `always` or `never`, when given.
    pub livecrawl: Option<String>,
    /// The most characters of text returned.
    pub context_max_chars: usize,
}

fn integer(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn one_of(
    args: &Map<String, Value>,
    key: &str,
    allowed: &[&str],
) -> Result<Option<String>, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if allowed.contains(&s.trim().to_ascii_lowercase().as_str()) => {
            Ok(Some(s.trim().to_ascii_lowercase()))
        }
        Some(_) => Err(format!(
            "{key} must be one of {}",
            allowed
                .iter()
                .map(|a| format!("\"{a}\""))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

impl SearchArguments {
    /// Checks `{query, num_results?, type?, livecrawl?, context_max_chars?}`;
    /// the error is a message for the model.
    pub fn parse(
        arguments: &Value,
        options: &SearchServiceOptions,
    ) -> Result<SearchArguments, String> {
        let Value::Object(args) = arguments else {
            return Err("the arguments must be an object with a query".into());
        };
        let query = match args.get("query") {
            Some(Value::String(q)) if !q.trim().is_empty() => q.trim(),
            Some(Value::String(_)) => return Err("query must not be empty".into()),
            Some(_) => return Err("query must be a string".into()),
            None => return Err("query is required".into()),
        };
        if query.chars().count() > MAX_QUERY {
            return Err(format!("query must be at most {MAX_QUERY} characters"));
        }
        let max = options.max_results.max(1);
        let num_results = match args.get("num_results") {
            None | Some(Value::Null) => options.default_results.clamp(1, max),
            Some(v) => match integer(v) {
                Some(n) if n >= 1 && n <= i64::from(max) => n as u32,
                _ => return Err(format!("num_results must be an integer from 1 to {max}")),
            },
        };
        let kind = one_of(args, "type", &["auto", "fast", "deep"])?;
        let livecrawl = one_of(
            args,
            "livecrawl",
            &["fallback", "preferred", "always", "never"],
        )?;
        let context_max_chars = match args.get("context_max_chars") {
            None | Some(Value::Null) => DEFAULT_CHARS,
            Some(v) => match integer(v) {
                Some(n) if n >= MIN_CHARS as i64 && n <= MAX_CHARS as i64 => n as usize,
                _ => {
                    return Err(format!(
                        "context_max_chars must be an integer from {MIN_CHARS} to {MAX_CHARS}"
                    ))
                }
            },
        };
        Ok(SearchArguments {
            query: query.to_string(),
            num_results,
            kind,
            livecrawl,
            context_max_chars,
        })
    }
}

/// One search result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchResult {
    /// The page's title.
    pub title: String,
    /// Its URL.
    pub url: String,
    /// When it was published, when known.
    pub published: Option<String>,
    /// Its author, when known.
    pub author: Option<String>,
    /// Text from the page.
    pub snippet: String,
}

/// One `web_search` call: the request to send, then the reply read.
#[derive(Debug, Clone)]
pub struct WebSearch {
    args: SearchArguments,
    id: Value,
    url: String,
    headers: Vec<(String, String)>,
    body: String,
    timeout_ms: u32,
}

/// A tool error as `CallToolResult` JSON text.
fn failure(message: &str, query: Option<&str>) -> String {
    let details = match query {
        Some(q) => json!({"query": q}),
        None => json!({}),
    };
    crate::results::tool_failure(message, details).to_string()
}

impl WebSearch {
    /// A search for the tool call's `arguments`; `Err` is the tool's result
    /// when they are invalid (a `CallToolResult` as JSON text).
    pub fn new(arguments: &Value, options: &SearchServiceOptions) -> Result<WebSearch, String> {
        let args = SearchArguments::parse(arguments, options)
            .map_err(|e| failure(&format!("web_search: {e}"), None))?;
        let mut call = Map::new();
        call.insert("query".into(), args.query.clone().into());
        call.insert("numResults".into(), args.num_results.into());
        if let Some(k) = &args.kind {
            call.insert("type".into(), k.clone().into());
        }
        if let Some(l) = &args.livecrawl {
            call.insert("livecrawl".into(), l.clone().into());
        }
        call.insert("contextMaxCharacters".into(), args.context_max_chars.into());
        let mut session = ClientSession::new();
        let (id, body) = session.call_tool(&options.tool, &Value::Object(call));
        let url = match &options.api_key {
            Some(key) => {
                let sep = if options.endpoint.contains('?') {
                    '&'
                } else {
                    '?'
                };
                let mut encoded = String::new();
                for b in key.bytes() {
                    if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
                        encoded.push(char::from(b));
                    } else {
                        encoded.push_str(&format!("%{b:02X}"));
                    }
                }
                format!("{}{sep}exaApiKey={encoded}", options.endpoint)
            }
            None => options.endpoint.clone(),
        };
        Ok(WebSearch {
            args,
            id,
            url,
            headers: session.headers(None),
            body,
            timeout_ms: options.timeout_ms,
        })
    }

    /// The checked arguments.
    pub fn arguments(&self) -> &SearchArguments {
        &self.args
    }

    /// Where to POST.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The request headers (JSON body, JSON or SSE replies accepted).
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// The JSON-RPC `tools/call` request.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// How long to wait for the whole reply, in milliseconds.
    pub fn timeout_ms(&self) -> u32 {
        self.timeout_ms
    }

    /// Everything the shell needs to send the request, as JSON text:
    /// `{"url", "headers": [[name, value], …], "body", "timeoutMs"}`.
    pub fn request_json(&self) -> String {
        json!({"url": self.url, "headers": self.headers, "body": self.body,
               "timeoutMs": self.timeout_ms})
        .to_string()
    }

    /// The tool's result from the service's HTTP reply.
    pub fn reply(&self, status: u16, content_type: &str, body: &str) -> String {
        let q = Some(self.args.query.as_str());
        if status == 429 {
            return failure(
                "web search failed: the search service is limiting requests (HTTP 429); try again later",
                q,
            );
        }
        let messages = match client::classify_reply(status, content_type, false, false) {
            ReplyAction::Read => match client::messages(body, content_type) {
                Ok(m) => m,
                Err(e) => {
                    return failure(
                        &format!(
                            "web search failed: the search service's reply is not readable ({e})"
                        ),
                        q,
                    )
                }
            },
            ReplyAction::Nothing => {
                return failure(
                    &format!(
                        "web search failed: the search service sent no result (HTTP {status})"
                    ),
                    q,
                )
            }
            ReplyAction::Fail(m) => {
                let m = m.replace("the upstream", "the search service");
                return failure(&format!("web search failed: {m}"), q);
            }
            _ => return failure(&format!("web search failed: HTTP {status}"), q),
        };
        let result = match client::result_for(&messages, &self.id) {
            Ok(r) => r,
            Err(e) => {
                let m = e.message().replace("the server", "the search service");
                return failure(&format!("web search failed: {m}"), q);
            }
        };
        let text = tool_text(&result);
        if result.get("isError") == Some(&Value::Bool(true)) {
            let t = text.trim();
            let detail = if t.is_empty() { "no details" } else { t };
            let detail: String = detail.chars().take(500).collect();
            return failure(
                &format!("web search failed: the search service reported an error: {detail}"),
                q,
            );
        }
        let mut results = parse_results(&result, &text);
        results.truncate(self.args.num_results as usize);
        self.format(results, &text)
    }

    /// The tool's result when the timeout fired.
    pub fn timed_out(&self) -> String {
        let secs = super::fetch::seconds(self.timeout_ms);
        failure(
            &format!("web search failed: the search service did not answer within {secs} seconds"),
            Some(&self.args.query),
        )
    }

    /// The tool's result when the reply passed `limit` bytes (the shell
    /// stops reading it).
    pub fn too_large(&self, limit: usize) -> String {
        failure(
            &format!("web search failed: the search service's reply is larger than {limit} bytes"),
            Some(&self.args.query),
        )
    }

    /// The tool's result for a network error.
    pub fn failed(&self, message: &str) -> String {
        failure(
            &format!("web search failed: could not reach the search service: {message}"),
            Some(&self.args.query),
        )
    }

    fn format(&self, results: Vec<SearchResult>, raw: &str) -> String {
        let budget = self.args.context_max_chars;
        let mut text = String::new();
        let mut items = Vec::new();
        if results.is_empty() {
            let raw = collapse(raw);
            if raw.is_empty() || raw.to_ascii_lowercase().starts_with("no search results") {
                text = format!("No results for \"{}\".", self.args.query);
            } else {
                // a reply in a shape not recognised: passed on, bounded
                text = cut(&raw, budget);
            }
        } else {
            text.push_str(&format!("Results for \"{}\":", self.args.query));
            let per = (budget / results.len()).clamp(200, SNIPPET_CHARS);
            for (i, r) in results.into_iter().enumerate() {
                let snippet = cut(&r.snippet, per);
                let mut entry = format!("\n\n{}. {}\n   {}", i + 1, r.title, r.url);
                let when_who: Vec<String> = [
                    r.published.as_ref().map(|p| format!("Published {p}")),
                    r.author.as_ref().map(|a| format!("by {a}")),
                ]
                .into_iter()
                .flatten()
                .collect();
                if !when_who.is_empty() {
                    entry.push_str(&format!("\n   {}", when_who.join(" · ")));
                }
                if !snippet.is_empty() {
                    entry.push_str(&format!("\n   {snippet}"));
                }
                if text.chars().count() + entry.chars().count() > budget && !items.is_empty() {
                    break;
                }
                text.push_str(&entry);
                let mut item = Map::new();
                item.insert("title".into(), r.title.into());
                item.insert("url".into(), r.url.into());
                if let Some(p) = r.published {
                    item.insert("published".into(), p.into());
                }
                if let Some(a) = r.author {
                    item.insert("author".into(), a.into());
                }
                item.insert("snippet".into(), snippet.into());
                items.push(Value::Object(item));
            }
        }
        json!({
            "content": [{"type": "text", "text": text}],
            "structuredContent": {"query": self.args.query, "results": items},
        })
        .to_string()
    }
}

/// The text blocks of a `CallToolResult`, joined.
fn tool_text(result: &Value) -> String {
    let mut out = String::new();
    if let Some(Value::Array(blocks)) = result.get("content") {
        for b in blocks {
            if let Some(t) = b.get("text").and_then(Value::as_str) {
                if !out.is_empty() {
                    out.push_str("\n\n");
                }
                out.push_str(t);
            }
        }
    }
    out
}

/// Whitespace runs as one space, trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// White space collapsed, at most `n` characters, with `…` when cut.
fn cut(s: &str, n: usize) -> String {
    crate::text::cut(&collapse(s), n, crate::text::Cut::Trim)
}

fn known(v: Option<&str>) -> Option<String> {
    v.map(str::trim)
        .filter(|s| !s.is_empty() && !s.eq_ignore_ascii_case("n/a"))
        .map(str::to_string)
}

/// Results from structured content, JSON text, or `Title:`/`URL:` blocks.
fn parse_results(result: &Value, text: &str) -> Vec<SearchResult> {
    let from_json = |v: &Value| -> Vec<SearchResult> {
        let Some(Value::Array(items)) = v.get("results") else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|r| {
                let s = |k: &str| r.get(k).and_then(Value::as_str);
                let url = known(s("url"))?;
                let snippet = match r.get("highlights") {
                    Some(Value::Array(h)) => h
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(" … "),
                    _ => s("text")
                        .or(s("summary"))
                        .or(s("snippet"))
                        .unwrap_or("")
                        .to_string(),
                };
                Some(SearchResult {
                    title: known(s("title")).unwrap_or_else(|| url.clone()),
                    url,
                    published: known(s("publishedDate").or(s("published"))),
                    author: known(s("author")),
                    snippet,
                })
            })
            .collect()
    };
    if let Some(sc) = result.get("structuredContent") {
        let r = from_json(sc);
        if !r.is_empty() {
            return r;
        }
    }
    if let Ok(v) = serde_json::from_str::<Value>(text.trim()) {
        return from_json(&v);
    }
    parse_blocks(text)
}

/// Reads `Title: …` / `URL: …` / `Published: …` / `Author: …` /
/// `Highlights:` or `Text: …` blocks, separated by `---` lines or by the
/// next `Title:`.
fn parse_blocks(text: &str) -> Vec<SearchResult> {
    let mut out = Vec::new();
    let mut cur: Option<SearchResult> = None;
    let mut in_snippet = false;
    let push = |cur: &mut Option<SearchResult>, out: &mut Vec<SearchResult>| {
        if let Some(r) = cur.take() {
            if !r.url.is_empty() {
                out.push(r);
            }
        }
    };
    for line in text.lines() {
        let t = line.trim();
        if t.chars().all(|c| c == '-') && t.len() >= 3 {
            push(&mut cur, &mut out);
            in_snippet = false;
            continue;
        }
        let field = t.split_once(':').and_then(|(k, v)| {
            let k = k.trim().to_ascii_lowercase();
            let known = matches!(
                k.as_str(),
                "title"
                    | "url"
                    | "published"
                    | "published date"
                    | "publisheddate"
                    | "author"
                    | "highlights"
                    | "text"
                    | "summary"
                    | "snippet"
            );
            known.then(|| (k, v.trim()))
        });
        match field {
            Some((k, v)) if k == "title" => {
                push(&mut cur, &mut out);
                in_snippet = false;
                cur = Some(SearchResult {
                    title: v.to_string(),
                    ..SearchResult::default()
                });
            }
            Some((k, v)) => {
                let r = cur.get_or_insert_with(SearchResult::default);
                in_snippet = false;
                match k.as_str() {
                    "url" => r.url = v.to_string(),
                    "published" | "published date" | "publisheddate" => {
                        r.published = known(Some(v))
                    }
                    "author" => r.author = known(Some(v)),
                    _ => {
                        in_snippet = true;
                        if !v.is_empty() {
                            if !r.snippet.is_empty() {
                                r.snippet.push(' ');
                            }
                            r.snippet.push_str(v);
                        }
                    }
                }
            }
            None if in_snippet && !t.is_empty() => {
                if let Some(r) = cur.as_mut() {
                    if r.snippet.len() < 64 * 1024 {
                        if !r.snippet.is_empty() {
                            r.snippet.push(' ');
                        }
                        r.snippet.push_str(t);
                    }
                }
            }
            None => {}
        }
    }
    push(&mut cur, &mut out);
    for r in &mut out {
        if r.title.is_empty() || r.title.eq_ignore_ascii_case("n/a") {
            r.title = r.url.clone();
        }
    }
    out
}
