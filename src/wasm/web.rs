//! The web tools: `web_fetch` and `web_search` as state machines the JS
//! shell drives, HTML to Markdown or text, and the tool definitions.

use std::net::IpAddr;

use serde::Deserialize;
use serde_json::{json, Value};
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use super::{read_catalog, read_text, read_value, to_js, usage};
use crate::client::DEFAULT_MAX_REPLY;
use crate::html::{self, Format, HtmlOptions};
use crate::web::{self, FetchAction, FetchOptions, SearchServiceOptions, WebTools};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** What a `WebFetch` asks the shell to do next. */
export type FetchStep =
  | { kind: "resolve"; host: string; url: string }
  | { kind: "request"; url: string; address: string; port: number; headers: [string, string][] }
  | { kind: "read" }
  | { kind: "decode"; encoding: string }
  | { kind: "done"; result: CallToolResult };
/** What a `WebSearch` asks the shell to do next: POST the request, read the reply's body, or nothing more (the tool's result). */
export type SearchStep =
  | { kind: "request"; url: string; headers: [string, string][]; body: string; timeoutMs: number }
  | { kind: "read" }
  | { kind: "done"; result: CallToolResult };
/** A converted page: the Markdown or text, the title, what the page says about itself, and whether a limit cut it. */
export interface HtmlPage {
  content: string;
  title: string | null;
  metadata: { lang?: string; description?: string; canonical?: string; author?: string; published?: string; modified?: string; siteName?: string; keywords?: string; openGraph?: { [property: string]: string } };
  truncated: boolean;
  /** The encoding the bytes were read as (only for a `Uint8Array` input). */
  charset?: string;
}
/** A catalog with the web tools added: its tools, the search metadata, and the names of the web tools that were added (a tool of the same name already in the catalog wins). */
export interface WithWebTools { tools: McpTool[]; metadata: SearchMetadata; web: string[] }
"#;

/// `WebFetch` options: the defaults fetch public addresses only, follow 5
/// redirects, read 5 MiB and wait 30 s (a call may ask for up to 120 s).
#[derive(Deserialize, Default, Tsify)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct WebFetchOptions {
    /// Allow loopback, private, link-local and other local addresses
    /// (off by default).
    allow_private: Option<bool>,
    /// Hosts that may be fetched at local addresses even so, as `host` or
    /// `host:port` (`"homeassistant.local:8123"`, `"192.168.1.20"`; without
    /// a port, 80 and 443 only), reached only as the URL the call gave
    /// (a redirect from another page to them is refused).
    allow_hosts: Option<Vec<String>>,
    /// Redirects followed (default 5).
    max_redirects: Option<u32>,
    /// Bytes of body read (default 5 MiB).
    max_bytes: Option<usize>,
    /// Bytes of converted content returned (default 100000).
    max_content: Option<usize>,
    /// The timeout of a call that gives none, in milliseconds (default 30000).
    default_timeout_ms: Option<u32>,
    /// The largest timeout a call may ask for, in milliseconds (default 120000).
    max_timeout_ms: Option<u32>,
    /// The `User-Agent` sent.
    user_agent: Option<String>,
    /// Convert only the page's main content (default true).
    main_content: Option<bool>,
}

impl WebFetchOptions {
    fn into_core(self) -> FetchOptions {
        let mut o = FetchOptions::new();
        if let Some(a) = self.allow_private {
            o = o.with_allow_private(a);
        }
        if let Some(h) = self.allow_hosts {
            o = o.with_allowed_hosts(h);
        }
        if let Some(n) = self.max_redirects {
            o = o.with_max_redirects(n);
        }
        if let Some(n) = self.max_bytes {
            o = o.with_max_bytes(n);
        }
        if let Some(n) = self.max_content {
            o = o.with_max_content(n);
        }
        if let Some(ms) = self.default_timeout_ms {
            o.default_timeout_ms = ms.max(1);
        }
        if let Some(ms) = self.max_timeout_ms {
            o.max_timeout_ms = ms.max(1);
        }
        if let Some(u) = self.user_agent {
            o = o.with_user_agent(u);
        }
        if let Some(m) = self.main_content {
            o = o.with_main_content(m);
        }
        o
    }
}

