//! Several sources (upstream servers) behind one engine: their tools,
//! prompts and resources merged into one catalog, names made unique by a
//! deterministic rule, and every invocation routed back to its source
//! under the name the source uses.
//!
//! The rule, applied to tools and prompts alike: a name that only one
//! source offers is kept as it is; a name that several offer becomes
//! `<source>__<name>` for each of them. Should that name be taken too,
//! `_2`, `_3`, … is added. Resource URIs and template URIs that several
//! sources offer become `<source>+<uri>`. Sources are taken in the order
//! given, so the same sources always give the same names.
//!
//! With [`SourceNaming::Prefixed`] every name is namespaced, collision or
//! not: `<source>__<name>` and `<source>+<uri>`. A gateway in front of
//! upstream servers uses it, so that a tool keeps its name when another
//! upstream comes, goes or adds a tool of the same name.
//!
//! A source's name is 1 to [`SOURCE_NAME_MAX`] ASCII letters, digits, `_`
//! or `-` ([`check_source_name`]), so that a namespaced name reads back
//! unambiguously and fits the tool name rules of the model APIs.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::surface::{match_template, Surface};
use super::InvocationKind;
use crate::catalog::{Catalog, Tool};
use crate::error::{Error, Misuse};

/// One source of tools, resources and prompts: an upstream server, or the
/// host's own.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Source {
    /// Its name: unique among the sources, used in namespaced names.
    pub name: String,
    /// Its tools.
    pub catalog: Catalog,
    /// Its resources, templates and prompts.
    pub surface: Surface,
    /// Whether it is reachable; an unavailable source's tools, resources
    /// and prompts are left out until it is back.
    pub available: bool,
}

impl Source {
    /// A source serving `catalog`, with no resources or prompts.
    pub fn new(name: impl Into<String>, catalog: Catalog) -> Source {
        Source {
            name: name.into(),
            catalog,
            surface: Surface::new(),
            available: true,
        }
    }

    /// With these resources, templates and prompts.
    pub fn with_surface(mut self, surface: Surface) -> Source {
        self.surface = surface;
        self
    }

    /// Marked available or not.
    pub fn with_available(mut self, available: bool) -> Source {
        self.available = available;
        self
    }
}

/// The longest name a source may have, in bytes.
pub const SOURCE_NAME_MAX: usize = 32;

/// Whether `name` may name a source: 1 to [`SOURCE_NAME_MAX`] ASCII
/// letters, digits, `_` or `-`. A usage error (kind
/// [`ErrorKind::Usage`](crate::ErrorKind::Usage), pointer `/name`, misuse [`Misuse::BadName`]) saying what a name may be
/// otherwise. [`Engine::set_sources`](super::Engine::set_sources) checks
/// every source's name with it.
///
/// ```
/// use mcp_switchboard::{engine::check_source_name, ErrorKind};
/// assert!(check_source_name("hub_2").is_ok());
/// let e = check_source_name("the hub").unwrap_err();
/// assert_eq!((e.kind(), e.pointer()), (ErrorKind::Usage, "/name"));
/// assert_eq!(e.message(), r#"source name "the hub": use 1 to 32 letters, digits, _ or -"#);
/// ```
pub fn check_source_name(name: &str) -> Result<(), Error> {
    let ok = (1..=SOURCE_NAME_MAX).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        return Ok(());
    }
    // a name past the limit is shown cut, never whole
    let shown: String = name.chars().take(SOURCE_NAME_MAX + 8).collect();
    Err(Error::misused(
        Misuse::BadName,
        "/name",
        format!("source name {shown:?}: use 1 to {SOURCE_NAME_MAX} letters, digits, _ or -"),
    ))
}

/// How the names of several sources are made unique.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SourceNaming {
    /// A name only one source offers is kept; shared names are prefixed.
    #[default]
    Collisions,
    /// Every name is prefixed with its source's name.
    Prefixed,
}

