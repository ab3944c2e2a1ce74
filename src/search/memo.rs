//! What the index build made of the texts it has read before.
//!
//! A catalog repeats its texts: parameter descriptions (`Repository
//! owner`, `Page number for pagination`), enum values, the category and
//! hint words of every tool, and descriptions of tools that differ only in
//! name. A text added to a field other than the name and the title always
//! counts the same terms with the same weights in the same order, whatever
//! the tool and field, so the build keeps that run of terms per text and
//! plays it again instead of splitting, folding and looking up the words
//! once more. The order is kept, so the frequencies sum in the same order
//! and the index is the same, bit for bit. The memo lives for one build
//! and holds what its room allows: a catalog whose texts never repeat
//! stops filling it.

use super::analyze::Strings;

/// One text read before.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    /// Its terms and weights, `Memo::runs[start..end]`.
    start: u32,
    end: u32,
    /// The words it counts in its field's length.
    pub(crate) words: u32,
    /// Whether it names no tool of the catalog (so that a description
    /// reads the same with its mentions left out).
    pub(crate) unnamed: bool,
}

/// Texts read before, with the terms each counted.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    texts: Strings,
    /// Numbered like `texts`.
    entries: Vec<Entry>,
    runs: Vec<(u32, f32)>,
    /// Bytes held: texts, 8 per term of their runs and 32 per entry.
    bytes: usize,
    /// Bytes it may hold.
    room: usize,
}

impl Memo {
    /// A memo that holds at most `room` bytes (0: none kept).
    pub(crate) fn new(room: usize) -> Memo {
        Memo {
            room,
            ..Memo::default()
        }
    }

    /// The text's entry, when it was read before.
    #[inline(always)]
    pub(crate) fn find(&self, text: &str) -> Option<Entry> {
        let id = self.texts.find_hot(text.as_bytes())?;
        self.entries.get(id as usize).copied()
    }

    /// The term and weight at `k` of an entry's run, for `k` from 0.
    #[inline(always)]
    pub(crate) fn run_at(&self, e: Entry, k: u32) -> Option<(u32, f32)> {
        let at = e.start.checked_add(k).filter(|&at| at < e.end)?;
        self.runs.get(at as usize).copied()
    }

    /// Whether a text of `len` bytes still fits.
    pub(crate) fn has_room(&self, len: usize) -> bool {
        self.bytes + len <= self.room
    }

    /// Keeps what a text counted: its run of terms and its words. A text
    /// already kept, or one past the room left, is not.
    pub(crate) fn keep(&mut self, text: &str, run: &[(u32, f32)], words: u32) {
        let size = text.len() + 8 * run.len() + 32;
        if !self.has_room(size) {
            return;
        }
        let (_, new) = self.texts.insert(text);
        if !new {
            return;
        }
        let start = u32::try_from(self.runs.len()).unwrap_or(u32::MAX);
        self.runs.extend_from_slice(run);
        self.bytes += size;
        self.entries.push(Entry {
            start,
            end: u32::try_from(self.runs.len()).unwrap_or(u32::MAX),
            words,
            unnamed: false,
        });
    }

    /// Notes that a kept text names no tool.
    pub(crate) fn set_unnamed(&mut self, text: &str) {
        let Some(id) = self.texts.find_hot(text.as_bytes()) else {
            return;
        };
        if let Some(e) = self.entries.get_mut(id as usize) {
            e.unnamed = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_runs_until_full() {
        let mut m = Memo::new(1 << 16);
        assert!(m.find("a b").is_none());
        m.keep("a b", &[(1, 1.0), (2, 0.4)], 2);
        let e = m.find("a b").unwrap();
        assert_eq!(e.words, 2);
        assert_eq!(m.run_at(e, 0), Some((1, 1.0)));
        assert_eq!(m.run_at(e, 1), Some((2, 0.4)));
        assert_eq!(m.run_at(e, 2), None);
        assert!(!e.unnamed);
        m.set_unnamed("a b");
        assert!(m.find("a b").unwrap().unnamed);
        // kept once: a second run for the same text is ignored
        m.keep("a b", &[(3, 1.0)], 1);
        assert_eq!(m.run_at(m.find("a b").unwrap(), 0), Some((1, 1.0)));
        m.keep("", &[], 0);
        assert_eq!(m.find("").unwrap().words, 0);
        // past the room, texts are no longer kept
        let big = "x".repeat(1 << 16);
        m.keep(&big, &[], 0);
        assert!(m.find(&big).is_none());
        assert!(!m.has_room(1 << 16));
        let none = Memo::new(0);
        assert!(!none.has_room(0) || none.find("").is_none());
    }
}
