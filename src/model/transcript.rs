//! Transcripts: JSON lines in the Claude Code format, or Codex rollouts (SPEC 3.8, 5.2).
//!
//! [`parse`] reads one file into its turns, timestamps and session references, and lists every
//! problem it meets instead of stopping; the transcript rules report the problems, the fixture
//! runner uses the turns. Nothing here panics on input: a line nested past serde_json's recursion
//! limit is one problem like any other.

use crate::core::Span;
use serde_json::{Map, Value};

/// The first line every transcript of a pack must have, to mark it as invented.
pub const MARKER: &str = r#"{"synthetic": true}"#;

/// The tool a session ran in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum Tool {
    #[default]
    #[serde(rename = "claude-code")]
    ClaudeCode,
    #[serde(rename = "codex")]
    Codex,
}

impl Tool {
    pub fn as_str(self) -> &'static str {
        match self {
            Tool::ClaudeCode => "claude-code",
            Tool::Codex => "codex",
        }
    }
    pub fn parse(s: &str) -> Option<Tool> {
        match s {
            "claude-code" => Some(Tool::ClaudeCode),
            "codex" => Some(Tool::Codex),
            _ => None,
        }
    }
    /// How a message names the format of a record.
    pub fn format_name(self) -> &'static str {
        match self {
            Tool::ClaudeCode => "a Claude Code record",
            Tool::Codex => "a Codex rollout record",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
    /// A turn whose blocks are all tool results (or a Codex `function_call_output`).
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

/// One turn of a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    pub session: String,
    /// 1-based, in file order within its session; 0 until [`number_turns`] runs.
    pub ordinal: usize,
    pub role: Role,
    /// The record's `timestamp` as written.
    pub timestamp: Option<String>,
    /// Nanoseconds since the epoch, when the timestamp is RFC 3339.
    pub time: Option<i128>,
    /// The turn as the model reads it: text blocks as they are, `[tool call NAME] <input>`,
    /// `[tool output] <text>`, one per line.
    pub text: String,
    /// The same without tool output: what the user or the assistant wrote (SPEC 5.5 rule 6).
    pub own_text: String,
    /// 1-based line in its file.
    pub line: usize,
}

/// Which transcript rule a problem belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
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
pub struct Problem {
    pub kind: ProblemKind,
    /// 1-based line (0 for the whole file).
    pub line: usize,
    /// The line's bytes in the file.
    pub span: Span,
    pub message: String,
}

/// Where a session is first named in a file, and by which format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRef {
    pub id: String,
    pub tool: Tool,
    pub line: usize,
    pub span: Span,
}

#[derive(Debug, Clone, Default)]
pub struct Transcript {
    pub path: String,
    /// Whether the first line is exactly [`MARKER`].
    pub marker: bool,
    pub problems: Vec<Problem>,
    /// Turns in file order (ordinals not yet numbered).
    pub turns: Vec<Turn>,
    /// Every valid timestamp, with its line and span.
    pub timestamps: Vec<(i128, usize, Span)>,
    /// The first reference to each session, in file order.
    pub sessions: Vec<SessionRef>,
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

    /// Whether a line could not be read as a record at all (so its turns may be missing).
    pub fn has_unreadable_lines(&self) -> bool {
        self.problems.iter().any(|p| p.kind == ProblemKind::Json)
    }
}

/// Parses one transcript. `path` is only kept for the caller.
pub fn parse(path: &str, text: &str) -> Transcript {
    parse_with(path, text, true)
}

