//! Transcripts: JSON lines in the Claude Code format, or Codex rollouts (docs/testing-packs.md).
//!
//! [`parse`] reads one file into its turns, timestamps and session references, and lists every
//! problem it meets instead of stopping; the transcript rules report the problems, the fixture
//! runner uses the turns. A line is read once, into the one definition of a record
//! (`record.rs`); `turn.rs` makes a turn of it. Nothing here panics on input: a line nested past
//! serde_json's recursion limit where it is read is one problem like any other.

mod record;
mod turn;

use crate::core::Span;
use record::{Line, Payload, Record, Scalar, article};
use std::sync::Arc;
pub(crate) use turn::Role;
use turn::TurnText;

/// The first line every transcript of a pack must have, to mark it as invented.
pub(crate) const MARKER: &str = r#"{"synthetic": true}"#;

/// The tool a session ran in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum Tool {
    /// Claude Code (`claude-code`).
    #[default]
    #[serde(rename = "claude-code")]
    ClaudeCode,
    /// Codex (`codex`).
    #[serde(rename = "codex")]
    Codex,
}

impl Tool {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Tool::ClaudeCode => "claude-code",
            Tool::Codex => "codex",
        }
    }
    pub(crate) fn parse(s: &str) -> Option<Tool> {
        match s {
            "claude-code" => Some(Tool::ClaudeCode),
            "codex" => Some(Tool::Codex),
            _ => None,
        }
    }
    /// How a message names the format of a record.
    pub(crate) fn format_name(self) -> &'static str {
        match self {
            Tool::ClaudeCode => "a Claude Code record",
            Tool::Codex => "a Codex rollout record",
        }
    }
}

/// One turn of a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// Its session's id, one allocation shared by the turns of a session that follow each other.
    pub(crate) session: Arc<str>,
    /// 1-based, in file order within its session; 0 until [`number_turns`] runs.
    pub(crate) ordinal: usize,
    pub(crate) role: Role,
    /// The record's `timestamp` as written.
    pub(crate) timestamp: Option<String>,
    /// Nanoseconds since the epoch, when the timestamp is RFC 3339.
    pub(crate) time: Option<i128>,
    /// The turn as the model reads it: text blocks as they are, `[tool call NAME] <input>`,
    /// `[tool output] <text>`, one per line.
    pub(crate) text: String,
    /// The same without tool output: what the user or the assistant wrote (docs/testing-packs.md,
    /// validation rule 6); `None` when that is the whole text ([`Turn::own_text()`]).
    pub(crate) own_text: Option<String>,
    /// 1-based line in its file.
    pub(crate) line: usize,
}

impl Turn {
    /// What the user or the assistant wrote: the text without tool output.
    pub(crate) fn own_text(&self) -> &str {
        self.own_text.as_deref().unwrap_or(&self.text)
    }
}

/// Which transcript rule a problem belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProblemKind {
    /// The first line is not the marker.
    Marker,
    /// A line that is not a JSON object.
    Json,
    /// A `timestamp` that is not RFC 3339.
    Timestamp,
    /// A record of the wrong shape for its format.
    Record,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    pub(crate) kind: ProblemKind,
    /// 1-based line (0 for the whole file).
    pub(crate) line: usize,
    /// The line's bytes in the file.
    pub(crate) span: Span,
    pub(crate) message: String,
}

/// Where a session is first named in a file, and by which format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SessionRef {
    pub(crate) id: String,
    pub(crate) tool: Tool,
    pub(crate) line: usize,
    pub(crate) span: Span,
}

/// One transcript file read: its turns and the problems found while reading it.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    pub(crate) path: String,
    /// Whether the first line is exactly [`MARKER`].
    pub(crate) marker: bool,
    pub(crate) problems: Vec<Problem>,
    /// Turns in file order (ordinals not yet numbered).
    pub(crate) turns: Vec<Turn>,
    /// Every valid timestamp, with its line and span.
    pub(crate) timestamps: Vec<(i128, usize, Span)>,
    /// The first reference to each session, in file order.
    pub(crate) sessions: Vec<SessionRef>,
    /// The 0-based numbers of the lines with a backslash that serde_json refuses as JSON even
    /// when it skips their values: the lines the decoder leaves as written ([`Transcript::accepts`]).
    pub(crate) refused: Vec<usize>,
}

