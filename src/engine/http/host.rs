//! Hosts and origins, parsed and compared exactly: which reach only this
//! machine, and which origins the policy lets in.
//!
//! This parser is strict on purpose (RFC 9112's `Host`, RFC 6454's
//! origin): anything odd (user info, a path, percent escapes, a bad port)
//! is refused. The web tools parse URLs as a browser does (WHATWG: lenient,
//! percent-decoding, IDNA) in `web::url`, because what they must know is
//! where a fetch would really go; one parser for both would weaken one of
//! them.

use std::net::{Ipv4Addr, Ipv6Addr};

use super::*;

/// Whether a host name or address only reaches this machine: `localhost`,
/// an IPv4 address in 127.0.0.0/8 (dotted quad), `::1` (with or without
/// brackets) or an IPv4-mapped loopback address. Names are not resolved:
/// `127.evil.example` and `localhost.evil.example` are not loopback.
pub fn is_loopback(host: &str) -> bool {
    let bracketed = host.strip_prefix('[').and_then(|h| h.strip_suffix(']'));
    if let Some(v6) = bracketed {
        return v6
            .parse::<Ipv6Addr>()
            .is_ok_and(|a| a.is_loopback() || a.to_ipv4_mapped().is_some_and(|m| m.is_loopback()));
    }
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    if let Ok(a) = host.parse::<Ipv4Addr>() {
        return a.is_loopback();
    }
    host.parse::<Ipv6Addr>()
        .is_ok_and(|a| a.is_loopback() || a.to_ipv4_mapped().is_some_and(|m| m.is_loopback()))
}

/// Splits an authority (`host`, `host:port`, `[v6]`, `[v6]:port`) into its
/// host and port. `None` for anything else: user info, a path, a bad port,
/// an empty host.
fn authority(a: &str) -> Option<(&str, Option<u16>)> {
    let (host, port) = if a.starts_with('[') {
        let close = a.find(']')?;
        let host = a.get(..=close)?;
        match a.get(close + 1..)? {
            "" => (host, None),
            rest => (host, Some(rest.strip_prefix(':')?)),
        }
    } else {
        match a.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (a, None),
        }
    };
    let valid_host = !host.is_empty()
        && host.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'[' | b']' | b':' | b'%')
        });
    if !valid_host {
        return None;
    }
    let port = match port {
        None => None,
        Some(p) if !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) => {
            Some(p.parse::<u16>().ok()?)
        }
        Some(_) => return None,
    };
    Some((host, port))
}

/// The host of a browser origin (`scheme://host[:port]`, nothing more),
/// for the `http` and `https` schemes.
pub(super) fn origin_host(origin: &str) -> Option<&str> {
    let (scheme, rest) = origin.split_once("://")?;
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    authority(rest).map(|(host, _)| host)
}

pub(super) fn origin_allowed(origin: &str, policy: &HttpPolicy) -> bool {
    let listed = policy.origins.iter().any(|o| {
        o == "*"
            || o.trim_end_matches('/')
                .eq_ignore_ascii_case(origin.trim_end_matches('/'))
    });
    listed || origin_host(origin).is_some_and(is_loopback)
}

/// Whether a `Host` header names this machine by a loopback name or address.
pub(super) fn host_allowed(host: &str) -> bool {
    authority(host.trim()).is_some_and(|(h, _)| is_loopback(h))
}
