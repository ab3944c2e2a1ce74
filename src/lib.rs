//! mcp-switchboard (manual in progress)
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod catalog;
mod error;
mod lower;
mod pointer;
mod report;
mod text;

pub use catalog::{Catalog, Limits, Tool};
pub use error::{Error, ErrorKind};
pub use report::{Action, ReportEntry};
