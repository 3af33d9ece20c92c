//! What `check` and `test` produce for each pack, for the renderers and the Action to read:
//! one [`PackReport`] per pack (its diagnostics and, for `test`, its [`CaseResult`]s).

use crate::core::{Diagnostic, Severity};
use crate::dream::{Counts, ReviewPrompt};
use crate::pack::PackKind;

/// Which command produced the reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `hippo-packs check`.
    Check,
    /// `hippo-packs test`.
    Test,
}

/// One fixture case's result.
#[derive(Debug, Clone, Default)]
pub struct CaseResult {
    /// The case's folder name under `tests/`.
    pub name: String,
    /// What the pass did.
    pub counts: Counts,
    /// One `test-expectation` diagnostic per failed expectation (empty: the case passed).
    pub failures: Vec<Diagnostic>,
    /// The pass the case runs.
    pub pass: String,
    /// The prompts the pass sent, in call order (call `n` is `prompts[n - 1]`).
    pub prompts: Vec<String>,
    /// The prompts the reviewer was sent.
    pub review_prompts: Vec<ReviewPrompt>,
    /// Why the counts came out as they did, one line each, in the order things happened:
    /// refused elements (with the validation rule), rejected proposals (with the reviewer's
    /// note), notes a filter left out, calls not made. A failed case shows them.
    pub reasons: Vec<String>,
    /// The one event most failures follow from (a reply that is not JSON, a refused change),
    /// and which failures it explains (docs/output-formats.md, "One cause first").
    pub cause: Option<Cause>,
    /// The notes a failed `contains` names, as they stand after the pass (path, text; at most
    /// [`NOTE_SHOWN`] bytes each): `-v` shows them.
    pub notes: Vec<(String, String)>,
}

/// The most of a note `-v` shows, in bytes.
pub(crate) const NOTE_SHOWN: usize = 4096;

/// A failed case's cause: its reason line, and the failures (indices into
/// [`CaseResult::failures`]) that follow from it.
#[derive(Debug, Clone, Default)]
pub struct Cause {
    pub(crate) why: String,
    pub(crate) explains: Vec<usize>,
}

impl CaseResult {
    /// The cause of failure `i`, when the case's cause explains it.
    pub(crate) fn cause_of(&self, i: usize) -> Option<&str> {
        self.cause
            .as_ref()
            .filter(|c| c.explains.contains(&i))
            .map(|c| c.why.as_str())
    }
}

/// A warning an `[[allow]]` entry matched, and the entry's reason.
#[derive(Debug, Clone)]
pub struct Allowed {
    pub(crate) diagnostic: Diagnostic,
    pub(crate) reason: String,
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
    /// `pack.toml`'s `name`, when it has one.
    pub name: Option<String>,
    /// `pack.toml`'s `version`, when it has one.
    pub version: Option<String>,
    /// The pack's kind, when `pack.toml` says.
    pub kind: Option<PackKind>,
    /// `skipped <path>` entries, in walk order.
    pub skipped: Vec<String>,
    /// The folders the walk skipped ([`crate::pack::Pack::hidden_folders`]):
    /// where `ci`'s discovery looks for packs inside this one. No output shows them.
    pub hidden_folders: Vec<(String, bool)>,
    /// Sorted as docs/ordering.md orders them.
    pub diagnostics: Vec<Diagnostic>,
    /// `test` only: the cases run (empty when validation failed).
    pub cases: Vec<CaseResult>,
    /// `test` only: `--case NAME` matched nothing (in a run over several packs: in no pack).
    pub no_case: Option<String>,
    /// Warnings an allowance took out of the verdict (docs/configuration.md), in order.
    pub allowed: Vec<Allowed>,
    /// `test` only: the names of the cases the pack declares (before `--case`).
    pub case_names: Vec<String>,
    /// In a pull request's review, a touched pack's findings the base has and the head does
    /// not (`None`: no review; `crate::label`).
    pub fixed: Option<Vec<crate::core::Fixed>>,
}

impl PackReport {
    pub(crate) fn errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }
    pub(crate) fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }
    pub(crate) fn failed_cases(&self) -> usize {
        self.cases.iter().filter(|c| !c.failures.is_empty()).count()
    }
    /// The name `ok <pack>/<case>` uses: the manifest's name, or the folder.
    pub(crate) fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.dir)
    }
    /// How the lines of a run name this pack: the manifest's name (or the folder) in a run over
    /// one pack, the folder as given in a run over several (docs/output-formats.md).
    pub(crate) fn run_name(&self) -> &str {
        if self.prefix.is_empty() {
            self.display_name()
        } else {
            self.prefix.trim_end_matches('/')
        }
    }
    /// `<pack>/<case>` as `ok` and `FAIL` lines name a case.
    pub(crate) fn case_label(&self, case: &str) -> String {
        format!("{}/{case}", self.run_name())
    }
    /// Whether the pack fails: an error, a failed case or an unmatched `--case`.
    pub(crate) fn failed(&self, deny_warnings: bool) -> bool {
        self.errors() > 0
            || self.failed_cases() > 0
            || self.no_case.is_some()
            || (deny_warnings && self.warnings() > 0)
    }
}
