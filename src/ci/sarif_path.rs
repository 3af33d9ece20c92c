//! The `sarif-file` input is refused before any work when it would write outside the workspace
//! or through a link inside it (docs/security.md, "Writes"): a pull request controls the
//! workspace's tree, so a link it plants must never steer where `ci` writes as root.

use std::path::{Path, PathBuf};

use crate::core::paths::lexical;

/// `None` when `ci` may write `file` (relative to the working folder); else why not, one line.
/// `workspace` is `$GITHUB_WORKSPACE`, else the working folder.
pub(crate) fn refusal(file: &str, workspace: Option<&Path>) -> Option<String> {
    let cwd = std::env::current_dir().ok()?;
    let ws = match workspace {
        Some(w) if w.is_absolute() => w.to_path_buf(),
        Some(w) => cwd.join(w),
        None => cwd.clone(),
    };
    let mut roots = vec![lexical(&ws)];
    if let Ok(c) = std::fs::canonicalize(&ws) {
        roots.push(c);
    }
    let raw = Path::new(file);
    let abs = if raw.is_absolute() {
        raw.to_path_buf()
    } else {
        cwd.join(raw)
    };
    let target = lexical(&abs);
    let Some(root) = roots
        .iter()
        .find(|r| target.starts_with(r) && target != **r)
    else {
        return Some(format!(
            "sarif-file {file}: resolves outside the workspace {}; name a file inside it",
            ws.display()
        ));
    };
    // Every prefix of the path as written that lies inside the workspace must be a real folder
    // (or, for the last, a regular file or nothing yet).
    let mut prefix = PathBuf::new();
    for c in abs.components() {
        prefix.push(c);
        let norm = lexical(&prefix);
        if !norm.starts_with(root) || norm == *root {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(&prefix) else {
            continue;
        };
        let shown = norm.strip_prefix(root).unwrap_or(&norm).display();
        if meta.file_type().is_symlink() {
            return Some(format!(
                "sarif-file {file}: passes through the symbolic link {shown} in the workspace; a link is never written through"
            ));
        }
        if prefix == abs && meta.is_dir() {
            return Some(format!("sarif-file {file}: is a folder"));
        }
        if prefix != abs && !meta.is_dir() {
            return Some(format!(
                "sarif-file {file}: {shown} in the workspace is a file, not a folder; remove it or name another sarif-file"
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_the_workspace_and_through_no_link_is_allowed() {
        let ws = tempfile::tempdir().unwrap();
        let w = ws.path();
        std::fs::create_dir_all(w.join("real")).unwrap();
        let at = |f: &str| refusal(&w.join(f).display().to_string(), Some(w));
        assert_eq!(at("hippo-packs.sarif"), None);
        assert_eq!(at(".hippo-packs/out.sarif"), None, "a folder not made yet");
        assert_eq!(at("real/../out.sarif"), None);
        // Controls: each way out is refused.
        assert!(
            at("../out.sarif")
                .unwrap()
                .contains("outside the workspace")
        );
        assert!(refusal("/etc/passwd", Some(w)).unwrap().contains("outside"));
        assert!(at("real").unwrap().contains("is a folder"));
        assert!(at("").unwrap().contains("outside"), "the workspace itself");
    }

    #[test]
    fn a_link_inside_the_workspace_is_refused() {
        let ws = tempfile::tempdir().unwrap();
        let w = ws.path();
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), w.join("out")).unwrap();
        std::os::unix::fs::symlink(elsewhere.path().join("f"), w.join("hippo-packs.sarif"))
            .unwrap();
        std::fs::create_dir(w.join("d")).unwrap();
        std::os::unix::fs::symlink(w.join("d"), w.join("inside")).unwrap();
        let at = |f: &str| refusal(&w.join(f).display().to_string(), Some(w));
        assert!(at("out/x.sarif").unwrap().contains("symbolic link out "));
        assert!(at("hippo-packs.sarif").unwrap().contains("symbolic link"));
        assert!(
            at("inside/x.sarif").is_some(),
            "even a link that stays inside"
        );
        assert!(at("inside/../x.sarif").is_some(), "a link before a `..`");
        assert_eq!(at("d/x.sarif"), None, "control: the real folder");
    }

    #[test]
    fn a_file_where_the_report_folder_goes_is_refused_by_name() {
        let ws = tempfile::tempdir().unwrap();
        let w = ws.path();
        let at = |f: &str| refusal(&w.join(f).display().to_string(), Some(w));
        assert_eq!(
            at(".hippo-packs/hippo-packs.sarif"),
            None,
            "control: nothing there yet"
        );
        std::fs::write(w.join(".hippo-packs"), "x").unwrap();
        let why = at(".hippo-packs/hippo-packs.sarif").unwrap();
        assert!(
            why.contains(".hippo-packs in the workspace is a file, not a folder"),
            "{why}"
        );
        assert_eq!(
            at(".hippo-packs"),
            None,
            "control: the file itself may be the report"
        );
    }
}
