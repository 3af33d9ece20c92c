//! A `[[session]]` of case.toml as its keys' checks read it: its id, tool, notes and handoff.

use super::read::Ctx;
use crate::core::{Span, suggest};
use crate::model::case::SessionDef;
use crate::model::schema::{Entry, Value};
use crate::model::transcript::Tool;

/// A session as read so far.
pub(super) struct SessionDraft {
    /// The id and the span of its key, when it is a non-empty line.
    id: Option<(String, Span)>,
    /// `None` when `tool` is present and not a tool.
    tool: Option<Tool>,
    notes: Vec<String>,
    handoff: String,
}

impl Default for SessionDraft {
    fn default() -> Self {
        SessionDraft {
            id: None,
            tool: Some(Tool::ClaudeCode),
            notes: Vec::new(),
            handoff: String::new(),
        }
    }
}

impl SessionDraft {
    /// The session, when its id and tool could be read.
    pub(super) fn finish(self) -> Option<SessionDef> {
        let (id, span) = self.id?;
        Some(SessionDef {
            id,
            span,
            tool: self.tool?,
            notes: self.notes,
            handoff: self.handoff,
        })
    }
}

pub(super) fn session_id(cx: &mut Ctx<'_>, s: &mut SessionDraft, e: &Entry<'_, '_>) {
    let Value::String(id) = e.value else { return };
    if id.trim().is_empty() || id.contains(['\n', '\r']) {
        let help = "write the session's id as its transcript's sessionId holds it";
        cx.reader.wrong(e, "must be a non-empty line", help);
    } else {
        s.id = Some((id.to_string(), e.key_span));
    }
}

pub(super) fn session_tool(cx: &mut Ctx<'_>, s: &mut SessionDraft, e: &Entry<'_, '_>) {
    s.tool = match e.value {
        Value::String(tool) => {
            let parsed = Tool::parse(tool);
            if parsed.is_none() {
                let help = suggest::help(tool, &["claude-code", "codex"], "the tools");
                cx.reader
                    .wrong(e, format_args!("{tool} is not claude-code or codex"), help);
            }
            parsed
        }
        _ => None,
    };
}

/// The notes a session declares, each once.
pub(super) fn session_notes(cx: &mut Ctx<'_>, s: &mut SessionDraft, e: &Entry<'_, '_>) {
    let Value::Strings(list) = &e.value else {
        return;
    };
    for (note, span) in list {
        if cx.note("session.notes", note, *span) && !s.notes.iter().any(|n| n == note) {
            s.notes.push(note.to_string());
        }
    }
}

pub(super) fn session_handoff(_: &mut Ctx<'_>, s: &mut SessionDraft, e: &Entry<'_, '_>) {
    if let Value::String(h) = e.value {
        s.handoff = h.to_string();
    }
}
