//! Curly quotes pasted into TOML where straight ones belong: `name = “x”`, `‘key’ = 1`,
//! `authors = [“A”]`. A word processor or a chat window turns `"` into `“` and `”`, and the TOML
//! parser then stops with "string values must be quoted". [`curly_quotes`] finds the curly
//! quotes that stand where TOML's quotes go, never one inside a string or a comment, so the
//! syntax rules can name the character and `check --fix` can straighten exactly those.
//!
//! A small lexer over the bytes, one line at a time for one-line strings: TOML's own syntax is
//! ASCII, and every curly quote is the three bytes `E2 80 98` to `E2 80 9F`.

use std::ops::Range;

/// A curly quote that stands where a TOML quote goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CurlyQuote {
    /// Its bytes in the document (three).
    pub(crate) span: Range<usize>,
    /// The character written: `‘` `’` `‚` `‛` or `“` `”` `„` `‟` (U+2018 to U+201F).
    pub(crate) curly: char,
    /// The quote TOML wants there: `'` for a single one, `"` for a double one.
    pub(crate) straight: char,
}

/// Every curly quote of `doc` used as a TOML string delimiter, in order.
///
/// Outside strings and comments, a curly quote opens a string; that string closes at the first
/// quote of its kind (straight or curly) followed by the end of the line, spaces, or one of
/// `, ] } # = .` (so `‘it’s’` closes at its last quote), or at the first quote of its kind when
/// none is. A one-line string opened by a straight quote and not closed by one on its line
/// closes at a curly quote the same way (`"x”`). Curly quotes inside a string that closes, or
/// in a comment, are text and not returned.
pub(crate) fn curly_quotes(doc: &[u8]) -> Vec<CurlyQuote> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < doc.len() {
        let rest = &doc[i..];
        i = if rest[0] == b'#' {
            line_end(doc, i)
        } else if rest.starts_with(b"\"\"\"") {
            multi_line_end(doc, i + 3, b"\"\"\"", true)
        } else if rest.starts_with(b"'''") {
            multi_line_end(doc, i + 3, b"'''", false)
        } else if let Some(q) = quote_at(doc, i) {
            out.extend(q.found(i));
            one_line_string(doc, i + q.len(), q, &mut out)
        } else {
            i + 1
        };
    }
    out
}

/// A quote character: its kind and whether it is curly (and then which).
#[derive(Debug, Clone, Copy)]
struct Quote {
    double: bool,
    curly: Option<char>,
}

impl Quote {
    fn is_curly(self) -> bool {
        self.curly.is_some()
    }

    fn len(self) -> usize {
        self.curly.map_or(1, char::len_utf8)
    }

    /// The quote at `at` as a finding, when it is curly.
    fn found(self, at: usize) -> Option<CurlyQuote> {
        Some(CurlyQuote {
            span: at..at + self.len(),
            curly: self.curly?,
            straight: if self.double { '"' } else { '\'' },
        })
    }
}

/// The quote at `i`, straight or curly.
fn quote_at(doc: &[u8], i: usize) -> Option<Quote> {
    match doc[i..] {
        [b'"', ..] => Some(Quote {
            double: true,
            curly: None,
        }),
        [b'\'', ..] => Some(Quote {
            double: false,
            curly: None,
        }),
        [0xE2, 0x80, third @ 0x98..=0x9F, ..] => Some(Quote {
            double: third >= 0x9C,
            curly: char::from_u32(0x2018 + u32::from(third - 0x98)),
        }),
        _ => None,
    }
}

/// The offset of the line feed that ends the line holding `i` (or the document's end).
fn line_end(doc: &[u8], i: usize) -> usize {
    memchr::memchr(b'\n', &doc[i..]).map_or(doc.len(), |n| i + n)
}

/// Past the closing delimiter of a multi-line string whose text starts at `i` (a basic one
/// reads escapes), or the document's end; up to two more quotes belong to the string.
fn multi_line_end(doc: &[u8], mut i: usize, close: &[u8], escapes: bool) -> usize {
    while i < doc.len() {
        if escapes && doc[i] == b'\\' {
            i += 2;
        } else if doc[i..].starts_with(close) {
            i += 3;
            let extra = doc[i..].iter().take(2).take_while(|&&b| b == close[0]);
            return i + extra.count();
        } else {
            i += 1;
        }
    }
    doc.len()
}

