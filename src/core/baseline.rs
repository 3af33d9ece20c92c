//! A finding against the base of a pull request: whether the base had it (docs/action.md, "The
//! review"). Filled by `crate::baseline` in a review; `None` everywhere else.

/// Whether a finding, or one occurrence of a one-per-file finding, is the pull request's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Baseline {
    /// The base does not have it: the pull request brings it.
    New,
    /// The base has it too.
    Existing,
}

impl Baseline {
    /// The word the JSON report writes.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Baseline::New => "new",
            Baseline::Existing => "existing",
        }
    }
}

/// A finding the base has and the head no longer has: its rule, its pack-relative path (`None`:
/// a pack-wide finding) and its message (an occurrence's shown text after a colon).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    pub(crate) rule: &'static str,
    pub(crate) path: Option<String>,
    pub(crate) message: String,
}

/// One occurrence of a finding reported once per file (every URL of a `url-outside-readme`,
/// every hidden text of an `unrendered-text`): where it is and its text, which keys it in a
/// review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Occurrence {
    pub(crate) span: super::Span,
    /// Filled by `rules::resolve`, as [`super::Diagnostic::region`].
    pub(crate) region: super::Region,
    /// The occurrence as written (a hidden text with its secrets masked); escaped by renderers.
    pub(crate) text: String,
    pub(crate) baseline: Option<Baseline>,
}
