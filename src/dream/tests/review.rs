//! The engine's review and validation steps, and hostile or failing models.

use super::*;

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
