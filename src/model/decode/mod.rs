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

mod css;
mod json;
mod toml;
mod view;

pub use css::{css_escapes, css_urls};
pub(crate) use json::{json_strings, jsonl_strings};
pub(crate) use toml::toml_strings;
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

/// A file's decoded text: `None` when there is nothing to decode (no backslash, a format that
/// has no escapes, a document that does not parse).
pub fn view(path: &str, text: &str) -> Option<View> {
    let format = Format::of(path)?;
    memchr::memchr(b'\\', text.as_bytes())?;
    match format {
        Format::Toml => toml_strings(text),
        Format::Json => json_strings(text),
        Format::JsonLines => jsonl_strings(text),
        Format::Css => Some(css_escapes(text)),
    }
}

/// [`view()`] of a file's bytes: `None` also when they are not UTF-8 (a file the text rules
/// already fail, judged as written).
pub(crate) fn view_bytes(path: &str, bytes: &[u8]) -> Option<View> {
    Format::of(path)?;
    memchr::memchr(b'\\', bytes)?;
    view(path, std::str::from_utf8(bytes).ok()?)
}

#[cfg(test)]
mod tests;
