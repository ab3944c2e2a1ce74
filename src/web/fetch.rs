//! `web_fetch` as a sans-I/O state machine: the shell reports what
//! happened (addresses resolved, a response's status and headers, body
//! chunks, the end of the body, a timeout, a network error) and the machine
//! answers with what to do next ([`FetchAction`]), ending with the tool's
//! `CallToolResult` as JSON text. It never touches the network, a clock or
//! a decoder table; every decision is here.

use std::net::IpAddr;

use serde_json::{json, Map, Value};

use super::addr::{classify, AddressPolicy};
use super::charset::{self, sniff_charset};
use super::url::{Host, Url};
use crate::html::{self, Format, HtmlOptions};

/// Settings of `web_fetch`: `new` gives the defaults, `with_*` changes one.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FetchOptions {
    /// Which addresses may be connected to (public ones only by default).
    pub policy: AddressPolicy,
    /// Redirects followed (default 5).
    pub max_redirects: u32,
    /// Bytes of body read; the rest is cut (default 5 MiB).
    pub max_bytes: usize,
    /// The timeout when the call gives none, in milliseconds (30 s).
    pub default_timeout_ms: u32,
    /// The largest timeout a call may ask for, in milliseconds (120 s).
    pub max_timeout_ms: u32,
    /// Bytes of converted content returned (default 100,000, about 25,000
    /// tokens); the rest is cut and marked.
    pub max_content: usize,
    /// The `User-Agent` sent.
    pub user_agent: String,
    /// Convert only the page's main content (see [`crate::html`]).
    pub main_content: bool,
    /// Hosts that may be fetched at local addresses even when private
    /// addresses are not allowed, as `host` or `host:port` (normalised as
    /// in a URL: lower case, Punycode, addresses in their usual form), such
    /// as a hub's own `homeassistant.local:8123`. A host without a port is
    /// allowed at its scheme's default port (80, 443) only. An allowed
    /// host is reached only as the URL the call gave, or through redirects
    /// that never left allowed hosts: a redirect from any other page to it
    /// is checked against [`Self::policy`] like every other host.
    pub allowed_hosts: Vec<String>,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            policy: AddressPolicy::default(),
            max_redirects: 5,
            max_bytes: 5 * 1024 * 1024,
            default_timeout_ms: 30_000,
            max_timeout_ms: 120_000,
            max_content: 100_000,
            user_agent: concat!(
                "mcp-switchboard/",
                env!("CARGO_PKG_VERSION"),
                " (web_fetch)"
            )
            .to_string(),
            main_content: true,
            allowed_hosts: Vec::new(),
        }
    }
}

impl FetchOptions {
    /// The defaults.
    pub fn new() -> FetchOptions {
        FetchOptions::default()
    }

    /// Allows private, loopback and link-local addresses (off by default).
    pub fn with_allow_private(mut self, allow: bool) -> FetchOptions {
        self.policy = self.policy.with_allow_private(allow);
        self
    }

    /// Sets how many redirects are followed.
    pub fn with_max_redirects(mut self, n: u32) -> FetchOptions {
        self.max_redirects = n;
        self
    }

    /// Sets the body limit in bytes.
    pub fn with_max_bytes(mut self, bytes: usize) -> FetchOptions {
        self.max_bytes = bytes;
        self
    }

    /// Sets the content limit in bytes.
    pub fn with_max_content(mut self, bytes: usize) -> FetchOptions {
        self.max_content = bytes;
        self
    }

    /// Sets the `User-Agent`.
    pub fn with_user_agent(mut self, agent: impl Into<String>) -> FetchOptions {
        self.user_agent = agent.into();
        self
    }

    /// Converts the main content only (true) or the whole page.
    pub fn with_main_content(mut self, main: bool) -> FetchOptions {
        self.main_content = main;
        self
    }

