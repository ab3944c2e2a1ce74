//! `format` assertions for the formats tool arguments use: date-time, date,
//! time (RFC 3339), email, uri, uuid, ipv4, ipv6 and hostname. Other
//! formats are annotations only. Formats apply to strings only.

use std::net::{Ipv4Addr, Ipv6Addr};

/// `Some(valid)` for a format checked here, `None` for one that is not.
pub(crate) fn check(format: &str, s: &str) -> Option<bool> {
    Some(match format {
        "date-time" => date_time(s),
        "date" => date(s),
        "time" => time(s),
        "email" => email(s),
        "uri" => uri(s),
        "uuid" => uuid(s),
        "ipv4" => s.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => s.parse::<Ipv6Addr>().is_ok(),
        "hostname" => hostname(s),
        _ => return None,
    })
}

/// `n` ASCII digits at the start of `s`, as a number, and the rest.
fn digits(s: &str, n: usize) -> Option<(u32, &str)> {
    let head = s.get(..n)?;
    if !head.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((head.parse().ok()?, s.get(n..)?))
}

fn date(s: &str) -> bool {
    parse_date(s) == Some("")
}

/// A full-date (`YYYY-MM-DD`); the rest of the text.
fn parse_date(s: &str) -> Option<&str> {
    let (year, s) = digits(s, 4)?;
    let s = s.strip_prefix('-')?;
    let (month, s) = digits(s, 2)?;
    let s = s.strip_prefix('-')?;
    let (day, s) = digits(s, 2)?;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days).contains(&day).then_some(s)
}

/// A full-time (`HH:MM:SS[.frac](Z|±HH:MM)`), leap seconds only at 23:59
/// UTC.
fn time(s: &str) -> bool {
    let Some((h, s)) = digits(s, 2) else {
        return false;
    };
    let Some(s) = s.strip_prefix(':') else {
        return false;
    };
    let Some((m, s)) = digits(s, 2) else {
        return false;
    };
    let Some(s) = s.strip_prefix(':') else {
        return false;
    };
    let Some((sec, mut s)) = digits(s, 2) else {
        return false;
    };
    if let Some(rest) = s.strip_prefix('.') {
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        s = rest.get(n..).unwrap_or_default();
    }
    let offset: i64 = if s == "Z" || s == "z" {
        0
    } else {
        let sign = match s.get(..1) {
            Some("+") => 1,
            Some("-") => -1,
            _ => return false,
        };
        let Some((oh, r)) = digits(s.get(1..).unwrap_or_default(), 2) else {
            return false;
        };
        let Some(r) = r.strip_prefix(':') else {
            return false;
        };
        let Some((om, r)) = digits(r, 2) else {
            return false;
        };
        if !r.is_empty() || oh > 23 || om > 59 {
            return false;
        }
        sign * i64::from(oh * 60 + om)
    };
    if h > 23 || m > 59 || sec > 60 {
        return false;
    }
    if sec == 60 {
        let utc = (i64::from(h * 60 + m) - offset).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

fn date_time(s: &str) -> bool {
    let Some(rest) = parse_date(s) else {
        return false;
    };
    match rest.strip_prefix(['T', 't']) {
        Some(t) => time(t),
        None => false,
    }
}

fn email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let local_ok = if local.len() >= 2 && local.starts_with('"') && local.ends_with('"') {
        true
    } else {
        !local.is_empty()
            && !local.starts_with('.')
            && !local.ends_with('.')
            && !local.contains("..")
            && local
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~.".contains(c))
    };
    if !local_ok {
        return false;
    }
    if let Some(lit) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        return match lit.strip_prefix("IPv6:") {
            Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
            None => lit.parse::<Ipv4Addr>().is_ok(),
        };
    }
    hostname(domain)
}

fn hostname(s: &str) -> bool {
    if s.is_empty() || s.len() > 253 {
        return false;
    }
    s.split('.').all(|label| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    })
}

fn uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups
            .iter()
            .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// An absolute URI (RFC 3986): a scheme, then only URI characters and
/// well-formed percent escapes; an authority's port is digits.
fn uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return false;
    }
    let bytes = rest.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'%' => {
                let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
                if !(hex(i + 1) && hex(i + 2)) {
                    return false;
                }
                i += 3;
                continue;
            }
            b if b.is_ascii_alphanumeric() => {}
            b if b"-._~:/?#[]@!$&'()*+,;=".contains(&b) => {}
            _ => return false,
        }
        i += 1;
    }
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        let authority = after.get(..end).unwrap_or_default();
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        if let Some(v6) = host_port.strip_prefix('[') {
            let Some((_, port)) = v6.split_once(']') else {
                return false;
            };
            return port.is_empty()
                || port
                    .strip_prefix(':')
                    .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()));
        }
        if authority.contains('[') || authority.contains(']') {
            return false;
        }
        if let Some((_, port)) = host_port.rsplit_once(':') {
            return port.bytes().all(|b| b.is_ascii_digit());
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times() {
        assert_eq!(check("date-time", "2024-02-29T12:00:00Z"), Some(true));
        assert_eq!(
            check("date-time", "2024-02-29t12:00:00.5+01:30"),
            Some(true)
        );
        assert_eq!(check("date-time", "2023-02-29T12:00:00Z"), Some(false));
        assert_eq!(check("date-time", "2024-01-01 12:00:00Z"), Some(false));
        assert_eq!(check("date-time", "2024-01-01T12:00:00"), Some(false));
        assert_eq!(check("date", "2024-13-01"), Some(false));
        assert_eq!(check("date", "2024-1-01"), Some(false));
        assert_eq!(check("time", "23:59:60Z"), Some(true));
        assert_eq!(check("time", "22:59:60Z"), Some(false));
        assert_eq!(check("time", "15:59:60-08:00"), Some(true));
        assert_eq!(check("time", "12:00:00"), Some(false));
        assert_eq!(check("time", "12:00:00.Z"), Some(false));
    }

    #[test]
    fn addresses_and_names() {
        assert_eq!(check("email", "joe.bloggs@example.com"), Some(true));
        assert_eq!(check("email", "joe..bloggs@example.com"), Some(false));
        assert_eq!(check("email", "2962"), Some(false));
        assert_eq!(check("email", "joe@[127.0.0.1]"), Some(true));
        assert_eq!(check("uri", "http://example.com/a?b=c#d"), Some(true));
        assert_eq!(check("uri", "urn:isbn:0451450523"), Some(true));
        assert_eq!(check("uri", "//example.com"), Some(false));
        assert_eq!(check("uri", "http://exa mple.com"), Some(false));
        assert_eq!(check("uri", "http://example.com:80x/"), Some(false));
        assert_eq!(
            check("uuid", "2eb8aa08-AA98-11ea-B4Aa-73B441D16380"),
            Some(true)
        );
        assert_eq!(
            check("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638"),
            Some(false)
        );
        assert_eq!(check("ipv4", "192.168.0.1"), Some(true));
        assert_eq!(check("ipv4", "256.0.0.1"), Some(false));
        assert_eq!(check("ipv6", "::1"), Some(true));
        assert_eq!(check("ipv6", "12345::"), Some(false));
        assert_eq!(check("hostname", "www.example.com"), Some(true));
        assert_eq!(check("hostname", "-a.example.com"), Some(false));
        assert_eq!(check("duration", "anything"), None);
    }
}
