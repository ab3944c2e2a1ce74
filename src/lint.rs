//! Lint: per tool, what will go wrong where, and what it costs.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::Value;

use crate::catalog::{Catalog, Tool};
use crate::dialect::{convert, Conversion, Dialect, Options};
use crate::names::NameRule;
use crate::pointer;
use crate::report::ReportEntry;
use crate::tokens::estimate_tokens;

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Severity {
    /// Worth knowing; nothing breaks.
    Info,
    /// The model will see less, or may choose or call the tool badly.
    Warning,
    /// The tool will not reach the model in some dialect.
    Error,
}

/// One lint finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Finding {
    /// How much it matters.
    pub severity: Severity,
    /// The dialect concerned, when only some are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialect: Option<String>,
    /// JSON Pointer in the input document.
    pub pointer: String,
    /// What is wrong and what to do.
    pub message: String,
}

/// Lint results for one tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ToolLint {
    /// The MCP name.
    pub name: String,
    /// Findings, most severe first.
    pub findings: Vec<Finding>,
    /// Estimated tokens of the tool's declaration per dialect (`openai+strict`
    /// and `anthropic+strict` for strict mode).
    pub tokens: BTreeMap<String, usize>,
}

/// Lint results for a catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct LintReport {
    /// One entry per tool, in catalog order.
    pub tools: Vec<ToolLint>,
    /// Estimated tokens of the whole `tools` array per dialect.
    pub totals: BTreeMap<String, usize>,
    /// Problems reading the catalog (skipped tools and the like).
    pub catalog: Vec<ReportEntry>,
}

/// The variants linted: every dialect, plus strict mode where there is one.
fn variants() -> Vec<(String, Dialect, bool)> {
    let mut v = Vec::new();
    for d in Dialect::ALL {
        v.push((d.as_str().to_string(), d, false));
        if d.has_strict() && d != Dialect::OpenAiResponses {
            v.push((format!("{}+strict", d.as_str()), d, true));
        }
    }
    v
}

/// One conversion, indexed by MCP tool name: its declarations and its
/// report entries (so linting each tool does not scan every other tool's).
struct Run<'c> {
    label: &'c str,
    conv: &'c Conversion,
    /// Dialect name → declaration.
    items: HashMap<String, usize>,
    list: Vec<&'c Value>,
    /// MCP tool name → its entries in `groups`.
    report: HashMap<String, usize>,
    groups: Vec<Vec<&'c ReportEntry>>,
}

impl<'c> Run<'c> {
    fn new(label: &'c str, conv: &'c Conversion) -> Run<'c> {
        let list: Vec<&Value> = match conv.dialect {
            Dialect::Gemini | Dialect::GeminiJson => conv
                .tools
                .first()
                .and_then(|t| t.get("functionDeclarations"))
                .and_then(Value::as_array)
                .map(|a| a.iter().collect())
                .unwrap_or_default(),
            _ => conv.tools.iter().collect(),
        };
        let mut items = HashMap::new();
        for (i, item) in list.iter().enumerate() {
            let n = item
                .get("name")
                .or_else(|| item.get("function").and_then(|f| f.get("name")))
                .and_then(Value::as_str);
            if let Some(n) = n {
                items.entry(n.to_string()).or_insert(i);
            }
        }
        let mut report: HashMap<String, usize> = HashMap::new();
        let mut groups: Vec<Vec<&ReportEntry>> = Vec::new();
        for e in &conv.report {
            if let Some(t) = e.tool.as_deref() {
                let g = *report.entry(t.to_string()).or_insert_with(|| {
                    groups.push(Vec::new());
                    groups.len() - 1
                });
                if let Some(group) = groups.get_mut(g) {
                    group.push(e);
                }
            }
        }
        Run {
            label,
            conv,
            items,
            list,
            report,
            groups,
        }
    }

    /// The declaration of an MCP tool.
    fn item(&self, mcp: &str) -> Option<&'c Value> {
        let name = self.conv.names.dialect_name(mcp)?;
        self.items
            .get(name)
            .and_then(|&i| self.list.get(i))
            .copied()
    }

    /// The report entries of an MCP tool.
    fn entries(&self, mcp: &str) -> &[&'c ReportEntry] {
        self.report
            .get(mcp)
            .and_then(|&g| self.groups.get(g))
            .map_or(&[], Vec::as_slice)
    }
}

/// Lints every tool of a catalog against every dialect. Linear in the
/// catalog: each conversion is indexed by tool once.
pub fn lint(catalog: &Catalog) -> LintReport {
    let runs: Vec<(String, Conversion)> = variants()
        .into_iter()
        .map(|(label, d, strict)| (label, convert(catalog, d, &Options::strict(strict))))
        .collect();
    let mut totals = BTreeMap::new();
    for (label, c) in &runs {
        let text = if c.dialect == Dialect::Prompted {
            c.extra
                .get("prompt")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        } else {
            Value::Array(c.tools.clone()).to_string()
        };
        totals.insert(label.clone(), estimate_tokens(&text));
    }
    let indexed: Vec<Run<'_>> = runs.iter().map(|(l, c)| Run::new(l, c)).collect();
    let tools = catalog
        .tools()
        .iter()
        .map(|t| lint_tool(t, &indexed))
        .collect();
    LintReport {
        tools,
        totals,
        catalog: catalog.report().to_vec(),
    }
}

