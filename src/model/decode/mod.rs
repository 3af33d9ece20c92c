//! The strings of a pack's TOML, JSON and CSS files as their parsers decode them, with the way
//! back to the bytes as written (docs/checks.md, "Decoded text").
//!
//! The rules that judge text read a file's [`View`]: the file with the escapes of every string
//! decoded and every other byte as it is. String boundaries come from the format's own reading:
//! the toml crate's lexer once the toml crate has parsed the document, serde_json's acceptance of
//! a JSON document (in accepted JSON every string starts at a quote outside a string and ends at
//! the next quote no backslash escapes), a CSS tokenizer's comments and strings. Each string is
//! decoded by a small decoder that records, for every decoded byte, the raw bytes it came from: a
//! character written as an escape maps to the whole escape, so a finding there points at its
//! backslash. In debug builds each decoded string is asserted equal to the parser's own decoding.
//!
//! A file with no backslash has no view (its strings are the bytes as written: the fast path); a
//! TOML or JSON document that does not parse has none either, and is judged as written.
//!
//! The decoder never parses: [`decode`] is handed what the model's one parse of the file found
//! ([`Parsed`]: the TOML document, or which JSON documents serde_json accepted), made once for
//! the rules, `test` and `--fix` (`model::Documents`). [`view()`], for a text alone (the fuzz
//! targets, the unit tests), asks the model's parsers first.

mod css;
mod json;
mod toml_doc;
mod view;

use crate::model::toml_spans::{DeTable, Spanned};
pub use css::{css_escapes, css_urls};
pub use view::{Escape, View};

/// The formats whose strings are decoded, told by a file's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Toml,
    Json,
    /// One JSON document a line (transcripts).
    JsonLines,
    Css,
}

impl Format {
    /// `.toml`, `.json`, `.jsonl`, `.css`; anything else is read as written.
    pub(crate) fn of(path: &str) -> Option<Format> {
        let ext = path.rsplit_once('.')?.1;
        match ext {
            "toml" => Some(Format::Toml),
            "json" => Some(Format::Json),
            "jsonl" => Some(Format::JsonLines),
            "css" => Some(Format::Css),
            _ => None,
        }
    }
}

/// What the model's parse of a file found, as far as the decoder needs it: string boundaries
/// are trusted only in a document its parser accepted.
#[derive(Clone, Copy)]
pub(crate) enum Parsed<'a, 'i> {
    /// The TOML document as the toml crate parsed it.
    Toml(&'a Spanned<DeTable<'i>>),
    /// A JSON document serde_json accepted.
    Json,
    /// One JSON document a line: whether serde_json accepted the line of this 0-based number.
    JsonLines(&'a dyn Fn(usize) -> bool),
    /// CSS has no parser here: its comments and strings are the tokenizer's own reading.
    Css,
}

/// The decoded text of `text`, which holds a backslash, from its parse: `None` when no string
/// decoded (a JSON Lines file none of whose lines with a backslash was accepted, an escape the
/// parser would have refused).
pub(crate) fn decode(text: &str, parsed: Parsed<'_, '_>) -> Option<View> {
    match parsed {
        Parsed::Toml(doc) => toml_doc::toml_strings(text, doc),
        Parsed::Json => json::json_strings(text),
        Parsed::JsonLines(accepted) => json::jsonl_strings(text, accepted),
        Parsed::Css => Some(css_escapes(text)),
    }
}

/// A text's decoded text, told its format by `path`: `None` when there is nothing to decode (no
/// backslash, a format that has no escapes, a document that does not parse). For a text alone:
/// the model's parsers ([`crate::model::toml_spans::parse`], `model::json`) read it first, then
/// [`decode`] (`check` hands the parse its documents made instead).
pub fn view(path: &str, text: &str) -> Option<View> {
    let format = Format::of(path)?;
    memchr::memchr(b'\\', text.as_bytes())?;
    decode_text(format, text)
}

/// [`decode`] of a text alone in `format`, parsed here by the model's parsers.
fn decode_text(format: Format, text: &str) -> Option<View> {
    use crate::model::json;
    match format {
        Format::Toml => decode(
            text,
            Parsed::Toml(&crate::model::toml_spans::parse(text).ok()?),
        ),
        Format::Json => json::accepted(text).then(|| decode(text, Parsed::Json))?,
        Format::JsonLines => {
            let lines: Vec<&str> = text.split('\n').collect();
            let accepted = |i: usize| lines.get(i).is_some_and(|l| json::accepted(l));
            decode(text, Parsed::JsonLines(&accepted))
        }
        Format::Css => decode(text, Parsed::Css),
    }
}

#[cfg(test)]
mod tests;