/// A step as a JS object: `{kind: "resolve", host, url}`, `{kind:
/// "request", url, address, port, headers: [[name, value], …]}`, `{kind:
/// "read"}`, `{kind: "decode", encoding}` or `{kind: "done", result}`.
fn step(action: &FetchAction) -> Result<JsValue, JsValue> {
    let text = match action {
        FetchAction::Resolve { host, url } => {
            json!({"kind": "resolve", "host": host, "url": url}).to_string()
        }
        FetchAction::Request {
            url,
            address,
            port,
            headers,
        } => json!({"kind": "request", "url": url, "address": address.to_string(),
                    "port": port, "headers": headers})
        .to_string(),
        FetchAction::Read => r#"{"kind":"read"}"#.to_string(),
        FetchAction::Decode { encoding } => {
            json!({"kind": "decode", "encoding": encoding}).to_string()
        }
        // the result is JSON text already: spliced, not quoted
        FetchAction::Done(result) => format!(r#"{{"kind":"done","result":{result}}}"#),
    };
    js_sys::JSON::parse(&text)
}

/// Response headers as the shell gives them, as JSON text: an array of
/// pairs (`[...response.headers]`) or an object of names to values;
/// anything else is no headers.
fn headers_from_json(text: &str) -> Vec<(String, String)> {
    let pair = |k: &str, v: &Value| v.as_str().map(|v| (k.to_string(), v.to_string()));
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Array(items)) => items
            .iter()
            .filter_map(|p| match p.as_array().map(Vec::as_slice) {
                Some([Value::String(k), v]) => pair(k, v),
                _ => None,
            })
            .collect(),
        Ok(Value::Object(map)) => map.iter().filter_map(|(k, v)| pair(k, v)).collect(),
        _ => Vec::new(),
    }
}

/// One `web_fetch` call as a state machine: every report from the shell
/// (addresses, the response, body chunks, a timeout, an error) returns the
/// next step, ending with `{kind: "done", result}`.
#[wasm_bindgen(js_name = WebFetch)]
pub struct JsWebFetch {
    inner: web::WebFetch,
}

