//! `--format concise` (ruff's name for the same thing), for editors and grep: one line a
//! finding, `path:line:col: severity[rule-id] message`. The path starts with the pack folder as
//! it was typed (as `full`'s ` --> ` line), so it opens from where the command ran; line and
//! column count code points as the text output does; a whole-file finding is at 1:1, a finding
//! with no file (an unreadable pack folder) names the folder and no position; `--case NAME`
//! matching nothing is the text output's line. `test` leaves warnings out, as its text output
//! does, and prints one line per failed expectation, after `cause <pack>/<case>: <why>` when
//! one event explains the case's failures (a reply that is not JSON, a refused change);
//! nothing is printed for what passed.

use std::io::{self, Write};

use super::located::{fixable_line, marker, message, placed, typed_path};
use super::rendering::{Render, Rendering};
use crate::core::{Diagnostic, Severity, escape};
use crate::outcome::{Mode, PackReport};

/// `--format concise`: the run's findings, then its unused allowances, one line each.
pub(crate) struct ConciseRenderer;

impl Render for ConciseRenderer {
    fn render(&self, run: &Rendering<'_>, w: &mut dyn Write) -> io::Result<()> {
        for r in run.reports {
            pack(w, r, run.mode)?;
        }
        let none = PackReport::default();
        for d in run.unused {
            finding(w, &none, d)?;
        }
        match fixable_line(run.reports).filter(|_| run.mode == Mode::Check) {
            Some(line) => writeln!(w, "{line}"),
            None => Ok(()),
        }
    }
}

/// One pack's lines: its findings (`test`: errors only), then its failed cases'.
fn pack(w: &mut dyn Write, r: &PackReport, mode: Mode) -> io::Result<()> {
    for d in &r.diagnostics {
        if mode == Mode::Test && d.severity == Severity::Warning {
            continue;
        }
        finding(w, r, d)?;
    }
    if r.errors() > 0 || mode == Mode::Check {
        return Ok(());
    }
    if let Some(name) = &r.no_case {
        // Said once for the whole run, as the text output says it: no place to point at.
        writeln!(w, "error no case named {}", escape::line(name))?;
    }
    for c in &r.cases {
        if let Some(cause) = c.cause.as_ref().filter(|_| !c.failures.is_empty()) {
            let label = r.case_label(&c.name);
            writeln!(
                w,
                "cause {}: {}",
                escape::line(&label),
                escape::line(&cause.why)
            )?;
        }
        for f in &c.failures {
            finding(w, r, f)?;
        }
    }
    Ok(())
}

/// `path:line:col: severity[rule-id] message`; a redaction finding one line per secret.
fn finding(w: &mut dyn Write, r: &PackReport, d: &Diagnostic) -> io::Result<()> {
    for d in placed(d) {
        line(w, r, &d)?;
    }
    Ok(())
}

fn line(w: &mut dyn Write, r: &PackReport, d: &Diagnostic) -> io::Result<()> {
    let at = match &d.file {
        Some(file) => format!(
            "{}:{}:{}",
            escape::line(&typed_path(r, file)),
            d.region.line,
            d.region.col
        ),
        None => escape::line(if r.dir.is_empty() { "." } else { &r.dir }).into_owned(),
    };
    writeln!(
        w,
        "{at}: {}[{}] {}{}",
        d.severity.as_str(),
        d.rule.id,
        marker(d),
        message(d)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Span;
    use crate::report::rendering::to_string;
    use crate::rules::layout;

    #[test]
    fn one_line_a_finding_with_its_place() {
        let mut r = PackReport {
            dir: "packs/a/".into(),
            ..PackReport::default()
        };
        let mut d = Diagnostic::at(&layout::SYMBOLIC_LINK, "x.md", Span::new(4, 5), "bad\nname");
        d.region.line = 2;
        d.region.col = 3;
        r.diagnostics.push(d);
        r.diagnostics.push(Diagnostic::lead(
            &layout::UNEXPECTED_FILE,
            "unexpected file",
            "y.txt",
            "",
        ));
        let out = to_string(&ConciseRenderer, &Rendering::new(&[r], Mode::Check));
        assert_eq!(
            out,
            "packs/a/x.md:2:3: error[symbolic-link] badU+000Aname\n\
             packs/a/y.txt:1:1: error[unexpected-file] unexpected file y.txt\n"
        );
        assert_eq!(out.lines().count(), 2, "control: the newline is escaped");
    }
}
