//! What kind of address an IP address is, and whether a fetch may connect
//! to it. The check runs on the addresses a host name resolved to (and on
//! literal addresses in URLs), for the first request and every redirect,
//! so a public name that resolves to `127.0.0.1` is refused like
//! `http://127.0.0.1/` is.
//!
//! | class | ranges |
//! |---|---|
//! | `Public` | everything below not listed |
//! | `Loopback` | 127.0.0.0/8, ::1 |
//! | `Private` | 10/8, 172.16/12, 192.168/16, fc00::/7 (unique local), fec0::/10 (old site-local) |
//! | `LinkLocal` | 169.254/16, fe80::/10 |
//! | `SharedAddressSpace` | 100.64/10 (carrier-grade NAT) |
//! | `Unspecified` | 0.0.0.0/8 ("this network"), :: |
//! | `Multicast` | 224/4, ff00::/8 |
//! | `Broadcast` | 255.255.255.255 |
//! | `Documentation` | 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20 |
//! | `Reserved` | 192.0.0/24, 198.18/15 (benchmarking), 240/4, 100::/64 (discard), 2001::/23 (protocol assignments, Teredo), 64:ff9b:1::/48 (local NAT64) |
//!
//! IPv6 addresses that carry an IPv4 address are classified by it:
//! IPv4-mapped `::ffff:a.b.c.d`, the old IPv4-compatible `::a.b.c.d`, NAT64
//! `64:ff9b::a.b.c.d` and 6to4 `2002:AABB:CCDD::`.
//!
//! By default only `Public` addresses may be fetched. With
//! [`AddressPolicy::allow_private`] the local ones (loopback, private, link
//! local, shared, documentation, reserved) are allowed too, for a hub that
//! should read pages on its own network; `Unspecified`, `Multicast` and
//! `Broadcast` are never connected to.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The class of an address (see the module table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AddressClass {
    /// Globally routable.
    Public,
    /// This machine.
    Loopback,
    /// A private network (RFC 1918, IPv6 unique local).
    Private,
    /// Link-local (169.254/16, fe80::/10), where cloud metadata services live.
    LinkLocal,
    /// 100.64/10, carrier-grade NAT.
    SharedAddressSpace,
    /// 0.0.0.0/8 and `::`.
    Unspecified,
    /// Multicast.
    Multicast,
    /// 255.255.255.255.
    Broadcast,
    /// Ranges reserved for documentation.
    Documentation,
    /// Other special-purpose ranges.
    Reserved,
}

impl AddressClass {
    /// A lower-case name for messages (`"loopback"`, `"private"`, …).
    pub fn name(self) -> &'static str {
        match self {
            AddressClass::Public => "public",
            AddressClass::Loopback => "loopback",
            AddressClass::Private => "private",
            AddressClass::LinkLocal => "link-local",
            AddressClass::SharedAddressSpace => "shared (carrier-grade NAT)",
            AddressClass::Unspecified => "unspecified",
            AddressClass::Multicast => "multicast",
            AddressClass::Broadcast => "broadcast",
            AddressClass::Documentation => "documentation",
            AddressClass::Reserved => "reserved",
        }
    }
}

/// Classifies an address.
///
/// ```
/// use mcp_switchboard::web::{classify, AddressClass};
///
/// assert_eq!(classify("127.0.0.1".parse().unwrap()), AddressClass::Loopback);
/// assert_eq!(classify("::ffff:192.168.1.10".parse().unwrap()), AddressClass::Private);
/// assert_eq!(classify("93.184.215.14".parse().unwrap()), AddressClass::Public);
/// ```
pub fn classify(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(a) => classify_v4(a),
        IpAddr::V6(a) => classify_v6(a),
    }
}

fn classify_v4(a: Ipv4Addr) -> AddressClass {
    use AddressClass::*;
    match a.octets() {
        [0, ..] => Unspecified,
        [127, ..] => Loopback,
        [10, ..] | [172, 16..=31, ..] | [192, 168, ..] => Private,
        [169, 254, ..] => LinkLocal,
        [100, 64..=127, ..] => SharedAddressSpace,
        [192, 0, 2, _] | [198, 51, 100, _] | [203, 0, 113, _] => Documentation,
        [192, 0, 0, _] | [198, 18..=19, ..] => Reserved,
        [224..=239, ..] => Multicast,
        [255, 255, 255, 255] => Broadcast,
        [240..=255, ..] => Reserved,
        _ => Public,
    }
}

fn classify_v6(a: Ipv6Addr) -> AddressClass {
    use AddressClass::*;
    let s = a.segments();
    let embedded = |hi: u16, lo: u16| {
        let [a, b] = hi.to_be_bytes();
        let [c, d] = lo.to_be_bytes();
        classify_v4(Ipv4Addr::new(a, b, c, d))
    };
    match s {
        [0, 0, 0, 0, 0, 0, 0, 0] => Unspecified,
        [0, 0, 0, 0, 0, 0, 0, 1] => Loopback,
        // IPv4-mapped and IPv4-compatible
        [0, 0, 0, 0, 0, 0xffff, hi, lo] | [0, 0, 0, 0, 0, 0, hi, lo] => embedded(hi, lo),
        // NAT64 well-known prefix
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => embedded(hi, lo),
        [0x64, 0xff9b, 1, ..] => Reserved,
        // 6to4
        [0x2002, hi, lo, ..] => embedded(hi, lo),
        [0x2001, 0xdb8, ..] => Documentation,
        [x, ..] if x & 0xfff0 == 0x3ff0 => Documentation,
        [0x2001, x, ..] if x < 0x200 => Reserved,
        [0x100, 0, 0, 0, ..] => Reserved,
        [x, ..] if x & 0xfe00 == 0xfc00 => Private,
        [x, ..] if x & 0xffc0 == 0xfe80 => LinkLocal,
        [x, ..] if x & 0xffc0 == 0xfec0 => Private,
        [x, ..] if x & 0xff00 == 0xff00 => Multicast,
        _ => Public,
    }
}

