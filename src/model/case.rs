//! A fixture case (`tests/<name>/case.toml`) as `test` runs it. The rules of its keys and values
//! live in the rules layer (`rules/case.rs`), which builds this value.

use super::transcript::Tool;
use crate::core::Span;

/// A piece of text a case names, with where it stands in case.toml.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Located {
    pub(crate) text: String,
    pub(crate) span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SessionDef {
    pub(crate) id: String,
    /// The `id` key in case.toml.
    pub(crate) span: Span,
    pub(crate) tool: Tool,
    /// `notes/...` paths, as written.
    pub(crate) notes: Vec<String>,
    pub(crate) handoff: String,
}

/// The six counts `[expect]` may name, in the order of hippo's page "Writing a pack".
pub(crate) const COUNT_KEYS: &[&str] = &[
    "calls",
    "proposals",
    "validation_failures",
    "confirmed",
    "rejected",
    "applied",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExpectCount {
    /// One of [`COUNT_KEYS`].
    pub(crate) key: &'static str,
    pub(crate) value: u64,
    /// The key in case.toml.
    pub(crate) span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExpectNote {
    /// `notes/...`.
    pub(crate) path: String,
    /// The `path` key.
    pub(crate) span: Span,
    pub(crate) contains: Vec<Located>,
    pub(crate) excludes: Vec<Located>,
}

/// `[expect]`: only the keys present are checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Expect {
    /// In file order.
    pub(crate) counts: Vec<ExpectCount>,
    pub(crate) prompt_contains: Vec<Located>,
    pub(crate) prompt_excludes: Vec<Located>,
    pub(crate) notes: Vec<ExpectNote>,
}

/// One case as `test` runs it.
#[derive(Debug, Clone, Default)]
pub(crate) struct CaseDef {
    /// The folder name: `tests/<name>/`.
    pub(crate) name: String,
    /// `tests/<name>/case.toml`.
    pub(crate) path: String,
    /// Whether case.toml parsed as TOML and its sessions could be read (the transcript rules
    /// check session ids only then).
    pub(crate) parsed: bool,
    /// The pass under test, when it names a pass file of this pack.
    pub(crate) pass: Option<String>,
    pub(crate) about: Option<String>,
    pub(crate) sessions: Vec<SessionDef>,
    /// `[model] reply`; `[]` when absent.
    pub(crate) reply: String,
    /// `[model] verdict`: `confirm` (default) or `reject`.
    pub(crate) verdict: String,
    pub(crate) expect: Expect,
}

impl CaseDef {
    /// `tests/<name>/`.
    pub(crate) fn dir(&self) -> String {
        format!("tests/{}/", self.name)
    }
}
