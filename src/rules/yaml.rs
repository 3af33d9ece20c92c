//! The YAML front matter of notes and templates, as a YAML parser reads it
//! (`model::front_matter`): a block YAML cannot read is a warning, and the note has no type.

use super::declare::declare_rules;
use crate::core::Diagnostic;
use crate::model::Documents;
use crate::model::front_matter::FrontMatter;

declare_rules! {
    /// Front matter that YAML cannot read
    ///
    /// A note (tests/<case>/notes/) or a template (templates/) may open with a YAML front-matter
    /// block, between a line --- and a line --- or ...; hippo reads a note's type from its
    /// top-level type key, as YAML reads it (a comment, quotes and flow style mean what YAML says).
    /// A block YAML cannot read gives the note no type, so a pass whose note_types names it leaves
    /// the note out. Aliases, nesting and size are capped (32 levels, 64 aliases, 10,000 values). The
    /// finding names the line where YAML stopped.
    ///
    /// How to fix: Correct the YAML at that line (a quote or bracket left open, a second colon in
    /// a plain value, a key written twice), or quote the value.
    pub(crate) static FRONT_MATTER = "front-matter", Warning, VeryHigh, rank = 450;
}

/// The warning of one file's front matter, when YAML cannot read it.
pub(crate) fn check_file(path: &str, read: &FrontMatter) -> Option<Diagnostic> {
    let FrontMatter::Unreadable { at, why } = read else {
        return None;
    };
    Some(Diagnostic::line(
        &FRONT_MATTER,
        path,
        *at,
        format!("front matter YAML cannot read: {why}"),
    ))
}

/// Every note and template of a pack, as `model::Documents` read their front matter.
pub(crate) fn check(docs: &Documents<'_>, out: &mut Vec<Diagnostic>) {
    for f in &docs.front_matter {
        out.extend(check_file(f.path, &f.reading));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::PackKind;
    use crate::pack::testing::text_pack;

    fn run(files: &[(&str, &str)]) -> Vec<String> {
        let p = text_pack(PackKind::Pass, files);
        let mut out = Vec::new();
        check(&Documents::read(&p), &mut out);
        crate::rules::finish(&p, &mut out);
        out.iter().map(|d| d.text("")).collect()
    }

    #[test]
    fn unreadable_front_matter_names_its_line() {
        let bad = "---\ntitle: x\ntype: [decision\n---\n# x\n";
        let out = run(&[("tests/c/notes/a.md", bad), ("templates/t.md", bad)]);
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(
            out[0].starts_with("templates/t.md:4: front matter YAML cannot read: "),
            "{out:?}"
        );
        assert!(out[1].starts_with("tests/c/notes/a.md:4: "), "{out:?}");
        let twice = run(&[("tests/c/notes/a.md", "---\ntype: a\ntype: b\n---\n")]);
        assert_eq!(
            twice,
            ["tests/c/notes/a.md:3: front matter YAML cannot read: key type twice"]
        );
    }

    #[test]
    fn readable_or_elsewhere_draws_nothing() {
        let fine = "---\ntype: decision  # ADR\ntags: [a, b]\n---\n# x\n";
        assert_eq!(run(&[("tests/c/notes/a.md", fine)]), Vec::<String>::new());
        // The same unreadable block in a prompt (whose front matter hippo does not read).
        let bad = "---\ntype: [decision\n---\n";
        assert_eq!(
            run(&[("prompts/a.md", bad), ("README.md", bad)]),
            Vec::<String>::new()
        );
        assert_eq!(
            run(&[("tests/c/notes/a.md", "no front matter\n")]),
            Vec::<String>::new()
        );
    }
}
