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

/// What the memo says of a text.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Seen {
    /// Read before: what it counted.
    Before(Entry),
    /// New, and kept under this number: [`Memo::fill`] it once read.
    New(u32),
    /// New, and not kept (the memo is full).
    Full,
}

impl Memo {
    /// A memo that holds about `room` bytes at most (0: none kept).
    pub(crate) fn new(room: usize) -> Memo {
        Memo {
            room,
            ..Memo::default()
        }
    }

    /// The text's entry, when it was read before.
    pub(crate) fn find(&self, text: &str) -> Option<Entry> {
        let id = self.texts.find(text)?;
        self.entries.get(id as usize).copied()
    }

    /// The text's entry when it was read before, else a place for it when
    /// there is room (one look-up either way).
    pub(crate) fn enter(&mut self, text: &str) -> Seen {
        let size = text.len() + 32;
        if self.bytes + size > self.room {
            return self.find(text).map_or(Seen::Full, Seen::Before);
        }
        let (id, new) = self.texts.insert(text);
        if !new {
            return self
                .entries
                .get(id as usize)
                .copied()
                .map_or(Seen::Full, Seen::Before);
        }
        self.bytes += size;
        self.entries.push(Entry {
            start: 0,
            end: 0,
            words: 0,
            unnamed: false,
        });
        Seen::New(id)
    }

    /// Keeps what the text entered as `id` counted: its run of terms, its
    /// words, and whether it names no tool.
    pub(crate) fn fill(&mut self, id: u32, run: &[(u32, f32)], words: u32, unnamed: bool) {
        let start = u32::try_from(self.runs.len()).unwrap_or(u32::MAX);
        self.runs.extend_from_slice(run);
        self.bytes += 8 * run.len();
        let end = u32::try_from(self.runs.len()).unwrap_or(u32::MAX);
        if let Some(e) = self.entries.get_mut(id as usize) {
            *e = Entry {
                start,
                end,
                words,
                unnamed,
            };
        }
    }

    /// The term and weight at `k` of an entry's run, for `k` from 0.
    #[inline(always)]
    pub(crate) fn run_at(&self, e: Entry, k: u32) -> Option<(u32, f32)> {
        let at = e.start.checked_add(k).filter(|&at| at < e.end)?;
        self.runs.get(at as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_runs_until_full() {
        let mut m = Memo::new(1 << 16);
        assert!(m.find("a b").is_none());
        let Seen::New(id) = m.enter("a b") else {
            panic!("new")
        };
        m.fill(id, &[(1, 1.0), (2, 0.4)], 2, false);
        let Seen::Before(e) = m.enter("a b") else {
            panic!("kept")
        };
        assert_eq!(e.words, 2);
        assert!(!e.unnamed);
        assert_eq!(m.run_at(e, 0), Some((1, 1.0)));
        assert_eq!(m.run_at(e, 1), Some((2, 0.4)));
        assert_eq!(m.run_at(e, 2), None);
        let Seen::New(id) = m.enter("") else {
            panic!("new")
        };
        m.fill(id, &[], 0, true);
        assert!(m.find("").unwrap().unnamed);
        assert_eq!(m.run_at(m.find("").unwrap(), 0), None);
        // past the room, texts are no longer kept, those kept still found
        let big = "x".repeat(1 << 16);
        assert!(matches!(m.enter(&big), Seen::Full));
        assert!(m.find(&big).is_none());
        assert!(matches!(m.enter("a b"), Seen::Before(_)));
        assert!(matches!(Memo::new(0).enter(""), Seen::Full));
    }
}
