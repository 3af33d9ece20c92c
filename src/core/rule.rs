//! A rule: a stable id, its default severity, its precision and its documentation. Every
//! [`super::Diagnostic`] names one.
//!
//! A rule is declared once, with the rules layer's `declare_rules!` (`src/rules/declare.rs`),
//! in the module of its family (`src/rules/<family>.rs`): its doc comment is its documentation (the summary,
//! what it checks and why, how to fix), its family is the module it is declared in, and the
//! macro lists the module's rules in its `RULES`. `hippo-packs rules`, docs/rules.md and the
//! SARIF rule table all read these values; nothing else holds a rule's text.

use super::severity::Severity;
use std::sync::OnceLock;

/// How often a finding of the rule is a real problem (SARIF's `precision` property).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Precision {
    VeryHigh,
    High,
    Medium,
}

impl Precision {
    /// The SARIF spelling: `very-high`, `high`, `medium` (SARIF's `low` fits no rule).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Precision::VeryHigh => "very-high",
            Precision::High => "high",
            Precision::Medium => "medium",
        }
    }
}

/// The paragraph of a rule's doc comment that says how to fix a finding starts with this.
pub(crate) const HOW_TO_FIX: &str = "How to fix:";

/// One rule. Built by `declare_rules!` (`src/rules/declare.rs`) only.
#[derive(Debug)]
pub struct Rule {
    /// Stable kebab-case id (`invisible-character`).
    pub id: &'static str,
    pub(crate) severity: Severity,
    pub(crate) precision: Precision,
    /// Where the rule's findings sort and the catalogue lists it.
    rank: Rank,
    /// SARIF `security-severity` for security rules ("0.1" to "10.0").
    pub security_severity: Option<&'static str>,
    /// What the rule's reference says: its doc comment and what the declaration adds.
    reference: Reference,
    /// Where the rule is declared and where it is reported.
    origin: Origin,
    texts: OnceLock<Texts>,
}

/// The three texts of a rule, read from its doc comment once.
#[derive(Debug, Default, PartialEq)]
struct Texts {
    summary: String,
    description: String,
    help: String,
}

/// Where a rule's findings sort among the findings of one severity and one file, and where the
/// catalogue lists the rule (docs/ordering.md); declared with the rule (`rank = 40` in
/// `declare_rules!`), unique across the catalogue.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rank {
    /// The rank.
    pub(crate) rank: u16,
    /// Where the rule's findings sort when they are errors, when that differs from `rank`
    /// (`error_rank = 175`: redaction is an error under tests/ and sorts with the sizes there).
    pub(crate) as_error: Option<u16>,
}

/// What a rule's reference entry (`hippo-packs rules <id>`, docs/rules.md) is made of; built by
/// `declare_rules!`.
#[doc(hidden)]
#[derive(Debug)]
pub(crate) struct Reference {
    /// The lines of the rule's doc comment, as the compiler hands them over.
    pub(crate) docs: &'static [&'static str],
    /// The rule's severity in words when it depends on where the finding is
    /// (`severity_by_place = "error in tests/, warning elsewhere"`); the catalogue then lists
    /// the rule as `error/warning`.
    pub(crate) severity_by_place: Option<&'static str>,
    /// A section the entry adds after how to fix (`appendix = kinds_text`: the kinds the
    /// redaction rule finds, from the secret engine's table).
    pub(crate) appendix: Option<fn() -> String>,
}

/// Where a rule is declared and where it is reported; built by `declare_rules!`.
#[doc(hidden)]
#[derive(Debug)]
pub(crate) struct Origin {
    /// `module_path!()` where the rule is declared (`hippo_packs::rules::layout`).
    pub(crate) module: &'static str,
    /// The name of the rule's static (`SYMBOLIC_LINK`).
    pub(crate) name: &'static str,
    /// `file!()` where the rule is declared (`src/rules/layout.rs`).
    pub(crate) file: &'static str,
    /// The file that reports the rule's findings when another than `file` does
    /// (`reported_in = "src/allow.rs"` in `declare_rules!`).
    pub(crate) reported_in: Option<&'static str>,
    /// The test file that holds the rule's cases when the fixture harness cannot express them
    /// (`cases = "tests/it/ci_registry.rs"` in `declare_rules!`).
    pub(crate) cases: Option<&'static str>,
}

impl Rule {
    /// Used by `declare_rules!` (`src/rules/declare.rs`); not meant to be called by hand.
    #[doc(hidden)]
    pub(crate) const fn declared(
        id: &'static str,
        severity: Severity,
        precision: Precision,
        rank: Rank,
        security_severity: Option<&'static str>,
        reference: Reference,
        origin: Origin,
    ) -> Rule {
        Rule {
            id,
            severity,
            precision,
            rank,
            security_severity,
            reference,
            origin,
            texts: OnceLock::new(),
        }
    }

    /// The rule's rank: the catalogue's order, and the findings' order among those of one
    /// severity and one file.
    pub(crate) fn rank(&self) -> u16 {
        self.rank.rank
    }

