//! What the engine's parts share: a declared session of the window a pass reads, with its
//! turns; the pass; one call to make.

use crate::model::transcript::{Tool, Turn};

/// A declared session and its turns (ordinals numbered).
#[derive(Debug, Clone)]
pub struct Session {
    /// The session id.
    pub id: String,
    /// The tool it ran in.
    pub tool: Tool,
    /// `notes/...` ids, as declared.
    pub notes: Vec<String>,
    /// The handoff text the session ends with.
    pub handoff: String,
    /// Its turns, ordinals numbered.
    pub turns: Vec<Turn>,
}

impl Session {
    /// The earliest timestamp of its turns.
    pub(crate) fn first_time(&self) -> Option<i128> {
        self.turns.iter().filter_map(|t| t.time).min()
    }
}

/// What the engine needs of a pass.
#[derive(Debug, Clone)]
pub struct Pass {
    /// The pass's name.
    pub name: String,
    /// The prompt file's text.
    pub prompt: String,
    /// The persona file's text.
    pub persona: String,
    /// The inputs the prompt reads (`sessions`, `notes`, `turns`, `human_confirmed`).
    pub reads: Vec<String>,
    /// One call per candidate note (`true`), or the sessions in chunks that fit the budget.
    pub per_note: bool,
    /// The most bytes a call's rendered prompt may take.
    pub input_budget_bytes: u64,
    /// The note types kept (empty: every type).
    pub note_types: Vec<String>,
    /// The note path globs kept (empty: every path).
    pub note_paths: Vec<String>,
}

/// One call to make: its notes and sessions (indexes into the window's sessions, in order).
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub(crate) notes: Vec<String>,
    pub(crate) sessions: Vec<usize>,
}
