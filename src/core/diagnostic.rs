//! The one value every rule returns: a [`Diagnostic`].
//!
//! Rules work in byte offsets ([`Span`]); `rules::resolve` turns them into 1-based lines and
//! columns (code points for text, UTF-16 code units for SARIF) at the edge, so renderers only
//! read fields and compute nothing.

use super::baseline::{Baseline, Occurrence};
use super::rule::Rule;
use super::severity::Severity;

/// A byte range inside one file (`start..end`, `end` exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`; an `end` before `start` is taken as `start` (an empty span).
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start,
            end: end.max(start),
        }
    }
    pub(crate) fn from_range(r: std::ops::Range<usize>) -> Self {
        Span::new(r.start, r.end)
    }
}

/// A resolved region: 1-based lines; `col`/`end_col` count Unicode scalar values, `col16`/
/// `end_col16` UTF-16 code units; the end column is one past the last character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Region {
    /// The first line, 1-based.
    pub line: usize,
    /// The first column, 1-based, in Unicode scalar values.
    pub col: usize,
    pub(crate) end_line: usize,
    pub(crate) end_col: usize,
    /// The first column, 1-based, in UTF-16 code units (SARIF's and GitHub's columns).
    pub col16: usize,
    pub(crate) end_col16: usize,
}

impl Region {
    /// The whole-file finding: line 1, column 1.
    pub(crate) const FILE: Region = Region {
        line: 1,
        col: 1,
        end_line: 1,
        end_col: 1,
        col16: 1,
        end_col16: 1,
    };
}

/// How the text renderer writes the line after `error `/`warning `.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Style {
    /// `<subject>: <message>`, or `<subject>:<line>:<col>: <message>` when `show_position`.
    Located { show_position: bool },
    /// `<lead> <subject>` then `: <message>` when the message is not empty
    /// (`unexpected file extra.txt`, `missing file pack.toml`).
    Lead(&'static str),
    /// `<subject>:<line>: <message>` (a transcript line).
    AtLine,
    /// `<message>` alone (pack-wide findings).
    Bare,
}

/// One finding: its rule, severity, file, span and region, and its message (the page's output
/// line is [`Diagnostic::text`]).
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub(crate) rule: &'static Rule,
    pub(crate) severity: Severity,
    /// The pack-relative, `/`-separated path the text line names (a file or a folder).
    pub(crate) subject: Option<String>,
    /// The pack-relative file the finding points at (SARIF location); `None` until
    /// `rules::finish` falls back to `pack.toml` or the pack's first file.
    pub file: Option<String>,
    /// Byte span inside `file`; `None` for a whole-file finding.
    pub span: Option<Span>,
    /// Filled by `rules::resolve`: where `span` is, in lines and columns.
    pub region: Region,
    pub(crate) message: String,
    pub(crate) style: Style,
    /// Filled by `rules::resolve` from the file's bytes: GitHub's `primaryLocationLineHash` of
    /// the region's first line (`None` when the file's bytes are not at hand).
    pub(crate) fingerprint: Option<String>,
    /// A help line beyond the rule's (a "did you mean", the valid keys), for `--format full`
    /// and the machine formats; never part of the page's text line.
    pub(crate) hint: Option<String>,
    /// The hint replaces the rule's help (a rename where the rule's help says to delete).
    pub(crate) own_help: bool,
    /// What raised confidence in the finding beyond its shape (`verified-shape`: a secret's
    /// checksum holds), for JSON and SARIF only.
    pub(crate) evidence: Option<&'static str>,
    /// The other places the finding is about, in file order (a redaction finding: every secret
    /// of its file). The text line names the finding once; the other formats show each.
    pub(crate) related: Vec<Related>,
    /// The fix `check --fix` makes for this finding, when it makes one (filled by
    /// `fix::suggest`; `None` until then): the `[*]` marker, JSON's `fix`, SARIF's `fixes`.
    pub(crate) fix: Option<Suggestion>,
    /// Every occurrence of a finding reported once per file, in file order (empty for the
    /// others, and for a file with one): what a review labels one by one.
    pub(crate) occurrences: Vec<Occurrence>,
    /// New or existing against the pull request's base (`None`: no review).
    pub(crate) baseline: Option<Baseline>,
}

