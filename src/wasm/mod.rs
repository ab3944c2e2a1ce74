//! The WebAssembly facade: the only module that knows about JavaScript.
//!
//! Inputs arrive as a string, a `Uint8Array` (bytes, checked for UTF-8 in
//! Rust) or a plain value (serialised with `JSON.stringify`); outputs leave
//! as plain objects (JSON text parsed by `JSON.parse`). Failures throw an
//! `Error` whose `code` is the [`ErrorKind`] code and whose `pointer` is the
//! JSON Pointer of the offending value.
//!
//! One file per area: `catalog` (reading, converting, linting), `calls`
//! (model calls and tool results), `validate`, `search` (the tool index and
//! token budgets), `engine` (the MCP engine), `http` (the gateway's HTTP
//! rules), `client` (the upstream client: its state machine and the
//! decisions it is built from) and `web` (the web tools' state machines,
//! HTML conversion, the tool definitions).
//!
//! Features choose the areas: `js` compiles `catalog`, `calls`,
//! `validate`, `search` and `conversation` (the npm package's default
//! module); `full` adds `engine`, `http` and `client` (the npm package's
//! `mcp-switchboard/full`, which the gateway runs on).
//!
//! The web tools are a module of their own: `web` is compiled with the
//! feature `web` (beside the other areas), and the feature `web-module`
//! builds a module with the web tools alone (the npm package's
//! `mcp-switchboard/web`), which keeps the default module small.
//!
//! # Declaring an export
//!
//! The TypeScript declarations of this module are the one description of
//! the JS API. The npm build (`js/build.mjs`) derives from them the checks
//! that run on every argument before a call enters the module, so a value
//! of the wrong type is a `TypeError` (code `"usage"`) and never reaches
//! the glue code, where it would trap. So:
//!
//! * a parameter is a `&str`, a number, a `bool`, an `Option` of those, or
//!   a `JsValue` given its TypeScript type with `unchecked_param_type`
//!   (`unchecked_optional_param_type` when it may be left out);
//! * an options object is a struct deriving `Deserialize` and `Tsify`, so
//!   its decoding and its TypeScript interface come from the same fields;
//!   it is taken as `Option<Ts<T>>` and read with [`options`];
//! * a function whose TypeScript signature is generic over the dialect is
//!   marked `skip_typescript` and declared in its area's TypeScript text
//!   (`typescript_custom_section`) next to it;
//! * outputs are declared in the area's TypeScript text, or derived with
//!   `Tsify` where this module builds them; the consumer test
//!   (`tests/js/consumer.test.mjs`) compiles real outputs against the
//!   declarations with `tsc --strict`, and the dialect items against the
//!   model SDKs' own types.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[cfg(not(feature = "web-module"))]
use crate::Dialect;
use crate::{Catalog, Error, ErrorKind, Limits};

// The web module (feature `web-module`) has the web tools' exports alone.
#[cfg(not(feature = "web-module"))]
mod calls;
#[cfg(not(feature = "web-module"))]
mod catalog;
#[cfg(all(feature = "full", not(feature = "web-module")))]
mod client;
#[cfg(not(feature = "web-module"))]
mod conversation;
#[cfg(all(feature = "full", not(feature = "web-module")))]
mod engine;
#[cfg(all(feature = "full", not(feature = "web-module")))]
mod http;
#[cfg(all(feature = "full", not(feature = "web-module")))]
mod http_modern;
#[cfg(not(feature = "web-module"))]
mod search;
#[cfg(not(feature = "web-module"))]
mod validate;
#[cfg(feature = "web")]
mod web;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** An error thrown by this package: `code` says what kind, `pointer` where (a JSON Pointer into the input, or ""). A wrong argument type is a `TypeError` with code "usage". */
export interface SwitchboardError extends Error {
  code: "json" | "shape" | "upstream" | "limit" | "usage";
  pointer: string;
  /** On a usage error from a call made in the wrong state or with the wrong thing: what was misused. */
  misuse?: "unknown" | "not_outstanding" | "busy" | "closed" | "wrong_era" | "wrong_kind" | "undeclared" | "not_a_client_request" | "progress_backwards" | "bad_params" | "bad_name" | "needs_token";
}
/** Any JSON Schema, as an object. */
export type JsonSchema = { [keyword: string]: unknown };
/** Progressive disclosure: every tool, core tools plus the meta-tools, the meta-tools alone, or hybrid when the list would take too much of the context. */
export type Mode = "all" | "hybrid" | "meta" | "auto";
"#;

/// Turns a crate error into a thrown JS `Error` with `code` and `pointer`.
pub(crate) fn js_error(e: &Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let obj: &JsValue = err.as_ref();
    let _ = js_sys::Reflect::set(obj, &"code".into(), &e.kind().code().into());
    let _ = js_sys::Reflect::set(obj, &"pointer".into(), &e.pointer().into());
    if let Some(m) = e.misuse() {
        let _ = js_sys::Reflect::set(obj, &"misuse".into(), &m.code().into());
    }
    err.into()
}

