//! The configuration's rule: an `[[allow]]` entry that matched no warning (docs/configuration.md).
//! `allow` reports it; it is declared here so that the catalogue holds every rule.

use super::declare::declare_rules;

declare_rules! {
    /// An [[allow]] entry of the configuration file matched no warning
    ///
    /// An allowance takes a judged warning out of the verdict. One that matches nothing is stale:
    /// the text it allowed was reworded or removed, or its rule, path or text is misspelt, and it
    /// would silently allow the next such warning. Reported only when the run covers every pack the
    /// file could concern (not with --case).
    ///
    /// How to fix: Delete the [[allow]] entry, or correct its rule, path or text.
    pub(crate) static UNUSED_ALLOWANCE = "unused-allowance", Warning, VeryHigh, rank = 650, reported_in = "src/allow.rs";
}
