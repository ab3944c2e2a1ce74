//! The elements the converter knows, and what kind each one is.

macro_rules! tags {
    ($($variant:ident = $name:literal,)*) => {
        /// A known element; anything else is [`Tag::Other`] with an interned id.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum Tag {
            $($variant,)*
            /// An element this table does not name (custom elements too).
            Other(u16),
        }

        /// The known tags' dense numbers.
        #[allow(clippy::upper_case_acronyms)]
        enum Number { $($variant,)* }

        /// Known names, sorted, for binary search.
        const NAMES: &[(&str, Tag)] = &[$(($name, Tag::$variant),)*];

        /// How many known tags there are (ids of [`Tag::Other`] follow them).
        pub(crate) const KNOWN: usize = [$($name,)*].len();

        impl Tag {
            /// A dense number: known tags first, then interned others.
            pub(crate) fn index(self) -> usize {
                match self {
                    $(Tag::$variant => Number::$variant as usize,)*
                    Tag::Other(i) => KNOWN + usize::from(i),
                }
            }
        }
    };
}

// sorted by name
tags! {
    A = "a",
    Abbr = "abbr",
    Address = "address",
    Applet = "applet",
    Area = "area",
    Article = "article",
    Aside = "aside",
    Audio = "audio",
    B = "b",
    Base = "base",
    Basefont = "basefont",
    Bdi = "bdi",
    Bdo = "bdo",
    Bgsound = "bgsound",
    Big = "big",
    Blockquote = "blockquote",
    Body = "body",
    Br = "br",
    Button = "button",
    Canvas = "canvas",
    Caption = "caption",
    Center = "center",
    Cite = "cite",
    Code = "code",
    Col = "col",
    Colgroup = "colgroup",
    Data = "data",
    Datalist = "datalist",
    Dd = "dd",
    Del = "del",
    Details = "details",
    Dfn = "dfn",
    Dialog = "dialog",
    Dir = "dir",
    Div = "div",
    Dl = "dl",
    Dt = "dt",
    Em = "em",
    Embed = "embed",
    Fieldset = "fieldset",
    Figcaption = "figcaption",
    Figure = "figure",
    Font = "font",
    Footer = "footer",
    Form = "form",
    Frame = "frame",
    Frameset = "frameset",
    H1 = "h1",
    H2 = "h2",
    H3 = "h3",
    H4 = "h4",
    H5 = "h5",
    H6 = "h6",
    Head = "head",
    Header = "header",
    Hgroup = "hgroup",
    Hr = "hr",
    Html = "html",
    I = "i",
    Iframe = "iframe",
    Image = "image",
    Img = "img",
    Input = "input",
    Ins = "ins",
    Kbd = "kbd",
    Keygen = "keygen",
    Label = "label",
    Legend = "legend",
    Li = "li",
    Link = "link",
    Listing = "listing",
    Main = "main",
    Map = "map",
    Mark = "mark",
    Marquee = "marquee",
    Math = "math",
    Menu = "menu",
    Meta = "meta",
    Meter = "meter",
    Nav = "nav",
    Nobr = "nobr",
    Noembed = "noembed",
    Noframes = "noframes",
    Noscript = "noscript",
    Object = "object",
    Ol = "ol",
    Optgroup = "optgroup",
    Option = "option",
    Output = "output",
    P = "p",
    Param = "param",
    Picture = "picture",
    Plaintext = "plaintext",
    Pre = "pre",
    Progress = "progress",
    Q = "q",
    Rp = "rp",
    Rt = "rt",
    Ruby = "ruby",
    S = "s",
    Samp = "samp",
    Script = "script",
    Search = "search",
    Section = "section",
    Select = "select",
    Small = "small",
    Source = "source",
    Span = "span",
    Strike = "strike",
    Strong = "strong",
    Style = "style",
    Sub = "sub",
    Summary = "summary",
    Sup = "sup",
    Svg = "svg",
    Table = "table",
    Tbody = "tbody",
    Td = "td",
    Template = "template",
    Textarea = "textarea",
    Tfoot = "tfoot",
    Th = "th",
    Thead = "thead",
    Time = "time",
    Title = "title",
    Tr = "tr",
    Track = "track",
    Tt = "tt",
    U = "u",
    Ul = "ul",
    Var = "var",
    Video = "video",
    Wbr = "wbr",
    Xmp = "xmp",
}

impl Tag {
    /// The known tag for a lower-case name.
    pub(crate) fn known(lower: &str) -> Option<Tag> {
        NAMES
            .binary_search_by(|(n, _)| n.cmp(&lower))
            .ok()
            .and_then(|i| NAMES.get(i))
            .map(|&(_, t)| t)
    }

