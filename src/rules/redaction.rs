//! Redaction: a file that hippo's secret redaction would change (filled in by the redaction work).
use super::Rule;
use crate::diagnostic::{Diagnostic, Severity};
use crate::pack::Pack;

pub static REDACTION: Rule = Rule {
    id: "redaction",
    family: "redaction",
    severity: Severity::Error,
    summary: "A file that secret redaction would change",
    description: "hippo redacts secrets in transcripts as it indexes them. Under tests/ a file redaction would change is an error, because it would not mean the same once indexed; elsewhere it is a warning.",
    help: "Replace the secret-looking text with a placeholder such as YOUR_API_KEY.",
    security_severity: Some("7.5"),
    precision: "high",
};

pub static RULES: &[&Rule] = &[&REDACTION];

pub fn check(_pack: &Pack, _out: &mut Vec<Diagnostic>) {}
