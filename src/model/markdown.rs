//! One Markdown file as CommonMark with GitHub's tables reads it (`pulldown-cmark`, source
//! offsets kept): its headings, the text the rendered view never shows, the table-cell
//! delimiters, the link destinations, the character references and the rendered text.
//!
//! The model reads a prompt or persona as raw text; a reviewer reads GitHub's rendered view.
//! This value holds what the second reader sees and does not see, each piece located by byte
//! offsets into the file as written, so the rules can judge the gap between the two
//! (docs/checks.md, "Markdown"). `tests/markdown_differential.rs` holds this reading against
//! comrak's, a port of GitHub's cmark-gfm.

use crate::core::Span;
use pulldown_cmark::{CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};

/// What CommonMark reads in one Markdown file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Markdown {
    /// Every ATX or setext heading, in order (none inside code).
    pub(crate) headings: Vec<Heading>,
    /// The text the rendered view does not show, in order of position.
    pub(crate) hidden: Vec<Hidden>,
    /// The offset of every `|` the parser reads as a table-cell delimiter, ascending.
    pub(crate) table_pipes: Vec<usize>,
    /// Every table row (the header row among them), ascending.
    pub(crate) table_rows: Vec<Span>,
    /// The destination of every inline link and image and of every reference definition, as
    /// written (from after `(` or `]:` to the end of the link or definition), ascending.
    pub(crate) destinations: Vec<Span>,
    /// Every character reference the parser decodes (outside code spans and fences), in order.
    pub(crate) char_refs: Vec<CharRef>,
    /// The text as the rendered view shows it.
    pub(crate) rendered: Rendered,
}

/// A heading: its level (1 to 6), its text (inline markup removed, trimmed) and its span in the
/// file, markers included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Heading {
    pub(crate) level: u8,
    pub(crate) text: String,
    pub(crate) span: Span,
}

/// What kind of text the rendered view hides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HiddenKind {
    /// An HTML comment outside code: `<!-- ... -->`.
    Comment,
    /// A link reference definition no link uses (the idiom `[//]: # (...)`).
    UnusedDefinition,
    /// The title of a link or an image, or of a definition a link uses: `[x](u "...")`.
    Title,
}

/// One piece of text the rendered view does not show, and where it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hidden {
    pub(crate) kind: HiddenKind,
    pub(crate) span: Span,
}

/// A character reference (`&#x202E;`, `&amp;`, `&ZeroWidthSpace;`) and what it decodes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CharRef {
    pub(crate) span: Span,
    pub(crate) decoded: String,
}

/// The text the rendered view shows: the text of every paragraph, heading, table cell, code
/// span and code block (emphasis markers, HTML and link syntax removed, character references
/// decoded), a line break between blocks and cells, and the way back to the file's bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Rendered {
    pub(crate) text: String,
    /// `(where in text, the bytes it came from, whether copied byte for byte)`, ascending.
    pieces: Vec<(usize, Span, bool)>,
    /// Where in `text` the rendered view joins what the file keeps apart: a piece that is not
    /// copied byte for byte (a reference decoded, an escape), or one whose bytes do not follow
    /// the previous piece's with white space alone between them (emphasis markers, an inline
    /// comment, a code span's backticks, link syntax removed). Only there can the rendered text
    /// hold a phrase the text as written does not. Ascending.
    pub(crate) joins: Vec<usize>,
    /// Where the last piece's bytes end, when no break between blocks came after it.
    last_end: Option<usize>,
}

impl Rendered {
    fn push(&mut self, file: &str, text: &str, source: Span, exact: bool) {
        if text.is_empty() {
            return;
        }
        let apart = self.last_end.is_some_and(|end| {
            file.get(end.min(source.start)..source.start)
                .is_none_or(|gap| !gap.bytes().all(|b| b.is_ascii_whitespace()))
        });
        if !exact || apart {
            self.joins.push(self.text.len());
        }
        self.pieces.push((self.text.len(), source, exact));
        self.text.push_str(text);
        self.last_end = Some(source.end);
    }

    /// A break between blocks or cells, standing for no byte of the file.
    fn separate(&mut self) {
        self.last_end = None;
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
    }

    /// Where the byte at `at` of the rendered text was written, and whether that is exact (a
    /// byte copied) or the start of the markup it came from.
    fn source_of(&self, at: usize) -> Option<(usize, Span, bool)> {
        let i = self.pieces.partition_point(|p| p.0 <= at).checked_sub(1)?;
        let (start, source, exact) = self.pieces[i];
        Some(((at - start).min(source.end - source.start), source, exact))
    }

    /// The bytes of the file a stretch of the rendered text came from: from the first byte's
    /// source to the last byte's (a decoded reference or a break maps to its whole markup).
    pub(crate) fn source_span(&self, start: usize, end: usize) -> Span {
        let first =
            self.source_of(start).map_or(
                0,
                |(off, src, exact)| {
                    if exact { src.start + off } else { src.start }
                },
            );
        let last = end.checked_sub(1).and_then(|e| self.source_of(e)).map_or(
            first,
            |(off, src, exact)| {
                if exact { src.start + off + 1 } else { src.end }
            },
        );
        Span::new(first, last.max(first))
    }
}

