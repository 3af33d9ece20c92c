//! What the engine's parts share: a declared session of the window a pass reads, with its
//! turns; the pass; one call to make.

use crate::model::transcript::{Tool, Turn};

/// A declared session and its turns (ordinals numbered).
#[derive(Debug, Clone)]
pub struct Session {
    pub id: String,
    pub tool: Tool,
    /// `notes/...` ids, as declared.
    pub notes: Vec<String>,
    pub handoff: String,
    pub turns: Vec<Turn>,
}

impl Session {
    /// The earliest timestamp of its turns.
    pub fn first_time(&self) -> Option<i128> {
        self.turns.iter().filter_map(|t| t.time).min()
    }
}

/// What the engine needs of a pass.
#[derive(Debug, Clone)]
pub struct Pass {
    pub name: String,
    /// The prompt file's text.
    pub prompt: String,
    /// The persona file's text.
    pub persona: String,
    pub reads: Vec<String>,
    pub per_note: bool,
    pub input_budget_bytes: u64,
    pub note_types: Vec<String>,
    pub note_paths: Vec<String>,
}

/// One call to make: its notes and sessions (indexes into the window's sessions, in order).
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub notes: Vec<String>,
    pub sessions: Vec<usize>,
}
