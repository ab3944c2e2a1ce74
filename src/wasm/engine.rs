//! The sans-I/O MCP server engine.

use serde::Deserialize;
use serde_json::Value;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use super::{js_error, read_catalog, read_dialect, read_text, usage};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Progressive disclosure: every tool, core tools plus the meta-tools, the meta-tools alone, or hybrid when the list would take too much of the context. */
export type Mode = "all" | "hybrid" | "meta" | "auto";
/** What the engine wants done: send a reply or a notification, run a tool and report it with complete() or fail(), or stop running one. */
export type EngineOutput =
  | { type: "reply"; message: string }
  | { type: "notification"; message: string }
  | { type: "invoke"; id: number; tool: string; arguments: { [name: string]: unknown } }
  | { type: "cancel"; id: number };
"#;

/// Engine settings.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct EngineOptions {
    /// `serverInfo.name` (default "mcp-switchboard").
    name: Option<String>,
    /// `serverInfo.version` (default: this package's version).
    version: Option<String>,
    /// `instructions` in the initialize result.
    instructions: Option<String>,
    /// Tools per tools/list page (default 100).
    page_size: Option<usize>,
    /// Progressive disclosure (default "all").
    #[tsify(type = "Mode")]
    mode: Option<String>,
    /// For "auto": the model's context size in tokens (default 32000).
    context_tokens: Option<usize>,
    /// For "auto": the share of the context the tool list may take (default 0.1).
    share: Option<f64>,
    /// Tools listed directly in hybrid mode (default: chosen from the catalog).
    core: Option<Vec<String>>,
    /// Curated search metadata for search_tools.
    #[tsify(type = "SearchMetadata")]
    metadata: Option<Value>,
    /// The dialect get_tool_definition answers in (default: the MCP tool object).
    #[tsify(type = "DialectName")]
    definitions: Option<String>,
    /// Exposure: only these tools exist.
    allow: Option<Vec<String>>,
    /// Exposure: these tools never exist.
    deny: Option<Vec<String>>,
    /// Exposure: only tools annotated read-only.
    read_only: bool,
    /// Exposure: no tool annotated destructive.
    no_destructive: bool,
}

/// Which tools exist for clients (`Engine.setExposure`); every field left
/// out is off.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ExposureOptions {
    /// Only these tools exist.
    allow: Option<Vec<String>>,
    /// These tools never exist.
    deny: Option<Vec<String>>,
    /// Only tools annotated read-only.
    read_only: bool,
    /// No tool annotated destructive.
    no_destructive: bool,
}

impl ExposureOptions {
    fn exposure(self) -> crate::Exposure {
        crate::Exposure {
            allow: self.allow,
            deny: self.deny.unwrap_or_default(),
            read_only: self.read_only,
            no_destructive: self.no_destructive,
        }
    }
}

/// A disclosure mode by name, with the settings of `auto`.
fn mode_of(name: &str, context: Option<usize>, share: Option<f64>) -> Result<crate::Mode, JsValue> {
    let mode = crate::Mode::parse(name).ok_or_else(|| {
        usage(&format!(
            "unknown mode {name:?}; choose all, hybrid, meta or auto"
        ))
    })?;
    Ok(match mode {
        crate::Mode::Auto {
            context_tokens,
            share: s,
        } => crate::Mode::Auto {
            context_tokens: context.unwrap_or(context_tokens),
            share: share.unwrap_or(s),
        },
        m => m,
    })
}

impl EngineOptions {
    /// The engine configuration these options describe.
    fn config(self) -> Result<crate::EngineConfig, JsValue> {
        let mut c = crate::EngineConfig::default();
        if let Some(n) = self.name {
            c.name = n;
        }
        if let Some(v) = self.version {
            c.version = v;
        }
        c.instructions = self.instructions;
        if let Some(p) = self.page_size {
            c.page_size = p.max(1);
        }
        if let Some(m) = self.mode {
            c.disclosure.mode = mode_of(&m, self.context_tokens, self.share)?;
        }
        c.disclosure.core = self.core;
        c.disclosure.metadata = self.metadata;
        if let Some(d) = self.definitions {
            c.disclosure.definitions = Some(read_dialect(&d)?);
        }
        c.exposure = ExposureOptions {
            allow: self.allow,
            deny: self.deny,
            read_only: self.read_only,
            no_destructive: self.no_destructive,
        }
        .exposure();
        Ok(c)
    }
}

/// The sans-I/O MCP server engine: `handle(message)`, then `drain()` the
/// outputs; run each `invoke` output and report it with `complete` or `fail`.
#[wasm_bindgen(js_name = Engine)]
pub struct JsEngine {
    inner: crate::Engine,
}