    /// Sets the hosts that may be fetched at local addresses (see
    /// [`Self::allowed_hosts`]): `host` or `host:port`; names that are not
    /// hosts are left out.
    ///
    /// ```
    /// use mcp_switchboard::web::{FetchAction, FetchOptions, WebFetch};
    /// use serde_json::json;
    ///
    /// let options = FetchOptions::new().with_allowed_hosts(["HomeAssistant.local:8123"]);
    /// let mut fetch = WebFetch::new(&json!({"url": "http://homeassistant.local:8123/"}), options.clone());
    /// fetch.start();
    /// assert!(matches!(fetch.resolved(&["192.168.1.20".parse().unwrap()]), FetchAction::Request { .. }));
    /// // not at another port
    /// let mut fetch = WebFetch::new(&json!({"url": "http://homeassistant.local:8080/"}), options);
    /// fetch.start();
    /// assert!(matches!(fetch.resolved(&["192.168.1.20".parse().unwrap()]), FetchAction::Done(_)));
    /// ```
    pub fn with_allowed_hosts<I, S>(mut self, hosts: I) -> FetchOptions
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.allowed_hosts = hosts
            .into_iter()
            .filter_map(|h| {
                let h = h.as_ref().trim();
                let h = h.strip_suffix('.').unwrap_or(h);
                let h = match h.parse::<std::net::Ipv6Addr>() {
                    Ok(_) => format!("[{h}]"),
                    Err(_) => h.to_string(),
                };
                let u = Url::parse(&format!("http://{h}/")).ok()?;
                if u.path() != "/" {
                    return None;
                }
                // a port written out (80 included) is kept; none means the
                // scheme's default
                let given = u.port() != 80 || h.ends_with(":80");
                Some(if given { with_port(&u) } else { u.host_str() })
            })
            .collect();
        self
    }

    /// Whether `url`'s host and port are allowed local addresses.
    fn host_allowed(&self, url: &Url) -> bool {
        let host = url.host_str();
        let default = url.port() == if url.is_https() { 443 } else { 80 };
        let with_port = with_port(url);
        self.allowed_hosts
            .iter()
            .any(|h| *h == with_port || (default && *h == host))
    }

    /// Whether `url`'s host is allowed at some port.
    fn host_listed(&self, url: &Url) -> bool {
        let host = url.host_str();
        let with_port = with_port(url);
        let prefix = with_port
            .rsplit_once(':')
            .map_or(with_port.as_str(), |(h, _)| h);
        self.allowed_hosts.iter().any(|h| {
            *h == host
                || h.strip_prefix(prefix)
                    .is_some_and(|rest| rest.starts_with(':'))
        })
    }
}

/// What `web_fetch` returns a page as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FetchFormat {
    /// Markdown (the default).
    Markdown,
    /// Plain text.
    Text,
    /// The HTML as served (decoded).
    Html,
}

impl FetchFormat {
    fn parse(s: &str) -> Option<FetchFormat> {
        match s.trim().to_ascii_lowercase().as_str() {
            "markdown" | "md" => Some(FetchFormat::Markdown),
            "text" | "txt" | "plain" => Some(FetchFormat::Text),
            "html" => Some(FetchFormat::Html),
            _ => None,
        }
    }

    /// `"markdown"`, `"text"` or `"html"`.
    pub fn name(self) -> &'static str {
        match self {
            FetchFormat::Markdown => "markdown",
            FetchFormat::Text => "text",
            FetchFormat::Html => "html",
        }
    }
}

/// `web_fetch`'s arguments, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FetchArguments {
    /// The URL, normalised.
    pub url: Url,
    /// The output format.
    pub format: FetchFormat,
    /// The timeout for the whole fetch, redirects included, in milliseconds.
    pub timeout_ms: u32,
}

impl FetchArguments {
    /// Checks `{url, format?, timeout?}` (`timeout` in seconds, a number
    /// or a numeric string); the error is a message for the model.
    pub fn parse(arguments: &Value, options: &FetchOptions) -> Result<FetchArguments, String> {
        let Value::Object(args) = arguments else {
            return Err("the arguments must be an object with a url".into());
        };
        let url = match args.get("url") {
            Some(Value::String(u)) => Url::parse(u).map_err(|e| format!("url: {e}"))?,
            Some(_) => return Err("url must be a string".into()),
            None => return Err("url is required (an http or https URL)".into()),
        };
        let format = match args.get("format") {
            None | Some(Value::Null) => FetchFormat::Markdown,
            Some(Value::String(f)) => FetchFormat::parse(f).ok_or_else(|| {
                format!("format must be \"markdown\", \"text\" or \"html\", not {f:?}")
            })?,
            Some(_) => return Err("format must be \"markdown\", \"text\" or \"html\"".into()),
        };
        let max_s = f64::from(options.max_timeout_ms) / 1000.0;
        let max = seconds(options.max_timeout_ms);
        let timeout_ms = match args.get("timeout") {
            None | Some(Value::Null) => options.default_timeout_ms,
            Some(v) => {
                let secs = match v {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => s.trim().parse::<f64>().ok(),
                    _ => None,
                };
                match secs {
                    Some(s) if s > 0.0 && s <= max_s => (s * 1000.0).round() as u32,
                    Some(s) if s > max_s => {
                        return Err(format!("timeout must be at most {max} seconds"))
                    }
                    _ => {
                        return Err(format!(
                            "timeout must be a number of seconds from 1 to {max}"
                        ))
                    }
                }
            }
        };
        Ok(FetchArguments {
            url,
            format,
            timeout_ms: timeout_ms.max(1),
        })
    }
}

