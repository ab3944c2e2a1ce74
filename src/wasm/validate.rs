//! Argument validation with coercion.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::{json_error, read_catalog, read_value, string_of, stringify, stringify_js, usage};
use crate::{validate_arguments, Error, Validator};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** One problem with arguments. */
export interface ArgumentError { pointer: string; keyword: string; message: string }
/** The result of validateArguments() and Validator.validate(). */
export interface Validation {
  valid: boolean;
  /** The arguments after coercion. */
  arguments: unknown;
  coercions: Coercion[];
  errors: ArgumentError[];
  /** Every error in one text a model can act on. */
  message: string;
}
/** The result of validateValue(). */
export interface ValueValidation {
  valid: boolean;
  errors: ArgumentError[];
  /** Every error in one text, e.g. "/brightness: must be an integer from 0 to 100; got 150." */
  message: string;
}
"#;

/// Arguments from JS: JSON text or a value; absent is `{}`.
fn read_arguments(args: &JsValue) -> Result<Value, JsValue> {
    if args.is_undefined() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    read_value(args, "the arguments")
}

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of a JS string (no copy out of the module).
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn parse_js_string(text: &js_sys::JsString) -> Result<JsValue, JsValue>;

}

#[wasm_bindgen]
extern "C" {
    /// A JS string, for its methods.
    #[wasm_bindgen(js_name = String)]
    type Text;

    /// `head.concat(middle, tail)`: three strings joined in one call.
    #[wasm_bindgen(method, js_name = concat)]
    fn concat(head: &Text, middle: &JsValue, tail: &JsValue) -> js_sys::JsString;
}

/// The body of the function building a valid unchanged call's result from
/// `JSON.stringify`'s text `s`: the same keys, in the same order, as the
/// text `HEAD + s + valid_tail` parses to.
const VALID_RESULT: &str =
    "return {arguments: JSON.parse(s), coercions: [], errors: [], valid: true, message: \"\"}";

#[wasm_bindgen]
extern "C" {
    /// A JS `Map` from each tool's name to its place in the list of names.
    #[wasm_bindgen(js_name = Map)]
    type Places;

    /// The place of a tool's name (the name read in JS: not copied into
    /// the module).
    #[wasm_bindgen(method, js_name = get)]
    fn place(this: &Places, name: &JsValue) -> Option<u32>;
}

/// `head`, `middle` and `tail` joined (one call into JS, no string in
/// between).
fn join3(head: &js_sys::JsString, middle: &JsValue, tail: &js_sys::JsString) -> js_sys::JsString {
    head.unchecked_ref::<Text>().concat(middle, tail)
}

/// The text of a result before its arguments.
const HEAD: &str = "{\"arguments\":";

/// A validation as a JS object, with `valid` and `message`, written as JSON
/// text directly (no value tree in between).
fn validation_js(v: &crate::Validation) -> Result<JsValue, JsValue> {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(HEAD.as_bytes());
    write_json(&mut out, &v.arguments);
    let mut text = String::from_utf8(out).unwrap_or_default();
    text.push_str(&tail_text(v));
    js_sys::JSON::parse(&text)
}

/// The text of a result after its arguments, written directly (the
/// errors and the message are most of it).
fn tail_text(v: &crate::Validation) -> String {
    if v.coercions.is_empty() {
        return errors_tail(&v.errors);
    }
    let mut bytes = Vec::with_capacity(64 + verdict_len(&v.errors));
    bytes.extend_from_slice(b",\"coercions\":");
    write_json(&mut bytes, &v.coercions);
    // serde_json writes UTF-8 only
    let mut out = String::from_utf8(bytes).unwrap_or_default();
    push_verdict(&mut out, &v.errors);
    out
}

/// The text of a result after its arguments when nothing was coerced.
fn errors_tail(errors: &[crate::ArgumentError]) -> String {
    let mut out = String::with_capacity(verdict_len(errors));
    out.push_str(",\"coercions\":[]");
    push_verdict(&mut out, errors);
    out
}

/// About the length of the end of a result written for `errors` (each
/// message is written twice), to size its buffer once.
fn verdict_len(errors: &[crate::ArgumentError]) -> usize {
    let each: usize = errors
        .iter()
        .map(|e| 2 * (e.pointer.len() + e.message.len()) + e.keyword.len() + 48)
        .sum();
    each + 64
}

/// The end of a result: its errors, whether it is valid, its message.
fn push_verdict(out: &mut String, errors: &[crate::ArgumentError]) {
    out.push_str(",\"errors\":");
    push_errors(out, errors);
    out.push_str(if errors.is_empty() {
        ",\"valid\":true,\"message\":"
    } else {
        ",\"valid\":false,\"message\":"
    });
    push_message(out, errors);
    out.push('}');
}

