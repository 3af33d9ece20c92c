//! The configuration's rule: an `[[allow]]` entry that matched no warning (docs/configuration.md).
//! `allow` reports it; it is declared here so that the catalogue holds every rule.

use crate::core::{Rule, Severity};

pub static UNUSED_ALLOWANCE: Rule = Rule {
    id: "unused-allowance",
    family: "configuration",
    severity: Severity::Warning,
    summary: "An [[allow]] entry of the configuration file matched no warning",
    description: "An allowance takes a judged warning out of the verdict. One that matches nothing is stale: the text it allowed was reworded or removed, or its rule, path or text is misspelt, and it would silently allow the next such warning. Reported only when the run covers every pack the file could concern (not with --case).",
    help: "Delete the [[allow]] entry, or correct its rule, path or text.",
    security_severity: None,
    precision: "very-high",
};

pub static RULES: &[&Rule] = &[&UNUSED_ALLOWANCE];