#[wasm_bindgen(js_class = WebFetch)]
impl JsWebFetch {
    /// A fetch for a call's arguments (`{url, format?, timeout?}`); bad
    /// arguments are reported by `start()` as a tool error.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
        options: Option<Ts<WebFetchOptions>>,
    ) -> Result<JsWebFetch, JsValue> {
        let args = read_value(&args, "the arguments")?;
        let o: WebFetchOptions = super::options(options, "web fetch options")?;
        Ok(JsWebFetch {
            inner: web::WebFetch::new(&args, o.into_core()),
        })
    }

    /// How long the whole fetch may take, in milliseconds: one timer, then
    /// `timedOut()`.
    #[wasm_bindgen(js_name = timeoutMs)]
    pub fn timeout_ms(&self) -> u32 {
        self.inner.timeout_ms()
    }

    /// The first step.
    #[wasm_bindgen(unchecked_return_type = "FetchStep")]
    pub fn start(&mut self) -> Result<JsValue, JsValue> {
        step(&self.inner.start())
    }

    /// The addresses the host resolved to (every one `dns.lookup` gave, in
    /// its order); text that is not an address is left out.
    #[wasm_bindgen(unchecked_return_type = "FetchStep")]
    pub fn resolved(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] addresses: JsValue,
    ) -> Result<JsValue, JsValue> {
        let list = match read_value(&addresses, "the addresses")? {
            Value::Array(items) => items,
            _ => return Err(usage("the addresses must be an array of strings")),
        };
        let ips: Vec<IpAddr> = list
            .iter()
            .filter_map(|a| a.as_str()?.trim().parse().ok())
            .collect();
        step(&self.inner.resolved(&ips))
    }

    /// The lookup failed.
    #[wasm_bindgen(js_name = resolveFailed, unchecked_return_type = "FetchStep")]
    pub fn resolve_failed(&mut self, message: &str) -> Result<JsValue, JsValue> {
        step(&self.inner.resolve_failed(message))
    }

    /// The response's status and headers (`[name, value]` pairs, or an
    /// object of names to values).
    #[wasm_bindgen(unchecked_return_type = "FetchStep")]
    pub fn response(
        &mut self,
        status: u16,
        #[wasm_bindgen(unchecked_param_type = "[string, string][] | { [name: string]: string }")]
        headers: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = read_text(&headers, "the headers")?;
        step(&self.inner.response(status, &headers_from_json(&text)))
    }

    /// After a `read` step: the body's content codings to undo, in the
    /// order they were applied (`"gzip"`, `"deflate"`, `"br"`; undo the
    /// last first), before passing the chunks to `body`.
    #[wasm_bindgen(unchecked_return_type = r#"("gzip" | "deflate" | "br")[]"#)]
    pub fn codings(&self) -> Result<JsValue, JsValue> {
        let names: Vec<&str> = self.inner.codings().iter().map(|c| c.name()).collect();
        super::to_js(&names)
    }

    /// A chunk of the body (decoded from any `Content-Encoding`).
    #[wasm_bindgen(unchecked_return_type = "FetchStep")]
    pub fn body(&mut self, chunk: &[u8]) -> Result<JsValue, JsValue> {
        step(&self.inner.body(chunk))
    }

    /// The end of the body.
    #[wasm_bindgen(unchecked_return_type = "FetchStep")]
    pub fn end(&mut self) -> Result<JsValue, JsValue> {
        step(&self.inner.end())
    }

    /// The body read so far, for a `decode` step.
    #[wasm_bindgen(js_name = bodyBytes)]
    pub fn body_bytes(&self) -> Vec<u8> {
        self.inner.body_bytes().to_vec()
    }

    /// The body decoded by `new TextDecoder(encoding)`.
    #[wasm_bindgen(unchecked_return_type = "FetchStep")]
    pub fn decoded(&mut self, text: &str) -> Result<JsValue, JsValue> {
        step(&self.inner.decoded(text))
    }

    /// The host cannot decode the encoding: the body is read as UTF-8.
    #[wasm_bindgen(js_name = decodeFailed, unchecked_return_type = "FetchStep")]
    pub fn decode_failed(&mut self) -> Result<JsValue, JsValue> {
        step(&self.inner.decode_failed())
    }

    /// Undoing a content coding failed (the decoder's message).
    #[wasm_bindgen(js_name = codingFailed, unchecked_return_type = "FetchStep")]
    pub fn coding_failed(&mut self, message: &str) -> Result<JsValue, JsValue> {
        step(&self.inner.coding_failed(message))
    }

    /// The timer of `timeoutMs()` fired.
    #[wasm_bindgen(js_name = timedOut, unchecked_return_type = "FetchStep")]
    pub fn timed_out(&mut self) -> Result<JsValue, JsValue> {
        step(&self.inner.timed_out())
    }

    /// A network error (connection refused, TLS failure, reset).
    #[wasm_bindgen(unchecked_return_type = "FetchStep")]
    pub fn failed(&mut self, message: &str) -> Result<JsValue, JsValue> {
        step(&self.inner.failed(message))
    }

    /// Whether the fetch is over.
    #[wasm_bindgen(getter, js_name = isDone)]
    pub fn is_done(&self) -> bool {
        self.inner.is_done()
    }
}

/// `WebSearch` options: the search service (Exa's public MCP endpoint and
/// its `web_search_exa` tool by default) and its limits.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct WebSearchOptions {
    /// The service's MCP endpoint (Streamable HTTP).
    endpoint: Option<String>,
    /// The search tool of that service.
    tool: Option<String>,
    /// An API key (sent as the `exaApiKey` query parameter).
    api_key: Option<String>,
    /// The timeout of a search, in milliseconds (default 25000).
    timeout_ms: Option<u32>,
    /// Results when the call asks for no number (default 8).
    default_results: Option<u32>,
    /// The most results a call may ask for (default 20).
    max_results: Option<u32>,
    /// The largest reply read, in bytes (default 2 MiB).
    max_reply: Option<usize>,
}

enum SearchState {
    /// The arguments were refused: the tool's result.
    Refused(String),
    Start,
    Sent,
    Reading {
        status: u16,
        content_type: String,
    },
    Done,
}

