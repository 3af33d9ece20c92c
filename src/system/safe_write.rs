//! Files written without following a link: written to a new temporary file in the destination's
//! folder, then renamed over the destination (docs/security.md, "Writes"): the reports, and the
//! pack files `check --fix` rewrites.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::core::paths::lexical;

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename. A symbolic
/// link (or any other entry) at `path` is replaced, never followed, and a reader never sees a
/// half-written file. The file is readable by everyone (0644): a report written as root in a
/// container is read by later steps running as the runner's user. The folder must exist.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    replace(path, bytes, set_readable)
}

/// Writes `bytes` to a new temporary file in `path`'s folder, gives it its permissions
/// (`permit`), and renames it over `path`.
fn replace(
    path: &Path,
    bytes: &[u8],
    permit: impl FnOnce(&std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".hippo-packs-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    permit(tmp.as_file())?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Replaces the regular file at `path` with `bytes` as [`write_atomic`] writes (a temporary file
/// in the same folder, then a rename), keeping the file's permissions. A symbolic link at `path`
/// is refused, not replaced and not followed; so is anything else that is not a regular file.
pub(crate) fn rewrite(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        return Err(std::io::Error::other(
            "a symbolic link; a link is never written through",
        ));
    }
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    replace(path, bytes, |f| f.set_permissions(meta.permissions()))
}

/// The first symbolic link a write to `path` would pass through, as written (a `..` after a link
/// is resolved through the link, so the path is not tidied first): every folder of the path that
/// lies below `root` (the working folder, a workspace), and `path` itself wherever it is. Folders
/// at or above `root` are the caller's (a runner whose work folder is a link) and are not looked
/// at. `path` is relative to `root` unless absolute.
pub(crate) fn link_on_path(path: &Path, root: &Path) -> Option<PathBuf> {
    let abs = root.join(path);
    let root = lexical(root);
    let mut prefix = PathBuf::new();
    for c in abs.components() {
        prefix.push(c);
        let norm = lexical(&prefix);
        let below = norm.starts_with(&root) && norm != root;
        if !below && prefix != abs {
            continue;
        }
        let is_link = std::fs::symlink_metadata(&prefix)
            .map(|m| m.file_type().is_symlink())
            .unwrap_or(false);
        if is_link {
            return Some(
                norm.strip_prefix(&root)
                    .map(Path::to_path_buf)
                    .unwrap_or(norm),
            );
        }
    }
    None
}

/// `base/<part>/<part>...`, each folder made when missing and otherwise required to be a real
/// folder: a symbolic link there (or `base` itself a link) is an error, never followed, so names
/// a pack chose cannot steer a write out of `base`. Each part is one plain name.
pub(crate) fn real_folders(base: &Path, parts: &[&str]) -> std::io::Result<PathBuf> {
    let mut dir = base.to_path_buf();
    real_folder(&dir)?;
    for part in parts {
        dir.push(part);
        if let Err(e) = std::fs::create_dir(&dir)
            && e.kind() != std::io::ErrorKind::AlreadyExists
        {
            return Err(e);
        }
        real_folder(&dir)?;
    }
    Ok(dir)
}

fn real_folder(dir: &Path) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(dir)?;
    if meta.file_type().is_symlink() {
        return Err(std::io::Error::other(format!(
            "{} is a symbolic link; a link is never written through",
            dir.display()
        )));
    }
    if !meta.is_dir() {
        return Err(std::io::Error::other(format!(
            "{} is not a folder",
            dir.display()
        )));
    }
    Ok(())
}

#[cfg(unix)]
fn set_readable(f: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    f.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_readable(_: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_at_the_destination_is_replaced_not_followed() {
        let d = tempfile::tempdir().unwrap();
        let victim = d.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let link = d.path().join("report.sarif");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        write_atomic(&link, b"report").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        let meta = std::fs::symlink_metadata(&link).unwrap();
        assert!(meta.file_type().is_file(), "the link itself was replaced");
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "report");
        // Control: a plain write follows the link, which is the flaw this function closes.
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        std::fs::write(&link, "overwritten").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "overwritten");
    }

    #[test]
    fn a_link_on_the_path_below_the_root_is_found() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("ws");
        std::fs::create_dir_all(root.join("real/deeper")).unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), root.join("out")).unwrap();
        std::os::unix::fs::symlink(root.join("real"), root.join("inside")).unwrap();
        let link = |p: &str| link_on_path(Path::new(p), &root);
        assert_eq!(link("out"), Some(PathBuf::from("out")));
        assert_eq!(link("out/prompts"), Some(PathBuf::from("out")));
        assert_eq!(
            link("inside/x"),
            Some(PathBuf::from("inside")),
            "even inside"
        );
        assert_eq!(link("inside/../x"), Some(PathBuf::from("inside")));
        assert_eq!(link("./real/deeper/new"), None, "control: real folders");
        assert_eq!(link(&root.join("real").display().to_string()), None);
        // Above the root: the caller's; the path itself: looked at wherever it is.
        let above = d.path().join("above");
        std::os::unix::fs::symlink(&root, &above).unwrap();
        assert_eq!(link_on_path(Path::new("real"), &above), None);
        assert_eq!(link_on_path(&above, &root), Some(above.clone()));
    }

    #[test]
    fn real_folders_are_made_and_links_refused() {
        let d = tempfile::tempdir().unwrap();
        let made = real_folders(d.path(), &["p", "c"]).unwrap();
        assert!(made.is_dir() && made.ends_with("p/c"));
        assert!(
            real_folders(d.path(), &["p", "c"]).is_ok(),
            "again: already there"
        );
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), d.path().join("q")).unwrap();
        let err = real_folders(d.path(), &["q", "c"]).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert!(
            real_folders(&d.path().join("q"), &[]).is_err(),
            "the base too"
        );
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
        std::fs::write(d.path().join("f"), "").unwrap();
        assert!(real_folders(d.path(), &["f", "c"]).is_err());
    }

    #[test]
    fn rewrite_keeps_the_mode_and_refuses_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.md");
        std::fs::write(&p, "old").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
        rewrite(&p, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        let mode = std::fs::metadata(&p).unwrap().permissions().mode();
        assert_eq!(
            mode & 0o777,
            0o600,
            "the file's own mode, not write_atomic's 0644"
        );
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
        let link = d.path().join("link.md");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        let err = rewrite(&link, b"through").unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            "new",
            "the target is untouched"
        );
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(
            rewrite(&d.path().join("missing.md"), b"x").is_err(),
            "nothing is created"
        );
        assert!(!d.path().join("missing.md").exists());
    }

    #[test]
    fn leaves_no_temporary_file_and_is_readable() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("out.xml");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        let names: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
        let mode = std::fs::metadata(&p).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
    }

    #[test]
    fn a_missing_folder_or_a_folder_at_the_destination_is_an_error() {
        let d = tempfile::tempdir().unwrap();
        assert!(write_atomic(&d.path().join("no/such/out"), b"x").is_err());
        std::fs::create_dir(d.path().join("dir")).unwrap();
        assert!(write_atomic(&d.path().join("dir"), b"x").is_err());
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }
}
