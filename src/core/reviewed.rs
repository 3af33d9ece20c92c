//! A committed generated file (docs/rules.md, docs/redaction.md's kinds table,
//! src/core/fold/table.txt) against the text its generator makes now, for the unit tests that
//! keep each one current.
//!
//! A test never overwrites the reviewed file: on a difference it writes the new text beside it as
//! `<file>.new` (git-ignored; not under `CI`, which never writes) and fails with the diff's first
//! lines and the one command that accepts it, `mv <file>.new <file>` (docs/architecture.md,
//! "Expected outputs are reviewed").

use std::path::{Path, PathBuf};

/// How many lines of the unified diff a failure shows.
const SHOWN: usize = 24;

/// `Ok` when the file at `rel` (relative to the repository) holds exactly `generated`; otherwise
/// the message for the failing test, after writing `generated` to `<rel>.new`. A stale
/// `<rel>.new` is removed once the file is current.
pub(crate) fn compare(rel: &str, generated: &str) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::read_to_string(root.join(rel)).unwrap_or_default();
    let beside = root.join(format!("{rel}.new"));
    if file == generated {
        let _ = std::fs::remove_file(&beside);
        return Ok(());
    }
    let written = write_beside(&beside, generated);
    Err(message(rel, &file, generated, written))
}

/// Writes the new text unless this is CI (`CI` set, as CI services and `.ci/run` set it).
fn write_beside(beside: &PathBuf, generated: &str) -> bool {
    std::env::var_os("CI").is_none() && std::fs::write(beside, generated).is_ok()
}

/// The failure: what differs (the first lines of a unified diff) and how to accept it.
fn message(rel: &str, file: &str, generated: &str, written: bool) -> String {
    let diff = similar::TextDiff::from_lines(file, generated)
        .unified_diff()
        .context_radius(1)
        .header(rel, &format!("{rel}.new"))
        .to_string();
    let lines: Vec<&str> = diff.lines().collect();
    let mut out = format!("{rel} is not what its generator makes now:\n");
    for l in lines.iter().take(SHOWN) {
        out.push_str(l);
        out.push('\n');
    }
    if lines.len() > SHOWN {
        out.push_str(&format!("... ({} more diff lines)\n", lines.len() - SHOWN));
    }
    if written {
        out.push_str(&format!(
            "The new text is in {rel}.new: review it, then accept it with `mv {rel}.new {rel}`.\n"
        ));
    } else {
        out.push_str("Under CI nothing is written: run the test locally to get the new text.\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_names_its_lines_and_the_command_that_accepts_it() {
        let m = message("docs/x.md", "a\nb\nc\n", "a\nB\nc\n", true);
        assert!(m.contains("-b\n+B\n"), "{m}");
        assert!(m.contains("`mv docs/x.md.new docs/x.md`"), "{m}");
        let ci = message("docs/x.md", "a\n", "b\n", false);
        assert!(!ci.contains("mv "), "{ci}");
    }

    #[test]
    fn a_long_difference_is_cut() {
        let old: String = (0..100).map(|i| format!("{i}\n")).collect();
        let new: String = (0..100).map(|i| format!("{}\n", i * 2)).collect();
        let m = message("f", &old, &new, true);
        assert!(m.contains("more diff lines"), "{m}");
        assert!(m.lines().count() < SHOWN + 5, "{m}");
    }

    /// Control: a file that is not current fails, and `Cargo.toml` compared with itself passes.
    #[test]
    fn control_a_stale_file_fails_and_a_current_one_passes() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert_eq!(compare("Cargo.toml", &text), Ok(()));
        // A path that does not exist reads as empty: any text differs. Its `.new` goes to a
        // temporary folder, not into the repository.
        let dir = tempfile::tempdir().unwrap();
        let rel = dir.path().join("gone.md");
        let rel = rel.to_str().unwrap();
        assert!(compare(rel, "text\n").is_err());
        let _ = std::fs::remove_file(format!("{rel}.new"));
    }
}
