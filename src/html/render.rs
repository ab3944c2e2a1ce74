//! Writes a [`Tree`] as Markdown or plain text, walking it with an explicit
//! stack (no recursion), each node entered and left once.
//!
//! Inline wrappers (links, emphasis, inline code, headings, table cells)
//! collect their content in a capture buffer and are written when they
//! close, so empty ones vanish and the spaces around them land outside the
//! markers. Captures nest at most [`MAX_CAPTURES`] deep (deeper wrappers
//! are written as plain text), so a byte is copied a bounded number of
//! times. Block structure (blockquotes, list items) lives in prefix frames
//! written at the start of each line.

use super::tags::Tag;
use super::tree::{flags, Key, Kind, Tree, NONE};
use super::Format;
use crate::web::url::{scheme_of, Url};

/// Inline wrappers open at once; deeper ones are transparent.
const MAX_CAPTURES: usize = 16;
/// Prefix frames written per line (deeper blockquotes and lists are not
/// indented further).
const MAX_FRAMES: usize = 24;
/// Columns of a pipe table; wider tables are laid out as blocks.
const MAX_COLUMNS: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CapKind {
    Strong,
    Em,
    Strike,
    Code,
    Link(u32),
    Heading(usize),
    Cell { colspan: usize },
    Caption,
    Pre(u32),
}

struct Capture {
    kind: CapKind,
    /// The element whose exit closes it.
    owner: u32,
    buf: String,
    space_before: bool,
}

enum Prefix {
    Quote,
    Item {
        indent: usize,
        marker: Option<String>,
    },
}

struct List {
    ordered: bool,
    next: i64,
    step: i64,
}

struct Table {
    /// Captures open when the table started: a cell is a capture directly
    /// above this.
    depth: usize,
    rows: Vec<Vec<(String, usize)>>,
    caption: Option<String>,
}

/// What [`render`] produced.
pub(crate) struct Rendered {
    pub text: String,
    pub truncated: bool,
    pub steps: usize,
}

struct Writer<'t> {
    tree: &'t Tree,
    md: bool,
    base: Option<Url>,
    out: String,
    caps: Vec<Capture>,
    frames: Vec<Prefix>,
    lists: Vec<List>,
    tables: Vec<Table>,
    /// Node ids of layout tables and their rows and cells being walked.
    layout: Vec<u32>,
    /// `highlight-<lang>` hints from enclosing `div`s: (node, language).
    lang_hints: Vec<(u32, String)>,
    newlines: u8,
    /// Frames whose prefix the blank lines of the pending break carry
    /// (a quote that opens after the break does not mark them).
    break_frames: usize,
    hard_break: bool,
    space: bool,
    line_start: bool,
    /// Bytes held in the output, capture buffers and table rows.
    held: usize,
    max: usize,
    truncated: bool,
    pre: usize,
    code: usize,
    cells: usize,
    emphasis: [usize; 3],
    steps: usize,
}

/// Renders the subtree under `root` (its children; `root` itself is the
/// page or the main element).
pub(crate) fn render(
    tree: &Tree,
    root: u32,
    format: Format,
    base: Option<Url>,
    max_output: usize,
) -> Rendered {
    let mut w = Writer {
        tree,
        md: format == Format::Markdown,
        base,
        out: String::new(),
        caps: Vec::new(),
        frames: Vec::new(),
        lists: Vec::new(),
        tables: Vec::new(),
        layout: Vec::new(),
        lang_hints: Vec::new(),
        newlines: 0,
        break_frames: 0,
        hard_break: false,
        space: false,
        line_start: true,
        held: 0,
        max: max_output,
        truncated: false,
        pre: 0,
        code: 0,
        cells: 0,
        emphasis: [0; 3],
        steps: 0,
    };
    let mut stack: Vec<u32> = Vec::new();
    let mut cur = tree.node(root).map_or(NONE, |n| n.first_child);
    loop {
        w.steps += 1;
        if cur != NONE && !w.truncated {
            let Some(node) = tree.node(cur) else { break };
            if w.enter(cur) {
                if node.first_child != NONE {
                    stack.push(cur);
                    cur = node.first_child;
                    continue;
                }
                w.exit(cur);
            }
            cur = node.next_sibling;
        } else {
            // climb; once truncated, close what is open without going on
            let Some(parent) = stack.pop() else { break };
            w.exit(parent);
            cur = if w.truncated {
                NONE
            } else {
                tree.node(parent).map_or(NONE, |n| n.next_sibling)
            };
        }
    }
    while !w.caps.is_empty() {
        w.close_capture();
    }
    let mut text = w.out;
    let end = text.trim_end().len();
    text.truncate(end);
    if text.len() > max_output {
        let mut cut = max_output;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        w.truncated = true;
    }
    Rendered {
        text,
        truncated: w.truncated,
        steps: w.steps,
    }
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c' | '\u{a0}')
}

