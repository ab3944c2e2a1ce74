//! `pattern` and `patternProperties`: ECMA-262 regular expressions run with
//! `regex-lite`. The common differences are translated (`\s` and `.` as
//! ECMA-262 reads them, `\/`, `\cX`, `[^]`, a few `\p{...}` classes); a
//! pattern that still does not compile is the schema's fault, not the
//! caller's, and is skipped.

use std::sync::OnceLock;

use regex_lite::Regex;

/// ECMA-262 white space and line terminators, as class members.
const SPACE: &str = r"\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// Patterns longer than this are not compiled (they are skipped).
const MAX_PATTERN: usize = 10_000;

/// Compiles an ECMA-262 pattern; `None` when it cannot be run here.
pub(crate) fn compile(pattern: &str) -> Option<Regex> {
    if pattern.len() > MAX_PATTERN {
        return None;
    }
    Regex::new(&translate(pattern)?).ok()
}

/// Rewrites ECMA-262 syntax into `regex-lite` syntax.
fn translate(p: &str) -> Option<String> {
    let mut out = String::with_capacity(p.len() + 8);
    let mut chars = p.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let e = chars.next()?;
                match e {
                    's' if in_class => out.push_str(SPACE),
                    's' => {
                        out.push('[');
                        out.push_str(SPACE);
                        out.push(']');
                    }
                    'S' if !in_class => {
                        out.push_str("[^");
                        out.push_str(SPACE);
                        out.push(']');
                    }
                    'c' => {
                        let l = chars.next().filter(char::is_ascii_alphabetic)?;
                        out.push_str(&format!(r"\x{:02X}", (l as u32) % 32));
                    }
                    '0' if !chars.peek().is_some_and(char::is_ascii_digit) => {
                        out.push_str(r"\x00");
                    }
                    'p' | 'P' => {
                        if chars.next()? != '{' {
                            return None;
                        }
                        let mut name = String::new();
                        loop {
                            match chars.next()? {
                                '}' => break,
                                ch => name.push(ch),
                            }
                        }
                        let class = property_class(&name)?;
                        match (e == 'P', in_class) {
                            (false, true) => out.push_str(class),
                            (false, false) => {
                                out.push('[');
                                out.push_str(class);
                                out.push(']');
                            }
                            (true, false) => {
                                out.push_str("[^");
                                out.push_str(class);
                                out.push(']');
                            }
                            (true, true) => return None,
                        }
                    }
                    'u' if chars.peek() == Some(&'{') => out.push_str(r"\u"),
                    'u' => {
                        let hex: String = (0..4).filter_map(|_| chars.next()).collect();
                        if hex.len() != 4 || !hex.chars().all(|h| h.is_ascii_hexdigit()) {
                            return None;
                        }
                        out.push_str(&format!(r"\x{{{hex}}}"));
                    }
                    'd' | 'D' | 'w' | 'W' | 'S' | 'b' | 'B' | 'f' | 'n' | 'r' | 't' | 'v' | 'x'
                    | 'k' => {
                        out.push('\\');
                        out.push(e);
                    }
                    e if e.is_ascii_digit() => {
                        // a back-reference: not supported, skip the pattern
                        return None;
                    }
                    e if e.is_ascii_alphanumeric() => out.push(e),
                    e if e.is_ascii() => {
                        out.push('\\');
                        out.push(e);
                    }
                    e => out.push(e),
                }
            }
            '[' if !in_class => {
                if p_rest_starts(&mut chars, "^]") {
                    out.push_str(r"[\x{0}-\x{10FFFF}]");
                    continue;
                }
                if p_rest_starts(&mut chars, "]") {
                    out.push_str(r"[^\x{0}-\x{10FFFF}]");
                    continue;
                }
                in_class = true;
                out.push('[');
                if chars.peek() == Some(&'^') {
                    chars.next();
                    out.push('^');
                }
                // a literal `[` inside an ECMA class must be escaped here
            }
            '[' => out.push_str(r"\["),
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '&' | '~' | '-' if in_class => {
                // regex-lite reads `&&`, `--`, `~~` as set operations
                if c == '-' && chars.peek() != Some(&'-') {
                    out.push('-');
                } else {
                    out.push('\\');
                    out.push(c);
                }
            }
            '.' if !in_class => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            c => out.push(c),
        }
    }
    Some(out)
}

