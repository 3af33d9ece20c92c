//! The bottom layer: values every other layer uses, and nothing above them.
//!
//! [`Diagnostic`] (with [`Span`], [`Region`], [`Severity`]), [`Rule`], the [`LineIndex`] that turns
//! byte offsets into lines and columns, GitHub's line [`fingerprint`]s, the Unicode sets and
//! [`charname`]s, and the output hygiene of [`escape`], the report writer of [`safe_write`] that never
//! follows a link, the open [`folder`] that `test`'s temporary files are reached through, how the
//! reports name a folder ([`paths`]), and what an [`interrupt`] undoes before the run exits.

pub mod charname;
mod diagnostic;
pub mod escape;
pub mod fingerprint;
pub mod fold;
pub mod folder;
pub mod interrupt;
mod line_index;
pub mod paths;
#[cfg(test)]
pub(crate) mod reviewed;
mod rule;
pub mod safe_write;
mod severity;
pub mod suggest;
mod unicode;

pub use diagnostic::{Diagnostic, Region, Secret, Span, Style};
pub use line_index::LineIndex;
pub use rule::{Origin, Precision, Rule};
pub use severity::Severity;
pub use unicode::{
    is_default_ignorable, is_hidden, is_ignorable, is_invisible, is_space_separator,
    is_unusual_space,
};
