//! `declare_rules!`: how a family module declares its rules, each once (docs/architecture.md,
//! "A rule is declared once"). The values it builds ([`crate::core::Rule`]) belong to the core;
//! the macro belongs here, to the layer whose modules use it.

/// Declares the rules of one family, each once: its doc comment is its documentation, then
/// `static NAME = "id", Severity, Precision, rank = N` (where the rule's findings sort among
/// those of one severity and one file, and where the catalogue lists it: docs/ordering.md; no
/// two rules share a rank), optionally `, error_rank = N` (where its findings sort when they are
/// errors, if that differs: a rule that is an error in one place and a warning in another),
/// `, security_severity = "5.0"`, `, reported_in = "src/allow.rs"` when another file than the
/// family's reports the findings, and `, cases = "tests/it/ci_registry.rs"` when the fixture
/// harness cannot express the rule's cases and that test file holds them (its `bad_<id>` and
/// `good_<id>` tests), `, severity_by_place = "error in tests/, warning elsewhere"` when the
/// severity depends on where the finding is (the reference says it in these words), and
/// `, appendix = kinds_text` for a function whose text the rule's reference entry adds after how
/// to fix. The family is the module the block is written in; the block also
/// defines the module's `RULES`, in the order written.
///
/// ```ignore
/// declare_rules! {
///     /// A symbolic link in the pack
///     ///
///     /// A link can point outside the pack.
///     ///
///     /// How to fix: Replace the link with the file itself, or delete it.
///     pub static SYMBOLIC_LINK = "symbolic-link", Error, VeryHigh, rank = 40, security_severity = "5.0";
/// }
/// ```
macro_rules! declare_rules {
    (@option) => { None };
    (@option $s:literal) => { Some($s) };
    (@function) => { None };
    (@function $f:path) => { Some($f as fn() -> String) };
    ($(
        $(#[doc = $doc:expr])+
        $vis:vis static $name:ident = $id:literal, $severity:ident, $precision:ident,
            rank = $rank:literal
            $(, error_rank = $error_rank:literal)?
            $(, security_severity = $security:literal)?
            $(, reported_in = $reported:literal)?
            $(, cases = $cases:literal)?
            $(, severity_by_place = $by_place:literal)?
            $(, appendix = $appendix:path)?;
    )+) => {
        $(
            $(#[doc = $doc])+
            // A rule's doc comment is its plain text (`hippo-packs rules`, docs/rules.md), not
            // rustdoc markup: `[[allow]]` and `<case>` stand for themselves.
            #[allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]
            $vis static $name: $crate::core::Rule = $crate::core::Rule::declared(
                $id,
                $crate::core::Severity::$severity,
                $crate::core::Precision::$precision,
                $crate::core::Rank {
                    rank: $rank,
                    as_error: $crate::rules::declare::declare_rules!(@option $($error_rank)?),
                },
                $crate::rules::declare::declare_rules!(@option $($security)?),
                $crate::core::Reference {
                    docs: &[$($doc),+],
                    severity_by_place: $crate::rules::declare::declare_rules!(@option $($by_place)?),
                    appendix: $crate::rules::declare::declare_rules!(@function $($appendix)?),
                },
                $crate::core::Origin {
                    module: module_path!(),
                    name: stringify!($name),
                    file: file!(),
                    reported_in: $crate::rules::declare::declare_rules!(@option $($reported)?),
                    cases: $crate::rules::declare::declare_rules!(@option $($cases)?),
                },
            );
        )+
        /// Rules of this family, in the order written.
        pub(crate) static RULES: &[&$crate::core::Rule] = &[$(&$name),+];
    };
}
pub(crate) use declare_rules;

#[cfg(test)]
mod tests {
    use crate::core::{Precision, Severity};

    mod family_x {
        crate::rules::declare::declare_rules! {
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
            pub(crate) static ONE = "one-rule", Warning, Medium, rank = 10, security_severity = "5.0";

            #[doc = concat!("Built ", "by a macro")]
            #[doc = ""]
            #[doc = "Why."]
            #[doc = ""]
            #[doc = "How to fix: Fix."]
            pub(crate) static TWO = "two-rule", Error, VeryHigh, rank = 20;
        }
    }

    mod family_y {
        crate::rules::declare::declare_rules! {
            /// An error here, a warning there
            ///
            /// Why.
            ///
            /// How to fix: Fix.
            pub(crate) static THREE = "three-rule", Error, Medium, rank = 30, error_rank = 5,
                severity_by_place = "error here, warning there", appendix = appendix;
        }

        fn appendix() -> String {
            "what the entry adds\n".to_string()
        }
    }

    #[test]
    fn a_rule_may_say_its_severity_in_words_and_add_a_section() {
        assert_eq!(family_y::THREE.severity_text(), "error here, warning there");
        assert_eq!(family_y::THREE.severity_short(), "error/warning");
        assert_eq!(
            family_y::THREE.appendix().as_deref(),
            Some("what the entry adds\n")
        );
        // Control: a rule declaring neither says its severity and adds nothing.
        assert_eq!(family_x::TWO.severity_text(), "error");
        assert_eq!(family_x::TWO.severity_short(), "error");
        assert_eq!(family_x::TWO.appendix(), None);
    }

    #[test]
    fn a_rule_may_sort_elsewhere_as_an_error() {
        assert_eq!(family_y::RULES, [&family_y::THREE]);
        assert_eq!(family_y::THREE.family(), "family_y");
        assert_eq!(family_y::THREE.precision, Precision::Medium);
        assert_eq!(family_y::THREE.rank(), 30);
        assert_eq!(family_y::THREE.rank_as(Severity::Warning), 30);
        assert_eq!(family_y::THREE.rank_as(Severity::Error), 5);
        assert_eq!(family_x::ONE.rank_as(Severity::Error), 10);
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
        assert_eq!(r.source_file(), "src/rules/declare.rs");
        let two = &family_x::TWO;
        assert_eq!(
            (two.summary(), two.description(), two.help()),
            ("Built by a macro", "Why.", "Fix.")
        );
        assert_eq!(two.security_severity, None);
        assert_eq!(family_x::RULES, [&family_x::ONE, &family_x::TWO]);
    }
}
