//! Line starts of a text, to turn byte offsets into 1-based lines and columns at the edge.

use super::diagnostic::{Region, Span};

/// Line starts of a text, to turn byte offsets into lines and columns.
pub(crate) struct LineIndex<'a> {
    text: &'a [u8],
    starts: Vec<usize>,
    /// The last position answered (line index, byte offset, code points, UTF-16 units), so that
    /// offsets asked in increasing order on one long line cost one pass over it, not one each.
    last: std::cell::Cell<(usize, usize, usize, usize)>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(text: &'a [u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr_iter(b'\n', text).map(|i| i + 1));
        LineIndex {
            text,
            starts,
            last: std::cell::Cell::new((0, 0, 0, 0)),
        }
    }

    /// 1-based line, code-point column and UTF-16 column of a byte offset. Offsets inside a
    /// character or past the end are clamped.
    pub(crate) fn position(&self, offset: usize) -> (usize, usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let (from, mut cp, mut u16s) = match self.last.get() {
            (l, at, cp, u16s) if l == line && at <= offset => (at, cp, u16s),
            _ => (self.starts[line], 0, 0),
        };
        let seg = &self.text[from..offset];
        // Count characters of possibly invalid UTF-8: each lead byte starts one character;
        // a 4-byte lead is two UTF-16 units.
        for &b in seg {
            if (b & 0xC0) != 0x80 {
                cp += 1;
                u16s += if b >= 0xF0 { 2 } else { 1 };
            }
        }
        self.last.set((line, offset, cp, u16s));
        (line + 1, cp + 1, u16s + 1)
    }

    pub(crate) fn region(&self, span: Span) -> Region {
        let (line, col, col16) = self.position(span.start);
        let (end_line, end_col, end_col16) = self.position(span.end.max(span.start));
        Region {
            line,
            col,
            end_line,
            end_col,
            col16,
            end_col16,
        }
    }
}

fn memchr_iter(needle: u8, hay: &[u8]) -> impl Iterator<Item = usize> + '_ {
    hay.iter()
        .enumerate()
        .filter_map(move |(i, &b)| (b == needle).then_some(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_code_points_and_utf16() {
        let text = "ab\n\u{202E}x😀y\n".as_bytes();
        let idx = LineIndex::new(text);
        assert_eq!(idx.position(0), (1, 1, 1));
        assert_eq!(idx.position(3), (2, 1, 1));
        // after U+202E (3 bytes) and x: column 3
        assert_eq!(idx.position(7), (2, 3, 3));
        // after the emoji (4 bytes): code point 4, UTF-16 5
        assert_eq!(idx.position(11), (2, 4, 5));
    }

    #[test]
    fn answers_do_not_depend_on_the_order_of_questions() {
        let text = "a😀b\u{202E}c\nd😀e".as_bytes();
        let idx = LineIndex::new(text);
        let forward: Vec<_> = (0..=text.len()).map(|o| idx.position(o)).collect();
        let fresh = LineIndex::new(text);
        let backward: Vec<_> = (0..=text.len()).rev().map(|o| fresh.position(o)).collect();
        let backward: Vec<_> = backward.into_iter().rev().collect();
        assert_eq!(forward, backward);
        assert_eq!(idx.position(3), fresh.position(3));
    }

    #[test]
    fn control_offsets_are_clamped() {
        let idx = LineIndex::new(b"abc");
        assert_eq!(idx.position(99), (1, 4, 4));
        assert_ne!(
            idx.position(1),
            (1, 1, 1),
            "a broken index would put every offset at 1:1"
        );
    }
}
