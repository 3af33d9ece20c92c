//! SARIF 2.1.0 for GitHub code scanning, as docs/output-formats.md fixes it: one run, the whole
//! catalogue as the driver's rules, one result per diagnostic and per failed expectation, each
//! with exactly one location and GitHub's line hash.
//!
//! A small typed model of our own rather than `serde-sarif`: we write a few dozen fields, the
//! field order of the structs is the order in the file (byte-identical output), and GitHub's
//! limits are applied while building it. See docs/output-formats.md.

use serde::Serialize;

use super::located::{location_path, message_named, placed_count};
use super::rendering::{Render, Rendering, to_string};
use crate::core::{Diagnostic, escape};
use crate::outcome::{Mode, PackReport};
use crate::rules;

mod descriptor;
mod strings;
pub(crate) use descriptor::help_uri;
use descriptor::{Descriptor, descriptor, level};
#[cfg(test)]
use descriptor::{MAX_DESCRIPTION, display_name};
use strings::Text;
pub(crate) use strings::{encode_uri, markdown_text};
#[cfg(test)]
use strings::{limit, pascal_case};

pub(crate) const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// Where the tool and its rule reference live: the repository address of Cargo.toml.
pub const HOME: &str = descriptor::HOME;
/// The most results a run may hold when uploaded: the file keeps at most this many.
pub(crate) const MAX_RESULTS: usize = 25_000;
/// Code scanning stores the top this many results of a run, by severity.
pub(crate) const STORED_RESULTS: usize = 5_000;
/// GitHub rejects a result with more locations than this: a result keeps its one location and
/// at most this many less one related locations.
pub(crate) const MAX_LOCATIONS: usize = 1_000;

/// The SARIF log of `reports`; `category` gives `automationDetails.id` (`<category>/`) (the
/// tests' call of [`SarifRenderer`]).
pub fn render(reports: &[PackReport], category: &str) -> String {
    render_limited(reports, category, MAX_RESULTS)
}

/// `--format sarif`, `--sarif FILE` and the SARIF file `ci` uploads: the reports' results, at
/// most `limit` of them ([`MAX_RESULTS`] but in tests), then the run's unused allowances
/// (located in the configuration file as named).
pub(crate) struct SarifRenderer {
    pub(crate) limit: usize,
}

impl Render for SarifRenderer {
    fn render(&self, run: &Rendering<'_>, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut log = build(run.reports, run.category, self.limit);
        let none = PackReport::default();
        for d in run.unused {
            log.runs[0].results.push(result(&none, d));
        }
        let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
        serde_json::to_writer_pretty(&mut w, &log)?;
        std::io::Write::write_all(&mut w, b"\n")?;
        std::io::Write::flush(&mut w)
    }
}

/// How many results the reports make, before any limit (as [`SarifRenderer`] lists them, with
/// `extra` findings of the run).
pub(crate) fn result_count(reports: &[PackReport], extra: &[Diagnostic]) -> usize {
    let per_pack = |r: &PackReport| {
        // A finding whose related places are findings of their own is one result each.
        r.diagnostics.iter().map(placed_count).sum::<usize>()
            + r.allowed.len()
            + r.cases.iter().map(|c| c.failures.len()).sum::<usize>()
    };
    reports.iter().map(per_pack).sum::<usize>() + extra.len()
}

/// [`render`] with another result limit (tests).
pub fn render_limited(reports: &[PackReport], category: &str, limit: usize) -> String {
    let run = Rendering {
        category,
        ..Rendering::new(reports, Mode::Check)
    };
    to_string(&SarifRenderer { limit }, &run)
}

/// Every result of the reports, in their order: findings, allowed warnings (suppressed), and
/// the failures of failed cases.
fn all_results(reports: &[PackReport]) -> Vec<SarifResult<'_>> {
    let mut all: Vec<SarifResult<'_>> = Vec::new();
    for r in reports {
        for d in r.diagnostics.iter().flat_map(super::located::placed) {
            all.push(result(r, &d));
        }
        // An allowed warning stays a result, suppressed as accepted with the reason (code
        // scanning does not dismiss an alert for it: `ci` does, docs/configuration.md).
        for a in &r.allowed {
            let mut res = result(r, &a.diagnostic);
            res.suppressions = Some([Suppression {
                kind: "external",
                status: "accepted",
                justification: escape::line(&a.reason).into_owned(),
            }]);
            all.push(res);
        }
        for c in &r.cases {
            for f in &c.failures {
                let mut res = result(r, f);
                // Why the case failed goes with each of its failures (docs/output-formats.md).
                if !c.reasons.is_empty() {
                    res.message.text.push_str("\n\nWhy:");
                    for why in &c.reasons {
                        res.message
                            .text
                            .push_str(&format!("\n- {}", escape::line(why)));
                    }
                }
                all.push(res);
            }
        }
    }
    all
}