fn lint_tool(tool: &Tool, runs: &[Run<'_>]) -> ToolLint {
    let mut findings = Vec::new();
    let at = tool.pointer();
    match tool.description() {
        None => findings.push(Finding {
            severity: Severity::Warning,
            dialect: None,
            pointer: pointer::push(at, "description"),
            message: "no description: models choose tools by their descriptions; write what it does and when to use it".into(),
        }),
        Some(d) if d.split_whitespace().count() < 3 => findings.push(Finding {
            severity: Severity::Warning,
            dialect: None,
            pointer: pointer::push(at, "description"),
            message: format!("the description {d:?} is too short to choose the tool by; say what it does and when to use it"),
        }),
        _ => {}
    }
    if !NameRule::MCP.accepts(tool.name()) {
        findings.push(Finding {
            severity: Severity::Info,
            dialect: None,
            pointer: pointer::push(at, "name"),
            message:
                "the name is outside MCP's recommended form ([A-Za-z0-9_.-], up to 128 characters)"
                    .into(),
        });
    }
    undocumented_parameters(tool, &mut findings);
    let mut tokens = BTreeMap::new();
    for run in runs {
        let label = run.label.to_string();
        if let Some(item) = run.item(tool.name()) {
            tokens.insert(label.clone(), estimate_tokens(&item.to_string()));
        } else {
            findings.push(Finding {
                severity: Severity::Error,
                dialect: Some(label.clone()),
                pointer: at.to_string(),
                message: "the tool could not be converted; see the conversion report".into(),
            });
        }
        let entries = run.entries(tool.name());
        let mine: Vec<&ReportEntry> = entries
            .iter()
            .copied()
            .filter(|e| e.action.is_lossy())
            .collect();
        if !mine.is_empty() {
            let places: Vec<String> = mine
                .iter()
                .take(6)
                .map(|e| format!("{} ({})", rel(&e.pointer, at), e.action.as_str()))
                .collect();
            let more = if mine.len() > 6 {
                format!(" and {} more", mine.len() - 6)
            } else {
                String::new()
            };
            findings.push(Finding {
                severity: Severity::Warning,
                dialect: Some(label.clone()),
                pointer: at.to_string(),
                message: format!(
                    "{} schema part(s) lost or reworded: {}{more}",
                    mine.len(),
                    places.join(", ")
                ),
            });
        }
        if let Some(e) = entries.iter().find(|e| e.keyword == "name") {
            findings.push(Finding {
                severity: Severity::Warning,
                dialect: Some(label.clone()),
                pointer: e.pointer.clone(),
                message: e.detail.clone(),
            });
        }
    }
    crate::text::sort_small_by(&mut findings, |a, b| a.severity > b.severity);
    ToolLint {
        name: tool.name().to_string(),
        findings,
        tokens,
    }
}

/// The pointer relative to the tool, for short messages.
fn rel<'a>(p: &'a str, tool_at: &str) -> &'a str {
    p.strip_prefix(tool_at)
        .filter(|r| !r.is_empty())
        .unwrap_or(p)
}

fn undocumented_parameters(tool: &Tool, findings: &mut Vec<Finding>) {
    let Some(props) = tool
        .input_schema()
        .get("properties")
        .and_then(Value::as_object)
    else {
        return;
    };
    let bare: Vec<&str> = props
        .iter()
        .filter(|(_, s)| {
            s.get("description")
                .and_then(Value::as_str)
                .is_none_or(|d| d.trim().is_empty())
        })
        .map(|(k, _)| k.as_str())
        .collect();
    if !bare.is_empty() {
        findings.push(Finding {
            severity: Severity::Info,
            dialect: None,
            pointer: pointer::push(&pointer::push(tool.pointer(), "inputSchema"), "properties"),
            message: format!(
                "{} of {} parameters have no description: {}",
                bare.len(),
                props.len(),
                bare.join(", ")
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_the_usual_problems() {
        let cat = Catalog::parse(
            json!([
                {"name": "a.b", "description": "Do", "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "format": "uri"}}}},
                {"name": "good_tool", "description": "Turns a light on or off by its id.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "light id"}}}}
            ])
            .to_string()
            .as_bytes(),
        )
        .unwrap();
        let r = lint(&cat);
        let a = &r.tools[0];
        assert!(a.findings.iter().any(|f| f.message.contains("too short")));
        assert!(a
            .findings
            .iter()
            .any(|f| f.dialect.as_deref() == Some("openai") && f.message.contains("a_b")));
        assert!(a
            .findings
            .iter()
            .any(|f| f.dialect.as_deref() == Some("gemini")
                && f.message
                    .contains("/inputSchema/properties/x/format (described)")));
        assert!(a
            .findings
            .iter()
            .any(|f| f.message.contains("1 of 1 parameters have no description")));
        assert!(a.tokens["gemini"] > 10);
        let good = &r.tools[1];
        assert!(
            good.findings
                .iter()
                .all(|f| f.severity < Severity::Warning || f.dialect.is_some()),
            "{:?}",
            good.findings
        );
        assert_eq!(r.totals.len(), 9);
    }
}
