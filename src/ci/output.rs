//! What `ci` writes: the report grouped per pack, files beside the run.

use std::io::Write;
use std::path::Path;

use crate::outcome::{Mode, PackReport};
use crate::report;

/// Writes a text to the run's log.
pub fn say(out: &mut dyn Write, text: &str) -> anyhow::Result<()> {
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// One pack's block of the text report: the check lines, then the case lines.
pub fn pack_text(r: &PackReport, tested: bool) -> String {
    let mut text = report::text::render(std::slice::from_ref(r), Mode::Check);
    if tested && r.errors() == 0 {
        let cases = PackReport {
            diagnostics: Vec::new(),
            ..r.clone()
        };
        text.push_str(&report::text::render(&[cases], Mode::Test));
    }
    text
}

pub fn status(r: &PackReport) -> String {
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
/// followed (`core::fsx::write_atomic`).
pub fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", parent.display()))?;
    }
    crate::core::fsx::write_atomic(path, bytes)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

pub fn append(path: &Path, text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
