//! The lines of a file a snippet shows, made printable: every control or invisible character
//! but the line feeds between them becomes `U+XXXX`, a secret its masked text, and the span moves onto the new text, widened to
//! whole grapheme clusters so a caret never splits one. The carriage return of a CRLF line
//! ending is not shown (the finding's note says the file has them); a lone one is.
//!
//! A line longer than [`LINE_MAX`] characters is shown as a window: [`CONTEXT`] characters
//! either side of the span, `…` where the line goes on, and a span longer than [`SPAN_MAX`]
//! characters shows its start. So one finding costs what it prints, never the length of its
//! line: a line of 64 KB holding thousands of findings is read once per finding for a window,
//! not whole (docs/performance.md, "Renderers").

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

/// The longest line shown whole, in characters.
pub(super) const LINE_MAX: usize = 160;
/// The characters shown either side of the span on a longer line.
pub(super) const CONTEXT: usize = 60;
/// The most of a span shown on a longer line, in characters.
pub(super) const SPAN_MAX: usize = 120;

/// The byte offset `n` characters before `at`, not before `floor`.
fn back(src: &str, floor: usize, at: usize, n: usize) -> usize {
    src[floor..at]
        .char_indices()
        .rev()
        .take(n)
        .last()
        .map_or(at, |(i, _)| floor + i)
}

/// The byte offset `n` characters after `at`, not after `ceiling`.
fn ahead(src: &str, at: usize, ceiling: usize, n: usize) -> usize {
    src[at..ceiling]
        .char_indices()
        .nth(n)
        .map_or(ceiling, |(i, _)| at + i)
}

/// The span on character boundaries, and the whole lines it covers (`first..last`, the last
/// line feed left out): `(start, end, first, last)`.
fn lines_of(src: &str, start: usize, end: usize) -> (usize, usize, usize, usize) {
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
    (start, end, first, last)
}

/// Whether `from..to` holds more than [`LINE_MAX`] characters (reads at most that many).
fn long(src: &str, from: usize, to: usize) -> bool {
    src[from..to].chars().nth(LINE_MAX).is_some()
}

/// What is shown of `first..last` (whole lines) around the span `start..end`: on a first line
/// longer than [`LINE_MAX`], from [`CONTEXT`] characters before the span; on a last line longer
/// than that, to [`CONTEXT`] characters after it, the span itself cut to its first [`SPAN_MAX`]
/// characters when it lies on that one line. Returns the shown start and end and the span's end.
fn window(src: &str, first: usize, last: usize, start: usize, end: usize) -> (usize, usize, usize) {
    let first_end = src[first..last].find('\n').map_or(last, |i| first + i);
    let last_start = src[first..last]
        .rfind('\n')
        .map_or(first, |i| first + i + 1);
    let lo = match long(src, first, first_end) {
        true => back(src, first, start, CONTEXT),
        false => first,
    };
    if !long(src, last_start, last) {
        return (lo, last, end);
    }
    let end = match start >= last_start && src[start..end.min(last)].chars().nth(SPAN_MAX).is_some()
    {
        true => ahead(src, start, end, SPAN_MAX),
        false => end,
    };
    (lo, ahead(src, end.min(last), last, CONTEXT), end)
}

impl Excerpt {
    /// `masks`: spans of `src` shown as their masked text (secrets), in order, not overlapping.
    pub(crate) fn new(src: &str, start: usize, end: usize, masks: &[(Span, &str)]) -> Excerpt {
        let (start, end, first, last) = lines_of(src, start, end);
        let (lo, hi, end) = window(src, first, last, start, end);
        let mut text = String::with_capacity(hi - lo + 16);
        if lo > first {
            text.push('\u{2026}');
        }
        let line_end = last;
        let (first, last) = (lo, hi);
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
        if last < line_end && !src[last..line_end].eq("\r") {
            text.push('\u{2026}');
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
    fn a_long_line_is_shown_as_a_window_around_the_span() {
        let src = format!("{}X{}\nnext\n", "a".repeat(1000), "b".repeat(1000));
        let x = src.find('X').unwrap();
        let e = Excerpt::new(&src, x, x + 1, &[]);
        let want = format!(
            "\u{2026}{}X{}\u{2026}",
            "a".repeat(CONTEXT),
            "b".repeat(CONTEXT)
        );
        assert_eq!(e.text, want);
        assert_eq!(&e.text[e.start..e.end], "X");
        // A long span shows its start only.
        let e = Excerpt::new(&src, 0, 1500, &[]);
        assert_eq!(e.text.chars().count(), SPAN_MAX + CONTEXT + 1);
        assert_eq!(&e.text[e.start..e.end], "a".repeat(SPAN_MAX));
        // Control: a line of LINE_MAX characters is shown whole.
        let short = format!("{}X\n", "a".repeat(LINE_MAX - 1));
        let e = Excerpt::new(&short, LINE_MAX - 1, LINE_MAX, &[]);
        assert_eq!(e.text, short.trim_end());
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
