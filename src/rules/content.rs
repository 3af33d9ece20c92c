//! Content warnings: injection-shaped phrases, URLs, shell-shaped text and encoded-looking runs
//! in every file outside `tests/`, URLs outside `README.md` and `LICENSE*` (docs/checks.md).
//!
//! Phrases, URLs and shell text are matched in the text folded (`core::fold`), so that how a
//! phrase is spelled (a U+2800 between its words, a Cyrillic `і`, fullwidth or mathematical
//! letters, a soft hyphen) does not hide it; findings are located and quoted as written.
//!
//! Cost: one search of one compiled regex over each file's bytes finds the phrases, URLs and
//! shell text together (the regex engine's literal prefilter and lazy DFA do the scanning), and
//! one byte loop finds the encoded runs. A file of plain ASCII, or one whose every character
//! folds to itself, is searched as it is; only a file that folding changes is copied, with one
//! offset per byte. A finding allocates its message only when its text is new for the file.

use super::declare::declare_rules;
use super::text::TextScan;
use crate::core::Rule;
use crate::core::baseline::Occurrence;
use crate::core::fold::{Folded, fold};
use crate::core::{Diagnostic, Span};
use crate::model::decode::{Format, View, css_urls};
use crate::model::markdown::Markdown;
use crate::pack::PackFile;
use crate::pack::place::Place;
use std::sync::LazyLock;

declare_rules! {
    /// Text shaped like a prompt injection
    ///
    /// Phrases such as "ignore all previous instructions", "never reject", "always confirm", "you
    /// are now", their close variants (ignore prior/above instructions, disregard all previous
    /// instructions, forget your instructions, always approve, never refuse, do not tell the user,
    /// reveal your system prompt) and chat-template markers such as <|im_start|>, [INST] and <<SYS>>
    /// are how an attacker steers a model or a reviewer. Matched case-insensitively, with any white
    /// space between the words, in the text as written, in a Markdown file's rendered text as well
    /// (emphasis and inline comments removed, character references decoded: *ignore* all
    /// previous), and with combining marks folded (each character decomposed, its marks dropped,
    /// small capitals and look-alike letters read as their letters: ignore all prévious
    /// instructions). In prompts/ and personas/, a line that forges a turn or claims authority is
    /// one too: system: or human: (followed by a space) or ### Instruction: at the start of a line
    /// (after spaces and Markdown's #, >, - and *), user: and assistant: at the start of lines when
    /// the file has both (a forged dialogue: each such line is reported), and the tags <system>,
    /// </system>, <important> and </important> anywhere. The warning quotes the text as written,
    /// once per file and distinct text, at its first occurrence. A warning is for whoever decides
    /// whether to trust the pack.
    ///
    /// How to fix: Reword the text, even when you are quoting it as a thing to reject: describe the
    /// kind of instruction instead of writing it.
    pub(crate) static INJECTION_PHRASE = "injection-phrase", Warning, Medium, rank = 580, security_severity = "7.0";

    /// A URL in a file other than the README or licence
    ///
    /// http:// or https:// in any file but README.md and LICENSE*, and in theme.css a url() or
    /// @import naming an absolute or protocol-relative URL (//host/...; data: is not one). Prompts
    /// and personas should hold no links: a link in a prompt invites the model to fetch or cite
    /// something outside the evidence, and a link in a persona or pass file has no use. Strings are
    /// judged as their parser decodes them, so an escape cannot hide a URL. Reported once per file,
    /// at the first URL.
    ///
    /// How to fix: Remove the link; put references for people in README.md.
    pub(crate) static URL_OUTSIDE_README = "url-outside-readme", Warning, High, rank = 590, security_severity = "3.0";

    /// A placeholder inside a URL in a prompt
    ///
    /// A {{...}} placeholder inside a URL (http:// or https:// up to the first space) or inside a
    /// Markdown link or image destination ([x](u), ![x](u), [r]: u) in a prompt. hippo puts a
    /// multi-line UNTRUSTED block where the placeholder stands, which breaks the URL, and the
    /// validation of a reply refuses a URL that no cited turn holds; so the placeholder opens no
    /// channel, but it is a sign of intent: a URL built to carry the notes or the turns to another
    /// host. Reported once per file, at the first.
    ///
    /// How to fix: Remove the URL; a prompt needs no link.
    pub(crate) static URL_PLACEHOLDER = "url-placeholder", Warning, High, rank = 600, security_severity = "6.5", reported_in = "src/rules/content/reader.rs";

    /// Text shaped like a shell command
    ///
    /// curl , wget , a pipe into sh or bash (| sh, |bash, | /bin/sh, | /bin/bash, | env sh), rm -rf
    /// (or rm -fr), chmod +x, sudo  and base64 -d (or --decode). A pack's text goes to a model that
    /// may have tools; a command in it is an invitation to run it. Matched case-insensitively, in
    /// the text as written and in a Markdown file's rendered text; code spans and fences are text
    /// the model reads, so they count. A | that Markdown reads as a table-cell delimiter is not a
    /// pipe (| bash | ~/.bashrc | in a table of shells). The warning quotes the text as written,
    /// once per file and distinct text, at its first occurrence.
    ///
    /// How to fix: Describe the command in words instead of writing it.
    pub(crate) static SHELL_TEXT = "shell-text", Warning, Medium, rank = 610, security_severity = "6.0";

    /// A long run of encoded-looking characters
    ///
    /// 120 or more letters, digits, +, / or = in a row look like base64 or another encoding, which
    /// can hide an instruction or a payload from a person reading the pack while a model decodes
    /// it. Reported once per file, at the first run, with its length.
    ///
    /// How to fix: Remove the run, or write what it encodes in plain words.
    pub(crate) static ENCODED_RUN = "encoded-run", Warning, Medium, rank = 620, security_severity = "5.0";
}

