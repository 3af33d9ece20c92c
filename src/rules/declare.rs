//! `declare_rules!`: how a family module declares its rules, each once (docs/architecture.md,
//! "A rule is declared once"). The values it builds ([`crate::core::Rule`]) belong to the core;
//! the macro belongs here, to the layer whose modules use it.

/// Declares the rules of one family, each once: its doc comment is its documentation, then
/// `static NAME = "id", Severity, Precision`, optionally `, security_severity = "5.0"`, and
/// `, reported_in = "src/allow.rs"` when another file than the family's reports the findings,
/// and `, cases = "tests/it/ci_registry.rs"` when the fixture harness cannot express the rule's
/// cases and that test file holds them (its `bad_<id>` and `good_<id>` tests).
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
    (@option) => { None };
    (@option $s:literal) => { Some($s) };
    (list $list:ident; $($rest:tt)+) => { $crate::rules::declare::declare_rules!(@rules $list; $($rest)+); };
    (@rules $list:ident; $(
        $(#[doc = $doc:expr])+
        $vis:vis static $name:ident = $id:literal, $severity:ident, $precision:ident
            $(, security_severity = $security:literal)?
            $(, reported_in = $reported:literal)?
            $(, cases = $cases:literal)?;
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
                $crate::rules::declare::declare_rules!(@option $($security)?),
                &[$($doc),+],
                $crate::core::Origin {
                    module: module_path!(),
                    name: stringify!($name),
                    file: file!(),
                    reported_in: $crate::rules::declare::declare_rules!(@option $($reported)?),
                    cases: $crate::rules::declare::declare_rules!(@option $($cases)?),
                },
            );
        )+
        /// Rules of this family, in catalogue order.
        pub(crate) static $list: &[&$crate::core::Rule] = &[$(&$name),+];
    };
    ($($rest:tt)+) => { $crate::rules::declare::declare_rules!(@rules RULES; $($rest)+); };
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
            pub(crate) static ONE = "one-rule", Warning, Medium, security_severity = "5.0";

            #[doc = concat!("Built ", "by a macro")]
            #[doc = ""]
            #[doc = "Why."]
            #[doc = ""]
            #[doc = "How to fix: Fix."]
            pub(crate) static TWO = "two-rule", Error, VeryHigh;
        }
    }

    mod family_y {
        crate::rules::declare::declare_rules! {
            list LATER;

            /// Listed apart
            ///
            /// Why.
            ///
            /// How to fix: Fix.
            pub(crate) static THREE = "three-rule", Warning, Medium;
        }
    }

    #[test]
    fn a_named_list_holds_its_rules() {
        assert_eq!(family_y::LATER, [&family_y::THREE]);
        assert_eq!(family_y::THREE.family(), "family_y");
        assert_eq!(family_y::THREE.precision, Precision::Medium);
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