/// A usage error (code `"usage"`) with `msg`.
pub(crate) fn usage(msg: &str) -> JsValue {
    js_error(&Error::new(ErrorKind::Usage, "", msg))
}

/// The most characters (or bytes) of text one input may carry into the
/// module: the catalog reader's default limit.
fn input_limit() -> usize {
    Limits::default().max_input_bytes
}

/// [`input_limit`] for the npm build, which checks strings and byte arrays
/// against it before they are copied into the module.
#[wasm_bindgen(js_name = "__inputLimit", skip_typescript)]
pub fn input_limit_js() -> f64 {
    input_limit() as f64
}

/// The error for `what` when it holds more than [`input_limit`].
fn too_large(what: &str, len: usize) -> JsValue {
    js_error(&Error::new(
        ErrorKind::Limit,
        "",
        format!(
            "{what} is {len} characters long; the limit is {}",
            input_limit()
        ),
    ))
}

/// A JS string as Rust text, refused before copying when past the limit.
pub(crate) fn string_of(s: &JsValue, what: &str) -> Result<String, JsValue> {
    let len = s.unchecked_ref::<js_sys::JsString>().length() as usize;
    if len > input_limit() {
        return Err(too_large(what, len));
    }
    Ok(s.as_string().unwrap_or_default())
}

/// `JSON.stringify(input)` as a JS string: `None` for a value with no JSON
/// form (`undefined`, a function, a symbol).
pub(crate) fn stringify_js(input: &JsValue, what: &str) -> Result<Option<JsValue>, JsValue> {
    let text = js_sys::JSON::stringify(input).map_err(|_| {
        usage(&format!(
            "{what} cannot be turned into JSON (is it cyclic, or does it hold a BigInt?)"
        ))
    })?;
    Ok(text.is_string().then(|| text.into()))
}

/// `JSON.stringify(input)` as Rust text: `None` for a value with no JSON
/// form (`undefined`, a function, a symbol).
pub(crate) fn stringify(input: &JsValue, what: &str) -> Result<Option<String>, JsValue> {
    match stringify_js(input, what)? {
        Some(text) => string_of(&text, what).map(Some),
        None => Ok(None),
    }
}

/// JSON text: a string as it is, any other value written by
/// `JSON.stringify` (`undefined` as `null`).
pub(crate) fn read_text(input: &JsValue, what: &str) -> Result<String, JsValue> {
    if input.is_string() {
        return string_of(input, what);
    }
    if input.is_undefined() {
        return Ok("null".to_string());
    }
    stringify(input, what)?.ok_or_else(|| {
        usage(&format!(
            "{what} cannot be turned into JSON (a function or a symbol has no JSON form)"
        ))
    })
}

/// An error for text in `what` that is not JSON.
pub(crate) fn json_error(e: &Error, what: &str) -> JsValue {
    js_error(&Error::new(
        e.kind(),
        "",
        format!("{what}: {}", e.message()),
    ))
}

/// A JSON value from JSON text or a plain value.
pub(crate) fn read_value(input: &JsValue, what: &str) -> Result<Value, JsValue> {
    let text = read_text(input, what)?;
    serde_json::from_str(&text).map_err(|e| json_error(&Error::json(&e), what))
}

/// Reads a catalog from a string, bytes or a plain value.
pub(crate) fn read_catalog(input: &JsValue) -> Result<Catalog, JsValue> {
    Catalog::parse(&read_catalog_text(input)?).map_err(|e| js_error(&e))
}

/// A catalog's JSON text from a string, bytes or a plain value (written by
/// `JSON.stringify`).
pub(crate) fn read_catalog_text(input: &JsValue) -> Result<Vec<u8>, JsValue> {
    if let Some(bytes) = input.dyn_ref::<js_sys::Uint8Array>() {
        let len = bytes.length() as usize;
        if len > input_limit() {
            return Err(too_large("the catalog", len));
        }
        return Ok(bytes.to_vec());
    }
    if input.is_string() {
        return string_bytes(input, "the catalog");
    }
    if input.is_object() {
        return match stringify_js(input, "the catalog")? {
            Some(text) => string_bytes(&text, "the catalog"),
            None => Err(usage(
                "the catalog cannot be turned into JSON (a function or a symbol has no JSON form)",
            )),
        };
    }
    Err(usage(
        "the catalog must be a JSON string, a Uint8Array or an object",
    ))
}

#[wasm_bindgen]
extern "C" {
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method)]
    fn encode(this: &TextEncoder, text: &js_sys::JsString) -> js_sys::Uint8Array;
    /// Encodes as much of `text` as fits straight into `into` (module
    /// memory, no copy in between).
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, text: &js_sys::JsString, into: &mut [u8]) -> Encoded;

    /// What `encodeInto` did.
    type Encoded;
    /// Code units read.
    #[wasm_bindgen(method, getter)]
    fn read(this: &Encoded) -> u32;
    /// Bytes written.
    #[wasm_bindgen(method, getter)]
    fn written(this: &Encoded) -> u32;
}

