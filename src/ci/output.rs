//! What `ci` writes: the report grouped per pack, files beside the run.

use std::io::Write;
use std::path::Path;

use crate::outcome::{Mode, PackReport};
use crate::report;
use crate::report::rendering::{Render, Rendering};
use crate::report::sarif::{MAX_RESULTS, STORED_RESULTS, SarifRenderer};
use crate::report::text::TextRenderer;

/// Writes a text to the run's log.
pub(crate) fn say(out: &mut dyn Write, text: &str) -> anyhow::Result<()> {
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// One pack's block of the text report: the check lines, then the case lines.
pub(crate) fn pack_text(r: &PackReport, tested: bool) -> String {
    let text = TextRenderer { verbose: false };
    let mut bytes = Vec::new();
    // Writing to memory does not fail.
    let _ = text.render(
        &Rendering::new(std::slice::from_ref(r), Mode::Check),
        &mut bytes,
    );
    if tested && r.errors() == 0 {
        let cases = PackReport {
            diagnostics: Vec::new(),
            ..r.clone()
        };
        let _ = text.render(&Rendering::new(&[cases], Mode::Test), &mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

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

pub(crate) fn status(r: &PackReport) -> String {
    let mut parts = Vec::new();
    let n = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    if r.errors() > 0 {
        parts.push(n(r.errors(), "error", "errors"));
    }
    if r.warnings() > 0 {
        parts.push(n(r.warnings(), "warning", "warnings"));
    }
    if r.failed_cases() > 0 {
        parts.push(n(r.failed_cases(), "failed case", "failed cases"));
    }
    if parts.is_empty() {
        "ok".to_string()
    } else {
        parts.join(", ")
    }
}

/// Writes a report file, creating its folder; a link at the destination is replaced, never
/// followed (`core::safe_write::write_atomic`). The file and every folder this creates get the owner
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
    crate::core::safe_write::write_atomic(path, bytes)
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

pub(crate) fn append(path: &Path, text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// Above what code scanning stores of a run (the SARIF results of `reports` and `extra`), the
/// notice: how many, what is kept, what to do.
pub(crate) fn over_stored(
    reports: &[PackReport],
    extra: &[crate::core::Diagnostic],
) -> Option<String> {
    let results = report::sarif::result_count(reports, extra);
    if results <= STORED_RESULTS {
        return None;
    }
    Some(format!(
        "{results} results: code scanning stores the top {STORED_RESULTS} of a run by severity (the SARIF file holds up to {MAX_RESULTS}, errors first), so alerts past that are missing there; split the registry into jobs with the `shard` input, or allow accepted warnings in .hippo-packs.toml. The job summary counts every finding."
    ))
}