/// Which addresses a fetch may connect to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AddressPolicy {
    /// Allow loopback, private, link-local, shared, documentation and
    /// reserved addresses too (off by default).
    pub allow_private: bool,
}

impl AddressPolicy {
    /// Public addresses only.
    pub fn new() -> AddressPolicy {
        AddressPolicy::default()
    }

    /// Allows (or not) the local ranges.
    pub fn with_allow_private(mut self, allow: bool) -> AddressPolicy {
        self.allow_private = allow;
        self
    }

    /// Whether `ip` may be connected to.
    pub fn allows(&self, ip: IpAddr) -> bool {
        match classify(ip) {
            AddressClass::Public => true,
            AddressClass::Unspecified | AddressClass::Multicast | AddressClass::Broadcast => false,
            _ => self.allow_private,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AddressClass::*;

    #[test]
    fn table() {
        let cases: &[(&str, AddressClass)] = &[
            ("0.0.0.0", Unspecified),
            ("0.1.2.3", Unspecified),
            ("1.1.1.1", Public),
            ("9.255.255.255", Public),
            ("10.0.0.1", Private),
            ("11.0.0.1", Public),
            ("100.63.255.255", Public),
            ("100.64.0.1", SharedAddressSpace),
            ("100.127.255.255", SharedAddressSpace),
            ("100.128.0.0", Public),
            ("126.255.255.255", Public),
            ("127.0.0.1", Loopback),
            ("127.255.255.254", Loopback),
            ("169.254.169.254", LinkLocal),
            ("169.253.0.1", Public),
            ("172.15.255.255", Public),
            ("172.16.0.1", Private),
            ("172.31.255.255", Private),
            ("172.32.0.0", Public),
            ("192.0.0.8", Reserved),
            ("192.0.2.1", Documentation),
            ("192.88.99.1", Public),
            ("192.167.255.255", Public),
            ("192.168.1.1", Private),
            ("192.169.0.0", Public),
            ("198.18.0.1", Reserved),
            ("198.19.255.255", Reserved),
            ("198.20.0.0", Public),
            ("198.51.100.7", Documentation),
            ("203.0.113.9", Documentation),
            ("223.255.255.255", Public),
            ("224.0.0.1", Multicast),
            ("239.255.255.250", Multicast),
            ("240.0.0.1", Reserved),
            ("255.255.255.254", Reserved),
            ("255.255.255.255", Broadcast),
            ("::", Unspecified),
            ("::1", Loopback),
            ("::2", Unspecified),
            ("::8.8.8.8", Public),
            ("::ffff:127.0.0.1", Loopback),
            ("::ffff:10.1.2.3", Private),
            ("::ffff:8.8.8.8", Public),
            ("::127.0.0.1", Loopback),
            ("::ffff:0.0.0.0", Unspecified),
            ("64:ff9b::7f00:1", Loopback),
            ("64:ff9b::808:808", Public),
            ("64:ff9b:1::1", Reserved),
            ("2002:c0a8:0101::1", Private),
            ("2002:0808:0808::1", Public),
            ("2001:db8::1", Documentation),
            ("3fff::1", Documentation),
            ("2001::1", Reserved),
            ("2001:1ff::1", Reserved),
            ("2001:4860:4860::8888", Public),
            ("2606:4700::1111", Public),
            ("100::1", Reserved),
            ("fc00::1", Private),
            ("fd12:3456::1", Private),
            ("fe80::1", LinkLocal),
            ("febf::1", LinkLocal),
            ("fec0::1", Private),
            ("ff02::1", Multicast),
        ];
        for (ip, want) in cases {
            let ip: IpAddr = ip.parse().unwrap();
            assert_eq!(classify(ip), *want, "{ip}");
        }
    }

    #[test]
    fn policy() {
        let strict = AddressPolicy::new();
        let open = AddressPolicy::new().with_allow_private(true);
        for ip in [
            "127.0.0.1",
            "10.0.0.1",
            "::1",
            "fd00::1",
            "169.254.169.254",
            "100.64.0.1",
        ] {
            let ip: IpAddr = ip.parse().unwrap();
            assert!(!strict.allows(ip), "{ip}");
            assert!(open.allows(ip), "{ip}");
        }
        for ip in ["0.0.0.0", "::", "224.0.0.1", "255.255.255.255", "ff02::1"] {
            let ip: IpAddr = ip.parse().unwrap();
            assert!(!strict.allows(ip) && !open.allows(ip), "{ip}");
        }
        assert!(strict.allows("8.8.8.8".parse().unwrap()));
        assert_eq!(Loopback.name(), "loopback");
    }
}