/// [`parse`], with the fast reading of plain text turns on or off (the two must agree).
fn parse_with(path: &str, text: &str, fast_path: bool) -> Transcript {
    let mut t = Transcript {
        path: path.to_string(),
        ..Transcript::default()
    };
    // The Codex session the following rollout records belong to.
    let mut codex_session: Option<String> = None;
    let mut offset = 0;
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i + 1;
        let span = Span::new(offset, offset + raw.len());
        offset += raw.len() + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line_no == 1 {
            t.marker = line == MARKER;
            if t.marker {
                continue;
            }
            t.problems.push(Problem {
                kind: ProblemKind::Marker,
                line: 0,
                span,
                message: format!("the first line is not {MARKER}"),
            });
            // The line is still read as a record: a transcript that only lacks the marker
            // reports that alone.
        }
        if line.trim().is_empty() {
            continue;
        }
        let mut problem = |kind, message: String| {
            t.problems.push(Problem {
                kind,
                line: line_no,
                span,
                message,
            })
        };
        // The common record, a Claude Code user or assistant turn of text, without building a
        // JSON tree; anything else goes the general way below, with the same result.
        if let Some(fast) = fast_path.then(|| fast_turn(line)).flatten() {
            let time = super::time::parse_rfc3339(&fast.timestamp);
            match time {
                Some(n) => t.timestamps.push((n, line_no, span)),
                None => problem(
                    ProblemKind::Timestamp,
                    format!("timestamp \"{}\" is not RFC 3339", fast.timestamp),
                ),
            }
            let session = fast.session.into_owned();
            t.refer(&session, Tool::ClaudeCode, line_no, span);
            t.turns.push(Turn {
                session,
                ordinal: 0,
                role: fast.role,
                timestamp: Some(fast.timestamp.into_owned()),
                time,
                own_text: fast.text.clone(),
                text: fast.text,
                line: line_no,
            });
            continue;
        }
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                problem(ProblemKind::Json, format!("not JSON: {}", json_error(&e)));
                continue;
            }
        };
        let Value::Object(record) = value else {
            problem(ProblemKind::Json, "not a JSON object".to_string());
            continue;
        };
        let mut time = None;
        let timestamp = match record.get("timestamp") {
            None => None,
            Some(Value::String(s)) => match super::time::parse_rfc3339(s) {
                Some(n) => {
                    time = Some(n);
                    t.timestamps.push((n, line_no, span));
                    Some(s.clone())
                }
                None => {
                    problem(
                        ProblemKind::Timestamp,
                        format!("timestamp \"{s}\" is not RFC 3339"),
                    );
                    Some(s.clone())
                }
            },
            Some(other) => {
                problem(
                    ProblemKind::Timestamp,
                    format!("timestamp is {}, not an RFC 3339 string", json_type(other)),
                );
                None
            }
        };
        let kind = record.get("type").and_then(Value::as_str).unwrap_or("");
        let refer = |id: &str, tool: Tool, t: &mut Transcript| t.refer(id, tool, line_no, span);
        match kind {
            // Codex rollout records.
            "session_meta" => {
                match record
                    .get("payload")
                    .and_then(|p| p.get("id"))
                    .and_then(Value::as_str)
                {
                    Some(id) if !id.is_empty() => {
                        codex_session = Some(id.to_string());
                        refer(id, Tool::Codex, &mut t);
                    }
                    _ => t.problems.push(Problem {
                        kind: ProblemKind::Record,
                        line: line_no,
                        span,
                        message: "session_meta has no payload.id".to_string(),
                    }),
                }
            }
            "response_item" => {
                let Some(session) = codex_session.clone() else {
                    t.problems.push(Problem {
                        kind: ProblemKind::Record,
                        line: line_no,
                        span,
                        message: "response_item before any session_meta".to_string(),
                    });
                    continue;
                };
                match codex_turn(record.get("payload")) {
                    Ok(Some((role, text, own_text))) => t.turns.push(Turn {
                        session,
                        ordinal: 0,
                        role,
                        timestamp,
                        time,
                        text,
                        own_text,
                        line: line_no,
                    }),
                    Ok(None) => {}
                    Err(message) => t.problems.push(Problem {
                        kind: ProblemKind::Record,
                        line: line_no,
                        span,
                        message,
                    }),
                }
            }
            // Claude Code records.
            _ => {
                let session = match record.get("sessionId") {
                    Some(Value::String(s)) if !s.is_empty() => {
                        refer(s, Tool::ClaudeCode, &mut t);
                        Some(s.clone())
                    }
                    None => None,
                    Some(_) => {
                        t.problems.push(Problem {
                            kind: ProblemKind::Record,
                            line: line_no,
                            span,
                            message: "sessionId is not a non-empty string".to_string(),
                        });
                        continue;
                    }
                };
                if !matches!(kind, "user" | "assistant") {
                    continue; // kept, but not a turn
                }
                let Some(session) = session else {
                    t.problems.push(Problem {
                        kind: ProblemKind::Record,
                        line: line_no,
                        span,
                        message: format!("a {kind} record has no sessionId"),
                    });
                    continue;
                };
                match claude_turn(kind, &record) {
                    Ok((role, text, own_text)) => t.turns.push(Turn {
                        session,
                        ordinal: 0,
                        role,
                        timestamp,
                        time,
                        text,
                        own_text,
                        line: line_no,
                    }),
                    Err(message) => t.problems.push(Problem {
                        kind: ProblemKind::Record,
                        line: line_no,
                        span,
                        message,
                    }),
                }
            }
        }
    }
    t
}

