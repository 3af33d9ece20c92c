//! `--format full` (ruff's name for the same thing): every finding as `error[rule-id]: message`,
//! ` --> path:line:col`, the source line(s) with a caret under the span, `help:` lines, and a
//! summary line at the end. Drawn by annotate-snippets (the renderer rustc and ruff use), always
//! with ANSI styles; the command line strips them when colour is off.
//!
//! Before the source reaches the renderer, the lines shown are made safe and exact: every
//! control or invisible character becomes `U+XXXX` (its name on a `note:` line), a CRLF line
//! ending is shown as a line ending (one note per file says the file has them), and the span is
//! widened to whole grapheme clusters, so a caret never splits one; annotate-snippets lines
//! carets up under wide characters by their display width. The ` --> ` line gives the
//! finding's position as JSON and the text output do, in code points of the source.

use annotate_snippets::Level;

use std::io::{self, Write};

use super::rendering::{Render, Rendering, Sources};
#[cfg(test)]
use crate::core::Diagnostic;
use crate::core::{Severity, escape};
use crate::outcome::{Mode, PackReport};

/// `--format full`: the whole run with ANSI styles (the caller strips them when colour is off),
/// its unused allowances among the findings, then the summary. `quiet` (`check --quiet`): the
/// findings only, without `skipped` and `ok` lines and the summary. Source lines come from the
/// run's `sources`.
pub(crate) struct FullRenderer;

impl Render for FullRenderer {
    fn render(&self, run: &Rendering<'_>, w: &mut dyn Write) -> io::Result<()> {
        let (mode, quiet) = (run.mode, run.quiet);
        let mut draw = draw::Draw::new();
        let mut source = LastSource::new(run.sources);
        let mut tally = Tally::default();
        for r in run.reports {
            if mode == Mode::Check && !quiet {
                for s in &r.skipped {
                    let skipped = format!("{}{s}", r.prefix);
                    writeln!(w, "skipped {}", escape::line(&skipped))?;
                }
            }
            let (errors, warnings) = findings(w, &mut draw, &mut source, r, mode)?;
            tally.errors += errors;
            tally.warnings += warnings;
            if r.errors() > 0 || (mode == Mode::Check && quiet) {
                continue;
            }
            if mode == Mode::Check {
                writeln!(w, "{}", super::text::ok_line(r))?;
                continue;
            }
            cases(w, &mut draw, r, run.sources, &mut tally)?;
        }
        let none = PackReport::default();
        for d in run.unused {
            tally.warnings += 1;
            let src = d.file.as_deref().and_then(|f| (run.sources)(&none, f));
            write!(w, "{}\n\n", draw.finding(&none, d, src.as_deref(), &[]))?;
        }
        if quiet {
            return Ok(());
        }
        w.write_all(summary(run.reports.len(), &tally, mode).as_bytes())?;
        match super::located::fixable_line(run.reports).filter(|_| mode == Mode::Check) {
            Some(line) => writeln!(w, "{line}"),
            None => Ok(()),
        }
    }
}

/// The whole run in the full format, with ANSI styles, as a string (the unit tests).
#[cfg(test)]
fn render(
    reports: &[PackReport],
    mode: Mode,
    sources: &Sources<'_>,
    unused: &[Diagnostic],
    quiet: bool,
) -> String {
    let run = Rendering {
        unused,
        quiet,
        sources,
        ..Rendering::new(reports, mode)
    };
    super::rendering::to_string(&FullRenderer, &run)
}

/// What the summary line counts.
#[derive(Default, Clone, Copy)]
struct Tally {
    errors: usize,
    warnings: usize,
    passed: usize,
    failed: usize,
}

/// `test`: the pack's `--case` matching nothing, then its cases.
fn cases(
    w: &mut dyn Write,
    draw: &mut draw::Draw,
    r: &PackReport,
    sources: &Sources<'_>,
    tally: &mut Tally,
) -> io::Result<()> {
    if let Some(name) = &r.no_case {
        tally.errors += 1;
        let drawn = draw.renderer.render(&[Level::ERROR
            .primary_title(format!("no case named {}", escape::line(name)))
            .element(Level::HELP.message(case_help(r, name)))]);
        write!(w, "{drawn}\n\n")?;
    }
    for c in &r.cases {
        if c.failures.is_empty() {
            tally.passed += 1;
        } else {
            tally.failed += 1;
        }
        w.write_all(case(draw, r, c, sources).as_bytes())?;
    }
    Ok(())
}