/// Characters left out of the output: soft hyphens, zero-width spaces,
/// byte order marks, word joiners and control characters.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{ad}' | '\u{200b}' | '\u{feff}' | '\u{2060}') || (c.is_control() && !is_space(c))
}

/// The language of a code block from class names such as `language-rust`,
/// `lang-js`, `highlight-source-python`, `highlight-python` (Sphinx) or
/// `sourceCode python` (Pandoc).
fn language(class: &str) -> Option<String> {
    let words: Vec<&str> = class.split_ascii_whitespace().collect();
    let found = words.iter().find_map(|w| {
        ["language-", "lang-", "highlight-source-", "highlight-"]
            .iter()
            .find_map(|p| w.strip_prefix(p))
    });
    let found = found.or_else(|| {
        words
            .contains(&"sourceCode")
            .then(|| words.iter().find(|w| **w != "sourceCode").copied())
            .flatten()
    })?;
    let lang: String = found
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '#' | '-' | '.' | '_'))
        .take(24)
        .collect();
    (!lang.is_empty() && !matches!(lang.as_str(), "default" | "none" | "text" | "plaintext"))
        .then_some(lang)
}

fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut cur) = (0, 0);
    for x in s.chars() {
        if x == c {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

impl<'t> Writer<'t> {
    // ---- low-level output ------------------------------------------------

    /// Appends to the output or the open capture, up to the output limit.
    fn push(&mut self, s: &str) {
        if self.truncated {
            return;
        }
        let room = self.max.saturating_sub(self.held);
        let s = if s.len() > room {
            self.truncated = true;
            let mut cut = room;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.get(..cut).unwrap_or("")
        } else {
            s
        };
        self.held += s.len();
        match self.caps.last_mut() {
            Some(c) => c.buf.push_str(s),
            None => self.out.push_str(s),
        }
    }

    fn prefix(&self, blank: bool) -> String {
        let mut p = String::new();
        let n = self.break_frames.min(self.frames.len()).min(MAX_FRAMES);
        for f in self.frames.iter().take(n) {
            match f {
                Prefix::Quote => p.push_str(if self.md { "> " } else { "  " }),
                Prefix::Item { indent, .. } => p.extend(std::iter::repeat_n(' ', *indent)),
            }
        }
        if blank {
            let end = p.trim_end().len();
            p.truncate(end);
        }
        p
    }

    /// Gets ready to write visible content: pending line breaks, the
    /// line's prefix (or list marker), or a pending space. Returns whether
    /// the content starts a line.
    fn flush(&mut self) -> bool {
        if let Some(cap) = self.caps.last_mut() {
            if self.space {
                if cap.buf.is_empty() {
                    cap.space_before = true;
                } else if !cap.buf.ends_with(' ') {
                    cap.buf.push(' ');
                    self.held += 1;
                }
            }
            self.space = false;
            return false;
        }
        if self.newlines > 0 && !self.out.is_empty() {
            if self.hard_break && self.newlines == 1 {
                self.push(if self.md { "  \n" } else { "\n" });
            } else {
                self.push("\n");
                for _ in 1..self.newlines {
                    let p = self.prefix(true);
                    self.push(&p);
                    self.push("\n");
                }
            }
            self.line_start = true;
        }
        self.newlines = 0;
        self.hard_break = false;
        let starts = self.line_start;
        if self.line_start {
            let mut p = String::new();
            for f in self.frames.iter_mut().take(MAX_FRAMES) {
                match f {
                    Prefix::Quote => p.push_str(if self.md { "> " } else { "  " }),
                    Prefix::Item { indent, marker } => match marker.take() {
                        Some(m) => p.push_str(&m),
                        None => p.extend(std::iter::repeat_n(' ', *indent)),
                    },
                }
            }
            self.push(&p);
            self.line_start = false;
        } else if self.space {
            self.push(" ");
        }
        self.space = false;
        starts
    }

    /// Asks for a block boundary of `n` newlines (a space inside an inline
    /// wrapper).
    fn block(&mut self, n: u8) {
        if !self.caps.is_empty() {
            self.space = true;
            return;
        }
        if self.out.is_empty() {
            return;
        }
        if self.hard_break && n > 1 {
            self.hard_break = false;
        }
        if self.newlines == 0 {
            self.break_frames = self.frames.len();
        }
        self.newlines = self.newlines.max(n);
        self.space = false;
    }

    fn pop_frame(&mut self) {
        self.frames.pop();
        self.break_frames = self.break_frames.min(self.frames.len());
    }

    fn line_break(&mut self) {
        if self
            .caps
            .last()
            .is_some_and(|c| matches!(c.kind, CapKind::Pre(_)))
        {
            self.push("\n");
            return;
        }
        if !self.caps.is_empty() {
            if self.md && self.cells > 0 {
                self.flush();
                self.push("<br>");
            } else {
                self.space = true;
            }
            return;
        }
        if self.out.is_empty() || (self.line_start && self.newlines == 0) {
            return;
        }
        if self.newlines == 0 {
            self.break_frames = self.frames.len();
            self.newlines = 1;
            self.hard_break = true;
        } else if self.hard_break {
            self.newlines = 2;
            self.hard_break = false;
        }
        self.space = false;
    }

    /// Text outside a cell of a pipe table (between rows) is dropped.
    fn blocked(&self) -> bool {
        self.tables
            .last()
            .is_some_and(|t| t.depth == self.caps.len())
    }

    fn text(&mut self, s: &str) {
        if self.blocked() || self.truncated {
            return;
        }
        if self.pre > 0
            && self
                .caps
                .last()
                .is_some_and(|c| matches!(c.kind, CapKind::Pre(_)))
        {
            // verbatim, in pieces between characters left out
            for piece in s.split(|c: char| c == '\r' || (is_invisible(c) && c != '\n' && c != '\t'))
            {
                self.push(piece);
            }
            return;
        }
        let raw = self.code > 0 || self.pre > 0 || !self.md;
        for word in s.split(is_space) {
            if self.truncated {
                return;
            }
            if word.is_empty() {
                self.space = true;
                continue;
            }
            let starts = self.flush();
            if raw {
                for piece in word.split(is_invisible) {
                    self.push(piece);
                }
            } else {
                let escaped = self.escape(word, starts);
                self.push(&escaped);
            }
            self.space = true;
        }
        // the last piece ends the text: a space follows only if it was there
        self.space = s.ends_with(is_space) || (self.space && s.is_empty());
    }

    /// Escapes what Markdown would read as markup in a word of text (and
    /// leaves out invisible characters).
    fn escape(&self, word: &str, line_start: bool) -> String {
        let mut out = String::with_capacity(word.len() + 4);
        if line_start {
            if word.starts_with(['#', '>', '-', '+', '=', '~']) {
                out.push('\\');
            }
            let digits = word.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && digits + 1 == word.len() && word.ends_with(['.', ')']) {
                let (num, mark) = word.split_at(digits);
                out.push_str(num);
                out.push('\\');
                out.push_str(mark);
                return out;
            }
        }
        let mut prev: Option<char> = None;
        let mut chars = word.chars().filter(|&c| !is_invisible(c)).peekable();
        while let Some(c) = chars.next() {
            let next = chars.peek().copied();
            let escape = match c {
                '\\' | '*' | '`' | '[' | ']' => true,
                '|' => self.cells > 0,
                '_' => {
                    !(prev.is_some_and(char::is_alphanumeric)
                        && next.is_some_and(char::is_alphanumeric))
                }
                '<' => next.is_some_and(|n| n.is_ascii_alphabetic() || n == '/' || n == '!'),
                _ => false,
            };
            if escape {
                out.push('\\');
            }
            out.push(c);
            prev = Some(c);
        }
        out
    }

    // ---- captures ---------------------------------------------------------

    fn open_capture(&mut self, kind: CapKind, owner: u32) -> bool {
        if self.caps.len() >= MAX_CAPTURES {
            return false;
        }
        let space_before = std::mem::take(&mut self.space);
        self.caps.push(Capture {
            kind,
            owner,
            buf: String::new(),
            space_before,
        });
        match kind {
            CapKind::Strong => self.emphasis[0] += 1,
            CapKind::Em => self.emphasis[1] += 1,
            CapKind::Strike => self.emphasis[2] += 1,
            CapKind::Code => self.code += 1,
            CapKind::Cell { .. } => self.cells += 1,
            CapKind::Pre(_) => self.pre += 1,
            _ => {}
        }
        true
    }

    /// Writes `open` + content + `close` where the capture began (nothing
    /// for empty content; the spaces around stay outside).
    fn wrap(&mut self, space_before: bool, content: &str, open: &str, close: &str) {
        let trailing = std::mem::take(&mut self.space);
        let content = content.trim_matches(' ');
        if content.is_empty() {
            self.space = space_before || trailing;
            return;
        }
        self.space = space_before;
        self.flush();
        self.push(open);
        self.push(content);
        self.push(close);
        self.space = trailing;
    }

    fn close_capture(&mut self) {
        let Some(cap) = self.caps.pop() else { return };
        // cells and captions move into the table (still held); the rest
        // is written out again from here
        if !matches!(cap.kind, CapKind::Cell { .. } | CapKind::Caption) {
            self.held = self.held.saturating_sub(cap.buf.len());
        }
        match cap.kind {
            CapKind::Strong | CapKind::Em | CapKind::Strike => {
                let (i, m) = match cap.kind {
                    CapKind::Strong => (0, "**"),
                    CapKind::Em => (1, "*"),
                    _ => (2, "~~"),
                };
                self.emphasis[i] = self.emphasis[i].saturating_sub(1);
                self.wrap(cap.space_before, &cap.buf, m, m);
            }
            CapKind::Code => {
                self.code = self.code.saturating_sub(1);
                let fence = "`".repeat(longest_run(&cap.buf, '`') + 1);
                let content = cap.buf.trim_matches(' ');
                let pad = if content.starts_with('`') || content.ends_with('`') {
                    " "
                } else {
                    ""
                };
                let open = format!("{fence}{pad}");
                let close = format!("{pad}{fence}");
                self.wrap(cap.space_before, content, &open, &close);
            }
            CapKind::Link(node) => {
                let content = cap.buf.trim_matches(' ').to_string();
                // a permalink mark (`¶`, `#`) to an anchor in the page
                let anchor = self
                    .tree
                    .attr(node, Key::Href)
                    .is_some_and(|h| h.trim_start().starts_with('#'));
                if anchor
                    && content.chars().count() <= 2
                    && !content.chars().any(char::is_alphanumeric)
                {
                    self.space = cap.space_before || self.space;
                    return;
                }
                match self.href(node) {
                    Some(href) => {
                        let close = format!("]({href})");
                        self.wrap(cap.space_before, &content, "[", &close);
                    }
                    None => self.wrap(cap.space_before, &content, "", ""),
                }
            }
            CapKind::Heading(level) => {
                let content = cap.buf.trim_matches(' ');
                self.space = false;
                if !content.is_empty() {
                    self.block(2);
                    self.flush();
                    if self.md {
                        self.push(&"#".repeat(level));
                        self.push(" ");
                    }
                    self.push(content);
                    self.block(2);
                }
            }
            CapKind::Cell { colspan, .. } => {
                self.cells = self.cells.saturating_sub(1);
                self.space = false;
                let content = cap.buf.trim_matches(' ').to_string();
                if let Some(t) = self.tables.last_mut() {
                    match t.rows.last_mut() {
                        Some(row) => row.push((content, colspan)),
                        None => t.rows.push(vec![(content, colspan)]),
                    }
                }
            }
            CapKind::Caption => {
                self.space = false;
                let content = cap.buf.trim_matches(' ').to_string();
                if let Some(t) = self.tables.last_mut() {
                    if !content.is_empty() {
                        t.caption.get_or_insert(content);
                    }
                }
            }
            CapKind::Pre(node) => {
                self.pre = self.pre.saturating_sub(1);
                self.pre_block(node, &cap.buf);
            }
        }
    }

    fn href(&self, node: u32) -> Option<String> {
        let raw = self.tree.attr(node, Key::Href)?.trim();
        if raw.is_empty() {
            return None;
        }
        if raw.starts_with('#') {
            // in-page anchors lead nowhere for a reader of the text
            return None;
        }
        let url = match scheme_of(raw) {
            Some(s)
                if matches!(
                    s.as_str(),
                    "javascript" | "vbscript" | "data" | "file" | "blob"
                ) =>
            {
                return None
            }
            Some(s) if s != "http" && s != "https" => raw.to_string(),
            _ => match &self.base {
                Some(b) => b.join(raw).ok()?.as_str().to_string(),
                None => raw.to_string(),
            },
        };
        Some(
            url.replace(' ', "%20")
                .replace('(', "%28")
                .replace(')', "%29"),
        )
    }

    fn pre_block(&mut self, node: u32, content: &str) {
        let content = content.strip_prefix('\n').unwrap_or(content);
        let content = content.trim_end();
        if content.trim().is_empty() {
            return;
        }
        if !self.caps.is_empty() {
            // inside a link or a cell: inline code
            let one_line = content.split_whitespace().collect::<Vec<_>>().join(" ");
            let fence = "`".repeat(longest_run(&one_line, '`') + 1);
            self.flush();
            if self.md {
                self.push(&fence);
            }
            self.push(&one_line);
            if self.md {
                self.push(&fence);
            }
            return;
        }
        self.block(2);
        let lang = self.code_language(node).unwrap_or_default();
        let fence = "`".repeat(longest_run(content, '`').max(2) + 1);
        let mut lines: Vec<String> = Vec::new();
        if self.md {
            lines.push(format!("{fence}{lang}"));
        }
        lines.extend(content.lines().map(str::to_string));
        if self.md {
            lines.push(fence);
        }
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                self.newlines = 1;
            }
            self.flush();
            self.push(line.trim_end());
        }
        self.block(2);
    }

    fn code_language(&self, pre: u32) -> Option<String> {
        let own = self.tree.attr(pre, Key::Class).and_then(language);
        own.or_else(|| {
            let child = self
                .tree
                .children(pre)
                .find(|&c| self.tree.tag(c) == Some(Tag::Code))?;
            self.tree.attr(child, Key::Class).and_then(language)
        })
        .or_else(|| self.lang_hints.last().map(|(_, l)| l.clone()))
    }

    // ---- elements ---------------------------------------------------------

    /// Enters a node; returns whether to walk into it (and call `exit`).
    fn enter(&mut self, id: u32) -> bool {
        let Some(node) = self.tree.node(id) else {
            return false;
        };
        let tag = match node.kind {
            Kind::Text { start, end } => {
                let s = self.tree.text_of(start, end);
                self.text(s);
                return false;
            }
            Kind::Root => return true,
            Kind::Element { tag, .. } => tag,
        };
        use Tag::*;
        let inline = !self.caps.is_empty();
        match tag {
            Br => {
                self.line_break();
                return false;
            }
            Hr => {
                if !inline {
                    self.block(2);
                    if self.md {
                        self.flush();
                        self.push("---");
                    }
                    self.block(2);
                }
                return false;
            }
            Img => {
                self.image(id);
                return false;
            }
            Form if node.flags & flags::HEADING == 0 => return false,
            B | Strong | I | Em | Cite | Dfn | Var | S | Strike | Del => {
                let (i, kind) = match tag {
                    B | Strong => (0, CapKind::Strong),
                    S | Strike | Del => (2, CapKind::Strike),
                    _ => (1, CapKind::Em),
                };
                let nested = self.emphasis[i] > 0;
                if self.md && self.code == 0 && self.pre == 0 && !nested && !self.blocked() {
                    self.open_capture(kind, id);
                }
            }
            Code | Kbd | Samp | Tt => {
                let plain = !self.md || self.code > 0 || self.pre > 0 || self.blocked();
                if !plain {
                    self.open_capture(CapKind::Code, id);
                }
            }
            A => {
                let in_link = self.caps.iter().any(|c| matches!(c.kind, CapKind::Link(_)));
                if self.md && !in_link && self.code == 0 && self.pre == 0 && !self.blocked() {
                    self.open_capture(CapKind::Link(id), id);
                }
            }
            H1 | H2 | H3 | H4 | H5 | H6 => {
                if inline {
                    self.block(2);
                } else {
                    self.block(2);
                    self.open_capture(CapKind::Heading(tag.heading().unwrap_or(1)), id);
                }
            }
            Pre | Listing | Xmp | Plaintext => {
                let opened =
                    self.pre == 0 && !self.blocked() && self.open_capture(CapKind::Pre(id), id);
                if !opened {
                    self.block(1);
                }
            }
            Blockquote => {
                self.block(2);
                if !inline {
                    self.frames.push(Prefix::Quote);
                }
            }
            Ul | Ol | Menu | Dir => {
                let nested = self.frames.iter().any(|f| matches!(f, Prefix::Item { .. }));
                self.block(if nested { 1 } else { 2 });
                let reversed = self.tree.attr(id, Key::Reversed).is_some();
                let start = self
                    .tree
                    .attr(id, Key::Start)
                    .and_then(|s| s.trim().parse::<i64>().ok())
                    .map(|s| s.clamp(-1_000_000_000, 1_000_000_000));
                self.lists.push(List {
                    ordered: tag == Ol,
                    next: start.unwrap_or(1),
                    step: if reversed { -1 } else { 1 },
                });
            }
            Li => {
                self.block(1);
                if !inline {
                    let value = self
                        .tree
                        .attr(id, Key::Value)
                        .and_then(|s| s.trim().parse::<i64>().ok())
                        .map(|s| s.clamp(-1_000_000_000, 1_000_000_000));
                    let marker = match self.lists.last_mut() {
                        Some(l) if l.ordered => {
                            let n = value.unwrap_or(l.next);
                            l.next = n.saturating_add(l.step);
                            format!("{n}. ")
                        }
                        _ => "- ".to_string(),
                    };
                    self.frames.push(Prefix::Item {
                        indent: marker.chars().count(),
                        marker: Some(marker),
                    });
                }
            }
            Dl => self.block(2),
            Dt => {
                self.block(1);
                if self.md && !inline && self.emphasis[0] == 0 {
                    self.open_capture(CapKind::Strong, id);
                }
            }
            Dd => {
                self.block(1);
                if !inline {
                    let marker = if self.md { ": " } else { "  " };
                    self.frames.push(Prefix::Item {
                        indent: 2,
                        marker: Some(marker.to_string()),
                    });
                }
            }
            Table => self.enter_table(id, inline),
            Tr | Td | Th | Caption | Thead | Tbody | Tfoot => self.enter_table_part(id, tag),
            Div => {
                if let Some(l) = self.tree.attr(id, Key::Class).and_then(language) {
                    self.lang_hints.push((id, l));
                }
                self.block(1);
            }
            P | Address | Article | Aside | Center | Details | Fieldset | Figure | Footer
            | Header | Hgroup | Main | Section | Search | Form => self.block(2),
            Figcaption | Summary | Legend | Colgroup => self.block(1),
            Q => {
                self.flush();
                self.push("\"");
            }
            _ => {}
        }
        true
    }

    fn exit(&mut self, id: u32) {
        let Some(tag) = self.tree.tag(id) else { return };
        let owned = self.caps.last().is_some_and(|c| c.owner == id);
        if owned {
            self.close_capture();
        }
        use Tag::*;
        match tag {
            H1 | H2 | H3 | H4 | H5 | H6 | Pre | Listing | Xmp | Plaintext => self.block(2),
            Blockquote => {
                if matches!(self.frames.last(), Some(Prefix::Quote)) && self.caps.is_empty() {
                    self.pop_frame();
                }
                self.block(2);
            }
            Ul | Ol | Menu | Dir => {
                self.lists.pop();
                let nested = self.frames.iter().any(|f| matches!(f, Prefix::Item { .. }));
                self.block(if nested { 1 } else { 2 });
            }
            Li | Dd => {
                if self.caps.is_empty() && matches!(self.frames.last(), Some(Prefix::Item { .. })) {
                    self.pop_frame();
                }
                self.block(1);
            }
            Table => self.exit_table(id),
            Tr | Td | Th | Caption | Thead | Tbody | Tfoot
                if !owned && !self.current_data_table() =>
            {
                self.block(1)
            }
            Div => {
                if self.lang_hints.last().is_some_and(|(n, _)| *n == id) {
                    self.lang_hints.pop();
                }
                self.block(1);
            }
            P | Address | Article | Aside | Center | Details | Fieldset | Figure | Footer
            | Header | Hgroup | Main | Section | Search | Form | Dl => self.block(2),
            Dt | Figcaption | Summary | Legend | Colgroup => self.block(1),
            Q => self.push("\""),
            _ => {}
        }
    }

    fn image(&mut self, id: u32) {
        if self.blocked() {
            return;
        }
        let alt: String = self
            .tree
            .attr(id, Key::Alt)
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if alt.is_empty() {
            return;
        }
        let src = self.tree.attr(id, Key::Src).and_then(|s| {
            let s = s.trim();
            match scheme_of(s) {
                Some(x) if x != "http" && x != "https" => None,
                _ => match &self.base {
                    Some(b) => b.join(s).ok().map(|u| u.as_str().to_string()),
                    None => (!s.is_empty()).then(|| s.to_string()),
                },
            }
        });
        let starts = self.flush();
        match (self.md && self.code == 0 && self.pre == 0, src) {
            (true, Some(src)) => {
                let alt = self.escape(&alt, false);
                let src = src
                    .replace(' ', "%20")
                    .replace('(', "%28")
                    .replace(')', "%29");
                self.push(&format!("![{alt}]({src})"));
            }
            (true, None) => {
                let alt = self.escape(&alt, starts);
                self.push(&alt);
            }
            _ => self.push(&alt),
        }
    }

    // ---- tables -------------------------------------------------------------

    /// The rows of a table (directly or in `thead`/`tbody`/`tfoot`); a
    /// table or section holding cells without a row is one row itself.
    fn rows(&self, table: u32) -> Vec<u32> {
        let mut rows = Vec::new();
        let add = |parent: u32, rows: &mut Vec<u32>| {
            let mut loose = false;
            for c in self.tree.children(parent) {
                match self.tree.tag(c) {
                    Some(Tag::Tr) => rows.push(c),
                    Some(Tag::Td | Tag::Th) => loose = true,
                    _ => {}
                }
            }
            if loose {
                rows.push(parent);
            }
        };
        add(table, &mut rows);
        for c in self.tree.children(table) {
            if matches!(self.tree.tag(c), Some(Tag::Thead | Tag::Tbody | Tag::Tfoot)) {
                add(c, &mut rows);
            }
        }
        rows
    }

    fn colspan(&self, cell: u32) -> usize {
        self.tree
            .attr(cell, Key::Colspan)
            .and_then(|s| s.trim().parse::<usize>().ok())
            .unwrap_or(1)
            .clamp(1, MAX_COLUMNS)
    }

    /// Whether a table is laid out as a pipe table: more than one column,
    /// not too many, and no cell holding headings, lists, code blocks,
    /// quotes or other tables (a page-layout table).
    fn is_data_table(&self, table: u32) -> bool {
        let heavy = flags::HEADING | flags::LIST | flags::PRE | flags::TABLE | flags::QUOTE;
        let mut columns = 0;
        for r in self.rows(table) {
            let mut n = 0;
            for c in self.tree.children(r) {
                if matches!(self.tree.tag(c), Some(Tag::Td | Tag::Th)) {
                    let f = self.tree.node(c).map_or(0, |n| n.flags);
                    let own = self.tree.tag(c).map_or(0, Tag::flag);
                    if (f | own) & heavy != 0 {
                        return false;
                    }
                    n += self.colspan(c);
                }
            }
            columns = columns.max(n);
        }
        (2..=MAX_COLUMNS).contains(&columns)
    }

    fn enter_table(&mut self, id: u32, inline: bool) {
        if inline || self.blocked() || !self.is_data_table(id) {
            self.layout.push(id);
            self.block(2);
            return;
        }
        self.block(2);
        self.tables.push(Table {
            depth: self.caps.len(),
            rows: Vec::new(),
            caption: None,
        });
    }

    /// Whether a row or cell belongs to a pipe table: one is being
    /// written and nothing has been captured since it began (a data table
    /// never has a table in its cells, so it is the innermost one).
    fn current_data_table(&self) -> bool {
        self.tables
            .last()
            .is_some_and(|t| t.depth == self.caps.len())
    }

    fn enter_table_part(&mut self, id: u32, tag: Tag) {
        if !self.current_data_table() {
            self.block(1);
            return;
        }
        match tag {
            Tag::Tr => {
                if let Some(t) = self.tables.last_mut() {
                    t.rows.push(Vec::new());
                }
            }
            Tag::Td | Tag::Th => {
                let colspan = self.colspan(id);
                self.open_capture(CapKind::Cell { colspan }, id);
            }
            Tag::Caption => {
                self.open_capture(CapKind::Caption, id);
            }
            _ => {}
        }
    }

    fn exit_table(&mut self, id: u32) {
        if self.layout.last() == Some(&id) {
            self.layout.pop();
            self.block(2);
            return;
        }
        let Some(t) = self.tables.pop() else { return };
        let kept: usize = t.rows.iter().flatten().map(|c| c.0.len()).sum::<usize>()
            + t.caption.as_ref().map_or(0, String::len);
        self.held = self.held.saturating_sub(kept);
        let rows: Vec<Vec<(String, usize)>> =
            t.rows.into_iter().filter(|r| !r.is_empty()).collect();
        let columns = rows
            .iter()
            .map(|r| r.iter().map(|c| c.1).sum::<usize>())
            .max()
            .unwrap_or(0)
            .min(MAX_COLUMNS);
        self.block(2);
        if let Some(c) = t.caption {
            self.flush();
            self.push(&c);
            self.block(2);
        }
        if rows.is_empty() || columns == 0 {
            return;
        }
        for (i, row) in rows.iter().enumerate() {
            let mut cells: Vec<&str> = Vec::with_capacity(columns);
            for (text, span) in row {
                cells.push(text);
                cells.extend(std::iter::repeat_n("", span.saturating_sub(1)));
            }
            cells.truncate(columns);
            while cells.len() < columns {
                cells.push("");
            }
            let line = if self.md {
                format!("| {} |", cells.join(" | "))
            } else {
                while cells.last().is_some_and(|c| c.is_empty()) {
                    cells.pop();
                }
                cells.join(" | ")
            };
            if i > 0 {
                self.newlines = 1;
            }
            self.flush();
            self.push(&line);
            if i == 0 && self.md {
                self.newlines = 1;
                self.flush();
                let sep = vec!["---"; columns].join(" | ");
                self.push(&format!("| {sep} |"));
            }
        }
        self.block(2);
    }
}
