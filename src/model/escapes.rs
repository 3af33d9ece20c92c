//! Escapes that decode to hidden characters (docs/security.md, "Hidden text"): in the files hippo
//! installs, a TOML basic string's `\uXXXX`, `\UXXXXXXXX`, `\xHH`, `\e`, `\b`, `\f` or a JSON
//! string's `\uXXXX` (surrogate pairs decoded), `\b`, `\f` that decodes to a character of the
//! page's invisible set is the same error as the raw character, located at the backslash; one to
//! an ignorable character is the same warning. Under `tests/` (never installed) escapes are how a
//! case carries such characters on purpose, so they are allowed there.
//!
//! The decoders scan the text as written, with no parser: a file that does not parse has its
//! syntax error too, and a string's escapes are found all the same.

use crate::core::{Span, is_ignorable, is_invisible};

/// One escape and the character it decodes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Escape {
    /// From the backslash to the end of the escape.
    pub span: Span,
    pub decoded: char,
}

/// A run of escapes of one set, back to back: its span, first character and count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EscapeRun {
    pub span: Span,
    pub first: char,
    pub count: usize,
    /// The page's invisible set (an error), else the ignorable set (a warning).
    pub invisible: bool,
}

impl EscapeRun {
    /// `U+202E in an escape`, `U+E0041 in an escape and 37 more`.
    pub fn message(&self) -> String {
        let mut m = format!("U+{:04X} in an escape", self.first as u32);
        if self.count > 1 {
            m.push_str(&format!(" and {} more", self.count - 1));
        }
        m
    }
}

fn hex(s: &[u8]) -> Option<u32> {
    let t = std::str::from_utf8(s).ok()?;
    if t.bytes().all(|b| b.is_ascii_hexdigit()) {
        u32::from_str_radix(t, 16).ok()
    } else {
        None
    }
}

/// Every escape of a TOML text's basic strings (`"..."` and `"""..."""`), in order. Literal
/// strings and comments are skipped.
pub fn toml_escapes(text: &str) -> Vec<Escape> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => {
                i = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| i + p)
            }
            b'\'' => {
                let multi = b[i..].starts_with(b"'''");
                let close: &[u8] = if multi { b"'''" } else { b"'" };
                let from = i + close.len();
                i = find(b, from, close, !multi).map_or(b.len(), |p| p + close.len());
            }
            b'"' => {
                let multi = b[i..].starts_with(b"\"\"\"");
                i = basic(
                    b,
                    i + if multi { 3 } else { 1 },
                    multi,
                    Dialect::Toml,
                    &mut out,
                );
            }
            _ => i += 1,
        }
    }
    out
}

/// Every escape of a JSON text's strings, in order.
pub fn json_escapes(text: &str) -> Vec<Escape> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' {
            i = basic(b, i + 1, false, Dialect::Json, &mut out);
        } else {
            i += 1;
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Toml,
    Json,
}

/// The end of `close` at or after `from` (a one-line string also ends at a line feed).
fn find(b: &[u8], from: usize, close: &[u8], one_line: bool) -> Option<usize> {
    let mut j = from;
    while j < b.len() {
        if b[j..].starts_with(close) {
            return Some(j);
        }
        if one_line && b[j] == b'\n' {
            return Some(j);
        }
        j += 1;
    }
    None
}

/// Reads a basic string's body from `i`; returns the index after its closing quote(s).
fn basic(b: &[u8], mut i: usize, multi: bool, d: Dialect, out: &mut Vec<Escape>) -> usize {
    while i < b.len() {
        match b[i] {
            b'"' if !multi => return i + 1,
            b'"' if b[i..].starts_with(b"\"\"\"") => {
                // Up to two more quotes may belong to the string.
                let mut end = i + 3;
                while end < b.len() && b[end] == b'"' && end < i + 5 {
                    end += 1;
                }
                return end;
            }
            b'\n' if !multi => return i + 1,
            b'\\' => i = escape(b, i, d, out),
            _ => i += 1,
        }
    }
    i
}

/// One escape at `i` (a backslash); returns the index after it.
fn escape(b: &[u8], i: usize, d: Dialect, out: &mut Vec<Escape>) -> usize {
    let Some(&kind) = b.get(i + 1) else {
        return b.len();
    };
    let (len, code) = match kind {
        b'u' => (6, b.get(i + 2..i + 6).and_then(hex)),
        b'U' if d == Dialect::Toml => (10, b.get(i + 2..i + 10).and_then(hex)),
        b'x' if d == Dialect::Toml => (4, b.get(i + 2..i + 4).and_then(hex)),
        b'e' if d == Dialect::Toml => (2, Some(0x1B)),
        b'b' => (2, Some(0x08)),
        b'f' => (2, Some(0x0C)),
        _ => return i + 2,
    };
    let Some(mut code) = code else {
        return i + 2;
    };
    let mut end = i + len;
    // JSON spells a character past U+FFFF as a surrogate pair.
    let low = || {
        b.get(end + 2..end + 6)
            .and_then(hex)
            .filter(|l| (0xDC00..0xE000).contains(l))
    };
    if d == Dialect::Json
        && (0xD800..0xDC00).contains(&code)
        && b.get(end..end + 2) == Some(b"\\u")
        && let Some(low) = low()
    {
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        end += 6;
    }
    if let Some(c) = char::from_u32(code) {
        out.push(Escape {
            span: Span::new(i, end),
            decoded: c,
        });
    }
    end
}

