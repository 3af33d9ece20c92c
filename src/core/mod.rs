//! The bottom layer: values every other layer uses, and nothing above them.
//!
//! [`Diagnostic`] (with [`Span`], [`Region`], [`Severity`]), [`Rule`], the [`LineIndex`] that turns
//! byte offsets into lines and columns, GitHub's line [`fingerprint`]s, the Unicode sets and
//! [`charname`]s, the output hygiene of [`escape`], and how the reports name a folder
//! ([`paths`]).

pub(crate) mod baseline;
pub(crate) mod charname;
mod diagnostic;
pub mod escape;
pub mod fingerprint;
pub(crate) mod fold;
mod line_index;
pub(crate) mod paths;
#[cfg(test)]
pub(crate) mod reviewed;
mod rule;
mod severity;
pub(crate) mod suggest;
mod unicode;

pub use baseline::Fixed;
pub use diagnostic::{Diagnostic, Region, Span};
pub(crate) use diagnostic::{Related, Style, SuggestedEdit, Suggestion};
pub(crate) use line_index::LineIndex;
pub use rule::Rule;
pub(crate) use rule::{Origin, Precision, Rank, Reference};
pub use severity::Severity;
pub(crate) use unicode::{Script, breaks_line, is_ignorable, is_unusual_space, script};
pub use unicode::{is_hidden, is_invisible};
