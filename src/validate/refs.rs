//! Where `$ref` points: the schema's resources (`$id`), anchors (`$anchor`)
//! and JSON Pointer fragments, with RFC 3986 reference resolution. Only the
//! schema itself is searched: nothing is fetched.

use foldhash::{HashMap, HashMapExt};
use std::rc::Rc;

use serde_json::Value;

use crate::pointer;

/// The base URI of a schema without `$id`.
const DEFAULT_BASE: &str = "urn:x-mcp-switchboard:schema";

/// Keywords whose value is an object of subschemas.
const MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is one subschema.
const ONE_KEYWORDS: &[&str] = &[
    "additionalProperties",
    "propertyNames",
    "items",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];
/// Keywords whose value is an array of subschemas.
const LIST_KEYWORDS: &[&str] = &["prefixItems", "allOf", "anyOf", "oneOf", "items"];

/// The identity of a schema node: its address, stable while the schema is
/// borrowed. Used for loop detection and caches, never dereferenced.
pub(crate) fn addr(v: &Value) -> usize {
    v as *const Value as usize
}

/// Every `$id` and `$anchor` of one schema document.
pub(crate) struct Index<'s> {
    /// The base URI of the root.
    pub(crate) root_base: Rc<str>,
    resources: HashMap<String, &'s Value>,
    anchors: HashMap<String, &'s Value>,
    /// The absolute base URI of each node that has an `$id`.
    ids: HashMap<usize, Rc<str>>,
}