/// The runs of escapes that decode to hidden characters: back-to-back escapes of one set make
/// one run.
pub fn hidden_runs(escapes: &[Escape]) -> Vec<EscapeRun> {
    let mut runs: Vec<EscapeRun> = Vec::new();
    for e in escapes {
        let invisible = is_invisible(e.decoded);
        if !invisible && !is_ignorable(e.decoded) {
            continue;
        }
        match runs.last_mut() {
            Some(r) if r.span.end == e.span.start && r.invisible == invisible => {
                r.span.end = e.span.end;
                r.count += 1;
            }
            _ => runs.push(EscapeRun {
                span: e.span,
                first: e.decoded,
                count: 1,
                invisible,
            }),
        }
    }
    runs
}

/// Whether a pack file's escapes count: the files hippo installs that hold TOML or JSON strings.
pub fn dialect_of(path: &str) -> Option<bool> {
    if path == "pack.toml" || (path.starts_with("passes/") && path.ends_with(".toml")) {
        Some(true)
    } else if path == "theme.json" {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msgs(runs: &[EscapeRun]) -> Vec<String> {
        runs.iter().map(EscapeRun::message).collect()
    }

    #[test]
    fn toml_escapes_in_basic_strings_only() {
        let text = "# \\u202E in a comment\na = 'x\\u202Ey'\nb = '''\\u200B'''\nc = \"a\\u202Eb\"\nd = \"\"\"\n\\U000E0041\\U000E0042\"\"\"\ne = [\"A\\u200BB\", \"\\e\\x41\\u00AD\"]\n";
        let runs = hidden_runs(&toml_escapes(text));
        assert_eq!(
            msgs(&runs),
            [
                "U+202E in an escape",
                "U+E0041 in an escape and 1 more",
                "U+200B in an escape",
                "U+001B in an escape",
                "U+00AD in an escape"
            ]
        );
        assert_eq!(&text[runs[0].span.start..runs[0].span.end], "\\u202E");
        assert!(runs[3].invisible && !runs[4].invisible);
        // Control: a plain text with visible escapes has none.
        assert!(hidden_runs(&toml_escapes("a = \"tab\\there \\u00e9 \\\\u202E\"\n")).is_empty());
    }

    #[test]
    fn json_escapes_decode_surrogate_pairs() {
        let text = r#"{"a": "x\u202Ey", "b": "\udb40\udc41\udb40\udc42", "c": "\u00e9\b", "d": "\\u202E"}"#;
        let runs = hidden_runs(&json_escapes(text));
        assert_eq!(
            msgs(&runs),
            [
                "U+202E in an escape",
                "U+E0041 in an escape and 1 more",
                "U+0008 in an escape"
            ]
        );
    }

    #[test]
    fn broken_input_does_not_panic() {
        for t in [
            "\"\\u",
            "\"\\U0011FFFF\"",
            "\"\\uD800\"",
            "\"\\",
            "'''",
            "\"\"\"\\u202",
            "\"\\udb40\\u",
        ] {
            let _ = hidden_runs(&toml_escapes(t));
            let _ = hidden_runs(&json_escapes(t));
        }
    }

    /// The fuzz target's invariants (fuzz/fuzz_targets/escapes.rs) over many generated texts
    /// made of the tokens that matter, so they hold without a fuzzer too.
    #[test]
    fn spans_are_ordered_and_start_at_a_backslash() {
        let tokens = [
            "\\", "u", "U", "x", "e", "\"", "'", "\n", "#", "202E", "d", "b40", "dc41", "0", "E",
            "é", " ",
        ];
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..(seed % 40) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(tokens[(seed >> 33) as usize % tokens.len()]);
            }
            for escs in [toml_escapes(&text), json_escapes(&text)] {
                let mut last = 0;
                for e in &escs {
                    assert!(
                        e.span.start >= last && e.span.start < e.span.end,
                        "{text:?}"
                    );
                    assert!(
                        e.span.end <= text.len() && text.is_char_boundary(e.span.end),
                        "{text:?}"
                    );
                    assert_eq!(&text[e.span.start..e.span.start + 1], "\\", "{text:?}");
                    last = e.span.end;
                }
                let _ = hidden_runs(&escs);
            }
        }
    }
}
