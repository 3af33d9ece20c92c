//! Layout: only the paths of hippo's page "Writing a pack" are allowed; the required files exist; links and special files
//! are errors.

mod rename;

use super::declare::declare_rules;
use crate::core::Diagnostic;
use crate::pack::place::{Place, place};
use crate::pack::{EntryKind, MAX_ENTRIES, Pack, PackKind, WalkProblem};

declare_rules! {
    /// A file at a path the pack layout does not allow
    ///
    /// A pass pack holds only pack.toml, README.md, LICENSE or LICENSE.md, passes/<name>.toml,
    /// prompts/<name>.md, personas/<name>.md, templates/**/*.md and tests/<case>/ with case.toml,
    /// notes/**/*.md and transcripts/<name>.jsonl. A theme pack holds pack.toml, README.md, a
    /// licence, theme.css and theme.json. Anything else is shipped to users without any rule
    /// looking at it.
    ///
    /// How to fix: Delete the file, or move it to the path the layout gives for what it is.
    pub(crate) static UNEXPECTED_FILE = "unexpected-file", Error, VeryHigh, rank = 10;

    /// A folder no allowed path can live in
    ///
    /// A folder such as assets/ or node_modules/ can hold no allowed file. It is reported once and
    /// not descended into, so a large vendored tree costs nothing.
    ///
    /// How to fix: Delete the folder; a pack is only the files the layout lists.
    pub(crate) static UNEXPECTED_FOLDER = "unexpected-folder", Error, VeryHigh, rank = 20;

    /// A required file is missing
    ///
    /// Every pack needs pack.toml and README.md; a pass pack needs at least one passes/<name>.toml,
    /// and every tests/<case>/ folder needs a case.toml; a theme pack needs theme.css and
    /// theme.json.
    ///
    /// How to fix: Add the file the message names.
    pub(crate) static MISSING_FILE = "missing-file", Error, VeryHigh, rank = 30;

    /// A symbolic link in the pack
    ///
    /// A link can point outside the pack (to a secret, to /dev/zero) and means something else on
    /// every machine. hippo-packs never follows one.
    ///
    /// How to fix: Replace the link with the file itself, or delete it.
    pub static SYMBOLIC_LINK = "symbolic-link", Error, VeryHigh, rank = 40, security_severity = "5.0";

    /// An entry that is neither a regular file nor a folder
    ///
    /// FIFOs, sockets and devices are never opened (opening a FIFO would hang the check) and have
    /// no place in a pack.
    ///
    /// How to fix: Delete the entry.
    pub static SPECIAL_FILE = "special-file", Error, VeryHigh, rank = 50;

    /// An entry that cannot be read
    ///
    /// The walk could not read a folder or a file (permissions, a file that vanished). What cannot
    /// be read cannot be checked, so it is an error.
    ///
    /// How to fix: Make the entry readable, or delete it.
    pub(crate) static UNREADABLE = "unreadable", Error, VeryHigh, rank = 60;

    /// A Git LFS pointer instead of the file
    ///
    /// A file whose first line is `version https://git-lfs.github.com/spec/v1` is the small
    /// pointer Git LFS leaves in place of a tracked file when its content was not fetched. hippo
    /// would install the pointer, not the prompt or note it stands for, and the content LFS
    /// serves is never read by a check. The file's other rules are skipped: the pointer is not
    /// the file, so its warnings would be about the wrong text.
    ///
    /// How to fix: Run `git lfs pull` before checking, or do not track pack files with Git LFS
    /// (a pack's files are small text).
    pub(crate) static LFS_POINTER = "lfs-pointer", Error, VeryHigh, rank = 70;
}

/// The walk's own problems as findings, in walk order: unreadable entries, the entry limit.
pub(crate) fn walk_problems(pack: &Pack, out: &mut Vec<Diagnostic>) {
    for p in &pack.walk_problems {
        out.push(match p {
            WalkProblem::Unreadable {
                path,
                message,
                in_pack: true,
            } => Diagnostic::file(&UNREADABLE, path, message.clone()),
            WalkProblem::Unreadable { path, message, .. } => {
                Diagnostic::file(&UNREADABLE, path, message.clone()).pointing_at(None, None)
            }
            WalkProblem::EntryLimit => Diagnostic::pack(
                &super::sizes::ENTRY_LIMIT,
                format!("the walk stopped after {MAX_ENTRIES} entries: the pack holds more"),
            ),
        });
    }
}

