//! The gap between the two readers of a pack's text: the model reads the file as written, a
//! reviewer reads GitHub's rendered view of it (docs/security.md). Text the rendered view never
//! shows, and padding that pushes what follows out of the reviewer's view.

use super::declare::declare_rules;
use super::text::{IGNORABLE_CHARACTER, INVISIBLE_CHARACTER};
use crate::core::baseline::Occurrence;
use crate::core::{Diagnostic, Span, is_ignorable, is_invisible};
use crate::model::markdown::{HiddenKind, Markdown};
use crate::pack::PackKind;
use crate::pack::place::{Place, place};

declare_rules! {
    /// Text the model reads but the rendered view does not show
    ///
    /// In prompts/ and personas/: an HTML comment outside a code span or fence (<!-- ... -->), a
    /// link reference definition that no link uses (the comment idioms [//]: # (...) and
    /// [comment]: <> (...)), and the title of a link or image ([x](u "...")). The model reads
    /// them as written while GitHub's rendered view, where a reviewer reads the pull request,
    /// shows nothing of them: an instruction there is read by one reader only. Inline HTML that
    /// GitHub's sanitiser drops is not this warning (the page's own persona writes "<one
    /// sentence>", which CommonMark reads as a tag). Reported once per file, at the first such
    /// text, quoting its first 60 characters; the text is judged by every other rule as well.
    ///
    /// How to fix: Write the text where the rendered view shows it, or delete it.
    pub(crate) static UNRENDERED_TEXT = "unrendered-text", Warning, High, rank = 540, security_severity = "5.0";

    /// Blank lines or spaces that push text out of a reviewer's view
    ///
    /// Outside tests/: 25 or more blank lines in a row, or a run of 120 or more spaces and tabs
    /// inside one line with more text after it on that line (not inside a Markdown table row,
    /// where spaces align the columns). A reviewer scrolling a diff or a rendered file takes the
    /// text for ended, or the line for shown whole, while the model reads what follows. Reported
    /// once per file, at the first.
    ///
    /// How to fix: Remove the padding.
    pub(crate) static PADDING = "padding", Warning, High, rank = 550, security_severity = "4.0";
}

/// The fewest blank lines in a row reported.
pub(crate) const BLANK_LINES_MIN: usize = 25;
/// The shortest run of spaces and tabs inside a line reported.
pub(crate) const SPACES_MIN: usize = 120;
/// How many characters of hidden text a finding quotes.
const QUOTED: usize = 60;

/// Whether `unrendered-text` reads a file: a prompt or a persona of a pass pack.
pub(crate) fn unrendered_applies_to(kind: PackKind, path: &str) -> bool {
    kind == PackKind::Pass && matches!(place(kind, path), Some((Place::Prompt | Place::Persona, _)))
}

/// The `unrendered-text` warning of a prompt or persona: its first hidden text, quoted (a secret
/// in it masked).
pub(crate) fn unrendered(path: &str, text: &str, md: &Markdown) -> Option<Diagnostic> {
    let first = md.hidden.first()?;
    let hidden = text.get(first.span.start..first.span.end)?;
    let masked = crate::secrets::redact(hidden);
    let mut quote: String = masked.text.chars().take(QUOTED).collect();
    if quote.len() < masked.text.len() {
        quote.push_str("...");
    }
    let what = match first.kind {
        HiddenKind::Comment | HiddenKind::UnusedDefinition | HiddenKind::Title => {
            "text the rendered view does not show"
        }
    };
    let mut d = Diagnostic::at(
        &UNRENDERED_TEXT,
        path,
        Span::new(first.span.start, first.span.start),
        format!("{what} \"{quote}\""),
    );
    d.occurrences = md
        .hidden
        .iter()
        .filter_map(|h| {
            let hidden = text.get(h.span.start..h.span.end)?;
            Some(Occurrence {
                span: Span::new(h.span.start, h.span.end),
                region: Default::default(),
                text: crate::secrets::redact(hidden).text.into_owned(),
                baseline: None,
            })
        })
        .collect();
    Some(d)
}

/// Whether `padding` reads a file: any file outside `tests/`.
pub(crate) fn padding_applies_to(path: &str) -> bool {
    !path.starts_with("tests/")
}

/// The `padding` warning of a file: its first run of blank lines or of spaces, whichever comes
/// first. `md` is its Markdown reading (a run inside a table row is not padding).
pub(crate) fn padding(path: &str, bytes: &[u8], md: Option<&Markdown>) -> Option<Diagnostic> {
    // Either padding is a run of at least BLANK_LINES_MIN bytes of white space: only the lines
    // around such runs are read, line by line.
    let mut from = 0;
    while let Some((start, end)) = white_run(bytes, from, BLANK_LINES_MIN) {
        let line_start = bytes[..start]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line_end = memchr::memchr(b'\n', &bytes[end..]).map_or(bytes.len(), |i| end + i);
        if let Some(d) = padding_in(path, bytes, line_start, line_end, md) {
            return Some(d);
        }
        from = end;
    }
    None
}

