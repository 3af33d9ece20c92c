//! Turns from records: what the model reads of a Claude Code `user`/`assistant` record or a
//! Codex `response_item`, or why the record has the wrong shape.

use super::record::{Block, Content, Payload, Scalar, article, json_type};
use serde_json::Value;
use std::borrow::Cow;

/// Who speaks in a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Role {
    User,
    Assistant,
    /// A turn whose blocks are all tool results (or a Codex `function_call_output`).
    Tool,
}

impl Role {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

/// A turn's role, its text and its own text (without tool output).
pub(super) type TurnText = (Role, String, String);

/// A Claude Code `user`/`assistant` record: `message.content` a string or a list of `text`,
/// `tool_use`, `tool_result` and `thinking` blocks. Thinking is not sent.
pub(super) fn claude_turn(kind: &str, content: Option<Content<'_>>) -> Result<TurnText, String> {
    let base = if kind == "user" {
        Role::User
    } else {
        Role::Assistant
    };
    let blocks = match content {
        None => {
            return Err(format!(
                "{} {kind} record has no message.content",
                article(kind)
            ));
        }
        Some(Content::Text(s)) => {
            let s = s.into_owned();
            return Ok((base, s.clone(), s));
        }
        Some(Content::Blocks(blocks)) => blocks,
        Some(Content::Other(type_name)) => {
            return Err(format!(
                "message.content is {type_name}, not a string or a list of blocks"
            ));
        }
    };
    // Each part, and whether it is tool output (not the speaker's own text).
    let mut parts: Vec<(Cow<'_, str>, bool)> = Vec::with_capacity(blocks.len());
    let count = blocks.len();
    for block in blocks {
        match block.kind.as_str().unwrap_or("") {
            "text" => match block.text {
                Scalar::Str(s) => parts.push((s, false)),
                _ => return Err("a text block has no text".to_string()),
            },
            "tool_use" => {
                let name = block.name.as_str().ok_or("a tool_use block has no name")?;
                let input = block.input.as_ref().unwrap_or(&Value::Null);
                parts.push((Cow::Owned(format!("[tool call {name}] {input}")), false));
            }
            "tool_result" => {
                let out = tool_output(&block)?;
                parts.push((Cow::Owned(format!("[tool output] {out}")), true));
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
    let results = parts.iter().filter(|(_, output)| *output).count();
    let role = if results > 0 && results == count {
        Role::Tool
    } else {
        base
    };
    let text = join(parts.iter().map(|(s, _)| s.as_ref()));
    let own = if results == 0 {
        text.clone()
    } else {
        join(
            parts
                .iter()
                .filter(|(_, output)| !output)
                .map(|(s, _)| s.as_ref()),
        )
    };
    Ok((role, text, own))
}

/// Parts one per line.
fn join<'s>(parts: impl Iterator<Item = &'s str>) -> String {
    let mut out = String::new();
    for (i, p) in parts.enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(p);
    }
    out
}

/// A `tool_result` block's content: a string, or the texts of a list of parts.
fn tool_output(block: &Block<'_>) -> Result<String, String> {
    Ok(match &block.content {
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
    })
}

/// A Codex `response_item` payload: `message` (user or assistant), `function_call` and
/// `function_call_output` are turns; other items and roles are kept but are not.
pub(super) fn codex_turn(payload: Option<Payload<'_>>) -> Result<Option<TurnText>, String> {
    let Some(p) = payload else {
        return Err("response_item has no payload object".to_string());
    };
    match p.kind.as_str().unwrap_or("") {
        "message" => codex_message(p),
        "function_call" => {
            let name = p.name.as_str().ok_or("a function_call has no name")?;
            let args = match p.arguments {
                Some(Value::String(s)) => s,
                Some(other) => other.to_string(),
                None => "null".to_string(),
            };
            let s = format!("[tool call {name}] {args}");
            Ok(Some((Role::Assistant, s.clone(), s)))
        }
        "function_call_output" => {
            let out = match p.output {
                Some(Value::String(s)) => s,
                Some(Value::Object(o)) => match o.get("output") {
                    Some(Value::String(s)) => s.clone(),
                    _ => Value::Object(o).to_string(),
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

/// A Codex `message` item: its text blocks, one per line; roles other than user and assistant
/// (`developer`, `system`) are not turns.
fn codex_message(p: Payload<'_>) -> Result<Option<TurnText>, String> {
    let role = match p.role.as_str() {
        Some("user") => Role::User,
        Some("assistant") => Role::Assistant,
        Some(_) => return Ok(None),
        None => return Err("a message item has no role".to_string()),
    };
    let blocks = match p.content {
        Some(Content::Blocks(b)) => b,
        Some(Content::Text(s)) => {
            let s = s.into_owned();
            return Ok(Some((role, s.clone(), s)));
        }
        _ => return Err("a message item has no content list".to_string()),
    };
    let mut parts: Vec<Cow<'_, str>> = Vec::with_capacity(blocks.len());
    for b in blocks {
        match b.kind.as_str() {
            Some("input_text" | "output_text" | "text") => match b.text {
                Scalar::Str(s) => parts.push(s),
                _ => return Err("a text block has no text".to_string()),
            },
            Some(_) => {}
            None => return Err("a content block has no type".to_string()),
        }
    }
    let s = parts.join("\n");
    Ok(Some((role, s.clone(), s)))
}
