//! The bottom layer: values every other layer uses, and nothing above them.
//!
//! [`Diagnostic`] (with [`Span`], [`Region`], [`Severity`]), [`Rule`], the [`LineIndex`] that turns
//! byte offsets into lines and columns, GitHub's line [`fingerprint`]s, the Unicode sets, and the
//! output hygiene of [`escape`], and the report writer of [`fsx`] that never follows a link.

mod diagnostic;
pub mod escape;
pub mod fingerprint;
pub mod fsx;
mod line_index;
mod rule;
pub mod suggest;
mod unicode;

pub use diagnostic::{Diagnostic, Region, Severity, Span, Style};
pub use line_index::LineIndex;
pub use rule::{Precision, Rule};
pub use unicode::{is_default_ignorable, is_hidden, is_ignorable, is_invisible};
