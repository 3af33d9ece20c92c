//! Byte offsets inside, LSP positions at the edge: a line and a column counted in the position
//! encoding the client and the server agreed on (UTF-8 bytes when the client offers it, else
//! UTF-16 code units, the protocol's default). Lines end at `\n`, `\r\n` or `\r`, as the
//! protocol says.

use lsp_types::{Position, Range};

/// The unit a column counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// The client's offer (`general.positionEncodings`, in its order of preference): UTF-8 when
    /// it is offered, else UTF-16, which every client understands.
    pub(crate) fn negotiate(offered: Option<&[lsp_types::PositionEncodingKind]>) -> Encoding {
        let utf8 = lsp_types::PositionEncodingKind::UTF8;
        match offered {
            Some(kinds) if kinds.contains(&utf8) => Encoding::Utf8,
            _ => Encoding::Utf16,
        }
    }

    pub(crate) fn kind(self) -> lsp_types::PositionEncodingKind {
        match self {
            Encoding::Utf8 => lsp_types::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lsp_types::PositionEncodingKind::UTF16,
        }
    }

    fn width(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        }
    }
}

/// The lines of one text: where each starts, for conversions both ways.
pub(crate) struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
    encoding: Encoding,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str, encoding: Encoding) -> Lines<'a> {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while let Some(at) = memchr::memchr2(b'\n', b'\r', &bytes[i..]) {
            let at = i + at;
            i = if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
                at + 2
            } else {
                at + 1
            };
            starts.push(i);
        }
        Lines {
            text,
            starts,
            encoding,
        }
    }

    /// The position of a byte offset (inside a character: that character's start; past the
    /// end: the end).
    pub(crate) fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let col: usize = self.text[start..offset]
            .chars()
            .map(|c| self.encoding.width(c))
            .sum();
        Position::new(clamp(line), clamp(col))
    }

    pub(crate) fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The byte offset of a position: a column past its line's end is the line's end (before
    /// its line break), a line past the last is the text's end, a column inside a character is
    /// that character's start.
    pub(crate) fn offset(&self, p: Position) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(p.line as usize + 1)
            .copied()
            .unwrap_or(self.text.len());
        let line = self.text[start..end].trim_end_matches(['\n', '\r']);
        let mut units = 0;
        for (i, c) in line.char_indices() {
            units += self.encoding.width(c);
            if units > p.character as usize {
                return start + i;
            }
        }
        start + line.len()
    }
}

fn clamp(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Applies one `didChange` edit (a range in `encoding` and its new text; no range: the whole
/// text) to `text`.
pub(crate) fn apply_change(
    text: &mut String,
    range: Option<Range>,
    with: &str,
    encoding: Encoding,
) {
    match range {
        None => *text = with.to_string(),
        Some(r) => {
            let lines = Lines::new(text, encoding);
            let start = lines.offset(r.start);
            let end = lines.offset(r.end).max(start);
            text.replace_range(start..end, with);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_width_space_is_one_utf16_unit_and_three_bytes() {
        let text = "# P\n\u{1F600}a\u{200B}b\n";
        let at = text.find('\u{200B}').unwrap();
        let u16 = Lines::new(text, Encoding::Utf16);
        let u8 = Lines::new(text, Encoding::Utf8);
        assert_eq!(
            u16.range(at, at + 3),
            Range::new(Position::new(1, 3), Position::new(1, 4))
        );
        assert_eq!(
            u8.range(at, at + 3),
            Range::new(Position::new(1, 5), Position::new(1, 8))
        );
        assert_eq!(u16.offset(Position::new(1, 3)), at);
        assert_eq!(u8.offset(Position::new(1, 5)), at);
        // Control: the code-point column is neither.
        assert_ne!(u16.position(at).character, 2);
    }

    #[test]
    fn every_line_break_of_the_protocol_ends_a_line() {
        let text = "a\r\nb\rc\nd";
        let l = Lines::new(text, Encoding::Utf16);
        assert_eq!(l.position(text.find('d').unwrap()), Position::new(3, 0));
        assert_eq!(l.position(text.find('c').unwrap()), Position::new(2, 0));
        // A column past the end stops before the line break; a line past the last, at the end.
        assert_eq!(l.offset(Position::new(0, 9)), 1);
        assert_eq!(l.offset(Position::new(9, 0)), text.len());
    }

    #[test]
    fn inside_a_character_is_its_start() {
        let text = "\u{1F600}x";
        let l = Lines::new(text, Encoding::Utf16);
        assert_eq!(l.offset(Position::new(0, 1)), 0, "between the surrogates");
        assert_eq!(l.position(2), Position::new(0, 0), "inside the UTF-8 bytes");
        assert_eq!(l.offset(Position::new(0, 2)), 4);
    }

    #[test]
    fn changes_apply_in_the_encoding() {
        let mut t = "a\u{200B}b\n".to_string();
        apply_change(
            &mut t,
            Some(Range::new(Position::new(0, 1), Position::new(0, 2))),
            "",
            Encoding::Utf16,
        );
        assert_eq!(t, "ab\n");
        let mut t = "a\u{200B}b\n".to_string();
        apply_change(
            &mut t,
            Some(Range::new(Position::new(0, 1), Position::new(0, 4))),
            "",
            Encoding::Utf8,
        );
        assert_eq!(t, "ab\n");
        apply_change(&mut t, None, "new", Encoding::Utf8);
        assert_eq!(t, "new");
    }

    #[test]
    fn utf8_is_chosen_only_when_offered() {
        use lsp_types::PositionEncodingKind as K;
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        assert_eq!(
            Encoding::negotiate(Some(&[K::UTF16, K::UTF8])),
            Encoding::Utf8
        );
        assert_eq!(Encoding::negotiate(Some(&[K::UTF32])), Encoding::Utf16);
    }
}