impl<'s> Index<'s> {
    /// Walks the schema once (without recursion) and records its resources
    /// and anchors.
    pub(crate) fn new(root: &'s Value) -> Self {
        let mut index = Index {
            root_base: Rc::from(DEFAULT_BASE),
            resources: HashMap::new(),
            anchors: HashMap::new(),
            ids: HashMap::new(),
        };
        index.resources.insert(DEFAULT_BASE.to_string(), root);
        let mut stack: Vec<(&'s Value, Rc<str>)> = vec![(root, Rc::from(DEFAULT_BASE))];
        let mut first = true;
        while let Some((node, base)) = stack.pop() {
            let Value::Object(m) = node else { continue };
            let mut base = base;
            if let Some(Value::String(id)) = m.get("$id") {
                let abs: Rc<str> = Rc::from(strip_fragment(&resolve(&base, id)));
                index.resources.insert(abs.to_string(), node);
                index.ids.insert(addr(node), abs.clone());
                if first {
                    index.root_base = abs.clone();
                }
                base = abs;
            }
            first = false;
            // one pass over the entries: map lookups hash every key name
            for (key, child) in m {
                let key = key.as_str();
                match child {
                    Value::String(a) if key == "$anchor" || key == "$dynamicAnchor" => {
                        index.anchors.entry(format!("{base}#{a}")).or_insert(node);
                    }
                    Value::Object(children) if MAP_KEYWORDS.contains(&key) => {
                        stack.extend(children.values().map(|c| (c, base.clone())));
                    }
                    Value::Object(_) if ONE_KEYWORDS.contains(&key) => {
                        stack.push((child, base.clone()))
                    }
                    Value::Array(children) if LIST_KEYWORDS.contains(&key) => {
                        stack.extend(children.iter().map(|c| (c, base.clone())));
                    }
                    _ => {}
                }
            }
        }
        index
    }

    /// The base URI of `node` when it has an `$id`.
    pub(crate) fn id_base(&self, node: &Value) -> Option<&Rc<str>> {
        self.ids.get(&addr(node))
    }

    /// The schema that `reference` points to from a schema whose base URI
    /// is `base`, with the target's own base URI. `None` when it points
    /// outside this schema or to nothing.
    pub(crate) fn resolve(&self, base: &str, reference: &str) -> Option<(&'s Value, Rc<str>)> {
        let (uri, fragment) = match reference.split_once('#') {
            Some((u, f)) => (u, Some(f)),
            None => (reference, None),
        };
        let abs: String = if uri.is_empty() {
            strip_fragment(base).to_string()
        } else {
            strip_fragment(&resolve(base, uri)).to_string()
        };
        let fragment = fragment.map(pointer::percent_decode).unwrap_or_default();
        if fragment.is_empty() {
            let node = self.resources.get(&abs)?;
            let base = self.id_base(node).cloned().unwrap_or_else(|| Rc::from(abs));
            return Some((node, base));
        }
        if !fragment.starts_with('/') {
            let node = self.anchors.get(&format!("{abs}#{fragment}"))?;
            let base = self.id_base(node).cloned().unwrap_or_else(|| Rc::from(abs));
            return Some((node, base));
        }
        let mut node: &'s Value = self.resources.get(&abs)?;
        let mut base: Rc<str> = self.id_base(node).cloned().unwrap_or_else(|| Rc::from(abs));
        for token in pointer::tokens(&fragment)? {
            node = match node {
                Value::Object(m) => m.get(&token)?,
                Value::Array(a) => {
                    if token.len() > 1 && token.starts_with('0') {
                        return None;
                    }
                    a.get(token.parse::<usize>().ok()?)?
                }
                _ => return None,
            };
            if let Some(b) = self.id_base(node) {
                base = b.clone();
            }
        }
        Some((node, base))
    }
}

fn strip_fragment(uri: &str) -> &str {
    uri.split_once('#').map_or(uri, |(u, _)| u)
}

/// The parts of a URI reference (RFC 3986 §3).
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split(uri: &str) -> Parts<'_> {
    let (rest, fragment) = match uri.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (uri, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let (scheme, rest) = match rest.find(':') {
        Some(i)
            if rest.get(..i).is_some_and(|s| {
                s.starts_with(|c: char| c.is_ascii_alphabetic())
                    && s.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
            }) =>
        {
            (rest.get(..i), rest.get(i + 1..).unwrap_or_default())
        }
        _ => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find('/').unwrap_or(r.len());
            (r.get(..end), r.get(end..).unwrap_or_default())
        }
        None => (None, rest),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// Resolves a URI reference against a base URI (RFC 3986 §5.2.2).
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let r = split(reference);
    let b = split(base);
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        scheme = r.scheme;
        authority = r.authority;
        path = remove_dots(r.path);
        query = r.query;
    } else {
        scheme = b.scheme;
        if r.authority.is_some() {
            authority = r.authority;
            path = remove_dots(r.path);
            query = r.query;
        } else {
            authority = b.authority;
            if r.path.is_empty() {
                path = b.path.to_string();
                query = r.query.or(b.query);
            } else {
                path = if r.path.starts_with('/') {
                    remove_dots(r.path)
                } else if b.authority.is_some() && b.path.is_empty() {
                    remove_dots(&format!("/{}", r.path))
                } else {
                    let dir = b
                        .path
                        .rfind('/')
                        .map_or("", |i| b.path.get(..=i).unwrap_or(""));
                    remove_dots(&format!("{dir}{}", r.path))
                };
                query = r.query;
            }
        }
    }
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = r.fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// RFC 3986 §5.2.4.
fn remove_dots(path: &str) -> String {
    if !path.contains('.') {
        return path.to_string();
    }
    let absolute = path.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    let mut trailing = false;
    for (i, seg) in segments.iter().enumerate() {
        if i == 0 && absolute {
            continue;
        }
        match *seg {
            "." => trailing = i == last,
            ".." => {
                out.pop();
                trailing = i == last;
            }
            s => {
                out.push(s);
                trailing = false;
            }
        }
    }
    let mut joined = out.join("/");
    if trailing && !joined.is_empty() {
        joined.push('/');
    }
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_references_like_rfc_3986() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../g", "http://a/g"),
            ("urn:x:y", "urn:x:y"),
        ] {
            assert_eq!(resolve(base, r), want, "{r}");
        }
        assert_eq!(
            resolve("http://example.com", "a.json"),
            "http://example.com/a.json"
        );
    }

    #[test]
    fn finds_ids_anchors_and_pointers() {
        let s = json!({
            "$id": "http://x.test/root.json",
            "$defs": {
                "a b": {"$anchor": "here", "type": "integer"},
                "n": {"$id": "nested/n.json", "$defs": {"m": {"type": "string"}}}
            }
        });
        let ix = Index::new(&s);
        let base = ix.root_base.clone();
        assert_eq!(&*base, "http://x.test/root.json");
        let (t, _) = ix.resolve(&base, "#here").unwrap();
        assert_eq!(t["type"], "integer");
        let (t, _) = ix.resolve(&base, "#/$defs/a%20b").unwrap();
        assert_eq!(t["$anchor"], "here");
        let (t, b) = ix.resolve(&base, "nested/n.json#/$defs/m").unwrap();
        assert_eq!(t["type"], "string");
        assert_eq!(&*b, "http://x.test/nested/n.json");
        let (t, _) = ix.resolve(&base, "#").unwrap();
        assert_eq!(t, &s);
        assert!(ix.resolve(&base, "#/nothing").is_none());
        assert!(ix.resolve(&base, "http://elsewhere.test/").is_none());
    }
}
