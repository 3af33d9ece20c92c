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

use crate::core::{Diagnostic, Severity, escape};
use crate::outcome::{Mode, PackReport};

/// Where the renderer gets a file's text: `(report, pack-relative path)` → its text.
pub(crate) type Sources<'a> = dyn Fn(&PackReport, &str) -> Option<String> + 'a;

/// The whole run in the full format, with ANSI styles.
/// `extra`: findings of the run beside the packs' (an `unused-allowance` warning). `quiet`
/// (`check --quiet`): the findings only, without `skipped` and `ok` lines and the summary.
pub(crate) fn render(
    reports: &[PackReport],
    mode: Mode,
    sources: &Sources<'_>,
    extra: &[Diagnostic],
    quiet: bool,
) -> String {
    let mut draw = draw::Draw::new();
    let mut out = String::new();
    let mut source = LastSource::new(sources);
    let (mut errors, mut warnings, mut passed, mut failed) = (0, 0, 0, 0);
    for r in reports {
        if mode == Mode::Check && !quiet {
            for s in &r.skipped {
                out.push_str(&format!(
                    "skipped {}\n",
                    escape::line(&format!("{}{s}", r.prefix))
                ));
            }
        }
        let (e, w) = findings(&mut out, &mut draw, &mut source, r, mode);
        (errors, warnings) = (errors + e, warnings + w);
        if r.errors() > 0 || (mode == Mode::Check && quiet) {
            continue;
        }
        if mode == Mode::Check {
            out.push_str(&super::text::ok_line(r));
            out.push('\n');
            continue;
        }
        if let Some(name) = &r.no_case {
            errors += 1;
            out.push_str(
                &draw.renderer.render(&[Level::ERROR
                    .primary_title(format!("no case named {}", escape::line(name)))
                    .element(Level::HELP.message(case_help(r, name)))]),
            );
            out.push_str("\n\n");
        }
        for c in &r.cases {
            if c.failures.is_empty() {
                passed += 1;
            } else {
                failed += 1;
            }
            out.push_str(&case(&mut draw, r, c, sources));
        }
    }
    let none = PackReport::default();
    for d in extra {
        warnings += 1;
        let src = d.file.as_deref().and_then(|f| sources(&none, f));
        out.push_str(&draw.finding(&none, d, src.as_deref(), &[]));
        out.push_str("\n\n");
    }
    if quiet {
        return out;
    }
    out.push_str(&summary(
        reports.len(),
        errors,
        warnings,
        mode,
        passed,
        failed,
    ));
    if let Some(line) = super::located::fixable_line(reports).filter(|_| mode == Mode::Check) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The pack's findings drawn (`test`: its errors only); how many errors and warnings.
fn findings(
    out: &mut String,
    draw: &mut draw::Draw,
    source: &mut LastSource<'_, '_>,
    r: &PackReport,
    mode: Mode,
) -> (usize, usize) {
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
        out.push_str(&draw.finding(r, d, src.as_deref(), &[]));
        out.push_str("\n\n");
    }
    (errors, warnings)
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
fn summary(
    packs: usize,
    errors: usize,
    warnings: usize,
    mode: Mode,
    passed: usize,
    failed: usize,
) -> String {
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
