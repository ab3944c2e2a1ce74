//! The Streamable HTTP transport rules of the gateway.

use serde::{Deserialize, Serialize};
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use super::{js_error, to_js, usage};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** An exchange that ends without the engine: the body was too large, no session, a notification or response taken, a request cancelled, a session ended. */
export type HttpOutcome = "too-large" | "no-session" | "accepted" | "cancelled" | "ended";
"#;
use crate::http::{BodyDecision, HttpDecision, HttpPolicy, Outcome, HEADERS_READ};

/// `HttpGate` options.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct HttpGateOptions {
    /// Origins allowed besides the localhost ones.
    origins: Vec<String>,
    /// The largest request body, in bytes.
    max_body: Option<usize>,
    /// The MCP endpoint's path (default "/mcp").
    path: Option<String>,
}

/// What to do with a request.
#[derive(Serialize, Tsify)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum HttpAction {
    /// Answer with this status, headers and plain-text message.
    Reject {
        /// HTTP status.
        status: u16,
        /// Extra headers.
        headers: Vec<(String, String)>,
        /// A one-line explanation.
        message: String,
    },
    /// Read the body, at most `maxBody` bytes, then `checkBody` it.
    Read {
        /// The limit to enforce while reading.
        #[serde(rename = "maxBody")]
        max_body: usize,
        /// Answer with an SSE stream rather than a JSON body.
        sse: bool,
    },
    /// Open an SSE stream for server notifications.
    Stream,
    /// End the session and answer 204.
    End,
}

impl From<HttpDecision> for HttpAction {
    fn from(d: HttpDecision) -> Self {
        match d {
            HttpDecision::Reject {
                status,
                headers,
                message,
            } => HttpAction::Reject {
                status,
                headers,
                message,
            },
            HttpDecision::ReadBody { max_body, sse } => HttpAction::Read { max_body, sse },
            HttpDecision::OpenStream => HttpAction::Stream,
            HttpDecision::EndSession => HttpAction::End,
        }
    }
}

/// What a POST body is: make a session first, answer 202, reply with the
/// engine's output, or refuse.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "kebab-case")]
pub enum BodyAction {
    /// Past the size limit.
    TooLarge,
    /// An initialize without a session.
    NewSession,
    /// A request: the engine replies.
    Reply,
    /// A notification or a response: answer 202.
    Accepted,
    /// No session and not an initialize.
    NoSession,
}

/// The Streamable HTTP transport rules: who may talk to the gateway and
/// what each request means.
#[wasm_bindgen(js_name = HttpGate)]
pub struct JsHttpGate {
    policy: HttpPolicy,
    /// `HEADERS_READ` as JS strings, made once (not per request).
    header_names: Vec<JsValue>,
}

#[wasm_bindgen(js_class = HttpGate)]
impl JsHttpGate {
    /// Rules for a gateway bound to `host`; throws when the host is not a
    /// loopback address and no token is given.
    #[wasm_bindgen(constructor)]
    pub fn new(
        host: &str,
        token: Option<String>,
        options: Option<Ts<HttpGateOptions>>,
    ) -> Result<JsHttpGate, JsValue> {
        let o: HttpGateOptions = super::options(options, "gate options")?;
        let mut policy = HttpPolicy::for_host(host, token).map_err(|e| js_error(&e))?;
        policy.origins = o.origins;
        if let Some(m) = o.max_body {
            policy.max_body = m;
        }
        if let Some(p) = o.path {
            policy.path = p;
        }
        let header_names = HEADERS_READ.iter().map(|h| JsValue::from_str(h)).collect();
        Ok(JsHttpGate {
            policy,
            header_names,
        })
    }

    /// Decides on a request from its method, path and headers (an object of
    /// lower-case header name → value, as Node gives them).
    #[wasm_bindgen(js_name = checkRequest, unchecked_return_type = "HttpAction")]
    pub fn check_request(
        &self,
        method: &str,
        path: &str,
        #[wasm_bindgen(unchecked_param_type = "{ [name: string]: string | string[] | undefined }")]
        headers: JsValue,
        session_known: bool,
    ) -> Result<JsValue, JsValue> {
        // only the headers the rules read cross into wasm, looked up by
        // their lower-case names (as Node gives them)
        let mut list = Vec::new();
        if headers.is_object() {
            for (name, key) in HEADERS_READ.iter().zip(&self.header_names) {
                let v = js_sys::Reflect::get(&headers, key)?;
                // a string, or (rarely) an array of them: the first counts
                let v = v.as_string().or_else(|| {
                    js_sys::Array::is_array(&v)
                        .then(|| js_sys::Array::from(&v).get(0).as_string())
                        .flatten()
                });
                if let Some(v) = v {
                    list.push((name.to_string(), v));
                }
            }
        } else if !headers.is_undefined() && !headers.is_null() {
            return Err(usage("headers must be an object of header name → value"));
        }
        let req = crate::http::HttpRequest {
            method: method.to_ascii_uppercase(),
            path: path.split('?').next().unwrap_or("").to_string(),
            headers: list,
            session_known,
        };
        to_js(&HttpAction::from(crate::http::check_request(
            &req,
            &self.policy,
        )))
    }

    /// Decides on a POST body once read.
    #[wasm_bindgen(js_name = checkBody, unchecked_return_type = "BodyAction")]
    pub fn check_body(&self, body: &str, has_session: bool) -> Result<JsValue, JsValue> {
        let action = match crate::http::check_body(body, has_session, &self.policy) {
            BodyDecision::TooLarge => BodyAction::TooLarge,
            BodyDecision::NewSession => BodyAction::NewSession,
            BodyDecision::Message {
                expects_reply: true,
            } => BodyAction::Reply,
            BodyDecision::Message {
                expects_reply: false,
            } => BodyAction::Accepted,
            BodyDecision::NoSession => BodyAction::NoSession,
        };
        to_js(&action)
    }

    /// Checks the bytes of a body read so far: a 413 rejection past the
    /// limit, `null` otherwise.
    #[wasm_bindgen(js_name = checkBodySize, unchecked_return_type = "HttpAction | null")]
    pub fn check_body_size(&self, bytes: f64) -> Result<JsValue, JsValue> {
        match crate::http::check_body_size(bytes as usize, &self.policy) {
            Some(d) => to_js(&HttpAction::from(d)),
            None => Ok(JsValue::NULL),
        }
    }

    /// The status and message that end an exchange without the engine.
    #[wasm_bindgen(unchecked_return_type = "{ status: number; message: string }")]
    pub fn outcome(
        &self,
        #[wasm_bindgen(unchecked_param_type = "HttpOutcome")] outcome: &str,
    ) -> Result<JsValue, JsValue> {
        let o = match outcome {
            "too-large" => Outcome::TooLarge,
            "no-session" => Outcome::NoSession,
            "accepted" => Outcome::Accepted,
            "cancelled" => Outcome::Cancelled,
            "ended" => Outcome::Ended,
            other => return Err(usage(&format!("unknown outcome {other:?}"))),
        };
        let (status, message) = crate::http::outcome_status(o, &self.policy);
        to_js(&serde_json::json!({"status": status, "message": message}))
    }
}
