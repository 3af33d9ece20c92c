//! The checkout's git objects, read without `git` (the Action's image has none): commits, their
//! parents, trees and blobs, the merge base of two commits, through `gix`.
//!
//! The repository is opened trusted, whoever owns its folder: the runner's workspace belongs to
//! another user than the container's root, and `git` refuses such a folder ("dubious
//! ownership"). Trust only decides which of the repository's settings apply; nothing here runs a
//! command or writes to the repository (the `gix` features that could are not built). The
//! system's and the user's git settings are never read (an isolated open).
//!
//! A shallow clone holds some commits without their parents: a commit that is not in the
//! object store is absent (`None`), never an error, so a caller can say which fetch depth would
//! have held it.

mod extract;
mod history;
mod objects;

pub(crate) use extract::Extracted;
pub(crate) use gix::ObjectId;
pub(crate) use history::History;
pub(crate) use objects::{Repo, short};

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