/// The message of `errors` written as a JSON string, piece by piece.
fn push_message(out: &mut String, errors: &[crate::ArgumentError]) {
    out.push('"');
    crate::validate::message_pieces(errors, &mut |piece| push_escaped(out, piece));
    out.push('"');
}

/// Errors written as a JSON array onto the end of `out`.
fn push_errors(out: &mut String, errors: &[crate::ArgumentError]) {
    out.push('[');
    for (i, e) in errors.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"pointer\":");
        push_json_str(out, &e.pointer);
        out.push_str(",\"keyword\":");
        push_json_str(out, &e.keyword);
        out.push_str(",\"message\":");
        push_json_str(out, &e.message);
        out.push('}');
    }
    out.push(']');
}

/// The result the quick check found for the arguments' `text`: the text
/// with its edits made, the coercions, the errors.
fn quick_text(text: &str, q: &crate::validate::Quick) -> String {
    let mut out = String::with_capacity(text.len() + 160 * q.edits.len() + verdict_len(&q.errors));
    out.push_str(HEAD);
    crate::validate::splice(&mut out, text, &q.edits);
    out.push_str(",\"coercions\":[");
    for (i, e) in q.edits.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"pointer\":");
        push_json_str(&mut out, &e.pointer);
        out.push_str(",\"from\":");
        out.push_str(e.sent(text));
        out.push_str(",\"to\":");
        e.push_result(text, &mut out);
        out.push_str(",\"reason\":");
        push_json_str(&mut out, e.reason);
        out.push('}');
    }
    out.push(']');
    push_verdict(&mut out, &q.errors);
    out
}

/// A string written as JSON onto the end of `out`: the runs between
/// characters to escape copied whole.
fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    push_escaped(out, s);
    out.push('"');
}

/// A string's characters written as in a JSON string onto the end of
/// `out`: the runs between characters to escape copied whole.
fn push_escaped(out: &mut String, s: &str) {
    let mut rest = s;
    while let Some(i) = rest
        .bytes()
        .position(|b| b == b'"' || b == b'\\' || b < 0x20)
    {
        out.push_str(rest.get(..i).unwrap_or_default());
        match rest.as_bytes().get(i) {
            Some(b'"') => out.push_str("\\\""),
            Some(b'\\') => out.push_str("\\\\"),
            Some(&b) => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 15)]));
            }
            None => {}
        }
        rest = rest.get(i + 1..).unwrap_or_default();
    }
    out.push_str(rest);
}

/// A value written as JSON onto the end of `out` (serde_json fails only on
/// maps with keys that are not strings, which these types do not have).
fn write_json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    if serde_json::to_writer(&mut *out, value).is_err() {
        out.extend_from_slice(b"null");
    }
}

/// A value as it is (a string is a string, not JSON text); `undefined`, a
/// function or a symbol have no JSON form and are refused.
fn plain_value(input: &JsValue, what: &str) -> Result<Value, JsValue> {
    let text = stringify(input, what)?.ok_or_else(|| {
        usage(&format!(
            "{what} has no JSON form (undefined, a function or a symbol)"
        ))
    })?;
    serde_json::from_str(&text).map_err(|e| usage(&format!("{what}: {e}")))
}

/// Coerces and validates arguments against a tool (or a bare schema).
#[wasm_bindgen(js_name = validateArguments, unchecked_return_type = "Validation")]
pub fn validate_arguments_js(
    #[wasm_bindgen(unchecked_param_type = "McpTool | JsonSchema | string")] tool: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "unknown")] args: JsValue,
) -> Result<JsValue, JsValue> {
    let tool = read_value(&tool, "the tool")?;
    let schema = tool.get("inputSchema").unwrap_or(&tool);
    validation_js(&validate_arguments(schema, &read_arguments(&args)?))
}

/// Validates a plain value against a JSON Schema (2020-12), without
/// coercion: every problem with its pointer, and one message.
#[wasm_bindgen(js_name = validateValue, unchecked_return_type = "ValueValidation")]
pub fn validate_value_js(
    #[wasm_bindgen(unchecked_param_type = "JsonSchema | boolean")] schema: JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] value: JsValue,
) -> Result<JsValue, JsValue> {
    let schema = plain_value(&schema, "the schema")?;
    let value = plain_value(&value, "the value")?;
    let errors = crate::validate(&schema, &value);
    // written as JSON text, as the other results are
    let mut out = String::with_capacity(64);
    out.push_str(if errors.is_empty() {
        "{\"valid\":true,\"errors\":"
    } else {
        "{\"valid\":false,\"errors\":"
    });
    push_errors(&mut out, &errors);
    out.push_str(",\"message\":");
    push_message(&mut out, &errors);
    out.push('}');
    js_sys::JSON::parse(&out)
}

