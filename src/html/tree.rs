//! A small tree builder: the tokens become an arena of element and text
//! nodes, with the HTML parser's implied end tags (`<p>` closed by a block,
//! `<li>` by the next item, cells and rows by the next ones), end tags that
//! never reach outside their scope (a stray `</div>` stays in its cell), and
//! the page's metadata read on the way. Scripts, styles, navigation, forms'
//! controls, embedded content and hidden elements never enter the tree.
//!
//! Every step is O(1) amortised: each tag keeps a stack of where it is
//! open, so an end tag finds its element without walking the open elements.
//! Past `max_depth` open elements or `max_elements` elements, further start
//! tags are ignored (their text joins the innermost element kept) and their
//! end tags are counted off, so a page nested 100,000 deep costs what a
//! page nested `max_depth` deep does.

use std::collections::HashMap;

use super::entities;
use super::tags::{Tag, KNOWN};
use super::tokenizer::{Attr, Sink};
use super::Metadata;

/// Flags a subtree carries for what it contains.
pub(crate) mod flags {
    /// An `h1`–`h6`.
    pub(crate) const HEADING: u16 = 1;
    /// A list (`ul`, `ol`, `dl`).
    pub(crate) const LIST: u16 = 2;
    /// Preformatted text.
    pub(crate) const PRE: u16 = 4;
    /// A table.
    pub(crate) const TABLE: u16 = 8;
    /// A blockquote.
    pub(crate) const QUOTE: u16 = 16;
}

/// No node.
pub(crate) const NONE: u32 = u32::MAX;

/// The attributes kept on elements in the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    Href,
    Src,
    Alt,
    Class,
    Start,
    Reversed,
    Value,
    Colspan,
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    Root,
    Element { tag: Tag, attrs: u32, n_attrs: u8 },
    Text { start: u32, end: u32 },
}

#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub kind: Kind,
    pub first_child: u32,
    pub next_sibling: u32,
    /// [`flags`] of the subtree below.
    pub flags: u16,
    /// Bytes of non-space text in the subtree.
    pub text_len: u32,
}

/// Counts of the work done, for tests that prove bounds without a clock.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub tokens: usize,
    pub elements: usize,
    pub ignored: usize,
    pub max_depth: usize,
    pub steps: usize,
}

pub(crate) struct Tree {
    pub nodes: Vec<Node>,
    pub text: String,
    attrs: Vec<(Key, u32, u32)>,
    strings: String,
    /// Metadata read from `head` (and `meta` elements anywhere), before
    /// the fallbacks of [`super::metadata`].
    pub meta: Metadata,
    /// `<base href>`.
    pub base: Option<String>,
    /// The text of the first `application/ld+json` scripts.
    pub json_ld: Vec<String>,
    /// The first `<main>` (or `role=main`).
    pub main: Option<u32>,
    /// How many `<article>` elements, and the first.
    pub articles: (usize, u32),
    pub counts: Counts,
}

impl Tree {
    pub(crate) fn node(&self, i: u32) -> Option<&Node> {
        self.nodes.get(i as usize)
    }

    pub(crate) fn tag(&self, i: u32) -> Option<Tag> {
        match self.node(i)?.kind {
            Kind::Element { tag, .. } => Some(tag),
            _ => None,
        }
    }

    /// An attribute of element `i`.
    pub(crate) fn attr(&self, i: u32, key: Key) -> Option<&str> {
        let Kind::Element { attrs, n_attrs, .. } = self.node(i)?.kind else {
            return None;
        };
        let from = attrs as usize;
        self.attrs
            .get(from..from + usize::from(n_attrs))?
            .iter()
            .find(|(k, _, _)| *k == key)
            .and_then(|&(_, s, e)| self.strings.get(s as usize..e as usize))
    }

    pub(crate) fn text_of(&self, start: u32, end: u32) -> &str {
        self.text.get(start as usize..end as usize).unwrap_or("")
    }

    /// The children of `i`.
    pub(crate) fn children(&self, i: u32) -> Children<'_> {
        Children {
            tree: self,
            next: self.node(i).map_or(NONE, |n| n.first_child),
        }
    }
}

pub(crate) struct Children<'a> {
    tree: &'a Tree,
    next: u32,
}

