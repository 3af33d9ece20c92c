//! `--junit FILE` (`test`): JUnit XML as the usual CI test reporters read it. One `testsuite`
//! per pack, one `testcase` per case with one `failure` holding every failed expectation; a pack whose
//! validation failed is one failing testcase named `check`, and an unmatched `--case NAME` one
//! failing testcase named `NAME`. No times or host names: the same results give the same bytes.

use std::io::{self, Write};

use super::rendering::{Render, Rendering, to_string};
use crate::core::escape;
use crate::core::{Diagnostic, Severity};
use crate::outcome::{CaseResult, Mode, PackReport};

/// A testcase as written: its name and its failures (type, message, body).
struct TestCase {
    name: String,
    failures: Vec<(String, String, String)>,
}

/// The JUnit XML of `reports` (the tests' call of [`JunitRenderer`]).
pub fn render(reports: &[PackReport]) -> String {
    to_string(&JunitRenderer, &Rendering::new(reports, Mode::Test))
}

/// `test --junit FILE`: one test suite per pack, one test case per fixture case. Unused
/// allowances are not test results and are left out.
pub(crate) struct JunitRenderer;

impl Render for JunitRenderer {
    fn render(&self, run: &Rendering<'_>, w: &mut dyn Write) -> io::Result<()> {
        let suites: Vec<(String, Vec<TestCase>)> = run.reports.iter().map(suite).collect();
        let tests: usize = suites.iter().map(|(_, cs)| cs.len()).sum();
        let failed = |cs: &[TestCase]| cs.iter().filter(|c| !c.failures.is_empty()).count();
        let failures: usize = suites.iter().map(|(_, cs)| failed(cs)).sum();
        writeln!(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
        writeln!(
            w,
            "<testsuites name=\"hippo-packs\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">"
        )?;
        for (name, cases) in &suites {
            writeln!(
                w,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">",
                xml(name),
                cases.len(),
                failed(cases)
            )?;
            for c in cases {
                test_case(w, name, c)?;
            }
            writeln!(w, "  </testsuite>")?;
        }
        writeln!(w, "</testsuites>")
    }
}

/// One `testcase` element of the suite `suite`, with its failures.
fn test_case(w: &mut dyn Write, suite: &str, c: &TestCase) -> io::Result<()> {
    let open = format!(
        "    <testcase name=\"{}\" classname=\"{}\"",
        xml(&c.name),
        xml(suite)
    );
    if c.failures.is_empty() {
        return writeln!(w, "{open}/>");
    }
    writeln!(w, "{open}>")?;
    for (kind, message, body) in &c.failures {
        writeln!(
            w,
            "      <failure type=\"{}\" message=\"{}\">{}</failure>",
            xml(kind),
            xml(message),
            xml(body)
        )?;
    }
    writeln!(w, "    </testcase>")
}

fn suite(r: &PackReport) -> (String, Vec<TestCase>) {
    // In a run over several packs the suite is named by its folder: two packs may share a name.
    let name = r.run_name().to_string();
    let mut cases = Vec::new();
    let errors: Vec<&Diagnostic> = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if !errors.is_empty() {
        let lines: Vec<String> = errors
            .iter()
            .map(|d| format!("error {}", escape::line(&d.text(&r.prefix))))
            .collect();
        cases.push(TestCase {
            name: "check".into(),
            failures: vec![(
                "validation".into(),
                format!(
                    "{} error{}: the pack's cases did not run",
                    errors.len(),
                    if errors.len() == 1 { "" } else { "s" }
                ),
                lines.join("\n"),
            )],
        });
    }
    if let Some(missing) = &r.no_case {
        cases.push(TestCase {
            name: missing.clone(),
            failures: vec![(
                "no-case".into(),
                format!("no case named {missing}"),
                format!("error no case named {}", escape::line(missing)),
            )],
        });
    }
    for c in &r.cases {
        cases.push(TestCase {
            name: c.name.clone(),
            failures: case_failure(r, &name, c).into_iter().collect(),
        });
    }
    (name, cases)
}

/// A failed case as one `<failure>` (several in one testcase are rejected by some readers):
/// its message is the cause, or the first failure and how many more; its text the cause, every
/// `FAIL` line with its place in `case.toml`, then the other reasons.
fn case_failure(r: &PackReport, suite: &str, c: &CaseResult) -> Option<(String, String, String)> {
    let first = c.failures.first()?;
    let n = c.failures.len();
    let cause = c.cause.as_ref().map(|k| k.why.as_str());
    let message = match cause {
        Some(why) => format!("{n} failed expectation{}; cause: {why}", plural(n)),
        None if n == 1 => first.message.clone(),
        None => format!("{} (and {} more)", first.message, n - 1),
    };
    let mut body: Vec<String> = cause.iter().map(|why| format!("cause: {why}")).collect();
    for f in &c.failures {
        let at = f
            .file
            .as_deref()
            .map(|file| format!("\nat {}{}:{}", r.prefix, file, f.region.line))
            .unwrap_or_default();
        body.push(format!("FAIL {suite}/{}: {}{at}", c.name, f.message));
    }
    body.extend(
        c.reasons
            .iter()
            .filter(|w| Some(w.as_str()) != cause)
            .map(|w| format!("because {w}")),
    );
    Some((first.rule.id.to_string(), message, body.join("\n")))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Text for an XML 1.0 attribute or element: each line escaped as the text output escapes it
/// (so no control character is left), line breaks as `&#10;`, the five markup characters as
/// entities, and any character XML 1.0 forbids (U+FFFE, U+FFFF) dropped.
pub(crate) fn xml(s: &str) -> String {
    let shown: Vec<_> = s.split('\n').map(escape::line).collect();
    let shown = shown.join("\n");
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            c if allowed(c) => out.push(c),
            _ => {}
        }
    }
    out
}

/// XML 1.0's `Char` production.
fn allowed(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_text_is_escaped_and_forbidden_characters_dropped() {
        assert_eq!(
            xml("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(xml("x\u{FFFF}y\u{FFFE}"), "xy");
        assert_eq!(xml("bell\u{7}"), "bellU+0007");
        assert_eq!(xml("two\nlines"), "two&#10;lines");
        // Control: a raw `<` would open a tag.
        assert!(!xml("</failure>").contains('<'));
    }

    #[test]
    fn two_packs_of_one_name_are_two_suites_named_by_folder() {
        let pack = |dir: &str| PackReport {
            dir: dir.into(),
            prefix: format!("{dir}/"),
            name: Some("decision-log".into()),
            cases: vec![crate::outcome::CaseResult {
                name: "cache-store".into(),
                ..Default::default()
            }],
            ..PackReport::default()
        };
        let out = render(&[pack("packs/a"), pack("packs/b")]);
        assert!(out.contains("<testsuite name=\"packs/a\""), "{out}");
        assert!(out.contains("<testsuite name=\"packs/b\""), "{out}");
        let one = PackReport {
            prefix: String::new(),
            ..pack("packs/a")
        };
        assert!(
            render(&[one]).contains("<testsuite name=\"decision-log\""),
            "control: one pack keeps its name"
        );
    }
}
