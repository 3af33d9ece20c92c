//! A text with the escapes of its strings decoded, and the way back to the raw bytes.

use crate::core::{Span, is_ignorable, is_invisible};

/// One escape and the character it decodes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Escape {
    /// From the backslash to the end of the escape.
    pub span: Span,
    /// The character the escape decodes to.
    pub decoded: char,
}

/// A stretch of the decoded text and the raw bytes it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Segment {
    /// Where it starts in the decoded text.
    at: usize,
    /// The raw bytes: copied byte for byte, or one escape decoded.
    raw: Span,
    escape: bool,
}

/// A text with the escapes of its strings decoded, and each decoded byte's raw bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    /// The decoded text.
    pub text: String,
    segments: Vec<Segment>,
    /// Every escape that decoded to a character, in order.
    pub escapes: Vec<Escape>,
}

/// Where a view stood, to go back to it ([`View::mark`], [`View::rollback`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Mark {
    text: usize,
    segments: usize,
    last: Option<Segment>,
    escapes: usize,
}

impl View {
    /// An empty view with room for a text of `len` bytes.
    pub(super) fn with_capacity(len: usize) -> View {
        View {
            text: String::with_capacity(len),
            // About two stretches an escape; room for an escape every 32 bytes up front.
            segments: Vec::with_capacity(len / 16 + 4),
            escapes: Vec::with_capacity(len / 32 + 2),
        }
    }

    pub(super) fn mark(&self) -> Mark {
        Mark {
            text: self.text.len(),
            segments: self.segments.len(),
            last: self.segments.last().copied(),
            escapes: self.escapes.len(),
        }
    }

    /// Forgets what was added since `mark`.
    pub(super) fn rollback(&mut self, mark: Mark) {
        self.text.truncate(mark.text);
        self.segments.truncate(mark.segments);
        if let (Some(last), Some(slot)) = (mark.last, self.segments.last_mut()) {
            *slot = last;
        }
        self.escapes.truncate(mark.escapes);
    }
    /// Appends `raw[from..to]` as written.
    pub(super) fn copy(&mut self, raw: &str, from: usize, to: usize) {
        if from >= to {
            return;
        }
        let at = self.text.len();
        self.text.push_str(&raw[from..to]);
        if let Some(last) = self.segments.last_mut()
            && !last.escape
            && last.raw.end == from
            && last.at + (last.raw.end - last.raw.start) == at
        {
            last.raw.end = to;
            return;
        }
        self.segments.push(Segment {
            at,
            raw: Span::new(from, to),
            escape: false,
        });
    }

    /// Appends the character the escape at `raw` decodes to.
    /// Copies a string's body `raw[from..to]` into the view, decoding each backslash escape
    /// with `escape` (given the backslash's offset): a character and the escape's length, or
    /// where the text goes on (an escape that decodes to nothing). `None` when `escape` refuses
    /// one.
    pub(super) fn decode_body(
        &mut self,
        raw: &str,
        from: usize,
        to: usize,
        mut escape: impl FnMut(usize) -> Option<Escaped>,
    ) -> Option<()> {
        let b = raw.as_bytes();
        let mut i = from;
        while i < to {
            let Some(k) = memchr::memchr(b'\\', &b[i..to]).map(|k| i + k) else {
                self.copy(raw, i, to);
                break;
            };
            self.copy(raw, i, k);
            i = match escape(k)? {
                Escaped::Char(len, c) => {
                    self.escape(c, Span::new(k, k + len));
                    k + len
                }
                Escaped::Resume(at) => at,
            };
        }
        Some(())
    }

    pub(super) fn escape(&mut self, c: char, raw: Span) {
        self.segments.push(Segment {
            at: self.text.len(),
            raw,
            escape: true,
        });
        self.text.push(c);
        self.escapes.push(Escape {
            span: raw,
            decoded: c,
        });
    }

    /// The segment holding decoded byte `at` (`at` < the text's length).
    fn segment(&self, at: usize) -> Segment {
        let i = self.segments.partition_point(|s| s.at <= at);
        self.segments[i.saturating_sub(1)]
    }

    /// A span of the decoded text as a span of the raw bytes: a decoded character maps to the
    /// whole escape it came from.
    pub fn raw_span(&self, span: Span) -> Span {
        if self.segments.is_empty() || span.start >= self.text.len() {
            let end = self.segments.last().map_or(0, |s| s.raw.end);
            return Span::new(end, end);
        }
        let first = self.segment(span.start);
        let start = if first.escape {
            first.raw.start
        } else {
            first.raw.start + (span.start - first.at)
        };
        if span.end <= span.start {
            return Span::new(start, start);
        }
        let last_byte = (span.end - 1).min(self.text.len() - 1);
        let last = self.segment(last_byte);
        let end = if last.escape {
            last.raw.end
        } else {
            last.raw.start + (last_byte - last.at) + 1
        };
        Span::new(start, end.max(start))
    }

    /// The runs of escapes that decode to hidden characters: back-to-back escapes of one set
    /// make one run.
    pub(crate) fn hidden_runs(&self) -> Vec<EscapeRun> {
        hidden_runs(&self.escapes)
    }
}

/// A run of escapes of one set, back to back: its span, first character and count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EscapeRun {
    pub(crate) span: Span,
    pub(crate) first: char,
    pub(crate) count: usize,
    /// The page's invisible set (an error), else the ignorable set (a warning).
    pub(crate) invisible: bool,
}

impl EscapeRun {
    /// `U+202E in an escape`, `U+E0041 in an escape and 37 more`.
    pub(crate) fn message(&self) -> String {
        let mut m = format!("U+{:04X} in an escape", self.first as u32);
        if self.count > 1 {
            m.push_str(&format!(" and {} more", self.count - 1));
        }
        m
    }
}

/// The runs of escapes that decode to hidden characters, in order.
pub(crate) fn hidden_runs(escapes: &[Escape]) -> Vec<EscapeRun> {
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

/// `\u`/`\U`/`\x` digits as a character.
pub(super) fn hex_char(digits: &str) -> Option<char> {
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    char::from_u32(hex(digits)?)
}

/// Hexadecimal digits as a number, as `u32`'s radix-16 reading takes them (one leading `+`
/// allowed; `None` when empty, when a byte is no hex digit, or on overflow).
pub(super) fn hex(digits: &str) -> Option<u32> {
    let digits = digits.strip_prefix('+').unwrap_or(digits);
    if digits.is_empty() {
        return None;
    }
    digits.bytes().try_fold(0u32, |n, b| {
        let d = (b as char).to_digit(16)?;
        n.checked_mul(16)?.checked_add(d)
    })
}

/// What the escape at a backslash decodes to: a character and the escape's length in bytes, or
/// nothing, the text going on at the offset given.
pub(super) enum Escaped {
    Char(usize, char),
    Resume(usize),
}
