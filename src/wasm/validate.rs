//! Argument validation with coercion.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::{read_catalog, read_value, stringify, to_js, usage};
use crate::{validate_arguments, Catalog};

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
        Ok(Value::Object(Default::default()))
    } else {
        read_value(args, "the arguments")
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

/// A validation as a JS object, with `valid` and `message`.
fn validation_js(v: &crate::Validation) -> Result<JsValue, JsValue> {
    let mut out = serde_json::to_value(v).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut out {
        m.insert("valid".into(), Value::Bool(v.is_valid()));
        m.insert("message".into(), Value::String(v.message()));
    }
    to_js(&out)
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
    catalog: Catalog,
}

#[wasm_bindgen(js_class = Validator)]
impl JsValidator {
    /// Reads the catalog whose tools' arguments will be validated.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    ) -> Result<JsValidator, JsValue> {
        Ok(JsValidator {
            catalog: read_catalog(&catalog)?,
        })
    }

    /// Coerces and validates arguments for a tool of the catalog; throws
    /// (code "usage") for an unknown tool.
    #[wasm_bindgen(unchecked_return_type = "Validation")]
    pub fn validate(
        &self,
        tool: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "unknown")] args: JsValue,
    ) -> Result<JsValue, JsValue> {
        let t = self
            .catalog
            .get(tool)
            .ok_or_else(|| usage(&format!("no tool named {tool:?} in this catalog")))?;
        validation_js(&validate_arguments(
            t.input_schema(),
            &read_arguments(&args)?,
        ))
    }
}
