//! What `check` and `test` produce for each pack, for the renderers and the Action to read:
//! one [`PackReport`] per pack (its diagnostics and, for `test`, its [`CaseResult`]s).

use crate::core::{Diagnostic, Severity};
use crate::dream::Counts;
use crate::pack::Kind;

/// Which command produced the reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Check,
    Test,
}

/// One fixture case's result.
#[derive(Debug, Clone, Default)]
pub struct CaseResult {
    pub name: String,
    pub counts: Counts,
    /// One `test-expectation` diagnostic per failed expectation (empty: the case passed).
    pub failures: Vec<Diagnostic>,
    /// The prompts the pass sent, for `--print-prompts`.
    pub prompts: Vec<String>,
}

/// Everything known about one pack after `check` (and `test`).
#[derive(Debug, Clone, Default)]
pub struct PackReport {
    /// The folder as given on the command line.
    pub dir: String,
    /// What the text output puts before every pack path: empty for one pack, `<dir>/` for several.
    pub prefix: String,
    /// The pack folder relative to the working folder, `/`-separated, no `./` (empty: the working
    /// folder itself): machine formats build their URIs from it.
    pub uri_base: String,
    pub name: Option<String>,
    pub version: Option<String>,
    pub kind: Option<Kind>,
    /// `skipped <path>` entries, in walk order.
    pub skipped: Vec<String>,
    /// Sorted as docs/ordering.md orders them.
    pub diagnostics: Vec<Diagnostic>,
    /// `test` only: the cases run (empty when validation failed).
    pub cases: Vec<CaseResult>,
    /// `test` only: `--case NAME` matched nothing.
    pub no_case: Option<String>,
}

impl PackReport {
    pub fn errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }
    pub fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }
    pub fn failed_cases(&self) -> usize {
        self.cases.iter().filter(|c| !c.failures.is_empty()).count()
    }
    /// The name `ok <pack>/<case>` uses: the manifest's name, or the folder.
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.dir)
    }
    /// Whether the pack fails: an error, a failed case or an unmatched `--case`.
    pub fn failed(&self, deny_warnings: bool) -> bool {
        self.errors() > 0
            || self.failed_cases() > 0
            || self.no_case.is_some()
            || (deny_warnings && self.warnings() > 0)
    }
}
