//! `hippo-packs test` through the real subprocess path: the same cases give the same result with
//! the in-process stand-in and with `--model-command "hippo-packs stub-model"`; the pack is never
//! written and the temporary home and workspace are removed.
use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hippo-packs");

fn good_pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log")
}

/// Every file under a folder with its bytes, sorted.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                out.push((e.path(), std::fs::read(e.path()).unwrap()));
            }
        }
    }
    out.sort();
    out
}

struct Run {
    stdout: String,
    code: i32,
}

/// Runs `hippo-packs test pack --print-prompts [extra...]` in `dir` with an empty TMPDIR, and
/// checks that the temporary folders are gone afterwards.
fn test_in(dir: &Path, extra: &[&str]) -> Run {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .args(["test", "pack", "--print-prompts"])
        .args(extra)
        .current_dir(dir)
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "temporary folders left behind: {left:?}");
    Run {
        // Standard output, then the prompts `--print-prompts` writes on standard error.
        stdout: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        code: out.status.code().unwrap_or(-1),
    }
}

/// A copy of the good pack with its case.toml changed by `edit`.
fn variant(edit: impl Fn(String) -> String) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    common::copy_tree(&good_pack(), &t.path().join("pack"));
    let case = t.path().join("pack/tests/cache-store/case.toml");
    let text = std::fs::read_to_string(&case).unwrap();
    std::fs::write(&case, edit(text)).unwrap();
    t
}

fn stub_command() -> String {
    format!("{BIN} stub-model")
}

#[test]
fn the_stub_subprocess_gives_the_same_result_as_the_stand_in() {
    type Edit = Box<dyn Fn(String) -> String>;
    let variants: Vec<(&str, Edit)> = vec![
        ("good", Box::new(|s| s)),
        (
            "failing",
            Box::new(|s: String| {
                s.replace("applied = 1", "applied = 0")
                    .replace("[\"SQLite file\"]", "[\"postgres\"]")
            }),
        ),
        (
            "reject",
            Box::new(|s: String| {
                s.replace("verdict = \"confirm\"", "verdict = \"reject\"")
                    .replace("confirmed = 1", "confirmed = 0")
                    .replace("rejected = 0", "rejected = 1")
                    .replace("applied = 1", "applied = 0")
                    .replace("[\"SQLite file\"]", "[]")
            }),
        ),
        (
            "not json",
            Box::new(|s: String| {
                s.lines()
                    .map(|l| {
                        if l.starts_with("reply = ") {
                            "reply = '''Sure, here you go.'''\n".to_string()
                        } else {
                            format!("{l}\n")
                        }
                    })
                    .collect()
            }),
        ),
    ];
    for (name, edit) in variants {
        let t = variant(edit);
        let before = snapshot(&t.path().join("pack"));
        let inproc = test_in(t.path(), &[]);
        let sub = test_in(t.path(), &["--model-command", &stub_command()]);
        assert_eq!(inproc.stdout, sub.stdout, "{name}: the two paths differ");
        assert_eq!(inproc.code, sub.code, "{name}");
        assert!(
            inproc
                .stdout
                .contains("# decision-log/cache-store: pass decision-log, call 1, model\n")
        );
        assert_eq!(
            snapshot(&t.path().join("pack")),
            before,
            "{name}: the pack was written"
        );
        match name {
            "good" | "reject" => assert_eq!(inproc.code, 0, "{name}: {}", inproc.stdout),
            _ => assert_eq!(inproc.code, 1, "{name}: {}", inproc.stdout),
        }
    }
}

#[test]
fn the_model_command_really_answers() {
    // Control: `cat` answers the prompt itself, which is no JSON array.
    let t = variant(|s| s);
    let r = test_in(t.path(), &["--model-command", "cat"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("FAIL decision-log/cache-store: proposals: expected 1, got 0"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("validation_failures: expected 0, got 1"),
        "{}",
        r.stdout
    );
    // A command that fails is a failure of the case, never a crash.
    let r = test_in(t.path(), &["--model-command", "false"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("FAIL decision-log/cache-store: call 1: the model failed: false failed"),
        "{}",
        r.stdout
    );
    let r = test_in(t.path(), &["--model-command", "/nonexistent/model"]);
    assert!(
        r.stdout
            .contains("call 1: the model failed: cannot run /nonexistent/model"),
        "{}",
        r.stdout
    );
}

#[test]
fn stub_model_answers_from_flags_and_environment() {
    let t = tempfile::tempdir().unwrap();
    let reply = t.path().join("reply");
    std::fs::write(&reply, "[42]").unwrap();
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut c = Command::new(BIN);
        c.arg("stub-model").args(args);
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c.stdin(std::process::Stdio::null()).output().unwrap();
        (String::from_utf8(out.stdout).unwrap(), out.status.code())
    };
    let reply = reply.to_str().unwrap();
    assert_eq!(run(&["--reply-file", reply], &[]).0, "[42]");
    assert_eq!(run(&[], &[("HIPPO_PACKS_REPLY_FILE", reply)]).0, "[42]");
    assert_eq!(
        run(&["--role", "reviewer", "--verdict", "reject"], &[]).0,
        r#"{"verdict": "reject", "notes": "stand-in reviewer"}"#
    );
    assert_eq!(
        run(&[], &[("HIPPO_PACKS_ROLE", "reviewer")]).0,
        r#"{"verdict": "confirm", "notes": "stand-in reviewer"}"#
    );
    assert_eq!(run(&[], &[]).0, "[]", "the default reply");
    // Hidden from --help.
    let help = Command::new(BIN).arg("--help").output().unwrap();
    assert!(!String::from_utf8_lossy(&help.stdout).contains("stub-model"));
}
