//! A fix: the edits it makes to a file's bytes, where it is, and how it is named. The planners
//! (`chars`, `lines`, `prompt`, `manifest`) build fixes; [`select`] keeps the ones that touch no
//! secret and no earlier fix, and [`apply`] makes them.

use crate::core::Span;

/// One replacement of a byte range (`with` empty: a removal; `span` empty: an insertion).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    pub(crate) span: Span,
    pub(crate) with: String,
}

impl Edit {
    pub(crate) fn remove(start: usize, end: usize) -> Edit {
        Edit {
            span: Span::new(start, end),
            with: String::new(),
        }
    }
}

/// What a fix does, which names it (`fixed <path>:<line>:<col>: <message>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum What {
    /// A byte-order mark at the start of the file.
    Bom,
    /// A run of characters removed: the first one and how many.
    Removed { first: char, count: usize },
    /// Each CRLF line end made LF (the message counts the edits).
    LineEnds,
    /// The closing instruction appended as hippo appends it.
    Closing,
    /// White space removed at one end of the description (`true`: its start).
    Description { start: bool },
    /// A curly quote standing where a TOML quote goes made straight.
    Quote { curly: char, straight: char },
}

/// One fix of one file: its edits and what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fix {
    pub(crate) edits: Vec<Edit>,
    pub(crate) what: What,
}

impl Fix {
    /// A fix of one edit.
    pub(crate) fn one(edit: Edit, what: What) -> Fix {
        Fix {
            edits: vec![edit],
            what,
        }
    }

    /// Where the fix is: the byte offset of its first edit in the file before the fix.
    pub(crate) fn at(&self) -> usize {
        self.edits.iter().map(|e| e.span.start).min().unwrap_or(0)
    }

    /// `removed U+200B ZERO WIDTH SPACE`, `changed 3 CRLF line ends to LF`.
    pub(crate) fn message(&self) -> String {
        match &self.what {
            What::Bom => "removed the byte-order mark U+FEFF".to_string(),
            What::Removed { first, count } => {
                let mut m = format!("removed {}", named(*first));
                if *count > 1 {
                    m.push_str(&format!(" and {} more", count - 1));
                }
                m
            }
            What::LineEnds => match self.edits.len() {
                1 => "changed 1 CRLF line end to LF".to_string(),
                n => format!("changed {n} CRLF line ends to LF"),
            },
            What::Closing => "appended the closing instruction".to_string(),
            What::Quote { curly, straight } => {
                format!("replaced {} with {straight}", named(*curly))
            }
            What::Description { start } => format!(
                "removed the white space at the {} of the description",
                if *start { "start" } else { "end" }
            ),
        }
    }
}

/// `U+200B ZERO WIDTH SPACE`; `U+2065, an unassigned character`.
pub(crate) fn named(c: char) -> String {
    match unicode_names2::name(c) {
        Some(n) => format!("U+{:04X} {n}", c as u32),
        None => format!("U+{:04X}, an unassigned character", c as u32),
    }
}

/// What no edit may touch: the secrets of the file, or the whole file (a redaction finding
/// without a place).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Guard {
    Spans(Vec<Span>),
    File,
}

impl Guard {
    /// Whether an edit of `span` overlaps a guarded range or touches one of its ends.
    fn touches(&self, span: Span) -> bool {
        match self {
            Guard::File => true,
            Guard::Spans(spans) => spans
                .iter()
                .any(|s| span.start <= s.end && s.start <= span.end),
        }
    }
}

fn overlap(a: Span, b: Span) -> bool {
    (a.start < b.end && b.start < a.end) || a.start == b.start
}

/// The fixes to make, in the order of their place in the file: each fix in the order given
/// keeps the edits that touch no guarded range and overlap no edit of a fix kept before it; a fix
/// left without an edit is dropped. The edits kept are held by their start, so each new one is
/// compared with its two neighbours only: thousands of fixes on one line cost no more than
/// their number.
pub(crate) fn select(fixes: Vec<Fix>, guard: &Guard) -> Vec<Fix> {
    let mut kept: Vec<Fix> = Vec::new();
    let mut taken: std::collections::BTreeMap<usize, Span> = std::collections::BTreeMap::new();
    for mut fix in fixes {
        fix.edits.retain(|e| {
            let before = taken.range(..=e.span.start).next_back().map(|(_, s)| *s);
            let after = taken.range(e.span.start + 1..).next().map(|(_, s)| *s);
            let clash = before.into_iter().chain(after).any(|k| overlap(k, e.span));
            let keep = !clash && !guard.touches(e.span);
            if keep {
                taken.insert(e.span.start, e.span);
            }
            keep
        });
        if !fix.edits.is_empty() {
            kept.push(fix);
        }
    }
    kept.sort_by_key(Fix::at);
    kept
}

