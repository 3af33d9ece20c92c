//! The engine, end to end, with in-memory notes and scripted models.

use super::model::{Model, StandIn};
use super::notes::MemoryNotes;
use super::*;
use crate::model::prompt::CLOSING_INSTRUCTION;
use crate::model::time;
use crate::model::transcript::{self, Role, Tool, Turn};
use serde_json::json;
use std::sync::Mutex;

/// A model that answers each call with the next scripted reply (the last one repeats).
struct Script(Mutex<Vec<String>>);

impl Script {
    fn new(replies: &[String]) -> Self {
        let mut v = replies.to_vec();
        v.reverse();
        Script(Mutex::new(v))
    }
}

impl Model for Script {
    fn complete(&self, _prompt: &str) -> Result<String, String> {
        let mut v = self.0.lock().unwrap();
        if v.len() > 1 {
            Ok(v.pop().unwrap())
        } else {
            Ok(v.last().cloned().unwrap_or_default())
        }
    }
}

struct Failing;
impl Model for Failing {
    fn complete(&self, _prompt: &str) -> Result<String, String> {
        Err("timed out after 60 s".into())
    }
}

fn t(session: &str, ordinal: usize, role: Role, minute: u32, text: &str) -> Turn {
    let ts = format!("2026-11-01T10:{minute:02}:00Z");
    Turn {
        session: session.into(),
        ordinal,
        role,
        time: time::parse_rfc3339(&ts),
        timestamp: Some(ts),
        text: text.into(),
        own_text: if role == Role::Tool {
            String::new()
        } else {
            text.into()
        },
        line: ordinal + 1,
    }
}

fn session(id: &str, notes: &[&str], turns: Vec<Turn>) -> Session {
    Session {
        id: id.into(),
        tool: Tool::ClaudeCode,
        notes: notes.iter().map(|n| n.to_string()).collect(),
        handoff: format!("handoff of {id}"),
        turns,
    }
}

fn pass(reads: &[&str], per_note: bool) -> Pass {
    let body: String = reads
        .iter()
        .map(|r| format!("## {r}\n{{{{{r}}}}}\n"))
        .collect();
    Pass {
        name: "p".into(),
        prompt: format!("# P\n{body}\n{CLOSING_INSTRUCTION}\n"),
        persona: "## Role\nReject by default.\n".into(),
        reads: reads.iter().map(|r| r.to_string()).collect(),
        per_note,
        input_budget_bytes: 200_000,
        note_types: vec![],
        note_paths: vec![],
    }
}

fn proposal(note: &str, new: &str, session: &str, ordinal: usize) -> serde_json::Value {
    json!({"note": note, "kind": "append", "old": "", "new": new,
           "evidence": [{"session": session, "ordinal": ordinal}], "reason": "said so"})
}

fn reply(items: &[serde_json::Value]) -> String {
    serde_json::Value::Array(items.to_vec()).to_string()
}

fn notes() -> MemoryNotes {
    MemoryNotes::new([
        ("notes/Decision log.md", "# Decision log\n\n## Decisions\n"),
        (
            "notes/Meeting notes.md",
            "# Meeting notes\n- lantern festival\n",
        ),
        ("notes/Queue.md", "---\ntype: decision\n---\n# Queue"),
    ])
}

fn dl_session() -> Session {
    session(
        "s1",
        &["notes/Decision log.md", "notes/Meeting notes.md"],
        vec![
            t("s1", 1, Role::User, 0, "Where should the cache live?"),
            t("s1", 2, Role::Assistant, 1, "Decision: SQLite file."),
        ],
    )
}

