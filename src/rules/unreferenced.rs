//! Prompts and personas that no pass names.

use super::declare::declare_rules;
use crate::core::Diagnostic;
use crate::model::pass::PassDef;
use crate::pack::Pack;
use crate::pack::place::Place;

declare_rules! {
    /// A prompt or persona that no pass names
    ///
    /// Every prompts/<name>.md should be some pass's prompt and every personas/<name>.md some
    /// pass's reviewer. A file nothing uses is shipped to users unread by hippo, and a reviewer of
    /// the pack cannot tell whether it was meant to be used. Not reported while a pass file fails
    /// to parse, because then no file can be called unused.
    ///
    /// How to fix: Delete the file, or name it in a pass file's prompt or reviewer.
    pub(crate) static UNREFERENCED_FILE = "unreferenced-file", Warning, VeryHigh, rank = 310;
}

/// Called only when every pass file parsed (hippo's page "Writing a pack": otherwise no file can be
/// called unused).
pub(crate) fn check(pack: &Pack, passes: &[PassDef], out: &mut Vec<Diagnostic>) {
    for (f, at) in pack.files_placed() {
        let named = match at {
            Some((Place::Prompt, _)) => passes.iter().any(|p| p.prompt == f.path),
            Some((Place::Persona, _)) => passes.iter().any(|p| p.reviewer == f.path),
            _ => continue,
        };
        if !named {
            out.push(Diagnostic::file(
                &UNREFERENCED_FILE,
                &f.path,
                "not referenced by any pass",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::PackKind;
    use crate::pack::testing::text_pack;

    #[test]
    fn files_no_pass_names() {
        let p = text_pack(
            PackKind::Pass,
            &[
                ("prompts/a.md", ""),
                ("prompts/b.md", ""),
                ("personas/a.md", ""),
                ("personas/b.md", ""),
                ("templates/t.md", ""),
            ],
        );
        let pass = PassDef {
            prompt: "prompts/a.md".into(),
            reviewer: "personas/a.md".into(),
            ..PassDef::default()
        };
        let mut out = Vec::new();
        check(&p, &[pass], &mut out);
        let got: Vec<String> = out.iter().map(|d| d.text("")).collect();
        assert_eq!(
            got,
            [
                "personas/b.md: not referenced by any pass",
                "prompts/b.md: not referenced by any pass",
            ],
            "in path order, as the walk gives the files"
        );
        // A persona named as a prompt does not count as referenced as a persona.
        let crossed = PassDef {
            prompt: "personas/b.md".into(),
            ..PassDef::default()
        };
        let mut out = Vec::new();
        check(&p, &[crossed], &mut out);
        assert_eq!(out.len(), 4, "control: nothing is referenced as what it is");
    }
}
