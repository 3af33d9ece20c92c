//! Fidelity to hippo's page "Writing a pack" where a quick reading of it misleads: Codex
//! sessions, URLs under tests/, spans near 23 hours, headings in code fences, descriptions'
//! ends, "an" before an assistant record. Each test runs `check` over a variant of the page's good pack, with a control.

use crate::common;

use std::path::{Path, PathBuf};

fn pack(dir: &Path) -> PathBuf {
    common::copy_pack("decision-log", dir, "decision-log")
}

/// Rewrites the file at `path` with `f`; panics when `f` leaves it as it was (a replacement whose
/// text is not in the file), so no test runs on the unchanged good pack believing it edited it.
fn edit(path: &Path, f: impl FnOnce(String) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    let edited = f(text.clone());
    assert_ne!(edited, text, "{}: the edit changed nothing", path.display());
    std::fs::write(path, edited).unwrap();
}

fn check(dir: &Path) -> (i32, String) {
    let (code, out, err) = common::run(dir, &["check", "decision-log"]);
    (code, format!("{out}{err}"))
}

const TRANSCRIPT: &str = "tests/cache-store/transcripts/decision-1.jsonl";
const CASE: &str = "tests/cache-store/case.toml";

#[test]
fn a_codex_session_accepts_claude_code_records() {
    let d = tempfile::tempdir().unwrap();
    let p = pack(d.path());
    edit(&p.join(CASE), |t| {
        t.replacen(
            "id = \"decision-1\"",
            "id = \"decision-1\"\ntool = \"codex\"",
            1,
        )
    });
    assert_eq!(check(d.path()), (0, "ok decision-log 1.0.0\n".into()));
    // Control: the records are still read (a session not declared is still caught).
    edit(&p.join(CASE), |t| {
        t.replacen("id = \"decision-1\"", "id = \"decision-2\"", 1)
    });
    assert_eq!(check(d.path()).0, 1);
}

#[test]
fn urls_are_warned_under_tests_too() {
    let d = tempfile::tempdir().unwrap();
    let p = pack(d.path());
    edit(&p.join("tests/cache-store/notes/Meeting notes.md"), |t| {
        format!("{t}See https://example.com/x.\n")
    });
    let (code, out) = check(d.path());
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("warning tests/cache-store/notes/Meeting notes.md: a URL outside README.md"),
        "{out}"
    );
    // Control: the other content warnings stay outside tests/.
    edit(&p.join("tests/cache-store/notes/Meeting notes.md"), |t| {
        t.replace("https://example.com/x", "curl x")
    });
    assert_eq!(check(d.path()), (0, "ok decision-log 1.0.0\n".into()));
}

#[test]
fn a_span_just_over_23_hours_reads_23h_01m() {
    let d = tempfile::tempdir().unwrap();
    let p = pack(d.path());
    edit(&p.join(TRANSCRIPT), |t| {
        t.replace("2026-11-01T10:00:20.000Z", "2026-11-02T09:00:00.001Z")
    });
    let (code, out) = check(d.path());
    assert_eq!(code, 1);
    assert!(
        out.contains("timestamps span 23h 01m, over the 23-hour window"),
        "{out}"
    );
    // Control: exactly 23 hours is within the window.
    edit(&p.join(TRANSCRIPT), |t| {
        t.replace("2026-11-02T09:00:00.001Z", "2026-11-02T09:00:00.000Z")
    });
    assert_eq!(check(d.path()).0, 0);
}

#[test]
fn a_persona_heading_inside_a_code_fence_is_not_there() {
    let d = tempfile::tempdir().unwrap();
    let p = pack(d.path());
    edit(&p.join("personas/decision-log-reviewer.md"), |t| {
        t.replacen("## Role", "```\n## Role\n```", 1)
    });
    let (code, out) = check(d.path());
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("warning personas/decision-log-reviewer.md: lacks ## Role"),
        "{out}"
    );
}

#[test]
fn a_description_with_a_tab_or_no_break_space_at_an_end_is_refused() {
    for end in ["\\t", "\u{00A0}"] {
        let d = tempfile::tempdir().unwrap();
        let p = pack(d.path());
        edit(&p.join("pack.toml"), |t| {
            t.replace(
                "decision log note.\"",
                &format!("decision log note.{end}\""),
            )
        });
        let (code, out) = check(d.path());
        assert_eq!(code, 1, "{end:?}: {out}");
        assert!(
            out.contains("description: must not start or end with a space"),
            "{out}"
        );
    }
}

#[test]
fn an_assistant_record_reads_an() {
    let d = tempfile::tempdir().unwrap();
    let p = pack(d.path());
    edit(&p.join(TRANSCRIPT), |t| {
        format!(
            "{t}{{\"type\": \"assistant\", \"sessionId\": \"decision-1\", \"timestamp\": \"2026-11-01T10:01:00.000Z\"}}\n"
        )
    });
    let (code, out) = check(d.path());
    assert_eq!(code, 1);
    assert!(
        out.contains("an assistant record has no message.content"),
        "{out}"
    );
    assert!(!out.contains("a assistant"), "{out}");
}

/// Control: an edit whose text is not in the file fails instead of leaving the good pack as it
/// was, and one that finds its text changes the file.
#[test]
fn control_an_edit_that_finds_nothing_fails() {
    let d = tempfile::tempdir().unwrap();
    let p = pack(d.path());
    let missed = std::panic::catch_unwind(|| {
        edit(&p.join(CASE), |t| t.replace("no such text", "x"));
    });
    assert!(missed.is_err(), "a replacement that found nothing passed");
    edit(&p.join(CASE), |t| {
        t.replacen("id = \"decision-1\"", "id = \"decision-2\"", 1)
    });
    let text = std::fs::read_to_string(p.join(CASE)).unwrap();
    assert!(text.contains("id = \"decision-2\""), "{text}");
}