/// The shortest run of `[A-Za-z0-9+/=]` reported.
pub(crate) const ENCODED_MIN: usize = 120;

/// The injection phrases: words separated by any white space (a phrase may wrap across lines);
/// word boundaries are ASCII ones, which keep the whole search in the lazy DFA.
const INJECTION: &str = r"
    (?-u:\b)(?:
        (?:ignore|disregard)\s+(?:all\s+)?(?:(?:the|your|any)\s+)?
            (?:previous|prior|above|earlier|preceding|former)\s+instructions
      | ignore\s+(?:all\s+)?your\s+instructions
      | forget\s+(?:all\s+)?(?:your|the|previous|prior)\s+instructions
      | never\s+(?:reject|refuse)
      | always\s+(?:confirm|approve)
      | you\s+are\s+now
      | (?:do\s+not|don't)\s+tell\s+the\s+user
      | reveal\s+your\s+system\s+prompt
    )(?-u:\b)
  | <\|[a-z0-9_]{1,32}\|>
  | \[/?INST\]
  | <</?SYS>>
";

/// The URL and shell families.
const URL_AND_SHELL: &str = r"
| (?P<url>(?-u:\b)https?://)
| (?P<shell>
    (?-u:\b)(?:curl|wget|sudo)[\x20\t]
  | \|[\x20\t]*(?:sudo[\x20\t]+)?(?:(?:/usr)?/bin/)?(?:ba)?sh(?-u:\b)
  | \|[\x20\t]*(?:sudo[\x20\t]+)?(?:(?:/usr)?/bin/)?env[\x20\t]+(?:ba)?sh(?-u:\b)
  | (?-u:\b)rm[\x20\t]+-(?:rf|fr)(?-u:\b)
  | (?-u:\b)chmod[\x20\t]+\+x(?-u:\b)
  | (?-u:\b)base64[\x20\t]+(?:-d|--decode)(?-u:\b)
)";

/// One regex for the three phrase families, one named group each.
fn regex() -> &'static regex::bytes::Regex {
    static RE: LazyLock<regex::bytes::Regex> = LazyLock::new(|| {
        let pattern = format!("(?xi)\n(?P<inj>{INJECTION})\n{URL_AND_SHELL}");
        regex::bytes::Regex::new(&pattern).expect("content regex")
    });
    &RE
}

/// Whether the content rules look at a file: outside `tests/` (README.md and LICENSE* too: the
/// page's table exempts them from the URL warning only, and a registry's reviewers, people and
/// models, read the README).
pub(crate) fn applies_to(path: &str) -> bool {
    !path.starts_with("tests/")
}

/// One finding of [`scan`]: the rule, where, and the text as written (empty for URL and runs).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Finding<'a> {
    pub(crate) rule: &'static Rule,
    pub(crate) span: Span,
    pub(crate) text: &'a [u8],
}

