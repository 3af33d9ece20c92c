//! What every output format is given and how it writes: one value holding the run's reports and
//! what the command line or the Action says of them ([`Rendering`]), and one trait ([`Render`])
//! that each format implements, writing its output to an `io::Write` piece by piece, as
//! ripgrep's printers do. The caller picks the writer: standard output through a buffer, the
//! bytes of a file written once whole, or memory.

use std::io;

use crate::core::Diagnostic;
use crate::outcome::{Mode, PackReport};

/// Where a renderer gets a file's text: `(report, pack-relative path)` → its text (`--format
/// full`'s source lines; the caller reads the files, a renderer does no I/O of its own).
pub(crate) type Sources<'a> = dyn Fn(&PackReport, &str) -> Option<String> + 'a;

/// The run as the renderers see it.
#[derive(Clone, Copy)]
pub(crate) struct Rendering<'a> {
    /// The packs' reports, in the run's order.
    pub(crate) reports: &'a [PackReport],
    /// Which command made them (`check` or `test`).
    pub(crate) mode: Mode,
    /// Findings of the run beside the packs': the allowances no finding used (an
    /// `unused-allowance` warning each).
    pub(crate) unused: &'a [Diagnostic],
    /// The SARIF category (`automationDetails.id` is `<category>/`; empty: `hippo-packs`).
    pub(crate) category: &'a str,
    /// `check --quiet`: the findings only, without the `skipped` and `ok` lines (and `full`'s
    /// summary).
    pub(crate) quiet: bool,
    /// The pack files' text, for the formats that show source lines.
    pub(crate) sources: &'a Sources<'a>,
}

impl<'a> Rendering<'a> {
    /// The reports of one command, with no unused allowance, the default category, not quiet and
    /// no source text.
    pub(crate) fn new(reports: &'a [PackReport], mode: Mode) -> Rendering<'a> {
        Rendering {
            reports,
            mode,
            unused: &[],
            category: "hippo-packs",
            quiet: false,
            sources: &no_source,
        }
    }
}

/// No file's text: findings are shown without their source lines.
fn no_source(_: &PackReport, _: &str) -> Option<String> {
    None
}

/// An output format: writes the run to `w`. An error is the writer's (or, for the JSON formats,
/// serde's); a renderer decides nothing and reads no file.
pub(crate) trait Render {
    /// Writes `run` in this format to `w`.
    fn render(&self, run: &Rendering<'_>, w: &mut dyn io::Write) -> io::Result<()>;
}

/// `renderer`'s output of `run` as a string (the public conveniences the tests call).
pub(crate) fn to_string(renderer: &dyn Render, run: &Rendering<'_>) -> String {
    let mut out = Vec::new();
    // Writing to memory fails only when serde does, which the report types never make it.
    let _ = renderer.render(run, &mut out);
    String::from_utf8(out).unwrap_or_default()
}
