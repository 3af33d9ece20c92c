//! Text: every file is UTF-8 and holds no character a person cannot see but a model reads.

use super::declare::declare_rules;
use crate::core::{Diagnostic, Span, is_ignorable, is_invisible, is_unusual_space};
use crate::model::decode::View;

declare_rules! {
    /// A character a person cannot see but a model reads
    ///
    /// Control characters other than tab, line feed and carriage return, zero-width and
    /// direction-changing characters, variation selectors, private-use characters and tag
    /// characters. They hide text from the reviewer of a pull request while the model still reads
    /// it: tag characters can spell whole hidden instructions, and direction marks can make a line
    /// read differently on screen than in the file. One finding per run of such characters, at its
    /// first one; a run of tag characters that spells ASCII text has that text shown.
    ///
    /// U+FEFF as a file's first character is a byte-order mark, which some editors write without
    /// showing it: its finding's help says to save the file as UTF-8 without a byte-order mark.
    ///
    /// How to fix: Delete the character (an editor that shows invisible characters helps, as does
    /// `LC_ALL=C grep -n '[^[:print:][:space:]]' FILE`). If you meant a visible symbol, write it
    /// as text.
    pub(crate) static INVISIBLE_CHARACTER = "invisible-character", Error, VeryHigh, rank = 130, security_severity = "8.0";

    /// A file that is not UTF-8
    ///
    /// Every file of a pack is UTF-8 text. A file with an invalid byte is binary or in another
    /// encoding, and cannot be read the same way by every tool. The finding is at the first bad
    /// byte.
    ///
    /// How to fix: Re-save the file as UTF-8, or delete it if it is binary.
    pub(crate) static NOT_UTF8 = "not-utf8", Error, VeryHigh, rank = 140;

    /// An invisible character hippo accepts
    ///
    /// Unicode's default-ignorable characters beyond the page's list (the soft hyphen U+00AD,
    /// U+034F, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, U+17B4, U+17B5, U+1BCA0-U+1BCA3,
    /// the musical formatting characters U+1D173-U+1D17A, and the unassigned default ignorables)
    /// and the interlinear annotation characters U+FFF9-U+FFFB. A renderer shows nothing for them
    /// while a model reads them, so they can split a phrase a reviewer searches for; hippo itself
    /// accepts them, so this is a warning, not an error. The injection, URL and shell warnings
    /// match text with these characters (and the page's invisible ones) removed, so one of them
    /// cannot hide a phrase. One finding per run, at its first character.
    ///
    /// How to fix: Delete the character; if you meant a visible hyphen or space, type one.
    pub(crate) static IGNORABLE_CHARACTER = "ignorable-character", Warning, High, rank = 560, security_severity = "5.0";

    /// A space a person takes for an ordinary one but a search does not
    ///
    /// U+2800 BRAILLE PATTERN BLANK, which renders as a space but is a symbol, not a space
    /// separator. Put between the words of an instruction it keeps it from a reviewer's search
    /// while a model reads it as written; the injection, URL and shell warnings match it as a
    /// space. The space separators (U+2009 THIN SPACE and the rest of Unicode's Zs) are typography,
    /// such as French digit groups: those warnings read them as spaces too, and they draw no
    /// finding of their own. In every file outside tests/ except README.md and LICENSE*: one
    /// finding per file, at the first one, with how many more the file holds.
    ///
    /// How to fix: Replace the character with an ordinary space.
    pub(crate) static UNUSUAL_SPACE = "unusual-space", Warning, High, rank = 570, security_severity = "4.0";
}

/// Whether the content warnings and `unusual-space` look at a file: outside `tests/`, not
/// `README.md`, not `LICENSE*`.
pub(crate) fn prose_rules_apply(path: &str) -> bool {
    !(path.starts_with("tests/")
        || path == "README.md"
        || (!path.contains('/') && path.starts_with("LICENSE")))
}

/// An unusual space (`core::is_unusual_space`) in a text: where and which.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UnusualSpace {
    pub(crate) span: Span,
    pub(crate) c: char,
}

/// Every unusual space of a text, in order (the text's valid UTF-8 prefix).
#[cfg(test)]
pub(crate) fn unusual_spaces(text: &[u8]) -> Vec<UnusualSpace> {
    scan_bytes(text).unusual_spaces
}

