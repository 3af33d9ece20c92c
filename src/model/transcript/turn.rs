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

/// A turn's role, its text and its own text (without tool output; `None`: the whole text).
pub(super) type TurnText = (Role, String, Option<String>);

/// The content block types of Anthropic's Messages API that a Claude Code record can hold, as
/// the published API types list them: the `type` of each block of `ContentBlock` (a reply's)
/// and `ContentBlockParam` (a request's) in the `anthropic` package on PyPI, version 2.16.0
/// (`anthropic/types/content_block.py`, `content_block_param.py`). Only [`TEXT_BLOCKS`] give
/// turn text; every other block, of these or of a later type, is accepted and gives none. The
/// reader needs no list (it accepts every type); the tests hold the fixture transcript of
/// `tests/fixtures/transcript-record/good-blocks/` to it, one block of each.
#[cfg(test)]
pub(crate) const BLOCK_TYPES: &[&str] = &[
    "text",
    "thinking",
    "redacted_thinking",
    "tool_use",
    "tool_result",
    "server_tool_use",
    "web_search_tool_result",
    "web_fetch_tool_result",
    "code_execution_tool_result",
    "bash_code_execution_tool_result",
    "text_editor_code_execution_tool_result",
    "tool_search_tool_result",
    "container_upload",
    "image",
    "document",
    "search_result",
];

/// The block types that give a turn its text (`thinking` gives none: it is not sent).
#[cfg(test)]
pub(crate) const TEXT_BLOCKS: &[&str] = &["text", "tool_use", "tool_result", "thinking"];

/// A Claude Code `user`/`assistant` record: `message.content` a string or a list of content
/// blocks. `text`, `tool_use` and `tool_result` blocks give the turn's text; thinking is not
/// sent, and every other block (an image, a document, a server tool's result, a type added
/// later) gives none. A block that is not an object with a string `type` is the record's
/// problem.
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
            return Ok((base, s.into_owned(), None));
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
    for block in blocks {
        let Some(kind) = block.kind.as_str() else {
            return Err(NO_TYPE.to_string());
        };
        match kind {
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
            // Thinking, an image, a document, a server tool's blocks, a later type: no text.
            _ => {}
        }
    }
    let results = parts.iter().filter(|(_, output)| *output).count();
    let role = if results > 0 && results == parts.len() {
        Role::Tool
    } else {
        base
    };
    let text = join(parts.iter().map(|(s, _)| s.as_ref()));
    let own = (results > 0).then(|| {
        join(
            parts
                .iter()
                .filter(|(_, output)| !output)
                .map(|(s, _)| s.as_ref()),
        )
    });
    Ok((role, text, own))
}

/// A content block that is not an object with a string `type`.
const NO_TYPE: &str = "a content block without a type";

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
pub(super) fn codex_turn(payload: Option<Box<Payload<'_>>>) -> Result<Option<TurnText>, String> {
    let Some(p) = payload.map(|p| *p) else {
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
            Ok(Some((Role::Assistant, s, None)))
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
                Some(String::new()),
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
            return Ok(Some((role, s.into_owned(), None)));
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
            None => return Err(NO_TYPE.to_string()),
        }
    }
    Ok(Some((role, parts.join("\n"), None)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::transcript::{MARKER, parse};

    /// One record of each block type of [`BLOCK_TYPES`], as the fixture of
    /// `tests/fixtures/transcript-record/good-blocks/` appends them to a transcript.
    const EVERY_BLOCK: &str =
        include_str!("../../../tests/fixtures/transcript-record/good-blocks/every-block.jsonl");

    /// The turn text each block type gives, in the fixture's order.
    const TEXTS: &[(&str, &str)] = &[
        ("text", "I will look at the cache settings first."),
        ("thinking", ""),
        ("redacted_thinking", ""),
        ("tool_use", "[tool call Bash] {\"command\":\"ls config\"}"),
        ("tool_result", "[tool output] cache.toml"),
        ("server_tool_use", ""),
        ("web_search_tool_result", ""),
        ("web_fetch_tool_result", ""),
        ("code_execution_tool_result", ""),
        ("bash_code_execution_tool_result", ""),
        ("text_editor_code_execution_tool_result", ""),
        ("tool_search_tool_result", ""),
        ("container_upload", ""),
        ("image", ""),
        ("document", ""),
        ("search_result", ""),
    ];

    #[test]
    fn every_block_type_is_accepted_and_gives_its_turn_text() {
        let t = parse("t.jsonl", &format!("{MARKER}\n{EVERY_BLOCK}"));
        assert!(t.problems.is_empty(), "{:?}", t.problems);
        // The fixture holds one block of each listed type, in the list's order.
        let kinds: Vec<&str> = EVERY_BLOCK
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                let kind = v["message"]["content"][0]["type"].as_str().unwrap();
                BLOCK_TYPES.iter().copied().find(|k| *k == kind).unwrap()
            })
            .collect();
        assert_eq!(kinds, BLOCK_TYPES);
        assert_eq!(TEXTS.iter().map(|p| p.0).collect::<Vec<_>>(), BLOCK_TYPES);
        let texts: Vec<(&str, &str)> = kinds
            .iter()
            .zip(&t.turns)
            .map(|(k, turn)| (*k, turn.text.as_str()))
            .collect();
        assert_eq!(texts, TEXTS);
        assert!(TEXT_BLOCKS.iter().all(|k| BLOCK_TYPES.contains(k)));
        // The tool result's turn is the tool's; an image's is the user's own.
        assert_eq!(t.turns[4].role, Role::Tool);
        assert_eq!(t.turns[13].role, Role::User);
    }

    #[test]
    fn a_later_block_type_is_accepted_and_one_without_a_type_is_not() {
        let later = r#"{"type": "user", "sessionId": "s", "message": {"content": [{"type": "hologram", "data": "x"}, {"type": "text", "text": "kept"}]}}"#;
        let t = parse("t.jsonl", &format!("{MARKER}\n{later}\n"));
        assert!(t.problems.is_empty(), "{:?}", t.problems);
        assert_eq!(t.turns[0].text, "kept");
        for block in [
            r#"{"source": {}}"#,
            r#"{"type": 7}"#,
            r#"{"type": null}"#,
            "7",
            "\"image\"",
            "[]",
        ] {
            let line = format!(
                r#"{{"type": "user", "sessionId": "s", "message": {{"content": [{block}]}}}}"#
            );
            let t = parse("t.jsonl", &format!("{MARKER}\n{line}\n"));
            let got: Vec<&str> = t.problems.iter().map(|p| p.message.as_str()).collect();
            assert_eq!(got, ["a content block without a type"], "{block}");
        }
    }
}
