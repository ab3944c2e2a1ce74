//! # mcp-switchboard
//!
//! Connects LLMs to MCP tools. Smart-home MCP servers (Home Assistant, Homey)
//! expose dozens to hundreds of tools; this crate puts them in front of any
//! model API:
//!
//! * **Dialects.** [`convert`] turns an MCP `tools/list` into exactly what
//!   goes into a model API's `tools` field: Gemini (`parameters` or
//!   `parametersJsonSchema`), OpenAI Chat Completions and Responses (strict
//!   or not), Anthropic, VS Code, or a system prompt for models without
//!   function calling. JSON Schema is lowered to what each API accepts, one
//!   rule at a time, and **every** keyword dropped, rewritten or moved into
//!   the description is listed in the [`ReportEntry`] report with its JSON
//!   Pointer.
//! * **Names.** Each dialect's name rule is applied, long names are
//!   shortened with a stable hash, collisions are resolved, and a
//!   [`NameMap`] maps the model's names back to MCP names.
//! * **Lint.** [`lint`] says, per tool, what will go wrong where, and what
//!   each tool costs in tokens per dialect.
//!
//! The core does no I/O and has no clock or randomness: bytes in, values
//! out. The same code runs natively and as WebAssembly (the npm package).
//!
//! ## Reading a catalog
//!
//! [`Catalog::parse`] reads a `tools/list` response, its bare `result`, a
//! bare array of tools, a single tool, or several pages (an array of them,
//! or JSON documents one after the other). Every field of a tool is kept.
//! A malformed tool is skipped and reported with its pointer; the others
//! are read.
//!
//! ```
//! use mcp_switchboard::{Action, Catalog};
//!
//! let input = br#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [
//!     {"name": "set_light", "description": "Turn a light on or off",
//!      "inputSchema": {"type": "object", "properties": {"on": {"type": "boolean"}}}},
//!     {"description": "a tool without a name"}
//! ]}}"#;
//! let catalog = Catalog::parse(input)?;
//! assert_eq!(catalog.len(), 1);
//! assert_eq!(catalog.report()[0].pointer, "/result/tools/1");
//! assert_eq!(catalog.report()[0].action, Action::Skipped);
//! # Ok::<(), mcp_switchboard::Error>(())
//! ```
//!
//! ## Converting to a dialect
//!
//! ```
//! use mcp_switchboard::{convert, Catalog, Dialect, Options};
//! use serde_json::json;
//!
//! let catalog = Catalog::parse(br#"[{"name": "HassLightSet",
//!     "description": "Sets the brightness of a light",
//!     "inputSchema": {"type": "object", "properties": {
//!         "name": {"type": ["string", "null"]},
//!         "brightness": {"type": "integer", "minimum": 0, "maximum": 100, "multipleOf": 5}}}}]"#)?;
//!
//! let gemini = convert(&catalog, Dialect::Gemini, &Options::default());
//! let decl = &gemini.tools[0]["functionDeclarations"][0];
//! assert_eq!(decl["parameters"]["properties"]["name"], json!({"type": "STRING", "nullable": true}));
//! // Gemini has no multipleOf: it moves into the description, and the report says so
//! assert_eq!(decl["parameters"]["properties"]["brightness"]["description"], "Must be a multiple of 5.");
//! assert!(gemini.report.iter().any(|e| e.pointer == "/0/inputSchema/properties/brightness/multipleOf"));
//!
//! // OpenAI strict mode: every property required, the optional ones nullable
//! let openai = convert(&catalog, Dialect::OpenAi, &Options::strict(true));
//! let params = &openai.tools[0]["function"]["parameters"];
//! assert_eq!(params["required"], json!(["name", "brightness"]));
//! assert_eq!(params["properties"]["brightness"]["type"], json!(["integer", "null"]));
//! assert_eq!(params["additionalProperties"], false);
//! # Ok::<(), mcp_switchboard::Error>(())
//! ```
//!
//! ## What a dialect cannot say
//!
//! Nothing goes out that the API refuses, and every place where a call the
//! tool accepts can no longer be made is a [`Action::Narrowed`] report
//! entry. Gemini, for one, refuses an object without declared properties:
//! a map goes as JSON text, and reading the call turns it back into the
//! object.
//!
//! ```
//! use mcp_switchboard::{convert, parse_calls, Action, Catalog, Dialect, Options};
//! use serde_json::json;
//!
//! let catalog = Catalog::parse(br#"[{"name": "call_service", "inputSchema": {"type": "object",
//!     "properties": {"data": {"type": "object", "additionalProperties": true},
//!                    "value": {"description": "any JSON value; null clears it"}}}}]"#)?;
//! let gemini = convert(&catalog, Dialect::Gemini, &Options::default());
//! let params = &gemini.tools[0]["functionDeclarations"][0]["parameters"];
//! assert_eq!(params["properties"]["data"]["type"], "STRING");
//! // an untyped value keeps null, but cannot take objects here: the report says so
//! assert_eq!(params["properties"]["value"]["nullable"], true);
//! assert!(gemini.report.iter().any(|e| e.action == Action::Narrowed
//!     && e.pointer == "/0/inputSchema/properties/value/type"));
//!
//! let response = json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {
//!     "name": "call_service", "args": {"data": "{\"temperature\": 21.5}", "value": null}}}]}}]});
//! let turn = parse_calls(Dialect::Gemini, &response, &gemini.names, Some(&catalog))?;
//! assert_eq!(turn.calls[0].arguments, json!({"data": {"temperature": 21.5}, "value": null}));
//! # Ok::<(), mcp_switchboard::Error>(())
//! ```
//!
//! ## Names
//!
//! ```
//! use mcp_switchboard::{convert, Catalog, Dialect, Options};
//!
//! let catalog = Catalog::parse(br#"[{"name": "admin.tools.list", "inputSchema": {"type": "object"}}]"#)?;
//! let c = convert(&catalog, Dialect::Anthropic, &Options::default());
//! assert_eq!(c.names.dialect_name("admin.tools.list"), Some("admin_tools_list"));
//! assert_eq!(c.names.mcp_name("admin_tools_list"), Some("admin.tools.list"));
//! # Ok::<(), mcp_switchboard::Error>(())
//! ```
//!
//! ## Errors
//!
//! Bad input never panics. Whole-input problems are an [`Error`] with an
//! [`ErrorKind`] and a JSON Pointer; problems inside one tool become report
//! entries and the rest of the catalog still converts. A call made in the
//! wrong state (an invocation answered twice, a turn sent while one runs)
//! is a usage error that says what was misused ([`Error::misuse`],
//! [`Misuse`]). Nesting is bounded
//! (JSON at 128 levels, schemas at 40), `$ref` recursion is unrolled a few
//! levels and then cut, and a schema that expands past 50,000 nodes is
//! skipped with a report entry.
//!
//! ```
//! use mcp_switchboard::{Catalog, ErrorKind};
//!
//! let err = Catalog::parse(b"{\"tools\": [").unwrap_err();
//! assert_eq!(err.kind(), ErrorKind::Json);
//! assert!(err.to_string().contains("line 1"));
//! ```
//!
//! # The parts
//!
//! The crate root holds the conversion API above. Everything else lives in
//! a module whose page is its manual:
//!
//! | module | what it does |
//! |---|---|
//! | [`dialect`] | one file per model API: tools out ([`convert`]), calls in ([`parse_calls`]), results back ([`format_results`]) |
//! | [`lower`] | one file per schema-lowering rule, and the fast path that writes plain schemas straight from their text |
//! | [`validate`](mod@validate) | call arguments against the tool's real JSON Schema, with coercion ([`validate::Validator`] for many calls) |
//! | [`search`] | ranked tool search in English, Dutch, German and French ([`search::ToolIndex`]) |
//! | [`conversation`] | the model ⇄ MCP loop, sans I/O, for every model API ([`conversation::Conversation`]) |
//! | [`engine`] | the MCP server engine, sans I/O, with progressive disclosure ([`engine::Engine`], [`engine::Mode`]) |
//! | [`http`] | the Streamable HTTP rules and the session table ([`http::Gate`]) |
//! | [`client`] | the upstream MCP client, sans I/O ([`client::UpstreamClient`]) |
//! | [`web`], [`html`] | the `web_fetch` and `web_search` tools, sans I/O, and HTML to Markdown |
//!
//! # Run loops
//!
//! Every state machine here is driven the same way: the host feeds in what
//! happened (a message, a response, the time), then drains what to do
//! until nothing is left; every output names what it answers (a request
//! id, a channel, an exchange, a call), so the host routes by those and
//! never by the order of outputs. Polls are `#[must_use]`.
//!
//! **[`engine::Engine`]** (one per server; the gateway, stdio and the Homey
//! app drive it):
//!
//! ```
//! use mcp_switchboard::engine::{Engine, EngineConfig, Output};
//! use mcp_switchboard::Catalog;
//! use serde_json::json;
//!
//! let catalog = Catalog::parse(br#"[{"name": "get_state", "inputSchema": {"type": "object"}}]"#)?;
//! let mut engine = Engine::new(catalog, EngineConfig::default());
//! let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
//!                   "params": {"name": "get_state", "arguments": {}}});
//! let owed = engine.handle(&call.to_string()); // true: a reply will come
//! assert!(owed);
//! while let Some(output) = engine.poll_output() {
//!     match output {
//!         // run the real tool (the host's I/O), then report its result
//!         Output::Invoke(inv) => engine.complete(inv.id, &json!({"content": []}))?,
//!         // write these to the client of `reply.channel`, in reply to `reply.to`
//!         Output::Reply(reply) => assert_eq!(reply.to, json!(1)),
//!         _ => {}
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **[`http::Gate`]** (one per HTTP listener): each request's verdict
//! from [`http::Gate::request`] with the time, then the events it raised
//! ([`http::Gate::poll_event`]: sessions opened, expired, lock-outs) for
//! the log; [`http::Gate::sweep`] with the time ends idle sessions.
//!
//! **[`client::UpstreamClient`]** (one per upstream server):
//! [`client::UpstreamClient::connect`], then drain
//! [`client::UpstreamClient::poll_output`]: `Send` an HTTP request (feed
//! its status, body chunks and end back, tagged by exchange), `Spawn` and
//! `Write` for stdio, `Done` / `Failed` for a call; arm one timer at
//! [`client::UpstreamClient::poll_timeout`] and call
//! [`client::UpstreamClient::handle_timeout`] when it fires.
//!
//! **[`conversation::Conversation`]** (one per chat with a model):
//! [`conversation::Conversation::send`] the user's text with the time,
//! then drain [`conversation::Conversation::poll_output`]: `Request` (send
//! it to the model; feed its status, body chunks and end back with
//! `handle_response`, `handle_body`, `handle_end`, tagged by its id),
//! `Text` as it streams, `Call` (run the MCP tool; report with
//! `complete_call` or `fail_call`), `Retry` (call `handle_timeout` at its
//! time), and `Done` with the answer, the calls and the usage.
//!
//! **[`web::WebFetch`]**: every input returns the next
//! [`web::FetchAction`] (resolve this name, request this URL over a
//! connection to this address, read on, decode, done).
//!
//! # Design
//!
//! * **No I/O, no clock, no randomness in the core.** Bytes and values in,
//!   values out. Wherever time matters the caller passes `now` (in
//!   milliseconds of a clock of its choosing) and asks when to wake
//!   (`poll_timeout`); the core never reads a clock and never sleeps.
//!   Session ids, request ids and tokens come from the host.
//! * **The host only does I/O.** The JS shell (the gateway, the upstream
//!   connection, the web tools, the Homey app) opens sockets, sends HTTP,
//!   reads files and arms the one timer the core asks for. Decisions about
//!   schemas, search, the protocol, a model API's wire format, timeouts and
//!   error codes are made here, so they are the same in every host.
//! * **Only `wasm` (not public) knows JavaScript.** It is the one module
//!   that uses wasm-bindgen; everything else is plain Rust that runs
//!   natively too, and is tested natively.
//! * **Bad input never panics.** Input paths have no `unwrap`, `expect` or
//!   indexing (clippy denies the first two outside tests), recursion and
//!   sizes are bounded ([`Limits`]), and work is linear in the input. The
//!   fuzz targets check it.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod call;
mod catalog;
pub mod client;
pub mod conversation;
pub mod dialect;
pub mod engine;
mod error;
pub mod html;
mod lenient;
mod lint;
pub mod lower;
mod names;
mod pointer;
mod provider;
mod rawjson;
mod report;
mod results;
pub mod search;
mod text;
mod tokens;
pub mod validate;
#[cfg(feature = "js")]
mod wasm;
pub mod web;

#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;

pub use call::{
    tools_call_request, Call, ModelTurn, Search, MAX_ARGUMENT_BYTES, MAX_CALLS, MAX_SIGNATURE_BYTES,
};
pub use catalog::{Catalog, Limits, Tool};
pub use dialect::{
    convert, convert_json, convert_text, format_results, parse_calls, visible_tokens, Conversion,
    Dialect, DisclosureMode, Options, SearchWith,
};
pub use engine::http;
pub use engine::{budget, Budget};
pub use error::{Error, ErrorKind, Misuse};
pub use lint::{lint, Finding, LintReport, Severity, ToolLint};
pub use names::NameMap;
pub use provider::Provider;
pub use report::{Action, ReportEntry};
pub use results::{
    tool_exception, tool_failure, tool_failure_json, tool_success, tool_success_json,
};
pub use search::{
    EntityIndex, EntityKind, EntityMatch, Explanation, Fallback, Hit, HitExplanation, Reading,
    Resolution, ResolveOptions, SearchOptions, SearchResults, TermContribution, TermGroup,
    ToolIndex, WeightedTerm,
};
pub use tokens::estimate_tokens;
pub use validate::{validate, validate_arguments, ArgumentError, Coercion, Validation, Validator};