/// The one `unusual-space` warning of a file, at the first of its unusual spaces (in order):
/// `U+2800, an unusual space`, `U+2800, an unusual space and 2 more`.
pub(crate) fn unusual_space_warning(path: &str, spaces: &[UnusualSpace]) -> Option<Diagnostic> {
    let first = spaces.first()?;
    let mut m = format!("U+{:04X}, an unusual space", first.c as u32);
    if spaces.len() > 1 {
        m.push_str(&format!(" and {} more", spaces.len() - 1));
    }
    Some(Diagnostic::at(&UNUSUAL_SPACE, path, first.span, m))
}

/// `U+00AD, an invisible character hippo accepts`; `U+115F and 1 more, invisible characters
/// hippo accepts` for a longer run.
pub(crate) fn ignorable_message(run: &Run) -> String {
    if run.count > 1 {
        format!("{}, invisible characters hippo accepts", run.message())
    } else {
        format!("{}, an invisible character hippo accepts", run.message())
    }
}

/// A run of invisible characters: its byte span, its first character, and its length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Where the run is.
    pub span: Span,
    pub(crate) first: char,
    pub(crate) count: usize,
    /// The ASCII text a run made only of tag characters spells.
    pub(crate) hidden: Option<String>,
}

impl Run {
    /// `U+202E`, `U+E0041 and 37 more`, `... (hidden text "hidden")`.
    pub fn message(&self) -> String {
        let mut m = format!("U+{:04X}", self.first as u32);
        if self.count > 1 {
            m.push_str(&format!(" and {} more", self.count - 1));
        }
        if let Some(h) = &self.hidden {
            m.push_str(&format!(" (hidden text \"{}\")", escape_hidden(h)));
        }
        m
    }
}

fn escape_hidden(s: &str) -> String {
    s.chars()
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            c => vec![c],
        })
        .collect()
}

/// Every maximal run of invisible characters in a text. Plain ASCII is skipped 32 bytes at a
/// time without decoding ([`scan_bytes`]).
#[cfg(test)]
pub(crate) fn invisible_runs(text: &str) -> Vec<Run> {
    hidden_runs(text).0
}

/// Which set a character belongs to: the page's invisible ones (an error), the ignorable ones
/// beyond the page's list (a warning), or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Invisible,
    Ignorable,
    Plain,
}

fn class(b: u8, c: char) -> Class {
    if b < 0x80 {
        if (0x20..0x7F).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r') {
            Class::Plain
        } else {
            Class::Invisible
        }
    } else if is_invisible(c) {
        Class::Invisible
    } else if is_ignorable(c) {
        Class::Ignorable
    } else {
        Class::Plain
    }
}

/// A run being read: its start, first character, count, the text its tag characters spell, and
/// whether all of them are tags.
struct Open {
    class: Class,
    start: usize,
    first: char,
    count: usize,
    tags: String,
    all_tags: bool,
}

impl Open {
    fn new(class: Class, start: usize, first: char) -> Self {
        Open {
            class,
            start,
            first,
            count: 0,
            tags: String::new(),
            all_tags: true,
        }
    }

    /// Counts one more character of the run, and the ASCII text it spells when it is a tag.
    fn add(&mut self, c: char) {
        let u = c as u32;
        let tag = (0xE0020..=0xE007E).contains(&u);
        self.count += 1;
        self.all_tags &= tag;
        if tag {
            self.tags.push(char::from((u - 0xE0000) as u8));
        }
    }

    /// Ends the run at `end` and adds it to the list of its set.
    fn close_into(self, end: usize, invisible: &mut Vec<Run>, ignorable: &mut Vec<Run>) {
        let dst = if self.class == Class::Invisible {
            invisible
        } else {
            ignorable
        };
        dst.push(make_run(
            self.start,
            end,
            self.first,
            self.count,
            self.tags,
            self.all_tags,
        ));
    }
}

/// The maximal runs of invisible characters and, apart, of ignorable ones (a character of the
/// other set, or a plain one, ends a run), in one pass.
#[cfg(test)]
pub(crate) fn hidden_runs(text: &str) -> (Vec<Run>, Vec<Run>) {
    let scan = scan_bytes(text.as_bytes());
    (scan.invisible, scan.ignorable)
}

