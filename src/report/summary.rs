//! The job summary (`$GITHUB_STEP_SUMMARY`): totals, one row per gated pack then per pack with a problem, and
//! every finding with its location, in GitHub-flavoured Markdown. GitHub refuses a step summary
//! over 1 MiB, so the text is capped below that with a note of what was left out (the SARIF file
//! and the annotations still hold everything).
//!
//! Pack text (paths, messages) is shown, never interpreted: it is escaped as HTML character
//! references, so it can neither format, link, mention, nor inject HTML.

use crate::core::baseline::{Baseline, Fixed};
use crate::core::{Diagnostic, Severity};
use crate::outcome::PackReport;

/// GitHub's limit on one step summary.
#[cfg(test)]
pub(crate) const GITHUB_LIMIT: usize = 1024 * 1024;
/// What this summary stays under, leaving room for the closing note.
pub(crate) const BUDGET: usize = 1_000_000;

/// Escapes text for Markdown and HTML: control and invisible characters as `U+XXXX`, Markdown
/// and HTML punctuation as character references.
pub(crate) fn md(s: &str) -> String {
    let s = crate::core::escape::line(s);
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        // `:` stops `http://` autolinks and `:emoji:`, `@` mentions and e-mail links, the dot
        // of `www.` the other autolinks; pack text never starts a line, so `-`, `+`, `=` are safe.
        let www = c == '.'
            && out.len() >= 3
            && out.as_bytes()[out.len() - 3..].eq_ignore_ascii_case(b"www");
        match c {
            '&' | '<' | '>' | '"' | '\'' | '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')'
            | '#' | '~' | '@' | '!' | ':' | '{' | '}' | '$' => {
                out.push_str(&format!("&#{};", c as u32))
            }
            '.' if www => out.push_str("&#46;"),
            _ => out.push(c),
        }
    }
    out
}

fn code(s: &str) -> String {
    format!("<code>{}</code>", md(s))
}

/// Everything the summary shows besides the reports.
#[derive(Debug, Clone, Default)]
pub(crate) struct Context {
    /// One flag per report: whether it decides the verdict.
    pub(crate) gated: Vec<bool>,
    pub(crate) scope: String,
    pub(crate) fail_on: String,
    pub(crate) failed: bool,
    /// Lines about the scope and the upload (already plain text; escaped here).
    pub(crate) notes: Vec<String>,
}

/// A repository-relative location: `<pack>/<file>:<line>:<col>`.
pub(crate) fn location(r: &PackReport, d: &Diagnostic) -> String {
    let base = r.uri_base.trim_end_matches('/');
    let path = match (&d.file, base.is_empty()) {
        (Some(f), true) => f.clone(),
        (Some(f), false) => format!("{base}/{f}"),
        (None, true) => ".".to_string(),
        (None, false) => base.to_string(),
    };
    if d.file.is_some() {
        format!("{path}:{}:{}", d.region.line, d.region.col)
    } else {
        path
    }
}

fn pack_label(r: &PackReport) -> String {
    let base = if r.uri_base.is_empty() {
        "."
    } else {
        r.uri_base.as_str()
    };
    let mut s = code(base);
    if let Some(n) = &r.name {
        s.push(' ');
        s.push_str(&md(n));
        if let Some(v) = &r.version {
            s.push(' ');
            s.push_str(&md(v));
        }
    }
    s
}

fn has_fixed(r: &PackReport) -> bool {
    r.fixed.as_ref().is_some_and(|f| !f.is_empty())
}

fn has_problem(r: &PackReport) -> bool {
    !r.diagnostics.is_empty() || r.failed_cases() > 0 || r.no_case.is_some()
}

/// One finding's line.
fn finding(r: &PackReport, d: &Diagnostic, lead: &str) -> String {
    format!(
        "- {} {} {} ({})\n",
        match d.severity {
            Severity::Error => "❌",
            Severity::Warning => "⚠️",
        },
        code(&location(r, d)),
        md(lead),
        code(d.rule.id)
    )
}

/// A line of a pack's findings: a finding, or the frame around a group of them (a heading,
/// `<details>`), which is written whenever the group's first line is.
enum Line {
    Finding(String),
    Frame(String),
}

