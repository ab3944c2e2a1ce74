//! `http` and `https` URLs, parsed and normalised after the WHATWG URL
//! standard's rules for those schemes: surrounding spaces trimmed, tabs and
//! newlines removed, `\` read as `/`, the host lower-cased (non-ASCII
//! labels written in Punycode), numeric hosts read as IPv4 the way browsers
//! read them (`http://2130706433/`, `http://0x7f.1/` are `127.0.0.1`),
//! default ports dropped, dot segments resolved, and what must be
//! percent-encoded encoded. Everything else is refused with a reason:
//! other schemes, credentials (`user:pass@`), bad ports, malformed hosts.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Longest URL accepted, in bytes.
pub const MAX_URL_LEN: usize = 8 * 1024;

/// Why a URL was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlError {
    /// Nothing but spaces.
    Empty,
    /// Longer than [`MAX_URL_LEN`].
    TooLong,
    /// A relative reference where an absolute URL is needed.
    Relative,
    /// A scheme other than `http` or `https` (the scheme, lower-cased).
    Scheme(String),
    /// `user:password@` in the URL.
    Credentials,
    /// A port that is not a number up to 65535, or one browsers refuse.
    Port(String),
    /// A host that is empty or malformed (the reason).
    Host(String),
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::Empty => f.write_str("the URL is empty"),
            UrlError::TooLong => write!(f, "the URL is longer than {MAX_URL_LEN} bytes"),
            UrlError::Relative => f.write_str("the URL is not absolute (give http:// or https://)"),
            UrlError::Scheme(s) => write!(f, "only http and https URLs can be fetched, not {s}:"),
            UrlError::Credentials => {
                f.write_str("URLs with a user name or password (user:pass@host) are not allowed")
            }
            UrlError::Port(p) => write!(f, "the port {p} is not allowed"),
            UrlError::Host(why) => write!(f, "the host is not valid: {why}"),
        }
    }
}

impl std::error::Error for UrlError {}

/// The host of a [`Url`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Host {
    /// A domain name, lower-case ASCII (Punycode for other scripts).
    Domain(String),
    /// An IPv4 address (however it was written).
    Ip(IpAddr),
}

/// An absolute `http` or `https` URL, normalised.
///
/// ```
/// use mcp_switchboard::web::Url;
///
/// let u = Url::parse("  HTTP://Example.COM:80/a/./b/../c d?q=1#top ")?;
/// assert_eq!(u.as_str(), "http://example.com/a/c%20d?q=1#top");
/// assert_eq!(u.port(), 80);
/// assert_eq!(u.join("../x?y")?.as_str(), "http://example.com/x?y");
/// assert_eq!(Url::parse("http://0x7f.1/")?.host_str(), "127.0.0.1");
/// assert!(Url::parse("ftp://example.com/").is_err());
/// assert!(Url::parse("https://user:pw@example.com/").is_err());
/// # Ok::<(), mcp_switchboard::web::UrlError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    https: bool,
    host: Host,
    port: Option<u16>,
    /// Path and query, as sent in the request line.
    target: String,
    fragment: Option<String>,
    text: String,
}

/// Ports the Fetch standard refuses (mail, IRC, X11 and the like).
const BAD_PORTS: &[u16] = &[
    0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101,
    102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427,
    465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990,
    993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667,
    6668, 6669, 6679, 6697, 10080,
];

fn cleaned(input: &str) -> Result<String, UrlError> {
    let trimmed = input.trim_matches(|c: char| c <= ' ');
    if trimmed.is_empty() {
        return Err(UrlError::Empty);
    }
    if trimmed.len() > MAX_URL_LEN {
        return Err(UrlError::TooLong);
    }
    Ok(trimmed
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect())
}

/// The scheme of `s` (lower-cased) and the rest, when it has one.
fn split_scheme(s: &str) -> Option<(String, &str)> {
    let colon = s.find(':')?;
    let scheme = s.get(..colon)?;
    let mut chars = scheme.chars();
    if !chars.next()?.is_ascii_alphabetic()
        || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return None;
    }
    Some((scheme.to_ascii_lowercase(), s.get(colon + 1..)?))
}

/// The scheme of a reference, when it has one (`mailto`, `javascript`, …).
pub(crate) fn scheme_of(reference: &str) -> Option<String> {
    split_scheme(reference.trim_start()).map(|(s, _)| s)
}

fn is_slash(c: char) -> bool {
    c == '/' || c == '\\'
}