/// Whether a byte is white space for padding.
fn white(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// The first run of at least `min` white-space bytes from `from`, skipping ahead as the
/// encoded-run search does (a window is checked from its far end; the first byte outside the
/// class moves the start past it).
fn white_run(bytes: &[u8], from: usize, min: usize) -> Option<(usize, usize)> {
    let mut start = from;
    'windows: while start + min <= bytes.len() {
        for j in (start..start + min).rev() {
            if !white(bytes[j]) {
                start = j + 1;
                continue 'windows;
            }
        }
        let end = bytes[start + min..]
            .iter()
            .position(|&b| !white(b))
            .map_or(bytes.len(), |i| start + min + i);
        return Some((start, end));
    }
    None
}

/// The padding among the lines of `bytes[from..to]` (whole lines), read line by line.
fn padding_in(
    path: &str,
    bytes: &[u8],
    from: usize,
    to: usize,
    md: Option<&Markdown>,
) -> Option<Diagnostic> {
    let in_row =
        |at: usize| md.is_some_and(|m| m.table_rows.iter().any(|r| r.start <= at && at < r.end));
    let blank_lines = |at: usize, n: usize| {
        (n >= BLANK_LINES_MIN).then(|| {
            let message = format!("{n} blank lines in a row");
            Diagnostic::line(&PADDING, path, Span::new(at, at), message)
        })
    };
    // The blank lines in a row before the line being read: where they start, how many.
    let (mut blank_at, mut blanks) = (0, 0);
    let mut line_start = from;
    while line_start < to {
        let rest = &bytes[line_start..to];
        let end = memchr::memchr(b'\n', rest).map_or(to, |i| line_start + i);
        let line = &bytes[line_start..end];
        if line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            if blanks == 0 {
                blank_at = line_start;
            }
            blanks += 1;
        } else {
            if let Some(d) = blank_lines(blank_at, blanks) {
                return Some(d);
            }
            blanks = 0;
            if let Some((at, n)) = spaces_run(line)
                && !in_row(line_start + at)
            {
                let at = line_start + at;
                let tabs = bytes[at..at + n].contains(&b'\t');
                let what = if tabs { "spaces and tabs" } else { "spaces" };
                let message = format!("a run of {n} {what}");
                return Some(Diagnostic::at(
                    &PADDING,
                    path,
                    Span::new(at, at + n),
                    message,
                ));
            }
        }
        line_start = end + 1;
    }
    blank_lines(blank_at, blanks)
}

/// The warnings of this family for one file read whole as UTF-8, given its Markdown reading
/// when it is a Markdown file.
pub(crate) fn check_file(
    kind: PackKind,
    path: &str,
    text: &str,
    md: Option<&Markdown>,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(md) = md
        && unrendered_applies_to(kind, path)
    {
        out.extend(unrendered(path, text, md));
    }
    if padding_applies_to(path) {
        out.extend(padding(path, text.as_bytes(), md));
    }
}

/// Every file of a pack, each Markdown file read here (the check reads them once, in
/// `model::Documents`).
#[cfg(test)]
pub(crate) fn check(pack: &crate::pack::Pack, out: &mut Vec<Diagnostic>) {
    for f in pack.files() {
        let Some(text) = f.text() else { continue };
        let md = f
            .path
            .ends_with(".md")
            .then(|| crate::model::markdown::read(text));
        check_file(pack.kind, &f.path, text, md.as_ref(), out);
    }
}

/// Character references that decode to hidden characters, in a Markdown file outside `tests/`:
/// the same error, or warning, as the character written raw, at the reference
/// (`U+202E in a character reference`, `U+E0049 in a character reference and 3 more` for a run
/// of them).
pub(crate) fn report_char_refs(path: &str, md: &Markdown, out: &mut Vec<Diagnostic>) {
    // (span, first hidden character, count, invisible)
    let mut runs: Vec<(Span, char, usize, bool)> = Vec::new();
    for r in &md.char_refs {
        let Some(c) = r
            .decoded
            .chars()
            .find(|&c| is_invisible(c) || is_ignorable(c))
        else {
            continue;
        };
        let invisible = is_invisible(c);
        match runs.last_mut() {
            Some(run) if run.0.end == r.span.start && run.3 == invisible => {
                run.0.end = r.span.end;
                run.2 += 1;
            }
            _ => runs.push((r.span, c, 1, invisible)),
        }
    }
    for (span, c, count, invisible) in runs {
        let mut m = format!("U+{:04X} in a character reference", c as u32);
        if count > 1 {
            m.push_str(&format!(" and {} more", count - 1));
        }
        out.push(if invisible {
            Diagnostic::at(&INVISIBLE_CHARACTER, path, span, m)
        } else {
            let m = format!("{m}, an invisible character hippo accepts");
            Diagnostic::at(&IGNORABLE_CHARACTER, path, span, m)
        });
    }
}

/// The first run of at least [`SPACES_MIN`] spaces and tabs in a line with more text after it:
/// its offset in the line and its length.
fn spaces_run(line: &[u8]) -> Option<(usize, usize)> {
    if line.len() <= SPACES_MIN {
        return None;
    }
    let mut i = 0;
    while i < line.len() {
        if matches!(line[i], b' ' | b'\t') {
            let start = i;
            while i < line.len() && matches!(line[i], b' ' | b'\t') {
                i += 1;
            }
            let n = i - start;
            let more = line[i..].iter().any(|b| !matches!(b, b' ' | b'\t' | b'\r'));
            if n >= SPACES_MIN && more {
                return Some((start, n));
            }
        } else {
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests;
