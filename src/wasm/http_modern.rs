//! The 2026-07-28 body checks of the HTTP rules, for `HttpGate.checkMessage`.

use wasm_bindgen::prelude::*;

use crate::http::BodyDecision;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** What a POST body is, headers considered: as BodyAction for 2025 traffic; "stateless" for a 2026-07-28 message (feed it to the shared engine on a channel of its own with handleOn; a notification, expectsReply false, gets 202); "refuse" to answer with this status and JSON-RPC error body. */
export type MessageAction =
  | { action: "too-large" | "new-session" | "reply" | "accepted" | "no-session" }
  | { action: "stateless"; expectsReply: boolean }
  | { action: "refuse"; status: number; body: string };
"#;

/// A body decision as a plain JS object.
pub(crate) fn message_action(d: BodyDecision) -> Result<JsValue, JsValue> {
    let obj = js_sys::Object::new();
    let set =
        |k: &str, v: &JsValue| js_sys::Reflect::set(&obj, &JsValue::from_str(k), v).map(|_| ());
    let action = match &d {
        BodyDecision::TooLarge => "too-large",
        BodyDecision::NewSession => "new-session",
        BodyDecision::Message {
            expects_reply: true,
        } => "reply",
        BodyDecision::Message {
            expects_reply: false,
        } => "accepted",
        BodyDecision::NoSession => "no-session",
        BodyDecision::Stateless { expects_reply } => {
            set("expectsReply", &JsValue::from_bool(*expects_reply))?;
            "stateless"
        }
        BodyDecision::Refuse { status, body } => {
            set("status", &JsValue::from_f64(f64::from(*status)))?;
            set("body", &JsValue::from_str(body))?;
            "refuse"
        }
    };
    set("action", &JsValue::from_str(action))?;
    Ok(obj.into())
}
