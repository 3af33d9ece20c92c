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

/// The targets of `url(...)` and `@import "..."` that are URLs: absolute (a scheme other than
/// `data:`) or protocol-relative (`//host/...`). Spans in `text`'s coordinates, at the target.
pub fn css_urls(text: &str) -> Vec<Span> {
    use std::sync::LazyLock;
    static RE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r#"(?i)(?:\burl\(\s*["']?|@import\s+["'])\s*(?P<target>//|[a-z][a-z0-9+.\-]*:)"#,
        )
        .expect("css url regex")
    });
    RE.captures_iter(text)
        .filter_map(|c| c.name("target"))
        .filter(|m| !m.as_str().eq_ignore_ascii_case("data:"))
        .map(|m| Span::new(m.start(), m.end()))
        .collect()
}
