//! The secret engine: the detectors hippo runs over transcripts as it indexes them, which
//! `check`'s `redaction` rule, `test` and `ci` ask for every secret of a text.
//!
//! [`redact`] replaces every match with `[REDACTED:<kind>]`; `first_match` stops at the first
//! one (the `redaction` rule only needs to know whether, and where first, a file would change).
//! Kinds carry the names gitleaks gives its rules where it has one; docs/redaction.md lists them.
//!
//! Cost: one pass of the anchor search (`finder.rs`) over the text finds the few anchors a
//! secret can start with (or, for `generic-api-key`, the key names it is assigned to); only at
//! an anchor does the matching detector look at a small window of bytes around it. A text with no anchor
//! costs that one scan. Every detector works on ASCII bytes and bounds how far it looks, so any
//! input, valid UTF-8 or not, is scanned in linear time.

mod context;
mod curl;
mod finder;
mod generic;
mod keys;
mod row;
mod scan;
mod shape;
mod table;
mod verify;

use std::borrow::Cow;

pub use scan::Match;

/// A text with its secrets replaced, and what was replaced (spans in the input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted<'a> {
    /// The input itself when nothing matched.
    pub(crate) text: Cow<'a, str>,
    /// In input order, not overlapping.
    pub matches: Vec<Match>,
}

impl Redacted<'_> {
    /// Whether anything was redacted.
    pub fn changed(&self) -> bool {
        !self.matches.is_empty()
    }
}

/// A kind a match can carry: its id, its family (docs/redaction.md) and what it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SecretKind {
    pub(crate) id: &'static str,
    pub(crate) family: &'static str,
    pub(crate) what: &'static str,
}

/// Every kind, in the detector table's order (the more specific first), each id once; then the
/// kinds a secret-named assignment takes from the provider in its name.
pub(crate) fn kinds() -> Vec<SecretKind> {
    let mut out: Vec<SecretKind> = Vec::new();
    let rows = table::TABLE.iter().map(|d| SecretKind {
        id: d.id,
        family: d.family,
        what: d.what,
    });
    let named = generic::NAMED.iter().map(|&(word, id, family)| SecretKind {
        id,
        family,
        what: if word == "aws" {
            "a secret-named assignment whose name says aws"
        } else {
            "a secret-named assignment whose name holds the provider's name"
        },
    });
    let exact = generic::NAMED_EXACTLY.iter().map(|&(_, id, family)| SecretKind {
        id,
        family,
        what: "a secret-named assignment whose whole name says which secret it is (AccountKey, SharedAccessKey)",
    });
    for k in rows.chain(named).chain(exact) {
        if !out.iter().any(|o| o.id == k.id) {
            out.push(k);
        }
    }
    out
}

/// The detectors compiled (a benchmark calls it before timing).
pub fn warm() {
    scan::warm();
}

/// The text with each match replaced by `[REDACTED:<kind>]`.
pub fn redact(text: &str) -> Redacted<'_> {
    let matches: Vec<Match> = scan::scan(text.as_bytes(), false)
        .into_iter()
        .filter(|m| text.is_char_boundary(m.span.start) && text.is_char_boundary(m.span.end))
        .collect();
    if matches.is_empty() {
        return Redacted {
            text: Cow::Borrowed(text),
            matches,
        };
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for m in &matches {
        out.push_str(&text[last..m.span.start]);
        out.push_str("[REDACTED:");
        out.push_str(m.kind);
        out.push(']');
        last = m.span.end;
    }
    out.push_str(&text[last..]);
    Redacted {
        text: Cow::Owned(out),
        matches,
    }
}

/// The first match [`redact`] would make (the same one as `redact(text).matches[0]`), found
/// without looking past it.
#[cfg(test)]
pub(crate) fn first_match(text: &str) -> Option<Match> {
    first_match_bytes(text.as_bytes())
}

/// `first_match` over bytes that need not be UTF-8 (every detector matches ASCII only).
pub fn first_match_bytes(bytes: &[u8]) -> Option<Match> {
    scan::scan(bytes, true).into_iter().next()
}

/// The anchor search on its own, for the fuzz target that holds it to Aho-Corasick's
/// leftmost-first search (`fuzz/fuzz_targets/redact.rs`): the anchors, and the hits of a text as
/// `(anchor, start)`.
#[doc(hidden)]
pub use scan::{anchor_hits, anchors};

/// Every match over bytes that need not be UTF-8.
pub fn matches_bytes(bytes: &[u8]) -> Vec<Match> {
    scan::scan(bytes, false)
}

// The corpus, tests/data/secrets/corpus.toml, expanded at run time: the unit tests check every
// case, and examples/secrets_corpus.rs (the feature secrets-corpus) writes it out for
// scripts/secrets_diff.py.
#[cfg(any(test, feature = "secrets-corpus"))]
mod corpus;

/// Writes the redaction corpus to `dir`: one file a case (`<family>/<pos|near>-<n>.txt`) and
/// `manifest.json` listing each file's family, kind and secret; returns the number of cases.
#[cfg(feature = "secrets-corpus")]
#[doc(hidden)]
pub fn export_corpus(dir: &std::path::Path) -> std::io::Result<usize> {
    corpus::export(dir)
}
#[cfg(test)]
mod tests;