/// The lines of a pack's new findings, errors first: every finding but those the review found
/// at the base too (without a review, every finding).
pub(crate) fn new_findings(r: &PackReport) -> Vec<String> {
    let mut out = Vec::new();
    let new = |d: &&Diagnostic| d.baseline != Some(Baseline::Existing);
    let errors = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error);
    for d in errors.filter(new) {
        out.push(finding(r, d, &format!("error {}", d.text(""))));
    }
    for c in &r.cases {
        for f in c.failures.iter().filter(new) {
            let lead = format!("FAIL {}: {}", r.case_label(&c.name), f.message);
            out.push(finding(r, f, &lead));
        }
    }
    if let Some(n) = &r.no_case {
        out.push(format!(
            "- ❌ {}\n",
            md(&format!("error no case named {n}"))
        ));
    }
    let warnings = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning);
    for d in warnings.filter(new) {
        out.push(finding(r, d, &format!("warning {}", d.text(""))));
    }
    out
}

/// Every finding of a pack, errors first: its error lines, its failed expectations, its
/// warnings. In a review, the new ones, then the fixed, then the existing, collapsed.
fn findings(r: &PackReport) -> Vec<Line> {
    let mut all: Vec<(String, bool)> = Vec::new();
    let old = |d: &Diagnostic| d.baseline == Some(Baseline::Existing);
    for d in r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
    {
        all.push((finding(r, d, &format!("error {}", d.text(""))), old(d)));
    }
    for c in &r.cases {
        for f in &c.failures {
            let lead = format!("FAIL {}: {}", r.case_label(&c.name), f.message);
            all.push((finding(r, f, &lead), old(f)));
        }
    }
    if let Some(n) = &r.no_case {
        all.push((
            format!("- ❌ {}\n", md(&format!("error no case named {n}"))),
            false,
        ));
    }
    for d in r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
    {
        all.push((finding(r, d, &format!("warning {}", d.text(""))), old(d)));
    }
    let (existing, new): (Vec<_>, Vec<_>) = all.into_iter().partition(|(_, old)| *old);
    let mut out: Vec<Line> = new.into_iter().map(|(l, _)| Line::Finding(l)).collect();
    let fixed = r.fixed.as_deref().unwrap_or_default();
    if !fixed.is_empty() {
        out.push(Line::Frame(format!(
            "\n{} fixed by the changes:\n\n",
            plural(fixed.len(), "finding", "findings")
        )));
        out.extend(fixed.iter().map(|f| Line::Finding(fixed_line(r, f))));
    }
    if !existing.is_empty() {
        out.push(Line::Frame(format!(
            "\n<details><summary>{} the base has too</summary>\n\n",
            plural(existing.len(), "finding", "findings")
        )));
        out.extend(existing.into_iter().map(|(l, _)| Line::Finding(l)));
        out.push(Line::Frame("\n</details>\n".to_string()));
    }
    out
}

