//! The fixture runner's rule: a case whose result differs from its `[expect]`. `test` reports it
//! (`src/case_runner/`); it is declared here so that the catalogue holds every rule.

use super::declare::declare_rules;

declare_rules! {
    /// A fixture case whose expectation failed
    ///
    /// hippo-packs test runs each case of tests/ through one dreaming pass against the stand-in
    /// model and compares the counts, the prompts and the notes with the case's [expect] table. A
    /// finding is located at the expectation's line in case.toml.
    ///
    /// How to fix: Fix the pack so the pass behaves as the case expects, or fix the expectation if
    /// the case was wrong.
    pub static TEST_EXPECTATION = "test-expectation", Error, VeryHigh, rank = 640, reported_in = "src/case_runner/expect.rs";
}
