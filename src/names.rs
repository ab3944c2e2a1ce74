//! Tool names per dialect: each API's name rule, shortening with a stable
//! hash suffix, collision handling, and the reversible map back to MCP.

use foldhash::HashMap;

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::text::{base36, fnv1a};

/// Length of the hash suffix added to shortened or colliding names.
const SUFFIX: usize = 6;

/// A dialect's rule for function names.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NameRule {
    /// Longest name accepted.
    pub max: usize,
    /// Characters allowed besides ASCII letters and digits.
    pub extra: &'static str,
    /// The first character must be a letter or `_`.
    pub letter_first: bool,
    /// Prefixes the dialect reserves.
    pub reserved: &'static [&'static str],
}

impl NameRule {
    /// `^[A-Za-z0-9_-]{1,64}$` (OpenAI, Anthropic).
    pub(crate) const OPENAI: NameRule = NameRule {
        max: 64,
        extra: "_-",
        letter_first: false,
        reserved: &[],
    };
    /// `^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$` (Gemini).
    pub(crate) const GEMINI: NameRule = NameRule {
        max: 64,
        extra: "_.:-",
        letter_first: true,
        reserved: &[],
    };
    /// `^(?!copilot_|vscode_)[\w-]+$`, capped at 64 for the models behind it.
    pub(crate) const VSCODE: NameRule = NameRule {
        max: 64,
        extra: "_-",
        letter_first: false,
        reserved: &["copilot_", "vscode_"],
    };
    /// MCP's own recommendation (`[A-Za-z0-9_.-]`, up to 128), for text prompts.
    pub(crate) const MCP: NameRule = NameRule {
        max: 128,
        extra: "_.-",
        letter_first: false,
        reserved: &[],
    };

    /// Whether `name` satisfies the rule as it is.
    pub(crate) fn accepts(&self, name: &str) -> bool {
        let first_ok = name
            .chars()
            .next()
            .is_some_and(|c| !self.letter_first || c.is_ascii_alphabetic() || c == '_');
        first_ok
            && name.len() <= self.max
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || self.extra.contains(c))
            && !self.reserved.iter().any(|p| name.starts_with(p))
    }

    /// The closest name the rule accepts, before collision handling.
    pub(crate) fn fit(&self, name: &str) -> String {
        // most names have nothing to replace: copied whole
        let whole = name.bytes().all(|b| {
            b.is_ascii_alphanumeric() || (b.is_ascii() && self.extra.as_bytes().contains(&b))
        });
        let mut s: String = if whole {
            name.to_string()
        } else {
            name.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || self.extra.contains(c) {
                        c
                    } else {
                        '_'
                    }
                })
                .collect()
        };
        if s.is_empty() {
            s.push_str("tool");
        }
        if self.letter_first && !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            s.insert(0, '_');
        }
        if self.reserved.iter().any(|p| s.starts_with(p)) {
            s.insert_str(0, "mcp_");
        }
        if s.len() > self.max {
            s = with_suffix(&s, name, self.max);
        }
        s
    }
}

/// `base` cut so that `_` plus a hash of `original` fits in `max`.
fn with_suffix(base: &str, original: &str, max: usize) -> String {
    let keep = max.saturating_sub(SUFFIX + 1);
    // names are ASCII after fitting, so byte slicing is safe; stay defensive anyway
    let mut cut: String = base.chars().take(keep).collect();
    while cut.len() > keep {
        cut.pop();
    }
    format!("{cut}_{}", base36(fnv1a(original), SUFFIX))
}

/// The two-way map between a dialect's tool names and MCP names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameMap {
    pairs: Vec<(String, String)>,
    by_dialect: HashMap<String, usize>,
    by_mcp: HashMap<String, usize>,
}

impl NameMap {
    /// Gives every MCP name a dialect name, in order. Returns the map and
    /// the `(mcp, dialect)` pairs that had to change.
    pub(crate) fn assign<'a>(
        names: impl IntoIterator<Item = &'a str>,
        rule: &NameRule,
    ) -> (NameMap, Vec<(String, String)>) {
        let mut map = NameMap::default();
        let mut changed = Vec::new();
        // the names given so far are the map's dialect names
        for mcp in names {
            let mut cand = rule.fit(mcp);
            if map.by_dialect.contains_key(&cand) {
                cand = with_suffix(&cand, mcp, rule.max);
                let mut n = 2;
                let stem = cand.clone();
                while map.by_dialect.contains_key(&cand) {
                    let tail = format!("_{n}");
                    let mut s: String = stem
                        .chars()
                        .take(rule.max.saturating_sub(tail.len()))
                        .collect();
                    s.push_str(&tail);
                    cand = s;
                    n += 1;
                }
            }
            if cand != mcp {
                changed.push((mcp.to_string(), cand.clone()));
            }
            map.insert_pair(cand, mcp.to_string());
        }
        (map, changed)
    }

    pub(crate) fn insert_pair(&mut self, dialect: String, mcp: String) {
        let i = self.pairs.len();
        self.by_dialect.insert(dialect.clone(), i);
        self.by_mcp.insert(mcp.clone(), i);
        self.pairs.push((dialect, mcp));
    }

    /// The MCP name behind a dialect name.
    pub fn mcp_name(&self, dialect_name: &str) -> Option<&str> {
        let i = *self.by_dialect.get(dialect_name)?;
        self.pairs.get(i).map(|(_, m)| m.as_str())
    }

    /// The dialect name given to an MCP name.
    pub fn dialect_name(&self, mcp_name: &str) -> Option<&str> {
        let i = *self.by_mcp.get(mcp_name)?;
        self.pairs.get(i).map(|(d, _)| d.as_str())
    }

    /// `(dialect name, MCP name)` pairs in catalog order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(d, m)| (d.as_str(), m.as_str()))
    }

    /// Number of names.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Reads a map from `{dialectName: mcpName}` JSON.
    pub fn from_json(value: &serde_json::Value) -> Option<NameMap> {
        let obj = value.as_object()?;
        let mut map = NameMap::default();
        for (d, m) in obj {
            map.insert_pair(d.clone(), m.as_str()?.to_string());
        }
        Some(map)
    }
}

