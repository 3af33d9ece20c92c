//! `test` keeps each prompt within min(input_budget_bytes, 10,000,000) bytes
//! (docs/testing-packs.md, "Budget"): a pass that sets a budget past the cap cannot make `test`
//! build a prompt of gigabytes. The prompts are measured as `--prompts-dir` writes them, one
//! file per prompt.
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

/// The cap on a prompt's bytes, whatever the pass's budget (`INPUT_BUDGET_CAP`).
const CAP: u64 = 10_000_000;

/// `test` over `pack`, its prompts written under a folder beside it: the exit code, standard
/// output, and the size in bytes of the largest prompt (0 when none was written).
fn test(pack: &Path) -> (i32, String, u64) {
    let prompts = pack.with_file_name("prompts");
    let out = Command::new(BIN)
        .args(["test", pack.to_str().unwrap(), "--prompts-dir"])
        .arg(&prompts)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text,
        largest_file(&prompts),
    )
}

/// The size of the largest file under `dir`, 0 when there is none.
fn largest_file(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => largest_file(&e.path()),
            _ => e.metadata().map_or(0, |m| m.len()),
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn a_budget_past_the_cap_keeps_prompts_under_ten_million_bytes() {
    // 6,000 copies of a turn line of about 2,200 bytes would be 13 MB: over the cap, so the
    // long turn (the newest) is dropped... and with it every older one, the oldest first.
    let (_t, over) = pack(6_000, false);
    let (code, out, largest) = test(&over);
    assert_eq!(code, 0, "{out}");
    assert!(largest > 0, "no prompt was written");
    assert!(largest <= CAP, "a prompt of {largest} bytes, over the cap");
    // Control: 3,000 copies (6.6 MB) fit the cap, and the same turn is sent: the prompts
    // measured are the ones holding the copies, so a prompt over the cap would be seen.
    let (_t, under) = pack(3_000, true);
    let (code, out, largest) = test(&under);
    assert_eq!(code, 0, "{out}");
    assert!(
        (6_000_000..=CAP).contains(&largest),
        "the largest prompt holds {largest} bytes, not the 3,000 copies of the turn"
    );
}

#[test]
fn control_the_case_sees_a_turn_that_was_dropped() {
    // The same 6,000 copies with the case expecting the turn: the expectation fails, so the
    // test above would see a prompt that held it.
    let (_t, over) = pack(6_000, true);
    let (code, out, _) = test(&over);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "prompt_contains: \"{MARKER}\" not found in any prompt"
        )),
        "{out}"
    );
}

/// Control: the measure finds the largest file at any depth, and none where nothing was written.
#[test]
fn control_the_largest_prompt_is_found() {
    let d = tempfile::tempdir().unwrap();
    assert_eq!(largest_file(&d.path().join("absent")), 0);
    let deep = d.path().join("pack/case");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(d.path().join("pack/call-1-model.txt"), "x".repeat(10)).unwrap();
    std::fs::write(deep.join("call-2-model.txt"), "x".repeat(20)).unwrap();
    assert_eq!(largest_file(d.path()), 20);
}
