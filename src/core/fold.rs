//! Folded text: what a phrase search reads, so that how a phrase is spelled does not hide it.
//!
//! Each character is folded on its own: a character of either hidden set (the page's invisible
//! ones and the ignorable ones, `core::is_hidden`) is removed; a space separator (Zs) or U+2800
//! becomes a space; any other character whose NFKC form, with each non-ASCII character of it
//! mapped to its prototype in Unicode's confusables data (UTS #39), is all ASCII becomes that
//! ASCII text (fullwidth `ｉ`, mathematical `𝐢`, Cyrillic `і` all become `i`; `ﬁ` becomes `fi`).
//! ASCII itself is never remapped (the confusables map `|` to `l`, which would turn `| sh` into
//! `l sh`), and a character whose folded form would not be all ASCII is kept as written: it
//! cannot be part of an ASCII phrase either way.
//!
//! The per-character table is generated from the Unicode data of the `unicode-normalization` and
//! `unicode-security` crates into `fold/table.txt`; a unit test rebuilds it and fails when it is
//! stale, writing the new table beside it as `table.txt.new` to review. Each byte of the folded
//! text keeps the offset of the character it comes from, so a match is located and quoted as
//! written. Plain ASCII without control characters folds to itself and is never copied.

use super::{Span, is_hidden};
use std::sync::LazyLock;

/// The generated table: one line per character, `XXXX "folded"`, sorted.
const TABLE: &str = include_str!("fold/table.txt");

/// The generated table of the characters that fold only with their marks dropped
/// ([`fold_marks`]), in the same form.
const MARKS_TABLE: &str = include_str!("fold/marks.txt");

/// A table's lines parsed: code point and its folded text.
fn parse_table(table: &'static str) -> Vec<(u32, &'static str)> {
    table
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (hex, text) = l.split_once(' ')?;
            let text = text.strip_prefix('"')?.strip_suffix('"')?;
            Some((u32::from_str_radix(hex, 16).ok()?, text))
        })
        .collect()
}

/// [`TABLE`] parsed: code point and its folded text.
static FOLDS: LazyLock<Vec<(u32, &'static str)>> = LazyLock::new(|| parse_table(TABLE));

/// [`MARKS_TABLE`] parsed.
static MARKS: LazyLock<Vec<(u32, &'static str)>> = LazyLock::new(|| parse_table(MARKS_TABLE));

fn lookup(table: &[(u32, &'static str)], c: char) -> Option<&'static str> {
    let u = c as u32;
    table
        .binary_search_by_key(&u, |&(k, _)| k)
        .ok()
        .map(|i| table[i].1)
}

/// The folded form of one non-ASCII character that folding changes: `Some("")` when it is
/// removed, `Some(text)` when it becomes ASCII text, `None` when it is kept as written.
pub(crate) fn fold_char(c: char) -> Option<&'static str> {
    if is_hidden(c) {
        return Some("");
    }
    lookup(&FOLDS, c)
}

/// [`fold_char`], then for a character it keeps, its form with combining marks dropped: each
/// character decomposed (NFKD), the marks of category Mn dropped, a LATIN LETTER SMALL CAPITAL
/// read as its letter, then mapped to its confusable prototype (`é` becomes `e`, U+0307 is
/// removed, `ɪ` becomes `i`). For the injection phrases only: the shell set keeps its accents
/// (Spanish `sudó` is no `sudo `).
pub(crate) fn fold_char_marks(c: char) -> Option<&'static str> {
    fold_char(c).or_else(|| lookup(&MARKS, c))
}

/// A text folded, with the offset in the text as written of each of its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Folded<'a> {
    written: &'a [u8],
    /// The folded text.
    pub(crate) text: Vec<u8>,
    /// For each byte of `text`, where the character it comes from starts in `written`.
    from: Vec<usize>,
}

impl Folded<'_> {
    /// The span, in the text as written, of the folded bytes `start..end` (`start < end`): from
    /// the first one's character to the end of the last one's.
    pub(crate) fn written_span(&self, start: usize, end: usize) -> Span {
        let last = self.from[end - 1];
        Span::new(self.from[start], last + unit_len(&self.written[last..]))
    }
}

/// The length of the character at the start of `bytes` (not empty); 1 for a byte that is not
/// UTF-8.
fn unit_len(bytes: &[u8]) -> usize {
    char_at(bytes).map_or(1, char::len_utf8)
}

/// The character at the start of `bytes` when it is UTF-8.
fn char_at(bytes: &[u8]) -> Option<char> {
    let window = &bytes[..bytes.len().min(4)];
    window.utf8_chunks().next()?.valid().chars().next()
}

/// A control character other than tab, line feed and carriage return, or DEL: hidden ASCII.
fn ascii_hidden(b: u8) -> bool {
    (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7F
}

/// Whether a byte may fold to something else: not plain ASCII.
fn attention(b: u8) -> bool {
    b >= 0x80 || ascii_hidden(b)
}

/// What folding does to the unit at the start of `bytes`: its length in the text as written and
/// its replacement (`None`: kept as written). A byte that is not UTF-8 is kept.
fn unit(
    bytes: &[u8],
    fold_char: fn(char) -> Option<&'static str>,
) -> (usize, Option<&'static str>) {
    let b = bytes[0];
    if b < 0x80 {
        return (1, ascii_hidden(b).then_some(""));
    }
    match char_at(bytes) {
        Some(c) => (c.len_utf8(), fold_char(c)),
        None => (1, None),
    }
}

/// The text folded; `None` when folding changes nothing (plain ASCII, found without decoding, or
/// text whose every character is kept, such as accented words, CJK and dashes).
pub(crate) fn fold(bytes: &[u8]) -> Option<Folded<'_>> {
    fold_with(bytes, fold_char)
}

/// The text folded with combining marks dropped as well ([`fold_char_marks`]); `None` when that
/// changes nothing.
pub(crate) fn fold_marks(bytes: &[u8]) -> Option<Folded<'_>> {
    fold_with(bytes, fold_char_marks)
}

fn fold_with(bytes: &[u8], fold_char: fn(char) -> Option<&'static str>) -> Option<Folded<'_>> {
    // No copy until the first unit that changes; none at all when no unit changes.
    let mut i = 0;
    let (mut text, mut from) = loop {
        i += bytes[i..].iter().position(|&b| attention(b))?;
        let (len, replace) = unit(&bytes[i..], fold_char);
        if replace.is_some() {
            let mut text = Vec::with_capacity(bytes.len());
            text.extend_from_slice(&bytes[..i]);
            let mut from = Vec::with_capacity(bytes.len());
            from.extend(0..i);
            break (text, from);
        }
        i += len;
    };
    while i < bytes.len() {
        // A stretch of plain ASCII is copied as it is.
        let plain = bytes[i..]
            .iter()
            .position(|&b| attention(b))
            .unwrap_or(bytes.len() - i);
        text.extend_from_slice(&bytes[i..i + plain]);
        from.extend(i..i + plain);
        i += plain;
        if i >= bytes.len() {
            break;
        }
        let (len, replace) = unit(&bytes[i..], fold_char);
        let out = replace.map_or(&bytes[i..i + len], str::as_bytes);
        text.extend_from_slice(out);
        from.extend(std::iter::repeat_n(i, out.len()));
        i += len;
    }
    Some(Folded {
        written: bytes,
        text,
        from,
    })
}

#[cfg(test)]
mod tests;
