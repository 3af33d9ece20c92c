//! A fixture case (`tests/<name>/case.toml`) as `test` runs it. The rules of its keys and values
//! live in the rules layer (`rules/case.rs`), which builds this value.

use super::transcript::Tool;
use crate::core::Span;

/// A piece of text a case names, with where it stands in case.toml.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    pub text: String,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionDef {
    pub id: String,
    /// The `id` key in case.toml.
    pub span: Span,
    pub tool: Tool,
    /// `notes/...` paths, as written.
    pub notes: Vec<String>,
    pub handoff: String,
}

/// The six counts `[expect]` may name, in the order of hippo's page "Writing a pack".
pub const COUNT_KEYS: &[&str] = &[
    "calls",
    "proposals",
    "validation_failures",
    "confirmed",
    "rejected",
    "applied",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectCount {
    /// One of [`COUNT_KEYS`].
    pub key: &'static str,
    pub value: u64,
    /// The key in case.toml.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectNote {
    /// `notes/...`.
    pub path: String,
    /// The `path` key.
    pub span: Span,
    pub contains: Vec<Located>,
    pub excludes: Vec<Located>,
}

/// `[expect]`: only the keys present are checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expect {
    /// In file order.
    pub counts: Vec<ExpectCount>,
    pub prompt_contains: Vec<Located>,
    pub prompt_excludes: Vec<Located>,
    pub notes: Vec<ExpectNote>,
}

/// One case as `test` runs it.
#[derive(Debug, Clone, Default)]
pub struct CaseDef {
    /// The folder name: tests/<name>/.
    pub name: String,
    /// `tests/<name>/case.toml`.
    pub path: String,
    /// Whether case.toml parsed as TOML and its sessions could be read (the transcript rules
    /// check session ids only then).
    pub parsed: bool,
    /// The pass under test, when it names a pass file of this pack.
    pub pass: Option<String>,
    pub about: Option<String>,
    pub sessions: Vec<SessionDef>,
    /// `[model] reply`; `[]` when absent.
    pub reply: String,
    /// `[model] verdict`: `confirm` (default) or `reject`.
    pub verdict: String,
    pub expect: Expect,
}

impl CaseDef {
    /// `tests/<name>/`.
    pub fn dir(&self) -> String {
        format!("tests/{}/", self.name)
    }
}