impl Url {
    /// Parses an absolute `http` or `https` URL.
    pub fn parse(input: &str) -> Result<Url, UrlError> {
        let s = cleaned(input)?;
        let Some((scheme, rest)) = split_scheme(&s) else {
            return Err(UrlError::Relative);
        };
        let https = match scheme.as_str() {
            "http" => false,
            "https" => true,
            _ => return Err(UrlError::Scheme(scheme)),
        };
        let rest = rest.trim_start_matches(is_slash);
        let end = rest
            .find(|c: char| is_slash(c) || c == '?' || c == '#')
            .unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(end);
        if authority.contains('@') {
            return Err(UrlError::Credentials);
        }
        let (host, port) = host_port(authority)?;
        let port = port.filter(|&p| p != if https { 443 } else { 80 });
        if let Some(p) = port {
            if BAD_PORTS.contains(&p) {
                return Err(UrlError::Port(p.to_string()));
            }
        }
        let (before_fragment, fragment) = match tail.split_once('#') {
            Some((a, f)) => (a, Some(encode(f, Set::Fragment))),
            None => (tail, None),
        };
        let (path, query) = match before_fragment.split_once('?') {
            Some((p, q)) => (p, Some(encode(q, Set::Query))),
            None => (before_fragment, None),
        };
        let mut target = normalise_path(path);
        if let Some(q) = &query {
            target.push('?');
            target.push_str(q);
        }
        let mut url = Url {
            https,
            host,
            port,
            target,
            fragment,
            text: String::new(),
        };
        url.text = url.serialise();
        Ok(url)
    }

    /// Resolves a reference (a link's `href`, a `Location` header) against
    /// this URL. The result must itself be `http` or `https`.
    pub fn join(&self, reference: &str) -> Result<Url, UrlError> {
        let r = match cleaned(reference) {
            Ok(r) => r,
            Err(UrlError::Empty) => return Url::parse(self.without_fragment()),
            Err(e) => return Err(e),
        };
        if let Some((scheme, rest)) = split_scheme(&r) {
            // `http:path` against an http base is relative, as in browsers
            let same =
                (scheme == "https") == self.https && matches!(scheme.as_str(), "http" | "https");
            if !same || rest.starts_with(is_slash) {
                return Url::parse(&r);
            }
            return self.join(rest);
        }
        let origin = self.origin();
        let mut chars = r.chars();
        let first = chars.next();
        let second = chars.next();
        let joined = match (first, second) {
            (Some(a), Some(b)) if is_slash(a) && is_slash(b) => {
                format!("{}:{r}", if self.https { "https" } else { "http" })
            }
            (Some(a), _) if is_slash(a) => format!("{origin}{r}"),
            (Some('?'), _) => format!("{origin}{}{r}", self.path()),
            (Some('#'), _) => format!("{}{r}", self.without_fragment()),
            _ => {
                let path = self.path();
                let dir = path
                    .rfind('/')
                    .map_or("/", |i| path.get(..=i).unwrap_or("/"));
                format!("{origin}{dir}{r}")
            }
        };
        Url::parse(&joined)
    }

    /// The whole URL.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The URL without its `#fragment` (what is requested).
    pub fn without_fragment(&self) -> &str {
        match &self.fragment {
            Some(f) => self
                .text
                .get(..self.text.len() - f.len() - 1)
                .unwrap_or(&self.text),
            None => &self.text,
        }
    }

    /// Whether the scheme is `https`.
    pub fn is_https(&self) -> bool {
        self.https
    }

    /// The host.
    pub fn host(&self) -> &Host {
        &self.host
    }

    /// The host as text: the domain, or the address (IPv6 without brackets).
    pub fn host_str(&self) -> String {
        match &self.host {
            Host::Domain(d) => d.clone(),
            Host::Ip(ip) => ip.to_string(),
        }
    }

    /// The port, the scheme's default when none is written.
    pub fn port(&self) -> u16 {
        self.port.unwrap_or(if self.https { 443 } else { 80 })
    }