    /// Where a finding of the rule at `severity` sorts: its error rank when it is an error and
    /// the rule declares one, else its rank.
    pub(crate) fn rank_as(&self, severity: Severity) -> u16 {
        match (severity, self.rank.as_error) {
            (Severity::Error, Some(rank)) => rank,
            _ => self.rank.rank,
        }
    }

    /// The rule's severity as its reference says it: in words when it depends on where the
    /// finding is, else the declared one.
    pub(crate) fn severity_text(&self) -> &'static str {
        self.reference
            .severity_by_place
            .unwrap_or(self.severity.as_str())
    }

    /// The catalogue's short form of [`Rule::severity_text`]: `error/warning` for a rule whose
    /// severity depends on where the finding is.
    pub(crate) fn severity_short(&self) -> &'static str {
        match self.reference.severity_by_place {
            Some(_) => "error/warning",
            None => self.severity.as_str(),
        }
    }

    /// The section the rule's reference entry adds after how to fix, if it declares one.
    pub(crate) fn appendix(&self) -> Option<String> {
        self.reference.appendix.map(|f| f())
    }

    /// The family: the last segment of the module the rule is declared in (`layout`, `text`).
    /// It is the SARIF tag and groups the reference.
    pub fn family(&self) -> &'static str {
        let module = self.origin.module;
        module.rsplit("::").next().unwrap_or(module)
    }

    /// The source file that declares the rule (`src/rules/layout.rs`), relative to the
    /// repository (a build from elsewhere may see an absolute `file!()`).
    pub(crate) fn source_file(&self) -> &'static str {
        let file = self.origin.file;
        file.rfind("src/").map_or(file, |start| &file[start..])
    }

    /// The source file that reports the rule's findings: where it is declared, unless the
    /// declaration names another (`hippo-packs rules <id>` and docs/rules.md link to it).
    pub fn reporting_file(&self) -> &'static str {
        self.origin
            .reported_in
            .unwrap_or_else(|| self.source_file())
    }

    /// Where the rule's cases are: its fixture folder (`tests/fixtures/<id>/`), or the test file
    /// its declaration names when the fixture harness cannot express them (a pull request's base).
    pub fn cases(&self) -> String {
        match self.origin.cases {
            Some(file) => file.to_string(),
            None => format!("tests/fixtures/{}/", self.id),
        }
    }

    /// The name of the rule's static (`SYMBOLIC_LINK`), which the reporting file uses.
    pub fn static_name(&self) -> &'static str {
        self.origin.name
    }

    /// One line: what the rule reports (the doc comment's first paragraph).
    pub fn summary(&self) -> &str {
        &self.texts().summary
    }

    /// What it checks and why it matters (the paragraphs between the summary and the fix).
    pub fn description(&self) -> &str {
        &self.texts().description
    }

    /// How to fix a finding (the paragraph that starts with [`HOW_TO_FIX`]).
    pub fn help(&self) -> &str {
        &self.texts().help
    }

    fn texts(&self) -> &Texts {
        self.texts.get_or_init(|| texts(self.reference.docs))
    }
}

impl PartialEq for Rule {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

/// Reads a doc comment: paragraphs are separated by blank lines, the lines of a paragraph are
/// joined with one space. The first paragraph is the summary, a paragraph starting with
/// [`HOW_TO_FIX`] the help, every other one the description (joined by a blank line).
fn texts(docs: &[&str]) -> Texts {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut open = false;
    for line in docs.iter().flat_map(|d| d.split('\n')) {
        let line = line.trim();
        match paragraphs.last_mut() {
            _ if line.is_empty() => open = false,
            Some(last) if open => {
                last.push(' ');
                last.push_str(line);
            }
            _ => {
                paragraphs.push(line.to_string());
                open = true;
            }
        }
    }
    let mut out = Texts::default();
    let mut rest = paragraphs.into_iter();
    out.summary = rest.next().unwrap_or_default();
    let mut description = Vec::new();
    for p in rest {
        match p.strip_prefix(HOW_TO_FIX) {
            Some(help) => out.help = help.trim_start().to_string(),
            None => description.push(p),
        }
    }
    out.description = description.join("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_doc_comment_gives_summary_description_and_help() {
        let t = texts(&[
            " A summary",
            " on two lines",
            "",
            " What it checks,",
            " and why.",
            "",
            " Another paragraph.",
            "",
            " How to fix: Do",
            " this.",
        ]);
        assert_eq!(t.summary, "A summary on two lines");
        assert_eq!(
            t.description,
            "What it checks, and why.\n\nAnother paragraph."
        );
        assert_eq!(t.help, "Do this.");
    }

    #[test]
    fn control_a_doc_without_a_fix_has_no_help() {
        let t = texts(&[" Summary", "", " Only a description."]);
        assert_eq!(t.help, "");
        assert_eq!(t.description, "Only a description.");
        assert_eq!(texts(&[]), Texts::default());
    }
}