impl NameMap {
    /// Appends the map as a JSON object, as its `Serialize` writes it.
    pub(crate) fn push_json(&self, out: &mut String) {
        out.push('{');
        for (i, (d, mcp)) in self.pairs.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            crate::rawjson::push_str(out, d);
            out.push(':');
            crate::rawjson::push_str(out, mcp);
        }
        out.push('}');
    }
}

impl Serialize for NameMap {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.pairs.len()))?;
        for (d, mcp) in &self.pairs {
            m.serialize_entry(d, mcp)?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use foldhash::HashSet;

    #[test]
    fn valid_names_are_kept() {
        let (map, changed) = NameMap::assign(["get_states", "HassTurnOn"], &NameRule::OPENAI);
        assert!(changed.is_empty());
        assert_eq!(map.mcp_name("get_states"), Some("get_states"));
    }

    #[test]
    fn invalid_characters_are_replaced_per_rule() {
        let (map, _) = NameMap::assign(
            ["admin.tools.list", "9lives", "bad name!"],
            &NameRule::OPENAI,
        );
        let names: Vec<_> = map.iter().map(|(d, _)| d).collect();
        assert_eq!(names, ["admin_tools_list", "9lives", "bad_name_"]);
        let (map, _) = NameMap::assign(["admin.tools.list", "9lives"], &NameRule::GEMINI);
        let names: Vec<_> = map.iter().map(|(d, _)| d).collect();
        assert_eq!(names, ["admin.tools.list", "_9lives"]);
        let (map, _) = NameMap::assign(["copilot_x"], &NameRule::VSCODE);
        assert_eq!(map.dialect_name("copilot_x"), Some("mcp_copilot_x"));
    }

    #[test]
    fn long_names_get_a_stable_hash_suffix() {
        let long = "a".repeat(100);
        let (m1, _) = NameMap::assign([long.as_str()], &NameRule::OPENAI);
        let (m2, _) = NameMap::assign([long.as_str()], &NameRule::OPENAI);
        let d = m1.dialect_name(&long).unwrap();
        assert_eq!(d.len(), 64);
        assert_eq!(Some(d), m2.dialect_name(&long));
        assert!(NameRule::OPENAI.accepts(d));
    }

    #[test]
    fn collisions_are_resolved_and_reversible() {
        let names = ["a.b", "a_b", "a-b", "a:b"];
        let (map, changed) = NameMap::assign(names, &NameRule::OPENAI);
        let ds: HashSet<_> = map.iter().map(|(d, _)| d.to_string()).collect();
        assert_eq!(ds.len(), 4);
        for n in names {
            let d = map.dialect_name(n).unwrap();
            assert!(NameRule::OPENAI.accepts(d), "{d}");
            assert_eq!(map.mcp_name(d), Some(n));
        }
        assert_eq!(changed.len(), 3);
    }

    #[test]
    fn hundreds_of_colliding_long_names_stay_distinct() {
        let names: Vec<String> = (0..500)
            .map(|i| format!("{}{}", "x".repeat(80), i % 250))
            .collect();
        let (map, _) = NameMap::assign(names.iter().map(String::as_str), &NameRule::GEMINI);
        // duplicates in the input collapse onto distinct dialect names too
        let ds: HashSet<_> = map.iter().map(|(d, _)| d.to_string()).collect();
        assert_eq!(ds.len(), 500);
        assert!(ds.iter().all(|d| NameRule::GEMINI.accepts(d)));
    }

    #[test]
    fn non_ascii_and_empty() {
        let (map, _) = NameMap::assign(["lámpara", ""], &NameRule::OPENAI);
        let names: Vec<_> = map.iter().map(|(d, _)| d).collect();
        assert_eq!(names, ["l_mpara", "tool"]);
    }
}