/// The pack's findings drawn (`test`: its errors only); how many errors and warnings.
fn findings(
    w: &mut dyn Write,
    draw: &mut draw::Draw,
    source: &mut LastSource<'_, '_>,
    r: &PackReport,
    mode: Mode,
) -> io::Result<(usize, usize)> {
    let (mut errors, mut warnings) = (0, 0);
    for d in &r.diagnostics {
        if mode == Mode::Test && d.severity == Severity::Warning {
            continue;
        }
        match d.severity {
            Severity::Error => errors += 1,
            Severity::Warning => warnings += 1,
        }
        let src = d.file.as_deref().and_then(|f| source.get(r, f));
        write!(w, "{}\n\n", draw.finding(r, d, src.as_deref(), &[]))?;
    }
    Ok((errors, warnings))
}

/// The text of the last file asked for: the findings of a file follow each other, so its text
/// is read once for all of them.
struct LastSource<'s, 'a> {
    sources: &'s Sources<'a>,
    last: Option<(String, String, Option<std::rc::Rc<str>>)>,
}

impl<'s, 'a> LastSource<'s, 'a> {
    fn new(sources: &'s Sources<'a>) -> Self {
        LastSource {
            sources,
            last: None,
        }
    }

    fn get(&mut self, r: &PackReport, f: &str) -> Option<std::rc::Rc<str>> {
        match &self.last {
            Some((dir, file, text)) if *dir == r.dir && file == f => text.clone(),
            _ => {
                let text: Option<std::rc::Rc<str>> = (self.sources)(r, f).map(Into::into);
                self.last = Some((r.dir.clone(), f.to_string(), text.clone()));
                text
            }
        }
    }
}

/// One case: `ok <pack>/<case>`, or `FAIL <pack>/<case>`, its cause (`cause: ...`, when one
/// event explains its failures), and each failure at its line, the other reasons under the
/// last one.
fn case(
    draw: &mut draw::Draw,
    r: &PackReport,
    c: &crate::outcome::CaseResult,
    sources: &Sources<'_>,
) -> String {
    let label = escape::line(&r.case_label(&c.name)).into_owned();
    if c.failures.is_empty() {
        return format!("ok {label}\n");
    }
    let mut out = format!("FAIL {label}\n");
    let cause = c.cause.as_ref().map(|k| k.why.as_str());
    if let Some(why) = cause {
        let bold = anstyle::Style::new().bold();
        out.push_str(&format!("{bold}cause:{bold:#} {}\n\n", escape::line(why)));
    }
    let src = c.failures.first().and_then(|d| d.file.as_deref());
    let src = src.and_then(|f| sources(r, f));
    // The cause is said once, at the head: not again among the reasons.
    let reasons: Vec<String> = c
        .reasons
        .iter()
        .filter(|w| !cause.is_some_and(|c| c.contains(w.as_str())))
        .cloned()
        .collect();
    for (i, d) in c.failures.iter().enumerate() {
        let reasons: &[String] = if i + 1 == c.failures.len() {
            &reasons
        } else {
            &[]
        };
        out.push_str(&draw.finding(r, d, src.as_deref(), reasons));
        out.push_str("\n\n");
    }
    out
}

/// `--case NAME` matched nothing: the case names of the pack, the nearest first.
fn case_help(r: &PackReport, name: &str) -> String {
    let names: Vec<&str> = r.case_names.iter().map(String::as_str).collect();
    if names.is_empty() {
        return "this pack has no cases (tests/<case>/case.toml)".to_string();
    }
    escape::line(&crate::core::suggest::help(name, &names, "its cases")).into_owned()
}

/// `2 errors, 3 warnings in 1 pack` (`test`: `, 1 of 2 cases failed`), bold.
fn summary(packs: usize, tally: &Tally, mode: Mode) -> String {
    let Tally {
        errors,
        warnings,
        passed,
        failed,
    } = *tally;
    let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    let mut s = format!(
        "{}, {}",
        n(errors, "error", "errors"),
        n(warnings, "warning", "warnings")
    );
    if mode == Mode::Test {
        s.push_str(&format!(
            ", {} passed, {} failed",
            n(passed, "case", "cases"),
            failed
        ));
    }
    s.push_str(&format!(" in {}", n(packs, "pack", "packs")));
    let bold = anstyle::Style::new().bold();
    format!("{bold}{s}{bold:#}\n")
}

mod draw;
mod excerpt;
#[cfg(test)]
mod tests;
