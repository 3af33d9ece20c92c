//! The transcript reader on both formats, hostile lines, and records of every shape.

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
    assert_eq!(t.turns[2].own_text(), "", "tool output is not own text");
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
    assert!(t.turns.iter().all(|t| &*t.session == "cx-1"));
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
fn an_image_is_a_block_and_sessionless_turns_are_caught() {
    let text = format!(
        "{MARKER}\n{}\n{}\n",
        r#"{"type": "user", "message": {"content": "hi"}}"#,
        r#"{"type": "user", "sessionId": "s", "message": {"content": [{"type": "image"}]}}"#
    );
    let t = parse("t.jsonl", &text);
    // An image is a block like any other (it gives no text); the first record has no session.
    assert_eq!(t.problems.len(), 1);
    assert_eq!(t.problems[0].message, "a user record has no sessionId");
    assert_eq!(t.turns.len(), 1);
    assert_eq!(t.turns[0].text, "");
}

/// Records of every shape, from line 2 on.
const SHAPES: [&str; 16] = [
    r#"{"type": "user", "sessionId": "s", "timestamp": "2026-11-01T10:00:00Z", "message": {"content": "plain"}}"#,
    r#"{"type": "assistant", "sessionId": "s", "timestamp": "2026-11-01T10:00:01Z", "message": {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "a\nb \u00e9 \"q\""}, {"type": "text", "text": "c"}]}}"#,
    r#"{"type": "assistant", "sessionId": "s", "timestamp": "later", "message": {"content": [{"type": "tool_use", "name": "sh", "input": {"z": 1, "cmd": "ls"}}]}}"#,
    r#"{"type": "user", "sessionId": "s", "timestamp": "2026-11-01T10:00:02Z", "message": {"content": [{"type": "tool_result", "content": "out"}]}}"#,
    r#"{"type": "user", "sessionId": null, "timestamp": "2026-11-01T10:00:03Z", "message": {"content": "x"}}"#,
    r#"{"type": "user", "sessionId": "", "timestamp": "2026-11-01T10:00:03Z", "message": {"content": "x"}}"#,
    r#"{"type": "user", "sessionId": "s", "sessionId": "t", "timestamp": "2026-11-01T10:00:04Z", "message": {"content": "dup"}}"#,
    r#"{"type": "user", "sessionId": "s", "timestamp": 5, "message": {"content": "x"}}"#,
    r#"{"type": "user", "sessionId": "s", "message": {"content": "no time"}}"#,
    r#"{"type": "user", "sessionId": "s", "timestamp": "2026-11-01T10:00:05Z", "message": {"content": [{"type": "text"}]}}"#,
    r#"{"type": "summary", "sessionId": "u", "timestamp": "2026-11-01T10:00:06Z"}"#,
    r#"{"type": 3, "sessionId": "v", "timestamp": "2026-11-01T10:00:07Z", "message": {"content": "x"}}"#,
    r#"{"type": "user", "sessionId": "s", "message": "just text"}"#,
    r#"{"type": "user", "sessionId": "s", "message": {"content": null}}"#,
    r#"{"type": "user", "sessionId": "s", "message": {"content": [{"type": "text", "text": "q"}, {"type": "tool_result", "content": [{"text": "r1"}, {"text": "r2"}]}]}}"#,
    r#"{"type": "user", "sessionId": "s", "message": {"content": [7]}}"#,
];

/// A turn's line, session, role, text, own text and timestamp.
type TurnRow<'a> = (usize, &'a str, Role, &'a str, &'a str, Option<&'a str>);

fn shapes() -> Transcript {
    parse("t.jsonl", &format!("{MARKER}\n{}\n", SHAPES.join("\n")))
}

