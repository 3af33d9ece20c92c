//! CSS: `theme.css` with its escapes decoded (CSS Syntax Level 3, "Consume an escaped code
//! point"), and the URLs its `url()` and `@import` name.
//!
//! `\` and one to six hex digits, with one white space character after them, is that code point
//! (zero, a surrogate or one past U+10FFFF is U+FFFD); `\` and any other character but a line
//! break is that character; inside a string `\` and a line break is a continuation (nothing);
//! comments are as written.

use super::view::{View, hex};
use crate::core::Span;

/// The style sheet with its escapes decoded, outside comments.
pub fn css_escapes(text: &str) -> View {
    let b = text.as_bytes();
    let mut view = View::default();
    let (mut at, mut i) = (0, 0);
    let mut quote: Option<u8> = None;
    while i < b.len() {
        match b[i] {
            b'/' if quote.is_none() && b.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&b[i + 2..], b"*/").map_or(b.len(), |k| i + 2 + k + 2);
            }
            q @ (b'"' | b'\'') if quote.is_none() => {
                quote = Some(q);
                i += 1;
            }
            q if quote == Some(q) => {
                quote = None;
                i += 1;
            }
            b'\n' | b'\r' | b'\x0C' if quote.is_some() => {
                // An unescaped line break ends a string (a bad string).
                quote = None;
                i += 1;
            }
            b'\\' => {
                let (len, c) = escape(text, i, quote.is_some());
                if len == 0 {
                    i += 1;
                    continue;
                }
                view.copy(text, at, i);
                if let Some(c) = c {
                    view.escape(c, Span::new(i, i + len));
                }
                i += len;
                at = i;
            }
            _ => i += 1,
        }
    }
    view.copy(text, at, b.len());
    view
}

/// The escape at the backslash `i`: its length and the character it decodes to (`None`: a
/// string's line continuation); length 0 when the backslash is no escape.
fn escape(text: &str, i: usize, in_string: bool) -> (usize, Option<char>) {
    let b = text.as_bytes();
    let Some(&next) = b.get(i + 1) else {
        return (0, None);
    };
    if matches!(next, b'\n' | b'\r' | b'\x0C') {
        if !in_string {
            return (0, None);
        }
        let len = if b[i + 1..].starts_with(b"\r\n") {
            3
        } else {
            2
        };
        return (len, None);
    }
    if next.is_ascii_hexdigit() {
        let digits = b[i + 1..]
            .iter()
            .take(6)
            .take_while(|d| d.is_ascii_hexdigit())
            .count();
        let code = hex(&text[i + 1..i + 1 + digits]).unwrap_or(0);
        let mut len = 1 + digits;
        if b[i + len..].starts_with(b"\r\n") {
            len += 2;
        } else if matches!(b.get(i + len), Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0C')) {
            len += 1;
        }
        let c = match char::from_u32(code) {
            Some(c) if code != 0 => c,
            _ => char::REPLACEMENT_CHARACTER,
        };
        return (len, Some(c));
    }
    match text[i + 1..].chars().next() {
        Some(c) => (1 + c.len_utf8(), Some(c)),
        None => (0, None),
    }
}

/// The targets of `url(...)`, `@import "..."` and the strings of `image-set(...)` that are URLs
/// once the WHATWG URL standard parses them, as a browser does: relative to a style sheet's own
/// address, a target is a URL when it leaves that host (`//host/...`, and `/\host/...`, since a
/// backslash is a slash in a URL of the web's schemes; leading spaces and tabs or line breaks
/// inside are dropped first) or names a scheme of its own other than `data:`. Spans in `text`'s
/// coordinates (the decoded text, so `\5c` is the backslash it spells), from the target's
/// first character over its scheme or its leading slashes.
pub fn css_urls(text: &str) -> Vec<Span> {
    targets(text)
        .into_iter()
        .filter(|t| leaves_the_sheet(&text[t.start..t.end]))
        .map(|t| {
            let target = &text[t.start..t.end];
            // The spaces and controls the URL parser drops from the start are no part of it.
            let trimmed = target.trim_start_matches(|c: char| c <= ' ');
            let start = t.start + (target.len() - trimmed.len());
            Span::new(start, start + head_len(trimmed).max(1).min(trimmed.len()))
        })
        .collect()
}

/// Where a style sheet stands, for parsing its targets as a browser does.
const SHEET: &str = "https://theme.invalid/theme.css";

/// Whether a target, parsed against the style sheet's address, names another host or a scheme
/// of its own (not `data:`).
fn leaves_the_sheet(target: &str) -> bool {
    let Ok(base) = url::Url::parse(SHEET) else {
        return false;
    };
    match base.join(target) {
        Ok(u) => u.scheme() != "data" && (u.scheme() != base.scheme() || u.host() != base.host()),
        // A target a browser cannot parse loads nothing; one that starts like a host or a
        // scheme is still written as a URL.
        Err(_) => head_len(target) > 0,
    }
}

