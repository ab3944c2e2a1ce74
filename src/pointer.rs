//! JSON Pointers (RFC 6901) as plain strings, built one segment at a time.

/// Appends one reference token to a JSON Pointer, escaping `~` and `/`.
pub(crate) fn push(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    push_token(&mut out, token);
    out
}

/// Appends `/` and one escaped reference token to a pointer being built.
pub(crate) fn push_token(out: &mut String, token: &str) {
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// Appends an array index to a JSON Pointer.
pub(crate) fn index(pointer: &str, i: usize) -> String {
    format!("{pointer}/{i}")
}

/// Splits a JSON Pointer into its unescaped reference tokens. `None` when the
/// text is not a pointer (it must be empty or start with `/`).
pub(crate) fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// Percent-decodes a URI fragment (`#/$defs/a%20b` → `/$defs/a b`). Invalid
/// escapes are kept as they are.
pub(crate) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let Some(&b) = bytes.get(i) else { break };
        if b == b'%' && i + 2 < bytes.len() {
            let hex = |c: u8| (c as char).to_digit(16);
            if let (Some(h), Some(l)) = (
                bytes.get(i + 1).and_then(|&c| hex(c)),
                bytes.get(i + 2).and_then(|&c| hex(c)),
            ) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_round_trips() {
        let p = push(&push("", "a/b"), "m~n");
        assert_eq!(p, "/a~1b/m~0n");
        assert_eq!(tokens(&p).unwrap(), vec!["a/b", "m~n"]);
        assert_eq!(index("/x", 3), "/x/3");
        assert_eq!(tokens("x"), None);
        assert_eq!(tokens(""), Some(vec![]));
    }

    #[test]
    fn decodes_percent_escapes() {
        assert_eq!(percent_decode("/$defs/a%20b"), "/$defs/a b");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
    }
}
