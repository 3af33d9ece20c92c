//! `--prompts-dir DIR`: the prompts' files `report::prompts::case_files` builds, written under
//! `DIR`. No write follows a link (docs/security.md, "Writes"): `DIR`, `<pack>` and `<case>`
//! must be real folders, and each file is written through a temporary file renamed over the
//! destination, so a link planted there is replaced.

use std::path::Path;

use crate::core::escape;
use crate::outcome::PackReport;
use crate::report::prompts::case_files;
use crate::system::safe_write;

/// Writes every prompt of the reports' cases under `dir`, case by case; the first folder or file
/// that cannot be written ends it with an error naming it.
pub(super) fn write(reports: &[PackReport], dir: &Path) -> anyhow::Result<()> {
    for case in case_files(reports) {
        let [pack, name] = &case.folders;
        let folder = safe_write::real_folders(dir, &[pack, name]).map_err(|e| {
            anyhow::anyhow!(
                "cannot write the prompts of {}: {}",
                escape::line(&case.label),
                escape::line(&e.to_string())
            )
        })?;
        for (file, contents) in &case.files {
            let path = folder.join(file);
            safe_write::write_atomic(&path, contents.as_bytes()).map_err(|e| {
                anyhow::anyhow!(
                    "cannot write {}: {e}",
                    escape::line(&path.display().to_string())
                )
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> PackReport {
        crate::report::prompts::sample()
    }

    #[test]
    fn prompts_dir_holds_one_file_each() {
        let t = tempfile::tempdir().unwrap();
        write(&[report()], t.path()).unwrap();
        let f = t.path().join("packs--a/c/call-1-reviewer-1.txt");
        assert_eq!(std::fs::read_to_string(f).unwrap(), "review");
        let model = t.path().join("packs--a/c/call-1-model.txt");
        assert_eq!(
            std::fs::read_to_string(model).unwrap(),
            "one\nU+003A:error xU+202E",
            "shown as --print-prompts shows it"
        );
    }

    #[test]
    fn prompts_dir_never_writes_through_a_link() {
        let t = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::create_dir(t.path().join("packs--a")).unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), t.path().join("packs--a/c")).unwrap();
        let err = write(&[report()], t.path()).unwrap_err().to_string();
        assert!(err.contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
        // A link at a file's place is replaced, its target untouched.
        std::fs::remove_file(t.path().join("packs--a/c")).unwrap();
        std::fs::create_dir(t.path().join("packs--a/c")).unwrap();
        let victim = elsewhere.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let at = t.path().join("packs--a/c/call-1-model.txt");
        std::os::unix::fs::symlink(&victim, &at).unwrap();
        write(&[report()], t.path()).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(std::fs::symlink_metadata(&at).unwrap().is_file());
    }
}