/// What one walk over a file's bytes finds: the invisible and ignorable runs (`hidden_runs`) in its valid UTF-8
/// prefix, and where that prefix ends when the file is not UTF-8.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TextScan {
    /// The runs of invisible characters.
    pub invisible: Vec<Run>,
    pub(crate) ignorable: Vec<Run>,
    /// The offset of the first byte that is not UTF-8.
    pub not_utf8: Option<usize>,
    /// The unusual spaces of the valid prefix.
    pub(crate) unusual_spaces: Vec<UnusualSpace>,
    /// Whether a byte past ASCII was met (a file without one folds to itself when it holds no
    /// hidden character: `core::fold`).
    pub(crate) non_ascii: bool,
}

/// The character at the start of `bytes` when it is UTF-8 (`bytes` is not empty).
fn decode(bytes: &[u8]) -> Option<char> {
    let window = &bytes[..bytes.len().min(4)];
    window.utf8_chunks().next()?.valid().chars().next()
}

/// One walk over the bytes: UTF-8 validity (the same first bad byte `std::str::from_utf8`
/// reports) and the hidden runs of the valid prefix together. Plain ASCII is skipped eight
/// bytes at a time; only other bytes are decoded.
pub fn scan_bytes(bytes: &[u8]) -> TextScan {
    let (mut invisible, mut ignorable) = (Vec::new(), Vec::new());
    let mut unusual_spaces = Vec::new();
    let (mut not_utf8, mut non_ascii) = (None, false);
    let mut i = 0;
    // Where the block the fast path last refused ends.
    let mut slow_until = 0;
    let mut current: Option<Open> = None;
    while i < bytes.len() {
        // Fast path: 32 plain ASCII bytes at a time (a loop the compiler turns into vector
        // instructions), outside a run. A block that holds anything else is read byte by byte.
        if current.is_none()
            && i >= slow_until
            && let Some(block) = block_at(bytes, i)
        {
            if plain_block(block) {
                i += BLOCK;
                continue;
            }
            slow_until = i + BLOCK;
        }
        let b = bytes[i];
        // A plain ASCII byte outside a run (a line break that stopped the fast path) changes
        // nothing: step over it without classifying it.
        if current.is_none() && ((0x20..0x7F).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r')) {
            i += 1;
            continue;
        }
        non_ascii |= b >= 0x80;
        let (c, len) = if b < 0x80 {
            (b as char, 1)
        } else if let Some(c) = decode(&bytes[i..]) {
            (c, c.len_utf8())
        } else {
            not_utf8 = Some(i);
            break;
        };
        let k = class(b, c);
        if k == Class::Plain && b >= 0x80 && is_unusual_space(c) {
            unusual_spaces.push(UnusualSpace {
                span: Span::new(i, i + len),
                c,
            });
        }
        if current.as_ref().is_some_and(|o| o.class != k)
            && let Some(o) = current.take()
        {
            o.close_into(i, &mut invisible, &mut ignorable);
        }
        if k != Class::Plain {
            current.get_or_insert_with(|| Open::new(k, i, c)).add(c);
        }
        i += len;
    }
    if let Some(o) = current.take() {
        o.close_into(
            not_utf8.unwrap_or(bytes.len()),
            &mut invisible,
            &mut ignorable,
        );
    }
    TextScan {
        invisible,
        ignorable,
        not_utf8,
        unusual_spaces,
        non_ascii,
    }
}

/// The fast path's block, in bytes.
const BLOCK: usize = 32;

/// The block of [`BLOCK`] bytes at `i`, when there are that many.
fn block_at(bytes: &[u8], i: usize) -> Option<&[u8; BLOCK]> {
    bytes.get(i..i + BLOCK)?.try_into().ok()
}

/// Whether every byte of the block is plain ASCII: printable (0x20..=0x7E), tab, line feed or
/// carriage return. No early exit, so the loop is vectorized.
#[inline]
fn plain_block(block: &[u8; BLOCK]) -> bool {
    let mut bad = false;
    for &b in block {
        let control = b < 0x20 && b != b'\t' && b != b'\n' && b != b'\r';
        bad |= control | (b >= 0x7F);
    }
    !bad
}

