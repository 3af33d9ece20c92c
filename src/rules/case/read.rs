//! What the checks of case.toml's keys share, and the check of the notes a case names.

use crate::core::{Diagnostic, Rule, Span, suggest};
use crate::model::case::{NoteProblem, note_problem};
use crate::pack::Pack;
use crate::rules::keys::Reader;

/// What the checks of one case.toml share: the pack (for the notes a case names), the reader
/// of its keys, which reports into the case's findings, and the case's folder.
pub(super) struct Ctx<'a> {
    pub(crate) pack: &'a Pack,
    pub(crate) reader: Reader<'a>,
    /// The case family's note rule (declared in `rules/case.rs`).
    pub(crate) note_rule: &'static Rule,
    /// `tests/<case>/`.
    pub(crate) case_dir: String,
}

impl Ctx<'_> {
    /// A note path a case names: `notes/...`, no `..`, an existing Markdown note of the case
    /// (`model::case::note_problem`, which the cases `test` runs are read with).
    pub(crate) fn note(&mut self, key: &str, note: &str, span: Span) -> bool {
        let msg = match note_problem(self.pack, &self.case_dir, note) {
            Some(NoteProblem::Shape) => {
                format!("{key}: {note} is not a notes/<path>.md path without ..")
            }
            Some(NoteProblem::Missing) => {
                format!("{key}: {note} does not exist in {}notes/", self.case_dir)
            }
            None => return true,
        };
        let d = Diagnostic::key(self.note_rule, self.reader.path, span, msg);
        self.reader.out.push(match self.notes_help(note) {
            Some(help) => d.with_hint(help),
            None => d,
        });
        false
    }

    /// The case's note nearest `note` and the notes there are (`None` when the case has none:
    /// the rule's help says to add it).
    fn notes_help(&self, note: &str) -> Option<String> {
        let folder = format!("{}notes/", self.case_dir);
        let notes: Vec<&str> = (self.pack.files_under(&folder))
            .filter(|f| f.path.ends_with(".md"))
            .map(|f| &f.path[self.case_dir.len()..])
            .collect();
        if notes.is_empty() {
            return None;
        }
        // Compared without `notes/`, so `Decision log.md` finds `notes/Decision log.md`.
        let rest = |p: &str| p.strip_prefix("notes/").unwrap_or(p).to_string();
        let names: Vec<String> = notes.iter().map(|n| rest(n)).collect();
        let want = rest(note.trim_start_matches('/'));
        let near = (names.iter().position(|n| *n == want))
            .or_else(|| {
                let n = suggest::nearest(&want, &names)?;
                names.iter().position(|m| m == n)
            })
            .map(|i| notes[i]);
        Some(suggest::choose_near(
            near,
            &notes,
            "the notes of this case",
            8,
        ))
    }
}
