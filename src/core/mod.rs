//! The bottom layer: values every other layer uses, and nothing above them.
//!
//! [`Diagnostic`] (with [`Span`], [`Region`], [`Severity`]), [`Rule`], the [`LineIndex`] that turns
//! byte offsets into lines and columns, GitHub's line [`fingerprint`]s, the Unicode sets and
//! [`charname`]s, and the output hygiene of [`escape`], the report writer of [`safe_write`] that never
//! follows a link, the open [`folder`] that `test`'s temporary files are reached through, how the
//! reports name a folder ([`paths`]), and what an [`interrupt`] undoes before the run exits.

pub(crate) mod baseline;
pub(crate) mod charname;
mod diagnostic;
pub mod escape;
pub mod fingerprint;
pub(crate) mod fold;
pub(crate) mod folder;
pub(crate) mod interrupt;
mod line_index;
pub(crate) mod paths;
#[cfg(test)]
pub(crate) mod reviewed;
mod rule;
pub(crate) mod safe_write;
mod severity;
pub(crate) mod suggest;
mod unicode;

pub use baseline::Fixed;
pub use diagnostic::{Diagnostic, Region, Span};
pub(crate) use diagnostic::{Related, Style, SuggestedEdit, Suggestion};
pub(crate) use line_index::LineIndex;
pub use rule::Rule;
pub(crate) use rule::{Origin, Precision, Rank};
pub use severity::Severity;
pub(crate) use unicode::{Script, breaks_line, is_ignorable, is_unusual_space, script};
pub use unicode::{is_hidden, is_invisible};