/// An engine output as a plain JS object, built field by field (the reply
/// text goes across once, not escaped inside another JSON document).
fn output_js(o: crate::Output) -> Result<JsValue, JsValue> {
    let obj = js_sys::Object::new();
    let set =
        |k: &str, v: &JsValue| js_sys::Reflect::set(&obj, &JsValue::from_str(k), v).map(|_| ());
    match o {
        crate::Output::Reply(m) => {
            set("type", &"reply".into())?;
            set("message", &JsValue::from_str(&m))?;
        }
        crate::Output::Notification(m) => {
            set("type", &"notification".into())?;
            set("message", &JsValue::from_str(&m))?;
        }
        crate::Output::Invoke(i) => {
            set("type", &"invoke".into())?;
            set("id", &JsValue::from_f64(i.id as f64))?;
            set("tool", &JsValue::from_str(&i.tool))?;
            set("arguments", &js_sys::JSON::parse(&i.arguments.to_string())?)?;
        }
        crate::Output::Cancel(id) => {
            set("type", &"cancel".into())?;
            set("id", &JsValue::from_f64(id as f64))?;
        }
    }
    Ok(obj.into())
}

#[wasm_bindgen(js_class = Engine)]
impl JsEngine {
    /// An engine serving `catalog`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
        options: Option<Ts<EngineOptions>>,
    ) -> Result<JsEngine, JsValue> {
        let catalog = read_catalog(&catalog)?;
        let config = super::options(options, "engine options")?.config()?;
        Ok(JsEngine {
            inner: crate::Engine::new(catalog, config),
        })
    }

    /// Takes one incoming JSON-RPC message (text). Bad messages get error
    /// replies. Returns whether a reply is owed (a request or an invalid
    /// message); notifications and responses get none.
    pub fn handle(&mut self, message: &str) -> bool {
        self.inner.handle(message)
    }

    /// Every pending output, in order.
    #[wasm_bindgen(unchecked_return_type = "EngineOutput[]")]
    pub fn drain(&mut self) -> Result<js_sys::Array, JsValue> {
        let out = js_sys::Array::new();
        while let Some(o) = self.inner.poll_output() {
            out.push(&output_js(o)?);
        }
        Ok(out)
    }

    /// Reports an invocation's CallToolResult (as a value or as JSON text,
    /// such as `asToolResultJson` gives).
    pub fn complete(
        &mut self,
        id: f64,
        #[wasm_bindgen(unchecked_param_type = "CallToolResult | string")] result: JsValue,
    ) -> Result<(), JsValue> {
        let result = read_text(&result, "the result")?;
        self.inner
            .complete_json(id as u64, &result)
            .map_err(|e| js_error(&e))
    }

    /// Reports that an invocation failed; the client gets an isError result.
    pub fn fail(&mut self, id: f64, message: &str) -> Result<(), JsValue> {
        self.inner
            .fail(id as u64, message)
            .map_err(|e| js_error(&e))
    }

    /// Replaces the catalog; clients are notified when the list changes.
    #[wasm_bindgen(js_name = setCatalog)]
    pub fn set_catalog(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    ) -> Result<(), JsValue> {
        let catalog = read_catalog(&catalog)?;
        self.inner.set_catalog(catalog);
        Ok(())
    }

    /// Changes the disclosure mode; clients are notified when the list changes.
    #[wasm_bindgen(js_name = setMode)]
    pub fn set_mode(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Mode")] mode: &str,
    ) -> Result<(), JsValue> {
        self.inner.set_mode(mode_of(mode, None, None)?);
        Ok(())
    }

    /// Changes which tools exist for clients (the fields left out are
    /// off); clients are notified when the list changes.
    #[wasm_bindgen(js_name = setExposure)]
    pub fn set_exposure(&mut self, exposure: Option<Ts<ExposureOptions>>) -> Result<(), JsValue> {
        let e = super::options(exposure, "exposure")?.exposure();
        self.inner.set_exposure(e);
        Ok(())
    }

    /// The disclosure mode, as configured.
    #[wasm_bindgen(getter, unchecked_return_type = "Mode")]
    pub fn mode(&self) -> String {
        self.inner.mode().as_str().to_string()
    }

    /// How many catalog tools the exposure admits.
    #[wasm_bindgen(getter)]
    pub fn tools(&self) -> usize {
        self.inner.tool_count()
    }

    /// How many tools tools/list shows (meta-tools included), over all pages.
    #[wasm_bindgen(getter)]
    pub fn listed(&self) -> usize {
        self.inner.listed_count()
    }

    /// The negotiated protocol version, after initialize.
    #[wasm_bindgen(getter, js_name = protocolVersion)]
    pub fn protocol_version(&self) -> Option<String> {
        self.inner.protocol_version().map(str::to_owned)
    }

    /// Invocations waiting for their outcome.
    #[wasm_bindgen(getter)]
    pub fn outstanding(&self) -> usize {
        self.inner.outstanding()
    }
}