/// What the shell does next.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[must_use = "the shell does what the action says next"]
pub enum FetchAction {
    /// Look up every address of `host` (A and AAAA) and report them with
    /// [`WebFetch::resolved`], or the failure with
    /// [`WebFetch::resolve_failed`]. `url` is what will be requested (the
    /// first URL, or where a redirect leads).
    Resolve {
        /// The host name.
        host: String,
        /// The URL being fetched.
        url: String,
    },
    /// Send `GET url` with these headers over a connection to `address`
    /// (the connection must go to this address and no other: a pinned DNS
    /// answer, so the check cannot be raced), following no redirect
    /// itself; report the answer with [`WebFetch::response`].
    Request {
        /// The URL to request.
        url: String,
        /// The address to connect to.
        address: IpAddr,
        /// The port to connect to.
        port: u16,
        /// The request headers.
        headers: Vec<(String, String)>,
    },
    /// Read the body: call [`WebFetch::body`] with each chunk (decoded from
    /// any `Content-Encoding`) and [`WebFetch::end`] at its end.
    Read,
    /// Decode [`WebFetch::body_bytes`] with `new TextDecoder(encoding)` and
    /// report the text with [`WebFetch::decoded`] (or
    /// [`WebFetch::decode_failed`] when the decoder refuses the encoding).
    Decode {
        /// The WHATWG encoding name.
        encoding: &'static str,
    },
    /// The tool's result, a `CallToolResult` as JSON text. Stop: abort any
    /// request still open.
    Done(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Start,
    Resolving,
    Requesting,
    Reading,
    Decoding,
    Done,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Body {
    Html,
    Text,
    /// No content type: decided from the bytes.
    Unknown,
}

/// One `web_fetch` call (see the module documentation of [`crate::web`]).
#[derive(Debug, Clone)]
pub struct WebFetch {
    options: FetchOptions,
    args: Result<FetchArguments, String>,
    state: State,
    url: Option<Url>,
    redirects: u32,
    status: u16,
    content_type: String,
    kind: Body,
    body: Vec<u8>,
    /// Bytes of body read (the body itself is dropped once decoded).
    bytes: usize,
    cut: bool,
    encoding: &'static str,
    /// Every URL so far (the call's, and each redirect's) was an allowed
    /// host: only then may an allowed host be reached at a local address.
    allowed_chain: bool,
    /// The response's `Content-Encoding`, in the order the codings were
    /// applied.
    codings: Vec<Coding>,
}

/// `host:port` of a URL (an IPv6 address in brackets).
fn with_port(url: &Url) -> String {
    match url.host() {
        Host::Ip(IpAddr::V6(a)) => format!("[{a}]:{}", url.port()),
        _ => format!("{}:{}", url.host_str(), url.port()),
    }
}

/// A content coding web_fetch can undo ([`WebFetch::codings`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Coding {
    /// `gzip` (or `x-gzip`).
    Gzip,
    /// `deflate` (zlib).
    Deflate,
    /// `br` (Brotli).
    Brotli,
}

impl Coding {
    /// `gzip`, `deflate` or `br`.
    pub fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Brotli => "br",
        }
    }
}

/// Most codings undone for one body: more is refused (a stack of
/// compressions is a decompression bomb, never a page).
pub const MAX_CODINGS: usize = 2;

