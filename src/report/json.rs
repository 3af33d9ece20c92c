//! `--format json`: the versioned report `hippo-packs/v1`, documented in
//! docs/output-formats.md. Struct field order is the order in the file; every string a pack
//! controls is escaped as the text output escapes it.

use serde::Serialize;

use super::located::{help_lines, location_path, message, named_char};
use super::rendering::{Render, Rendering, to_string};
use crate::core::baseline::Baseline;
use crate::core::charname;
use crate::core::escape;
use crate::core::{Diagnostic, Severity};
use crate::dream::Counts;
use crate::outcome::{Mode, PackReport};

pub(crate) const FORMAT: &str = "hippo-packs/v1";

/// The versioned JSON report (docs/output-formats.md) of `reports` (the tests' call of
/// [`JsonRenderer`]).
pub fn render(reports: &[PackReport], mode: Mode) -> String {
    to_string(&JsonRenderer, &Rendering::new(reports, mode))
}

/// `--format json`, and the JSON report `ci` writes beside the SARIF file: the packs, the
/// summary and the unused allowances.
pub(crate) struct JsonRenderer;

impl Render for JsonRenderer {
    fn render(&self, run: &Rendering<'_>, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        write(w, run.reports, run.mode, run.unused)
    }
}

/// The report written to `w` as it is made: each finding becomes JSON when it is written,
/// so memory holds the reports and never the document (docs/performance.md).
fn write(
    w: &mut dyn std::io::Write,
    reports: &[PackReport],
    mode: Mode,
    extra: &[Diagnostic],
) -> std::io::Result<()> {
    let summary = Summary {
        packs: reports.len(),
        failed_packs: reports.iter().filter(|r| r.failed(false)).count(),
        errors: reports.iter().map(PackReport::errors).sum(),
        warnings: reports.iter().map(PackReport::warnings).sum(),
        cases: reports.iter().map(|r| r.cases.len()).sum(),
        failed_cases: reports.iter().map(PackReport::failed_cases).sum(),
    };
    let doc = Report {
        format: FORMAT,
        tool: Tool {
            name: "hippo-packs",
            version: env!("CARGO_PKG_VERSION"),
        },
        command: match mode {
            Mode::Check => "check",
            Mode::Test => "test",
        },
        packs: Each(reports, &|r: &PackReport| pack(r, mode)),
        summary,
        unused_allowances: Extra(extra),
    };
    let mut buffered = std::io::BufWriter::with_capacity(1 << 16, w);
    serde_json::to_writer_pretty(&mut buffered, &doc)?;
    std::io::Write::write_all(&mut buffered, b"\n")?;
    std::io::Write::flush(&mut buffered)
}

/// A list serialized one item at a time, each made only when it is written.
struct Each<'a, T, R>(&'a [T], &'a dyn Fn(&'a T) -> R);

impl<'a, T, R: Serialize> Serialize for Each<'a, T, R> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(self.1))
    }
}

/// The run's findings beside the packs' (`unused_allowances`).
struct Extra<'a>(&'a [Diagnostic]);

impl Serialize for Extra<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let none = PackReport::default();
        s.collect_seq(
            self.0
                .iter()
                .map(|d| diagnostic(&none, d, format!("warning {}", d.text("")))),
        )
    }
}

/// A pack's findings, each made when it is written.
struct Diags<'a>(&'a PackReport);

impl Serialize for Diags<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        s.collect_seq(r.diagnostics.iter().map(|d| {
            diagnostic(
                r,
                d,
                format!("{} {}", d.severity.as_str(), d.text(&r.prefix)),
            )
        }))
    }
}