/// The parser's options: CommonMark with GitHub's tables (as GitHub renders a pack's files).
fn options() -> Options {
    Options::ENABLE_TABLES
}

/// Whether a text's reading can differ from the text as written in what the rules judge: it
/// holds a byte that opens inline markup, a reference, an escape, HTML or a table (`*`, `_`,
/// `` ` ``, `[`, `<`, `&`, `\`, `|`). Without one, the rendered text is the text as written
/// with block markers removed, it has no hidden text, table or reference, and only its headings
/// are left to read (the persona rules read every persona).
///
/// Three vectorised byte searches (`memchr`), not a comparison per byte: every Markdown file
/// outside `tests/` is asked, and most hold no such byte or only one near their end.
pub(crate) fn may_render_apart(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr3(b'*', b'_', b'`', b).is_some()
        || memchr::memchr3(b'[', b'<', b'&', b).is_some()
        || memchr::memchr2(b'\\', b'|', b).is_some()
}

/// Reads one Markdown file.
pub(crate) fn read(text: &str) -> Markdown {
    let parser = Parser::new_ext(text, options());
    let mut definitions: Vec<(String, Span, bool)> = parser
        .reference_definitions()
        .iter()
        .map(|(label, def)| (label_key(label), span(&def.span), def.title.is_some()))
        .collect();
    definitions.sort_by_key(|d| d.1.start);
    let mut md = Markdown::default();
    // The rendered text is about as long as the file and has a piece or two a line: room for
    // them at once, not a copy of each at every doubling.
    md.rendered.text.reserve(text.len());
    md.rendered.pieces.reserve(text.len() / 32);
    let mut used: Vec<String> = Vec::new();
    let mut reading = State::default();
    for (event, range) in parser.into_offset_iter() {
        let at = span(&range);
        match event {
            Event::Start(tag) => reading.start(&mut md, &mut used, text, tag, at),
            Event::End(end) => reading.end(&mut md, text, end),
            Event::Text(t) => reading.text(&mut md, text, &t, at),
            Event::Code(t) => reading.code_span(&mut md, text, &t, at),
            Event::Html(_) | Event::InlineHtml(_) => comments(&mut md, text, at),
            Event::SoftBreak | Event::HardBreak => reading.line_break(&mut md, text, at),
            _ => {}
        }
    }
    for (label, at, titled) in definitions {
        let dest = destination_after(text, at, "]:");
        md.destinations.push(dest);
        if !used.contains(&label) {
            md.hidden.push(Hidden {
                kind: HiddenKind::UnusedDefinition,
                span: at,
            });
        } else if titled && let Some(title) = title_span(text, dest) {
            md.hidden.push(Hidden {
                kind: HiddenKind::Title,
                span: title,
            });
        }
    }
    md.hidden.sort_by_key(|h| h.span.start);
    md.destinations.sort_by_key(|d| d.start);
    md
}

/// What the event loop is inside.
#[derive(Default)]
struct State {
    /// The heading being read: its level, text and span.
    heading: Option<Heading>,
    /// Inside a code block (its text is copied as written).
    code: bool,
    /// The row being read: its span and the spans of its cells.
    row: Option<(Span, Vec<Span>)>,
}

impl State {
    fn start(&mut self, md: &mut Markdown, used: &mut Vec<String>, text: &str, tag: Tag, at: Span) {
        match tag {
            Tag::Heading { level, .. } => {
                self.heading = Some(Heading {
                    level: level as u8,
                    text: String::new(),
                    span: at,
                });
            }
            Tag::CodeBlock(kind) => {
                self.code = true;
                if let CodeBlockKind::Fenced(_) = kind {
                    md.rendered.separate();
                }
            }
            Tag::TableHead | Tag::TableRow => self.row = Some((at, Vec::new())),
            Tag::TableCell => {
                if let Some((_, cells)) = &mut self.row {
                    cells.push(at);
                }
            }
            Tag::Link {
                link_type,
                title,
                id,
                ..
            }
            | Tag::Image {
                link_type,
                title,
                id,
                ..
            } => {
                if matches!(
                    link_type,
                    LinkType::Reference | LinkType::Collapsed | LinkType::Shortcut
                ) {
                    used.push(label_key(&id));
                } else if link_type == LinkType::Inline {
                    let dest = destination_after(text, at, "](");
                    md.destinations.push(dest);
                    if !title.is_empty()
                        && let Some(t) = title_span(text, dest)
                    {
                        md.hidden.push(Hidden {
                            kind: HiddenKind::Title,
                            span: t,
                        });
                    }
                }
            }
            _ => {}
        }
    }