fn make_run(
    start: usize,
    end: usize,
    first: char,
    count: usize,
    text: String,
    all_tags: bool,
) -> Run {
    Run {
        span: Span::new(start, end),
        first,
        count,
        hidden: (all_tags && !text.is_empty()).then_some(text),
    }
}

/// The text rules alone over every file read whole: what the merged scan of [`super::scan`] is
/// tested against.
#[cfg(test)]
pub(crate) fn check(
    pack: &crate::pack::Pack,
    docs: &crate::model::Documents<'_>,
    out: &mut Vec<Diagnostic>,
) {
    for (i, f) in pack.files().iter().enumerate().filter(|(_, f)| f.complete) {
        let scan = scan_bytes(&f.bytes);
        report(&f.path, &scan, out);
        let view = docs.view(i);
        if let Some(view) = view
            && !f.in_tests()
        {
            report_escapes(&f.path, view, out);
        }
        report_unusual_spaces(&f.path, &scan, view, out);
    }
}

/// The text family's findings in one file: `scan` is [`scan_bytes`] of its `bytes`.
pub(crate) fn report(path: &str, scan: &TextScan, out: &mut Vec<Diagnostic>) {
    for run in &scan.invisible {
        let d = Diagnostic::at(&INVISIBLE_CHARACTER, path, run.span, run.message());
        out.push(bom_help(d, run));
    }
    for run in &scan.ignorable {
        out.push(Diagnostic::at(
            &IGNORABLE_CHARACTER,
            path,
            run.span,
            ignorable_message(run),
        ));
    }
    if let Some(at) = scan.not_utf8 {
        out.push(Diagnostic::at(
            &NOT_UTF8,
            path,
            Span::new(at, at + 1),
            "not UTF-8",
        ));
    }
}

/// What a byte-order mark's finding says to do: U+FEFF at a file's first byte is an editor's
/// "UTF-8 with BOM", fixed by saving the file again without it, not by hunting for a character
/// the editor does not show. A run of more than one keeps the rule's help beside it.
fn bom_help(d: Diagnostic, run: &Run) -> Diagnostic {
    const SAVE: &str = "save the file as UTF-8 without a byte-order mark (the U+FEFF at its start)";
    match (run.span.start, run.first, run.count) {
        (0, '\u{feff}', 1) => d.with_own_help(SAVE),
        (0, '\u{feff}', _) => d.with_hint(SAVE),
        _ => d,
    }
}

/// The one `unusual-space` warning of a file outside `tests/`, `README.md` and `LICENSE*`: the
/// unusual spaces its walk found (`scan`) and those its escapes decode to (`view`, at the
/// backslash), counted together.
pub(crate) fn report_unusual_spaces(
    path: &str,
    scan: &TextScan,
    view: Option<&View>,
    out: &mut Vec<Diagnostic>,
) {
    if !prose_rules_apply(path) {
        return;
    }
    let escaped = view.into_iter().flat_map(|v| &v.escapes);
    let escaped = escaped.filter(|e| is_unusual_space(e.decoded));
    let mut spaces = scan.unusual_spaces.clone();
    spaces.extend(escaped.map(|e| UnusualSpace {
        span: e.span,
        c: e.decoded,
    }));
    spaces.sort_by_key(|s| s.span.start);
    out.extend(unusual_space_warning(path, &spaces));
}

/// Escapes that decode to hidden characters, in the files hippo installs (the caller asks for
/// files outside `tests/` only): the same error, or warning, as the character written raw, at
/// the escape's backslash (`model::decode`).
pub(crate) fn report_escapes(path: &str, view: &View, out: &mut Vec<Diagnostic>) {
    for run in view.hidden_runs() {
        let d = if run.invisible {
            Diagnostic::at(&INVISIBLE_CHARACTER, path, run.span, run.message())
        } else {
            let m = format!("{}, an invisible character hippo accepts", run.message());
            Diagnostic::at(&IGNORABLE_CHARACTER, path, run.span, m)
        };
        out.push(d);
    }
}

#[cfg(test)]
mod tests;