/// The length of a target's scheme and colon (`https:`), or of its leading slashes and
/// backslashes (`//`, `/\`); 0 for neither.
fn head_len(target: &str) -> usize {
    let b = target.as_bytes();
    let slashes = b.iter().take_while(|&&c| c == b'/' || c == b'\\').count();
    if slashes >= 2 {
        return slashes;
    }
    let scheme = match b.first() {
        Some(c) if c.is_ascii_alphabetic() => b
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'.' | b'-'))
            .count(),
        _ => 0,
    };
    if scheme > 0 && b.get(scheme) == Some(&b':') {
        scheme + 1
    } else {
        0
    }
}

/// Every target a style sheet loads: the argument of each `url(`, the string after each
/// `@import`, and each string inside `image-set(` (and `-webkit-image-set(`); spans of the
/// target without its quotes and the spaces around it.
fn targets(text: &str) -> Vec<Span> {
    use std::sync::LazyLock;
    static RE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"(?i)\burl\(|@import\s*["']|\bimage-set\("#).expect("css target regex")
    });
    let b = text.as_bytes();
    let mut out = Vec::new();
    for m in RE.find_iter(text) {
        let lower = m.as_str().to_ascii_lowercase();
        if lower.starts_with("image-set") {
            out.extend(set_strings(text, m.end()));
        } else if lower.starts_with("@import") {
            let quote = b[m.end() - 1];
            out.push(string_at(text, m.end(), quote));
        } else {
            out.push(url_argument(text, m.end()));
        }
    }
    out
}

/// The argument of a `url(` whose parenthesis ends at `i`: a quoted string's text, or the
/// unquoted text up to `)` or white space.
fn url_argument(text: &str, i: usize) -> Span {
    let b = text.as_bytes();
    let start = i + b[i..]
        .iter()
        .take_while(|c| c.is_ascii_whitespace())
        .count();
    match b.get(start) {
        Some(&q @ (b'"' | b'\'')) => string_at(text, start + 1, q),
        _ => {
            let end = b[start..]
                .iter()
                .position(|&c| c == b')' || c.is_ascii_whitespace())
                .map_or(b.len(), |k| start + k);
            Span::new(start, end)
        }
    }
}

/// A string's text from `start` (after its opening quote) to its closing quote or line break.
fn string_at(text: &str, start: usize, quote: u8) -> Span {
    let b = text.as_bytes();
    let end = b[start..]
        .iter()
        .position(|&c| c == quote || c == b'\n')
        .map_or(b.len(), |k| start + k);
    Span::new(start, end)
}

/// The strings inside an `image-set(` whose parenthesis ends at `i`, up to its closing
/// parenthesis (a `url()` inside it is found as any other).
fn set_strings(text: &str, i: usize) -> Vec<Span> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let (mut k, mut depth) = (i, 1usize);
    while k < b.len() && depth > 0 {
        match b[k] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            q @ (b'"' | b'\'') if depth == 1 => {
                let s = string_at(text, k + 1, q);
                out.push(s);
                k = s.end;
            }
            _ => {}
        }
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        css_urls(text)
            .iter()
            .map(|s| &text[s.start..s.end])
            .collect()
    }

    #[test]
    fn a_backslash_is_a_slash_as_a_browser_reads_it() {
        // Decoded text: `url("/\\evil")` and `url(/\5c evil)` both reach here as `/\evil`.
        assert_eq!(found("a { b: url(\"/\\evil.example/x\") }"), ["/\\"]);
        assert_eq!(found("a { b: url(/\\evil.example/x) }"), ["/\\"]);
        assert_eq!(found("a { b: url(\\\\evil.example/x) }"), ["\\\\"]);
        assert_eq!(found("a { b: url(\" //evil.example\") }"), ["//"]);
        assert_eq!(found("a { b: url(\"/\t/evil.example\") }"), ["/"]);
        assert_eq!(found("a { b: url(JavaScript:alert(1)) }"), ["JavaScript:"]);
        // Controls: paths on the sheet's own host, and data:.
        for fine in [
            "a { b: url(img/x.png) }",
            "a { b: url(/img/x.png) }",
            "a { b: url(\"./\\img\\x.png\") }",
            "a { b: url(\"data:image/png;base64,AA\") }",
            "a { b: url(#frag) }",
        ] {
            assert!(found(fine).is_empty(), "{fine}");
        }
    }

    #[test]
    fn image_set_strings_are_targets() {
        let text = "a { b: image-set(\"x.png\" 1x, \"//evil.example/y.png\" 2x); c: -webkit-image-set(url(https://h/z.png) 1x) }";
        assert_eq!(found(text), ["//", "https:"]);
        assert!(found("a { b: image-set(\"x.png\" 1x, 'y.png' 2x) }").is_empty());
        // control: a string outside image-set() loads nothing
        assert!(found("a { content: \"//evil.example\" }").is_empty());
    }
}
