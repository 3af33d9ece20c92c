//! A rule: a stable id, its default severity, its precision and its documentation. Every
//! [`super::Diagnostic`] names one.
//!
//! A rule is declared once, with [`declare_rules!`](crate::core::declare_rules), in the module
//! of its family (`src/rules/<family>.rs`): its doc comment is its documentation (the summary,
//! what it checks and why, how to fix), its family is the module it is declared in, and the
//! macro lists the module's rules in its `RULES`. `hippo-packs rules`, docs/rules.md and the
//! SARIF rule table all read these values; nothing else holds a rule's text.

use super::Severity;
use std::sync::OnceLock;

/// How often a finding of the rule is a real problem (SARIF's `precision` property).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    VeryHigh,
    High,
    Medium,
    Low,
}

impl Precision {
    /// The SARIF spelling: `very-high`, `high`, `medium`, `low`.
    pub fn as_str(self) -> &'static str {
        match self {
            Precision::VeryHigh => "very-high",
            Precision::High => "high",
            Precision::Medium => "medium",
            Precision::Low => "low",
        }
    }
}

/// The paragraph of a rule's doc comment that says how to fix a finding starts with this.
pub const HOW_TO_FIX: &str = "How to fix:";

/// One rule. Built by [`declare_rules!`](crate::core::declare_rules) only.
#[derive(Debug)]
pub struct Rule {
    /// Stable kebab-case id (`invisible-character`).
    pub id: &'static str,
    pub severity: Severity,
    pub precision: Precision,
    /// SARIF `security-severity` for security rules ("0.1" to "10.0").
    pub security_severity: Option<&'static str>,
    /// The lines of the rule's doc comment, as the compiler hands them over.
    docs: &'static [&'static str],
    /// `module_path!()` where the rule is declared (`hippo_packs::rules::layout`).
    module: &'static str,
    /// `file!()` where the rule is declared (`src/rules/layout.rs`).
    file: &'static str,
    texts: OnceLock<Texts>,
}

/// The three texts of a rule, read from its doc comment once.
#[derive(Debug, Default, PartialEq)]
struct Texts {
    summary: String,
    description: String,
    help: String,
}

impl Rule {
    /// Used by [`declare_rules!`](crate::core::declare_rules); not meant to be called by hand.
    #[doc(hidden)]
    pub const fn declared(
        id: &'static str,
        severity: Severity,
        precision: Precision,
        security_severity: Option<&'static str>,
        docs: &'static [&'static str],
        module: &'static str,
        file: &'static str,
    ) -> Rule {
        Rule {
            id,
            severity,
            precision,
            security_severity,
            docs,
            module,
            file,
            texts: OnceLock::new(),
        }
    }

    /// The family: the last segment of the module the rule is declared in (`layout`, `text`).
    /// It is the SARIF tag and groups the reference.
    pub fn family(&self) -> &'static str {
        self.module.rsplit("::").next().unwrap_or(self.module)
    }

    /// The source file that declares the rule and holds its logic (`src/rules/layout.rs`),
    /// relative to the repository (a build from elsewhere may see an absolute `file!()`).
    pub fn source_file(&self) -> &'static str {
        self.file
            .rfind("src/")
            .map_or(self.file, |start| &self.file[start..])
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
        self.texts.get_or_init(|| texts(self.docs))
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

/// Declares the rules of one family, each once: its doc comment is its documentation, then
/// `static NAME = "id", Severity, Precision` and optionally `, security_severity = "5.0"`.
/// The family is the module the block is written in; the block also defines the module's
/// `RULES`, in the order written (the catalogue's order within the family), or the list named
/// by a first line `list NAME;` (a family whose rules sit in two places of the catalogue).
///
/// ```ignore
/// declare_rules! {
///     /// A symbolic link in the pack
///     ///
///     /// A link can point outside the pack.
///     ///
///     /// How to fix: Replace the link with the file itself, or delete it.
///     pub static SYMBOLIC_LINK = "symbolic-link", Error, VeryHigh, security_severity = "5.0";
/// }
/// ```
macro_rules! declare_rules {
    (@security) => { None };
    (@security $s:literal) => { Some($s) };
    (list $list:ident; $($rest:tt)+) => { $crate::core::declare_rules!(@rules $list; $($rest)+); };
    (@rules $list:ident; $(
        $(#[doc = $doc:expr])+
        $vis:vis static $name:ident = $id:literal, $severity:ident, $precision:ident
            $(, security_severity = $security:literal)?;
    )+) => {
        $(
            $(#[doc = $doc])+
            $vis static $name: $crate::core::Rule = $crate::core::Rule::declared(
                $id,
                $crate::core::Severity::$severity,
                $crate::core::Precision::$precision,
                $crate::core::declare_rules!(@security $($security)?),
                &[$($doc),+],
                module_path!(),
                file!(),
            );
        )+
        /// Rules of this family, in catalogue order.
        pub static $list: &[&$crate::core::Rule] = &[$(&$name),+];
    };
    ($($rest:tt)+) => { $crate::core::declare_rules!(@rules RULES; $($rest)+); };
}
pub(crate) use declare_rules;

#[cfg(test)]
mod tests {
    use super::*;

    mod family_x {
        crate::core::declare_rules! {
            /// A summary
            /// on two lines
            ///
            /// What it checks,
            /// and why.
            ///
            /// Another paragraph.
            ///
            /// How to fix: Do
            /// this.
            pub static ONE = "one-rule", Warning, Medium, security_severity = "5.0";

            #[doc = concat!("Built ", "by a macro")]
            #[doc = ""]
            #[doc = "Why."]
            #[doc = ""]
            #[doc = "How to fix: Fix."]
            pub static TWO = "two-rule", Error, VeryHigh;
        }
    }

    mod family_y {
        crate::core::declare_rules! {
            list LATER;

            /// Listed apart
            ///
            /// Why.
            ///
            /// How to fix: Fix.
            pub static THREE = "three-rule", Warning, Low;
        }
    }

    #[test]
    fn a_named_list_holds_its_rules() {
        assert_eq!(family_y::LATER, [&family_y::THREE]);
        assert_eq!(family_y::THREE.family(), "family_y");
        assert_eq!(family_y::THREE.precision, Precision::Low);
    }

    #[test]
    fn a_declaration_gives_every_field() {
        let r = &family_x::ONE;
        assert_eq!(r.id, "one-rule");
        assert_eq!(r.severity, Severity::Warning);
        assert_eq!(r.precision.as_str(), "medium");
        assert_eq!(r.security_severity, Some("5.0"));
        assert_eq!(r.summary(), "A summary on two lines");
        assert_eq!(
            r.description(),
            "What it checks, and why.\n\nAnother paragraph."
        );
        assert_eq!(r.help(), "Do this.");
        assert_eq!(r.family(), "family_x");
        assert_eq!(r.source_file(), "src/core/rule.rs");
        let two = &family_x::TWO;
        assert_eq!(
            (two.summary(), two.description(), two.help()),
            ("Built by a macro", "Why.", "Fix.")
        );
        assert_eq!(two.security_severity, None);
        assert_eq!(family_x::RULES, [&family_x::ONE, &family_x::TWO]);
    }

    #[test]
    fn control_a_doc_without_a_fix_has_no_help() {
        let t = texts(&[" Summary", "", " Only a description."]);
        assert_eq!(t.help, "");
        assert_eq!(t.description, "Only a description.");
        assert_eq!(texts(&[]), Texts::default());
    }
}
