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

/// The injection phrases alone, for the text with marks folded (the shell set keeps accents).
fn injection_regex() -> &'static regex::bytes::Regex {
    static RE: LazyLock<regex::bytes::Regex> = LazyLock::new(|| {
        let pattern = format!("(?xi){}", super::INJECTION);
        regex::bytes::Regex::new(&pattern).expect("injection regex")
    });
    &RE
}

/// The findings of `found`'s rules that `bytes` folded with marks dropped adds: injection
/// phrases only, located and quoted as written.
pub(super) fn marks_findings<'a>(bytes: &'a [u8], found: &mut Vec<Finding<'a>>) {
    let Some(folded) = fold_marks(bytes) else {
        return;
    };
    for m in injection_regex().find_iter(&folded.text) {
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

/// The injection, shell and URL findings of the rendered text that the text as written does not
/// hold (a URL only when the file has none yet) (`*ignore* all previous`, `ig<!-- -->nore`, `&#105;gnore`), located at the bytes they
/// were rendered from and quoted there.
pub(super) fn rendered_findings<'a>(bytes: &'a [u8], md: &Markdown, found: &mut Vec<Finding<'a>>) {
    let rendered = &md.rendered;
    let mut url_seen = found.iter().any(|f| f.rule == &URL_OUTSIDE_README);
    for f in scan(rendered.text.as_bytes()) {
        if f.rule == &URL_OUTSIDE_README {
            if url_seen {
                continue;
            }
            url_seen = true;
        } else if f.rule != &INJECTION_PHRASE && f.rule != &SHELL_TEXT {
            continue;
        }
        let span = rendered.source_span(f.span.start, f.span.end);
        if span.end <= bytes.len() && span.start < span.end {
            push_new(found, f.rule, bytes, span);
        }
    }
    // The rendered text with its marks folded: injection phrases only.
    if !rendered.text.is_ascii() {
        let mut marked = Vec::new();
        marks_findings(rendered.text.as_bytes(), &mut marked);
        for f in marked {
            let span = rendered.source_span(f.span.start, f.span.end);
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

/// The line-start markers of a forged turn or a claim of authority, and the tags anywhere.
const MARKERS: &str = r"(?xim)
^[\x20\t]*(?:[>*\-][\x20\t]*)*
(?:
    (?:\#+[\x20\t]*)?(?P<turn>(?:system|human):)[\x20\t]
  | (?P<alpaca>\#\#\#[\x20\t]*instruction:)
  | (?:\#+[\x20\t]*)?(?P<user>user:)
  | (?:\#+[\x20\t]*)?(?P<assistant>assistant:)
)
| (?P<tag></?(?:system|important)>)
";

fn markers_regex() -> &'static regex::bytes::Regex {
    static RE: LazyLock<regex::bytes::Regex> =
        LazyLock::new(|| regex::bytes::Regex::new(MARKERS).expect("markers regex"));
    &RE
}

/// The markers of a prompt or persona (the text folded as the phrases are): `system:`,
/// `human:`, `### Instruction:` at a line's start, `<system>` and `<important>` anywhere, once per
/// distinct text; `user:` and `assistant:` at a line's start only when the file has both, every
/// one of them (a forged dialogue).
pub(super) fn marker_findings<'a>(
    bytes: &'a [u8],
    hay: &[u8],
    folded: Option<&Folded<'_>>,
    found: &mut Vec<Finding<'a>>,
) {
    let written = |s: usize, e: usize| folded.map_or(Span::new(s, e), |f| f.written_span(s, e));
    let mut dialogue: [Vec<Span>; 2] = [Vec::new(), Vec::new()];
    for caps in markers_regex().captures_iter(hay) {
        if let Some(m) = caps.name("user") {
            dialogue[0].push(written(m.start(), m.end()));
        } else if let Some(m) = caps.name("assistant") {
            dialogue[1].push(written(m.start(), m.end()));
        } else if let Some(m) = ["turn", "alpaca", "tag"].iter().find_map(|n| caps.name(n)) {
            push_new(found, &INJECTION_PHRASE, bytes, written(m.start(), m.end()));
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

/// The `url-placeholder` warning of a prompt: its first placeholder inside a URL or a Markdown
/// link or image destination.
pub(crate) fn url_placeholder(path: &str, text: &str, md: Option<&Markdown>) -> Option<Diagnostic> {
    let urls: Vec<Span> = url_regex()
        .find_iter(text)
        .map(|m| Span::new(m.start(), m.end()))
        .chain(md.into_iter().flat_map(|m| m.destinations.iter().copied()))
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