fn pack(r: &PackReport, mode: Mode) -> Pack<'_> {
    Pack {
        path: esc(&r.dir),
        uri: esc(&r.uri_base),
        name: r.name.as_deref().map(esc),
        version: r.version.as_deref().map(esc),
        kind: r.kind.map(|k| k.as_str()),
        verdict: if r.failed(false) { "failed" } else { "ok" },
        errors: r.errors(),
        warnings: r.warnings(),
        skipped: r.skipped.iter().map(|s| esc(s)).collect(),
        diagnostics: Diags(r),
        cases: (mode == Mode::Test).then(|| {
            r.cases
                .iter()
                .map(|c| Case {
                    name: esc(&c.name),
                    verdict: if c.failures.is_empty() {
                        "ok"
                    } else {
                        "failed"
                    },
                    counts: c.counts.clone(),
                    failures: c
                        .failures
                        .iter()
                        .enumerate()
                        .map(|(i, d)| {
                            let line = format!("FAIL {}: {}", r.case_label(&c.name), d.message);
                            Diag {
                                cause: c.cause_of(i).map(esc),
                                ..diagnostic(r, d, line)
                            }
                        })
                        .collect(),
                    reasons: c.reasons.iter().map(|w| esc(w)).collect(),
                })
                .collect()
        }),
        no_case: r.no_case.as_deref().map(esc),
        fixed: r.fixed.as_ref().map(|f| {
            f.iter()
                .map(|x| JsonFixed {
                    rule: x.rule,
                    path: x.path.as_deref().map(esc),
                    message: esc(&x.message),
                })
                .collect()
        }),
        allowed: r
            .allowed
            .iter()
            .map(|a| AllowedDiag {
                diagnostic: diagnostic(
                    r,
                    &a.diagnostic,
                    format!(
                        "{} {}",
                        a.diagnostic.severity.as_str(),
                        a.diagnostic.text(&r.prefix)
                    ),
                ),
                reason: esc(&a.reason),
            })
            .collect(),
    }
}

/// One finding; `line` is the text output's line for it.
fn diagnostic(r: &PackReport, d: &Diagnostic, line: String) -> Diag {
    let g = &d.region;
    Diag {
        rule: d.rule.id,
        severity: d.severity,
        baseline: d.baseline.map(Baseline::as_str),
        path: d.subject.as_deref().map(esc),
        file: d.file.as_deref().map(esc),
        location: esc(&location_path(r, d)),
        line: g.line,
        column: g.col,
        end_line: g.end_line,
        end_column: g.end_col,
        message: message(d),
        text: esc(&line),
        char_name: named_char(d).and_then(charname::name),
        secrets: d
            .related
            .iter()
            .filter(|r| !r.masks.is_empty())
            .map(|r| JsonSecret {
                kind: r.kind,
                line: r.region.line,
                column: r.region.col,
                end_line: r.region.end_line,
                end_column: r.region.end_col,
                masked: r.label.clone(),
                baseline: r.baseline.map(Baseline::as_str),
            })
            .collect(),
        related: d
            .related
            .iter()
            .filter(|r| r.masks.is_empty())
            .map(|r| JsonRelated {
                line: r.region.line,
                column: r.region.col,
                end_line: r.region.end_line,
                end_column: r.region.end_col,
                label: esc(&r.label),
            })
            .collect(),
        occurrences: occurrences(d),
        evidence: d.evidence,
        cause: None,
        hint: d.hint.as_deref().map(esc),
        help: help_lines(d),
        fix: d.fix.as_ref().map(|f| JsonFix {
            applicability: "safe",
            message: esc(&f.message),
            edits: f
                .edits
                .iter()
                .map(|e| JsonEdit {
                    line: e.region.line,
                    column: e.region.col,
                    end_line: e.region.end_line,
                    end_column: e.region.end_col,
                    content: e.with.clone(),
                })
                .collect(),
        }),
    }
}

/// A one-per-file finding's occurrences, each with its label, in a review only (without one
/// the JSON of `check` and `test` stays as it was).
fn occurrences(d: &Diagnostic) -> Vec<JsonOccurrence> {
    if d.baseline.is_none() {
        return Vec::new();
    }
    d.occurrences
        .iter()
        .map(|o| JsonOccurrence {
            line: o.region.line,
            column: o.region.col,
            end_line: o.region.end_line,
            end_column: o.region.end_col,
            text: esc(&o.text),
            baseline: o.baseline.map(Baseline::as_str),
        })
        .collect()
}

fn esc(s: &str) -> String {
    escape::line(s).into_owned()
}

#[derive(Serialize)]
struct Report<'a> {
    format: &'static str,
    tool: Tool,
    command: &'static str,
    packs: Each<'a, PackReport, Pack<'a>>,
    summary: Summary,
    /// `--config FILE`: `[[allow]]` entries that matched nothing (docs/configuration.md).
    #[serde(skip_serializing_if = "Extra::is_empty")]
    unused_allowances: Extra<'a>,
}

impl Extra<'_> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Pack<'a> {
    path: String,
    uri: String,
    name: Option<String>,
    version: Option<String>,
    kind: Option<&'static str>,
    verdict: &'static str,
    errors: usize,
    warnings: usize,
    skipped: Vec<String>,
    diagnostics: Diags<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cases: Option<Vec<Case>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    no_case: Option<String>,
    /// In a pull request's review, the findings the base has and the head does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed: Option<Vec<JsonFixed>>,
    /// Warnings an allowance took out of the verdict, each with the allowance's reason.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    allowed: Vec<AllowedDiag>,
}

