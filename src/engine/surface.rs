//! Resources, resource templates and prompts: what the host registers
//! besides tools, checked once when set.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind};

/// Resources, resource templates and prompts a server offers besides its
/// tools, as MCP objects (`Resource`, `ResourceTemplate`, `Prompt`). Every
/// field of each is passed on as given.
///
/// ```
/// use mcp_switchboard::engine::Surface;
/// use serde_json::json;
///
/// let s = Surface::new()
///     .with_resources(vec![json!({"uri": "home://areas", "name": "areas"})])?
///     .with_prompts(vec![json!({"name": "assist", "arguments": [{"name": "area", "required": true}]})])?;
/// assert_eq!(s.prompts().len(), 1);
/// assert!(Surface::new().with_prompts(vec![json!({"title": "no name"})]).is_err());
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Surface {
    resources: Vec<Value>,
    templates: Vec<Value>,
    prompts: Vec<Value>,
    has_resources: bool,
    has_prompts: bool,
}

fn check(items: &[Value], what: &str, key: &str) -> Result<(), Error> {
    for (i, item) in items.iter().enumerate() {
        let ok = item.get(key).and_then(Value::as_str).is_some()
            && (key == "name" || item.get("name").and_then(Value::as_str).is_some());
        if !ok {
            return Err(Error::new(
                ErrorKind::Shape,
                format!("/{i}"),
                format!("a {what} needs a string \"{key}\" and a string \"name\""),
            ));
        }
    }
    Ok(())
}

impl Surface {
    /// Nothing besides tools: the server offers no resources or prompts
    /// (and does not advertise those capabilities).
    pub fn new() -> Surface {
        Surface::default()
    }

    /// With these resources (each a `Resource`: `uri` and `name`); the
    /// server then advertises the `resources` capability.
    pub fn with_resources(mut self, resources: Vec<Value>) -> Result<Surface, Error> {
        check(&resources, "resource", "uri")?;
        self.resources = resources;
        self.has_resources = true;
        Ok(self)
    }

    /// With these resource templates (each a `ResourceTemplate`:
    /// `uriTemplate` and `name`); the server then advertises `resources`.
    pub fn with_templates(mut self, templates: Vec<Value>) -> Result<Surface, Error> {
        check(&templates, "resource template", "uriTemplate")?;
        self.templates = templates;
        self.has_resources = true;
        Ok(self)
    }

    /// With these prompts (each a `Prompt`: `name`, and `arguments` with
    /// `name` and `required`); the server then advertises `prompts`.
    pub fn with_prompts(mut self, prompts: Vec<Value>) -> Result<Surface, Error> {
        check(&prompts, "prompt", "name")?;
        self.prompts = prompts;
        self.has_prompts = true;
        Ok(self)
    }

    /// The resources.
    pub fn resources(&self) -> &[Value] {
        &self.resources
    }

    /// The resource templates.
    pub fn templates(&self) -> &[Value] {
        &self.templates
    }

    /// The prompts.
    pub fn prompts(&self) -> &[Value] {
        &self.prompts
    }

    /// Whether the server offers resources (possibly none yet).
    pub fn offers_resources(&self) -> bool {
        self.has_resources
    }

    /// Whether the server offers prompts (possibly none yet).
    pub fn offers_prompts(&self) -> bool {
        self.has_prompts
    }

    pub(crate) fn prompt(&self, name: &str) -> Option<&Value> {
        self.prompts
            .iter()
            .find(|p| p.get("name").and_then(Value::as_str) == Some(name))
    }

    /// Finds what a URI reads: a listed resource, or the first template it
    /// matches, with the template's variables.
    pub(crate) fn resolve(&self, uri: &str) -> Option<Option<(String, Map<String, Value>)>> {
        if self
            .resources
            .iter()
            .any(|r| r.get("uri").and_then(Value::as_str) == Some(uri))
        {
            return Some(None);
        }
        self.templates.iter().find_map(|t| {
            let template = t.get("uriTemplate").and_then(Value::as_str)?;
            match_template(template, uri).map(|vars| Some((template.to_string(), vars)))
        })
    }