impl Iterator for Children<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let cur = self.next;
        self.next = self.tree.node(cur)?.next_sibling;
        Some(cur)
    }
}

/// Limits of the builder.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub max_depth: usize,
    pub max_elements: usize,
}

/// Distinct unknown element names remembered (beyond, unknown elements are
/// ignored: their text still counts).
const MAX_INTERNED: usize = 256;
/// Longest metadata value kept, in bytes.
const MAX_META: usize = 2000;
/// JSON-LD scripts read, and the bytes kept of each.
const MAX_JSON_LD: usize = 4;
const MAX_JSON_LD_BYTES: usize = 256 * 1024;
const MAX_OPEN_GRAPH: usize = 32;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Collect {
    None,
    Title,
    JsonLd,
}

struct Open {
    tag: Tag,
    node: u32,
    /// The last child appended to `node`.
    last: u32,
}

pub(crate) struct Builder {
    tree: Tree,
    limits: Limits,
    stack: Vec<Open>,
    /// Per tag index: the stack positions where it is open.
    positions: Vec<Vec<u32>>,
    specials: Vec<u32>,
    boundaries: Vec<u32>,
    /// Per tag index: start tags ignored past a limit, still to be matched.
    overflow: Vec<u32>,
    /// Stack position of the dropped element everything is inside of.
    drop_from: Option<usize>,
    interned: HashMap<String, u16>,
    lower: String,
    /// The root's last child (the root is never on the stack).
    root_last: u32,
    collect: Collect,
    title: String,
}

fn trimmed(s: &str) -> Option<String> {
    let mut out = String::new();
    for w in s.split_ascii_whitespace() {
        if out.len() + w.len() > MAX_META {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    (!out.is_empty()).then_some(out)
}

fn attr<'a>(attrs: &[Attr<'a>], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
        .map(|a| a.value)
}

/// Class or id words that mark cookie banners, consent dialogs and ads.
fn is_clutter(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    if lower.contains("consent") || lower.contains("gdpr") || lower.contains("line-numbers-rows") {
        return true;
    }
    if lower.contains("cookie")
        && ["banner", "notice", "bar", "popup", "modal", "law", "wall"]
            .iter()
            .any(|w| lower.contains(w))
    {
        return true;
    }
    lower
        .split(|c: char| c.is_ascii_whitespace() || c == '-' || c == '_')
        .any(|w| {
            matches!(
                w,
                "ad" | "ads" | "advert" | "adverts" | "advertisement" | "adsbygoogle" | "sponsored"
                    // line numbers beside code (Sphinx, Pygments, Prism)
                    | "linenos" | "lineno"
            )
        })
}

