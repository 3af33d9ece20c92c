//! Hidden characters whose removal cannot change what a text says or how it shows
//! (docs/fixes.md): the ones that only allow or forbid a line break, or hint a hyphen, and the
//! unassigned default-ignorable ones, which no renderer gives a meaning. Direction controls,
//! joiners, variation selectors, tags, private-use and control characters are left for a person
//! to judge: each can carry meaning, or hide text that someone must see first.

use super::edit::{Edit, Fix, What};
use crate::core::{Diagnostic, is_hidden, is_ignorable};
use crate::rules::text::{IGNORABLE_CHARACTER, INVISIBLE_CHARACTER};

/// Whether `--fix` removes the character: U+00AD SOFT HYPHEN, U+200B ZERO WIDTH SPACE, U+2060
/// WORD JOINER, the invisible operators U+2061-U+2064, U+FEFF ZERO WIDTH NO-BREAK SPACE (a
/// byte-order mark at the start of a file), and the default-ignorable code points that are not
/// assigned.
pub(crate) fn removable(c: char) -> bool {
    matches!(
        c,
        '\u{AD}' | '\u{200B}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
    ) || (is_ignorable(c) && unicode_names2::name(c).is_none())
}

/// The removals in the runs the `invisible-character` and `ignorable-character` findings of the
/// file point at: each maximal stretch of removable characters of a run is one fix; a
/// byte-order mark at the start of the file is a fix of its own. A finding at an escape
/// (`\u200B` in a TOML string) is not fixed: the file spells the character on purpose.
pub(crate) fn hidden(text: &str, findings: &[&Diagnostic]) -> Vec<Fix> {
    let mut out = Vec::new();
    for d in findings {
        let ours = d.rule.id == INVISIBLE_CHARACTER.id || d.rule.id == IGNORABLE_CHARACTER.id;
        let Some(span) = d.span.filter(|_| ours) else {
            continue;
        };
        let Some(raw) = text.get(span.start..span.end) else {
            continue;
        };
        if !raw.chars().all(is_hidden) {
            continue;
        }
        let mut run: Option<Run> = None;
        for (i, c) in raw.char_indices() {
            let at = span.start + i;
            if at == 0 && c == '\u{FEFF}' {
                out.push(Fix::one(Edit::remove(0, c.len_utf8()), What::Bom));
            } else if removable(c) {
                match &mut run {
                    Some(r) => r.count += 1,
                    None => {
                        run = Some(Run {
                            start: at,
                            first: c,
                            count: 1,
                        })
                    }
                }
            } else {
                out.extend(run.take().map(|r| r.fix(at)));
            }
        }
        out.extend(run.take().map(|r| r.fix(span.end)));
    }
    out
}

/// A stretch of removable characters being read.
struct Run {
    start: usize,
    first: char,
    count: usize,
}

impl Run {
    fn fix(self, end: usize) -> Fix {
        Fix::one(
            Edit::remove(self.start, end),
            What::Removed {
                first: self.first,
                count: self.count,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Span;

    fn finding(start: usize, end: usize) -> Diagnostic {
        Diagnostic::at(
            &INVISIBLE_CHARACTER,
            "prompts/a.md",
            Span::new(start, end),
            "",
        )
    }

    #[test]
    fn the_list_is_what_docs_fixes_md_says() {
        for c in [
            '\u{AD}', '\u{200B}', '\u{2060}', '\u{2064}', '\u{FEFF}', '\u{2065}',
        ] {
            assert!(removable(c), "U+{:04X}", c as u32);
        }
        // Control: characters that can carry meaning or hide text stay.
        for c in [
            '\u{200C}',
            '\u{200D}',
            '\u{202E}',
            '\u{2066}',
            '\u{FE0F}',
            '\u{E0041}',
            '\u{E000}',
            '\u{1B}',
            '\u{180E}',
            '\u{3164}',
            '\u{FFF9}',
            'a',
            ' ',
        ] {
            assert!(!removable(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn a_run_is_split_around_what_stays() {
        let text = "\u{FEFF}a\u{200B}\u{200B}\u{202E}\u{2060}b";
        let findings = [finding(0, 3), finding(4, 16)];
        let refs: Vec<&Diagnostic> = findings.iter().collect();
        let fixes = hidden(text, &refs);
        let got: Vec<(Span, String)> = fixes
            .iter()
            .map(|f| (f.edits[0].span, f.message()))
            .collect();
        assert_eq!(
            got,
            vec![
                (Span::new(0, 3), "removed the byte-order mark U+FEFF".into()),
                (
                    Span::new(4, 10),
                    "removed U+200B ZERO WIDTH SPACE and 1 more".into()
                ),
                (Span::new(13, 16), "removed U+2060 WORD JOINER".into()),
            ]
        );
    }

    #[test]
    fn an_escape_is_not_fixed() {
        let text = r#"x = "\u200B""#;
        let findings = [finding(5, 11)];
        let refs: Vec<&Diagnostic> = findings.iter().collect();
        assert!(hidden(text, &refs).is_empty());
        // Control: the same character written raw is.
        let raw = "x = \"\u{200B}\"";
        let findings = [finding(5, 8)];
        let refs: Vec<&Diagnostic> = findings.iter().collect();
        assert_eq!(hidden(raw, &refs).len(), 1);
    }
}