/// The content findings of one text, one per rule and distinct text (URL and encoded run: one
/// per text), each at its first occurrence, in order of position within each rule. Phrases, URLs
/// and shell text are matched in the text folded (`core::fold`: hidden characters removed,
/// unusual spaces as spaces, fullwidth, mathematical and look-alike letters as ASCII), so neither
/// a soft hyphen nor a Cyrillic `і` hides "ignore all previous instructions"; they are located
/// and quoted as written.
pub(crate) fn scan(bytes: &[u8]) -> Vec<Finding<'_>> {
    scan_folded(bytes, fold(bytes).as_ref())
}

/// [`scan`], given the text folded (`None`: folding changes nothing).
pub(crate) fn scan_folded<'a>(bytes: &'a [u8], folded: Option<&Folded<'_>>) -> Vec<Finding<'a>> {
    let mut found: Vec<Finding<'_>> = Vec::new();
    let haystack = folded.as_ref().map_or(bytes, |f| f.text.as_slice());
    // A span of the haystack as a span of the text as written.
    let written = |start: usize, end: usize| match folded {
        None => Span::new(start, end),
        Some(f) => f.written_span(start, end),
    };
    let mut url_seen = false;
    for caps in regex().captures_iter(haystack) {
        let (rule, m) = if let Some(m) = caps.name("inj") {
            (&INJECTION_PHRASE, m)
        } else if let Some(m) = caps.name("shell") {
            (&SHELL_TEXT, m)
        } else if let Some(m) = caps.name("url") {
            if url_seen {
                continue;
            }
            url_seen = true;
            (&URL_OUTSIDE_README, m)
        } else {
            continue;
        };
        let span = written(m.start(), m.end());
        let text = &bytes[span.start..span.end];
        if found.iter().any(|f| f.rule == rule && f.text == text) {
            continue;
        }
        found.push(Finding { rule, span, text });
    }
    if let Some(span) = first_encoded_run(bytes) {
        found.push(Finding {
            rule: &ENCODED_RUN,
            span,
            text: &bytes[span.start..span.end],
        });
    }
    found
}

/// `[A-Za-z0-9+/=]` as a table.
static ENCODED: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'+' || c == b'/' || c == b'=';
        b += 1;
    }
    t
};

/// The first run of at least [`ENCODED_MIN`] of `[A-Za-z0-9+/=]`.
///
/// Skips ahead as a Boyer-Moore search does: for a run to start at `start`, every byte up to
/// `start + ENCODED_MIN - 1` must be in the class, so the window is checked from its far end
/// backwards, and the first byte outside the class moves `start` past it. In prose that reads a
/// few bytes per window instead of every byte.
pub(crate) fn first_encoded_run(bytes: &[u8]) -> Option<Span> {
    let mut start = 0;
    'windows: while start + ENCODED_MIN <= bytes.len() {
        for j in (start..start + ENCODED_MIN).rev() {
            if !ENCODED[bytes[j] as usize] {
                start = j + 1;
                continue 'windows;
            }
        }
        let end = bytes[start + ENCODED_MIN..]
            .iter()
            .position(|&b| !ENCODED[b as usize])
            .map_or(bytes.len(), |i| start + ENCODED_MIN + i);
        return Some(Span::new(start, end));
    }
    None
}

