//! hippo-packs: checks and tests hippo packs.
//!
//! The flow goes one way: [`pack::walk`] loads a pack, [`rules::run`] returns its
//! [`diagnostic::Diagnostic`]s, [`fixture`] runs its cases through [`dream`], and [`report`]
//! renders the results; [`ci`] and [`github`] are the GitHub Action.

pub mod check;
pub mod ci;
pub mod cli;
pub mod diagnostic;
pub mod dream;
pub mod escape;
pub mod fixture;
pub mod github;
pub mod pack;
pub mod redact;
pub mod report;
pub mod rules;
pub mod tomlx;
