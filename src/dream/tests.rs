//! The engine, end to end, with in-memory notes and scripted models.

use super::notes::MemoryNotes;
use super::responder::{Model, StandIn};
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
        own_text: (role == Role::Tool).then(String::new),
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

mod review;

#[test]
fn prompts_are_watched_as_sent_and_kept_only_when_asked() {
    let p = pass(&["sessions", "notes", "turns"], false);
    let long = "y".repeat(400);
    let mk = |id: &str, minute| {
        session(
            id,
            &["notes/Decision log.md"],
            vec![t(id, 1, Role::User, minute, &long)],
        )
    };
    let sessions = vec![mk("a", 0), mk("b", 1)];
    let kept = run(
        &p,
        &sessions,
        &mut notes(),
        &StandIn::model("[]"),
        &StandIn::reviewer("confirm"),
    );
    for keep in [false, true] {
        let mut seen = Vec::new();
        let watch = Watch {
            prompt: &mut |p| seen.push(p.len()),
            keep,
        };
        let models = (
            &StandIn::model("[]") as &dyn Model,
            &StandIn::reviewer("confirm") as &dyn Model,
        );
        let out = run_watched(&p, &sessions, &mut notes(), models, watch);
        assert_eq!(out.counts, kept.counts);
        let lens: Vec<usize> = kept.prompts.iter().map(String::len).collect();
        assert_eq!(seen, lens, "the watch sees every prompt, as sent");
        // Control: kept only when asked.
        assert_eq!(out.prompts.len(), if keep { lens.len() } else { 0 });
    }
}