/// A Claude Code text turn read straight into borrowed fields.
struct FastTurn<'a> {
    role: Role,
    session: std::borrow::Cow<'a, str>,
    timestamp: std::borrow::Cow<'a, str>,
    text: String,
}

#[derive(serde::Deserialize)]
struct FastRecord<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
    #[serde(rename = "sessionId", borrow)]
    session: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    timestamp: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    message: Option<FastMessage<'a>>,
}

#[derive(serde::Deserialize)]
struct FastMessage<'a> {
    #[serde(borrow)]
    content: FastContent<'a>,
}

/// `content`: a string, or a list of blocks.
enum FastContent<'a> {
    Text(std::borrow::Cow<'a, str>),
    Blocks(Vec<FastBlock<'a>>),
}

#[derive(serde::Deserialize)]
struct FastBlock<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    text: Option<std::borrow::Cow<'a, str>>,
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for FastContent<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for V<'a> {
            type Value = FastContent<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or a list of blocks")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(FastContent::Text(std::borrow::Cow::Borrowed(s)))
            }
            fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
                Ok(FastContent::Text(std::borrow::Cow::Owned(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
                Ok(FastContent::Text(std::borrow::Cow::Owned(s.to_string())))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let mut blocks = Vec::new();
                while let Some(b) = seq.next_element()? {
                    blocks.push(b);
                }
                Ok(FastContent::Blocks(blocks))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// The fast reading of a line, when it is a plain Claude Code text turn whose every field the
/// general path would read the same way: `type` user or assistant, a non-empty `sessionId`, a
/// `timestamp` string, and `message.content` a string or `text`/`thinking` blocks each with
/// its text. `None` sends the line the general way (which also reports every problem).
fn fast_turn(line: &str) -> Option<FastTurn<'_>> {
    let r: FastRecord<'_> = serde_json::from_str(line).ok()?;
    let role = match r.kind.as_ref() {
        "user" => Role::User,
        "assistant" => Role::Assistant,
        _ => return None,
    };
    let session = r.session.filter(|s| !s.is_empty())?;
    let timestamp = r.timestamp?;
    let text = match r.message?.content {
        FastContent::Text(s) => s.into_owned(),
        FastContent::Blocks(blocks) => {
            let mut parts: Vec<std::borrow::Cow<'_, str>> = Vec::with_capacity(blocks.len());
            for b in blocks {
                match (b.kind.as_ref(), b.text) {
                    ("text", Some(t)) => parts.push(t),
                    ("thinking", _) => {}
                    _ => return None,
                }
            }
            parts.join("\n")
        }
    };
    Some(FastTurn {
        role,
        session,
        timestamp,
        text,
    })
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

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

type TurnText = (Role, String, String);

/// A Claude Code `user`/`assistant` record: `message.content` a string or a list of `text`,
/// `tool_use`, `tool_result` and `thinking` blocks. Thinking is not sent.
fn claude_turn(kind: &str, record: &Map<String, Value>) -> Result<TurnText, String> {
    let base = if kind == "user" {
        Role::User
    } else {
        Role::Assistant
    };
    let content = record
        .get("message")
        .and_then(|m| m.get("content"))
        .ok_or_else(|| format!("a {kind} record has no message.content"))?;
    let blocks = match content {
        Value::String(s) => return Ok((base, s.clone(), s.clone())),
        Value::Array(blocks) => blocks,
        other => {
            return Err(format!(
                "message.content is {}, not a string or a list of blocks",
                json_type(other)
            ));
        }
    };
    let mut text = Vec::new();
    let mut own = Vec::new();
    let mut results = 0;
    for block in blocks {
        let btype = block.get("type").and_then(Value::as_str).unwrap_or("");
        match btype {
            "text" => {
                let s = block
                    .get("text")
                    .and_then(Value::as_str)
                    .ok_or("a text block has no text")?;
                text.push(s.to_string());
                own.push(s.to_string());
            }
            "tool_use" => {
                let name = block
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or("a tool_use block has no name")?;
                let input = block.get("input").cloned().unwrap_or(Value::Null);
                let s = format!("[tool call {name}] {input}");
                text.push(s.clone());
                own.push(s);
            }
            "tool_result" => {
                results += 1;
                let out = match block.get("content") {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Array(parts)) => parts
                        .iter()
                        .filter_map(|p| p.get("text").and_then(Value::as_str))
                        .collect::<Vec<_>>()
                        .join("\n"),
                    Some(other) => {
                        return Err(format!(
                            "a tool_result block's content is {}",
                            json_type(other)
                        ));
                    }
                };
                text.push(format!("[tool output] {out}"));
            }
            "thinking" => {}
            "" => return Err("a content block has no type".to_string()),
            other => {
                return Err(format!(
                    "unknown content block type \"{other}\" (text, tool_use, tool_result or thinking)"
                ));
            }
        }
    }
    let role = if results > 0 && results == blocks.len() {
        Role::Tool
    } else {
        base
    };
    Ok((role, text.join("\n"), own.join("\n")))
}

/// A Codex `response_item` payload: `message` (user or assistant), `function_call` and
/// `function_call_output` are turns; other items and roles are kept but are not.
fn codex_turn(payload: Option<&Value>) -> Result<Option<TurnText>, String> {
    let Some(Value::Object(p)) = payload else {
        return Err("response_item has no payload object".to_string());
    };
    let ptype = p.get("type").and_then(Value::as_str).unwrap_or("");
    match ptype {
        "message" => {
            let role = match p.get("role").and_then(Value::as_str) {
                Some("user") => Role::User,
                Some("assistant") => Role::Assistant,
                Some(_) => return Ok(None),
                None => return Err("a message item has no role".to_string()),
            };
            let blocks = match p.get("content") {
                Some(Value::Array(b)) => b,
                Some(Value::String(s)) => return Ok(Some((role, s.clone(), s.clone()))),
                _ => return Err("a message item has no content list".to_string()),
            };
            let mut parts = Vec::new();
            for b in blocks {
                match b.get("type").and_then(Value::as_str) {
                    Some("input_text" | "output_text" | "text") => {
                        let s = b
                            .get("text")
                            .and_then(Value::as_str)
                            .ok_or("a text block has no text")?;
                        parts.push(s.to_string());
                    }
                    Some(_) => {}
                    None => return Err("a content block has no type".to_string()),
                }
            }
            let s = parts.join("\n");
            Ok(Some((role, s.clone(), s)))
        }
        "function_call" => {
            let name = p
                .get("name")
                .and_then(Value::as_str)
                .ok_or("a function_call has no name")?;
            let args = match p.get("arguments") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => "null".to_string(),
            };
            let s = format!("[tool call {name}] {args}");
            Ok(Some((Role::Assistant, s.clone(), s)))
        }
        "function_call_output" => {
            let out = match p.get("output") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Object(o)) => match o.get("output") {
                    Some(Value::String(s)) => s.clone(),
                    _ => Value::Object(o.clone()).to_string(),
                },
                Some(other) => other.to_string(),
                None => String::new(),
            };
            Ok(Some((
                Role::Tool,
                format!("[tool output] {out}"),
                String::new(),
            )))
        }
        "" => Err("response_item payload has no type".to_string()),
        _ => Ok(None),
    }
}