impl Transcript {
    /// Records the first reference to a session (of one tool) in this file.
    fn refer(&mut self, id: &str, tool: Tool, line: usize, span: Span) {
        if !self.sessions.iter().any(|s| s.id == id && s.tool == tool) {
            self.sessions.push(SessionRef {
                id: id.to_string(),
                tool,
                line,
                span,
            });
        }
    }

    /// Whether serde_json accepts the line of this 0-based number as JSON (asked by the decoder
    /// of the lines with a backslash only).
    pub(crate) fn accepts(&self, line: usize) -> bool {
        !self.refused.contains(&line)
    }

    /// Whether a line could not be read as a record at all (so its turns may be missing).
    pub(crate) fn has_unreadable_lines(&self) -> bool {
        self.problems.iter().any(|p| p.kind == ProblemKind::Json)
    }
}

/// The text split at every line feed, as `str::split('\n')` splits it (a last empty piece
/// included), found with a vector search.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let ends = memchr::memchr_iter(b'\n', text.as_bytes()).chain(std::iter::once(text.len()));
    let mut start = 0;
    ends.map(move |end| {
        // A line feed is one byte of ASCII: both ends are character boundaries.
        let line = text.get(start..end).unwrap_or("");
        start = end + 1;
        line
    })
}

/// Parses one transcript. `path` is only kept for the caller.
pub fn parse(path: &str, text: &str) -> Transcript {
    let mut reader = Reader {
        t: Transcript {
            path: path.to_string(),
            ..Transcript::default()
        },
        codex_session: None,
        last_session: None,
        keys: Vec::new(),
    };
    let mut offset = 0;
    for (i, raw) in lines(text).enumerate() {
        let at = At {
            line: i + 1,
            span: Span::new(offset, offset + raw.len()),
        };
        offset += raw.len() + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if at.line == 1 {
            reader.t.marker = line == MARKER;
            if reader.t.marker {
                continue;
            }
            reader.t.problems.push(Problem {
                kind: ProblemKind::Marker,
                line: 0,
                span: at.span,
                message: format!("the first line is not {MARKER}"),
            });
            // The line is still read as a record: a transcript that only lacks the marker
            // reports that alone.
        }
        if !line.trim().is_empty() {
            reader.line(line, at);
        }
    }
    reader.t
}

/// Where a line is: its 1-based number and its bytes in the file.
#[derive(Clone, Copy)]
struct At {
    line: usize,
    span: Span,
}

/// The reading of one file, line after line.
struct Reader {
    t: Transcript,
    /// The Codex session the following rollout records belong to.
    codex_session: Option<Arc<str>>,
    /// The session of the last Claude Code record that named one.
    last_session: Option<Arc<str>>,
    /// Room for the keys of a line's open objects (`record::read`), one list for every line.
    keys: Vec<(usize, usize)>,
}

impl Reader {
    fn problem(&mut self, at: At, kind: ProblemKind, message: String) {
        self.t.problems.push(Problem {
            kind,
            line: at.line,
            span: at.span,
            message,
        });
    }

    /// Reads one non-blank line: a record, and the turn it holds, or its problems.
    fn line(&mut self, line: &str, at: At) {
        let (record, twice) = match record::read(line, &mut self.keys) {
            Ok((Line(Some(r)), twice)) => (r, twice),
            Ok((Line(None), _)) => {
                return self.problem(at, ProblemKind::Json, "not a JSON object".to_string());
            }
            Err(e) => {
                // A record that does not read may still be JSON (a lone surrogate in a string,
                // which skipping accepts): the decoder asks (lines with a backslash only).
                if memchr::memchr(b'\\', line.as_bytes()).is_some()
                    && !crate::model::json::accepted(line)
                {
                    self.t.refused.push(at.line - 1);
                }
                let message = format!("not JSON: {}", json_error(&e));
                return self.problem(at, ProblemKind::Json, message);
            }
        };
        // A key given twice: serde_json kept the last value, another reader keeps the first.
        if let Some(key) = twice {
            return self.problem(at, ProblemKind::Record, format!("key {key} twice"));
        }
        let (timestamp, time) = self.timestamp(&record.timestamp, at);
        let kind = record.kind.as_str().unwrap_or("");
        let turn = match kind {
            // Codex rollout records.
            "session_meta" => return self.session_meta(record.payload, at),
            "response_item" => match self.codex_session.clone() {
                Some(session) => turn::codex_turn(record.payload).map(|t| t.map(|t| (session, t))),
                None => Err("response_item before any session_meta".to_string()),
            },
            // Claude Code records.
            _ => self.claude(record, at),
        };
        match turn {
            Ok(Some((session, (role, text, own_text)))) => self.t.turns.push(Turn {
                session,
                ordinal: 0,
                role,
                timestamp,
                time,
                text,
                own_text,
                line: at.line,
            }),
            Ok(None) => {}
            Err(message) => self.problem(at, ProblemKind::Record, message),
        }
    }

