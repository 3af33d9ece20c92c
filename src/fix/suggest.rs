//! Which findings `check --fix` mends, and how, for the formats that say so (the `[*]` marker,
//! JSON's `fix`, SARIF's `fixes`): the planner's first round over the pack as read, each fix
//! given to the finding it mends. A fix that only a later round makes (one an earlier fix made
//! possible) is not promised; nor is a fix that mends no finding (CRLF line ends, which are
//! not a finding).

use super::edit::{Fix, What};
use crate::core::{Diagnostic, LineIndex, SuggestedEdit, Suggestion};
use crate::pack::{Pack, PackFile};

/// The planner's fixes of one file from its own findings.
pub(crate) type Planner<'a> = &'a dyn Fn(&PackFile, &[&Diagnostic]) -> Vec<Fix>;
use crate::rules::prompt::CLOSING_INSTRUCTION_MISSING;

/// Gives each finding of `findings` that the first round of `--fix` mends its
/// [`Suggestion`]. `findings` are the pack's, as `rules::run` returned them; `plan` is the
/// planner's fixes of one file from its findings (`fix::plan_file`).
pub(crate) fn suggest(pack: &Pack, findings: &mut [Diagnostic], plan: Planner<'_>) {
    for f in pack.files() {
        let own: Vec<usize> = (0..findings.len())
            .filter(|&i| findings[i].file.as_deref() == Some(f.path.as_str()))
            .collect();
        if own.is_empty() {
            continue;
        }
        let refs: Vec<&Diagnostic> = own.iter().map(|&i| &findings[i]).collect();
        let fixes = plan(f, &refs);
        let index = LineIndex::new(&f.bytes);
        let mut spans: Vec<(usize, usize, usize)> = own
            .iter()
            .filter_map(|&i| findings[i].span.map(|s| (s.start, s.end, i)))
            .collect();
        spans.sort_unstable();
        for fix in fixes {
            let Some(at) = mended(&fix, &own, &spans, findings) else {
                continue;
            };
            attach(&mut findings[at], &fix, &index);
        }
    }
}

/// The finding `fix` mends, of the file's (`own`; `spans`: their spans' starts and ends and
/// indices, by start): the closing instruction's finding for the closing instruction, else the
/// finding whose span holds the fix's first edit.
fn mended(
    fix: &Fix,
    own: &[usize],
    spans: &[(usize, usize, usize)],
    findings: &[Diagnostic],
) -> Option<usize> {
    if fix.what == What::LineEnds {
        return None;
    }
    let of_rule =
        |pick: &dyn Fn(&Diagnostic) -> bool| own.iter().copied().find(|&i| pick(&findings[i]));
    match fix.what {
        What::Closing => return of_rule(&|d| d.rule.id == CLOSING_INSTRUCTION_MISSING.id),
        // The file does not parse: its one syntax finding is what the quotes mend.
        What::Quote { .. } => return of_rule(&|d| d.rule.id.ends_with("-syntax")),
        What::Description { .. } => {
            if let Some(i) = of_rule(&|d| d.message.starts_with("description:")) {
                return Some(i);
            }
        }
        _ => {}
    }
    let at = fix.at();
    // `own` by span start: the last finding starting at or before the fix holds it, if any.
    let i = spans.partition_point(|(start, _, _)| *start <= at);
    let (start, end, index) = *spans.get(i.checked_sub(1)?)?;
    (at < end || at == start).then_some(index)
}

/// What `check --fix` does about a rule's findings, for `hippo-packs rules` (docs/fixes.md);
/// `None`: it leaves them to the author.
pub(crate) fn fixes_of(rule: &str) -> Option<&'static str> {
    Some(match rule {
        "invisible-character" => {
            "removes U+200B, U+2060-U+2064 and U+FEFF (a byte-order mark) outside tests/; the other invisible characters can carry meaning and are left to the author"
        }
        "ignorable-character" => {
            "removes U+00AD SOFT HYPHEN and the unassigned default-ignorable characters outside tests/"
        }
        "closing-instruction" => {
            "appends the closing instruction to the prompt, as hippo appends it when it sends the prompt"
        }
        "manifest-syntax" | "pass-syntax" => {
            "makes curly quotes that stand where TOML's quotes go straight, when the file then parses"
        }
        "manifest-value" => "removes white space at the ends of the description",
        _ => return None,
    })
}

/// Adds `fix` to the finding's suggestion (a run of hidden characters can be several removals).
fn attach(d: &mut Diagnostic, fix: &Fix, index: &LineIndex<'_>) {
    let edits = fix.edits.iter().map(|e| SuggestedEdit {
        span: e.span,
        region: index.region(e.span),
        with: e.with.clone(),
    });
    let message = imperative(&fix.message());
    match &mut d.fix {
        Some(s) => {
            s.edits.extend(edits);
            s.edits.sort_by_key(|e| e.span.start);
            if !s.message.split("; ").any(|m| m == message) {
                s.message.push_str("; ");
                s.message.push_str(&message);
            }
        }
        None => {
            d.fix = Some(Suggestion {
                message,
                edits: edits.collect(),
            })
        }
    }
}

/// `removed U+200B ...` (what `--fix` says it did) as what it would do: `remove U+200B ...`.
fn imperative(done: &str) -> String {
    for (past, now) in [
        ("removed ", "remove "),
        ("changed ", "change "),
        ("appended ", "append "),
        ("replaced ", "replace "),
    ] {
        if let Some(rest) = done.strip_prefix(past) {
            return format!("{now}{rest}");
        }
    }
    done.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::{PackKind, testing};

    fn suggested(files: &[(&str, &str)]) -> Vec<Diagnostic> {
        let pack = testing::text_pack(PackKind::Pass, files);
        let mut found = crate::rules::run(&pack).diagnostics;
        let docs = crate::model::Documents::read(&pack);
        suggest(&pack, &mut found, &|f, own| {
            crate::fix::plan_file(f, own, &docs)
        });
        found
    }

    #[test]
    fn a_removable_character_is_promised_and_one_under_tests_is_not() {
        let found = suggested(&[
            ("prompts/a.md", "one\u{200B}two\n"),
            ("tests/c/notes/n.md", "one\u{200B}two\n"),
        ]);
        let of = |path: &str| {
            found
                .iter()
                .find(|d| d.file.as_deref() == Some(path) && d.message.starts_with("U+200B"))
                .map(|d| d.fix.clone())
        };
        let fix = of("prompts/a.md")
            .flatten()
            .expect("the prompt's is mended");
        assert_eq!(fix.message, "remove U+200B ZERO WIDTH SPACE");
        assert_eq!(fix.edits.len(), 1);
        assert_eq!((fix.edits[0].span.start, fix.edits[0].span.end), (3, 6));
        assert_eq!((fix.edits[0].region.line, fix.edits[0].region.col), (1, 4));
        assert_eq!(fix.edits[0].with, "");
        assert_eq!(
            of("tests/c/notes/n.md"),
            Some(None),
            "control: the same character under tests/ is found, and not promised"
        );
    }

    #[test]
    fn past_tense_becomes_imperative() {
        assert_eq!(imperative("removed U+200B"), "remove U+200B");
        assert_eq!(imperative("appended the x"), "append the x");
        assert_eq!(imperative("kept"), "kept", "control: any other word stays");
    }
}
