//! The text format of hippo's page "Writing a pack", byte for byte.

use crate::core::Severity;
use crate::core::escape;
use crate::outcome::{Mode, PackReport};
use std::fmt::Write;

/// `check`: `skipped`, `error`, `warning`, then `ok <name> <version>` when there is no error.
/// `test`: the error lines alone when validation failed; otherwise one line per case.
pub(crate) fn render(reports: &[PackReport], mode: Mode) -> String {
    render_with(reports, mode, false)
}

/// `-v`: the page's lines, and after a failed case's `FAIL` lines, why it failed, one
/// `  reason: ...` line each, then each note a failed `contains` names, as the pass left it
/// (docs/output-formats.md).
pub(crate) fn render_verbose(reports: &[PackReport], mode: Mode) -> String {
    render_with(reports, mode, true)
}

fn render_with(reports: &[PackReport], mode: Mode, verbose: bool) -> String {
    let mut out = String::new();
    for r in reports {
        if mode == Mode::Check {
            for s in &r.skipped {
                line(&mut out, &format!("skipped {}{}", r.prefix, s));
            }
        }
        for d in &r.diagnostics {
            if mode == Mode::Test && d.severity == Severity::Warning {
                continue;
            }
            line(
                &mut out,
                &format!("{} {}", d.severity.as_str(), d.text(&r.prefix)),
            );
        }
        if r.errors() > 0 {
            continue;
        }
        match mode {
            Mode::Check => line(&mut out, &ok_line(r)),
            Mode::Test => {
                if let Some(name) = &r.no_case {
                    // Said once for the whole run (fixture::one_no_case): no pack prefix.
                    line(&mut out, &format!("error no case named {name}"));
                }
                for c in &r.cases {
                    if c.failures.is_empty() {
                        line(&mut out, &format!("ok {}", r.case_label(&c.name)));
                    }
                    for f in &c.failures {
                        line(
                            &mut out,
                            &format!("FAIL {}: {}", r.case_label(&c.name), f.message),
                        );
                    }
                    if verbose && !c.failures.is_empty() {
                        for why in &c.reasons {
                            line(&mut out, &format!("  reason: {why}"));
                        }
                        notes(&mut out, c);
                    }
                }
            }
        }
    }
    out
}

/// `-v`: each note a failed `contains` names, as the pass left it, one `    | ` line a line
/// (at most [`NOTE_LINES`] lines).
fn notes(out: &mut String, c: &crate::outcome::CaseResult) {
    for (path, text) in &c.notes {
        line(out, &format!("  note {path} after the pass:"));
        let lines: Vec<&str> = text.lines().collect();
        for l in lines.iter().take(NOTE_LINES) {
            line(out, format!("    | {l}").trim_end());
        }
        if lines.len() > NOTE_LINES {
            line(
                out,
                &format!("    | ... {} more lines", lines.len() - NOTE_LINES),
            );
        }
    }
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

/// Findings of the run beside the packs' (an `unused-allowance` warning), one line each.
pub(crate) fn extra(diags: &[crate::core::Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        line(&mut out, &format!("{} {}", d.severity.as_str(), d.text("")));
    }
    out
}

/// One line, with pack text escaped so it cannot break the line or hide characters.
fn line(out: &mut String, s: &str) {
    let _ = writeln!(out, "{}", escape::line(s));
}