    fn end(&mut self, md: &mut Markdown, source: &str, end: TagEnd) {
        match end {
            TagEnd::Heading(_) => {
                if let Some(mut h) = self.heading.take() {
                    h.text = h.text.trim().to_string();
                    md.headings.push(h);
                }
                md.rendered.separate();
            }
            TagEnd::CodeBlock => {
                self.code = false;
                md.rendered.separate();
            }
            TagEnd::TableHead | TagEnd::TableRow => {
                if let Some((row, cells)) = self.row.take() {
                    md.table_pipes.extend(delimiters(source, row, &cells));
                    md.table_rows.push(row);
                }
                md.rendered.separate();
            }
            TagEnd::TableCell => md.rendered.separate(),
            TagEnd::Paragraph | TagEnd::Item | TagEnd::BlockQuote(_) => md.rendered.separate(),
            _ => {}
        }
    }

    fn line_break(&mut self, md: &mut Markdown, source: &str, at: Span) {
        if let Some(h) = &mut self.heading {
            h.text.push('\n');
        }
        // A line break reads as white space in both readings: it joins nothing.
        let newline = source.get(at.start..at.end).and_then(|s| s.find('\n'));
        let at = newline.map_or(at, |i| Span::new(at.start + i, at.start + i + 1));
        md.rendered.push(source, "\n", at, newline.is_some());
    }

    fn code_span(&mut self, md: &mut Markdown, source: &str, t: &str, at: Span) {
        if let Some(h) = &mut self.heading {
            h.text.push_str(t);
        }
        md.rendered
            .push(source, t, code_inside(source, at, t), true);
    }

    fn text(&mut self, md: &mut Markdown, source: &str, t: &str, at: Span) {
        if let Some(h) = &mut self.heading {
            h.text.push_str(t);
        }
        let written = &source[at.start..at.end];
        let exact = written == t;
        if !self.code && !exact && written.starts_with('&') && written.ends_with(';') {
            md.char_refs.push(CharRef {
                span: at,
                decoded: t.to_string(),
            });
        }
        md.rendered.push(source, t, at, exact);
    }
}

/// The `|` bytes of a row that no cell holds: its delimiters as the parser split it.
fn delimiters(text: &str, row: Span, cells: &[Span]) -> Vec<usize> {
    let bytes = &text.as_bytes()[row.start..row.end];
    (0..bytes.len())
        .filter(|&i| bytes[i] == b'|')
        .map(|i| row.start + i)
        .filter(|&i| !cells.iter().any(|c| c.start <= i && i < c.end))
        .collect()
}

/// The HTML comments of an HTML block or inline HTML: each `<!--` to its `-->` (or to the end of
/// the HTML, unclosed).
fn comments(md: &mut Markdown, text: &str, at: Span) {
    let html = &text[at.start..at.end];
    let mut from = 0;
    while let Some(i) = html[from..].find("<!--") {
        let start = from + i;
        let end = html[start + 4..]
            .find("-->")
            .map_or(html.len(), |j| start + 4 + j + 3);
        md.hidden.push(Hidden {
            kind: HiddenKind::Comment,
            span: Span::new(at.start + start, at.start + end),
        });
        from = end;
    }
}

/// The inside of a code span as written (its backticks excluded), or the whole span when the
/// inside is not its text byte for byte.
fn code_inside(text: &str, at: Span, code: &str) -> Span {
    let written = &text[at.start..at.end];
    // Usually the inside starts right after the opening backticks: no earlier match can exist
    // there (the inside would start with a backtick, which the byte after the run is not), so
    // that is the first one, found without a substring search.
    let run = written.bytes().take_while(|&b| b == b'`').count();
    if written.get(run..run + code.len()) == Some(code) {
        return Span::new(at.start + run, at.start + run + code.len());
    }
    match written.find(code) {
        Some(i) => Span::new(at.start + i, at.start + i + code.len()),
        None => at,
    }
}

/// A label as links compare it: case folded, white space collapsed.
fn label_key(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn span(r: &std::ops::Range<usize>) -> Span {
    Span::new(r.start, r.end)
}

/// The destination part of an inline link (after the last `](`) or of a definition (after the
/// first `]:`): to the end of the link, its closing `)` excluded.
fn destination_after(text: &str, at: Span, marker: &str) -> Span {
    let written = &text[at.start..at.end];
    let found = if marker == "](" {
        written.rfind(marker)
    } else {
        written.find(marker)
    };
    let Some(i) = found else { return at };
    let end = if marker == "](" && written.ends_with(')') {
        at.end - 1
    } else {
        at.end
    };
    Span::new(at.start + i + marker.len(), end)
}

/// The title at the end of a destination part (`u "title"`, `u 'title'`, `u (title)`), its
/// delimiters included.
fn title_span(text: &str, dest: Span) -> Option<Span> {
    let part = &text[dest.start..dest.end];
    let trimmed = part.trim_end();
    let close = trimmed.chars().next_back()?;
    let open = match close {
        '"' => '"',
        '\'' => '\'',
        ')' => '(',
        _ => return None,
    };
    let body = &trimmed[..trimmed.len() - 1];
    let bytes = body.as_bytes();
    let mut i = body.len();
    while i > 0 {
        i -= 1;
        let escaped = i > 0 && bytes[i - 1] == b'\\';
        if bytes[i] == open as u8 && !escaped {
            return Some(Span::new(dest.start + i, dest.start + trimmed.len()));
        }
    }
    None
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod differential;