/// A fix `check --fix` makes: what it does and its edits of the file's bytes as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Suggestion {
    /// What the fix does, in the imperative: `remove U+200B ZERO WIDTH SPACE`.
    pub(crate) message: String,
    /// The edits, in file order, none overlapping.
    pub(crate) edits: Vec<SuggestedEdit>,
}

/// One edit of a [`Suggestion`]: the bytes of `span` replaced with `with` (empty: removed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SuggestedEdit {
    pub(crate) span: Span,
    /// Where `span` is, as [`Diagnostic::region`] says it.
    pub(crate) region: Region,
    pub(crate) with: String,
}

/// A place beside a finding's own that the finding is about too (each secret of a file beside
/// the first): where it is and how every format shows it. Any rule may fill
/// [`Diagnostic::related`]; SARIF writes each as a `relatedLocations` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Related {
    /// Byte span of the place, in the finding's file.
    pub(crate) span: Span,
    /// Filled by `rules::resolve`, as [`Diagnostic::region`] and [`Diagnostic::fingerprint`].
    pub(crate) region: Region,
    pub(crate) fingerprint: Option<String>,
    /// What is at the place, in a word (a secret's detector kind, `github-pat`): JSON's `kind`.
    pub(crate) kind: &'static str,
    /// How the place is named, its text never quoted whole (`ghp_…[github-pat]`): the label of
    /// its snippet and of its SARIF location, and what follows the finding's message where the
    /// format gives the finding one entry.
    pub(crate) label: String,
    /// The message of a finding at this place alone, when the place is a finding of its own
    /// (`redaction would change it (github-pat)`): the formats that place findings (`concise`,
    /// SARIF) give it its own line and result, and a review labels it on its own. `None`: the
    /// place only explains the finding.
    pub(crate) finding: Option<String>,
    /// As [`Diagnostic::evidence`], for this place.
    pub(crate) evidence: Option<&'static str>,
    /// Spans of the file never drawn as written, each with the text drawn instead, wherever
    /// its line is shown: a secret masked, and the runs beside it on its line (a key's
    /// undetected half beside its detected id). Empty: the place is shown as written.
    pub(crate) masks: Vec<(Span, String)>,
    /// What tells the place's text apart in a review without keeping the text (a digest of a
    /// secret; kept in memory, never written).
    pub(crate) identity: u64,
    /// New or existing against the pull request's base (`None`: no review).
    pub(crate) baseline: Option<Baseline>,
}

