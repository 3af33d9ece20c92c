//! A `[[session]]` of case.toml as its keys' checks judge it: its id, tool, notes and handoff.

use super::read::Ctx;
use crate::core::{Span, suggest};
use crate::model::case::is_session_id;
use crate::model::schema::{Entry, Value};
use crate::model::transcript::Tool;

/// What the checks of one session remember: its id and whether its tool is one (a session
/// without both is not read, so its id cannot be declared twice).
pub(super) struct SessionDraft {
    /// The id and the span of its key, when it is a non-empty line.
    id: Option<(String, Span)>,
    /// False when `tool` is present and not a tool.
    tool: bool,
}

impl Default for SessionDraft {
    fn default() -> Self {
        SessionDraft {
            id: None,
            tool: true,
        }
    }
}

impl SessionDraft {
    /// The session's id and the span of its key, when its id and tool could be read.
    pub(super) fn finish(self) -> Option<(String, Span)> {
        self.id.filter(|_| self.tool)
    }
}

pub(super) fn session_id(cx: &mut Ctx<'_>, s: &mut SessionDraft, e: &Entry<'_, '_>) {
    let Value::String(id) = e.value else { return };
    if !is_session_id(id) {
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
            parsed.is_some()
        }
        _ => false,
    };
}

/// The notes a session declares: notes of the case.
pub(super) fn session_notes(cx: &mut Ctx<'_>, _: &mut SessionDraft, e: &Entry<'_, '_>) {
    let Value::Strings(list) = &e.value else {
        return;
    };
    for (note, span) in list {
        cx.note("session.notes", note, *span);
    }
}

/// `handoff`: any string (a value of another type is reported already).
pub(super) fn session_handoff(_: &mut Ctx<'_>, _: &mut SessionDraft, _: &Entry<'_, '_>) {}