#[test]
fn turns_of_every_shape() {
    let t = shapes();
    let turns: Vec<TurnRow<'_>> = t
        .turns
        .iter()
        .map(|u| {
            let ts = u.timestamp.as_deref();
            (
                u.line,
                &*u.session,
                u.role,
                u.text.as_str(),
                u.own_text(),
                ts,
            )
        })
        .collect();
    let at = Some("2026-11-01T10:00:00Z");
    let tool = "[tool call sh] {\"cmd\":\"ls\",\"z\":1}";
    assert_eq!(
        turns,
        vec![
            (2, "s", Role::User, "plain", "plain", at),
            (
                3,
                "s",
                Role::Assistant,
                "a\nb \u{e9} \"q\"\nc",
                "a\nb \u{e9} \"q\"\nc",
                Some("2026-11-01T10:00:01Z")
            ),
            (4, "s", Role::Assistant, tool, tool, Some("later")),
            (
                5,
                "s",
                Role::Tool,
                "[tool output] out",
                "",
                Some("2026-11-01T10:00:02Z")
            ),
            // Line 8 gives sessionId twice: a problem, not a turn.
            (9, "s", Role::User, "x", "x", None),
            (10, "s", Role::User, "no time", "no time", None),
            (16, "s", Role::User, "q\n[tool output] r1\nr2", "q", None),
        ]
    );
}

#[test]
fn problems_of_every_shape() {
    let t = shapes();
    let problems: Vec<(usize, ProblemKind, &str)> = t
        .problems
        .iter()
        .map(|p| (p.line, p.kind, p.message.as_str()))
        .collect();
    use ProblemKind::{Record, Timestamp};
    assert_eq!(
        problems,
        vec![
            (4, Timestamp, "timestamp \"later\" is not RFC 3339"),
            (6, Record, "sessionId is not a non-empty string"),
            (7, Record, "sessionId is not a non-empty string"),
            (8, Record, "key sessionId twice"),
            (
                9,
                Timestamp,
                "timestamp is a number, not an RFC 3339 string"
            ),
            (11, Record, "a text block has no text"),
            (14, Record, "a user record has no message.content"),
            (
                15,
                Record,
                "message.content is null, not a string or a list of blocks"
            ),
            (17, Record, "a content block without a type"),
        ]
    );
    let sessions: Vec<(&str, usize)> = t.sessions.iter().map(|s| (s.id.as_str(), s.line)).collect();
    assert_eq!(sessions, vec![("s", 2), ("u", 12), ("v", 13)]);
    assert_eq!(t.timestamps.len(), 8);
}

#[test]
fn nesting_past_the_limit_is_a_json_problem_where_the_reader_reads() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let text = format!(
        "{MARKER}\n{}\n{}\n{}\n",
        format_args!(
            r#"{{"type": "user", "sessionId": "s", "message": {{"content": [{{"type": "tool_use", "name": "sh", "input": {deep}}}]}}}}"#
        ),
        format_args!(
            r#"{{"type": "user", "sessionId": "s", "extra": {deep}, "message": {{"content": "skipped, not read"}}}}"#
        ),
        deep,
    );
    let t = parse("t.jsonl", &text);
    let problems: Vec<(usize, &str)> = t
        .problems
        .iter()
        .map(|p| (p.line, p.message.as_str()))
        .collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert_eq!(problems[0].0, 2);
    assert!(
        problems[0]
            .1
            .starts_with("not JSON: recursion limit exceeded")
    );
    assert_eq!(problems[1].0, 4);
    assert!(
        problems[1]
            .1
            .starts_with("not JSON: recursion limit exceeded")
    );
    assert_eq!(
        t.turns.len(),
        1,
        "a key the reader does not use is skipped, however deep"
    );
}

#[test]
fn the_lines_with_a_backslash_serde_json_refuses_are_known_to_the_decoder() {
    let text = concat!(
        "{\"synthetic\": true}\n",
        // A lone surrogate: not a record (serde_json refuses it in a string it reads), but JSON
        // a skipping parser accepts, so the decoder decodes it.
        "{\"type\": \"user\", \"sessionId\": \"s\", \"message\": {\"content\": \"\\ud800\"}}\n",
        "{\"broken\": \"\\n\",\n",
        "{\"type\": \"user\", \"sessionId\": \"s\", \"message\": {\"content\": \"a\\tb\"}}\n",
    );
    let t = parse("t.jsonl", text);
    assert_eq!(t.refused, [2]);
    assert!(t.accepts(1) && t.accepts(3));
    // Control: the line that is not JSON is refused.
    assert!(!t.accepts(2));
}
