//! A declared session of the window a pass reads, with its turns.

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