#[derive(Serialize)]
struct AllowedDiag {
    #[serde(flatten)]
    diagnostic: Diag,
    reason: String,
}

#[derive(Serialize)]
struct Diag {
    rule: &'static str,
    severity: Severity,
    /// In a pull request's review: `new` or `existing` against its base.
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'static str>,
    path: Option<String>,
    file: Option<String>,
    location: String,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    message: String,
    text: String,
    /// The Unicode name of the character the message begins with (`U+2060`: `WORD JOINER`).
    #[serde(skip_serializing_if = "Option::is_none")]
    char_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    evidence: Option<&'static str>,
    /// A failed expectation: the one event it follows from (a reply that is not JSON, a refused
    /// change), when the case has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    cause: Option<String>,
    /// The related places never shown whole: a redaction finding's secrets, every one of its
    /// file, masked (docs/output-formats.md).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    secrets: Vec<JsonSecret>,
    /// The other related places, shown as written, each with its label.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<JsonRelated>,
    /// In a review, every occurrence of a one-per-file finding (each URL, each hidden text).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    occurrences: Vec<JsonOccurrence>,
    /// The finding's own help (a "did you mean", the valid keys, a rename).
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<String>,
    /// The `help:` lines `--format full` shows, in order.
    help: Vec<String>,
    /// What `check --fix` does about the finding, when it does something.
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix>,
}

/// A fix `check --fix` makes: `safe`, as ruff says of a fix that cannot change meaning.
#[derive(Serialize)]
struct JsonFix {
    applicability: &'static str,
    message: String,
    edits: Vec<JsonEdit>,
}

/// One edit: the characters from line:column to end_line:end_column (code points, as the
/// finding's own) replaced with `content`, as written (empty: removed).
#[derive(Serialize)]
struct JsonEdit {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    content: String,
}

#[derive(Serialize)]
struct JsonSecret {
    kind: &'static str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    masked: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'static str>,
}

/// A place a finding is about beside its own, with its label.
#[derive(Serialize)]
struct JsonRelated {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    label: String,
}

/// One occurrence of a one-per-file finding, in a review.
#[derive(Serialize)]
struct JsonOccurrence {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    text: String,
    baseline: Option<&'static str>,
}

/// A finding the base has and the head does not.
#[derive(Serialize)]
struct JsonFixed {
    rule: &'static str,
    path: Option<String>,
    message: String,
}

#[derive(Serialize)]
struct Case {
    name: String,
    verdict: &'static str,
    counts: Counts,
    failures: Vec<Diag>,
    /// Why the counts came out as they did (refused elements, rejected proposals, notes a
    /// filter left out), one line each.
    reasons: Vec<String>,
}

#[derive(Serialize)]
struct Summary {
    packs: usize,
    failed_packs: usize,
    errors: usize,
    warnings: usize,
    cases: usize,
    failed_cases: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Related, Span};

    /// A place of any rule's finding: under `related` when shown as written, under `secrets`
    /// (masked) when never shown whole.
    #[test]
    fn related_places_are_listed_by_whether_they_are_shown() {
        let rule = &crate::rules::layout::SYMBOLIC_LINK;
        let place = Related {
            span: Span::new(0, 5),
            region: crate::core::Region::FILE,
            fingerprint: None,
            kind: "definition",
            label: "first\ndefined".into(),
            finding: None,
            evidence: None,
            masks: Vec::new(),
            identity: 0,
            baseline: None,
        };
        let d = Diagnostic::key(rule, "a.md", Span::new(9, 10), "twice");
        let r = PackReport::default();
        let shown = d.clone().with_related(vec![place.clone()]);
        let v = serde_json::to_value(diagnostic(&r, &shown, String::new())).unwrap();
        assert_eq!(v["related"][0]["label"], "firstU+000Adefined");
        assert_eq!(v["related"][0]["line"], 1);
        assert!(v.get("secrets").is_none(), "{v}");
        // Control: the same place masked is a secret, and `related` is left out.
        let masked = Related {
            masks: vec![(place.span, "firs…".into())],
            ..place
        };
        let hidden = d.with_related(vec![masked]);
        let v = serde_json::to_value(diagnostic(&r, &hidden, String::new())).unwrap();
        assert_eq!(v["secrets"][0]["kind"], "definition");
        assert!(v.get("related").is_none(), "{v}");
    }
}
