//! What `ci` says in its log: each pack's block of the text report and its status, and the
//! notice when a run holds more results than code scanning stores.

use std::io::Write;

use crate::outcome::{Mode, PackReport};
use crate::report;
use crate::report::rendering::{Render, Rendering};
use crate::report::sarif::{MAX_RESULTS, STORED_RESULTS};
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

/// A pack's status for its log group's title: its counts, or `ok`.
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
