//! `test` keeps each prompt within min(input_budget_bytes, 10,000,000) bytes
//! (docs/testing-packs.md, "Budget"): a pass that sets a budget past the cap cannot make `test`
//! build a prompt of gigabytes.
use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hippo-packs");
/// A word the one long turn holds and nothing else in the pack does.
const MARKER: &str = "quokka-lantern";

/// A pack whose prompt names `{{turns}}` `copies` times over one session with one 2,000-byte
/// turn, budget 9,000,000,000,000,000,000; the case expects the turn in the prompt or not.
fn pack(copies: usize, turn_sent: bool) -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let pack = t.path().join("pack");
    common::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log"),
        &pack,
    );
    let pass = pack.join("passes/decision-log.toml");
    let text = std::fs::read_to_string(&pass).unwrap();
    let text = text.replace(
        "input_budget_bytes = 200000",
        "input_budget_bytes = 9000000000000000000",
    );
    std::fs::write(&pass, text).unwrap();
    let prompt = pack.join("prompts/decision-log.md");
    let original = std::fs::read_to_string(&prompt).unwrap();
    std::fs::write(&prompt, "{{turns}}\n".repeat(copies) + &original).unwrap();
    let case = pack.join("tests/cache-store");
    let long = format!("{MARKER} {}", "word ".repeat(400));
    let line = format!(
        r#"{{"type": "user", "sessionId": "decision-1", "timestamp": "2026-11-01T10:01:00.000Z", "message": {{"role": "user", "content": "{long}"}}}}"#
    );
    let transcript = case.join("transcripts/decision-1.jsonl");
    let mut text = std::fs::read_to_string(&transcript).unwrap();
    text.push_str(&line);
    text.push('\n');
    std::fs::write(&transcript, text).unwrap();
    let key = if turn_sent {
        r#"prompt_contains = ["Decision log""#
    } else {
        r#"prompt_excludes = ["lantern festival""#
    };
    let toml = std::fs::read_to_string(case.join("case.toml")).unwrap();
    assert!(toml.contains(key), "the case lists {key}");
    let toml = toml.replace(key, &format!(r#"{key}, "{MARKER}""#));
    std::fs::write(case.join("case.toml"), toml).unwrap();
    (t, pack)
}

fn test(pack: &Path) -> (i32, String) {
    let out = Command::new(BIN)
        .args(["test", pack.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn a_budget_past_the_cap_keeps_prompts_under_ten_million_bytes() {
    // 6,000 copies of a turn line of about 2,200 bytes would be 13 MB: over the cap, so the
    // long turn (the newest) is dropped... and with it every older one, the oldest first.
    let (_t, over) = pack(6_000, false);
    let (code, out) = test(&over);
    assert_eq!(code, 0, "{out}");
    // Control: 3,000 copies (6.6 MB) fit the cap, and the same turn is sent.
    let (_t, under) = pack(3_000, true);
    let (code, out) = test(&under);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn control_the_case_sees_a_turn_that_was_dropped() {
    // The same 6,000 copies with the case expecting the turn: the expectation fails, so the
    // test above would see a prompt that held it.
    let (_t, over) = pack(6_000, true);
    let (code, out) = test(&over);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "prompt_contains: \"{MARKER}\" not found in any prompt"
        )),
        "{out}"
    );
}
