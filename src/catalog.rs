//! Reading tool catalogs: `tools/list` responses, bare results, bare arrays
//! of tools and several pages, keeping every field of every tool.

use foldhash::HashMap;

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind};
use crate::pointer;
use crate::report::{Action, ReportEntry};

/// Size limits applied while reading input. The defaults suit a hub with
/// little memory and are far above any real catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Largest input accepted, in bytes (default 64 MiB).
    pub max_input_bytes: usize,
    /// Most tools accepted in one catalog (default 100,000).
    pub max_tools: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: 64 * 1024 * 1024,
            max_tools: 100_000,
        }
    }
}

impl Limits {
    /// Checks the input size against `max_input_bytes`.
    pub(crate) fn check_size(&self, len: usize) -> Result<(), Error> {
        if len > self.max_input_bytes {
            return Err(Error::new(
                ErrorKind::Limit,
                "",
                format!(
                    "input is {len} bytes; the limit is {} bytes (raise max_input_bytes to read it)",
                    self.max_input_bytes
                ),
            ));
        }
        Ok(())
    }
}

/// One MCP tool, with every field it came with.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    name: String,
    pointer: String,
    raw: Map<String, Value>,
}

impl Tool {
    /// Reads one tool object. `pointer` is where it sits in the input
    /// document, used in every report entry about it.
    pub fn from_value(value: Value, pointer: &str) -> Result<(Tool, Vec<ReportEntry>), Error> {
        let Value::Object(mut raw) = value else {
            return Err(Error::new(
                ErrorKind::Shape,
                pointer,
                format!("a tool must be a JSON object, not {}", kind_of(&value)),
            ));
        };
        let name = match raw.get("name") {
            Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
            Some(Value::String(_)) => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    pointer::push(pointer, "name"),
                    "the tool name is empty",
                ))
            }
            Some(other) => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    pointer::push(pointer, "name"),
                    format!("the tool name must be a string, not {}", kind_of(other)),
                ))
            }
            None => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    pointer,
                    "the tool has no \"name\"",
                ))
            }
        };
        let mut notes = Vec::new();
        if let Some(why) = mcp_name_problem(&name) {
            notes.push(ReportEntry {
                tool: Some(name.clone()),
                pointer: pointer::push(pointer, "name"),
                keyword: "name".into(),
                action: Action::Flagged,
                detail: format!("{why}; MCP tool names are 1 to 128 of A-Z, a-z, 0-9, _, - and . (kept as it is; each dialect's name is made to fit its rule)"),
            });
        }
        match raw.get("inputSchema") {
            None => {
                raw.insert("inputSchema".into(), serde_json::json!({"type": "object"}));
                notes.push(ReportEntry {
                    tool: Some(name.clone()),
                    pointer: pointer::push(pointer, "inputSchema"),
                    keyword: "inputSchema".into(),
                    action: Action::Added,
                    detail: "the tool has no inputSchema (MCP requires one); read as a tool without parameters".into(),
                });
            }
            Some(Value::Object(schema)) => {
                if let Some(t) = schema.get("type") {
                    if t != "object" {
                        return Err(Error::new(
                            ErrorKind::Shape,
                            pointer::push(&pointer::push(pointer, "inputSchema"), "type"),
                            format!("an inputSchema must describe an object, not {t}"),
                        ));
                    }
                }
            }
            Some(other) => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    pointer::push(pointer, "inputSchema"),
                    format!("inputSchema must be a JSON object, not {}", kind_of(other)),
                ))
            }
        }
        for key in ["description", "title"] {
            if let Some(v) = raw.get(key) {
                if !v.is_string() {
                    notes.push(ReportEntry {
                        tool: Some(name.clone()),
                        pointer: pointer::push(pointer, key),
                        keyword: key.into(),
                        action: Action::Dropped,
                        detail: format!("{key} is {}, not a string; ignored", kind_of(v)),
                    });
                }
            }
        }
        Ok((
            Tool {
                name,
                pointer: pointer.to_string(),
                raw,
            },
            notes,
        ))
    }

    /// The MCP name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The JSON Pointer of this tool in the document it was read from.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// `title`, or `annotations.title` when there is no top-level title.
    pub fn title(&self) -> Option<&str> {
        non_empty(self.raw.get("title"))
            .or_else(|| non_empty(self.annotations().and_then(|a| a.get("title"))))
    }

    /// The description, when it is a non-empty string.
    pub fn description(&self) -> Option<&str> {
        non_empty(self.raw.get("description"))
    }

    /// The input schema (always a JSON object).
    pub fn input_schema(&self) -> &Value {
        static EMPTY: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
        self.raw
            .get("inputSchema")
            .unwrap_or_else(|| EMPTY.get_or_init(|| serde_json::json!({"type": "object"})))
    }

    /// The output schema, when the tool declares one.
    pub fn output_schema(&self) -> Option<&Value> {
        self.raw.get("outputSchema").filter(|v| v.is_object())
    }

    /// The annotations object, when present.
    pub fn annotations(&self) -> Option<&Map<String, Value>> {
        self.raw.get("annotations").and_then(Value::as_object)
    }

    /// A boolean annotation hint such as `readOnlyHint`.
    pub fn hint(&self, key: &str) -> Option<bool> {
        self.annotations()
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
    }

    /// Any field of the tool as it was read (`_meta`, `icons`, ...).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.raw.get(key)
    }

    /// The whole tool object, every field kept.
    pub fn as_map(&self) -> &Map<String, Value> {
        &self.raw
    }

    /// The name and the input schema, the rest let go.
    pub(crate) fn into_name_and_input_schema(mut self) -> (String, Value) {
        let schema = self
            .raw
            .remove("inputSchema")
            .unwrap_or_else(|| serde_json::json!({"type": "object"}));
        (self.name, schema)
    }
}

