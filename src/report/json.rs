//! `--format json`: the versioned report `hippo-packs/v1`, documented in
//! docs/output-formats.md. Struct field order is the order in the file; every string a pack
//! controls is escaped as the text output escapes it.

use serde::Serialize;

use super::located::{location_path, message, named_char};
use crate::core::charname;
use crate::core::escape;
use crate::core::{Diagnostic, Severity};
use crate::dream::Counts;
use crate::outcome::{Mode, PackReport};

pub(crate) const FORMAT: &str = "hippo-packs/v1";

/// The versioned JSON report (docs/output-formats.md) of `reports`.
pub fn render(reports: &[PackReport], mode: Mode) -> String {
    render_with(reports, mode, &[])
}

/// [`render`] with findings of the run beside the packs' (`unused_allowances`).
pub(crate) fn render_with(reports: &[PackReport], mode: Mode, extra: &[Diagnostic]) -> String {
    let none = PackReport::default();
    let unused_allowances = extra
        .iter()
        .map(|d| diagnostic(&none, d, format!("warning {}", d.text(""))))
        .collect();
    let packs: Vec<Pack> = reports.iter().map(|r| pack(r, mode)).collect();
    let summary = Summary {
        packs: packs.len(),
        failed_packs: packs.iter().filter(|p| p.verdict == "failed").count(),
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
        packs,
        summary,
        unused_allowances,
    };
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

fn pack(r: &PackReport, mode: Mode) -> Pack {
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
        diagnostics: r
            .diagnostics
            .iter()
            .map(|d| {
                diagnostic(
                    r,
                    d,
                    format!("{} {}", d.severity.as_str(), d.text(&r.prefix)),
                )
            })
            .collect(),
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
            .secrets
            .iter()
            .map(|s| JsonSecret {
                kind: s.kind,
                line: s.region.line,
                column: s.region.col,
                end_line: s.region.end_line,
                end_column: s.region.end_col,
                masked: s.masked.clone(),
            })
            .collect(),
        evidence: d.evidence,
        cause: None,
    }
}

fn esc(s: &str) -> String {
    escape::line(s).into_owned()
}

#[derive(Serialize)]
struct Report {
    format: &'static str,
    tool: Tool,
    command: &'static str,
    packs: Vec<Pack>,
    summary: Summary,
    /// `--config FILE`: `[[allow]]` entries that matched nothing (docs/configuration.md).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unused_allowances: Vec<Diag>,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Pack {
    path: String,
    uri: String,
    name: Option<String>,
    version: Option<String>,
    kind: Option<&'static str>,
    verdict: &'static str,
    errors: usize,
    warnings: usize,
    skipped: Vec<String>,
    diagnostics: Vec<Diag>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cases: Option<Vec<Case>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    no_case: Option<String>,
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
    /// A redaction finding's secrets, every one of its file, masked (docs/output-formats.md).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    secrets: Vec<JsonSecret>,
}

#[derive(Serialize)]
struct JsonSecret {
    kind: &'static str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    masked: String,
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