/// Numbers the turns of several files: ordinal 1 is a session's first turn, in file order
/// (files in the order given).
pub fn number_turns<'a>(transcripts: impl IntoIterator<Item = &'a Transcript>) -> Vec<Turn> {
    let mut next: std::collections::HashMap<String, usize> = Default::default();
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
mod tests {
    use super::*;

    const CLAUDE: &str = r#"{"synthetic": true}
{"type": "user", "sessionId": "s1", "timestamp": "2026-11-01T10:00:00.000Z", "message": {"role": "user", "content": "Use SQLite?"}}
{"type": "assistant", "sessionId": "s1", "timestamp": "2026-11-01T10:00:20.000Z", "message": {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "Yes."}, {"type": "tool_use", "name": "Bash", "input": {"command": "ls"}}]}}
{"type": "user", "sessionId": "s1", "timestamp": "2026-11-01T10:00:30.000Z", "message": {"role": "user", "content": [{"type": "tool_result", "content": [{"type": "text", "text": "a.db"}]}]}}
{"type": "summary", "summary": "x"}
"#;

    #[test]
    fn claude_code_turns() {
        let t = parse("t.jsonl", CLAUDE);
        assert!(t.marker);
        assert!(t.problems.is_empty(), "{:?}", t.problems);
        assert_eq!(t.turns.len(), 3);
        assert_eq!(
            t.turns[1].text,
            "Yes.\n[tool call Bash] {\"command\":\"ls\"}"
        );
        assert_eq!(t.turns[1].role, Role::Assistant);
        assert_eq!(t.turns[2].role, Role::Tool);
        assert_eq!(t.turns[2].text, "[tool output] a.db");
        assert_eq!(t.turns[2].own_text, "", "tool output is not own text");
        assert_eq!(t.timestamps.len(), 3);
        assert_eq!(t.sessions.len(), 1);
        let n = number_turns(&[t]);
        assert_eq!(
            n.iter().map(|t| t.ordinal).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
    }

    #[test]
    fn codex_rollout_turns() {
        let text = r#"{"synthetic": true}
{"timestamp": "2026-11-01T09:00:00Z", "type": "session_meta", "payload": {"id": "cx-1", "cwd": "/w"}}
{"timestamp": "2026-11-01T09:00:01Z", "type": "turn_context", "payload": {}}
{"timestamp": "2026-11-01T09:00:02Z", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Pick a queue."}]}}
{"timestamp": "2026-11-01T09:00:03Z", "type": "response_item", "payload": {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "sandbox"}]}}
{"timestamp": "2026-11-01T09:00:04Z", "type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{\"cmd\":\"ls\"}"}}
{"timestamp": "2026-11-01T09:00:05Z", "type": "response_item", "payload": {"type": "function_call_output", "output": "queue.rs"}}
{"timestamp": "2026-11-01T09:00:06Z", "type": "event_msg", "payload": {"type": "token_count"}}
{"timestamp": "2026-11-01T09:00:07Z", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Use a channel."}]}}
"#;
        let t = parse("c.jsonl", text);
        assert!(t.problems.is_empty(), "{:?}", t.problems);
        assert_eq!(t.sessions[0].tool, Tool::Codex);
        let roles: Vec<Role> = t.turns.iter().map(|t| t.role).collect();
        assert_eq!(
            roles,
            vec![Role::User, Role::Assistant, Role::Tool, Role::Assistant]
        );
        assert_eq!(t.turns[1].text, "[tool call shell] {\"cmd\":\"ls\"}");
        assert!(t.turns.iter().all(|t| t.session == "cx-1"));
    }

    #[test]
    fn a_missing_marker_is_one_problem_and_the_records_still_count() {
        let text = CLAUDE.split_once('\n').unwrap().1;
        let t = parse("t.jsonl", text);
        assert!(!t.marker);
        assert_eq!(t.problems.len(), 1);
        assert_eq!(t.problems[0].kind, ProblemKind::Marker);
        assert_eq!(t.turns.len(), 3, "the first line is still a record");
    }

    #[test]
    fn hostile_lines_are_problems_not_crashes() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let huge = format!("{{\"x\": \"{}\"", "a".repeat(1 << 20));
        let text = format!(
            "{MARKER}\n{deep}\n{huge}\n[1]\nnot json\n{{\"type\": \"user\", \"message\": {{\"content\": 3}}, \"sessionId\": \"s\"}}\n{{\"timestamp\": \"soon\"}}\n{{\"type\": \"response_item\", \"payload\": {{}}}}\n"
        );
        let t = parse("t.jsonl", &text);
        let msgs: Vec<(usize, &str)> = t
            .problems
            .iter()
            .map(|p| (p.line, p.message.as_str()))
            .collect();
        assert_eq!(msgs.len(), 7, "{msgs:?}");
        assert!(msgs[0].1.starts_with("not JSON: recursion limit exceeded"));
        assert_eq!(msgs[0].0, 2);
        assert!(msgs[1].1.starts_with("not JSON: EOF while parsing"));
        assert_eq!(msgs[2].1, "not a JSON object");
        assert!(msgs[3].1.starts_with("not JSON: expected"));
        assert_eq!(
            msgs[4].1,
            "message.content is a number, not a string or a list of blocks"
        );
        assert_eq!(msgs[5].1, "timestamp \"soon\" is not RFC 3339");
        assert_eq!(msgs[6].1, "response_item before any session_meta");
        assert!(t.has_unreadable_lines());
    }

    #[test]
    fn unknown_blocks_and_sessionless_turns_are_caught() {
        let text = format!(
            "{MARKER}\n{}\n{}\n",
            r#"{"type": "user", "message": {"content": "hi"}}"#,
            r#"{"type": "user", "sessionId": "s", "message": {"content": [{"type": "image"}]}}"#
        );
        let t = parse("t.jsonl", &text);
        assert_eq!(t.problems.len(), 2);
        assert_eq!(t.problems[0].message, "a user record has no sessionId");
        assert!(
            t.problems[1]
                .message
                .starts_with("unknown content block type \"image\"")
        );
        assert!(t.turns.is_empty());
    }

    #[test]
    fn the_fast_reading_agrees_with_the_general_one() {
        let lines = [
            r#"{"type": "user", "sessionId": "s", "timestamp": "2026-11-01T10:00:00Z", "message": {"content": "plain"}}"#,
            r#"{"type": "assistant", "sessionId": "s", "timestamp": "2026-11-01T10:00:01Z", "message": {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "a\nb \u00e9 \"q\""}, {"type": "text", "text": "c"}]}}"#,
            r#"{"type": "assistant", "sessionId": "s", "timestamp": "later", "message": {"content": [{"type": "tool_use", "name": "sh", "input": {"cmd": "ls"}}]}}"#,
            r#"{"type": "user", "sessionId": "s", "timestamp": "2026-11-01T10:00:02Z", "message": {"content": [{"type": "tool_result", "content": "out"}]}}"#,
            r#"{"type": "user", "sessionId": null, "timestamp": "2026-11-01T10:00:03Z", "message": {"content": "x"}}"#,
            r#"{"type": "user", "sessionId": "", "timestamp": "2026-11-01T10:00:03Z", "message": {"content": "x"}}"#,
            r#"{"type": "user", "sessionId": "s", "sessionId": "t", "timestamp": "2026-11-01T10:00:04Z", "message": {"content": "dup"}}"#,
            r#"{"type": "user", "sessionId": "s", "timestamp": 5, "message": {"content": "x"}}"#,
            r#"{"type": "user", "sessionId": "s", "message": {"content": "no time"}}"#,
            r#"{"type": "user", "sessionId": "s", "timestamp": "2026-11-01T10:00:05Z", "message": {"content": [{"type": "text"}]}}"#,
            r#"{"type": "summary", "sessionId": "s", "timestamp": "2026-11-01T10:00:06Z"}"#,
            r#"{"type": 3, "sessionId": "s", "timestamp": "2026-11-01T10:00:07Z", "message": {"content": "x"}}"#,
        ];
        let text = format!("{MARKER}\n{}\n", lines.join("\n"));
        let fast = parse_with("t.jsonl", &text, true);
        let slow = parse_with("t.jsonl", &text, false);
        assert_eq!(fast.turns, slow.turns);
        assert_eq!(fast.problems, slow.problems);
        assert_eq!(fast.timestamps, slow.timestamps);
        assert_eq!(fast.sessions, slow.sessions);
        assert!(
            fast_turn(lines[0]).is_some() && fast_turn(lines[1]).is_some(),
            "the fast path is taken"
        );
        assert!(
            fast_turn(lines[2]).is_none(),
            "control: a tool call goes the general way"
        );
    }
}