/// What makes `name` an invalid MCP tool name (MCP 2025-11-25: 1 to 128
/// characters of `A-Z a-z 0-9 _ - .`), or `None`.
pub(crate) fn mcp_name_problem(name: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    if name.len() <= 128 && name.bytes().all(|b| allowed(char::from(b))) {
        return None;
    }
    let len = name.chars().count();
    if len > 128 {
        return Some(format!("the tool name is {len} characters long"));
    }
    let mut bad: Vec<char> = Vec::new();
    for c in name.chars().filter(|&c| !allowed(c)) {
        if !bad.contains(&c) {
            bad.push(c);
        }
    }
    if bad.is_empty() {
        return None;
    }
    // as Rust writes a character: control characters escaped, never raw
    let shown: Vec<String> = bad.iter().take(5).map(|c| format!("{c:?}")).collect();
    Some(format!("the tool name has {}", shown.join(", ")))
}

/// A list of MCP tools read from one or more `tools/list` pages, plus what
/// was skipped on the way.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalog {
    tools: Vec<Tool>,
    /// Name → position in `tools`.
    by_name: HashMap<String, usize>,
    report: Vec<ReportEntry>,
    next_cursor: Option<String>,
}

impl Catalog {
    /// Reads a catalog from JSON bytes with the default [`Limits`].
    ///
    /// Accepted shapes: a `tools/list` JSON-RPC response, its bare `result`
    /// (`{"tools": [...]}`), a bare array of tools, a single tool, an array of
    /// pages (responses or results), or several JSON documents one after the
    /// other (pages as a server sent them). Malformed tools are skipped and
    /// listed in [`Catalog::report`]; the rest are kept.
    pub fn parse(input: &[u8]) -> Result<Catalog, Error> {
        Catalog::parse_with(input, &Limits::default())
    }

    /// [`Catalog::parse`] with explicit limits.
    pub fn parse_with(input: &[u8], limits: &Limits) -> Result<Catalog, Error> {
        limits.check_size(input.len())?;
        let text = utf8(input)?;
        // one document, the usual case, is read by serde_json's `FromStr`:
        // compiled with serde_json (at its opt-level, see Cargo.toml), not
        // in this crate at "z", it reads a catalog about 1.4 times as fast;
        // pages one after the other, and errors, are read one by one
        if let Ok(value) = text.parse::<Value>() {
            return Catalog::from_value_with(value, limits);
        }
        let mut docs = crate::rawjson::documents(text).map_err(|e| Error::json(&e))?;
        let value = match docs.len() {
            0 => return Err(Error::new(ErrorKind::Json, "", "the input is empty")),
            1 => docs.pop().unwrap_or(Value::Null),
            _ => Value::Array(docs),
        };
        Catalog::from_value_with(value, limits)
    }