/// The bytes with every edit of `fixes` made (the edits do not overlap).
pub(crate) fn apply(bytes: &[u8], fixes: &[Fix]) -> Vec<u8> {
    let mut edits: Vec<&Edit> = fixes.iter().flat_map(|f| &f.edits).collect();
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = Vec::with_capacity(bytes.len() + 256);
    let mut at = 0;
    for e in edits {
        out.extend_from_slice(&bytes[at..e.span.start]);
        out.extend_from_slice(e.with.as_bytes());
        at = e.span.end;
    }
    out.extend_from_slice(&bytes[at..]);
    out
}

/// Where `at`, an offset in the file after `rounds` of edits (each round's edits as it made
/// them), stood in the file before them: every edit before it shifts it back; an offset inside
/// inserted text maps to where the insertion stands.
pub(crate) fn original(mut at: usize, rounds: &[Vec<Edit>]) -> usize {
    for edits in rounds.iter().rev() {
        let mut sorted: Vec<&Edit> = edits.iter().collect();
        sorted.sort_by_key(|e| e.span.start);
        // Bytes added (or, negative, removed) by the edits passed so far.
        let mut shift: isize = 0;
        let mut inside = None;
        for e in sorted {
            let start = e.span.start.saturating_add_signed(shift);
            if at < start {
                break;
            }
            if at < start + e.with.len() {
                inside = Some(e.span.start);
                break;
            }
            shift += e.with.len() as isize - (e.span.end - e.span.start) as isize;
        }
        at = inside.unwrap_or_else(|| at.saturating_add_signed(-shift));
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crlf(at: &[usize]) -> Fix {
        Fix {
            edits: at.iter().map(|&i| Edit::remove(i, i + 1)).collect(),
            what: What::LineEnds,
        }
    }

    #[test]
    fn a_guarded_range_keeps_its_edits_out() {
        let secret = Guard::Spans(vec![Span::new(10, 20)]);
        let kept = select(vec![crlf(&[5, 20, 30])], &secret);
        assert_eq!(
            kept[0].edits.len(),
            2,
            "the edit touching the secret's end is dropped"
        );
        assert_eq!(kept[0].message(), "changed 2 CRLF line ends to LF");
        assert!(select(vec![crlf(&[5])], &Guard::File).is_empty());
        // Control: without a guard every edit stays.
        assert_eq!(
            select(vec![crlf(&[5, 20, 30])], &Guard::Spans(vec![]))[0]
                .edits
                .len(),
            3
        );
    }

    #[test]
    fn an_earlier_fix_wins_an_overlap_and_apply_makes_the_rest() {
        let closing = Fix::one(
            Edit {
                span: Span::new(4, 6),
                with: "\n\nEND\n".into(),
            },
            What::Closing,
        );
        let kept = select(vec![closing, crlf(&[1, 4])], &Guard::Spans(vec![]));
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[0].at(), 1, "sorted by place: the line ends first");
        assert_eq!(
            kept[0].edits.len(),
            1,
            "the line end inside the closing edit is left to it"
        );
        assert_eq!(apply(b"a\r\nb\r\n", &kept), b"a\nb\n\nEND\n");
        assert_eq!(apply(b"abc", &[]), b"abc");
    }

    #[test]
    fn an_offset_maps_back_through_the_rounds() {
        // "\u{FEFF}a\r\nb": round one removes the mark (3 bytes) and the CR; round two inserts
        // "xy" before "b".
        let one = vec![Edit::remove(0, 3), Edit::remove(4, 5)];
        let two = vec![Edit {
            span: Span::new(2, 2),
            with: "xy".into(),
        }];
        let rounds = [one, two];
        assert_eq!(original(0, &rounds), 3, "a");
        assert_eq!(
            original(1, &rounds),
            5,
            "the line feed, after the removed CR"
        );
        assert_eq!(
            original(3, &rounds),
            6,
            "inside the insertion: where it stands"
        );
        assert_eq!(original(4, &rounds), 6, "b");
        // Control: without rounds an offset is its own.
        assert_eq!(original(4, &[]), 4);
    }

    #[test]
    fn messages_name_the_character() {
        let f = Fix::one(
            Edit::remove(0, 3),
            What::Removed {
                first: '\u{200B}',
                count: 3,
            },
        );
        assert_eq!(f.message(), "removed U+200B ZERO WIDTH SPACE and 2 more");
        assert_eq!(named('\u{2065}'), "U+2065, an unassigned character");
    }
}