/// The codings of a `Content-Encoding` value, in the order they were
/// applied (`identity` left out); `Err` names one that cannot be undone,
/// or says there are more than [`MAX_CODINGS`].
fn read_codings(value: &str) -> Result<Vec<Coding>, String> {
    let mut out = Vec::new();
    for c in value.split(',').map(str::trim).filter(|c| !c.is_empty()) {
        let coding = match c.to_ascii_lowercase().as_str() {
            "identity" => continue,
            "gzip" | "x-gzip" => Coding::Gzip,
            "deflate" => Coding::Deflate,
            "br" => Coding::Brotli,
            _ => {
                let shown: String = c.chars().take(40).flat_map(char::escape_debug).collect();
                return Err(format!(
                    "the page is compressed with {shown}, which web_fetch cannot decode (it reads gzip, deflate and br)"
                ));
            }
        };
        out.push(coding);
    }
    if out.len() > MAX_CODINGS {
        let names: Vec<&str> = out.iter().map(|c| c.name()).collect();
        return Err(format!(
            "the page is compressed {} times ({}); web_fetch undoes at most {MAX_CODINGS}",
            out.len(),
            names.join(", ")
        ));
    }
    Ok(out)
}

/// Reason phrases for the statuses a fetch reports.
fn reason(status: u16) -> &'static str {
    match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        410 => "Gone",
        429 => "Too Many Requests",
        451 => "Unavailable For Legal Reasons",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

/// What kind of body a content type announces; `Err` names a binary type.
fn body_kind(content_type: &str) -> Result<Body, String> {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "" => Ok(Body::Unknown),
        "text/html" | "application/xhtml+xml" => Ok(Body::Html),
        e if e.starts_with("text/") => Ok(Body::Text),
        "application/json"
        | "application/xml"
        | "application/javascript"
        | "application/x-javascript"
        | "application/ecmascript"
        | "application/x-yaml"
        | "application/yaml"
        | "application/toml"
        | "application/x-sh" => Ok(Body::Text),
        e if e.ends_with("+json") || e.ends_with("+xml") => Ok(Body::Text),
        e => Err(e.to_string()),
    }
}

/// Milliseconds as seconds in words: `30`, `2.5`.
pub(crate) fn seconds(ms: u32) -> String {
    let (s, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        return s.to_string();
    }
    let f = format!("{frac:03}");
    format!("{s}.{}", f.trim_end_matches('0'))
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
}

impl WebFetch {
    /// A fetch for the tool call's `arguments`. Invalid arguments are
    /// reported by the first action, as a tool error.
    pub fn new(arguments: &Value, options: FetchOptions) -> WebFetch {
        let args = FetchArguments::parse(arguments, &options);
        WebFetch {
            options,
            args,
            state: State::Start,
            url: None,
            redirects: 0,
            status: 0,
            content_type: String::new(),
            kind: Body::Unknown,
            body: Vec::new(),
            bytes: 0,
            cut: false,
            encoding: "utf-8",
            allowed_chain: true,
            codings: Vec::new(),
        }
    }

    /// The codings of the body to undo, in the order they were applied
    /// (undo them last first), once [`WebFetch::response`] said
    /// [`FetchAction::Read`]: the chunks given to [`WebFetch::body`] are
    /// the decoded ones.
    pub fn codings(&self) -> &[Coding] {
        &self.codings
    }

    /// The checked arguments, or why they were refused.
    pub fn arguments(&self) -> Result<&FetchArguments, &str> {
        self.args.as_ref().map_err(String::as_str)
    }

    /// How long the whole fetch may take, redirects and body included, in
    /// milliseconds: the shell starts one timer and calls
    /// [`WebFetch::timed_out`] when it fires.
    pub fn timeout_ms(&self) -> u32 {
        self.args
            .as_ref()
            .map_or(self.options.default_timeout_ms, |a| a.timeout_ms)
    }

    /// The URL being fetched (after the redirects so far).
    pub fn url(&self) -> Option<&Url> {
        self.url
            .as_ref()
            .or_else(|| self.args.as_ref().ok().map(|a| &a.url))
    }

    /// The first action.
    pub fn start(&mut self) -> FetchAction {
        if self.state != State::Start {
            return self.unexpected("start");
        }
        let url = match &self.args {
            Ok(a) => a.url.clone(),
            Err(e) => {
                let msg = format!("web_fetch: {e}");
                return self.fail(&msg);
            }
        };
        self.go(url)
    }

    /// Connects or resolves for `url`.
    fn go(&mut self, url: Url) -> FetchAction {
        self.allowed_chain &= self.options.host_allowed(&url);
        let host = url.host().clone();
        let text = url.as_str().to_string();
        self.url = Some(url);
        match host {
            Host::Ip(ip) => self.connect(&[ip]),
            Host::Domain(d) => {
                self.state = State::Resolving;
                FetchAction::Resolve { host: d, url: text }
            }
        }
    }

