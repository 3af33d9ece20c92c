//! case.toml's rules on good and broken cases.

use super::*;
use crate::model::case::CaseDef;
use crate::model::transcript::Tool;
use crate::pack::PackKind;
use crate::pack::testing::text_pack;
const GOOD: &str = r#"protocol = "HIPPO_V1"
pass = "decision-log"
about = "x"

[[session]]
id = "decision-1"
notes = ["notes/Decision log.md"]
handoff = "see [[Decision log]]"

[model]
reply = '''[]'''
verdict = "reject"

[expect]
calls = 1
applied = 0
prompt_contains = ["Decision log"]

[[expect.note]]
path = "notes/Decision log.md"
contains = ["SQLite"]
"#;

fn run(case: &str) -> (Vec<CaseDef>, Vec<String>) {
    let pack = text_pack(
        PackKind::Pass,
        &[
            ("passes/decision-log.toml", ""),
            ("tests/c/case.toml", case),
            ("tests/c/notes/Decision log.md", "# Decision log\n"),
        ],
    );
    let mut out = Vec::new();
    let docs = Documents::read(&pack);
    check(&pack, &docs, &mut out);
    let cases = docs.cases;
    // In the order the output prints them (docs/ordering.md).
    crate::rules::sort(&mut out);
    let msgs = out
        .iter()
        .map(|d| format!("{} {}", d.rule.id, d.text("")))
        .collect();
    (cases, msgs)
}

#[test]
fn a_good_case_is_read_with_its_spans() {
    let (cases, msgs) = run(GOOD);
    assert!(msgs.is_empty(), "{msgs:?}");
    let c = &cases[0];
    assert!(c.parsed);
    assert_eq!(c.pass.as_deref(), Some("decision-log"));
    assert_eq!(c.verdict, "reject");
    assert_eq!(c.sessions[0].notes, vec!["notes/Decision log.md"]);
    assert_eq!(c.sessions[0].tool, Tool::ClaudeCode);
    let keys: Vec<_> = c.expect.counts.iter().map(|e| (e.key, e.value)).collect();
    assert_eq!(keys, vec![("calls", 1), ("applied", 0)]);
    let applied = &c.expect.counts[1];
    assert_eq!(&GOOD[applied.span.start..applied.span.end], "applied");
    let item = &c.expect.prompt_contains[0];
    assert_eq!(&GOOD[item.span.start..item.span.end], "\"Decision log\"");
    assert_eq!(c.expect.notes[0].contains[0].text, "SQLite");
}

#[test]
fn defaults() {
    let (cases, msgs) = run(&GOOD.replace("[model]\nreply = '''[]'''\nverdict = \"reject\"\n", ""));
    assert!(msgs.is_empty(), "{msgs:?}");
    assert_eq!(cases[0].reply, "[]");
    assert_eq!(cases[0].verdict, "confirm");
}

#[test]
fn every_bad_value_is_reported() {
    let bad = GOOD
        .replace(
            "verdict = \"reject\"",
            "verdict = \"maybe\"\ntemperature = 0.2",
        )
        .replace("pass = \"decision-log\"", "pass = \"nope\"\ncolour = 1")
        .replace("calls = 1", "calls = -1\nproposals = \"2\"")
        .replace("handoff =", "tool = \"cursor\"\nnotes2 = []\nhandoff =")
        .replace("contains = [\"SQLite\"]", "contains = \"SQLite\"\nsize = 1");
    let (cases, msgs) = run(&bad);
    assert_eq!(
        msgs,
        vec![
            "case-unknown-key tests/c/case.toml: unknown key colour",
            "case-unknown-key tests/c/case.toml: unknown key session.notes2",
            "case-unknown-key tests/c/case.toml: unknown key model.temperature",
            "case-unknown-key tests/c/case.toml: unknown key expect.note.size",
            "case-value tests/c/case.toml: pass: no pass named nope in this pack",
            "case-value tests/c/case.toml: session.tool: cursor is not claude-code or codex",
            "case-value tests/c/case.toml: model.verdict: maybe is not confirm or reject",
            "case-value tests/c/case.toml: expect.calls: must be a non-negative integer",
            "case-value tests/c/case.toml: expect.proposals: must be a non-negative integer",
            "case-value tests/c/case.toml: expect.note.contains: expected a list of strings, found a string",
        ]
    );
    assert!(!cases[0].parsed, "a session with a bad tool is not usable");
}

#[test]
fn notes_must_be_existing_notes_paths() {
    let bad = GOOD
        .replace(
            "notes = [\"notes/Decision log.md\"]",
            "notes = [\"notes/../pack.toml\", \"Decision log.md\", \"notes/Gone.md\"]",
        )
        .replace(
            "path = \"notes/Decision log.md\"",
            "path = \"notes/Other.md\"",
        );
    let (_, msgs) = run(&bad);
    assert_eq!(
        msgs,
        vec![
            "case-note tests/c/case.toml: session.notes: notes/../pack.toml is not a notes/<path>.md path without ..",
            "case-note tests/c/case.toml: session.notes: Decision log.md is not a notes/<path>.md path without ..",
            "case-note tests/c/case.toml: session.notes: notes/Gone.md does not exist in tests/c/notes/",
            "case-note tests/c/case.toml: expect.note.path: notes/Other.md does not exist in tests/c/notes/",
        ]
    );
}

#[test]
fn missing_keys_and_syntax() {
    let (_, msgs) = run("about = \"x\"\n");
    assert_eq!(
        msgs,
        vec![
            "case-missing-key tests/c/case.toml: missing key pass",
            "case-missing-key tests/c/case.toml: missing key protocol",
            "case-missing-key tests/c/case.toml: missing key session: a case needs at least one [[session]]",
        ]
    );
    let (cases, msgs) = run("protocol = \n");
    assert_eq!(msgs.len(), 1);
    assert!(
        msgs[0].starts_with("case-syntax tests/c/case.toml:1:"),
        "{msgs:?}"
    );
    assert!(!cases[0].parsed);
    let (_, msgs) = run(&GOOD.replace(
        "id = \"decision-1\"\n",
        "id = \"decision-1\"\n[[session]]\nid = \"decision-1\"\n",
    ));
    assert_eq!(
        msgs,
        vec!["case-value tests/c/case.toml: session.id: decision-1 is declared twice"]
    );
}