    /// Elements without content or end tag.
    pub(crate) fn is_void(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Area | Base
                | Basefont
                | Bgsound
                | Br
                | Col
                | Embed
                | Frame
                | Hr
                | Image
                | Img
                | Input
                | Keygen
                | Link
                | Meta
                | Param
                | Source
                | Track
                | Wbr
        )
    }

    /// Elements left out with everything inside them: scripts, styles,
    /// navigation, forms' controls, embedded content, dialogs.
    pub(crate) fn is_dropped(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Script
                | Style
                | Noscript
                | Template
                | Svg
                | Math
                | Nav
                | Button
                | Input
                | Select
                | Textarea
                | Option
                | Optgroup
                | Datalist
                | Output
                | Meter
                | Progress
                | Iframe
                | Frame
                | Frameset
                | Noframes
                | Noembed
                | Object
                | Embed
                | Applet
                | Canvas
                | Audio
                | Video
                | Map
                | Dialog
                | Title
                | Rp
        )
    }

    /// The HTML parser's "special" category: an end tag of a phrasing
    /// element never closes one of these.
    pub(crate) fn is_special(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Address
                | Applet
                | Article
                | Aside
                | Blockquote
                | Body
                | Button
                | Caption
                | Center
                | Colgroup
                | Dd
                | Details
                | Dialog
                | Dir
                | Div
                | Dl
                | Dt
                | Fieldset
                | Figcaption
                | Figure
                | Footer
                | Form
                | Frameset
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Head
                | Header
                | Hgroup
                | Html
                | Iframe
                | Li
                | Listing
                | Main
                | Marquee
                | Menu
                | Nav
                | Noembed
                | Noframes
                | Noscript
                | Object
                | Ol
                | P
                | Plaintext
                | Pre
                | Script
                | Search
                | Section
                | Select
                | Style
                | Summary
                | Table
                | Tbody
                | Td
                | Template
                | Textarea
                | Tfoot
                | Th
                | Thead
                | Title
                | Tr
                | Ul
                | Xmp
        )
    }

    /// Scope boundaries: an end tag never closes an element outside the
    /// nearest of these (a stray `</div>` inside a cell stays in the cell).
    pub(crate) fn is_boundary(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Applet | Caption | Html | Table | Td | Th | Marquee | Object | Template
        )
    }

    /// Start tags that close an open `<p>`.
    pub(crate) fn closes_p(self) -> bool {
        use Tag::*;
        matches!(
            self,
            Address
                | Article
                | Aside
                | Blockquote
                | Center
                | Details
                | Dialog
                | Dir
                | Div
                | Dl
                | Fieldset
                | Figcaption
                | Figure
                | Footer
                | Form
                | H1
                | H2
                | H3
                | H4
                | H5
                | H6
                | Header
                | Hgroup
                | Hr
                | Listing
                | Main
                | Menu
                | Nav
                | Ol
                | P
                | Plaintext
                | Pre
                | Search
                | Section
                | Summary
                | Table
                | Ul
                | Xmp
                | Li
                | Dd
                | Dt
        )
    }

    /// The heading level, for `h1`–`h6`.
    pub(crate) fn heading(self) -> Option<usize> {
        match self {
            Tag::H1 => Some(1),
            Tag::H2 => Some(2),
            Tag::H3 => Some(3),
            Tag::H4 => Some(4),
            Tag::H5 => Some(5),
            Tag::H6 => Some(6),
            _ => None,
        }
    }

    /// The flag a subtree gets for containing this element (see
    /// [`super::tree::flags`]).
    pub(crate) fn flag(self) -> u16 {
        use super::tree::flags::*;
        use Tag::*;
        match self {
            H1 | H2 | H3 | H4 | H5 | H6 => HEADING,
            Ul | Ol | Dl | Menu | Dir => LIST,
            Pre | Listing | Xmp | Plaintext => PRE,
            Table => TABLE,
            Blockquote => QUOTE,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sorted_and_found() {
        for w in NAMES.windows(2) {
            assert!(w[0].0 < w[1].0, "{} before {}", w[0].0, w[1].0);
        }
        assert_eq!(Tag::known("blockquote"), Some(Tag::Blockquote));
        assert_eq!(Tag::known("xmp"), Some(Tag::Xmp));
        assert_eq!(Tag::known("my-widget"), None);
        assert_eq!(Tag::Other(3).index(), KNOWN + 3);
        assert!(Tag::Br.is_void() && !Tag::P.is_void());
    }
}