impl Diagnostic {
    /// `<path>: <message>`, pointing at the whole file.
    pub fn file(rule: &'static Rule, path: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity: rule.severity,
            subject: Some(path.to_string()),
            file: Some(path.to_string()),
            span: None,
            region: Region::FILE,
            message: message.into(),
            style: Style::Located {
                show_position: false,
            },
            fingerprint: None,
            hint: None,
            own_help: false,
            related: Vec::new(),
            evidence: None,
            fix: None,
            occurrences: Vec::new(),
            baseline: None,
        }
    }

    /// `<path>:<line>:<col>: <message>`, at a span.
    pub(crate) fn at(
        rule: &'static Rule,
        path: &str,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            span: Some(span),
            style: Style::Located {
                show_position: true,
            },
            ..Diagnostic::file(rule, path, message)
        }
    }

    /// `<path>: <message>`, located at a span for machine formats but printed without position
    /// (a TOML key's value rule: `pack.toml: name: core is reserved`).
    pub fn key(rule: &'static Rule, path: &str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            span: Some(span),
            ..Diagnostic::file(rule, path, message)
        }
    }

    /// `<path>:<line>: <message>`, at a span: a finding about a whole line (a transcript record).
    pub(crate) fn line(
        rule: &'static Rule,
        path: &str,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            span: Some(span),
            style: Style::AtLine,
            ..Diagnostic::file(rule, path, message)
        }
    }

    /// `<lead> <path>[: <message>]`.
    pub(crate) fn lead(
        rule: &'static Rule,
        lead: &'static str,
        path: &str,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            style: Style::Lead(lead),
            ..Diagnostic::file(rule, path, message)
        }
    }

    /// A pack-wide finding printed as its message alone.
    pub(crate) fn pack(rule: &'static Rule, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity: rule.severity,
            subject: None,
            file: None,
            span: None,
            region: Region::FILE,
            message: message.into(),
            style: Style::Bare,
            fingerprint: None,
            hint: None,
            own_help: false,
            related: Vec::new(),
            evidence: None,
            fix: None,
            occurrences: Vec::new(),
            baseline: None,
        }
    }

    /// Adds a help line beyond the rule's (see [`Diagnostic::hint`]).
    pub(crate) fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// A help line in place of the rule's, for this finding only (see [`Diagnostic::own_help`]).
    pub(crate) fn with_own_help(mut self, help: impl Into<String>) -> Self {
        self.hint = Some(help.into());
        self.own_help = true;
        self
    }

    /// Attaches the other places the finding is about (see [`Diagnostic::related`]).
    pub(crate) fn with_related(mut self, related: Vec<Related>) -> Self {
        self.related = related;
        self
    }

    /// Whether each related place is a finding of its own ([`Related::finding`]): the formats
    /// that place findings place each, and a review labels each.
    pub(crate) fn related_are_findings(&self) -> bool {
        !self.related.is_empty() && self.related.iter().all(|r| r.finding.is_some())
    }

    /// The same finding at another severity (an allowance or a setting that changes it).
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Point the machine location at another file than the subject (a missing file → pack.toml).
    pub(crate) fn pointing_at(mut self, file: Option<String>, span: Option<Span>) -> Self {
        self.file = file;
        self.span = span;
        self
    }

    /// The text after `error `/`warning `, with `prefix` (the pack folder as given, with a
    /// trailing `/`, or empty) before every pack path. Pack text is not escaped here: the
    /// renderers do that.
    pub fn text(&self, prefix: &str) -> String {
        let subject = self.subject.as_deref().unwrap_or("");
        match &self.style {
            Style::Located { show_position } => {
                if *show_position {
                    format!(
                        "{prefix}{subject}:{}:{}: {}",
                        self.region.line, self.region.col, self.message
                    )
                } else {
                    format!("{prefix}{subject}: {}", self.message)
                }
            }
            Style::Lead(lead) => {
                if self.message.is_empty() {
                    format!("{lead} {prefix}{subject}")
                } else {
                    format!("{lead} {prefix}{subject}: {}", self.message)
                }
            }
            Style::AtLine => {
                format!("{prefix}{subject}:{}: {}", self.region.line, self.message)
            }
            // Revision 2: in a run over several packs a pack-wide line names its pack.
            Style::Bare if prefix.is_empty() => self.message.clone(),
            Style::Bare => format!("{}: {}", prefix.trim_end_matches('/'), self.message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static R: Rule = Rule::declared(
        "file-count",
        Severity::Error,
        crate::core::Precision::High,
        crate::core::Rank {
            rank: 10,
            as_error: None,
        },
        None,
        &[],
        crate::core::Origin {
            module: module_path!(),
            name: "R",
            file: file!(),
            reported_in: None,
            cases: None,
        },
    );

    #[test]
    fn a_pack_wide_line_names_its_pack_only_in_a_run_over_several() {
        let d = Diagnostic::pack(&R, "the pack holds 101 files, over the limit of 100");
        assert_eq!(
            d.text(""),
            "the pack holds 101 files, over the limit of 100"
        );
        assert_eq!(
            d.text("packs/a/"),
            "packs/a: the pack holds 101 files, over the limit of 100"
        );
    }
}