/// A fixed finding's line: where it was and what it said.
fn fixed_line(r: &PackReport, f: &Fixed) -> String {
    let base = r.uri_base.trim_end_matches('/');
    let path = match (&f.path, base.is_empty()) {
        (Some(p), true) => p.clone(),
        (Some(p), false) => format!("{base}/{p}"),
        (None, true) => ".".to_string(),
        (None, false) => base.to_string(),
    };
    format!(
        "- ✅ {} {} ({})\n",
        code(&path),
        md(&f.message),
        code(f.rule)
    )
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The summary's title, totals table and notes.
fn head(reports: &[PackReport], cx: &Context) -> String {
    let mut out = title(reports, cx);
    for n in &cx.notes {
        out.push_str(&format!("- {}\n", md(n)));
    }
    if !cx.notes.is_empty() {
        out.push('\n');
    }
    out
}

/// The summary's title (the verdict, how many packs gated) and its totals table.
pub(crate) fn title(reports: &[PackReport], cx: &Context) -> String {
    let errors: usize = reports.iter().map(|r| r.errors()).sum();
    let warnings: usize = reports.iter().map(|r| r.warnings()).sum();
    let failed_cases: usize = reports.iter().map(|r| r.failed_cases()).sum();
    let gated = cx.gated.iter().filter(|g| **g).count();

    let mut out = String::from("## hippo-packs\n\n");
    out.push_str(&format!(
        "{} — {} gated of {} (scope <code>{}</code>, fail-on <code>{}</code>)\n\n",
        if cx.failed {
            "❌ **Failed**"
        } else {
            "✅ **Passed**"
        },
        plural(gated, "pack", "packs"),
        reports.len(),
        md(&cx.scope),
        md(&cx.fail_on),
    ));
    out.push_str("| Packs | Errors | Warnings | Failed cases |\n|---:|---:|---:|---:|\n");
    out.push_str(&format!(
        "| {} | {errors} | {warnings} | {failed_cases} |\n\n",
        reports.len()
    ));
    out
}

/// The packs with a row, gated first: under `scope: changed` every gated pack (those the changes
/// touch), passing or not, then the others with a problem; otherwise the packs with a problem,
/// gated first. Report order within each.
fn rows(reports: &[PackReport], cx: &Context) -> Vec<usize> {
    let gated = |i: usize| cx.gated.get(i).copied().unwrap_or(true);
    let touched = cx.scope == "changed";
    let first = (0..reports.len()).filter(|&i| gated(i) && (touched || has_problem(&reports[i])));
    let rest = (0..reports.len()).filter(|&i| !gated(i) && has_problem(&reports[i]));
    first.chain(rest).collect()
}

/// The summary, under [`BUDGET`] bytes.
pub(crate) fn render(reports: &[PackReport], cx: &Context) -> String {
    let mut out = head(reports, cx);
    let rows = rows(reports, cx);
    let problems: Vec<usize> = rows
        .iter()
        .copied()
        .filter(|&i| has_problem(&reports[i]) || has_fixed(&reports[i]))
        .collect();
    let mut left_rows = 0usize;
    let mut left_findings = 0usize;
    let fits = |out: &String, add: &str| out.len() + add.len() <= BUDGET;
    if !rows.is_empty() {
        out.push_str(if cx.scope == "changed" {
            "### Packs the changes touch, then the others with a problem\n\n"
        } else {
            "### Packs with a problem\n\n"
        });
        out.push_str(
            "| Pack | Gated | Errors | Warnings | Failed cases |\n|---|---|---:|---:|---:|\n",
        );
        for &i in &rows {
            let r = &reports[i];
            let row = format!(
                "| {} | {} | {} | {} | {} |\n",
                pack_label(r),
                if cx.gated.get(i).copied().unwrap_or(true) {
                    "yes"
                } else {
                    "no"
                },
                r.errors(),
                r.warnings(),
                r.failed_cases()
            );
            if left_rows == 0 && fits(&out, &row) {
                out.push_str(&row);
            } else {
                left_rows += 1;
            }
        }
        if !problems.is_empty() {
            out.push_str("\n### Findings\n\n");
        }
        for &i in &problems {
            let r = &reports[i];
            let lines = findings(r);
            let head = format!("#### {}\n\n", pack_label(r));
            let counted = |l: &Line| matches!(l, Line::Finding(_));
            if left_findings > 0 || !fits(&out, &head) {
                left_findings += lines.iter().filter(|l| counted(l)).count();
                continue;
            }
            out.push_str(&head);
            for l in lines {
                match l {
                    Line::Frame(f) => out.push_str(&f),
                    Line::Finding(l) if left_findings == 0 && fits(&out, &l) => out.push_str(&l),
                    Line::Finding(_) => left_findings += 1,
                }
            }
            out.push('\n');
        }
    }
    if left_rows > 0 || left_findings > 0 {
        out.push_str(&format!(
            "> [!NOTE]\n> The summary stops here to stay under GitHub's 1 MiB limit: {} and {} are not shown. The SARIF file and the log hold every finding.\n",
            plural(left_rows, "pack row", "pack rows"),
            plural(left_findings, "finding", "findings"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::layout;

    fn report(dir: &str, diags: Vec<Diagnostic>) -> PackReport {
        PackReport {
            dir: dir.to_string(),
            uri_base: dir.to_string(),
            name: Some("a-pack".into()),
            version: Some("1.0.0".into()),
            diagnostics: diags,
            ..PackReport::default()
        }
    }

    #[test]
    fn escapes_pack_text() {
        let e = md("<img src=x onerror=alert(1)> **b** @team [l](http://x) a|b\n www.x.org");
        for bad in ["<img", "**", "@team", "](", "|", "\n", "http:", "www.x"] {
            assert!(!e.contains(bad), "{bad} in {e}");
        }
        assert_eq!(md("plain words"), "plain words");
    }

    #[test]
    fn lists_problem_packs_and_findings() {
        let bad = report(
            "packs/bad",
            vec![Diagnostic::file(
                &layout::UNREADABLE,
                "pack.toml",
                "oops <b>",
            )],
        );
        let good = report("packs/good", vec![]);
        let cx = Context {
            gated: vec![true, false],
            scope: "changed".into(),
            fail_on: "error".into(),
            failed: true,
            notes: vec!["upload: complete".into()],
        };
        let s = render(&[bad, good], &cx);
        assert!(s.contains("❌ **Failed**"), "{s}");
        assert!(
            s.contains("<code>packs/bad/pack.toml&#58;1&#58;1</code>"),
            "{s}"
        );
        assert!(s.contains("oops &#60;b&#62;"), "{s}");
        assert!(
            !s.contains("packs/good</code>"),
            "a clean pack has no row: {s}"
        );
        assert!(s.contains("| 2 | 1 | 0 | 0 |"), "{s}");
    }

    #[test]
    fn the_packs_a_pull_request_touches_come_first_passing_or_not() {
        let bad = || {
            let d = Diagnostic::file(&layout::UNREADABLE, "pack.toml", "oops");
            report("packs/a-bad", vec![d])
        };
        let good = report("packs/b-good", vec![]);
        let cx = Context {
            gated: vec![false, true],
            scope: "changed".into(),
            ..Context::default()
        };
        let s = render(&[bad(), good.clone()], &cx);
        let (g, b) = (s.find("packs/b-good</code>"), s.find("packs/a-bad</code>"));
        assert!(g.is_some() && b.is_some() && g < b, "{s}");
        // Control: under scope all, a clean pack has no row.
        let all = Context {
            gated: vec![true, true],
            scope: "all".into(),
            ..Context::default()
        };
        let s = render(&[bad(), good], &all);
        assert!(!s.contains("packs/b-good</code>"), "{s}");
    }

    #[test]
    fn a_review_lists_new_findings_then_fixed_then_existing_collapsed() {
        let w = |path: &str, msg: &str| {
            Diagnostic::file(&layout::UNREADABLE, path, msg).with_severity(Severity::Warning)
        };
        let base = report("packs/a", vec![w("a.md", "old"), w("b.md", "gone")]);
        let mut head = report("packs/a", vec![w("a.md", "old"), w("c.md", "brand")]);
        crate::label::against(&mut head, Some(&base));
        let cx = Context {
            gated: vec![true],
            scope: "changed".into(),
            ..Context::default()
        };
        let s = render(std::slice::from_ref(&head), &cx);
        let at = |t: &str| s.find(t).unwrap_or_else(|| panic!("{t} in {s}"));
        assert!(at("brand") < at("1 finding fixed"), "{s}");
        assert!(at("1 finding fixed") < at("packs/a/b.md"), "{s}");
        assert!(at("packs/a/b.md") < at("<details><summary>1 finding the base has too"));
        assert!(at("<details>") < at("a.md&#58;1&#58;1") && at("old") < at("</details>"));
        // Control: without a review, the same report lists its findings as before.
        let plain = report("packs/a", vec![w("a.md", "old"), w("c.md", "brand")]);
        let s = render(&[plain], &cx);
        assert!(!s.contains("<details>") && !s.contains("fixed"), "{s}");
        assert!(s.find("old") < s.find("brand"), "report order: {s}");
    }

    #[test]
    fn stays_under_the_limit_with_a_note() {
        let diags: Vec<Diagnostic> = (0..20_000)
            .map(|i| Diagnostic::file(&layout::UNREADABLE, &format!("f{i}.md"), "x".repeat(60)))
            .collect();
        let cx = Context {
            gated: vec![true],
            ..Context::default()
        };
        let s = render(&[report("packs/big", diags)], &cx);
        assert!(s.len() < GITHUB_LIMIT, "{}", s.len());
        assert!(
            s.contains("are not shown"),
            "the note says what was left out"
        );
        let shown = s.matches("<code>packs/big/f").count();
        assert!(shown > 1000 && shown < 20_000, "{shown}");
        assert!(
            s.contains(&format!("and {} findings are not shown", 20_000 - shown)),
            "{}",
            &s[s.len() - 300..]
        );
    }
}
