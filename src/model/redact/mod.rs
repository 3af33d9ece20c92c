//! Secret redaction: the detectors hippo runs over transcripts as it indexes them.
//!
//! [`redact`] replaces every match with `[REDACTED:<kind>]`; [`first_match`] stops at the first
//! one (the `redaction` rule only needs to know whether, and where first, a file would change).
//! Kinds carry the names gitleaks gives its rules ; docs/redaction.md lists them.
//!
//! Cost: one pass of an Aho-Corasick automaton over the text finds the few anchors a secret can
//! start with (or, for `generic-api-key`, the key names it is assigned to); only at an anchor
//! does the matching detector look at a small window of bytes around it. A text with no anchor
//! costs that one scan. Every detector works on ASCII bytes and bounds how far it looks, so any
//! input, valid UTF-8 or not, is scanned in linear time.

mod detect;
mod shape;

use crate::core::Span;
use std::borrow::Cow;

pub use shape::{entropy, is_placeholder};

/// One secret-looking span of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Match {
    /// The gitleaks-style rule name (`aws-access-token`, `generic-api-key`, ...).
    pub kind: &'static str,
    /// Byte offsets in the input; always on ASCII bytes, so on character boundaries.
    pub span: Span,
}

/// A text with its secrets replaced, and what was replaced (spans in the input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted<'a> {
    /// The input itself when nothing matched.
    pub text: Cow<'a, str>,
    /// In input order, not overlapping.
    pub matches: Vec<Match>,
}

impl Redacted<'_> {
    pub fn changed(&self) -> bool {
        !self.matches.is_empty()
    }
}

/// Every kind a match can carry, in the order of docs/redaction.md.
pub const KINDS: &[&str] = &[
    "private-key",
    "aws-access-token",
    "github-pat",
    "github-oauth",
    "github-app-token",
    "github-refresh-token",
    "github-fine-grained-pat",
    "slack-bot-token",
    "slack-user-token",
    "slack-app-token",
    "slack-legacy-bot-token",
    "slack-legacy-workspace-token",
    "slack-legacy-token",
    "slack-config-access-token",
    "slack-config-refresh-token",
    "slack-webhook-url",
    "stripe-access-token",
    "gcp-api-key",
    "anthropic-api-key",
    "anthropic-admin-api-key",
    "openai-api-key",
    "jwt",
    "authorization-header",
    "url-credentials",
    "generic-api-key",
];

/// The text with each match replaced by `[REDACTED:<kind>]`.
pub fn redact(text: &str) -> Redacted<'_> {
    let matches: Vec<Match> = detect::scan(text.as_bytes(), false)
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
pub fn first_match(text: &str) -> Option<Match> {
    first_match_bytes(text.as_bytes())
}

/// [`first_match`] over bytes that need not be UTF-8 (every detector matches ASCII only).
pub fn first_match_bytes(bytes: &[u8]) -> Option<Match> {
    detect::scan(bytes, true).into_iter().next()
}

/// Every match over bytes that need not be UTF-8.
pub fn matches_bytes(bytes: &[u8]) -> Vec<Match> {
    detect::scan(bytes, false)
}

#[cfg(test)]
mod tests;