/// Where each exposed name comes from.
#[derive(Debug, Clone, Default)]
pub(crate) struct Router {
    tools: HashMap<String, (String, String)>,
    prompts: HashMap<String, (String, String)>,
    resources: HashMap<String, (String, String)>,
    templates: Vec<(String, String, String)>,
}

/// Unique names for `(source, name)` pairs by the module's rule.
fn unique(pairs: &[(String, String)], naming: SourceNaming) -> Vec<String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for (_, n) in pairs {
        *count.entry(n.as_str()).or_default() += 1;
    }
    if naming == SourceNaming::Prefixed {
        // no name is kept as it is
        count.values_mut().for_each(|c| *c += 1);
    }
    let mut taken: HashSet<String> = pairs
        .iter()
        .filter(|(_, n)| count.get(n.as_str()) == Some(&1))
        .map(|(_, n)| n.clone())
        .collect();
    pairs
        .iter()
        .map(|(s, n)| {
            if count.get(n.as_str()) == Some(&1) {
                return n.clone();
            }
            let base = format!("{s}__{n}");
            let mut name = base.clone();
            let mut i = 2;
            while taken.contains(&name) {
                name = format!("{base}_{i}");
                i += 1;
            }
            taken.insert(name.clone());
            name
        })
        .collect()
}

/// Unique URIs: a URI several sources offer becomes `<source>+<uri>`.
fn unique_uris(pairs: &[(String, String)], naming: SourceNaming) -> Vec<String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for (_, u) in pairs {
        *count.entry(u.as_str()).or_default() += 1;
    }
    if naming == SourceNaming::Prefixed {
        count.values_mut().for_each(|c| *c += 1);
    }
    pairs
        .iter()
        .map(|(s, u)| {
            if count.get(u.as_str()) == Some(&1) {
                u.clone()
            } else {
                format!("{s}+{u}")
            }
        })
        .collect()
}

fn with_field(item: &Value, key: &str, value: &str) -> Value {
    let mut v = item.clone();
    if let Value::Object(m) = &mut v {
        m.insert(key.into(), Value::String(value.into()));
    }
    v
}

