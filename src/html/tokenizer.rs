//! A forgiving HTML tokenizer after the WHATWG states that matter for
//! reading a page: tags with attributes (quoted, unquoted, valueless),
//! comments, doctypes and bogus comments, raw text (`script`, `style`),
//! escapable raw text (`title`, `textarea`) and `plaintext`. One pass over
//! the input, every byte looked at a bounded number of times; a tag cut off
//! by the end of the input is dropped, as browsers do.

/// One attribute of a start tag, as written (the value not yet decoded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Attr<'a> {
    pub name: &'a str,
    pub value: &'a str,
}

/// Receives tokens.
pub(crate) trait Sink<'a> {
    /// A start tag; `name` as written (any case).
    fn start(&mut self, name: &'a str, attrs: &[Attr<'a>], self_closing: bool);
    /// An end tag.
    fn end(&mut self, name: &'a str);
    /// Text; `decode` says whether character references apply (not in
    /// `script` or `style`).
    fn text(&mut self, text: &'a str, decode: bool);
}

/// Attributes kept per tag; the rest are read and ignored.
const MAX_ATTRS: usize = 64;

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// Runs over `input`, calling `sink`. Returns the number of tokens.
pub(crate) fn tokenize<'a>(input: &'a str, sink: &mut impl Sink<'a>) -> usize {
    let mut t = Tokenizer {
        input,
        bytes: input.as_bytes(),
        pos: 0,
        attrs: Vec::new(),
        tokens: 0,
    };
    t.run(sink);
    t.tokens
}

struct Tokenizer<'a> {
    input: &'a str,
    bytes: &'a [u8],
    pos: usize,
    attrs: Vec<Attr<'a>>,
    tokens: usize,
}

/// What follows a start tag.
enum Content {
    Normal,
    Raw,
    Escapable,
    Plain,
}

fn content_of(name: &str) -> Content {
    const RAW: &[&str] = &[
        "script", "style", "xmp", "iframe", "noembed", "noframes", "noscript",
    ];
    if RAW.iter().any(|r| r.eq_ignore_ascii_case(name)) {
        Content::Raw
    } else if name.eq_ignore_ascii_case("title") || name.eq_ignore_ascii_case("textarea") {
        Content::Escapable
    } else if name.eq_ignore_ascii_case("plaintext") {
        Content::Plain
    } else {
        Content::Normal
    }
}