    /// The record's `timestamp` as written, and its time when it is RFC 3339.
    fn timestamp(&mut self, ts: &Scalar<'_>, at: At) -> (Option<String>, Option<i128>) {
        match ts {
            Scalar::Absent => (None, None),
            Scalar::Str(s) => {
                let time = super::time::parse_rfc3339(s);
                match time {
                    Some(n) => self.t.timestamps.push((n, at.line, at.span)),
                    None => self.problem(
                        at,
                        ProblemKind::Timestamp,
                        format!("timestamp \"{s}\" is not RFC 3339"),
                    ),
                }
                (Some(s.to_string()), time)
            }
            Scalar::Other(type_name) => {
                let message = format!("timestamp is {type_name}, not an RFC 3339 string");
                self.problem(at, ProblemKind::Timestamp, message);
                (None, None)
            }
        }
    }

    /// A Codex `session_meta`: the session the following records belong to.
    fn session_meta(&mut self, payload: Option<Box<Payload<'_>>>, at: At) {
        match payload.as_deref().and_then(|p| p.id.as_str()) {
            Some(id) if !id.is_empty() => {
                self.codex_session = Some(Arc::from(id));
                self.t.refer(id, Tool::Codex, at.line, at.span);
            }
            _ => self.problem(
                at,
                ProblemKind::Record,
                "session_meta has no payload.id".to_string(),
            ),
        }
    }

    /// A Claude Code record: any record names its session; `user` and `assistant` are turns.
    fn claude(
        &mut self,
        record: Record<'_>,
        at: At,
    ) -> Result<Option<(Arc<str>, TurnText)>, String> {
        let kind = record.kind.as_str().unwrap_or("");
        let session = match &record.session {
            Scalar::Str(s) if !s.is_empty() => {
                self.t.refer(s, Tool::ClaudeCode, at.line, at.span);
                Some(self.session(s))
            }
            Scalar::Absent => None,
            _ => return Err("sessionId is not a non-empty string".to_string()),
        };
        if !matches!(kind, "user" | "assistant") {
            return Ok(None); // kept, but not a turn
        }
        let Some(session) = session else {
            return Err(format!("{} {kind} record has no sessionId", article(kind)));
        };
        turn::claude_turn(kind, record.content).map(|t| Some((session, t)))
    }
}

impl Reader {
    /// The id `id` as a turn keeps it: the last record's when it is the same.
    fn session(&mut self, id: &str) -> Arc<str> {
        match &self.last_session {
            Some(last) if **last == *id => last.clone(),
            _ => self.last_session.insert(Arc::from(id)).clone(),
        }
    }
}

/// serde_json's message without its `at line 1 column N` (the caller names the line).
fn json_error(e: &serde_json::Error) -> String {
    let s = e.to_string();
    let msg = match s.rfind(" at line ") {
        Some(i) => &s[..i],
        None => &s,
    };
    format!("{msg} at column {}", e.column())
}

/// Numbers the turns of several files: ordinal 1 is a session's first turn, in file order
/// (files in the order given).
pub fn number_turns<'a>(transcripts: impl IntoIterator<Item = &'a Transcript>) -> Vec<Turn> {
    let mut next: std::collections::HashMap<Arc<str>, usize> = Default::default();
    let mut out = Vec::new();
    for t in transcripts {
        for turn in &t.turns {
            let n = next.entry(turn.session.clone()).or_insert(0);
            *n += 1;
            out.push(Turn {
                ordinal: *n,
                ..turn.clone()
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod lines_tests {
    #[test]
    fn lines_split_as_str_split_does() {
        for text in ["", "a", "a\n", "\n\n", "a\nb\r\nc", "é\n€\n"] {
            let ours: Vec<&str> = super::lines(text).collect();
            let std: Vec<&str> = text.split('\n').collect();
            assert_eq!(ours, std, "{text:?}");
        }
        // control: a split that dropped the last empty piece would differ
        assert_ne!(super::lines("a\n").count(), "a\n".lines().count());
    }
}