#[test]
fn the_page_case_applies_one_change() {
    let mut p = pass(&["sessions", "notes", "turns"], true);
    p.note_paths = vec!["**/Decision log*.md".into(), "**/Decisions.md".into()];
    let mut n = notes();
    let r = reply(&[proposal(
        "notes/Decision log.md",
        "- cache: SQLite file",
        "s1",
        2,
    )]);
    let out = run(
        &p,
        &[dl_session()],
        &mut n,
        &StandIn::model(&r),
        &StandIn::reviewer("confirm"),
    );
    assert_eq!(
        out.counts,
        Counts {
            calls: 1,
            proposals: 1,
            confirmed: 1,
            applied: 1,
            ..Counts::default()
        }
    );
    assert_eq!(
        n.notes["notes/Decision log.md"],
        "# Decision log\n\n## Decisions\n- cache: SQLite file\n"
    );
    assert!(out.prompts[0].contains("--- notes/Decision log.md"));
    assert!(
        !out.prompts[0].contains("lantern festival"),
        "the filter kept the meeting notes out"
    );
    assert!(
        !n.reads.contains(&"notes/Meeting notes.md".to_string()),
        "a note note_paths leaves out is never read"
    );
    assert_eq!(out.review_prompts.len(), 1);
    assert!(
        out.review_prompts[0]
            .text
            .contains("## Role\nReject by default.")
    );
    assert!(
        out.review_prompts[0]
            .text
            .contains("<<<UNTRUSTED change>>>")
    );
    assert!(
        out.review_prompts[0]
            .text
            .contains("Decision: SQLite file.")
    );
}

#[test]
fn per_note_makes_one_call_per_candidate_note_in_path_order() {
    let p = pass(&["notes", "turns"], true);
    let mut n = notes();
    let out = run(
        &p,
        &[dl_session()],
        &mut n,
        &StandIn::model("[]"),
        &StandIn::reviewer("confirm"),
    );
    assert_eq!(out.counts.calls, 2);
    assert!(out.prompts[0].contains("--- notes/Decision log.md"));
    assert!(!out.prompts[0].contains("--- notes/Meeting notes.md"));
    assert!(out.prompts[1].contains("--- notes/Meeting notes.md"));
}

#[test]
fn two_sessions_on_one_note_share_its_call() {
    let p = pass(&["sessions", "notes", "turns"], true);
    let s2 = session(
        "s2",
        &["notes/Decision log.md"],
        vec![t("s2", 1, Role::User, 5, "Also: Redis was rejected.")],
    );
    let mut n = notes();
    n.notes.remove("notes/Meeting notes.md");
    let r = reply(&[
        proposal("notes/Decision log.md", "- cache: SQLite file", "s1", 2),
        proposal("notes/Decision log.md", "- rejected: Redis", "s2", 1),
    ]);
    let out = run(
        &p,
        &[s2.clone(), dl_session()],
        &mut n,
        &StandIn::model(&r),
        &StandIn::reviewer("confirm"),
    );
    assert_eq!(out.counts.calls, 1);
    assert_eq!(out.counts.applied, 2, "{:?}", out.events);
    let prompt = &out.prompts[0];
    let (a, b) = (
        prompt.find("\"id\":\"s1\"").unwrap(),
        prompt.find("\"id\":\"s2\"").unwrap(),
    );
    assert!(a < b, "sessions in order of first timestamp");
    assert!(
        n.notes["notes/Decision log.md"].ends_with("- cache: SQLite file\n- rejected: Redis\n")
    );
}

#[test]
fn note_types_keep_only_typed_notes() {
    let mut p = pass(&["notes"], true);
    p.note_types = vec!["decision".into()];
    let s = session(
        "s1",
        &["notes/Decision log.md", "notes/Queue.md"],
        vec![t("s1", 1, Role::User, 0, "q")],
    );
    let mut n = notes();
    let out = run(
        &p,
        &[s],
        &mut n,
        &StandIn::model("[]"),
        &StandIn::reviewer("confirm"),
    );
    assert_eq!(out.counts.calls, 1);
    assert!(out.prompts[0].contains("--- notes/Queue.md\n---\ntype: decision\n---\n# Queue"));
    assert!(!out.prompts[0].contains("Decision log"));
    p.note_types = vec!["policy".into()];
    let out = run(
        &p,
        &[dl_session()],
        &mut notes(),
        &StandIn::model("[]"),
        &StandIn::reviewer("confirm"),
    );
    assert_eq!(out.counts.calls, 0, "no candidate note, no call");
}