    /// Reads a catalog from an already parsed JSON value.
    pub fn from_value(value: Value) -> Result<Catalog, Error> {
        Catalog::from_value_with(value, &Limits::default())
    }

    fn from_value_with(value: Value, limits: &Limits) -> Result<Catalog, Error> {
        let mut catalog = Catalog::default();
        match value {
            Value::Array(items) if items.iter().all(is_page) && !items.is_empty() => {
                for (i, page) in items.into_iter().enumerate() {
                    catalog.add_page(page, &pointer::index("", i), limits)?;
                }
            }
            Value::Array(items) => catalog.add_tools(items, "", limits)?,
            Value::Object(ref map) if map.contains_key("name") && !is_page(&value) => {
                catalog.add_tools(vec![value], "", limits)?;
                // a lone tool sits at the root, not at index 0
                if let Some(t) = catalog.tools.first_mut() {
                    t.pointer = String::new();
                }
            }
            other => catalog.add_page(other, "", limits)?,
        }
        Ok(catalog)
    }

    /// Adds one more page (a response or a bare result) to the catalog, as a
    /// client does when it follows `nextCursor`. Tools whose names are
    /// already present are skipped with a report entry.
    pub fn extend_page(&mut self, input: &[u8]) -> Result<(), Error> {
        let limits = Limits::default();
        limits.check_size(input.len())?;
        let value: Value = utf8(input)?.parse().map_err(|e| Error::json(&e))?;
        self.add_page(value, "", &limits)
    }

    fn add_page(&mut self, page: Value, at: &str, limits: &Limits) -> Result<(), Error> {
        let Value::Object(mut map) = page else {
            return Err(Error::new(
                ErrorKind::Shape,
                at,
                format!(
                    "expected a tools/list response, its result, or an array of tools; got {}",
                    kind_of(&page)
                ),
            ));
        };
        if let Some(err) = map.get("error") {
            let code = err.get("code").and_then(Value::as_i64).unwrap_or(0);
            let msg = err
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("no message");
            return Err(Error::new(
                ErrorKind::Upstream,
                pointer::push(at, "error"),
                format!("the server answered with JSON-RPC error {code}: {msg}"),
            ));
        }
        let (mut result, at) = match map.remove("result") {
            Some(Value::Object(r)) => (r, pointer::push(at, "result")),
            Some(other) => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    pointer::push(at, "result"),
                    format!("result must be an object, not {}", kind_of(&other)),
                ))
            }
            None => (map, at.to_string()),
        };
        let tools_at = pointer::push(&at, "tools");
        let tools = match result.remove("tools") {
            Some(Value::Array(tools)) => tools,
            Some(other) => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    tools_at,
                    format!("tools must be an array, not {}", kind_of(&other)),
                ))
            }
            None => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    at,
                    "no \"tools\" array here: expected a tools/list response, its result, or an array of tools",
                ))
            }
        };
        self.next_cursor = result
            .get("nextCursor")
            .and_then(Value::as_str)
            .map(str::to_owned);
        self.add_tools(tools, &tools_at, limits)
    }

    fn add_tools(&mut self, tools: Vec<Value>, at: &str, limits: &Limits) -> Result<(), Error> {
        if self.tools.len() + tools.len() > limits.max_tools {
            return Err(Error::new(
                ErrorKind::Limit,
                at,
                format!(
                    "{} tools; the limit is {} (raise max_tools to read them)",
                    self.tools.len() + tools.len(),
                    limits.max_tools
                ),
            ));
        }
        for (i, value) in tools.into_iter().enumerate() {
            let here = pointer::index(at, i);
            match Tool::from_value(value, &here) {
                Ok((tool, notes)) => {
                    if let Some(first) = self
                        .by_name
                        .get(&tool.name)
                        .and_then(|&i| self.tools.get(i))
                    {
                        self.report.push(ReportEntry {
                            tool: Some(tool.name.clone()),
                            pointer: here,
                            keyword: "name".into(),
                            action: Action::Skipped,
                            detail: format!(
                                "a second tool named {:?}; the first one (at {}) is kept",
                                tool.name, first.pointer
                            ),
                        });
                        continue;
                    }
                    self.report.extend(notes);
                    self.by_name.insert(tool.name.clone(), self.tools.len());
                    self.tools.push(tool);
                }
                Err(e) => self.report.push(ReportEntry {
                    tool: None,
                    pointer: e.pointer().to_string(),
                    keyword: "tool".into(),
                    action: Action::Skipped,
                    detail: format!("tool skipped: {}", e.message()),
                }),
            }
        }
        Ok(())
    }

    /// Builds a catalog from tools already read. A second tool with a name
    /// already present is left out.
    pub fn from_tools(tools: Vec<Tool>) -> Catalog {
        let mut c = Catalog::default();
        for t in tools {
            if !c.by_name.contains_key(&t.name) {
                c.by_name.insert(t.name.clone(), c.tools.len());
                c.tools.push(t);
            }
        }
        c
    }

    /// The tools, in the order they were read.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// The tools, in the order they were read, the catalog let go.
    pub(crate) fn into_tools(self) -> Vec<Tool> {
        self.tools
    }

    /// The tool with this MCP name.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.by_name.get(name).and_then(|&i| self.tools.get(i))
    }

    /// Number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether there are no tools.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// What reading skipped or filled in: malformed tools (with their JSON
    /// Pointer), duplicates, missing input schemas.
    pub fn report(&self) -> &[ReportEntry] {
        &self.report
    }

    /// The `nextCursor` of the last page read, when the server has more.
    pub fn next_cursor(&self) -> Option<&str> {
        self.next_cursor.as_deref()
    }
}