fn message(f: &Finding<'_>) -> String {
    message_of(f.rule, f.text, f.span.end - f.span.start)
}

/// The message of a finding quoting `text`; `len` is the length of the run it judged.
fn message_of(rule: &Rule, text: &[u8], len: usize) -> String {
    let text = || String::from_utf8_lossy(text);
    if rule == &INJECTION_PHRASE {
        format!("injection-shaped phrase \"{}\"", text())
    } else if rule == &SHELL_TEXT {
        format!("shell-shaped text \"{}\"", text())
    } else if rule == &URL_OUTSIDE_README {
        "a URL outside README.md".to_string()
    } else {
        format!("a run of {len} encoded-looking characters")
    }
}

/// Whether the URL warning looks at a file: any file but the README and the licence, under
/// `tests/` too (hippo's page "Writing a pack": "in any file but the README and LICENSE").
pub(crate) fn url_applies_to(path: &str) -> bool {
    !(path == "README.md" || (!path.contains('/') && path.starts_with("LICENSE")))
}

/// The content rules alone over every file: what the merged scan of [`super::scan`] is tested
/// against.
#[cfg(test)]
pub(crate) fn check(
    pack: &crate::pack::Pack,
    docs: &crate::model::Documents<'_>,
    out: &mut Vec<Diagnostic>,
) {
    for (i, (f, at)) in pack.files_placed().enumerate() {
        let at = at.map(|(place, _)| place);
        check_file(f, at, None, docs.view(i), docs.markdown(i), out);
    }
}

/// A finding located and quoted in the bytes as written, with its message.
struct Located {
    rule: &'static Rule,
    span: Span,
    message: String,
}

/// The content findings of one file; `place`: where it stands in a pass pack. `text` is the text walk over its bytes when the file was
/// read whole: a file of plain ASCII in which it found no hidden character folds to itself, so
/// it is searched as it is, without a second look at each byte for folding. `view` is its
/// decoded text when it has one: then that is what is folded and judged, each finding mapped
/// back to the bytes as written and quoted there. `md` is its Markdown reading when it is a
/// Markdown file: its rendered text is judged too, and its table-cell delimiters are no pipes.
pub(crate) fn check_file(
    f: &PackFile,
    place: Option<Place>,
    text: Option<&TextScan>,
    view: Option<&View>,
    md: Option<&Markdown>,
    out: &mut Vec<Diagnostic>,
) {
    let all = applies_to(&f.path);
    let urls = url_applies_to(&f.path);
    if !all && !urls {
        return;
    }
    let hay = view.map_or(f.bytes.as_slice(), |v| v.text.as_bytes());
    let css = Format::of(&f.path) == Some(Format::Css);
    let plain = view.is_none()
        && text.is_some_and(|t| !t.non_ascii && t.invisible.is_empty() && t.ignorable.is_empty());
    let folded = if plain { None } else { fold(hay) };
    // Under tests/ only URLs count: a file without `://` once folded (most transcripts) costs a
    // byte search, not the whole scan.
    let searched = folded.as_ref().map_or(hay, |x| x.text.as_slice());
    if !all && !css && memchr::memmem::find(searched, b"://").is_none() {
        return;
    }
    // The bytes read: a file over its size limit is scanned as far as it was read.
    let mut found = scan_folded(hay, folded.as_ref());
    if all {
        found.retain(|f| !reader::is_table_pipe(md, f));
        if !plain {
            reader::marks_findings(hay, &mut found);
        }
        if let Some(md) = md {
            reader::rendered_findings(hay, md, &mut found);
        }
        if matches!(place, Some(Place::Prompt | Place::Persona)) {
            reader::marker_findings(hay, searched, folded.as_ref(), &mut found);
        }
        if place == Some(Place::Prompt) {
            out.extend(reader::url_placeholder(&f.path, hay, md));
        }
    }
    let found = found.into_iter();
    let mut found: Vec<Located> = match view {
        None => found
            .map(|d| Located {
                rule: d.rule,
                span: d.span,
                message: message(&d),
            })
            .collect(),
        Some(v) => found
            .map(|d| {
                let span = v.raw_span(d.span);
                let written = &f.bytes[span.start..span.end];
                Located {
                    rule: d.rule,
                    span,
                    message: message_of(d.rule, written, d.span.end - d.span.start),
                }
            })
            .collect(),
    };
    if css {
        css_url(f, view, &mut found);
    }
    for finding in found {
        let url = finding.rule == &URL_OUTSIDE_README;
        if (url && !urls) || (!url && !all) {
            continue;
        }
        let mut d = Diagnostic::key(finding.rule, &f.path, finding.span, finding.message);
        if url {
            d.occurrences = url_occurrences(hay, view, css);
        }
        out.push(d);
    }
}

