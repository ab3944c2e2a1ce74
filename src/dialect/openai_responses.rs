//! OpenAI Responses API: flat `{"type": "function", name, description,
//! parameters, strict}`. The API defaults `strict` to true, so it is always
//! written out. Schemas are lowered exactly as for Chat Completions.

use serde_json::{Map, Value};

use super::{openai, Declared};

/// One Responses API tool.
pub(crate) fn tool(d: &Declared<'_>) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::String("function".into()));
    m.insert("name".into(), Value::String(d.name.to_string()));
    m.insert("description".into(), Value::String(d.description.clone()));
    m.insert("parameters".into(), openai::parameters(d));
    m.insert("strict".into(), Value::Bool(d.strict));
    Value::Object(m)
}
