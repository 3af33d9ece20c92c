//! The fixture runner's rule: a case whose result differs from its `[expect]`. `test` reports it
//! (`src/fixture/`); it is declared here so that the catalogue holds every rule.

use crate::core::{Rule, Severity};

pub static TEST_EXPECTATION: Rule = Rule {
    id: "test-expectation",
    family: "test",
    severity: Severity::Error,
    summary: "A fixture case whose expectation failed",
    description: "hippo-packs test runs each case of tests/ through one dreaming pass against the stand-in model and compares the counts, the prompts and the notes with the case's [expect] table. A finding is located at the expectation's line in case.toml.",
    help: "Fix the pack so the pass behaves as the case expects, or fix the expectation if the case was wrong.",
    security_severity: None,
    precision: "very-high",
};

pub static RULES: &[&Rule] = &[&TEST_EXPECTATION];
