//! Built-in web tools, sans I/O: `web_fetch` (read a page as Markdown)
//! and `web_search` (ask a remote MCP search service). Every decision is
//! made here — which URLs and addresses are allowed, which redirect to
//! follow, when the body is too large, which character encoding it is in,
//! what the tool's result says — and the host only moves bytes: it
//! resolves names, opens connections, reads bodies and keeps the time.
//!
//! * [`Url`]: `http`/`https` URLs parsed and normalised as browsers do;
//!   other schemes, credentials and bad ports are refused.
//! * [`classify`] and [`AddressPolicy`]: public, loopback, private,
//!   link-local, shared, multicast and reserved addresses (IPv4, IPv6,
//!   IPv4 inside IPv6). Only public addresses are fetched unless private
//!   ones are allowed.
//! * [`sniff_charset`] and [`decode`]: the encoding of a body, from its
//!   byte order mark, `Content-Type` or `<meta>`, as a WHATWG name.
//! * [`WebFetch`]: the fetch state machine.
//! * [`WebSearch`]: the search request and the reading of its reply.
//! * [`web_fetch_tool`], [`web_search_tool`], [`web_tools_metadata`] and
//!   [`merge_web_tools`]: the tool definitions (read-only, open-world,
//!   category `web`).
//!
//! ## `web_fetch`
//!
//! [`WebFetch::new`] takes the call's arguments (`{url, format?, timeout?}`)
//! and [`FetchOptions`] (5 redirects, a 5 MiB body, 30 s by default and at
//! most 120 s, 100,000 bytes of content, public addresses only). Each
//! report from the shell returns the next [`FetchAction`]:
//!
//! 1. `Resolve {host}`: look the name up; report with `resolved(addresses)`.
//!    The addresses are checked against the policy after resolution, so a
//!    public name pointing at `127.0.0.1` is refused; literal addresses in
//!    URLs are checked without a lookup. A host allowed local addresses
//!    ([`FetchOptions::allowed_hosts`], at the port listed) gets them only
//!    as the URL the call gave, or through redirects among allowed hosts.
//! 2. `Request {url, address, port, headers}`: send the GET over a
//!    connection to exactly that address (the shell pins the lookup, so a
//!    second DNS answer cannot sneak in), without following redirects;
//!    report `response(status, headers)`. A redirect leads back to step 1
//!    for the new URL (checked again, counted against the bound).
//! 3. `Read`: undo the body's [`codings`](WebFetch::codings) (its
//!    `Content-Encoding`, every header and every coding of a chain such as
//!    `gzip, gzip`, last applied first undone; one the core cannot name, or
//!    more than [`MAX_CODINGS`], ends the fetch with a tool error that says
//!    so), then report each decoded `body(chunk)`, then `end()`. Past the
//!    cap the machine stops reading and answers `Done`; the shell aborts.
//! 4. `Decode {encoding}`: only for encodings the core does not decode
//!    (anything but UTF-8, UTF-16 and windows-1252): decode `body_bytes()`
//!    with `new TextDecoder(encoding)` and report `decoded(text)`.
//! 5. `Done(result)`: the `CallToolResult` JSON text, a success with the
//!    content as text and `structuredContent: {content, title, metadata}`,
//!    or a tool error (`isError`) that says what went wrong.
//!
//! `timed_out()` (one timer of `timeout_ms()` for the whole fetch) and
//! `failed(message)` (a network error) end it at any point.
//!
//! ```
//! use mcp_switchboard::web::{FetchAction, FetchOptions, WebFetch};
//! use serde_json::{json, Value};
//!
//! let mut fetch = WebFetch::new(&json!({"url": "https://example.com/docs"}), FetchOptions::new());
//! assert_eq!(fetch.timeout_ms(), 30_000);
//! let FetchAction::Resolve { host, .. } = fetch.start() else { panic!() };
//! assert_eq!(host, "example.com");
//! // the name resolves to a public address: connect there
//! let FetchAction::Request { address, headers, .. } = fetch.resolved(&["93.184.215.14".parse().unwrap()]) else { panic!() };
//! assert_eq!(address.to_string(), "93.184.215.14");
//! assert!(headers.iter().any(|(k, _)| k == "User-Agent"));
//! // a redirect to the same site, then the page
//! let to = vec![("Location".to_string(), "/docs/".to_string())];
//! assert!(matches!(fetch.response(301, &to), FetchAction::Resolve { .. }));
//! assert!(matches!(fetch.resolved(&["93.184.215.14".parse().unwrap()]), FetchAction::Request { .. }));
//! let html = vec![("Content-Type".to_string(), "text/html; charset=utf-8".to_string())];
//! assert_eq!(fetch.response(200, &html), FetchAction::Read);
//! assert_eq!(fetch.body(b"<title>Docs</title><h1>Hello</h1><p>World</p>"), FetchAction::Read);
//! let FetchAction::Done(result) = fetch.end() else { panic!() };
//! let result: Value = serde_json::from_str(&result)?;
//! assert_eq!(result["content"][0]["text"], "# Hello\n\nWorld");
//! assert_eq!(result["structuredContent"]["title"], "Docs");
//! assert_eq!(result["structuredContent"]["metadata"]["url"], "https://example.com/docs/");
//!
//! // a name that resolves to a private address is refused
//! let mut fetch = WebFetch::new(&json!({"url": "http://intranet.example/"}), FetchOptions::new());
//! fetch.start();
//! let FetchAction::Done(refused) = fetch.resolved(&["10.0.0.5".parse().unwrap()]) else { panic!() };
//! assert!(refused.contains("a private address") && refused.contains("\"isError\":true"));
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! The npm package's facade gives each action to JavaScript as an object
//! (`{kind: "resolve" | "request" | "read" | "decode" | "done", …}`) and
//! reads `[...response.headers]` back. A JavaScript shell for Node is then
//! a loop over the actions (sketch):
//!
//! ```js
//! const f = new WebFetch(args, options);            // wasm export
//! const timer = setTimeout(() => (done = f.timedOut()), f.timeoutMs());
//! let a = f.start(), res, reader;
//! while (a.kind !== 'done') {
//!   if (a.kind === 'resolve') {
//!     try { a = f.resolved((await dns.lookup(a.host, { all: true })).map((r) => r.address)); }
//!     catch (e) { a = f.resolveFailed(e.message); }
//!   } else if (a.kind === 'request') {
//!     const agent = new undici.Agent({ connect: { lookup: (_h, _o, cb) => cb(null, [{ address: a.address, family: a.address.includes(':') ? 6 : 4 }]) } });
//!     try { res = await fetch(a.url, { headers: a.headers, redirect: 'manual', dispatcher: agent, signal });
//!           a = f.response(res.status, [...res.headers]); reader = res.body?.getReader(); }
//!     catch (e) { a = f.failed(e.message); }
//!   } else if (a.kind === 'read') {
//!     const { done, value } = await reader.read();
//!     a = done ? f.end() : f.body(value);
//!   } else if (a.kind === 'decode') {
//!     try { a = f.decoded(new TextDecoder(a.encoding).decode(f.bodyBytes())); } catch { a = f.decodeFailed(); }
//!   }
//! }
//! clearTimeout(timer); controller.abort(); return JSON.parse(a.result);
//! ```
//!
//! In a browser the shell cannot resolve names or pin addresses; it can
//! answer `Resolve` with the literal host check alone, and CORS limits
//! what pages it can read anyway.
//!
//! ## `web_search`
//!
//! [`WebSearch::new`] checks `{query, num_results?, type?, livecrawl?,
//! context_max_chars?}` and builds the JSON-RPC `tools/call` for the
//! service in [`SearchServiceOptions`] (Exa's public MCP endpoint and its
//! `web_search_exa` tool by default). The shell POSTs [`WebSearch::body`]
//! with [`WebSearch::headers`] to [`WebSearch::url`], waits at most
//! [`WebSearch::timeout_ms`] (25 s), and hands the reply to
//! [`WebSearch::reply`], which reads JSON or an SSE stream, maps JSON-RPC
//! errors, HTTP failures and the service's own tool errors to clear tool
//! errors, and writes the results as numbered, citable entries.
//!
//! ```
//! use mcp_switchboard::web::{SearchServiceOptions, WebSearch};
//! use serde_json::{json, Value};
//!
//! let search = WebSearch::new(&json!({"query": "storm warning tonight", "num_results": 2}),
//!                             &SearchServiceOptions::new()).unwrap();
//! assert_eq!(search.url(), "https://mcp.exa.ai/mcp");
//! let request: Value = serde_json::from_str(search.body())?;
//! assert_eq!(request["params"]["name"], "web_search_exa");
//! assert_eq!(request["params"]["arguments"]["numResults"], 2);
//!
//! let text = "Title: Amber warning\nURL: https://news.example.org/a\nPublished: 2025-11-19\nAuthor: N/A\nHighlights:\nGusts up to 110 km/h tonight.";
//! let reply = format!("event: message\ndata: {}\n\n",
//!     json!({"jsonrpc": "2.0", "id": request["id"], "result": {"content": [{"type": "text", "text": text}]}}));
//! let result: Value = serde_json::from_str(&search.reply(200, "text/event-stream", &reply))?;
//! assert_eq!(result["content"][0]["text"],
//!     "Results for \"storm warning tonight\":\n\n1. Amber warning\n   https://news.example.org/a\n   Published 2025-11-19\n   Gusts up to 110 km/h tonight.");
//! assert_eq!(result["structuredContent"]["results"][0]["url"], "https://news.example.org/a");
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! The shell for it is one request: with `r = JSON.parse(search.requestJson())`
//! ([`WebSearch::request_json`]), `fetch(r.url, {method: 'POST', headers:
//! r.headers, body: r.body, signal: AbortSignal.timeout(r.timeoutMs)})`,
//! then `search.reply(res.status, res.headers.get('content-type') ?? '',
//! await res.text())`, or `search.timedOut()` / `search.failed(e.message)`.

pub(crate) mod addr;
pub(crate) mod charset;
mod fetch;
mod search;
mod tools;
pub(crate) mod url;

pub use addr::{classify, AddressClass, AddressPolicy};
pub use charset::{
    charset_param, decode, decodes, encoding_for_label, sniff_charset, Charset, CharsetSource,
};
pub use fetch::{
    Coding, FetchAction, FetchArguments, FetchFormat, FetchOptions, WebFetch, MAX_CODINGS,
};
pub use search::{SearchArguments, SearchResult, SearchServiceOptions, WebSearch};
pub use tools::{
    is_web_tool, merge_web_tools, web_fetch_tool, web_search_tool, web_tools_metadata, WebTools,
    WEB_FETCH, WEB_SEARCH,
};
pub use url::{Host, Url, UrlError, MAX_URL_LEN};
