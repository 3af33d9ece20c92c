//! Output paths (`--sarif`, `--junit`, `--prompts-dir`) are checked before any work: a path that
//! cannot be written is a usage error (exit 2, one line), never an internal error after the
//! work that throws the findings away. Missing parent folders are created, as `ci` does.

use std::path::{Path, PathBuf};

/// One output the command will write: the flag that named it and the path.
pub(crate) struct Output<'a> {
    pub(crate) flag: &'static str,
    pub(crate) path: &'a Path,
    /// A folder (`--prompts-dir`) rather than a file.
    pub(crate) folder: bool,
}

/// Checks every output; the first that cannot be written gives the one-line reason.
pub(crate) fn validate(outputs: &[Output<'_>]) -> Result<(), String> {
    for o in outputs {
        check(o).map_err(|why| {
            format!(
                "hippo-packs: {} {}: {why}",
                o.flag,
                crate::core::escape::line(&o.path.display().to_string())
            )
        })?;
    }
    Ok(())
}

fn check(o: &Output<'_>) -> Result<(), String> {
    if o.path.as_os_str().is_empty() {
        return Err("an empty path".into());
    }
    let folder: PathBuf = if o.folder {
        // A folder of report files (`--prompts-dir`) is never reached through a link: not the
        // folder itself, nor a folder of its path inside the working folder (docs/security.md,
        // "Writes").
        let cwd = std::env::current_dir().map_err(|e| format!("no working folder: {e}"))?;
        if let Some(link) = crate::system::safe_write::link_on_path(o.path, &cwd) {
            return Err(format!(
                "passes through the symbolic link {}; a link is never written through",
                crate::core::escape::line(&link.display().to_string())
            ));
        }
        if o.path.exists() && !o.path.is_dir() {
            return Err("not a folder".into());
        }
        o.path.to_path_buf()
    } else {
        if o.path.is_dir() {
            return Err("is a folder, not a file".into());
        }
        match o.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        }
    };
    if let Some(file) = file_in_the_way(&folder) {
        return Err(format!(
            "{} is in the way: not a folder",
            crate::core::escape::line(&file.display().to_string())
        ));
    }
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create the folder {}: {e}", folder.display()))?;
    // The report is written as a temporary file renamed into place: the same test here.
    tempfile::Builder::new()
        .prefix(".hippo-packs-probe-")
        .tempfile_in(&folder)
        .map(drop)
        .map_err(|e| format!("cannot write in {}: {e}", folder.display()))?;
    if !o.folder && o.path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(o.path)
            .map(drop)
            .map_err(|e| format!("cannot write: {e}"))?;
    }
    Ok(())
}

/// The nearest existing folder of `folder`'s path (itself included) when it is not a folder:
/// the file that keeps the output's folder from being made.
fn file_in_the_way(folder: &Path) -> Option<PathBuf> {
    let existing = folder
        .ancestors()
        .find(|a| std::fs::symlink_metadata(a).is_ok())?;
    (!existing.as_os_str().is_empty() && !existing.is_dir()).then(|| existing.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(path: &Path, folder: bool) -> Result<(), String> {
        validate(&[Output {
            flag: "--sarif",
            path,
            folder,
        }])
    }

    #[test]
    fn missing_parents_are_made_and_folders_refused() {
        let t = tempfile::tempdir().unwrap();
        let deep = t.path().join("a/b/out.sarif");
        assert_eq!(one(&deep, false), Ok(()));
        assert!(t.path().join("a/b").is_dir());
        assert!(!deep.exists(), "nothing is written before the work");
        let err = one(t.path(), false).unwrap_err();
        assert!(err.contains("is a folder"), "control: {err}");
        assert!(!err.contains('\n'));
    }

    #[test]
    fn a_prompts_dir_that_is_a_link_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let link = t.path().join("prompts");
        std::os::unix::fs::symlink(elsewhere.path(), &link).unwrap();
        let err = one(&link, true).unwrap_err();
        assert!(err.contains("symbolic link"), "{err}");
        // Outside the working folder only the folder itself is looked at: the folders above it
        // are the caller's choice (a link inside the working folder: tests/it/escaped_outputs.rs).
        assert_eq!(one(&link.join("below"), true), Ok(()));
        std::fs::remove_dir(elsewhere.path().join("below")).unwrap();
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
        assert_eq!(one(&t.path().join("real/below"), true), Ok(()), "control");
    }

    #[test]
    fn a_file_in_the_way_of_a_parent_is_refused() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("f"), "x").unwrap();
        let err = one(&t.path().join("f/out.xml"), false).unwrap_err();
        assert!(err.starts_with("hippo-packs: --sarif "), "{err}");
        let named = format!(
            "{} is in the way: not a folder",
            t.path().join("f").display()
        );
        assert!(err.ends_with(&named), "{err}");
        let err = one(&t.path().join("f/deeper/out.xml"), false).unwrap_err();
        assert!(
            err.ends_with(&named),
            "the file, however deep the path: {err}"
        );
        let err = one(&t.path().join("f"), true).unwrap_err();
        assert!(err.contains("not a folder"), "{err}");
    }
}
