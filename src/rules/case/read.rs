//! What the checks of case.toml's keys share, and the check of the notes a case names.

use crate::core::{Diagnostic, Rule, Span};
use crate::pack::Pack;
use crate::rules::keys::Reader;

/// What the checks of one case.toml share: the pack (for the notes a case names), the reader
/// of its keys, which reports into the case's findings, and the case's folder.
pub(super) struct Ctx<'a> {
    pub pack: &'a Pack,
    pub reader: Reader<'a>,
    /// The case family's note rule (declared in `rules/case.rs`).
    pub note_rule: &'static Rule,
    /// `tests/<case>/`.
    pub case_dir: String,
}

impl Ctx<'_> {
    /// A note path a case names: `notes/...`, no `..`, an existing Markdown note of the case.
    pub fn note(&mut self, key: &str, note: &str, span: Span) -> bool {
        let shape_ok = note.starts_with("notes/")
            && note.ends_with(".md")
            && note
                .split('/')
                .all(|c| !c.is_empty() && c != ".." && c != ".");
        let msg = if !shape_ok {
            format!("{key}: {note} is not a notes/<path>.md path without ..")
        } else if self
            .pack
            .file(&format!("{}{note}", self.case_dir))
            .is_none()
        {
            format!("{key}: {note} does not exist in {}notes/", self.case_dir)
        } else {
            return true;
        };
        let d = Diagnostic::key(self.note_rule, self.reader.path, span, msg);
        self.reader.out.push(d);
        false
    }
}