/// One `web_search` call: `start()` gives the request to POST, then
/// `response()`, `body()` chunks and `end()` read the reply under a size
/// limit, ending with `{kind: "done", result}`; `timedOut()` and
/// `failed()` end it at any point.
#[wasm_bindgen(js_name = WebSearch)]
pub struct JsWebSearch {
    search: Option<web::WebSearch>,
    state: SearchState,
    body: Vec<u8>,
    max_reply: usize,
}

/// The last step: the tool's result (JSON text).
fn search_done(result: &str) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&format!(r#"{{"kind":"done","result":{result}}}"#))
}

#[wasm_bindgen(js_class = WebSearch)]
impl JsWebSearch {
    /// A search for a call's arguments (`{query, num_results?, type?,
    /// livecrawl?, context_max_chars?}`); bad arguments are reported by
    /// `start()` as a tool error.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
        options: Option<Ts<WebSearchOptions>>,
    ) -> Result<JsWebSearch, JsValue> {
        let args = read_value(&args, "the arguments")?;
        let o: WebSearchOptions = super::options(options, "web search options")?;
        let mut s = SearchServiceOptions::new();
        if o.endpoint.is_some() || o.tool.is_some() {
            let endpoint = o.endpoint.unwrap_or_else(|| s.endpoint.clone());
            let tool = o.tool.unwrap_or_else(|| s.tool.clone());
            s = s.with_service(endpoint, tool);
        }
        if let Some(k) = o.api_key {
            s = s.with_api_key(k);
        }
        if let Some(ms) = o.timeout_ms {
            s = s.with_timeout_ms(ms.max(1));
        }
        if let Some(n) = o.default_results {
            s.default_results = n;
        }
        if let Some(n) = o.max_results {
            s.max_results = n;
        }
        let max_reply = o.max_reply.unwrap_or(DEFAULT_MAX_REPLY);
        let (search, state) = match web::WebSearch::new(&args, &s) {
            Ok(w) => (Some(w), SearchState::Start),
            Err(result) => (None, SearchState::Refused(result)),
        };
        Ok(JsWebSearch {
            search,
            state,
            body: Vec::new(),
            max_reply,
        })
    }

    /// The request to POST (`{kind: "request", url, headers, body,
    /// timeoutMs}`), or the tool's result when the arguments were refused.
    #[wasm_bindgen(unchecked_return_type = "SearchStep")]
    pub fn start(&mut self) -> Result<JsValue, JsValue> {
        match (&self.state, &self.search) {
            (SearchState::Refused(result), _) => {
                let r = result.clone();
                self.state = SearchState::Done;
                search_done(&r)
            }
            (SearchState::Start, Some(s)) => {
                self.state = SearchState::Sent;
                let mut r: Value = serde_json::from_str(&s.request_json())
                    .map_err(|e| usage(&format!("the request: {e}")))?;
                if let Value::Object(m) = &mut r {
                    m.insert("kind".into(), "request".into());
                }
                to_js(&r)
            }
            _ => Err(usage("WebSearch.start() was called twice")),
        }
    }

    /// The reply's status and content type: read its body next.
    #[wasm_bindgen(unchecked_return_type = "SearchStep")]
    pub fn response(&mut self, status: u16, content_type: &str) -> Result<JsValue, JsValue> {
        if !matches!(self.state, SearchState::Sent) {
            return Err(usage("WebSearch.response() comes after start()"));
        }
        self.state = SearchState::Reading {
            status,
            content_type: content_type.to_string(),
        };
        to_js(&json!({"kind": "read"}))
    }

    /// A chunk of the reply's body; past the size limit the search ends
    /// (stop reading and abort the request).
    #[wasm_bindgen(unchecked_return_type = "SearchStep")]
    pub fn body(&mut self, chunk: &[u8]) -> Result<JsValue, JsValue> {
        if !matches!(self.state, SearchState::Reading { .. }) {
            return Err(usage("WebSearch.body() comes after response()"));
        }
        if self.body.len().saturating_add(chunk.len()) > self.max_reply {
            let limit = self.max_reply;
            return self.finish(|s| s.too_large(limit));
        }
        self.body.extend_from_slice(chunk);
        to_js(&json!({"kind": "read"}))
    }

    /// The end of the reply: the tool's result.
    #[wasm_bindgen(unchecked_return_type = "SearchStep")]
    pub fn end(&mut self) -> Result<JsValue, JsValue> {
        let SearchState::Reading {
            status,
            content_type,
        } = std::mem::replace(&mut self.state, SearchState::Sent)
        else {
            return Err(usage("WebSearch.end() comes after response()"));
        };
        let body = std::mem::take(&mut self.body);
        let text = String::from_utf8_lossy(&body).into_owned();
        self.finish(|s| s.reply(status, &content_type, &text))
    }

    /// The timeout fired: the tool's result.
    #[wasm_bindgen(js_name = timedOut, unchecked_return_type = "SearchStep")]
    pub fn timed_out(&mut self) -> Result<JsValue, JsValue> {
        self.finish(web::WebSearch::timed_out)
    }

    /// A network error: the tool's result.
    #[wasm_bindgen(unchecked_return_type = "SearchStep")]
    pub fn failed(&mut self, message: &str) -> Result<JsValue, JsValue> {
        self.finish(|s| s.failed(message))
    }

    /// Ends the search with `result`'s outcome.
    fn finish(
        &mut self,
        result: impl FnOnce(&web::WebSearch) -> String,
    ) -> Result<JsValue, JsValue> {
        let Some(s) = &self.search else {
            return match std::mem::replace(&mut self.state, SearchState::Done) {
                SearchState::Refused(r) => search_done(&r),
                _ => Err(usage("this WebSearch is over")),
            };
        };
        if matches!(self.state, SearchState::Done) {
            return Err(usage("this WebSearch is over"));
        }
        self.state = SearchState::Done;
        self.body = Vec::new();
        search_done(&result(s))
    }
}

