//! TOML: the string tokens of the toml crate's own lexer, once the toml crate has parsed the
//! document, each basic string decoded with its offsets.

use super::view::{Escaped, View, hex_char};
use crate::model::toml_spans::{DeTable, Spanned};
use toml_parser::lexer::TokenKind;

/// The document with the escapes of its basic strings (keys, values, table headers, dotted
/// keys, array items, inline tables: every string token) decoded. `_doc` is the document as the
/// model parsed it (`model::Documents`): the string tokens are only trusted in a document the
/// toml crate accepted, so the decoder is handed the parse, never makes one. `None` on an escape
/// the toml crate would have refused.
pub(crate) fn toml_strings(text: &str, _doc: &Spanned<DeTable<'_>>) -> Option<View> {
    let mut view = View::with_capacity(text.len());
    let mut at = 0;
    for token in toml_parser::Source::new(text).lex() {
        let multi = match token.kind() {
            TokenKind::BasicString => false,
            TokenKind::MlBasicString => true,
            _ => continue,
        };
        let span = token.span();
        let (start, end) = (span.start(), span.end());
        let raw = &text[start..end];
        if memchr::memchr(b'\\', raw.as_bytes()).is_none() {
            continue;
        }
        let open = if multi {
            let after = start + 3;
            after + newline_at(text, after)
        } else {
            start + 1
        };
        let close = end - if multi { 3 } else { 1 };
        view.copy(text, at, open);
        let from = view.text.len();
        decode_basic(text, open, close, &mut view)?;
        debug_assert_eq!(
            &view.text[from..],
            parsers_value(raw, multi),
            "the decoded string {raw:?}"
        );
        at = close;
    }
    view.copy(text, at, text.len());
    Some(view)
}

/// The length of a line break at `i` (`\n` or `\r\n`), else 0.
fn newline_at(text: &str, i: usize) -> usize {
    let b = &text.as_bytes()[i.min(text.len())..];
    if b.starts_with(b"\n") {
        1
    } else if b.starts_with(b"\r\n") {
        2
    } else {
        0
    }
}

/// The toml crate's decoding of one string token.
pub(super) fn parsers_value(raw: &str, multi: bool) -> String {
    use toml_parser::decoder::Encoding;
    let encoding = if multi {
        Encoding::MlBasicString
    } else {
        Encoding::BasicString
    };
    let token = toml_parser::Raw::new_unchecked(
        raw,
        Some(encoding),
        toml_parser::Span::new_unchecked(0, raw.len()),
    );
    let mut out = String::new();
    let _ = token.decode_scalar(&mut out, &mut ());
    out
}

/// Decodes a basic string's body `text[from..to]` (between its quotes) into `view`; `None` on an
/// escape the toml crate would have refused.
fn decode_basic(text: &str, from: usize, to: usize, view: &mut View) -> Option<()> {
    let b = text.as_bytes();
    view.decode_body(text, from, to, |k| {
        let (len, c) = match *b.get(k + 1)? {
            b'b' => (2, '\u{8}'),
            b't' => (2, '\t'),
            b'n' => (2, '\n'),
            b'f' => (2, '\u{c}'),
            b'r' => (2, '\r'),
            b'e' => (2, '\u{1b}'),
            b'"' => (2, '"'),
            b'\\' => (2, '\\'),
            b'x' => (4, hex_char(text.get(k + 2..k + 4)?)?),
            b'u' => (6, hex_char(text.get(k + 2..k + 6)?)?),
            b'U' => (10, hex_char(text.get(k + 2..k + 10)?)?),
            b' ' | b'\t' | b'\r' | b'\n' => {
                return Some(Escaped::Resume(line_ending_backslash(b, k + 1, to)?));
            }
            _ => return None,
        };
        Some(Escaped::Char(len, c))
    })
}

/// After a multi-line string's line-ending backslash at `i - 1`: white space, a line break, then
/// every space, tab and line break up to the next other character, all dropped. Returns where the
/// text goes on.
fn line_ending_backslash(b: &[u8], mut i: usize, to: usize) -> Option<usize> {
    while i < to && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    match b.get(i..to.min(i + 2))? {
        [b'\n', ..] => i += 1,
        [b'\r', b'\n'] => i += 2,
        _ => return None,
    }
    while i < to {
        match b[i] {
            b' ' | b'\t' | b'\n' => i += 1,
            b'\r' if b.get(i + 1) == Some(&b'\n') => i += 2,
            _ => break,
        }
    }
    Some(i)
}
