//! Content warnings: injection-shaped phrases, URLs, shell-shaped text and encoded-looking runs
//! in every file outside `tests/` except `README.md` and `LICENSE*` (docs/checks.md).
//!
//! Cost: one search of one compiled regex over each file's bytes finds the phrases, URLs and
//! shell text together (the regex engine's literal prefilter and lazy DFA do the scanning), and
//! one byte loop finds the encoded runs. Nothing is allocated per byte; a finding allocates its
//! message only when its text is new for the file.

use super::declare::declare_rules;
use super::text::TextScan;
use crate::core::Rule;
use crate::core::{Diagnostic, Span};
use crate::model::decode::{Format, View, css_urls};
use crate::pack::PackFile;
use std::sync::LazyLock;

declare_rules! {
    /// Text shaped like a prompt injection
    ///
    /// Phrases such as "ignore all previous instructions", "never reject", "always confirm", "you
    /// are now", their close variants (ignore prior/above instructions, disregard all previous
    /// instructions, forget your instructions, always approve, never refuse, do not tell the user,
    /// reveal your system prompt) and chat-template markers such as <|im_start|> are how an
    /// attacker steers a model or a reviewer. Matched case-insensitively, with any white space
    /// between the words; the warning quotes the text as written, once per file and distinct text,
    /// at its first occurrence. A warning is for whoever decides whether to trust the pack.
    ///
    /// How to fix: Reword the text, even when you are quoting it as a thing to reject: describe the
    /// kind of instruction instead of writing it.
    pub static INJECTION_PHRASE = "injection-phrase", Warning, Medium, security_severity = "7.0";

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
    pub static URL_OUTSIDE_README = "url-outside-readme", Warning, High, security_severity = "3.0";

    /// Text shaped like a shell command
    ///
    /// curl , wget , a pipe into sh or bash (| sh, |bash), rm -rf (or rm -fr), chmod +x, sudo  and
    /// base64 -d (or --decode). A pack's text goes to a model that may have tools; a command in it
    /// is an invitation to run it. Matched case-insensitively; the warning quotes the text as
    /// written, once per file and distinct text, at its first occurrence.
    ///
    /// How to fix: Describe the command in words instead of writing it.
    pub static SHELL_TEXT = "shell-text", Warning, Medium, security_severity = "6.0";

    /// A long run of encoded-looking characters
    ///
    /// 120 or more letters, digits, +, / or = in a row look like base64 or another encoding, which
    /// can hide an instruction or a payload from a person reading the pack while a model decodes
    /// it. Reported once per file, at the first run, with its length.
    ///
    /// How to fix: Remove the run, or write what it encodes in plain words.
    pub static ENCODED_RUN = "encoded-run", Warning, Medium, security_severity = "5.0";
}

/// The shortest run of `[A-Za-z0-9+/=]` reported.
pub const ENCODED_MIN: usize = 120;

/// One regex for the three phrase families, one named group each. Words are separated by any
/// white space (a phrase may wrap across lines); word boundaries are ASCII ones, which keep the
/// whole search in the lazy DFA.
const PATTERN: &str = r"(?xi)
(?P<inj>
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
)
| (?P<url>(?-u:\b)https?://)
| (?P<shell>
    (?-u:\b)(?:curl|wget|sudo)[\x20\t]
  | \|[\x20\t]*(?:sudo[\x20\t]+)?(?:ba)?sh(?-u:\b)
  | (?-u:\b)rm[\x20\t]+-(?:rf|fr)(?-u:\b)
  | (?-u:\b)chmod[\x20\t]+\+x(?-u:\b)
  | (?-u:\b)base64[\x20\t]+(?:-d|--decode)(?-u:\b)
)";

fn regex() -> &'static regex::bytes::Regex {
    static RE: LazyLock<regex::bytes::Regex> =
        LazyLock::new(|| regex::bytes::Regex::new(PATTERN).expect("content regex"));
    &RE
}

/// Whether the content rules look at a file: outside `tests/`, not `README.md`, not `LICENSE*`.
pub fn applies_to(path: &str) -> bool {
    !(path.starts_with("tests/")
        || path == "README.md"
        || (!path.contains('/') && path.starts_with("LICENSE")))
}

/// One finding of [`scan`]: the rule, where, and the text as written (empty for URL and runs).
#[derive(Debug, Clone, PartialEq)]
pub struct Finding<'a> {
    pub rule: &'static Rule,
    pub span: Span,
    pub text: &'a [u8],
}

/// The content findings of one text, one per rule and distinct text (URL and encoded run: one
/// per text), each at its first occurrence, in order of position within each rule. Phrases, URLs
/// and shell text are matched with every invisible and ignorable character removed (so a soft
/// hyphen cannot split "ignore all previous instructions"), located and quoted as written.
pub fn scan(bytes: &[u8]) -> Vec<Finding<'_>> {
    scan_stripped(bytes, strip_hidden(bytes))
}