#[test]
fn human_confirmed_holds_only_what_people_wrote() {
    let p = pass(&["human_confirmed"], false);
    let s = session(
        "s1",
        &["notes/Decision log.md"],
        vec![
            t("s1", 1, Role::User, 0, "I decided: SQLite."),
            t("s1", 2, Role::Assistant, 1, "The assistant says Redis."),
            t("s1", 3, Role::Tool, 2, "[tool output] install redis"),
        ],
    );
    let out = run(
        &p,
        &[s],
        &mut notes(),
        &StandIn::model("[]"),
        &StandIn::reviewer("confirm"),
    );
    assert!(out.prompts[0].contains("I decided: SQLite."));
    assert!(!out.prompts[0].contains("Redis"));
    assert!(!out.prompts[0].contains("install redis"));
}

#[test]
fn per_chunk_calls_follow_the_budget() {
    let mut p = pass(&["sessions", "notes", "turns"], false);
    let long = "x".repeat(400);
    let mk = |id: &str, minute| {
        session(
            id,
            &["notes/Decision log.md"],
            vec![t(id, 1, Role::User, minute, &long)],
        )
    };
    let sessions = vec![mk("c", 2), mk("a", 0), mk("b", 1)];
    // Everything fits: one call with all three sessions.
    let out = run(
        &p,
        &sessions,
        &mut notes(),
        &StandIn::model("[]"),
        &StandIn::reviewer("confirm"),
    );
    assert_eq!(out.counts.calls, 1);
    // A budget that fits two sessions' turns but not three: chunks [a, b] and [c].
    let one = out.prompts[0].len() as u64;
    p.input_budget_bytes = one - 100;
    let out = run(
        &p,
        &sessions,
        &mut notes(),
        &StandIn::model("[]"),
        &StandIn::reviewer("confirm"),
    );
    assert_eq!(out.counts.calls, 2);
    assert!(out.prompts[0].contains("\"id\":\"a\"") && out.prompts[0].contains("\"id\":\"b\""));
    assert!(!out.prompts[0].contains("\"id\":\"c\""));
    assert!(out.prompts[1].contains("\"id\":\"c\""));
    assert!(out.prompts.iter().all(|p| p.len() as u64 <= one - 100));
}

#[test]
fn over_budget_drops_the_oldest_turns_and_skips_what_cannot_fit() {
    let mut p = pass(&["notes", "turns"], true);
    let s = session(
        "s1",
        &["notes/Decision log.md"],
        vec![
            t(
                "s1",
                1,
                Role::User,
                3,
                &format!("newest {}", "n".repeat(300)),
            ),
            t(
                "s1",
                2,
                Role::User,
                0,
                &format!("oldest {}", "o".repeat(300)),
            ),
            t(
                "s1",
                3,
                Role::User,
                2,
                &format!("middle {}", "m".repeat(300)),
            ),
        ],
    );
    let full = run(
        &p,
        std::slice::from_ref(&s),
        &mut notes(),
        &StandIn::model("[]"),
        &StandIn::reviewer("confirm"),
    );
    let size = full.prompts[0].len() as u64;
    p.input_budget_bytes = size - 200;
    let out = run(
        &p,
        std::slice::from_ref(&s),
        &mut notes(),
        &StandIn::model("[]"),
        &StandIn::reviewer("confirm"),
    );
    assert_eq!(out.counts.calls, 1);
    let prompt = &out.prompts[0];
    assert!(prompt.len() as u64 <= size - 200);
    assert!(!prompt.contains("oldest"), "the oldest turn went first");
    assert!(prompt.contains("newest") && prompt.contains("middle"));
    // Only the notes and the frame: no turn fits, the call is not made.
    p.input_budget_bytes = 300;
    let out = run(
        &p,
        &[s],
        &mut notes(),
        &StandIn::model("[]"),
        &StandIn::reviewer("confirm"),
    );
    assert_eq!(out.counts.calls, 0);
    assert_eq!(out.counts.skipped_calls, 1);
    assert!(out.prompts.is_empty());
}