/// A JS string as UTF-8 bytes, in room of their exact size. The ASCII
/// head of the string (all of most catalogs) is encoded straight into the
/// module's memory, one byte per code unit; what follows the first
/// character past ASCII is encoded outside the module and copied in.
/// (wasm-bindgen's own copy goes through the string one code unit at a
/// time in JS, and makes room for three bytes per code unit once it meets
/// a character past ASCII, which for a catalog of 11 MB is 33 MB of memory
/// that the module then keeps.) Lone surrogates become U+FFFD either way.
pub(crate) fn string_bytes(s: &JsValue, what: &str) -> Result<Vec<u8>, JsValue> {
    let s = s.unchecked_ref::<js_sys::JsString>();
    let len = s.length() as usize;
    if len > input_limit() {
        return Err(too_large(what, len));
    }
    let encoder = TextEncoder::new();
    let mut bytes = vec![0u8; len];
    let done = encoder.encode_into(s, &mut bytes);
    let (read, written) = (done.read(), done.written() as usize);
    bytes.truncate(written);
    if (read as usize) < len {
        let rest = encoder.encode(&s.slice(read, len as u32));
        let at = bytes.len();
        bytes.reserve_exact(rest.length() as usize);
        bytes.resize(at + rest.length() as usize, 0);
        rest.copy_to(bytes.get_mut(at..).unwrap_or_default());
    }
    Ok(bytes)
}

#[wasm_bindgen]
extern "C" {
    /// `new Function(arg, body)`; throws (caught) where a content security
    /// policy forbids it.
    #[wasm_bindgen(js_name = Function, catch)]
    pub(crate) fn new_function(arg: &str, body: &str) -> Result<js_sys::Function, JsValue>;
}

#[cfg(not(feature = "web-module"))]
#[wasm_bindgen]
extern "C" {
    /// A function of bytes.
    #[wasm_bindgen(js_name = Function)]
    type Reader;

    /// The function called on a view of `bytes` (not a copy).
    #[wasm_bindgen(method, js_name = call, catch)]
    fn read(this: &Reader, this_arg: &JsValue, bytes: &[u8]) -> Result<JsValue, JsValue>;
}

/// The body of the function reading bytes `b` as Latin-1 with Node's
/// `Buffer` (where there is none, it throws and is caught).
#[cfg(not(feature = "web-module"))]
const LATIN1: &str = "return Buffer.prototype.latin1Slice.call(b)";

/// JSON text as a JS string, in ASCII ([`rawjson::ascii`]): in Node read
/// from its bytes as Latin-1 by `Buffer` (a copy, about ten times faster
/// than decoding UTF-8 for a megabyte of text), elsewhere decoded by the
/// glue.
#[cfg(not(feature = "web-module"))]
pub(crate) fn json_string(text: String) -> JsValue {
    let text = crate::rawjson::ascii(text);
    // the function is made for each text (a few microseconds); it reads
    // the bytes where they lie in the module's memory
    new_function("b", LATIN1)
        .and_then(|f| {
            f.unchecked_into::<Reader>()
                .read(&JsValue::NULL, text.as_bytes())
        })
        .unwrap_or_else(|_| JsValue::from_str(&text))
}

/// An options object decoded into its struct; absent (`undefined` or
/// `null`) gives the defaults.
pub(crate) fn options<T>(value: Option<Ts<T>>, what: &str) -> Result<T, JsValue>
where
    T: Tsify + DeserializeOwned + Default,
{
    match value {
        None => Ok(T::default()),
        Some(v) => T::from_js(v.js_value()).map_err(|e| usage(&format!("bad {what}: {e}"))),
    }
}

/// A dialect by name.
#[cfg(not(feature = "web-module"))]
pub(crate) fn read_dialect(d: &str) -> Result<Dialect, JsValue> {
    d.parse().map_err(|e: Error| js_error(&e))
}

/// Serialises a value to a JS object through JSON text (fast for large outputs).
pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| usage(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}

/// A JS object frozen with the objects and arrays it holds one level
/// down: an answer made once and handed out many times, which no caller
/// can change under the next.
#[cfg(all(feature = "full", not(feature = "web-module")))]
pub(crate) fn frozen(value: JsValue) -> JsValue {
    if let Some(object) = value.dyn_ref::<js_sys::Object>() {
        for inner in js_sys::Object::values(object).iter() {
            if let Some(inner) = inner.dyn_ref::<js_sys::Object>() {
                js_sys::Object::freeze(inner);
            }
        }
        js_sys::Object::freeze(object);
    }
    value
}

/// Milliseconds (or a count) from JS (`Date.now()`, `performance.now()`):
/// negative or not a number reads as 0.
#[cfg(not(feature = "web-module"))]
pub(crate) fn millis(ms: f64) -> u64 {
    if ms.is_finite() && ms > 0.0 {
        ms as u64
    } else {
        0
    }
}

/// The key under which a conversion carries its catalog (not enumerable:
/// `JSON.stringify` and spreading leave it out).
#[cfg(not(feature = "web-module"))]
pub(crate) fn catalog_key() -> JsValue {
    js_sys::Symbol::for_("mcp-switchboard.catalog").into()
}

/// The package version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
