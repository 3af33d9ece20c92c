//! Pass files: passes/<name>.toml (filled in by the pass-rules work).

use super::Rule;
use crate::diagnostic::Diagnostic;
use crate::pack::Pack;

pub static RULES: &[&Rule] = &[];

/// A parsed pass file.
#[derive(Debug, Clone, Default)]
pub struct PassDef {
    /// The pass's name: its file name without `.toml`.
    pub name: String,
    /// `passes/<name>.toml`.
    pub path: String,
    /// `prompts/<name>.md`.
    pub prompt: String,
    /// Any of sessions, notes, turns, human_confirmed, in file order.
    pub reads: Vec<String>,
    /// `personas/<name>.md`.
    pub reviewer: String,
    pub per_note: bool,
    pub input_budget_bytes: u64,
    pub note_types: Vec<String>,
    pub note_paths: Vec<String>,
}

/// Parses and checks every pass file; the flag says whether every one parsed.
pub fn check(_pack: &Pack, _out: &mut Vec<Diagnostic>) -> (Vec<PassDef>, bool) {
    (Vec::new(), true)
}