#[test]
fn a_rejecting_reviewer_writes_nothing() {
    let p = pass(&["notes", "turns"], true);
    let mut n = notes();
    let before = n.notes.clone();
    let r = reply(&[proposal(
        "notes/Decision log.md",
        "- cache: SQLite",
        "s1",
        2,
    )]);
    let out = run(
        &p,
        &[dl_session()],
        &mut n,
        &StandIn::model(&r),
        &StandIn::reviewer("reject"),
    );
    assert_eq!(out.counts.proposals, 1);
    assert_eq!(out.counts.rejected, 1);
    assert_eq!(out.counts.applied, 0);
    assert_eq!(n.notes, before);
    // A reviewer that answers something else rejects too.
    let out = run(
        &p,
        &[dl_session()],
        &mut n,
        &StandIn::model(&r),
        &Script::new(&["Looks fine to me!".into()]),
    );
    assert_eq!(out.counts.rejected, 1);
    assert_eq!(n.notes, before);
}

#[test]
fn evidence_from_another_session_fails_validation() {
    let p = pass(&["notes", "turns"], true);
    let other = session(
        "s9",
        &["notes/Meeting notes.md"],
        vec![t("s9", 1, Role::User, 0, "x")],
    );
    let r = reply(&[proposal(
        "notes/Decision log.md",
        "- cache: SQLite",
        "s9",
        1,
    )]);
    let out = run(
        &p,
        &[dl_session(), other],
        &mut notes(),
        &StandIn::model(&r),
        &StandIn::reviewer("confirm"),
    );
    // Two calls (both notes); the reply cites s9 in the Decision log call (s9 is not one of its
    // sessions), and names the Decision log in the Meeting notes call (not its note).
    assert_eq!(out.counts.calls, 2);
    assert_eq!(out.counts.validation_failures, 2);
    assert_eq!(out.counts.proposals, 0);
    let whys: Vec<&str> = out
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Invalid { why, .. } => Some(why.as_str()),
            _ => None,
        })
        .collect();
    assert!(whys[0].starts_with("5: session s9"), "{whys:?}");
    assert!(whys[1].starts_with("3: "), "{whys:?}");
}

#[test]
fn later_calls_see_earlier_changes_and_repeats_fail() {
    // Two notes, one per call, and a reply proposing the same line for both.
    let p = pass(&["notes", "turns"], true);
    let same = "- cache: SQLite file";
    let r = reply(&[
        proposal("notes/Decision log.md", same, "s1", 2),
        proposal("notes/Meeting notes.md", same, "s1", 2),
    ]);
    let mut n = notes();
    let out = run(
        &p,
        &[dl_session()],
        &mut n,
        &StandIn::model(&r),
        &StandIn::reviewer("confirm"),
    );
    // Call 1 (Decision log): element 1 applied, element 2 names another note (rule 3).
    // Call 2 (Meeting notes): element 1 names another note; element 2 repeats call 1's text.
    assert_eq!(out.counts.proposals, 1);
    assert_eq!(out.counts.validation_failures, 3);
    assert_eq!(out.counts.applied, 1);
    assert!(out.prompts[1].contains("--- notes/Meeting notes.md"));
    // Per chunk: two chunks of the same note; the second prompt shows the first's change, and
    // proposing it again fails rule 4.
    let mut p = pass(&["notes", "turns"], false);
    let s2 = session(
        "s2",
        &["notes/Decision log.md"],
        vec![t("s2", 1, Role::User, 9, &"y".repeat(500))],
    );
    let r = reply(&[proposal("notes/Decision log.md", same, "s1", 2)]);
    let first = run(
        &p,
        &[dl_session(), s2.clone()],
        &mut notes(),
        &StandIn::model("[]"),
        &StandIn::reviewer("confirm"),
    );
    p.input_budget_bytes = first.prompts[0].len() as u64 - 10;
    let mut n = notes();
    let out = run(
        &p,
        &[dl_session(), s2],
        &mut n,
        &StandIn::model(&r),
        &StandIn::reviewer("confirm"),
    );
    assert_eq!(out.counts.calls, 2);
    assert!(
        out.prompts[1].contains(same),
        "the second chunk sees the change"
    );
    assert_eq!(out.counts.applied, 1);
    assert_eq!(out.counts.validation_failures, 1);
}

