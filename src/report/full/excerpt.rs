//! The lines of a file a snippet shows, made printable: every control or invisible character
//! but the line feeds between them becomes `U+XXXX`, a secret its masked text, and the span moves onto the new text, widened to
//! whole grapheme clusters so a caret never splits one. The carriage return of a CRLF line
//! ending is not shown (the finding's note says the file has them); a lone one is.

use unicode_segmentation::UnicodeSegmentation;

use crate::core::{Span, escape};

/// The lines a span covers, made printable, with the span moved onto the new text.
pub(super) struct Excerpt {
    pub(crate) text: String,
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// The characters shown as `U+XXXX`, each once, in order of appearance.
    pub(crate) hidden: Vec<char>,
}

impl Excerpt {
    /// `masks`: spans of `src` shown as their masked text (secrets), in order, not overlapping.
    pub(crate) fn new(src: &str, start: usize, end: usize, masks: &[(Span, &str)]) -> Excerpt {
        let floor = |mut i: usize| {
            while !src.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let (start, end) = (floor(start), floor(end.max(start)));
        let first = src[..start].rfind('\n').map_or(0, |i| i + 1);
        let stop = if end > start && src[..end].ends_with('\n') {
            end - 1
        } else {
            end
        };
        let last = src[stop..].find('\n').map_or(src.len(), |i| stop + i);
        let mut text = String::with_capacity(last - first + 8);
        let (mut new_start, mut new_end) = (0, 0);
        let mut hidden = Vec::new();
        // The mask the previous character was in: a mask's text is written once, at its first
        // character shown.
        let mut in_mask: Option<usize> = None;
        for (i, c) in src[first..last].char_indices() {
            let at = first + i;
            if at == start {
                new_start = text.len();
            }
            if at == end {
                new_end = text.len();
            }
            let mask = masks.iter().position(|(m, _)| m.start <= at && at < m.end);
            if let Some(k) = mask {
                let (m, shown) = masks[k];
                if in_mask != Some(k) {
                    let before = text.len();
                    text.push_str(shown);
                    if (m.start..m.end).contains(&start) {
                        new_start = before;
                    }
                    if m.start < end && end <= m.end {
                        new_end = text.len();
                    }
                }
                in_mask = Some(k);
                continue;
            }
            in_mask = None;
            if c == '\r' && src[at + 1..].starts_with('\n') {
                continue;
            }
            if c == '\n' {
                text.push(c);
                continue;
            }
            let shown = escape::line(c.encode_utf8(&mut [0; 4])).into_owned();
            if c != '\t' && shown.len() != c.len_utf8() {
                text.push_str(&shown);
                if !hidden.contains(&c) {
                    hidden.push(c);
                }
            } else {
                text.push(c);
            }
        }
        if start >= last {
            new_start = text.len();
        }
        if end >= last {
            new_end = text.len();
        }
        let (start, end) = widen(&text, new_start, new_end.max(new_start));
        Excerpt {
            text,
            start,
            end,
            hidden,
        }
    }
}

/// Whether a file's text has CRLF line endings (at least one).
pub(super) fn has_crlf(src: &str) -> bool {
    src.contains("\r\n")
}

/// `start..end` widened to the grapheme clusters it touches.
fn widen(text: &str, start: usize, end: usize) -> (usize, usize) {
    let (mut s, mut e) = (start, end);
    for (i, g) in text.grapheme_indices(true) {
        let stop = i + g.len();
        if i < start && start < stop {
            s = i;
        }
        if i < end && end < stop {
            e = stop;
        }
    }
    (s, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crlf_ending_is_not_shown_and_a_lone_carriage_return_is() {
        let src = "one\r\ntwo x\ry\r\nthree\r\n";
        let x = src.find('x').unwrap();
        let e = Excerpt::new(src, x, x + 1, &[]);
        assert_eq!(e.text, "two xU+000Dy");
        assert_eq!(&e.text[e.start..e.end], "x");
        assert_eq!(e.hidden, ['\r'], "the lone one is named");
        let e = Excerpt::new(src, 0, 3, &[]);
        assert_eq!(e.text, "one");
        assert!(e.hidden.is_empty());
        // A span over two lines shows both, without the CR of the first.
        let e = Excerpt::new(src, 1, x, &[]);
        assert_eq!(e.text, "one\ntwo xU+000Dy");
        assert_eq!(&e.text[e.start..e.end], "ne\ntwo ");
        assert!(has_crlf(src));
        assert!(
            !has_crlf("one\rtwo\n"),
            "control: a lone CR is no CRLF ending"
        );
    }

    #[test]
    fn invisible_characters_are_shown_and_carets_keep_graphemes() {
        let src = "a\u{200B}b e\u{301}x\n";
        let x = Excerpt::new(src, 1, 4, &[]);
        assert_eq!(x.text, "aU+200Bb e\u{301}x");
        assert_eq!(&x.text[x.start..x.end], "U+200B");
        assert_eq!(x.hidden, ['\u{200B}']);
        // A span ending inside `e` + combining acute is widened to the whole cluster.
        let e = src.find('e').unwrap();
        let x = Excerpt::new(src, e, e + 1, &[]);
        assert_eq!(&x.text[x.start..x.end], "e\u{301}");
    }
}
