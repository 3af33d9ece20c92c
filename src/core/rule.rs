//! A rule: a stable id, its default severity and its documentation. Every [`super::Diagnostic`]
//! names one; the catalogue of all rules is assembled by the rules layer.

use super::Severity;

/// One rule: a stable kebab-case id, its default severity and its documentation.
#[derive(Debug)]
pub struct Rule {
    /// Stable kebab-case id (`invisible-character`).
    pub id: &'static str,
    /// The family, used as a SARIF tag and to group the reference (`layout`, `text`, ...).
    pub family: &'static str,
    pub severity: Severity,
    /// One line: what the rule reports.
    pub summary: &'static str,
    /// What it checks and why it matters.
    pub description: &'static str,
    /// How to fix a finding.
    pub help: &'static str,
    /// SARIF `security-severity` for security rules ("0.1" to "10.0").
    pub security_severity: Option<&'static str>,
    /// SARIF precision: `very-high`, `high`, `medium` or `low`.
    pub precision: &'static str,
}

impl PartialEq for Rule {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