/// Whether a start tag's attributes hide it.
fn hidden(attrs: &[Attr<'_>]) -> bool {
    for a in attrs {
        let n = a.name;
        if n.eq_ignore_ascii_case("hidden") {
            return true;
        }
        if n.eq_ignore_ascii_case("aria-hidden") && a.value.trim().eq_ignore_ascii_case("true") {
            return true;
        }
        if n.eq_ignore_ascii_case("role") {
            let r = a.value.trim().to_ascii_lowercase();
            if matches!(r.as_str(), "navigation" | "dialog" | "alertdialog") {
                return true;
            }
        }
        if n.eq_ignore_ascii_case("style") {
            let s: String = a
                .value
                .chars()
                .filter(|c| !c.is_whitespace())
                .take(4096)
                .collect::<String>()
                .to_ascii_lowercase();
            if s.contains("display:none") || s.contains("visibility:hidden") {
                return true;
            }
        }
        if (n.eq_ignore_ascii_case("class") || n.eq_ignore_ascii_case("id")) && is_clutter(a.value)
        {
            return true;
        }
    }
    false
}

impl Builder {
    pub(crate) fn new(limits: Limits) -> Builder {
        let root = Node {
            kind: Kind::Root,
            first_child: NONE,
            next_sibling: NONE,
            flags: 0,
            text_len: 0,
        };
        Builder {
            tree: Tree {
                nodes: vec![root],
                text: String::new(),
                attrs: Vec::new(),
                strings: String::new(),
                meta: Metadata::default(),
                base: None,
                json_ld: Vec::new(),
                main: None,
                articles: (0, NONE),
                counts: Counts::default(),
            },
            limits,
            stack: Vec::new(),
            positions: vec![Vec::new(); KNOWN],
            specials: Vec::new(),
            boundaries: Vec::new(),
            overflow: vec![0; KNOWN],
            drop_from: None,
            interned: HashMap::new(),
            lower: String::new(),
            root_last: NONE,
            collect: Collect::None,
            title: String::new(),
        }
    }

    /// Makes room for the nodes of an input with `tags` start tags (at
    /// most one text run per element more), so the arena never doubles.
    pub(crate) fn reserve(&mut self, tags: usize) {
        let elements = tags.min(self.limits.max_elements);
        self.tree.nodes.reserve(2 * elements + 2);
    }

    /// Closes what is open and hands the tree over.
    pub(crate) fn finish(mut self) -> Tree {
        while !self.stack.is_empty() {
            self.pop();
        }
        if self.tree.meta.title.is_none() {
            self.tree.meta.title = trimmed(&self.title);
        }
        self.tree
    }

    /// The tag for a name; `intern` adds unknown names (up to a limit).
    fn tag_of(&mut self, name: &str, intern: bool) -> Option<Tag> {
        self.lower.clear();
        self.lower
            .extend(name.chars().take(64).map(|c| c.to_ascii_lowercase()));
        if let Some(t) = Tag::known(&self.lower) {
            return Some(if t == Tag::Image { Tag::Img } else { t });
        }
        if let Some(&i) = self.interned.get(&self.lower) {
            return Some(Tag::Other(i));
        }
        if !intern || self.interned.len() >= MAX_INTERNED {
            return None;
        }
        let id = self.interned.len() as u16;
        self.interned.insert(self.lower.clone(), id);
        self.positions.push(Vec::new());
        self.overflow.push(0);
        Some(Tag::Other(id))
    }

    fn top(&self, tag: Tag) -> Option<u32> {
        self.positions.get(tag.index())?.last().copied()
    }

    /// The lowest of `tags`' innermost open positions above `floor`.
    fn lowest_above(&self, tags: &[Tag], floor: Option<u32>) -> Option<u32> {
        tags.iter()
            .filter_map(|&t| self.top(t))
            .filter(|&p| floor.is_none_or(|f| p > f))
            .min()
    }

    fn parent(&self) -> u32 {
        match self.stack.last() {
            Some(o) => o.node,
            None => 0,
        }
    }

    fn in_dropped(&self) -> bool {
        self.drop_from.is_some()
    }

    /// The last child of the current parent (the stack's top, or the root).
    fn last_child(&mut self) -> &mut u32 {
        match self.stack.last_mut() {
            Some(o) => &mut o.last,
            None => &mut self.root_last,
        }
    }

    /// Appends a node to the current parent.
    fn append(&mut self, kind: Kind) -> u32 {
        let id = self.tree.nodes.len() as u32;
        self.tree.nodes.push(Node {
            kind,
            first_child: NONE,
            next_sibling: NONE,
            flags: 0,
            text_len: 0,
        });
        let parent = self.parent();
        let last = std::mem::replace(self.last_child(), id);
        if last == NONE {
            if let Some(p) = self.tree.nodes.get_mut(parent as usize) {
                p.first_child = id;
            }
        } else if let Some(l) = self.tree.nodes.get_mut(last as usize) {
            l.next_sibling = id;
        }
        id
    }

    fn push(&mut self, tag: Tag, node: u32) {
        let at = self.stack.len() as u32;
        self.stack.push(Open {
            tag,
            node,
            last: NONE,
        });
        if let Some(p) = self.positions.get_mut(tag.index()) {
            p.push(at);
        }
        if tag.is_special() {
            self.specials.push(at);
        }
        if tag.is_boundary() {
            self.boundaries.push(at);
        }
        self.tree.counts.max_depth = self.tree.counts.max_depth.max(self.stack.len());
        self.tree.counts.steps += 1;
    }

    fn pop(&mut self) {
        let Some(open) = self.stack.pop() else { return };
        self.tree.counts.steps += 1;
        let at = self.stack.len() as u32;
        if let Some(p) = self.positions.get_mut(open.tag.index()) {
            p.pop();
        }
        if self.specials.last() == Some(&at) {
            self.specials.pop();
        }
        if self.boundaries.last() == Some(&at) {
            self.boundaries.pop();
        }
        if self.drop_from == Some(at as usize) {
            self.drop_from = None;
        }
        if open.node != NONE {
            let parent = self.parent();
            let (flags, len) = self
                .tree
                .node(open.node)
                .map_or((0, 0), |n| (n.flags, n.text_len));
            if let Some(p) = self.tree.nodes.get_mut(parent as usize) {
                p.flags |= flags | open.tag.flag();
                p.text_len = p.text_len.saturating_add(len);
            }
        }
    }

    fn pop_to(&mut self, at: u32) {
        while self.stack.len() > at as usize {
            self.pop();
        }
    }

    /// The implied end tags a start tag brings.
    fn close_implied(&mut self, tag: Tag) {
        use Tag::*;
        let boundary = self.boundaries.last().copied();
        let above = |p: u32, b: std::option::Option<u32>| b.is_none_or(|b| p > b);
        if tag.closes_p() {
            if let Some(p) = self.top(P) {
                if above(p, boundary) && self.top(Button).is_none_or(|b| p > b) {
                    self.pop_to(p);
                }
            }
        }
        match tag {
            Li => {
                let floor = [self.top(Ul), self.top(Ol), self.top(Menu), boundary]
                    .into_iter()
                    .flatten()
                    .max();
                if let Some(l) = self.lowest_above(&[Li], floor) {
                    self.pop_to(l);
                }
            }
            Dd | Dt => {
                let floor = [self.top(Dl), boundary].into_iter().flatten().max();
                if let Some(d) = self.lowest_above(&[Dd, Dt], floor) {
                    self.pop_to(d);
                }
            }
            Tr => {
                let floor = self.top(Table);
                if let Some(r) = self.lowest_above(&[Tr, Td, Th], floor) {
                    self.pop_to(r);
                }
            }
            Td | Th => {
                let floor = [self.top(Table), self.top(Tr)].into_iter().flatten().max();
                if let Some(c) = self.lowest_above(&[Td, Th], floor) {
                    self.pop_to(c);
                }
            }
            Thead | Tbody | Tfoot | Caption | Colgroup => {
                let floor = self.top(Table);
                let parts = [Thead, Tbody, Tfoot, Caption, Colgroup, Tr, Td, Th];
                if let Some(s) = self.lowest_above(&parts, floor) {
                    self.pop_to(s);
                }
            }
            H1 | H2 | H3 | H4 | H5 | H6
                if self.stack.last().is_some_and(|o| o.tag.heading().is_some()) =>
            {
                self.pop()
            }
            A => {
                if let Some(a) = self.top(A) {
                    if self.specials.last().is_none_or(|&s| s < a) {
                        self.pop_to(a);
                    }
                }
            }
            _ => {}
        }
    }

    fn keep_attrs(&mut self, tag: Tag, attrs: &[Attr<'_>]) -> (u32, u8) {
        let wanted: &[(&str, Key)] = match tag {
            Tag::A => &[("href", Key::Href)],
            Tag::Img => &[("src", Key::Src), ("data-src", Key::Src), ("alt", Key::Alt)],
            Tag::Pre | Tag::Code | Tag::Div => &[("class", Key::Class)],
            Tag::Ol => &[("start", Key::Start), ("reversed", Key::Reversed)],
            Tag::Li => &[("value", Key::Value)],
            Tag::Td | Tag::Th => &[("colspan", Key::Colspan)],
            _ => &[],
        };
        let from = self.tree.attrs.len() as u32;
        let mut n = 0u8;
        for &(name, key) in wanted {
            let kept = self.tree.attrs.get(from as usize..).unwrap_or(&[]);
            if kept.iter().any(|a| a.0 == key) {
                continue;
            }
            let Some(v) = attr(attrs, name) else { continue };
            let v = entities::decode(v, true);
            // a placeholder `data:` src gives way to `data-src`
            if key == Key::Src && v.trim_start().starts_with("data:") {
                continue;
            }
            let s = self.tree.strings.len() as u32;
            self.tree.strings.push_str(v.trim());
            let e = self.tree.strings.len() as u32;
            self.tree.attrs.push((key, s, e));
            n += 1;
        }
        (from, n)
    }

    fn meta(&mut self, attrs: &[Attr<'_>]) {
        if let Some(c) = attr(attrs, "charset") {
            self.tree
                .meta
                .charset
                .get_or_insert_with(|| c.trim().to_string());
        }
        let Some(content) = attr(attrs, "content") else {
            return;
        };
        let Some(content) = trimmed(&entities::decode(content, true)) else {
            return;
        };
        let key = attr(attrs, "property")
            .or_else(|| attr(attrs, "name"))
            .or_else(|| attr(attrs, "itemprop"))
            .or_else(|| attr(attrs, "http-equiv"))
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let m = &mut self.tree.meta;
        let set = |slot: &mut Option<String>, v: &str| {
            slot.get_or_insert_with(|| v.to_string());
        };
        match key.as_str() {
            "description" => set(&mut m.description, &content),
            "author" => set(&mut m.author, &content),
            "keywords" => set(&mut m.keywords, &content),
            "article:published_time"
            | "datepublished"
            | "date"
            | "pubdate"
            | "publish-date"
            | "dc.date"
            | "dcterms.date"
            | "dc.date.issued"
            | "dcterms.issued" => set(&mut m.published, &content),
            "article:modified_time" | "datemodified" | "og:updated_time" | "dcterms.modified" => {
                set(&mut m.modified, &content)
            }
            "article:author" => set(&mut m.author, &content),
            "content-language" => set(&mut m.lang, &content),
            "content-type" => {
                let lower = content.to_ascii_lowercase();
                if let Some(i) = lower.find("charset=") {
                    let v = lower.get(i + 8..).unwrap_or("");
                    let v = v.trim_matches(|c: char| c == '"' || c == '\'' || c.is_whitespace());
                    set(&mut m.charset, v.split(';').next().unwrap_or(v));
                }
            }
            _ => {}
        }
        if key.starts_with("og:") && m.open_graph.len() < MAX_OPEN_GRAPH {
            if key == "og:site_name" {
                set(&mut m.site_name, &content);
            }
            m.open_graph.push((key, content));
        }
    }
}

impl<'a> Sink<'a> for Builder {
    fn start(&mut self, name: &'a str, attrs: &[Attr<'a>], _self_closing: bool) {
        self.tree.counts.tokens += 1;
        let Some(tag) = self.tag_of(name, true) else {
            self.tree.counts.ignored += 1;
            return;
        };
        match tag {
            Tag::Html => {
                if let Some(l) = attr(attrs, "lang").and_then(trimmed) {
                    self.tree.meta.lang.get_or_insert(l);
                }
                return;
            }
            Tag::Head | Tag::Body => return,
            Tag::Meta => return self.meta(attrs),
            Tag::Link => {
                let rel = attr(attrs, "rel").unwrap_or("").to_ascii_lowercase();
                if rel.split_ascii_whitespace().any(|r| r == "canonical") {
                    if let Some(h) = attr(attrs, "href") {
                        let h = entities::decode(h, true).trim().to_string();
                        self.tree.meta.canonical.get_or_insert(h);
                    }
                }
                return;
            }
            Tag::Base => {
                if let Some(h) = attr(attrs, "href") {
                    let h = entities::decode(h, true).trim().to_string();
                    self.tree.base.get_or_insert(h);
                }
                return;
            }
            _ => {}
        }
        self.close_implied(tag);
        let dropped = self.in_dropped();
        if tag == Tag::Title && !dropped && self.title.trim().is_empty() {
            self.collect = Collect::Title;
        }
        if tag == Tag::Script
            && self.tree.json_ld.len() < MAX_JSON_LD
            && attr(attrs, "type")
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
        {
            self.collect = Collect::JsonLd;
            self.tree.json_ld.push(String::new());
        }
        if tag.is_void() {
            if !dropped && matches!(tag, Tag::Img | Tag::Br | Tag::Hr) {
                if self.tree.counts.elements >= self.limits.max_elements {
                    self.tree.counts.ignored += 1;
                    return;
                }
                self.tree.counts.elements += 1;
                let (a, n) = self.keep_attrs(tag, attrs);
                self.append(Kind::Element {
                    tag,
                    attrs: a,
                    n_attrs: n,
                });
            }
            return;
        }
        if self.stack.len() >= self.limits.max_depth
            || self.tree.counts.elements >= self.limits.max_elements
        {
            self.tree.counts.ignored += 1;
            if let Some(o) = self.overflow.get_mut(tag.index()) {
                *o += 1;
            }
            return;
        }
        if dropped || tag.is_dropped() || hidden(attrs) {
            if !dropped {
                self.drop_from = Some(self.stack.len());
            }
            self.push(tag, NONE);
            return;
        }
        self.tree.counts.elements += 1;
        let (a, n) = self.keep_attrs(tag, attrs);
        let node = self.append(Kind::Element {
            tag,
            attrs: a,
            n_attrs: n,
        });
        let role_main = attr(attrs, "role").is_some_and(|r| r.trim().eq_ignore_ascii_case("main"));
        if (tag == Tag::Main || role_main) && self.tree.main.is_none() {
            self.tree.main = Some(node);
        }
        if tag == Tag::Article {
            if self.tree.articles.0 == 0 {
                self.tree.articles.1 = node;
            }
            self.tree.articles.0 += 1;
        }
        self.push(tag, node);
    }

    fn end(&mut self, name: &'a str) {
        use Tag::*;
        self.tree.counts.tokens += 1;
        self.collect = Collect::None;
        let Some(tag) = self.tag_of(name, false) else {
            return;
        };
        match tag {
            Html | Head | Body => return,
            Br => return self.start("br", &[], false),
            _ => {}
        }
        if let Some(o) = self.overflow.get_mut(tag.index()) {
            if *o > 0 {
                *o -= 1;
                return;
            }
        }
        // any heading's end tag closes the open heading
        let p = match tag.heading() {
            Some(_) => [H1, H2, H3, H4, H5, H6]
                .iter()
                .filter_map(|&h| self.top(h))
                .max(),
            None => self.top(tag),
        };
        let Some(p) = p else { return };
        let boundary = self.boundaries.last().copied();
        let blocker = match tag {
            Td | Th | Tr | Tbody | Thead | Tfoot | Caption | Colgroup => self.top(Table),
            Li => [self.top(Ul), self.top(Ol), self.top(Menu), boundary]
                .into_iter()
                .flatten()
                .max(),
            Dd | Dt => [self.top(Dl), boundary].into_iter().flatten().max(),
            t if t.is_special() => boundary.filter(|&b| b != p),
            _ => self.specials.last().copied(),
        };
        if blocker.is_some_and(|b| b > p) {
            return;
        }
        self.pop_to(p);
    }

    fn text(&mut self, text: &'a str, decode: bool) {
        self.tree.counts.tokens += 1;
        match self.collect {
            Collect::Title => {
                if self.title.len() < MAX_META {
                    entities::decode_into(text, &mut self.title, false);
                }
                return;
            }
            Collect::JsonLd => {
                if let Some(buf) = self.tree.json_ld.last_mut() {
                    if buf.len() + text.len() <= MAX_JSON_LD_BYTES {
                        buf.push_str(text);
                    }
                }
                return;
            }
            Collect::None => {}
        }
        if self.in_dropped() {
            return;
        }
        let parent = self.parent();
        let start = self.tree.text.len();
        if decode {
            entities::decode_into(text, &mut self.tree.text, false);
        } else {
            self.tree.text.push_str(text);
        }
        let end = self.tree.text.len();
        let visible = self.tree.text.get(start..end).map_or(0, |s| {
            s.bytes().filter(|b| !b.is_ascii_whitespace()).count()
        });
        let last = *self.last_child();
        let merged = match self.tree.nodes.get_mut(last as usize) {
            Some(Node {
                kind: Kind::Text { end: e, .. },
                ..
            }) if *e as usize == start => {
                *e = end as u32;
                true
            }
            _ => false,
        };
        if !merged {
            self.append(Kind::Text {
                start: start as u32,
                end: end as u32,
            });
        }
        if let Some(p) = self.tree.nodes.get_mut(parent as usize) {
            p.text_len = p.text_len.saturating_add(visible as u32);
        }
    }
}