    /// The path (always starting with `/`).
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("/")
    }

    /// The path and query, as in an HTTP request line.
    pub fn request_target(&self) -> &str {
        &self.target
    }

    /// `scheme://host[:port]`.
    pub fn origin(&self) -> String {
        let mut s = String::from(if self.https { "https://" } else { "http://" });
        match &self.host {
            Host::Domain(d) => s.push_str(d),
            Host::Ip(IpAddr::V4(a)) => s.push_str(&a.to_string()),
            Host::Ip(IpAddr::V6(a)) => {
                s.push('[');
                s.push_str(&a.to_string());
                s.push(']');
            }
        }
        if let Some(p) = self.port {
            s.push(':');
            s.push_str(&p.to_string());
        }
        s
    }

    fn serialise(&self) -> String {
        let mut s = self.origin();
        s.push_str(&self.target);
        if let Some(f) = &self.fragment {
            s.push('#');
            s.push_str(f);
        }
        s
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn host_port(authority: &str) -> Result<(Host, Option<u16>), UrlError> {
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let Some((inside, after)) = v6.split_once(']') else {
            return Err(UrlError::Host(
                "an IPv6 address without its closing ]".into(),
            ));
        };
        let ip: Ipv6Addr = inside
            .parse()
            .map_err(|_| UrlError::Host(format!("[{inside}] is not an IPv6 address")))?;
        let port = match after {
            "" => None,
            p => Some(
                p.strip_prefix(':')
                    .ok_or_else(|| UrlError::Host(format!("unexpected {p} after the address")))?,
            ),
        };
        (Host::Ip(IpAddr::V6(ip)), port)
    } else {
        let (h, p) = match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        };
        (domain_or_v4(h)?, p)
    };
    let port = match port {
        None | Some("") => None,
        Some(p) => {
            if !p.bytes().all(|b| b.is_ascii_digit()) || p.len() > 5 {
                return Err(UrlError::Port(p.chars().take(20).collect()));
            }
            match p.parse::<u32>() {
                Ok(n) if n <= 65535 => Some(n as u16),
                _ => return Err(UrlError::Port(p.to_string())),
            }
        }
    };
    Ok((host, port))
}

fn percent_decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let hex = |j: usize| b.get(j).and_then(|&h| (h as char).to_digit(16));
        if c == b'%' {
            if let (Some(h), Some(l)) = (hex(i + 1), hex(i + 2)) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

fn domain_or_v4(raw: &str) -> Result<Host, UrlError> {
    if raw.is_empty() {
        return Err(UrlError::Host("it is empty".into()));
    }
    let decoded = String::from_utf8(percent_decode(raw))
        .map_err(|_| UrlError::Host("it is not UTF-8 once percent-decoded".into()))?;
    if let Some(c) = decoded.chars().find(|&c| {
        c <= ' '
            || c == '\u{7f}'
            || matches!(
                c,
                '#' | '%' | '/' | ':' | '<' | '>' | '?' | '@' | '[' | '\\' | ']' | '^' | '|'
            )
    }) {
        return Err(UrlError::Host(format!("it contains {c:?}")));
    }
    let mut labels = Vec::new();
    for label in decoded.split('.') {
        if label.is_ascii() {
            labels.push(label.to_ascii_lowercase());
        } else {
            let lower: String = label.chars().flat_map(char::to_lowercase).collect();
            let encoded = punycode(&lower)
                .ok_or_else(|| UrlError::Host(format!("{label} cannot be written in Punycode")))?;
            labels.push(format!("xn--{encoded}"));
        }
    }
    let last = match labels.as_slice() {
        [.., l, e] if e.is_empty() => l,
        [.., l] => l,
        [] => return Err(UrlError::Host("it is empty".into())),
    };
    let numeric = !last.is_empty()
        && (last.bytes().all(|b| b.is_ascii_digit())
            || last
                .strip_prefix("0x")
                .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit())));
    if numeric {
        return ipv4(&labels)
            .map(|a| Host::Ip(IpAddr::V4(a)))
            .ok_or_else(|| UrlError::Host(format!("{decoded} is not an IPv4 address")));
    }
    let domain = labels.join(".");
    if domain.len() > 253 || labels.iter().any(|l| l.len() > 63) {
        return Err(UrlError::Host("a name or label is too long".into()));
    }
    if labels
        .iter()
        .take(labels.len().saturating_sub(1))
        .any(String::is_empty)
    {
        return Err(UrlError::Host(format!("{domain} has an empty label")));
    }
    Ok(Host::Domain(domain))
}

/// The WHATWG IPv4 parser: one to four parts, each decimal, octal
/// (leading 0) or hex (0x), the last filling the remaining bytes.
fn ipv4(labels: &[String]) -> Option<Ipv4Addr> {
    let mut parts: Vec<&str> = labels.iter().map(String::as_str).collect();
    if parts.len() > 1 && parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let mut numbers = Vec::with_capacity(4);
    for p in &parts {
        let (digits, radix) = if let Some(h) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X"))
        {
            (h, 16)
        } else if p.len() > 1 && p.starts_with('0') {
            (p.get(1..)?, 8)
        } else {
            (*p, 10)
        };
        if p.is_empty() {
            return None;
        }
        let n = if digits.is_empty() {
            0
        } else {
            u64::from_str_radix(digits, radix).ok()?
        };
        numbers.push(n);
    }
    let (last, init) = numbers.split_last()?;
    if init.iter().any(|&n| n > 255) || *last >= 256u64.pow(5 - numbers.len() as u32) {
        return None;
    }
    let mut v = *last;
    for (i, &n) in init.iter().enumerate() {
        v += n << (8 * (3 - i));
    }
    Some(Ipv4Addr::from(u32::try_from(v).ok()?))
}