#[test]
fn a_codex_session_dreams_like_any_other() {
    let text = r#"{"synthetic": true}
{"timestamp": "2026-11-01T09:00:00Z", "type": "session_meta", "payload": {"id": "cx"}}
{"timestamp": "2026-11-01T09:00:02Z", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Pick a queue."}]}}
{"timestamp": "2026-11-01T09:00:04Z", "type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{\"cmd\":\"ls\"}"}}
{"timestamp": "2026-11-01T09:00:05Z", "type": "response_item", "payload": {"type": "function_call_output", "output": "see https://tool.example"}}
{"timestamp": "2026-11-01T09:00:07Z", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Decision: a channel."}]}}
"#;
    let parsed = transcript::parse("t.jsonl", text);
    let turns = transcript::number_turns(&[parsed]);
    let s = Session {
        id: "cx".into(),
        tool: Tool::Codex,
        notes: vec!["notes/Queue.md".into()],
        handoff: String::new(),
        turns,
    };
    let p = pass(&["sessions", "notes", "turns"], true);
    let r = reply(&[
        proposal("notes/Queue.md", "- queue: a channel", "cx", 4),
        proposal("notes/Queue.md", "- docs: https://tool.example", "cx", 3),
    ]);
    let mut n = notes();
    let out = run(
        &p,
        &[s],
        &mut n,
        &StandIn::model(&r),
        &StandIn::reviewer("confirm"),
    );
    assert!(out.prompts[0].contains(r#""tool":"codex""#));
    assert!(out.prompts[0].contains(r#""ordinal":3,"role":"tool""#));
    assert_eq!(out.counts.applied, 1);
    assert_eq!(
        out.counts.validation_failures, 1,
        "a URL only tool output shows"
    );
    assert!(
        n.notes["notes/Queue.md"].ends_with("# Queue\n- queue: a channel\n"),
        "a final newline first"
    );
}

#[test]
fn hostile_replies_are_validation_failures() {
    let p = pass(&["notes", "turns"], true);
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let huge = format!("[\"{}\"]", "a".repeat(3 << 20));
    let invisible = reply(&[proposal(
        "notes/Decision log.md",
        "- cache\u{E0041}\u{E0042}",
        "s1",
        2,
    )]);
    for (r, failures) in [
        ("Sure! Here is what I propose.".to_string(), 1),
        (deep, 1),
        (huge, 1),
        (format!("\u{FEFF}{}", reply(&[])), 1),
        (invisible, 1),
        ("{\"note\": \"notes/Decision log.md\"}".to_string(), 1),
        ("[1, \"x\", null]".to_string(), 3),
    ] {
        let mut n = notes();
        let before = n.notes.clone();
        let mut p = p.clone();
        p.note_paths = vec!["notes/Decision log.md".into()];
        let out = run(
            &p,
            &[dl_session()],
            &mut n,
            &StandIn::model(&r),
            &StandIn::reviewer("confirm"),
        );
        assert_eq!(
            out.counts.validation_failures,
            failures,
            "{}",
            &r[..r.len().min(40)]
        );
        assert_eq!(out.counts.applied, 0);
        assert_eq!(n.notes, before);
    }
}

#[test]
fn a_failing_model_is_an_error_not_a_crash() {
    let p = pass(&["notes"], true);
    let out = run(
        &p,
        &[dl_session()],
        &mut notes(),
        &Failing,
        &StandIn::reviewer("confirm"),
    );
    assert_eq!(out.counts.calls, 2);
    assert_eq!(
        out.errors()[0],
        "call 1: the model failed: timed out after 60 s"
    );
    let r = reply(&[proposal("notes/Decision log.md", "- x", "s1", 2)]);
    let out = run(
        &p,
        &[dl_session()],
        &mut notes(),
        &StandIn::model(&r),
        &Failing,
    );
    assert_eq!(out.counts.rejected, 1, "a reviewer that fails rejects");
    assert_eq!(out.errors().len(), 1);
}