/// [`scan`], given the text with its hidden characters removed and each kept byte's offset
/// (`None`: there is none to remove), as [`strip_hidden`] or [`strip_spans`] make it.
pub fn scan_stripped(bytes: &[u8], stripped: Option<(Vec<u8>, Vec<usize>)>) -> Vec<Finding<'_>> {
    let mut found: Vec<Finding<'_>> = Vec::new();
    let (haystack, map) = match &stripped {
        Some((text, map)) => (text.as_slice(), Some(map.as_slice())),
        None => (bytes, None),
    };
    // A span of the haystack as a span of the text as written.
    let written = |start: usize, end: usize| match map {
        None => Span::new(start, end),
        Some(m) => Span::new(m[start], m[end - 1] + 1),
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

/// The text without its invisible and ignorable characters, and for each byte kept its offset in
/// the text as written; `None` when there is none to remove (the usual case, found without
/// decoding when the text is plain ASCII). A byte that is not UTF-8 is kept as it is.
pub fn strip_hidden(bytes: &[u8]) -> Option<(Vec<u8>, Vec<usize>)> {
    let ascii_hidden = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7F;
    let suspect = |b: &u8| *b >= 0x80 || ascii_hidden(*b);
    let first = bytes.iter().position(suspect)?;
    let hidden_at = |i: usize| -> Option<usize> {
        let b = bytes[i];
        if b < 0x80 {
            return ascii_hidden(b).then_some(1);
        }
        let end = (i + 4).min(bytes.len());
        let chunk = bytes[i..end].utf8_chunks().next()?;
        let c = chunk.valid().chars().next()?;
        crate::core::is_hidden(c).then(|| c.len_utf8())
    };
    // Nothing to remove: no copy.
    let mut i = first;
    let mut any = false;
    while i < bytes.len() {
        if hidden_at(i).is_some() {
            any = true;
            break;
        }
        i += 1;
    }
    if !any {
        return None;
    }
    let (mut text, mut map) = (
        Vec::with_capacity(bytes.len()),
        Vec::with_capacity(bytes.len()),
    );
    let mut i = 0;
    while i < bytes.len() {
        if let Some(len) = hidden_at(i) {
            i += len;
            continue;
        }
        text.push(bytes[i]);
        map.push(i);
        i += 1;
    }
    Some((text, map))
}

/// The text without the bytes of `spans` (sorted, not overlapping: the hidden runs the text
/// walk found), and for each byte kept its offset in the text as written; `None` when there is
/// none. The same as [`strip_hidden`] for a text that is UTF-8, without looking at its bytes
/// again.
pub fn strip_spans(bytes: &[u8], spans: &[Span]) -> Option<(Vec<u8>, Vec<usize>)> {
    if spans.is_empty() {
        return None;
    }
    let (mut text, mut map) = (
        Vec::with_capacity(bytes.len()),
        Vec::with_capacity(bytes.len()),
    );
    let mut at = 0;
    for s in spans
        .iter()
        .chain(std::iter::once(&Span::new(bytes.len(), bytes.len())))
    {
        let end = s.start.clamp(at, bytes.len());
        text.extend_from_slice(&bytes[at..end]);
        map.extend(at..end);
        at = s.end.clamp(end, bytes.len());
    }
    Some((text, map))
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
pub fn first_encoded_run(bytes: &[u8]) -> Option<Span> {
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
pub fn url_applies_to(path: &str) -> bool {
    !(path == "README.md" || (!path.contains('/') && path.starts_with("LICENSE")))
}

/// The content rules alone over every file: what the merged scan of [`super::scan`] is tested
/// against.
#[cfg(test)]
pub fn check(pack: &crate::pack::Pack, out: &mut Vec<Diagnostic>) {
    for f in &pack.files {
        let view = f
            .complete
            .then(|| crate::model::decode::view_bytes(&f.path, &f.bytes))
            .flatten();
        check_file(f, None, view.as_ref(), out);
    }
}

/// A finding located and quoted in the bytes as written, with its message.
struct Located {
    rule: &'static Rule,
    span: Span,
    message: String,
}

/// The content findings of one file. `text` is the text walk over its bytes when the file was
/// read whole: the characters matching leaves out are the hidden runs it found, so the bytes
/// are not looked at a second time for them. `view` is its decoded text when it has one: then
/// that is what is judged, each finding mapped back to the bytes as written and quoted there.
pub fn check_file(
    f: &PackFile,
    text: Option<&TextScan>,
    view: Option<&View>,
    out: &mut Vec<Diagnostic>,
) {
    let all = applies_to(&f.path);
    let hay = view.map_or(f.bytes.as_slice(), |v| v.text.as_bytes());
    let css = Format::of(&f.path) == Some(Format::Css);
    // Under tests/ only URLs count: a file without `://` (most transcripts) costs one byte
    // search, not the whole scan.
    let url_only = url_applies_to(&f.path) && (css || memchr::memmem::find(hay, b"://").is_some());
    if !all && !url_only {
        return;
    }
    let mut found: Vec<Located> = match view {
        None => {
            let stripped = match text {
                Some(t) if t.not_utf8.is_none() => strip_spans(&f.bytes, &t.hidden_spans()),
                // Bytes that are not UTF-8, or a cut file: the content rules find their own.
                _ => strip_hidden(&f.bytes),
            };
            // The bytes read: a file over its size limit is scanned as far as it was read.
            scan_stripped(&f.bytes, stripped)
                .into_iter()
                .map(|d| Located {
                    rule: d.rule,
                    span: d.span,
                    message: message(&d),
                })
                .collect()
        }
        Some(v) => scan(hay)
            .into_iter()
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
        if !all && finding.rule != &URL_OUTSIDE_README {
            continue;
        }
        out.push(Diagnostic::key(
            finding.rule,
            &f.path,
            finding.span,
            finding.message,
        ));
    }
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

#[cfg(test)]
mod tests;
