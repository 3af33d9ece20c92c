//! Text: every file is UTF-8 and holds no character a person cannot see but a model reads.

use crate::core::declare_rules;
use crate::core::{Diagnostic, Span, is_invisible};
use crate::pack::Pack;

declare_rules! {
    /// A character a person cannot see but a model reads
    ///
    /// Control characters other than tab, line feed and carriage return, zero-width and
    /// direction-changing characters, variation selectors, private-use characters and tag
    /// characters. They hide text from the reviewer of a pull request while the model still reads
    /// it: tag characters can spell whole hidden instructions, and direction marks can make a line
    /// read differently on screen than in the file. One finding per run of such characters, at its
    /// first one; a run of tag characters that spells ASCII text has that text shown.
    ///
    /// How to fix: Delete the character (an editor that shows invisible characters helps, as does
    /// `grep -nP '[^\t\n\r\x20-\x7e]'`). If you meant a visible symbol, write it as text.
    pub static INVISIBLE_CHARACTER = "invisible-character", Error, VeryHigh, security_severity = "8.0";

    /// A file that is not UTF-8
    ///
    /// Every file of a pack is UTF-8 text. A file with an invalid byte is binary or in another
    /// encoding, and cannot be read the same way by every tool. The finding is at the first bad
    /// byte.
    ///
    /// How to fix: Re-save the file as UTF-8, or delete it if it is binary.
    pub static NOT_UTF8 = "not-utf8", Error, VeryHigh;
}

/// A run of invisible characters: its byte span, its first character, and its length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub span: Span,
    pub first: char,
    pub count: usize,
    /// The ASCII text a run made only of tag characters spells.
    pub hidden: Option<String>,
}

impl Run {
    /// `U+202E`, `U+E0041 and 37 more`, `... (hidden text "hidden")`.
    pub fn message(&self) -> String {
        let mut m = format!("U+{:04X}", self.first as u32);
        if self.count > 1 {
            m.push_str(&format!(" and {} more", self.count - 1));
        }
        if let Some(h) = &self.hidden {
            m.push_str(&format!(" (hidden text \"{}\")", escape_hidden(h)));
        }
        m
    }
}

fn escape_hidden(s: &str) -> String {
    s.chars()
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            c => vec![c],
        })
        .collect()
}

/// Every maximal run of invisible characters in a text. Plain ASCII is skipped a byte at a time
/// without decoding.
pub fn invisible_runs(text: &str) -> Vec<Run> {
    let bytes = text.as_bytes();
    let mut runs = Vec::new();
    let mut i = 0;
    let mut current: Option<(usize, char, usize, String, bool)> = None; // start, first, count, tag text, all tags
    while i < bytes.len() {
        // Fast path: eight plain printable ASCII bytes at a time, outside a run.
        if current.is_none() && i + 8 <= bytes.len() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[i..i + 8]);
            if plain_ascii(u64::from_le_bytes(w)) {
                i += 8;
                continue;
            }
        }
        let b = bytes[i];
        let (c, len) = if b < 0x80 {
            (b as char, 1)
        } else {
            let c = text[i..].chars().next().unwrap_or('\u{FFFD}');
            (c, c.len_utf8())
        };
        let invisible = if b < 0x80 {
            !(0x20..0x7F).contains(&b) && !matches!(b, b'\t' | b'\n' | b'\r')
        } else {
            is_invisible(c)
        };
        if invisible {
            let u = c as u32;
            let tag = (0xE0020..=0xE007E).contains(&u);
            match &mut current {
                Some((_, _, count, text, all_tags)) => {
                    *count += 1;
                    *all_tags &= tag;
                    if tag {
                        text.push(char::from((u - 0xE0000) as u8));
                    }
                }
                None => {
                    let mut t = String::new();
                    if tag {
                        t.push(char::from((u - 0xE0000) as u8));
                    }
                    current = Some((i, c, 1, t, tag));
                }
            }
        } else if let Some((start, first, count, t, all_tags)) = current.take() {
            runs.push(make_run(start, i, first, count, t, all_tags));
        }
        i += len;
    }
    if let Some((start, first, count, t, all_tags)) = current.take() {
        runs.push(make_run(start, bytes.len(), first, count, t, all_tags));
    }
    runs
}