#[derive(Clone, Copy)]
enum Set {
    Path,
    Query,
    Fragment,
}

/// Percent-encodes what the URL standard encodes in each part (existing
/// `%XX` escapes are kept).
fn encode(s: &str, set: Set) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let escape = match c {
            c if c <= ' ' || c == '\u{7f}' || !c.is_ascii() => true,
            '"' | '<' | '>' => true,
            '`' => matches!(set, Set::Path | Set::Fragment),
            '#' | '?' | '{' | '}' => matches!(set, Set::Path),
            '\'' => matches!(set, Set::Query),
            _ => false,
        };
        if escape {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The path with `\` as `/`, dot segments resolved and characters encoded.
fn normalise_path(path: &str) -> String {
    let mut segments: Vec<String> = Vec::new();
    let path = path.replace('\\', "/");
    let mut parts = path.split('/').skip(1).peekable();
    if parts.peek().is_none() {
        return "/".into();
    }
    while let Some(seg) = parts.next() {
        let last = parts.peek().is_none();
        let lower = seg.to_ascii_lowercase();
        match lower.as_str() {
            "." | "%2e" => {
                if last {
                    segments.push(String::new());
                }
            }
            ".." | ".%2e" | "%2e." | "%2e%2e" => {
                segments.pop();
                if last {
                    segments.push(String::new());
                }
            }
            _ => segments.push(encode(seg, Set::Path)),
        }
    }
    let mut out = String::with_capacity(path.len() + 1);
    for s in &segments {
        out.push('/');
        out.push_str(s);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// RFC 3492 Punycode of one label (without the `xn--` prefix).
fn punycode(input: &str) -> Option<String> {
    const BASE: u32 = 36;
    const TMIN: u32 = 1;
    const TMAX: u32 = 26;
    fn adapt(mut delta: u32, points: u32, first: bool) -> u32 {
        delta /= if first { 700 } else { 2 };
        delta += delta / points;
        let mut k = 0;
        while delta > ((BASE - TMIN) * TMAX) / 2 {
            delta /= BASE - TMIN;
            k += BASE;
        }
        k + (BASE - TMIN + 1) * delta / (delta + 38)
    }
    fn digit(d: u32) -> char {
        char::from(if d < 26 {
            b'a' + d as u8
        } else {
            b'0' + (d - 26) as u8
        })
    }
    let chars: Vec<u32> = input.chars().map(u32::from).collect();
    if chars.len() > 63 {
        return None;
    }
    let mut out: String = input.chars().filter(char::is_ascii).collect();
    let basic = out.len() as u32;
    let mut handled = basic;
    if basic > 0 {
        out.push('-');
    }
    let (mut n, mut delta, mut bias) = (128u32, 0u32, 72u32);
    while (handled as usize) < chars.len() {
        let m = chars.iter().copied().filter(|&c| c >= n).min()?;
        delta = delta.checked_add((m - n).checked_mul(handled + 1)?)?;
        n = m;
        for &c in &chars {
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = if k <= bias {
                        TMIN
                    } else if k >= bias + TMAX {
                        TMAX
                    } else {
                        k - bias
                    };
                    if q < t {
                        break;
                    }
                    out.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(digit(q));
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n = n.checked_add(1)?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> String {
        match Url::parse(s) {
            Ok(u) => u.as_str().to_string(),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn normalises() {
        assert_eq!(p("http://EXAMPLE.com"), "http://example.com/");
        assert_eq!(p("https://example.com:443/a"), "https://example.com/a");
        assert_eq!(
            p("https://example.com:8443/a"),
            "https://example.com:8443/a"
        );
        assert_eq!(p("http:\\\\example.com\\a\\b"), "http://example.com/a/b");
        assert_eq!(
            p("http://example.com/a/%2e/b/%2E%2e/c"),
            "http://example.com/a/c"
        );
        assert_eq!(p("http://example.com/a/.."), "http://example.com/");
        assert_eq!(
            p("http://example.com/ä?q=ü v#f g"),
            "http://example.com/%C3%A4?q=%C3%BC%20v#f%20g"
        );
        assert_eq!(p("http://ex\nample.com/\t"), "http://example.com/");
        assert_eq!(
            p("http://example.com/?a='b'"),
            "http://example.com/?a=%27b%27"
        );
        assert_eq!(p("http://münchen.de/"), "http://xn--mnchen-3ya.de/");
        assert_eq!(p("http://BÜCHER.example/"), "http://xn--bcher-kva.example/");
        assert_eq!(p("http://example.com./"), "http://example.com./");
        assert_eq!(p("http://[::1]:8080/"), "http://[::1]:8080/");
        assert_eq!(
            p("http://[::FFFF:127.0.0.1]/"),
            "http://[::ffff:127.0.0.1]/"
        );
    }

    #[test]
    fn numeric_hosts_are_ipv4() {
        assert_eq!(p("http://2130706433/"), "http://127.0.0.1/");
        assert_eq!(p("http://0x7f.1/"), "http://127.0.0.1/");
        assert_eq!(p("http://0177.0.0.1/"), "http://127.0.0.1/");
        assert_eq!(p("http://127.1/"), "http://127.0.0.1/");
        assert_eq!(p("http://10.0.0.1./"), "http://10.0.0.1/");
        assert_eq!(p("http://%31%32%37.0.0.1/"), "http://127.0.0.1/");
        assert!(p("http://256.0.0.1/").starts_with("error"));
        assert!(p("http://1.2.3.4.5/").starts_with("error"));
        assert!(p("http://foo.09/").starts_with("error"));
        assert_eq!(p("http://1.2.3.example/"), "http://1.2.3.example/");
    }

    #[test]
    fn refuses() {
        assert_eq!(p(""), "error: the URL is empty");
        assert!(p("ftp://x/").contains("not ftp:"));
        assert!(p("javascript:alert(1)").contains("not javascript:"));
        assert!(p("file:///etc/passwd").contains("not file:"));
        assert!(p("/relative").contains("not absolute"));
        assert!(p("example.com").contains("not absolute"));
        assert!(p("http://u:p@example.com/").contains("password"));
        assert!(p("http://u@example.com/").contains("password"));
        assert!(p("http://example.com:99999/").contains("port"));
        assert!(p("http://example.com:8a/").contains("port"));
        assert!(p("http://example.com:25/").contains("port 25"));
        assert!(p("http://example.com:0/").contains("port 0"));
        assert!(p("http://exa mple.com/").contains("host"));
        assert!(p("http:///").contains("host"));
        assert!(p("http://[::1/").contains("host"));
        assert!(p("http://[1.2.3.4]/").contains("host"));
        assert!(p("http://a..b/").contains("empty label"));
        assert!(p(&format!("http://{}.com/", "a".repeat(64))).contains("too long"));
        assert!(p(&format!("http://x.com/{}", "a".repeat(9000))).contains("longer"));
    }

    #[test]
    fn joins() {
        let base = Url::parse("https://example.com/docs/guide/page.html?x=1#s").unwrap();
        let j = |r: &str| match base.join(r) {
            Ok(u) => u.as_str().to_string(),
            Err(e) => format!("error: {e}"),
        };
        assert_eq!(j("other.html"), "https://example.com/docs/guide/other.html");
        assert_eq!(j("../api/"), "https://example.com/docs/api/");
        assert_eq!(j("/root"), "https://example.com/root");
        assert_eq!(j("//cdn.example.org/x"), "https://cdn.example.org/x");
        assert_eq!(j("?y=2"), "https://example.com/docs/guide/page.html?y=2");
        assert_eq!(
            j("#top"),
            "https://example.com/docs/guide/page.html?x=1#top"
        );
        assert_eq!(j(""), "https://example.com/docs/guide/page.html?x=1");
        assert_eq!(j("http://other.example/"), "http://other.example/");
        assert_eq!(j("https:rel"), "https://example.com/docs/guide/rel");
        assert!(j("mailto:a@b.c").contains("not mailto:"));
        assert_eq!(
            scheme_of(" JavaScript:void(0)").as_deref(),
            Some("javascript")
        );
        assert_eq!(scheme_of("a/b:c"), None);
    }

    #[test]
    fn punycode_vectors() {
        // RFC 3492 sample (Arabic, Egyptian) and simple labels
        assert_eq!(
            punycode("\u{644}\u{64a}\u{647}\u{645}\u{627}\u{628}\u{62a}\u{643}\u{644}\u{645}\u{648}\u{634}\u{639}\u{631}\u{628}\u{64a}\u{61f}").as_deref(),
            Some("egbpdaj6bu4bxfgehfvwxn")
        );
        assert_eq!(punycode("bücher").as_deref(), Some("bcher-kva"));
        assert_eq!(punycode("☃").as_deref(), Some("n3h"));
    }
}
