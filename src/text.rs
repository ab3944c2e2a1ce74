//! Small text helpers shared by names, descriptions and search.

/// Splits an identifier into words: on `_`, `-`, `.`, `:`, `/`, spaces,
/// camelCase humps (`HTTPServer` → `HTTP`, `Server`) and letter/digit
/// boundaries (`v2` → `v`, `2`).
pub(crate) fn split_identifier(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if let Some(&prev) = cur.chars().last().as_ref() {
            let next = chars.get(i + 1).copied();
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_alphabetic() != c.is_alphabetic())
                || (prev.is_uppercase()
                    && c.is_uppercase()
                    && next.is_some_and(char::is_lowercase));
            if boundary {
                words.push(std::mem::take(&mut cur));
            }
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// FNV-1a, 64 bits: a stable hash for name suffixes (the same on every
/// platform and release).
pub(crate) fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// `n` lower-case base-36 characters of a hash.
pub(crate) fn base36(mut h: u64, n: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = String::with_capacity(n);
    for _ in 0..n {
        let d = (h % 36) as usize;
        out.push(char::from(DIGITS.get(d).copied().unwrap_or(b'0')));
        h /= 36;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_identifiers() {
        assert_eq!(split_identifier("HassLightSet"), ["Hass", "Light", "Set"]);
        assert_eq!(
            split_identifier("get_home_structure"),
            ["get", "home", "structure"]
        );
        assert_eq!(
            split_identifier("HTTPServer2go"),
            ["HTTP", "Server", "2", "go"]
        );
        assert_eq!(
            split_identifier("light__HassTurnOn"),
            ["light", "Hass", "Turn", "On"]
        );
        assert_eq!(
            split_identifier("admin.tools.list"),
            ["admin", "tools", "list"]
        );
        assert!(split_identifier("__").is_empty());
    }

    #[test]
    fn hash_is_stable() {
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(base36(fnv1a("a"), 6), base36(fnv1a("a"), 6));
        assert_ne!(base36(fnv1a("a"), 6), base36(fnv1a("b"), 6));
        assert_eq!(base36(35, 2), "z0");
    }
}

/// A stable insertion sort for the short lists outside the hot paths (a
/// few dozen items). `std`'s sorts are faster on long slices but add several
/// kilobytes of wasm for every element type they are used with.
pub(crate) fn sort_small_by<T>(v: &mut [T], mut before: impl FnMut(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && before(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod sort_tests {
    #[test]
    fn sorts_stably() {
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        super::sort_small_by(&mut v, |a, b| a.0 < b.0);
        assert_eq!(v, vec![(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        let mut e: Vec<u8> = Vec::new();
        super::sort_small_by(&mut e, |a, b| a < b);
    }
}