    pub(crate) fn has_template(&self, uri_template: &str) -> bool {
        self.templates
            .iter()
            .any(|t| t.get("uriTemplate").and_then(Value::as_str) == Some(uri_template))
    }
}

/// Matches a URI against an RFC 6570 template of simple expressions
/// (`{var}`, `{+var}`, `{#var}`; `{a,b}` takes the first name). A plain
/// expression takes one or more characters up to the next literal and never
/// a `/`; `+` and `#` may take `/`. Returns the variables.
pub(crate) fn match_template(template: &str, uri: &str) -> Option<Map<String, Value>> {
    // split into literals and expressions
    let mut parts: Vec<(bool, &str)> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = rest.get(open..)?.find('}')? + open;
        parts.push((false, rest.get(..open)?));
        parts.push((true, rest.get(open + 1..close)?));
        rest = rest.get(close + 1..)?;
    }
    parts.push((false, rest));
    let mut vars = Map::new();
    if match_parts(&parts, uri, &mut vars, 0) {
        Some(vars)
    } else {
        None
    }
}

fn match_parts(
    parts: &[(bool, &str)],
    uri: &str,
    vars: &mut Map<String, Value>,
    depth: usize,
) -> bool {
    if depth > 64 {
        return false;
    }
    let Some(((is_expr, text), tail)) = parts.split_first() else {
        return uri.is_empty();
    };
    if !is_expr {
        return uri
            .strip_prefix(text)
            .is_some_and(|rest| match_parts(tail, rest, vars, depth + 1));
    }
    let (reserved, names) = match text.chars().next() {
        Some('+') | Some('#') => (true, text.get(1..).unwrap_or("")),
        Some('/') | Some('.') | Some(';') | Some('?') | Some('&') => {
            (false, text.get(1..).unwrap_or(""))
        }
        _ => (false, *text),
    };
    let name = names.split(',').next().unwrap_or("").trim_end_matches('*');
    // try every end, shortest first
    let ends = uri
        .char_indices()
        .map(|(i, _)| i)
        .skip(1)
        .chain(std::iter::once(uri.len()));
    for end in ends.filter(|&e| e > 0) {
        let taken = uri.get(..end).unwrap_or("");
        if !reserved && taken.contains('/') {
            break;
        }
        if match_parts(tail, uri.get(end..).unwrap_or(""), vars, depth + 1) {
            vars.insert(name.to_string(), Value::String(taken.to_string()));
            return true;
        }
    }
    false
}

/// The names of a prompt's required arguments that `args` lacks.
pub(crate) fn missing_arguments(prompt: &Value, args: &Value) -> Vec<String> {
    prompt
        .get("arguments")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter(|a| a.get("required").and_then(Value::as_bool) == Some(true))
                .filter_map(|a| a.get("name").and_then(Value::as_str))
                .filter(|n| args.get(n).is_none_or(Value::is_null))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn templates_match() {
        let v =
            match_template("home://area/{area}/devices", "home://area/kitchen/devices").unwrap();
        assert_eq!(v["area"], "kitchen");
        assert!(match_template("home://area/{area}", "home://area/a/b").is_none());
        assert_eq!(
            match_template("file:///{+path}", "file:///a/b.txt").unwrap()["path"],
            "a/b.txt"
        );
        assert!(match_template("x://{a}", "x://").is_none());
        assert!(match_template("x://{a", "x://b").is_none());
        let v = match_template("x://{a}-{b}", "x://1-2").unwrap();
        assert_eq!((v["a"].as_str(), v["b"].as_str()), (Some("1"), Some("2")));
    }

    #[test]
    fn required_arguments() {
        let p = json!({"name": "p", "arguments": [{"name": "a", "required": true}, {"name": "b"}]});
        assert_eq!(missing_arguments(&p, &json!({})), vec!["a"]);
        assert!(missing_arguments(&p, &json!({"a": "x"})).is_empty());
    }
}