impl JsValidator {
    /// The result for arguments unchanged, `sent` as `JSON.stringify`
    /// wrote them, with `errors`: joined around that text (not copied out
    /// of the module again).
    fn joined(&self, sent: &JsValue, errors: &[crate::ArgumentError]) -> Result<JsValue, JsValue> {
        if errors.is_empty() {
            if let Some(valid) = &self.valid_result {
                return valid.call1(&JsValue::NULL, sent);
            }
            return parse_js_string(&join3(&self.head, sent, &self.valid_tail));
        }
        let tail = js_sys::JsString::from(errors_tail(errors));
        parse_js_string(&join3(&self.head, sent, &tail))
    }
}

/// Argument validation against a catalog read once (like a compiled
/// validator): `validate(toolName, args)`.
#[wasm_bindgen(js_name = Validator)]
pub struct JsValidator {
    inner: Validator,
    /// The result's text before the arguments, and after them when they
    /// are valid and unchanged, kept as JS strings: a valid call's result
    /// is put together in JS from the text `JSON.stringify` gave, without
    /// copying the arguments out of the module again.
    head: js_sys::JsString,
    valid_tail: js_sys::JsString,
    /// The tools' names, and a JS `Map` from each to its place here: a
    /// call's tool found without copying its name into the module.
    names: Vec<String>,
    places: js_sys::Map,
    /// `s => ({arguments: JSON.parse(s), coercions: [], errors: [],
    /// valid: true, message: ""})`, the result of a valid unchanged call
    /// (only the arguments parsed); `None` where a content security policy
    /// forbids making functions from text (then the text above is parsed).
    valid_result: Option<js_sys::Function>,
}

#[wasm_bindgen(js_class = Validator)]
impl JsValidator {
    /// Reads the catalog whose tools' arguments will be validated.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    ) -> Result<JsValidator, JsValue> {
        let valid = crate::Validation {
            arguments: Value::Null,
            coercions: Vec::new(),
            errors: Vec::new(),
        };
        let catalog = read_catalog(&catalog)?;
        let names: Vec<String> = catalog
            .tools()
            .iter()
            .map(|t| t.name().to_string())
            .collect();
        let places = js_sys::Map::new();
        for (i, name) in names.iter().enumerate() {
            places.set(&JsValue::from_str(name), &JsValue::from(i as u32));
        }
        Ok(JsValidator {
            inner: Validator::new(catalog),
            names,
            places,
            head: js_sys::JsString::from(HEAD),
            valid_tail: js_sys::JsString::from(tail_text(&valid)),
            valid_result: super::new_function("s", VALID_RESULT).ok(),
        })
    }

    /// Coerces and validates arguments for a tool of the catalog; throws
    /// (code "usage") for an unknown tool.
    #[wasm_bindgen(unchecked_return_type = "Validation")]
    pub fn validate(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] tool: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "unknown")] args: JsValue,
    ) -> Result<JsValue, JsValue> {
        let unknown = || {
            let name = tool.as_string().unwrap_or_default();
            usage(&format!("no tool named {name:?} in this catalog"))
        };
        let place = self.places.unchecked_ref::<Places>().place(&tool);
        let Some(tool) = place.and_then(|i| self.names.get(i as usize)) else {
            return Err(unknown());
        };
        let (text, sent) = if args.is_undefined() {
            ("{}".to_string(), None)
        } else if args.is_string() {
            (string_of(&args, "the arguments")?, None)
        } else {
            let sent = stringify_js(&args, "the arguments")?.ok_or_else(|| {
                usage("the arguments cannot be turned into JSON (a function or a symbol has no JSON form)")
            })?;
            (string_of(&sent, "the arguments")?, Some(sent))
        };
        // valid as sent, or once strings are read as the numbers and
        // booleans they hold (read from the text, no value tree): the
        // result joined around JSON.stringify's text (or the caller's text
        // as read here, which a quick answer holds only as JSON.parse reads
        // it: no `-0`, fraction, exponent or escape), or written around the
        // edited text
        match self.inner.quick(tool, &text) {
            Some(q) if q.edits.is_empty() => {
                return match &sent {
                    Some(sent) => self.joined(sent, &q.errors),
                    None => self.joined(&JsValue::from_str(&text), &q.errors),
                };
            }
            Some(q) => return js_sys::JSON::parse(&quick_text(&text, &q)),
            None => {}
        }
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| json_error(&Error::json(&e), "the arguments"))?;
        let v = self.inner.validate(tool, value).ok_or_else(unknown)?;
        match sent {
            // unchanged: the arguments go back as JSON.stringify wrote them
            Some(sent) if v.coercions.is_empty() => self.joined(&sent, &v.errors),
            _ => validation_js(&v),
        }
    }
}
