//! The tool search index, the token budget per disclosure mode, and the
//! index of a home's own things by name.

use serde::Deserialize;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use super::{js_error, read_catalog, read_catalog_text, read_dialect, read_value, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Curated search metadata, merged over what is derived from the tools. */
export interface SearchMetadata {
  tools: { [toolName: string]: { category?: string; tags?: string | string[]; description?: string; keywords?: string | string[] } };
}
/** One search hit; `guess` when nothing matched and it is a fallback's guess. */
export interface Hit { name: string; score: number; category: string; description: string; guess?: true }
/** search() results: the total number of matches and the top hits; `fallback` says how the hits were guessed when nothing matched. */
export interface SearchResults { total: number; hits: Hit[]; fallback?: "spelling" | "act" }
/** explain() result: how the query was read, and why each hit of the same search ranked. */
export interface SearchExplanation { reading: QueryReading; total: number; fallback?: "spelling" | "act"; hits: HitExplanation[] }
/** How a query was read: its words, language, kind, act, places, and the groups of terms it became. */
export interface QueryReading {
  words: string[];
  language?: "en" | "nl" | "de" | "fr";
  kind: "question" | "command" | "need" | "keywords";
  act?: "read" | "change" | "create" | "delete";
  past: boolean;
  why: boolean;
  places: string[];
  groups: { from: string; implied?: true; terms: { term: string; weight: number }[] }[];
}
/** Why one tool ranked: score = (matched + nameBonus + headBonus) × actFactor × mediaFactor, unless `exact`. */
export interface HitExplanation {
  name: string; score: number; category: string; guess?: true; exact?: true;
  terms: { from: string; implied?: true; term: string; weight: number; score: number }[];
  matched: number; nameBonus: number; headBonus: number; actFactor: number; mediaFactor: number;
}
/** A home's zones, devices, Flows and moods, each list an array or an object keyed by ID. */
export interface HomeInput {
  zones?: HomeZone[] | { [id: string]: HomeZone };
  devices?: HomeDevice[] | { [id: string]: HomeDevice };
  flows?: HomeFlow[] | { [id: string]: HomeFlow };
  moods?: HomeMood[] | { [id: string]: HomeMood };
}
/** A zone and the zone it is in (by ID). */
export interface HomeZone { id?: string; name: string; parent?: string | null }
/** A device, its zone (by ID) and class (`virtualClass` wins when set). */
export interface HomeDevice { id?: string; name: string; zone?: string | null; zoneId?: string | null; class?: string | null; virtualClass?: string | null }
/** A Flow. */
export interface HomeFlow { id?: string; name: string }
/** A mood and its zone (by ID). */
export interface HomeMood { id?: string; name: string; zone?: string | null; zoneId?: string | null }
/** What a thing of the home is. */
export type EntityKind = "zone" | "device" | "flow" | "mood";
/** One thing a reference may mean, with why. */
export interface EntityMatch { id: string; name: string; kind: EntityKind; zone?: string; zoneId?: string; class?: string; score: number; why: string[] }
/** resolve() result: the things a reference may mean, best first; `ambiguous` and `note` when it does not say which. */
export interface Resolution { matches: EntityMatch[]; ambiguous: boolean; note?: string }
/** budget() result: estimated tokens of the tool list per disclosure mode (`native`: what the model reads at first with the provider's own tool search; anthropic and openai-responses only). */
export interface Budget { dialect: DialectName | "mcp"; all: number; hybrid: number; meta: number; native?: number; core: string[] }
"#;

/// Options for `ToolIndex.search`.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, deny_unknown_fields)]
pub struct SearchOptions {
    /// The most hits returned (default 10).
    limit: Option<usize>,
    /// Only tools of this category.
    category: Option<String>,
    /// When nothing matches, answer with guesses (default true).
    fallback: Option<bool>,
}

/// Options for `budget`.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, deny_unknown_fields)]
pub struct BudgetOptions {
    /// Count the list converted to this dialect (default: as MCP `tools/list` JSON).
    #[tsify(type = "DialectName")]
    to: Option<String>,
    /// The core tools of hybrid mode (default: chosen from the catalog).
    core: Option<Vec<String>>,
}

/// A ranked tool search index.
#[wasm_bindgen(js_name = ToolIndex)]
pub struct JsToolIndex {
    inner: crate::ToolIndex,
}

#[wasm_bindgen(js_class = ToolIndex)]
impl JsToolIndex {
    /// Indexes a catalog, with optional curated metadata.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SearchMetadata | null")] metadata: JsValue,
    ) -> Result<JsToolIndex, JsValue> {
        // the text, not a parsed catalog: the index reads what it needs
        // straight from it
        let text = read_catalog_text(&catalog)?;
        let meta = if metadata.is_undefined() || metadata.is_null() {
            None
        } else {
            Some(read_value(&metadata, "metadata")?)
        };
        let inner =
            crate::ToolIndex::parse_text(text.into(), meta.as_ref()).map_err(|e| js_error(&e))?;
        Ok(JsToolIndex { inner })
    }

    /// Ranks the tools for a query.
    #[wasm_bindgen(unchecked_return_type = "SearchResults")]
    pub fn search(
        &self,
        query: &str,
        options: Option<Ts<SearchOptions>>,
    ) -> Result<JsValue, JsValue> {
        to_js(&self.inner.search(query, &search_options(options)?))
    }

    /// Why search() ranks as it does, for a person: the query's reading
    /// (question, command, need or keywords; the act; the places; its
    /// terms) and, for each hit of the same search, what each term added
    /// and the bonuses and factors after them.
    #[wasm_bindgen(unchecked_return_type = "SearchExplanation")]
    pub fn explain(
        &self,
        query: &str,
        options: Option<Ts<SearchOptions>>,
    ) -> Result<JsValue, JsValue> {
        to_js(&self.inner.explain(query, &search_options(options)?))
    }

    /// The closest tool names to an unknown one, at most `k`.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn suggest(&self, name: &str, k: u32) -> Result<JsValue, JsValue> {
        to_js(&self.inner.suggest(name, k as usize))
    }

    /// Number of tools indexed.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.inner.len()
    }
}