fn str_field(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// Merges the sources: the catalog and surface to serve, and the router.
pub(crate) fn merge(
    sources: &[Source],
    naming: SourceNaming,
) -> Result<(Catalog, Surface, Router), Error> {
    let mut seen = HashSet::new();
    for (i, s) in sources.iter().enumerate() {
        check_source_name(&s.name)
            .map_err(|e| Error::misused(Misuse::BadName, format!("/{i}/name"), e.message()))?;
        if !seen.insert(s.name.as_str()) {
            return Err(Error::misused(
                Misuse::BadName,
                format!("/{i}/name"),
                format!(
                    "two sources are named {:?}; source names must be unique",
                    s.name
                ),
            ));
        }
    }
    let live: Vec<&Source> = sources.iter().filter(|s| s.available).collect();
    let mut router = Router::default();

    let tool_pairs: Vec<(String, String)> = live
        .iter()
        .flat_map(|s| {
            s.catalog
                .tools()
                .iter()
                .map(|t| (s.name.clone(), t.name().to_string()))
        })
        .collect();
    let tool_names = unique(&tool_pairs, naming);
    let mut tools = Vec::new();
    let all_tools = live.iter().flat_map(|s| s.catalog.tools().iter());
    for ((pair, exposed), tool) in tool_pairs.iter().zip(&tool_names).zip(all_tools) {
        let tool = if exposed == tool.name() {
            tool.clone()
        } else {
            let mut m = tool.as_map().clone();
            m.insert("name".into(), Value::String(exposed.clone()));
            match Tool::from_value(Value::Object(m), "") {
                Ok((t, _)) => t,
                Err(_) => continue,
            }
        };
        router.tools.insert(exposed.clone(), pair.clone());
        tools.push(tool);
    }

    let prompt_pairs: Vec<(String, String)> = live
        .iter()
        .flat_map(|s| {
            s.surface
                .prompts()
                .iter()
                .map(|p| (s.name.clone(), str_field(p, "name")))
        })
        .collect();
    let prompt_names = unique(&prompt_pairs, naming);
    let prompts: Vec<Value> = live
        .iter()
        .flat_map(|s| s.surface.prompts().iter())
        .zip(prompt_pairs.iter().zip(&prompt_names))
        .map(|(p, (pair, exposed))| {
            router.prompts.insert(exposed.clone(), pair.clone());
            with_field(p, "name", exposed)
        })
        .collect();

    let res_pairs: Vec<(String, String)> = live
        .iter()
        .flat_map(|s| {
            s.surface
                .resources()
                .iter()
                .map(|r| (s.name.clone(), str_field(r, "uri")))
        })
        .collect();
    let res_uris = unique_uris(&res_pairs, naming);
    let resources: Vec<Value> = live
        .iter()
        .flat_map(|s| s.surface.resources().iter())
        .zip(res_pairs.iter().zip(&res_uris))
        .map(|(r, (pair, exposed))| {
            router.resources.insert(exposed.clone(), pair.clone());
            with_field(r, "uri", exposed)
        })
        .collect();

    let tpl_pairs: Vec<(String, String)> = live
        .iter()
        .flat_map(|s| {
            s.surface
                .templates()
                .iter()
                .map(|t| (s.name.clone(), str_field(t, "uriTemplate")))
        })
        .collect();
    let tpl_uris = unique_uris(&tpl_pairs, naming);
    let templates: Vec<Value> = live
        .iter()
        .flat_map(|s| s.surface.templates().iter())
        .zip(tpl_pairs.iter().zip(&tpl_uris))
        .map(|(t, ((source, original), exposed))| {
            router
                .templates
                .push((exposed.clone(), source.clone(), original.clone()));
            with_field(t, "uriTemplate", exposed)
        })
        .collect();

    let mut surface = Surface::new();
    if live.iter().any(|s| s.surface.offers_resources()) {
        surface = surface
            .with_resources(resources)?
            .with_templates(templates)?;
    }
    if live.iter().any(|s| s.surface.offers_prompts()) {
        surface = surface.with_prompts(prompts)?;
    }
    Ok((Catalog::from_tools(tools), surface, router))
}

impl Router {
    /// The source of an exposed name, and the name the source uses.
    pub(crate) fn origin(&self, kind: InvocationKind, name: &str) -> Option<(String, String)> {
        match kind {
            InvocationKind::Tool => self.tools.get(name).cloned(),
            InvocationKind::Prompt => self.prompts.get(name).cloned(),
            InvocationKind::Resource => self.resources.get(name).cloned().or_else(|| {
                self.templates
                    .iter()
                    .find_map(|(exposed, source, original)| {
                        match_template(exposed, name)?;
                        // a namespaced template's URIs carry the prefix
                        let prefix = exposed.strip_suffix(original.as_str()).unwrap_or("");
                        let uri = name.strip_prefix(prefix).unwrap_or(name);
                        Some((source.clone(), uri.to_string()))
                    })
            }),
            InvocationKind::Completion => self.prompts.get(name).cloned().or_else(|| {
                self.templates
                    .iter()
                    .find(|(exposed, _, _)| exposed == name)
                    .map(|(_, s, o)| (s.clone(), o.clone()))
            }),
        }
    }

    /// The exposed names of a source's items, for turning its
    /// notifications (`resources/updated`) into the names clients know.
    pub(crate) fn exposed_uri(&self, source: &str, uri: &str) -> Option<String> {
        self.resources
            .iter()
            .find(|(_, (s, u))| s == source && u == uri)
            .map(|(e, _)| e.clone())
    }
}

impl super::Engine {
    /// Serves several sources at once (see the module rules above): their
    /// tools, prompts and resources merged, one search index over all, and
    /// every [`Invocation`](super::Invocation) naming its
    /// [`source`](super::Invocation::source) and the source's own name.
    /// Call it again whenever a source's lists change or it becomes
    /// (un)available; clients are told what changed. Fails (a usage error
    /// pointing at the name) when two sources share a name, or a name
    /// breaks [`check_source_name`]'s rule.
    pub fn set_sources(&mut self, sources: &[Source]) -> Result<(), Error> {
        self.set_sources_named(sources, SourceNaming::Collisions)
    }

    /// [`set_sources`](super::Engine::set_sources) with the names made
    /// unique by `naming`.
    pub fn set_sources_named(
        &mut self,
        sources: &[Source],
        naming: SourceNaming,
    ) -> Result<(), Error> {
        let (catalog, surface, router) = merge(sources, naming)?;
        self.catalog = std::sync::Arc::new(catalog);
        self.forget_schemas();
        self.rebuild();
        let old = std::mem::replace(&mut self.surface, std::sync::Arc::new(surface));
        self.surface_changed(&old);
        self.sources = Some(std::sync::Arc::new(router));
        Ok(())
    }

    /// A source reports that one of its resources changed
    /// (`notifications/resources/updated`): clients that subscribed to it,
    /// under the URI they know, are told.
    pub fn source_resource_updated(&mut self, source: &str, uri: &str) {
        let exposed = self
            .sources
            .as_ref()
            .and_then(|r| r.exposed_uri(source, uri))
            .unwrap_or_else(|| uri.to_string());
        self.resource_updated(&exposed);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn source(name: &str, tools: &[&str], uri: &str) -> Source {
        let tools: Vec<Value> = tools
            .iter()
            .map(|t| json!({"name": t, "inputSchema": {"type": "object"}}))
            .collect();
        let catalog = Catalog::from_value(Value::Array(tools)).unwrap();
        let surface = Surface::new()
            .with_resources(vec![json!({"uri": uri, "name": "r"})])
            .unwrap()
            .with_prompts(vec![json!({"name": "assist"})])
            .unwrap();
        Source::new(name, catalog).with_surface(surface)
    }

    fn tool_names(c: &Catalog) -> Vec<&str> {
        c.tools().iter().map(|t| t.name()).collect()
    }

    #[test]
    fn prefixed_naming_prefixes_every_name_and_routes_it_back() {
        let a = source("ha", &["get_state", "HassTurnOn"], "ha://areas");
        let b = source("homey", &["get_state"], "homey://zones");
        let (catalog, surface, router) =
            merge(&[a.clone(), b.clone()], SourceNaming::Prefixed).unwrap();
        assert_eq!(
            tool_names(&catalog),
            ["ha__get_state", "ha__HassTurnOn", "homey__get_state"]
        );
        assert_eq!(surface.prompts()[1]["name"], "homey__assist");
        assert_eq!(surface.resources()[0]["uri"], "ha+ha://areas");
        assert_eq!(
            router.origin(InvocationKind::Tool, "ha__HassTurnOn"),
            Some(("ha".into(), "HassTurnOn".into()))
        );
        assert_eq!(
            router.origin(InvocationKind::Resource, "homey+homey://zones"),
            Some(("homey".into(), "homey://zones".into()))
        );
        // a name stays when the other source goes away
        let (catalog, _, _) = merge(
            &[a.clone(), b.with_available(false)],
            SourceNaming::Prefixed,
        )
        .unwrap();
        assert_eq!(tool_names(&catalog), ["ha__get_state", "ha__HassTurnOn"]);
        // the default keeps names only one source offers
        let (catalog, _, _) = merge(&[a], SourceNaming::Collisions).unwrap();
        assert_eq!(tool_names(&catalog), ["get_state", "HassTurnOn"]);
        // a prefixed name that another source's name spells too gets a suffix
        let x = source("a", &["b__c"], "x://1");
        let y = source("a__b", &["c"], "x://2");
        let (catalog, _, _) = merge(&[x, y], SourceNaming::Prefixed).unwrap();
        assert_eq!(tool_names(&catalog), ["a__b__c", "a__b__c_2"]);
    }
}