/// Reads a one-line string whose text starts at `start`, opened by `open`; records a curly
/// closing quote and returns where reading goes on.
fn one_line_string(doc: &[u8], start: usize, open: Quote, out: &mut Vec<CurlyQuote>) -> usize {
    let end = line_end(doc, start);
    // Escapes are read in a basic string, and in one a curly double quote opened.
    let escapes = open.double;
    let mut candidates = Vec::new();
    let mut i = start;
    while i < end {
        if escapes && doc[i] == b'\\' {
            i += 2;
            continue;
        }
        match quote_at(doc, i).filter(|q| q.double == open.double) {
            // A straight string closes at its first straight quote, whatever is curly in it.
            Some(q) if !open.is_curly() && !q.is_curly() => return i + 1,
            Some(q) => {
                candidates.push((i, q));
                i += q.len();
            }
            None => i += 1,
        }
    }
    let usable = candidates
        .iter()
        .filter(|(_, q)| open.is_curly() || q.is_curly());
    let close = usable
        .clone()
        .find(|(at, q)| closes(doc, at + q.len()))
        .or_else(|| usable.clone().next());
    match close {
        Some(&(at, q)) => {
            out.extend(q.found(at));
            at + q.len()
        }
        // Not closed on its line: the parser reports it; reading goes on on the next line.
        None => end,
    }
}

/// Whether a quote ending at `i` can close a string: spaces, then the line's end or one of
/// the characters that follow a TOML string (`, ] } # = .`).
fn closes(doc: &[u8], i: usize) -> bool {
    let next = doc[i..].iter().find(|&&b| b != b' ' && b != b'\t');
    matches!(
        next,
        None | Some(b'\n' | b'\r' | b',' | b']' | b'}' | b'#' | b'=' | b'.')
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The curly quotes found, as the characters written and the text before each.
    fn found(doc: &str) -> Vec<(char, &str)> {
        curly_quotes(doc.as_bytes())
            .into_iter()
            .map(|q| {
                assert_eq!(doc[q.span.clone()].chars().next(), Some(q.curly));
                (q.curly, &doc[..q.span.start])
            })
            .collect()
    }

    #[test]
    fn curly_quotes_used_as_toml_quotes_are_found() {
        assert_eq!(
            found("name = “x”\n"),
            [('“', "name = "), ('”', "name = “x")]
        );
        assert_eq!(found("‘name’ = 1\n").len(), 2, "a key");
        assert_eq!(found("a = [“A”, ‘B’]\n").len(), 4, "an array");
        assert_eq!(found("name = „x“\n").len(), 2, "low-9 quotes");
        assert_eq!(found("name = ‘it’s’\n").len(), 2, "an apostrophe inside");
        assert_eq!(
            found("name = \"x”\n"),
            [('”', "name = \"x")],
            "a straight opening"
        );
        assert_eq!(
            found("name = “x\"\n"),
            [('“', "name = ")],
            "a straight close"
        );
        assert_eq!(found("a = “x\nb = 1\n").len(), 1, "not closed on its line");
        let q = &curly_quotes("a = ‘x’".as_bytes())[0];
        assert_eq!((q.span.clone(), q.straight), (4..7, '\''));
        assert_eq!(curly_quotes("a = “x”".as_bytes())[1].straight, '"');
    }

    /// Over many documents made of TOML's pieces and curly quotes: every quote returned is a
    /// curly one inside the document, in order, and a document the toml crate parses has none
    /// (TOML has no character past ASCII outside strings and comments).
    #[test]
    fn generated_documents_agree_with_the_parser() {
        const PIECES: &[&str] = &[
            "a = ", "\"", "'", "\"\"\"", "'''", "\u{201c}", "\u{201d}", "\u{2018}", "\u{2019}",
            "x", " ", "\n", "#", "\\", "[", "]", ",", "=", ".", "\u{201e}", "\u{e9}",
        ];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let (mut parsed, mut found) = (0, 0);
        for _ in 0..20_000 {
            let mut doc = String::new();
            for _ in 0..(state % 12 + 1) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                doc.push_str(PIECES[(state % PIECES.len() as u64) as usize]);
            }
            let quotes = curly_quotes(doc.as_bytes());
            let mut end = 0;
            for q in &quotes {
                assert!(q.span.start >= end, "{doc:?}");
                end = q.span.end;
                assert_eq!(doc.get(q.span.clone()), Some(q.curly.to_string().as_str()));
            }
            found += usize::from(!quotes.is_empty());
            if crate::model::toml_spans::DeTable::parse(&doc).is_ok() {
                parsed += 1;
                assert_eq!(quotes, [], "{doc:?} parses");
            }
        }
        assert!(
            parsed > 100 && found > 100,
            "{parsed} parsed, {found} with curly quotes"
        );
    }

    #[test]
    fn control_curly_quotes_inside_strings_and_comments_are_text() {
        assert_eq!(found("a = \"say “hi”\"\n"), []);
        assert_eq!(found("a = 'it’s'\n"), []);
        assert_eq!(
            found("a = \"\\\"“\"\n"),
            [],
            "an escaped quote does not close"
        );
        assert_eq!(found("# “quoted”\na = 1 # ‘x’\n"), []);
        assert_eq!(found("a = \"\"\"\n“x”\n\"\"\"\nb = '''“'''\n"), []);
        assert_eq!(
            found("a = \"\"\"x\"\"\"\"\" # “\n"),
            [],
            "closing quotes run on"
        );
        assert_eq!(found("a = \"x\"\nb = “y”\n").len(), 2, "after a string");
    }
}