    /// The addresses the host resolved to (in the resolver's order).
    pub fn resolved(&mut self, addresses: &[IpAddr]) -> FetchAction {
        if self.state != State::Resolving {
            return self.unexpected("resolved");
        }
        if addresses.is_empty() {
            let host = self.host();
            return self.fail(&format!("{host} has no addresses"));
        }
        self.connect(addresses)
    }

    fn connect(&mut self, addresses: &[IpAddr]) -> FetchAction {
        let Some(url) = self.url.clone() else {
            return self.unexpected("connect");
        };
        let policy = if self.allowed_chain && self.options.host_allowed(&url) {
            self.options.policy.with_allow_private(true)
        } else {
            self.options.policy
        };
        match addresses.iter().find(|&&a| policy.allows(a)) {
            Some(&address) => {
                self.state = State::Requesting;
                FetchAction::Request {
                    url: url.without_fragment().to_string(),
                    address,
                    port: url.port(),
                    headers: self.headers(),
                }
            }
            None => {
                let first = addresses.first().copied();
                let what = first.map_or("no address".to_string(), |a| {
                    format!("{a}, a {} address", classify(a).name())
                });
                let port_hint;
                let hint = if self.options.policy.allow_private {
                    ""
                } else if self.options.host_allowed(&url) {
                    " (an allowed host is reached only as the URL given, not through a redirect from another page)"
                } else if self.options.host_listed(&url) {
                    port_hint = format!(
                        " ({} is allowed at the ports listed in the settings only, not {})",
                        url.host_str(),
                        url.port()
                    );
                    &port_hint
                } else {
                    " (private and local addresses are refused unless allowed in the settings)"
                };
                let host = self.host();
                let redirect = if self.redirects > 0 {
                    "the redirect to "
                } else {
                    ""
                };
                self.fail(&format!(
                    "refused to fetch {redirect}{host}: it resolves to {what}{hint}"
                ))
            }
        }
    }

    fn host(&self) -> String {
        self.url().map_or_else(String::new, Url::host_str)
    }

    fn headers(&self) -> Vec<(String, String)> {
        let accept = match self.args.as_ref().map(|a| a.format) {
            Ok(FetchFormat::Html) => "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
            _ => "text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,application/json;q=0.8,*/*;q=0.1",
        };
        vec![
            ("User-Agent".into(), self.options.user_agent.clone()),
            ("Accept".into(), accept.into()),
        ]
    }

    /// The lookup failed (no such host, no DNS).
    pub fn resolve_failed(&mut self, message: &str) -> FetchAction {
        if self.state != State::Resolving {
            return self.unexpected("resolve_failed");
        }
        let host = self.host();
        self.fail(&format!("could not resolve {host}: {message}"))
    }

    /// The response's status and headers.
    pub fn response(&mut self, status: u16, headers: &[(String, String)]) -> FetchAction {
        if self.state != State::Requesting {
            return self.unexpected("response");
        }
        let Some(url) = self.url.clone() else {
            return self.unexpected("response");
        };
        self.status = status;
        match status {
            301 | 302 | 303 | 307 | 308 => {
                let Some(location) = header(headers, "location") else {
                    return self.fail(&format!("{url} answered HTTP {status} without a Location"));
                };
                self.redirects += 1;
                if self.redirects > self.options.max_redirects {
                    let max = self.options.max_redirects;
                    return self.fail(&format!(
                        "too many redirects (more than {max}) from {}",
                        self.first_url()
                    ));
                }
                match url.join(location) {
                    Ok(next) => self.go(next),
                    Err(e) => self.fail(&format!("{url} redirected to {location}: {e}")),
                }
            }
            200..=299 => {
                let ct = header(headers, "content-type").unwrap_or("");
                self.content_type = ct.to_string();
                // every Content-Encoding header, joined: the codings in order
                let coding: Vec<&str> = headers
                    .iter()
                    .filter(|(k, _)| k.trim().eq_ignore_ascii_case("content-encoding"))
                    .map(|(_, v)| v.as_str())
                    .collect();
                match read_codings(&coding.join(",")) {
                    Ok(c) => self.codings = c,
                    Err(why) => return self.fail(&format!("{url}: {why}")),
                }
                match body_kind(ct) {
                    Ok(kind) => {
                        self.kind = kind;
                        self.state = State::Reading;
                        FetchAction::Read
                    }
                    Err(essence) => self.fail(&format!(
                        "{url} is {essence}, not a web page or text: web_fetch reads HTML, text and JSON"
                    )),
                }
            }
            _ => {
                let r = reason(status);
                let sep = if r.is_empty() { "" } else { " " };
                self.fail(&format!("{url} answered HTTP {status}{sep}{r}"))
            }
        }
    }

