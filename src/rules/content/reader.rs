//! The content warnings as the two readers of a Markdown file read it: the rendered text a
//! reviewer sees (emphasis and inline comments removed, references decoded), the phrases with
//! their combining marks folded, the lines of a prompt or persona that forge a turn or claim
//! authority, and a placeholder inside a URL.

use super::{Finding, INJECTION_PHRASE, SHELL_TEXT, URL_OUTSIDE_README, URL_PLACEHOLDER, scan};
use crate::core::fold::{Folded, fold_marks};
use crate::core::{Diagnostic, Span};
use crate::model::markdown::Markdown;
use crate::model::prompt::placeholders;
use std::sync::LazyLock;

/// The findings of `found`'s rules that `bytes` folded with marks dropped adds: injection
/// phrases only (the shell set keeps accents), located and quoted as written. The content regex
/// is asked (its injection group: no other match can overlap one, since none holds a word an
/// injection phrase starts with), so no second regex is compiled or warmed.
pub(super) fn marks_findings<'a>(bytes: &'a [u8], found: &mut Vec<Finding<'a>>) {
    let Some(folded) = fold_marks(bytes) else {
        return;
    };
    for caps in super::regex().captures_iter(&folded.text) {
        let Some(m) = caps.name("inj") else { continue };
        push_new(
            found,
            &INJECTION_PHRASE,
            bytes,
            folded_span(&folded, m.start(), m.end()),
        );
    }
}

fn folded_span(f: &Folded<'_>, start: usize, end: usize) -> Span {
    f.written_span(start, end)
}

/// Adds a finding unless one of the rule with the same text is there.
fn push_new<'a>(
    found: &mut Vec<Finding<'a>>,
    rule: &'static crate::core::Rule,
    bytes: &'a [u8],
    span: Span,
) {
    let text = &bytes[span.start..span.end];
    if found.iter().any(|f| f.rule == rule && f.text == text) {
        return;
    }
    found.push(Finding { rule, span, text });
}

/// How far around a join of the rendered text ([`crate::model::markdown::Rendered::joins`]) it is
/// searched: a phrase the join completes lies within it (a longer run of white space between
/// its words is `padding`).
const AROUND_JOIN: usize = 256;

/// The stretches of the rendered text within [`AROUND_JOIN`] of a join, merged, on character
/// boundaries.
fn windows(md: &Markdown) -> Vec<(usize, usize)> {
    let text = &md.rendered.text;
    let floor = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let ceil = |mut i: usize| {
        while i < text.len() && !text.is_char_boundary(i) {
            i += 1;
        }
        i
    };
    let mut out: Vec<(usize, usize)> = Vec::new();
    for &j in &md.rendered.joins {
        let (s, e) = (
            floor(j.saturating_sub(AROUND_JOIN)),
            ceil((j + AROUND_JOIN).min(text.len())),
        );
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = e,
            _ => out.push((s, e)),
        }
    }
    out
}

/// The injection, shell and URL findings of the rendered text that the text as written does not
/// hold (a URL only when the file has none yet), searched around its joins (`*ignore* all
/// previous`, `ig<!-- -->nore`, `&#105;gnore`), with the phrases' marks folded too; located at
/// the bytes they were rendered from and quoted there.
pub(super) fn rendered_findings<'a>(bytes: &'a [u8], md: &Markdown, found: &mut Vec<Finding<'a>>) {
    let rendered = &md.rendered;
    let mut url_seen = found.iter().any(|f| f.rule == &URL_OUTSIDE_README);
    for (start, end) in windows(md) {
        let window = &rendered.text.as_bytes()[start..end];
        let mut new = scan(window);
        if !window.is_ascii() {
            marks_findings(window, &mut new);
        }
        for f in new {
            if f.rule == &URL_OUTSIDE_README {
                if url_seen {
                    continue;
                }
                url_seen = true;
            } else if f.rule != &INJECTION_PHRASE && f.rule != &SHELL_TEXT {
                continue;
            }
            let span = rendered.source_span(start + f.span.start, start + f.span.end);
            if span.end <= bytes.len() && span.start < span.end {
                push_new(found, f.rule, bytes, span);
            }
        }
    }
}

/// Whether a shell finding is a table-cell delimiter read as a pipe (`| bash | ~/.bashrc |`).
pub(super) fn is_table_pipe(md: Option<&Markdown>, f: &Finding<'_>) -> bool {
    f.rule == &SHELL_TEXT
        && f.text.first() == Some(&b'|')
        && md.is_some_and(|m| m.table_pipes.binary_search(&f.span.start).is_ok())
}

/// What a line-start marker is: a turn or authority claim (reported once per distinct text), or
/// one side of a dialogue (reported, every line, when the file has both sides).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Marker {
    Turn,
    User,
    Assistant,
}

