//! The operating system's edge, below everything that writes or waits: the report writer of
//! [`safe_write`] that never follows a link, the open [`folder`] that `test`'s temporary files
//! are reached through, and what an [`interrupt`] undoes before the run exits
//! (docs/security.md, docs/exit-codes.md).

pub(crate) mod folder;
pub(crate) mod interrupt;
pub(crate) mod safe_write;
