//! mcp-switchboard (manual in progress)
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod catalog;
mod dialect;
mod error;
mod lint;
mod lower;
mod names;
mod pointer;
mod report;
mod text;
mod tokens;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use catalog::{Catalog, Limits, Tool};
pub use dialect::{convert, Conversion, Dialect, Options};
pub use error::{Error, ErrorKind};
pub use lint::{lint, Finding, LintReport, Severity, ToolLint};
pub use names::NameMap;
pub use report::{Action, ReportEntry};
pub use tokens::estimate_tokens;