/// The marker at the start of a line (after spaces and Markdown's `>`, `-`, `*`), and its offset
/// and length in the line.
fn line_marker(line: &[u8]) -> Option<(Marker, usize, usize)> {
    let lead = line
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'>' | b'-' | b'*'))
        .count();
    let rest = &line[lead..];
    let hashes = rest.iter().take_while(|&&b| b == b'#').count();
    if hashes == 3 {
        let gap = rest[3..]
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        if starts_with_ignore_case(&rest[3 + gap..], b"instruction:") {
            return Some((Marker::Turn, lead, 3 + gap + "instruction:".len()));
        }
    }
    let gap = if hashes > 0 {
        rest[hashes..]
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count()
    } else {
        0
    };
    let at = lead + hashes + gap;
    let word = &line[at..];
    for (keyword, marker) in [
        (&b"system:"[..], Marker::Turn),
        (b"human:", Marker::Turn),
        (b"user:", Marker::User),
        (b"assistant:", Marker::Assistant),
    ] {
        if !starts_with_ignore_case(word, keyword) {
            continue;
        }
        let spaced = matches!(word.get(keyword.len()), Some(b' ' | b'\t'));
        if marker != Marker::Turn || spaced {
            return Some((marker, at, keyword.len()));
        }
    }
    None
}

fn starts_with_ignore_case(text: &[u8], prefix: &[u8]) -> bool {
    text.len() >= prefix.len() && text[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// The tags that claim authority anywhere in a line.
const TAGS: [&[u8]; 4] = [b"<system>", b"</system>", b"<important>", b"</important>"];

/// The markers of a prompt or persona (the text folded as the phrases are): `system:`,
/// `human:` (each followed by a space or tab) and `### Instruction:` at a line's start, `<system>`
/// and `<important>` anywhere, once per distinct text; `user:` and `assistant:` at a line's start
/// only when the file has both, every one of them (a forged dialogue). One pass over the lines.
pub(super) fn marker_findings<'a>(
    bytes: &'a [u8],
    hay: &[u8],
    folded: Option<&Folded<'_>>,
    found: &mut Vec<Finding<'a>>,
) {
    let written = |s: usize, e: usize| folded.map_or(Span::new(s, e), |f| f.written_span(s, e));
    let mut dialogue: [Vec<Span>; 2] = [Vec::new(), Vec::new()];
    let mut start = 0;
    while start < hay.len() {
        let end = memchr::memchr(b'\n', &hay[start..]).map_or(hay.len(), |i| start + i);
        if let Some((marker, at, len)) = line_marker(&hay[start..end]) {
            let span = written(start + at, start + at + len);
            match marker {
                Marker::Turn => push_new(found, &INJECTION_PHRASE, bytes, span),
                Marker::User => dialogue[0].push(span),
                Marker::Assistant => dialogue[1].push(span),
            }
        }
        start = end + 1;
    }
    for i in memchr::memchr_iter(b'<', hay) {
        if let Some(tag) = TAGS.iter().find(|t| starts_with_ignore_case(&hay[i..], t)) {
            push_new(found, &INJECTION_PHRASE, bytes, written(i, i + tag.len()));
        }
    }
    if dialogue.iter().all(|d| !d.is_empty()) {
        for span in dialogue.into_iter().flatten() {
            found.push(Finding {
                rule: &INJECTION_PHRASE,
                span,
                text: &bytes[span.start..span.end],
            });
        }
    }
}

/// A URL as a prompt writes it: from `http://` or `https://` to the first white space or
/// character that ends a URL in prose (`)`, `>`, `"`, `'`, `]`, `` ` ``).
fn url_regex() -> &'static regex::Regex {
    static RE: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r#"(?i)https?://[^\s)>"'\]`]*"#).expect("url regex"));
    &RE
}

/// The `url-placeholder` warning of a prompt (`bytes`, judged when they are UTF-8): its first
/// placeholder inside a URL or a Markdown link or image destination. A prompt without `://`
/// (every URL holds it) and without a destination has none: it is not looked at further.
pub(crate) fn url_placeholder(
    path: &str,
    bytes: &[u8],
    md: Option<&Markdown>,
) -> Option<Diagnostic> {
    let destinations = md.map_or(&[][..], |m| m.destinations.as_slice());
    let has_url = memchr::memmem::find(bytes, b"://").is_some();
    if !has_url && destinations.is_empty() {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let urls: Vec<Span> = (has_url
        .then(|| url_regex().find_iter(text))
        .into_iter()
        .flatten())
    .map(|m| Span::new(m.start(), m.end()))
    .chain(destinations.iter().copied())
    .collect();
    let p = placeholders(text).into_iter().find(|p| {
        urls.iter()
            .any(|u| u.start <= p.span.start && p.span.end <= u.end)
    })?;
    let written = &text[p.span.start..p.span.end];
    Some(Diagnostic::at(
        &URL_PLACEHOLDER,
        path,
        p.span,
        format!("{written} inside a URL"),
    ))
}

#[cfg(test)]
mod tests;
