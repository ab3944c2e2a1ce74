//! The `web_fetch` and `web_search` tool definitions, and their search
//! metadata (category `web`), ready to sit in a catalog beside the home's
//! tools.

use serde_json::Value;

use crate::catalog::{Catalog, Tool};

/// The name of the fetch tool.
pub const WEB_FETCH: &str = "web_fetch";
/// The name of the search tool.
pub const WEB_SEARCH: &str = "web_search";

/// `web_fetch`'s MCP tool definition.
pub fn web_fetch_tool() -> Value {
    serde_json::from_str(FETCH_TOOL).unwrap_or(Value::Null)
}

const FETCH_TOOL: &str = r#"{
  "name": "web_fetch",
  "title": "Read a web page",
  "description": "Fetch a web page (http or https) and return its main content as Markdown (or plain text or HTML), with its title and metadata. Use it to read a page found with web_search or given by the user, such as a manual, a weather warning or a news article. Text and JSON are returned as they are; images, PDFs and other binary files cannot be read.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "url": {
        "type": "string",
        "format": "uri",
        "description": "The page's address, starting with http:// or https://."
      },
      "format": {
        "type": "string",
        "enum": [
          "markdown",
          "text",
          "html"
        ],
        "default": "markdown",
        "description": "How to return the page: markdown (default), text or the raw html."
      },
      "timeout": {
        "type": "number",
        "minimum": 1,
        "maximum": 120,
        "default": 30,
        "description": "Seconds to wait for the page (default 30, at most 120)."
      }
    },
    "required": [
      "url"
    ],
    "additionalProperties": false
  },
  "annotations": {
    "title": "Read a web page",
    "readOnlyHint": true,
    "destructiveHint": false,
    "idempotentHint": true,
    "openWorldHint": true
  }
}"#;

/// `web_search`'s MCP tool definition.
pub fn web_search_tool() -> Value {
    serde_json::from_str(SEARCH_TOOL).unwrap_or(Value::Null)
}

const SEARCH_TOOL: &str = r#"{
  "name": "web_search",
  "title": "Search the web",
  "description": "Search the web and return the best matching pages, each with its title, URL, date and a snippet of its text to cite. Describe the page you want in plain words (\"manual of the Thermia HT-200 radiator thermostat\"). Read a result in full with web_fetch.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "query": {
        "type": "string",
        "minLength": 1,
        "maxLength": 2000,
        "description": "What to search for."
      },
      "num_results": {
        "type": "integer",
        "minimum": 1,
        "maximum": 20,
        "default": 8,
        "description": "How many results (default 8)."
      },
      "type": {
        "type": "string",
        "enum": [
          "auto",
          "fast",
          "deep"
        ],
        "default": "auto",
        "description": "auto (default), fast for a quick answer, deep for a thorough search."
      },
      "livecrawl": {
        "type": "string",
        "enum": [
          "fallback",
          "preferred"
        ],
        "description": "preferred to read the pages live (fresher, slower); fallback (default) when no cached copy exists."
      },
      "context_max_chars": {
        "type": "integer",
        "minimum": 1000,
        "maximum": 100000,
        "default": 10000,
        "description": "The most characters of result text (default 10000)."
      }
    },
    "required": [
      "query"
    ],
    "additionalProperties": false
  },
  "annotations": {
    "title": "Search the web",
    "readOnlyHint": true,
    "destructiveHint": false,
    "idempotentHint": false,
    "openWorldHint": true
  }
}"#;

/// Search metadata for both tools (the `metadata` argument of
/// [`crate::ToolIndex::build`] and [`crate::engine::Disclosure`]): category `web`,
/// with words in English, Dutch and German.
pub fn web_tools_metadata() -> Value {
    serde_json::from_str(METADATA).unwrap_or(Value::Null)
}

const METADATA: &str = r#"{
  "tools": {
    "web_fetch": {
      "category": "web",
      "tags": [
        "web",
        "internet",
        "page",
        "url"
      ],
      "keywords": [
        "read page",
        "open link",
        "website",
        "article",
        "manual",
        "webpagina",
        "pagina lezen",
        "Webseite",
        "Seite lesen",
        "Internetseite"
      ]
    },
    "web_search": {
      "category": "web",
      "tags": [
        "web",
        "internet",
        "search"
      ],
      "keywords": [
        "look up",
        "find online",
        "google",
        "news",
        "weather warning",
        "zoeken",
        "opzoeken",
        "internet",
        "suchen",
        "nachschlagen",
        "im Internet"
      ]
    }
  }
}"#;

/// Which web tools to add.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct WebTools {
    /// Add `web_fetch`.
    pub fetch: bool,
    /// Add `web_search`.
    pub search: bool,
}

impl WebTools {
    /// Neither tool.
    pub fn new() -> WebTools {
        WebTools::default()
    }

    /// Both tools.
    pub fn all() -> WebTools {
        WebTools {
            fetch: true,
            search: true,
        }
    }

    /// Adds (or not) `web_fetch`.
    pub fn with_fetch(mut self, on: bool) -> WebTools {
        self.fetch = on;
        self
    }

    /// Adds (or not) `web_search`.
    pub fn with_search(mut self, on: bool) -> WebTools {
        self.search = on;
        self
    }

    /// The chosen definitions.
    pub fn definitions(self) -> Vec<Value> {
        let mut out = Vec::new();
        if self.fetch {
            out.push(web_fetch_tool());
        }
        if self.search {
            out.push(web_search_tool());
        }
        out
    }
}

/// `catalog` with the chosen web tools after its own (a tool of the same
/// name already in the catalog wins).
///
/// ```
/// use mcp_switchboard::web::{merge_web_tools, WebTools};
/// use mcp_switchboard::Catalog;
///
/// let home = Catalog::parse(br#"[{"name": "set_light", "inputSchema": {"type": "object"}}]"#)?;
/// let both = merge_web_tools(&home, WebTools::all());
/// let names: Vec<&str> = both.tools().iter().map(|t| t.name()).collect();
/// assert_eq!(names, ["set_light", "web_fetch", "web_search"]);
/// assert_eq!(both.get("web_fetch").and_then(|t| t.hint("readOnlyHint")), Some(true));
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
pub fn merge_web_tools(catalog: &Catalog, which: WebTools) -> Catalog {
    let mut tools: Vec<Tool> = catalog.tools().to_vec();
    for def in which.definitions() {
        if let Ok((tool, _)) = Tool::from_value(def, "") {
            tools.push(tool);
        }
    }
    Catalog::from_tools(tools)
}

/// Whether `name` is one of the web tools.
pub fn is_web_tool(name: &str) -> bool {
    name == WEB_FETCH || name == WEB_SEARCH
}