/// The search options given from JS, read.
fn search_options(options: Option<Ts<SearchOptions>>) -> Result<crate::SearchOptions, JsValue> {
    let o: SearchOptions = super::options(options, "search options")?;
    let mut opts = crate::SearchOptions::new();
    if let Some(l) = o.limit {
        opts = opts.with_limit(l);
    }
    if let Some(c) = o.category {
        opts = opts.with_category(c);
    }
    if let Some(f) = o.fallback {
        opts = opts.with_fallback(f);
    }
    Ok(opts)
}

/// Estimated tokens of the tool list per disclosure mode, as MCP JSON or in a dialect.
#[wasm_bindgen(js_name = budget, unchecked_return_type = "Budget")]
pub fn budget_js(
    #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    options: Option<Ts<BudgetOptions>>,
) -> Result<JsValue, JsValue> {
    let catalog = read_catalog(&catalog)?;
    let o: BudgetOptions = super::options(options, "budget options")?;
    let dialect = o.to.as_deref().map(read_dialect).transpose()?;
    let d = crate::engine::Disclosure {
        core: o.core,
        ..crate::engine::Disclosure::default()
    };
    to_js(&crate::budget(&catalog, dialect, &d))
}

/// Options for `EntityIndex.resolve`.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, deny_unknown_fields)]
pub struct ResolveOptions {
    /// Only things of this kind.
    #[tsify(type = "EntityKind")]
    kind: Option<String>,
    /// The most matches returned (default 5).
    limit: Option<usize>,
}

/// The home's zones, devices, Flows and moods by the names people say.
#[wasm_bindgen(js_name = EntityIndex)]
pub struct JsEntityIndex {
    inner: crate::EntityIndex,
}

#[wasm_bindgen(js_class = EntityIndex)]
impl JsEntityIndex {
    /// Indexes a home: its JSON text or a plain value.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "HomeInput | string")] home: JsValue,
    ) -> Result<JsEntityIndex, JsValue> {
        let value = read_value(&home, "the home")?;
        let inner = crate::EntityIndex::build(&value).map_err(|e| js_error(&e))?;
        Ok(JsEntityIndex { inner })
    }

    /// The things a reference may mean, best first, with why; says when it is ambiguous.
    #[wasm_bindgen(unchecked_return_type = "Resolution")]
    pub fn resolve(
        &self,
        text: &str,
        options: Option<Ts<ResolveOptions>>,
    ) -> Result<JsValue, JsValue> {
        let o: ResolveOptions = super::options(options, "resolve options")?;
        let mut opts = crate::ResolveOptions::new();
        if let Some(k) = o.kind {
            let kind = crate::EntityKind::parse(&k).ok_or_else(|| {
                super::usage(&format!(
                    "bad resolve options: kind must be zone, device, flow or mood, not {k:?}"
                ))
            })?;
            opts = opts.with_kind(kind);
        }
        if let Some(l) = o.limit {
            opts = opts.with_limit(l);
        }
        to_js(&self.inner.resolve(text, &opts))
    }

    /// Number of things indexed.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.inner.len()
    }
}