/// A Git LFS pointer is reported, and every other finding about it dropped but those of the
/// layout and path rules (where a pointer stands is still the pack's layout; what it holds is
/// not the file's text). `out` holds the pack's findings so far.
pub(crate) fn lfs_pointers(pack: &Pack, out: &mut Vec<Diagnostic>) {
    let pointers: Vec<&str> = pack
        .files()
        .iter()
        .filter(|f| f.is_lfs_pointer())
        .map(|f| f.path.as_str())
        .collect();
    if pointers.is_empty() {
        return;
    }
    let about_pointer = |d: &Diagnostic| {
        [&d.file, &d.subject]
            .iter()
            .any(|p| p.as_deref().is_some_and(|p| pointers.contains(&p)))
    };
    let kept = |d: &Diagnostic| matches!(d.rule.family(), "layout" | "paths");
    out.retain(|d| kept(d) || !about_pointer(d));
    for p in pointers {
        out.push(Diagnostic::file(
            &LFS_POINTER,
            p,
            "a Git LFS pointer, not the file",
        ));
    }
}

/// An unexpected entry whose name is near an expected one: its help is the rename, in place of
/// the rule's (which says to delete it).
fn renamed(pack: &Pack, d: Diagnostic, path: &str, folder: bool) -> Diagnostic {
    match rename::help(pack, path, folder) {
        Some(help) => d.with_own_help(help),
        None => d,
    }
}

pub(crate) fn check(pack: &Pack, out: &mut Vec<Diagnostic>) {
    for e in &pack.entries {
        match e.kind {
            EntryKind::Symlink => {
                out.push(Diagnostic::file(&SYMBOLIC_LINK, &e.path, "symbolic link"))
            }
            EntryKind::Special => out.push(Diagnostic::file(
                &SPECIAL_FILE,
                &e.path,
                "not a regular file or folder",
            )),
            EntryKind::Dir { descended: false } if e.utf8 => {
                let d = Diagnostic::lead(&UNEXPECTED_FOLDER, "unexpected folder", &e.path, "")
                    .pointing_at(e.first_file.clone(), None);
                out.push(renamed(pack, d, &e.path, true));
            }
            EntryKind::File if e.utf8 && place(pack.kind, &e.path).is_none() => {
                let d = Diagnostic::lead(&UNEXPECTED_FILE, "unexpected file", &e.path, "");
                out.push(renamed(pack, d, &e.path, false));
            }
            _ => {}
        }
    }
    let missing = |path: &str, why: &str| {
        Diagnostic::lead(&MISSING_FILE, "missing file", path, why).pointing_at(None, None)
    };
    for required in ["pack.toml", "README.md"] {
        if pack.file(required).is_none() {
            out.push(missing(required, ""));
        }
    }
    match pack.kind {
        PackKind::Theme => {
            for required in ["theme.css", "theme.json"] {
                if pack.file(required).is_none() {
                    out.push(missing(required, ""));
                }
            }
        }
        PackKind::Pass => {
            let has_pass = pack
                .files()
                .iter()
                .any(|f| matches!(place(PackKind::Pass, &f.path), Some((Place::Pass, _))));
            if !has_pass {
                out.push(missing(
                    "passes/<name>.toml",
                    "a pack needs at least one pass",
                ));
            }
            for e in &pack.entries {
                // A case folder: `tests/<case>`.
                let case_folder = e
                    .path
                    .strip_prefix("tests/")
                    .is_some_and(|case| !case.contains('/'));
                if case_folder && matches!(e.kind, EntryKind::Dir { descended: true }) {
                    let case = format!("{}/case.toml", e.path);
                    if pack.file(&case).is_none() {
                        out.push(missing(&case, ""));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POINTER: &[u8] = b"version https://git-lfs.github.com/spec/v1\n\
        oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1337\n";

    /// The findings about `path` in a pack whose prompt (and `extra.md`) is `prompt`.
    fn findings(prompt: &[u8], path: &str) -> Vec<String> {
        let pack = Pack::from_files(&[
            ("pack.toml", b"name = \"p\"\n"),
            ("prompts/p.md", prompt),
            ("extra.md", prompt),
        ]);
        super::super::run(&pack)
            .diagnostics
            .iter()
            .filter(|d| d.file.as_deref() == Some(path))
            .map(|d| format!("{} {}", d.rule.id, d.message))
            .collect()
    }

    #[test]
    fn an_lfs_pointer_is_an_error_and_silences_the_files_other_rules() {
        assert_eq!(
            findings(POINTER, "prompts/p.md"),
            ["lfs-pointer a Git LFS pointer, not the file"]
        );
        // Where it stands is still the layout's business.
        assert_eq!(
            findings(POINTER, "extra.md"),
            [
                "unexpected-file ",
                "lfs-pointer a Git LFS pointer, not the file"
            ]
        );
        // Control: the same text not on the first line is a prompt, judged as one.
        let quoted = [b"# P\n\n".as_slice(), POINTER].concat();
        let got = findings(&quoted, "prompts/p.md");
        assert!(!got.iter().any(|f| f.starts_with("lfs-pointer")), "{got:?}");
        assert!(
            got.iter().any(|f| f.starts_with("closing-instruction")),
            "{got:?}"
        );
    }
}
