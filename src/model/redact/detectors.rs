//! The detector table in its order: every row, most specific first. When two matches start at
//! the same byte, the earlier row wins (`GITHUB_TOKEN="ghp_..."` is a `github-pat`,
//! `sk-or-v1-...` an OpenRouter key): the token rows of the families that have scanners
//! (`table.rs`), then the other vendors' rows (`vendors.rs`), then the scanners that read
//! context (a secret-named assignment is the least specific of all).

use super::table::{CONTEXT, Detector, TOKENS};
use super::vendors::VENDORS;
use std::sync::LazyLock;

pub(crate) static TABLE: LazyLock<Vec<Detector>> = LazyLock::new(|| {
    TOKENS
        .iter()
        .chain(VENDORS)
        .chain(CONTEXT)
        .copied()
        .collect()
});
