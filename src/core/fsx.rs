//! Report files that never follow a link: written to a new temporary file in the destination's
//! folder, then renamed over the destination (docs/security.md, "Writes").

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename. A symbolic
/// link (or any other entry) at `path` is replaced, never followed, and a reader never sees a
/// half-written file. The file is readable by everyone (0644): a report written as root in a
/// container is read by later steps running as the runner's user. The folder must exist.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
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
    set_readable(tmp.as_file())?;
    tmp.persist(path).map_err(|e| e.error)?;
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