impl<'a> Tokenizer<'a> {
    fn slice(&self, from: usize, to: usize) -> &'a str {
        self.input.get(from..to).unwrap_or("")
    }

    fn at(&self, i: usize) -> Option<u8> {
        self.bytes.get(i).copied()
    }

    fn find_byte(&self, from: usize, b: u8) -> Option<usize> {
        self.bytes
            .get(from..)
            .and_then(|s| s.iter().position(|&c| c == b))
            .map(|p| from + p)
    }

    fn text(&mut self, sink: &mut impl Sink<'a>, from: usize, to: usize, decode: bool) {
        if to > from {
            self.tokens += 1;
            sink.text(self.slice(from, to), decode);
        }
    }

    fn run(&mut self, sink: &mut impl Sink<'a>) {
        let len = self.bytes.len();
        let mut text_start = 0;
        while self.pos < len {
            let Some(lt) = self.find_byte(self.pos, b'<') else {
                break;
            };
            self.pos = lt;
            match self.markup(sink, lt, text_start) {
                Some(next) => {
                    self.pos = next;
                    text_start = next;
                }
                None => self.pos = lt + 1,
            }
        }
        self.text(sink, text_start, len, true);
    }

    /// Reads the markup at `lt` (a `<`); returns where text resumes, or
    /// `None` when the `<` is just text. Text before `lt` (from
    /// `text_start`) is flushed first when markup is found.
    fn markup(&mut self, sink: &mut impl Sink<'a>, lt: usize, text_start: usize) -> Option<usize> {
        let len = self.bytes.len();
        match self.at(lt + 1)? {
            b'!' => {
                self.text(sink, text_start, lt, true);
                if self.bytes.get(lt + 2..lt + 4) == Some(b"--") {
                    Some(self.comment_end(lt + 4))
                } else {
                    Some(self.find_byte(lt + 2, b'>').map_or(len, |p| p + 1))
                }
            }
            b'?' => {
                self.text(sink, text_start, lt, true);
                Some(self.find_byte(lt + 2, b'>').map_or(len, |p| p + 1))
            }
            b'/' => match self.at(lt + 2)? {
                c if c.is_ascii_alphabetic() => {
                    self.text(sink, text_start, lt, true);
                    let (name_end, end) = self.tag(lt + 2);
                    let Some(end) = end else { return Some(len) };
                    self.tokens += 1;
                    sink.end(self.slice(lt + 2, name_end));
                    Some(end)
                }
                b'>' => {
                    self.text(sink, text_start, lt, true);
                    Some(lt + 3)
                }
                _ => {
                    self.text(sink, text_start, lt, true);
                    Some(self.find_byte(lt + 2, b'>').map_or(len, |p| p + 1))
                }
            },
            c if c.is_ascii_alphabetic() => {
                self.text(sink, text_start, lt, true);
                let (name_end, end) = self.tag(lt + 1);
                let Some(end) = end else { return Some(len) };
                let name = self.slice(lt + 1, name_end);
                let self_closing = end >= 2 && self.at(end - 2) == Some(b'/');
                self.tokens += 1;
                let attrs = std::mem::take(&mut self.attrs);
                sink.start(name, &attrs, self_closing);
                self.attrs = attrs;
                Some(match content_of(name) {
                    Content::Normal => end,
                    Content::Raw => self.raw_text(sink, name, end, false),
                    Content::Escapable => self.raw_text(sink, name, end, true),
                    Content::Plain => {
                        self.text(sink, end, len, true);
                        len
                    }
                })
            }
            _ => None,
        }
    }

    /// Where a comment whose body starts at `from` ends (`-->`, `--!>`, or
    /// the empty forms `<!-->` and `<!--->`).
    fn comment_end(&self, from: usize) -> usize {
        let len = self.bytes.len();
        match (self.at(from), self.at(from + 1)) {
            (Some(b'>'), _) => return from + 1,
            (Some(b'-'), Some(b'>')) => return from + 2,
            _ => {}
        }
        let mut i = from;
        while let Some(p) = self.find_byte(i, b'-') {
            if self.bytes.get(p..p + 3) == Some(b"-->") {
                return p + 3;
            }
            if self.bytes.get(p..p + 4) == Some(b"--!>") {
                return p + 4;
            }
            i = p + 1;
        }
        len
    }

    /// Reads a tag from its name at `from`: the name's end, and where the
    /// tag ends (after `>`), or `None` at the end of the input. Attributes
    /// go to `self.attrs`.
    fn tag(&mut self, from: usize) -> (usize, Option<usize>) {
        self.attrs.clear();
        let mut i = from;
        while let Some(c) = self.at(i) {
            if is_space(c) || c == b'/' || c == b'>' {
                break;
            }
            i += 1;
        }
        let name_end = i;
        loop {
            while let Some(c) = self.at(i) {
                if !is_space(c) && c != b'/' {
                    break;
                }
                i += 1;
            }
            match self.at(i) {
                None => return (name_end, None),
                Some(b'>') => return (name_end, Some(i + 1)),
                Some(_) => {}
            }
            // attribute name (a leading `=` belongs to it)
            let name_start = i;
            i += 1;
            while let Some(c) = self.at(i) {
                if is_space(c) || c == b'/' || c == b'>' || c == b'=' {
                    break;
                }
                i += 1;
            }
            let name = self.slice(name_start, i);
            while self.at(i).is_some_and(is_space) {
                i += 1;
            }
            let mut value = "";
            if self.at(i) == Some(b'=') {
                i += 1;
                while self.at(i).is_some_and(is_space) {
                    i += 1;
                }
                match self.at(i) {
                    Some(q @ (b'"' | b'\'')) => {
                        let Some(close) = self.find_byte(i + 1, q) else {
                            return (name_end, None);
                        };
                        value = self.slice(i + 1, close);
                        i = close + 1;
                    }
                    _ => {
                        let start = i;
                        while let Some(c) = self.at(i) {
                            if is_space(c) || c == b'>' {
                                break;
                            }
                            i += 1;
                        }
                        value = self.slice(start, i);
                    }
                }
            }
            let duplicate = self.attrs.iter().any(|a| a.name.eq_ignore_ascii_case(name));
            if self.attrs.len() < MAX_ATTRS && !duplicate {
                self.attrs.push(Attr { name, value });
            }
        }
    }

    /// Emits the raw text of `name` from `from` up to its end tag and
    /// returns where markup resumes (after the end tag).
    fn raw_text(
        &mut self,
        sink: &mut impl Sink<'a>,
        name: &'a str,
        from: usize,
        decode: bool,
    ) -> usize {
        let len = self.bytes.len();
        let n = name.len();
        let mut i = from;
        while let Some(lt) = self.find_byte(i, b'<') {
            let matches = self.at(lt + 1) == Some(b'/')
                && self
                    .bytes
                    .get(lt + 2..lt + 2 + n)
                    .is_some_and(|s| s.eq_ignore_ascii_case(name.as_bytes()))
                && self
                    .at(lt + 2 + n)
                    .is_none_or(|c| is_space(c) || c == b'/' || c == b'>');
            if matches {
                self.text(sink, from, lt, decode);
                let (_, end) = self.tag(lt + 2);
                self.tokens += 1;
                sink.end(name);
                return end.unwrap_or(len);
            }
            i = lt + 1;
        }
        self.text(sink, from, len, decode);
        len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Log(Vec<String>);

    impl<'a> Sink<'a> for Log {
        fn start(&mut self, name: &'a str, attrs: &[Attr<'a>], sc: bool) {
            let a: Vec<String> = attrs
                .iter()
                .map(|a| format!("{}={}", a.name, a.value))
                .collect();
            self.0.push(format!(
                "<{name}{}{}>",
                if sc { "/" } else { "" },
                a.join(",")
            ));
        }
        fn end(&mut self, name: &'a str) {
            self.0.push(format!("</{name}>"));
        }
        fn text(&mut self, text: &'a str, decode: bool) {
            self.0
                .push(format!("{}{text:?}", if decode { "" } else { "raw" }));
        }
    }

    fn toks(s: &str) -> Vec<String> {
        let mut l = Log::default();
        tokenize(s, &mut l);
        l.0
    }

    #[test]
    fn tags_and_attributes() {
        assert_eq!(
            toks(r#"<A HREF="x y" data-x='1' checked id=z>hi</a>"#),
            ["<AHREF=x y,data-x=1,checked=,id=z>", "\"hi\"", "</a>"]
        );
        assert_eq!(toks("<br/><img src=a/>"), ["<br/>", "<img/src=a/>"]);
        assert_eq!(toks("<p id=a id=b>"), ["<pid=a>"]);
    }

    #[test]
    fn comments_doctype_and_stray_markup() {
        assert_eq!(
            toks("<!DOCTYPE html>a<!-- x -->b<!---->c<!-->d<?php x ?>e</>f</ x>g"),
            ["\"a\"", "\"b\"", "\"c\"", "\"d\"", "\"e\"", "\"f\"", "\"g\""]
        );
        assert_eq!(toks("a < b <3 <"), ["\"a < b <3 <\""]);
        assert_eq!(toks("a<!-- never closed"), ["\"a\""]);
        assert_eq!(toks("x<!--a--!>y"), ["\"x\"", "\"y\""]);
    }

    #[test]
    fn raw_text_elements() {
        assert_eq!(
            toks("<script>if (a<b) x='</p>'</SCRIPT >t"),
            ["<script>", "raw\"if (a<b) x='</p>'\"", "</script>", "\"t\""]
        );
        assert_eq!(
            toks("<title>a &amp; <b></title>"),
            ["<title>", "\"a &amp; <b>\"", "</title>"]
        );
        assert_eq!(
            toks("<style>a</styles></style>"),
            ["<style>", "raw\"a</styles>\"", "</style>"]
        );
        assert_eq!(toks("<script>never"), ["<script>", "raw\"never\""]);
        assert_eq!(toks("<plaintext><b>x</b>"), ["<plaintext>", "\"<b>x</b>\""]);
    }

    #[test]
    fn cut_off_tags_are_dropped() {
        assert_eq!(toks("a<div class=\"x"), ["\"a\""]);
        assert_eq!(toks("a<div class=x"), ["\"a\""]);
        assert_eq!(toks("a</div"), ["\"a\""]);
    }
}