/// `convertHtml` options.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ConvertHtmlOptions {
    /// `"markdown"` (default) or `"text"`.
    #[tsify(type = "\"markdown\" | \"text\"")]
    format: Option<String>,
    /// The page's URL: relative links and images are resolved against it.
    base_url: Option<String>,
    /// Convert only `<main>` or the one `<article>` (default true).
    main_content: Option<bool>,
    /// For bytes: the `Content-Type` header, whose charset counts.
    content_type: Option<String>,
    /// Bytes of HTML read (default 8 MiB).
    max_input: Option<usize>,
    /// Bytes of output (default 1 MiB).
    max_output: Option<usize>,
    /// Open elements kept (default 512).
    max_depth: Option<usize>,
    /// Elements kept (default 200000).
    max_elements: Option<usize>,
}

/// Converts HTML (a string, or bytes in the encoding their `<meta>`, byte
/// order mark or `contentType` says) to Markdown or plain text, with the
/// page's title and metadata. Bounded for any input: see the limits.
#[wasm_bindgen(js_name = convertHtml, unchecked_return_type = "HtmlPage")]
pub fn convert_html_js(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] html: JsValue,
    options: Option<Ts<ConvertHtmlOptions>>,
) -> Result<JsValue, JsValue> {
    use wasm_bindgen::JsCast;
    let o: ConvertHtmlOptions = super::options(options, "convertHtml options")?;
    let mut opts = HtmlOptions::new();
    match o.format.as_deref() {
        None | Some("markdown") => {}
        Some("text") => opts = opts.with_format(Format::Text),
        Some(other) => {
            return Err(usage(&format!(
                "format must be \"markdown\" or \"text\", not {other:?}"
            )))
        }
    }
    if let Some(u) = o.base_url {
        opts = opts.with_base_url(u);
    }
    if let Some(m) = o.main_content {
        opts = opts.with_main_content(m);
    }
    if let Some(n) = o.max_input {
        opts = opts.with_max_input(n);
    }
    if let Some(n) = o.max_output {
        opts = opts.with_max_output(n);
    }
    if let Some(n) = o.max_depth {
        opts = opts.with_max_depth(n);
    }
    if let Some(n) = o.max_elements {
        opts = opts.with_max_elements(n);
    }
    let (page, charset) = if let Some(bytes) = html.dyn_ref::<js_sys::Uint8Array>() {
        let bytes = bytes.to_vec();
        let ct = o.content_type.as_deref();
        let found = web::sniff_charset(ct, bytes.get(..opts.max_input).unwrap_or(&bytes)).name;
        let charset = if web::decodes(found) { found } else { "utf-8" };
        (html::convert_bytes(&bytes, ct, &opts), Some(charset))
    } else if html.is_string() {
        (html::convert(&read_text(&html, "the HTML")?, &opts), None)
    } else {
        return Err(usage("the HTML must be a string or a Uint8Array"));
    };
    let mut out = json!({
        "content": page.content,
        "title": page.metadata.title,
        "metadata": page.metadata.to_json(),
        "truncated": page.truncated,
    });
    if let (Some(c), Value::Object(m)) = (charset, &mut out) {
        m.insert("charset".into(), c.into());
    }
    to_js(&out)
}