fn build<'a>(reports: &'a [PackReport], category: &str, limit: usize) -> Log<'a> {
    let all = all_results(reports);
    // Errors first, each kind in its order: the file holds at most `limit` results (25,000),
    // and a run over it keeps the errors. Code scanning stores the top 5,000 results of a run
    // by its own ranking, so `ci` says so in a notice above that (docs/action.md, "Limits").
    let (errors, warnings): (Vec<_>, Vec<_>) = all.into_iter().partition(|r| r.level == "error");
    let errors_total = errors.len();
    let total = errors_total + warnings.len();
    let all: Vec<SarifResult<'a>> = errors.into_iter().chain(warnings).take(limit).collect();
    let mut notifications = Vec::new();
    if total > limit {
        let kept_errors = errors_total.min(limit);
        notifications.push(Notification {
            level: "warning",
            message: Text {
                text: format!(
                    "{} of {} results were left out: GitHub keeps at most {} results per run. \
                     Kept: {} of {} errors, {} of {} warnings. The text output counts them all.",
                    total - limit,
                    total,
                    limit,
                    kept_errors,
                    errors_total,
                    limit - kept_errors,
                    total - errors_total,
                ),
            },
        });
    }
    let category = category.trim_end_matches('/');
    Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "hippo-packs",
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: HOME,
                    rules: rules::catalogue().iter().map(|r| descriptor(r)).collect(),
                },
            },
            automation_details: AutomationDetails {
                id: format!(
                    "{}/",
                    if category.is_empty() {
                        "hippo-packs"
                    } else {
                        category
                    }
                ),
            },
            column_kind: "utf16CodeUnits",
            invocations: [Invocation {
                execution_successful: true,
                tool_execution_notifications: notifications,
            }],
            results: all,
        }],
    }
}

fn result<'a>(r: &'a PackReport, d: &Diagnostic) -> SarifResult<'a> {
    SarifResult {
        rule_id: d.rule.id,
        rule_index: rules::index(d.rule),
        level: level(d.severity),
        message: Text {
            text: match &d.hint {
                Some(h) => format!("{}\n\nhelp: {}", message_named(d), escape::line(h)),
                None => message_named(d),
            },
        },
        fixes: d.fix.as_ref().map(|f| {
            let replacements = f.edits.iter().map(|e| Replacement {
                deleted_region: sarif_region(&e.region),
                inserted_content: (!e.with.is_empty()).then(|| Text {
                    text: e.with.clone(),
                }),
            });
            [SarifFix {
                description: Text {
                    text: escape::line(&f.message).into_owned(),
                },
                artifact_changes: [ArtifactChange {
                    artifact_location: artifact(&location_path(r, d)),
                    replacements: replacements.collect(),
                }],
            }]
        }),
        locations: [Location {
            id: None,
            physical_location: PhysicalLocation {
                artifact_location: artifact(&location_path(r, d)),
                region: sarif_region(&d.region),
            },
            message: None,
        }],
        related_locations: related_locations(r, d),
        partial_fingerprints: d.fingerprint.as_ref().map(|h| Fingerprints {
            primary_location_line_hash: h.clone(),
        }),
        suppressions: None,
        properties: ResultProperties {
            pack: r.display_name(),
            evidence: d.evidence,
        },
    }
}

/// A region as the result's: lines, and columns in UTF-16 code units, each at least 1.
fn sarif_region(g: &crate::core::Region) -> Region {
    Region {
        start_line: g.line.max(1),
        start_column: g.col16.max(1),
        end_line: g.end_line.max(g.line).max(1),
        end_column: g.end_col16.max(1),
    }
}

/// The finding's related places (SARIF 3.27.22), in the finding's file, each with its label and
/// its 1-based position as `id`; at most [`MAX_LOCATIONS`] less one.
fn related_locations(r: &PackReport, d: &Diagnostic) -> Vec<Location> {
    if d.related.is_empty() {
        return Vec::new();
    }
    let path = location_path(r, d);
    let each = d.related.iter().take(MAX_LOCATIONS - 1).enumerate();
    each.map(|(i, p)| Location {
        id: Some(i + 1),
        physical_location: PhysicalLocation {
            artifact_location: artifact(&path),
            region: sarif_region(&p.region),
        },
        message: Some(Text {
            text: escape::line(&p.label).into_owned(),
        }),
    })
    .collect()
}

/// A path relative to the repository root under `%SRCROOT%`; an absolute one (a pack outside
/// any repository and the working folder) as a `file://` URI without a base id.
fn artifact(path: &str) -> ArtifactLocation {
    if path.starts_with('/') {
        ArtifactLocation {
            uri: format!("file://{}", encode_uri(path)),
            uri_base_id: None,
        }
    } else {
        ArtifactLocation {
            uri: encode_uri(path),
            uri_base_id: Some("%SRCROOT%"),
        }
    }
}

// The model: field order is file order.

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    automation_details: AutomationDetails,
    column_kind: &'static str,
    invocations: [Invocation; 1],
    results: Vec<SarifResult<'a>>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    semantic_version: &'static str,
    information_uri: &'static str,
    rules: Vec<Descriptor>,
}

#[derive(Serialize)]
struct AutomationDetails {
    id: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Text,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: [Location; 1],
    /// The finding's other places (SARIF 3.27.22), when it has some.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    #[serde(skip_serializing_if = "Option::is_none")]
    partial_fingerprints: Option<Fingerprints>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suppressions: Option<[Suppression; 1]>,
    properties: ResultProperties<'a>,
    /// What `check --fix` does about the finding (SARIF §3.55), when it does something.
    #[serde(skip_serializing_if = "Option::is_none")]
    fixes: Option<[SarifFix; 1]>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix {
    description: Text,
    artifact_changes: [ArtifactChange; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<Replacement>,
}

/// The region's characters replaced with `insertedContent` (none: removed).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    deleted_region: Region,
    #[serde(skip_serializing_if = "Option::is_none")]
    inserted_content: Option<Text>,
}

#[derive(Serialize)]
struct Suppression {
    kind: &'static str,
    status: &'static str,
    justification: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Fingerprints {
    primary_location_line_hash: String,
}

#[derive(Serialize)]
struct ResultProperties<'a> {
    pack: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    evidence: Option<&'static str>,
}

#[cfg(test)]
mod tests;