/// Whether all eight bytes are printable ASCII (0x20..=0x7E): no byte at or over 0x80, none
/// under 0x20 (exact because no byte has its high bit set), none equal to 0x7F.
#[inline]
fn plain_ascii(w: u64) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    if w & HI != 0 {
        return false;
    }
    if w.wrapping_sub(0x20 * LO) & !w & HI != 0 {
        return false;
    }
    let x = w ^ (0x7F * LO);
    x.wrapping_sub(LO) & !x & HI == 0
}

fn make_run(
    start: usize,
    end: usize,
    first: char,
    count: usize,
    text: String,
    all_tags: bool,
) -> Run {
    Run {
        span: Span::new(start, end),
        first,
        count,
        hidden: (all_tags && !text.is_empty()).then_some(text),
    }
}

pub fn check(pack: &Pack, out: &mut Vec<Diagnostic>) {
    for f in &pack.files {
        if !f.complete {
            continue;
        }
        let (valid, bad) = match std::str::from_utf8(&f.bytes) {
            Ok(s) => (s, None),
            Err(e) => {
                let upto = e.valid_up_to();
                // SAFETY of the slice: from_utf8 guarantees the prefix is valid.
                (
                    std::str::from_utf8(&f.bytes[..upto]).unwrap_or(""),
                    Some(upto),
                )
            }
        };
        for run in invisible_runs(valid) {
            out.push(Diagnostic::at(
                &INVISIBLE_CHARACTER,
                &f.path,
                run.span,
                run.message(),
            ));
        }
        if let Some(at) = bad {
            out.push(Diagnostic::at(
                &NOT_UTF8,
                &f.path,
                Span::new(at, at + 1),
                "not UTF-8",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_run_per_sequence() {
        let runs = invisible_runs("a\u{202E}b\u{200B}\u{200C}\u{200D}c");
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].message(), "U+202E");
        assert_eq!(runs[1].message(), "U+200B and 2 more");
        assert_eq!(runs[1].span, Span::new(5, 14));
    }

    #[test]
    fn tag_runs_spell_hidden_text() {
        let hidden: String = "hidden"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
            .collect();
        let runs = invisible_runs(&format!("ok{hidden}"));
        assert_eq!(
            runs[0].message(),
            "U+E0068 and 5 more (hidden text \"hidden\")"
        );
    }

    #[test]
    fn the_fast_path_agrees_with_the_slow_one() {
        for b in 0u8..=0x7F {
            let mut word = *b"abcdefgh";
            word[3] = b;
            let plain = (0x20..0x7F).contains(&b);
            assert_eq!(
                plain_ascii(u64::from_le_bytes(word)),
                plain,
                "byte {b:#04x}"
            );
        }
        assert!(!plain_ascii(u64::from_le_bytes(*b"abc\xc3\xa9fgh")));
        // A run right after a long plain stretch, and at every alignment.
        for pad in 0..17 {
            let text = format!("{}\u{202E}x", "a".repeat(pad));
            let runs = invisible_runs(&text);
            assert_eq!(runs.len(), 1, "pad {pad}");
            assert_eq!(runs[0].span.start, pad);
        }
    }

    #[test]
    fn allowed_whitespace_is_not_reported() {
        assert!(invisible_runs("a\tb\r\nc é 😀 \u{00A0}").is_empty());
        assert_eq!(invisible_runs("\u{7}").len(), 1, "control: BEL is caught");
        assert_eq!(
            invisible_runs("\u{FEFF}x").len(),
            1,
            "a byte-order mark is caught"
        );
        assert_eq!(invisible_runs("\u{E0101}").len(), 1);
        assert_eq!(invisible_runs("\u{10FFFD}").len(), 1);
    }
}
