//! The files `ci` writes beside the run: the SARIF file's text, each file written without
//! following a link and given the workspace's owner, and the job summary appended to.

use std::path::Path;

use crate::outcome::{Mode, PackReport};
use crate::report::rendering::{Render, Rendering};
use crate::report::sarif::{MAX_RESULTS, SarifRenderer};

/// The SARIF file of the run (`unused`: the allowances no finding used).
pub(crate) fn sarif(
    reports: &[PackReport],
    category: &str,
    unused: &[crate::core::Diagnostic],
) -> anyhow::Result<String> {
    let run = Rendering {
        unused,
        category,
        ..Rendering::new(reports, Mode::Check)
    };
    let mut bytes = Vec::new();
    SarifRenderer { limit: MAX_RESULTS }.render(&run, &mut bytes)?;
    Ok(String::from_utf8(bytes)?)
}

/// Writes a report file, creating its folder; a link at the destination is replaced, never
/// followed (`system::safe_write::write_atomic`). The file and every folder this creates get the owner
/// and group of `owner_of` (the workspace): `ci` runs as the container's root, and a
/// self-hosted runner's next checkout must be able to remove what it left.
pub(crate) fn write_file(path: &Path, bytes: &[u8], owner_of: Option<&Path>) -> anyhow::Result<()> {
    let mut created = Vec::new();
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        let mut p = Some(parent);
        while let Some(d) = p.filter(|d| !d.as_os_str().is_empty()) {
            if std::fs::symlink_metadata(d).is_ok() {
                break;
            }
            created.push(d.to_path_buf());
            p = d.parent();
        }
        std::fs::create_dir_all(parent)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", parent.display()))?;
    }
    crate::system::safe_write::write_atomic(path, bytes)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    created.push(path.to_path_buf());
    match owner_of {
        Some(owner) => give_owner(&created, owner),
        None => Ok(()),
    }
}

/// Gives `paths` (never following a link) the owner and group of `owner_of`. Only root may:
/// as anyone else what `ci` creates is already the user's, and a refusal changes nothing.
fn give_owner(paths: &[std::path::PathBuf], owner_of: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let Ok(want) = std::fs::metadata(owner_of) else {
        return Ok(());
    };
    for p in paths {
        let has = std::fs::symlink_metadata(p)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()))?;
        if (has.uid(), has.gid()) == (want.uid(), want.gid()) {
            continue;
        }
        match std::os::unix::fs::lchown(p, Some(want.uid()), Some(want.gid())) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => return Ok(()),
            Err(e) => anyhow::bail!("cannot give {} the workspace's owner: {e}", p.display()),
        }
    }
    Ok(())
}

/// Appends `text` to the file at `path` (the job summary), creating it.
pub(crate) fn append(path: &Path, text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