/// Consumes `s` when the iterator continues with it.
fn p_rest_starts(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, s: &str) -> bool {
    let ahead: String = chars.clone().take(s.chars().count()).collect();
    if ahead == s {
        for _ in s.chars() {
            chars.next();
        }
        true
    } else {
        false
    }
}

/// Class members for a Unicode property, built once from the standard
/// library's character predicates (close to, not exactly, the Unicode
/// general categories).
fn property_class(name: &str) -> Option<&'static str> {
    static ALPHA: OnceLock<String> = OnceLock::new();
    static UPPER: OnceLock<String> = OnceLock::new();
    static LOWER: OnceLock<String> = OnceLock::new();
    static NUMERIC: OnceLock<String> = OnceLock::new();
    static SPACE_CLASS: OnceLock<String> = OnceLock::new();
    let (cell, pred): (&'static OnceLock<String>, fn(char) -> bool) = match name {
        "L" | "Letter" | "Alphabetic" | "Alpha" => (&ALPHA, char::is_alphabetic),
        "Lu" | "Uppercase_Letter" | "Uppercase" | "Upper" => (&UPPER, char::is_uppercase),
        "Ll" | "Lowercase_Letter" | "Lowercase" | "Lower" => (&LOWER, char::is_lowercase),
        "N" | "Number" => (&NUMERIC, char::is_numeric),
        "White_Space" | "space" => (&SPACE_CLASS, char::is_whitespace),
        _ => return None,
    };
    Some(cell.get_or_init(|| ranges(pred)).as_str())
}

fn ranges(pred: fn(char) -> bool) -> String {
    let mut out = String::new();
    let mut start: Option<u32> = None;
    let emit = |out: &mut String, a: u32, b: u32| {
        if a == b {
            out.push_str(&format!(r"\x{{{a:X}}}"));
        } else {
            out.push_str(&format!(r"\x{{{a:X}}}-\x{{{b:X}}}"));
        }
    };
    for cp in 0..=0x11_0000u32 {
        let hit = char::from_u32(cp).is_some_and(pred);
        match (hit, start) {
            (true, None) => start = Some(cp),
            (false, Some(s)) => {
                emit(&mut out, s, cp - 1);
                start = None;
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, s: &str) -> bool {
        compile(p)
            .unwrap_or_else(|| panic!("{p} compiles"))
            .is_match(s)
    }

    #[test]
    fn reads_patterns_as_ecma_262() {
        assert!(m(r"^\s$", "\u{a0}"));
        assert!(!m(r"^.$", "\n"));
        assert!(!m(r"^.$", "\u{2028}"));
        assert!(m(r"^a\/b$", "a/b"));
        assert!(m(r"^\cJ$", "\n"));
        assert!(m(r"^[^]$", "\n"));
        assert!(!m(r"^[]$", ""));
        assert!(m(r"^\u00e9$", "é"));
        assert!(m(r"^[a-z&&]+$", "a&&"));
        assert!(m(r"^\p{Letter}+$", "Hello"));
        assert!(m(r"^\p{Letter}+$", "π"));
        assert!(!m(r"^\p{Letter}+$", "123"));
        assert!(m(r"^\P{L}+$", "123"));
        assert!(m("a+", "xaay"), "pattern is unanchored");
    }

    #[test]
    fn unsupported_patterns_are_none() {
        assert!(compile(r"(a)\1").is_none());
        assert!(compile(r"(?=a)").is_none());
        assert!(compile("[").is_none());
        assert!(compile(r"\p{Greek}").is_none());
        assert!(compile(&"a".repeat(MAX_PATTERN + 1)).is_none());
    }
}
