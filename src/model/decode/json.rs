//! JSON: documents serde_json accepts, each string decoded with its offsets.
//!
//! In a document serde_json accepts, a string starts at every quote outside a string and ends
//! at the next quote that no backslash escapes: no other JSON token holds a quote, so once the
//! parser has accepted the text, finding the strings is no second reading of it.

use super::view::{Escaped, View, hex, hex_char};

/// The document with the escapes of its strings (keys and values) decoded. `text` is a
/// document serde_json accepted: the model's parse said so (`model::json::accepted`, in
/// `model::Documents`); the decoder never parses. `None` on an escape serde_json would have
/// refused.
pub(crate) fn json_strings(text: &str) -> Option<View> {
    let mut view = View::with_capacity(text.len());
    decode_document(text, 0, text.len(), &mut view)?;
    Some(view)
}

/// One JSON document a line: each line that holds a backslash and that serde_json accepted
/// (`accepted` of its 0-based number, as the model's parse of the file answers it) has its
/// strings decoded; the other lines are as written. `None` when no line was decoded.
pub(crate) fn jsonl_strings(text: &str, accepted: impl Fn(usize) -> bool) -> Option<View> {
    let mut view = View::with_capacity(text.len());
    let mut decoded = false;
    let mut start = 0;
    let mut number = 0;
    while start < text.len() {
        let end =
            memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i + 1);
        let line = &text[start..end];
        let here = number;
        number += 1;
        if memchr::memchr(b'\\', line.as_bytes()).is_some() && accepted(here) {
            // Decoded straight into the file's view; a line that turns out not to decode is
            // taken back and copied as written.
            let mark = view.mark();
            if decode_document(text, start, end, &mut view).is_some() {
                decoded = true;
            } else {
                view.rollback(mark);
                view.copy(text, start, end);
            }
        } else {
            view.copy(text, start, end);
        }
        start = end;
    }
    decoded.then_some(view)
}

/// Decodes the strings of the document `text[from..to]`, one serde_json accepted, into `view`.
fn decode_document(text: &str, from: usize, to: usize, view: &mut View) -> Option<()> {
    let b = text.as_bytes();
    let mut at = from;
    let mut i = from;
    while let Some(q) = memchr::memchr(b'"', &b[i..to]).map(|q| i + q) {
        // The closing quote: the next one no backslash escapes.
        let mut j = q + 1;
        let mut escaped = false;
        let close = loop {
            let k = j + memchr::memchr2(b'"', b'\\', b.get(j..to)?)?;
            if b[k] == b'\\' {
                escaped = true;
                j = k + 2;
            } else {
                break k;
            }
        };
        if escaped {
            view.copy(text, at, q + 1);
            let start = view.text.len();
            decode_string(text, q + 1, close, view)?;
            // serde_json refuses a lone surrogate in a string (read here as U+FFFD) though it
            // accepts one in a value it skips.
            if cfg!(debug_assertions)
                && let Some(value) = crate::model::json::string_value(&text[q..=close])
            {
                assert_eq!(
                    view.text[start..],
                    value,
                    "the decoded string {:?}",
                    &text[q..=close]
                );
            }
            at = close;
        }
        i = close + 1;
    }
    view.copy(text, at, to);
    Some(())
}

/// Decodes a string's body `text[from..to]` (between its quotes) into `view`.
fn decode_string(text: &str, from: usize, to: usize, view: &mut View) -> Option<()> {
    let b = text.as_bytes();
    view.decode_body(text, from, to, |k| {
        let (len, c) = match *b.get(k + 1)? {
            b'"' => (2, '"'),
            b'\\' => (2, '\\'),
            b'/' => (2, '/'),
            b'b' => (2, '\u{8}'),
            b'f' => (2, '\u{c}'),
            b'n' => (2, '\n'),
            b'r' => (2, '\r'),
            b't' => (2, '\t'),
            b'u' => unicode(text, k)?,
            _ => return None,
        };
        Some(Escaped::Char(len, c))
    })
}

/// A `\uXXXX` escape at `k`, or a surrogate pair of two: its length and character.
fn unicode(text: &str, k: usize) -> Option<(usize, char)> {
    let digits = text.get(k + 2..k + 6)?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let high = hex(digits)?;
    if !(0xD800..0xE000).contains(&high) {
        return Some((6, hex_char(digits)?));
    }
    // A surrogate pair is one character; a surrogate alone is none (U+FFFD).
    let low = text
        .get(k + 6..k + 12)
        .and_then(|s| s.strip_prefix("\\u"))
        .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
        .and_then(hex)
        .filter(|l| (0xDC00..0xE000).contains(l));
    match low {
        Some(low) if high < 0xDC00 => Some((
            12,
            char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?,
        )),
        _ => Some((6, char::REPLACEMENT_CHARACTER)),
    }
}