/// The input as text: JSON is UTF-8.
fn utf8(input: &[u8]) -> Result<&str, Error> {
    std::str::from_utf8(input).map_err(|e| {
        Error::new(
            ErrorKind::Json,
            "",
            format!(
                "not valid JSON: the input is not UTF-8 (at byte {})",
                e.valid_up_to()
            ),
        )
    })
}

fn is_page(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.contains_key("result")
            || m.contains_key("error")
            || m.get("tools").is_some_and(Value::is_array)
    })
}

fn non_empty(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A short name for the JSON type of a value, for messages.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(c: &Catalog) -> Vec<&str> {
        c.tools().iter().map(Tool::name).collect()
    }

    #[test]
    fn reads_every_shape() {
        let tool = json!({"name": "a", "inputSchema": {"type": "object"}});
        let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool]}});
        let result = json!({"tools": [tool]});
        let array = json!([tool]);
        for v in [response, result, array, tool.clone()] {
            let c = Catalog::parse(v.to_string().as_bytes()).unwrap();
            assert_eq!(names(&c), vec!["a"]);
        }
    }

    #[test]
    fn reads_pages_as_array_and_as_stream() {
        let p1 = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {"type":"object"}}], "nextCursor": "x"}});
        let p2 = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "b", "inputSchema": {"type":"object"}}]}});
        let arr = Catalog::parse(json!([p1, p2]).to_string().as_bytes()).unwrap();
        assert_eq!(names(&arr), vec!["a", "b"]);
        assert_eq!(arr.tools()[1].pointer(), "/1/result/tools/0");
        let stream = format!("{p1}\n{p2}\n");
        let s = Catalog::parse(stream.as_bytes()).unwrap();
        assert_eq!(names(&s), vec!["a", "b"]);
        assert_eq!(s.next_cursor(), None);
        let mut paged = Catalog::parse(p1.to_string().as_bytes()).unwrap();
        assert_eq!(paged.next_cursor(), Some("x"));
        paged.extend_page(p2.to_string().as_bytes()).unwrap();
        assert_eq!(names(&paged), vec!["a", "b"]);
    }

    #[test]
    fn names_mcp_does_not_allow_are_kept_and_flagged() {
        let long = "x".repeat(129);
        let v = json!([
            {"name": "turn on/off", "inputSchema": {"type": "object"}},
            {"name": long, "inputSchema": {"type": "object"}},
            {"name": "ok_name-1.v2", "inputSchema": {"type": "object"}}
        ]);
        let c = Catalog::parse(v.to_string().as_bytes()).unwrap();
        assert_eq!(c.len(), 3);
        let flagged: Vec<(&str, &str)> = c
            .report()
            .iter()
            .filter(|e| e.action == Action::Flagged)
            .map(|e| (e.pointer.as_str(), e.detail.as_str()))
            .collect();
        assert_eq!(flagged.len(), 2);
        assert_eq!(flagged[0].0, "/0/name");
        assert!(
            flagged[0].1.starts_with("the tool name has ' ', '/';"),
            "{}",
            flagged[0].1
        );
        assert!(flagged[1]
            .1
            .starts_with("the tool name is 129 characters long"));
    }

    #[test]
    fn keeps_unknown_fields() {
        let v = json!([{"name": "a", "title": "A", "inputSchema": {"type": "object"}, "_meta": {"x": 1}, "icons": [{"src": "i.png"}], "outputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}]);
        let c = Catalog::parse(v.to_string().as_bytes()).unwrap();
        let t = &c.tools()[0];
        assert_eq!(t.get("_meta"), Some(&json!({"x": 1})));
        assert_eq!(t.get("icons"), Some(&json!([{"src": "i.png"}])));
        assert!(t.output_schema().is_some());
        assert_eq!(t.hint("readOnlyHint"), Some(true));
        assert_eq!(t.title(), Some("A"));
    }

    #[test]
    fn skips_malformed_tools_with_pointers() {
        let v = json!({"result": {"tools": [
            {"name": "ok", "inputSchema": {"type": "object"}},
            42,
            {"inputSchema": {}},
            {"name": "bad", "inputSchema": "nope"},
            {"name": "str", "inputSchema": {"type": "string"}},
            {"name": "ok", "inputSchema": {"type": "object"}},
            {"name": "noschema"}
        ]}});
        let c = Catalog::parse(v.to_string().as_bytes()).unwrap();
        assert_eq!(names(&c), vec!["ok", "noschema"]);
        let ptrs: Vec<_> = c
            .report()
            .iter()
            .map(|r| (r.pointer.as_str(), r.action))
            .collect();
        assert_eq!(
            ptrs,
            vec![
                ("/result/tools/1", Action::Skipped),
                ("/result/tools/2", Action::Skipped),
                ("/result/tools/3/inputSchema", Action::Skipped),
                ("/result/tools/4/inputSchema/type", Action::Skipped),
                ("/result/tools/5", Action::Skipped),
                ("/result/tools/6/inputSchema", Action::Added),
            ]
        );
    }

    #[test]
    fn bad_documents_are_errors() {
        let cases: &[(&[u8], ErrorKind)] = &[
            (b"", ErrorKind::Json),
            (b"{\"result\": ", ErrorKind::Json),
            (b"\"hello\"", ErrorKind::Shape),
            (b"{\"result\": {\"tools\": 3}}", ErrorKind::Shape),
            (
                b"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"nope\"}}",
                ErrorKind::Upstream,
            ),
            (
                b"[{\"name\": \"a\", \"description\": \"\xff\xfe\"}]",
                ErrorKind::Json,
            ),
        ];
        for (input, kind) in cases {
            let err = Catalog::parse(input).unwrap_err();
            assert_eq!(err.kind(), *kind, "{err}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        let err = Catalog::parse(deep.as_bytes()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Json);
        assert!(err.message().contains("recursion limit"), "{err}");
    }

    #[test]
    fn limits_are_enforced() {
        let limits = Limits {
            max_input_bytes: 10,
            ..Limits::default()
        };
        let err = Catalog::parse_with(b"[                 ]", &limits).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Limit);
        let limits = Limits {
            max_tools: 1,
            ..Limits::default()
        };
        let two = json!([{"name": "a"}, {"name": "b"}]).to_string();
        assert_eq!(
            Catalog::parse_with(two.as_bytes(), &limits)
                .unwrap_err()
                .kind(),
            ErrorKind::Limit
        );
    }
}