    fn first_url(&self) -> String {
        self.args
            .as_ref()
            .map_or_else(|_| String::new(), |a| a.url.as_str().to_string())
    }

    /// A chunk of the body.
    pub fn body(&mut self, chunk: &[u8]) -> FetchAction {
        if self.state != State::Reading {
            return self.unexpected("body");
        }
        let room = self.options.max_bytes.saturating_sub(self.body.len());
        if chunk.len() > room {
            self.body
                .extend_from_slice(chunk.get(..room).unwrap_or(chunk));
            self.cut = true;
            return self.finish();
        }
        self.body.extend_from_slice(chunk);
        FetchAction::Read
    }

    /// The end of the body.
    pub fn end(&mut self) -> FetchAction {
        if self.state != State::Reading {
            return self.unexpected("end");
        }
        self.finish()
    }

    /// The body read so far (for [`FetchAction::Decode`]).
    pub fn body_bytes(&self) -> &[u8] {
        &self.body
    }

    fn finish(&mut self) -> FetchAction {
        if self.kind == Body::Unknown {
            let head = self.body.get(..1024).unwrap_or(&self.body);
            let lower = String::from_utf8_lossy(head).to_ascii_lowercase();
            if head.contains(&0) && !matches!(head, [0xfe, 0xff, ..] | [0xff, 0xfe, ..]) {
                let url = self.url().map(|u| u.to_string()).unwrap_or_default();
                return self.fail(&format!(
                    "{url} is binary data without a content type: web_fetch reads HTML, text and JSON"
                ));
            }
            let trimmed = lower.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
            self.kind = if [
                "<!doctype html",
                "<html",
                "<head",
                "<body",
                "<!--",
                "<p",
                "<div",
                "<meta",
            ]
            .iter()
            .any(|p| trimmed.starts_with(p))
            {
                Body::Html
            } else {
                Body::Text
            };
        }
        let ct = (!self.content_type.is_empty()).then_some(self.content_type.as_str());
        let found = if self.kind == Body::Html {
            sniff_charset(ct, &self.body)
        } else {
            // no <meta> in text
            sniff_charset(ct.or(Some("text/plain")), &self.body)
        };
        self.encoding = found.name;
        let limit = self.options.max_bytes.saturating_mul(3);
        self.bytes = self.body.len();
        match charset::decode_limited(&self.body, found.name, limit) {
            Some(text) => {
                // the bytes go before the conversion: less memory at the peak
                self.body = Vec::new();
                self.result(&text)
            }
            None => {
                self.state = State::Decoding;
                FetchAction::Decode {
                    encoding: found.name,
                }
            }
        }
    }

    /// The body decoded by the shell after [`FetchAction::Decode`].
    pub fn decoded(&mut self, text: &str) -> FetchAction {
        if self.state != State::Decoding {
            return self.unexpected("decoded");
        }
        self.body = Vec::new();
        self.result(text)
    }

    /// The shell cannot decode the encoding: the body is read as UTF-8.
    pub fn decode_failed(&mut self) -> FetchAction {
        if self.state != State::Decoding {
            return self.unexpected("decode_failed");
        }
        self.encoding = "utf-8";
        let text = charset::decode_limited(&self.body, "utf-8", self.options.max_bytes * 3)
            .unwrap_or_default();
        self.body = Vec::new();
        self.result(&text)
    }

    /// Undoing a content coding failed (the body is not what its
    /// `Content-Encoding` says): `message` is the decoder's.
    pub fn coding_failed(&mut self, message: &str) -> FetchAction {
        if self.state != State::Reading {
            return self.unexpected("coding_failed");
        }
        let url = self.url().map(|u| u.to_string()).unwrap_or_default();
        let names: Vec<&str> = self.codings.iter().map(|c| c.name()).collect();
        self.fail(&format!(
            "{url}: the body is not the {} its Content-Encoding says ({message})",
            names.join(", ")
        ))
    }

