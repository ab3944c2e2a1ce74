//! Argument validation with coercion.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::{json_error, read_catalog, read_text, read_value, stringify, to_js, usage};
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

/// Arguments from JS as JSON text (absent is `{}`), and whether they came
/// as text rather than as a value.
fn arguments_text(args: &JsValue) -> Result<(String, bool), JsValue> {
    if args.is_undefined() {
        Ok(("{}".to_string(), false))
    } else {
        Ok((read_text(args, "the arguments")?, args.is_string()))
    }
}

/// Arguments from JS: JSON text or a value; absent is `{}`.
fn read_arguments(args: &JsValue) -> Result<Value, JsValue> {
    let (text, _) = arguments_text(args)?;
    serde_json::from_str(&text).map_err(|e| json_error(&Error::json(&e), "the arguments"))
}

/// A validation as a JS object, with `valid` and `message`, written as JSON
/// text directly (no value tree in between). `sent` is the arguments' JSON
/// text as `JSON.stringify` wrote it: when nothing was coerced it is the
/// coerced arguments too, and goes out as it came.
fn validation_js(v: &crate::Validation, sent: Option<&str>) -> Result<JsValue, JsValue> {
    let mut out = Vec::with_capacity(64 + sent.map_or(0, str::len));
    out.extend_from_slice(b"{\"arguments\":");
    match sent {
        Some(text) if v.coercions.is_empty() => out.extend_from_slice(text.as_bytes()),
        _ => write_json(&mut out, &v.arguments),
    }
    out.extend_from_slice(b",\"coercions\":");
    write_json(&mut out, &v.coercions);
    out.extend_from_slice(b",\"errors\":");
    write_json(&mut out, &v.errors);
    out.extend_from_slice(if v.is_valid() {
        b",\"valid\":true,\"message\":"
    } else {
        b",\"valid\":false,\"message\":"
    });
    write_json(&mut out, &v.message());
    out.push(b'}');
    js_sys::JSON::parse(&String::from_utf8_lossy(&out))
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
    validation_js(&validate_arguments(schema, &read_arguments(&args)?), None)
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
    let v = crate::Validation {
        arguments: Value::Null,
        coercions: Vec::new(),
        errors,
    };
    to_js(&serde_json::json!({"valid": v.is_valid(), "errors": v.errors, "message": v.message()}))
}

/// Argument validation against a catalog read once (like a compiled
/// validator): `validate(toolName, args)`.
#[wasm_bindgen(js_name = Validator)]
pub struct JsValidator {
    inner: Validator,
}

#[wasm_bindgen(js_class = Validator)]
impl JsValidator {
    /// Reads the catalog whose tools' arguments will be validated.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    ) -> Result<JsValidator, JsValue> {
        Ok(JsValidator {
            inner: Validator::new(read_catalog(&catalog)?),
        })
    }

    /// Coerces and validates arguments for a tool of the catalog; throws
    /// (code "usage") for an unknown tool.
    #[wasm_bindgen(unchecked_return_type = "Validation")]
    pub fn validate(
        &mut self,
        tool: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "unknown")] args: JsValue,
    ) -> Result<JsValue, JsValue> {
        if !self.inner.contains(tool) {
            return Err(usage(&format!("no tool named {tool:?} in this catalog")));
        }
        let (text, as_text) = arguments_text(&args)?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| json_error(&Error::json(&e), "the arguments"))?;
        let v = self
            .inner
            .validate(tool, value)
            .ok_or_else(|| usage(&format!("no tool named {tool:?} in this catalog")))?;
        // text the caller wrote may say the same values differently
        // (`-0`, spaces): only JSON.stringify's goes out unread
        validation_js(&v, (!as_text).then_some(text.as_str()))
    }
}
