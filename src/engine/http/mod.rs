//! Streamable HTTP transport rules, sans I/O: the gateway hands over the
//! request line and headers, and gets back what to do — reject with a
//! status, feed the body to the engine, open a notification stream, or end
//! the session. [`Gate`] adds the session table: which sessions exist,
//! when an idle one expires, which one gives way when the table is full,
//! how many streams and requests each may hold. The JS shell only moves
//! bytes and passes the time in.
//!
//! Origins and hosts are parsed and compared exactly (`http://127.0.0.1.nip.io`
//! is not a loopback origin), the bearer token is compared in constant time
//! with the scheme read without case, and the content type must be exactly
//! `application/json` (parameters aside).

mod body;
mod gate;
mod host;
mod modern;
mod policy;
mod request;
#[cfg(test)]
mod tests;

pub use body::*;
pub use gate::*;
pub use host::*;
pub use policy::*;
pub use request::*;

#[cfg_attr(
    any(not(feature = "full"), feature = "web-module"),
    allow(unused_imports)
)]
pub(crate) use modern::check_message_read;
pub use modern::{check_message, check_param_headers, MESSAGE_HEADERS_READ, PARAM_HEADER_PREFIX};
