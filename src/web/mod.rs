//! Web tools, sans I/O.

pub(crate) mod addr;
pub(crate) mod charset;
pub(crate) mod url;

pub use addr::{classify, AddressClass, AddressPolicy};
pub use charset::{
    charset_param, decode, decodes, encoding_for_label, sniff_charset, Charset, CharsetSource,
};
pub use url::{Host, Url, UrlError, MAX_URL_LEN};