/// A URL as the occurrences of the URL warning quote it: the scheme up to the first white
/// space, quote, bracket or backtick (a full stop or comma that ends it dropped).
fn url_text_regex() -> &'static regex::bytes::Regex {
    static RE: LazyLock<regex::bytes::Regex> = LazyLock::new(|| {
        regex::bytes::Regex::new(r#"(?i)https?://[^\s"'<>()\[\]{}`]*"#).expect("url regex")
    });
    &RE
}

/// Every URL of a file with a URL warning, in file order (and a style sheet's `url()` and
/// `@import` ones), located in the bytes as written: what a pull request's review labels one by
/// one (docs/action.md, "The review"). `hay` is the text judged (the decoded view, else the
/// bytes).
fn url_occurrences(hay: &[u8], view: Option<&View>, css: bool) -> Vec<Occurrence> {
    let raw = |span: Span| view.map_or(span, |v| v.raw_span(span));
    let mut out: Vec<(Span, String)> = url_text_regex()
        .find_iter(hay)
        .map(|m| {
            // A sentence's full stop or comma after a URL is not part of it.
            let end = m.start()
                + m.as_bytes()
                    .iter()
                    .rposition(|b| !b".,;:!?".contains(b))
                    .map_or(0, |i| i + 1);
            let m = &hay[m.start()..end];
            let start = end - m.len();
            let text = String::from_utf8_lossy(m);
            let masked = crate::secrets::redact(&text).text.into_owned();
            (raw(Span::new(start, end)), masked)
        })
        .collect();
    if css && let Ok(text) = std::str::from_utf8(hay) {
        for span in css_urls(text) {
            let shown = text
                .get(span.start..span.end)
                .unwrap_or_default()
                .to_string();
            if !out.iter().any(|(s, _)| *s == raw(span)) {
                out.push((raw(span), shown));
            }
        }
        out.sort_by_key(|(s, _)| s.start);
    }
    out.into_iter()
        .map(|(span, text)| Occurrence {
            span,
            region: Default::default(),
            text,
            baseline: None,
        })
        .collect()
}

/// A style sheet's first `url()` or `@import` naming an absolute or protocol-relative URL is its
/// URL warning when it comes before the first `http://` or `https://` (one warning a file).
fn css_url(f: &PackFile, view: Option<&View>, found: &mut Vec<Located>) {
    let first = match view {
        Some(v) => css_urls(&v.text).first().map(|s| v.raw_span(*s)),
        None => std::str::from_utf8(&f.bytes)
            .ok()
            .and_then(|t| css_urls(t).first().copied()),
    };
    let Some(span) = first else {
        return;
    };
    let url = found.iter_mut().find(|l| l.rule == &URL_OUTSIDE_README);
    match url {
        Some(l) if l.span.start <= span.start => {}
        Some(l) => l.span = span,
        None => found.push(Located {
            rule: &URL_OUTSIDE_README,
            span,
            message: message_of(&URL_OUTSIDE_README, b"", 0),
        }),
    }
}

mod reader;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod spellings;
