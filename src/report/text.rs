//! The text format of hippo's page "Writing a pack", byte for byte.

use std::io::{self, Write};

use super::rendering::{Render, Rendering};
use crate::core::Severity;
use crate::core::escape;
use crate::outcome::{Mode, PackReport};

/// `--format text`. `check`: `skipped`, `error`, `warning`, then `ok <name> <version>` when
/// there is no error. `test`: the error lines alone when validation failed; otherwise one line
/// per case. Then the run's unused allowances, one `warning` line each. `quiet` leaves the
/// `skipped` and `ok` lines out.
///
/// `verbose` (`-v`): after a failed case's `FAIL` lines, why it failed, one `  reason: ...`
/// line each, then each note a failed `contains` names, as the pass left it
/// (docs/output-formats.md).
pub(crate) struct TextRenderer {
    pub(crate) verbose: bool,
}

impl Render for TextRenderer {
    fn render(&self, run: &Rendering<'_>, w: &mut dyn Write) -> io::Result<()> {
        let mut lines = Lines {
            w,
            quiet: run.quiet,
        };
        for r in run.reports {
            pack(&mut lines, r, run.mode, self.verbose)?;
        }
        for d in run.unused {
            lines.line(&format!("{} {}", d.severity.as_str(), d.text("")))?;
        }
        Ok(())
    }
}

/// Where the lines go; `quiet`: the `skipped` and `ok` lines are dropped.
struct Lines<'w> {
    w: &'w mut dyn Write,
    quiet: bool,
}

impl Lines<'_> {
    /// One line, with pack text escaped so it cannot break the line or hide characters.
    fn line(&mut self, s: &str) -> io::Result<()> {
        writeln!(self.w, "{}", escape::line(s))
    }

    /// A line that is not a finding (`skipped ...`, `ok ...`): none when quiet.
    fn status(&mut self, s: &str) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        self.line(s)
    }
}

/// One pack's lines.
fn pack(out: &mut Lines<'_>, r: &PackReport, mode: Mode, verbose: bool) -> io::Result<()> {
    if mode == Mode::Check {
        for s in &r.skipped {
            out.status(&format!("skipped {}{}", r.prefix, s))?;
        }
    }
    for d in &r.diagnostics {
        if mode == Mode::Test && d.severity == Severity::Warning {
            continue;
        }
        out.line(&format!("{} {}", d.severity.as_str(), d.text(&r.prefix)))?;
    }
    if r.errors() > 0 {
        return Ok(());
    }
    if mode == Mode::Check {
        return out.status(&ok_line(r));
    }
    if let Some(name) = &r.no_case {
        // Said once for the whole run (case_runner::one_no_case): no pack prefix.
        out.line(&format!("error no case named {name}"))?;
    }
    for c in &r.cases {
        if c.failures.is_empty() {
            out.status(&format!("ok {}", r.case_label(&c.name)))?;
        }
        for f in &c.failures {
            out.line(&format!("FAIL {}: {}", r.case_label(&c.name), f.message))?;
        }
        if verbose && !c.failures.is_empty() {
            for why in &c.reasons {
                out.line(&format!("  reason: {why}"))?;
            }
            notes(out, c)?;
        }
    }
    Ok(())
}

/// `-v`: each note a failed `contains` names, as the pass left it, one `    | ` line a line
/// (at most [`NOTE_LINES`] lines).
fn notes(out: &mut Lines<'_>, c: &crate::outcome::CaseResult) -> io::Result<()> {
    for (path, text) in &c.notes {
        out.line(&format!("  note {path} after the pass:"))?;
        let lines: Vec<&str> = text.lines().collect();
        for l in lines.iter().take(NOTE_LINES) {
            out.line(format!("    | {l}").trim_end())?;
        }
        if lines.len() > NOTE_LINES {
            out.line(&format!(
                "    | ... {} more lines",
                lines.len() - NOTE_LINES
            ))?;
        }
    }
    Ok(())
}

/// The most lines of a note `-v` prints.
const NOTE_LINES: usize = 40;

/// `ok <name> <version>`; in a run over several packs `ok <dir>: <name> <version>`.
pub(crate) fn ok_line(r: &PackReport) -> String {
    let (name, version) = (
        r.name.as_deref().unwrap_or(""),
        r.version.as_deref().unwrap_or(""),
    );
    if r.prefix.is_empty() {
        format!("ok {name} {version}")
    } else {
        format!("ok {}: {name} {version}", r.run_name())
    }
}