/// Which web tools (`mergeWebTools`, `webToolDefinitions`): both unless one is
/// turned off.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, deny_unknown_fields)]
pub struct WebToolsOptions {
    /// Add `web_fetch` (default true).
    fetch: Option<bool>,
    /// Add `web_search` (default true).
    search: Option<bool>,
}

impl WebToolsOptions {
    fn which(&self) -> WebTools {
        WebTools::all()
            .with_fetch(self.fetch.unwrap_or(true))
            .with_search(self.search.unwrap_or(true))
    }
}

/// The MCP definitions of `web_fetch` and `web_search` (read-only,
/// open-world).
#[wasm_bindgen(js_name = webToolDefinitions, unchecked_return_type = "McpTool[]")]
pub fn web_tools_js(options: Option<Ts<WebToolsOptions>>) -> Result<JsValue, JsValue> {
    let o: WebToolsOptions = super::options(options, "web tools options")?;
    to_js(&o.which().definitions())
}

/// The web tools' search metadata (category `web`), for `ToolIndex` and
/// the engine's `metadata`.
#[wasm_bindgen(js_name = webToolsMetadata, unchecked_return_type = "SearchMetadata")]
pub fn web_tools_metadata_js() -> Result<JsValue, JsValue> {
    to_js(&web::web_tools_metadata())
}

/// `mergeWebTools` options: which tools (both unless one is turned off)
/// and the search metadata to add theirs to.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, deny_unknown_fields)]
pub struct MergeWebToolsOptions {
    /// Add `web_fetch` (default true).
    fetch: Option<bool>,
    /// Add `web_search` (default true).
    search: Option<bool>,
    /// Search metadata of the catalog's own tools.
    #[tsify(type = "SearchMetadata | null")]
    metadata: Option<Value>,
}

/// A catalog with the web tools after its own tools (a tool of the same
/// name already there wins), the search metadata given with the web
/// tools' added (entries given win), and the names of the web tools
/// added, which the host runs itself.
#[wasm_bindgen(js_name = mergeWebTools, unchecked_return_type = "WithWebTools")]
pub fn merge_web_tools_js(
    #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    options: Option<Ts<MergeWebToolsOptions>>,
) -> Result<JsValue, JsValue> {
    let base = read_catalog(&catalog)?;
    let o: MergeWebToolsOptions = super::options(options, "mergeWebTools options")?;
    let which = WebToolsOptions {
        fetch: o.fetch,
        search: o.search,
    }
    .which();
    let merged = web::merge_web_tools(&base, which);
    let added: Vec<&str> = merged
        .tools()
        .iter()
        .map(|t| t.name())
        .filter(|n| web::is_web_tool(n) && base.get(n).is_none())
        .collect();
    let mut meta = match o.metadata {
        None | Some(Value::Null) => json!({"tools": {}}),
        Some(m) => m,
    };
    let Some(Value::Object(entries)) = meta.get_mut("tools") else {
        return Err(usage("metadata must be an object with a tools object"));
    };
    if let Some(Value::Object(web)) = web::web_tools_metadata().get("tools") {
        for name in &added {
            if let Some(entry) = web.get(*name) {
                entries
                    .entry(name.to_string())
                    .or_insert_with(|| entry.clone());
            }
        }
    }
    let tools: Vec<_> = merged.tools().iter().map(|t| t.as_map()).collect();
    to_js(&json!({"tools": tools, "metadata": meta, "web": added}))
}