    /// The timeout fired.
    pub fn timed_out(&mut self) -> FetchAction {
        if self.state == State::Done {
            return self.unexpected("timed_out");
        }
        let secs = seconds(self.timeout_ms());
        let url = self.first_url();
        self.fail(&format!("{url} did not answer within {secs} seconds"))
    }

    /// A network error (connection refused, TLS failure, reset).
    pub fn failed(&mut self, message: &str) -> FetchAction {
        if self.state == State::Done {
            return self.unexpected("failed");
        }
        let url = self.url().map(|u| u.to_string()).unwrap_or_default();
        self.fail(&format!("could not fetch {url}: {message}"))
    }

    /// Whether the fetch is over.
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    fn unexpected(&mut self, what: &str) -> FetchAction {
        let state = self.state;
        self.fail(&format!(
            "web_fetch was told {what} while {}",
            match state {
                State::Start => "not started",
                State::Resolving => "resolving a host",
                State::Requesting => "waiting for a response",
                State::Reading => "reading the body",
                State::Decoding => "waiting for the decoded body",
                State::Done => "already done",
            }
        ))
    }

    fn fail(&mut self, message: &str) -> FetchAction {
        self.state = State::Done;
        self.body = Vec::new();
        let url = self.url().map(|u| u.to_string());
        let details = match url {
            Some(u) => json!({"url": u}),
            None => json!({}),
        };
        FetchAction::Done(crate::results::tool_failure(message, details).to_string())
    }

    fn result(&mut self, text: &str) -> FetchAction {
        self.state = State::Done;
        let Some(url) = self.url.clone() else {
            return self.unexpected("result");
        };
        let format = self
            .args
            .as_ref()
            .map_or(FetchFormat::Markdown, |a| a.format);
        let max = self.options.max_content;
        let (mut content, title, mut meta, mut cut) = match (self.kind, format) {
            (Body::Html, FetchFormat::Markdown | FetchFormat::Text) => {
                let options = HtmlOptions::new()
                    .with_base_url(url.as_str())
                    .with_format(if format == FetchFormat::Text {
                        Format::Text
                    } else {
                        Format::Markdown
                    })
                    .with_main_content(self.options.main_content)
                    .with_max_input(self.options.max_bytes.saturating_mul(3))
                    .with_max_output(max);
                let page = html::convert(text, &options);
                let meta = match page.metadata.to_json() {
                    Value::Object(m) => m,
                    _ => Map::new(),
                };
                (page.content, page.metadata.title, meta, page.truncated)
            }
            (Body::Html, FetchFormat::Html) => {
                // the title still helps
                let page = html::convert(
                    text,
                    &HtmlOptions::new()
                        .with_max_output(0)
                        .with_max_input(64 * 1024),
                );
                (text.to_string(), page.metadata.title, Map::new(), false)
            }
            _ => (text.to_string(), None, Map::new(), false),
        };
        if content.len() > max {
            let mut at = max;
            while !content.is_char_boundary(at) {
                at -= 1;
            }
            content.truncate(at);
            cut = true;
        }
        let truncated = cut || self.cut;
        if truncated {
            content.push_str("\n\n[truncated]");
        }
        let mut m = Map::new();
        m.insert("url".into(), url.as_str().into());
        let first = self.first_url();
        if first != url.as_str() {
            m.insert("requestedUrl".into(), first.into());
        }
        m.insert("status".into(), self.status.into());
        if !self.content_type.is_empty() {
            m.insert("contentType".into(), self.content_type.clone().into());
        }
        m.insert("charset".into(), self.encoding.into());
        m.insert(
            "format".into(),
            match self.kind {
                Body::Html => format.name(),
                _ => "text",
            }
            .into(),
        );
        m.insert("bytes".into(), self.bytes.into());
        m.insert("truncated".into(), truncated.into());
        m.append(&mut meta);
        self.body = Vec::new();
        // a page that is all script says so, rather than nothing
        let text = if content.trim().is_empty() && self.kind == Body::Html {
            "The page has no readable text (it may need JavaScript to show its content)."
        } else {
            content.as_str()
        };
        let structured = json!({
            "content": content,
            "title": title,
            "metadata": Value::Object(m),
        });
        FetchAction::Done(
            json!({
                "content": [{"type": "text", "text": text}],
                "structuredContent": structured,
            })
            .to_string(),
        )
    }
}
