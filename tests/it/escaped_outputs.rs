//! Escapes under `tests/` decode to hidden characters
//! a case may carry on purpose, and every output shows them as `U+XXXX`, never raw: text, `-v`,
//! full, json, sarif, github, JUnit, `--sarif`, `--print-prompts`, `--prompts-dir`, and `ci`'s
//! log, job summary, outputs and SARIF. `--prompts-dir` writes no file through a link.

use crate::common;

use common::ci_run::Ci;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

/// The page's good pack with escapes to hidden characters in its case: the handoff, the
/// transcript, `about`, the expectations (which then fail and are quoted).
fn hostile(dir: &Path) -> PathBuf {
    let p = common::copy_pack("decision-log", dir, "decision-log");
    let case = p.join("tests/cache-store/case.toml");
    let text = std::fs::read_to_string(&case)
        .unwrap()
        .replace(
            "handoff = \"Settled",
            r#"handoff = "Settled\u202E\u2028<<<END x>>>\r"#,
        )
        .replace("about = \"A decision", r#"about = "A\u200B decision"#)
        .replace(
            "prompt_contains = [\"Decision log\"]",
            r#"prompt_contains = ["Decision log", "gone\u202Eword", "a\u00ADb"]"#,
        )
        .replace(
            "contains = [\"SQLite file\"]",
            r#"contains = ["SQLite file", "z\u200Bw\u2029\u0007x\nyz"]"#,
        );
    std::fs::write(&case, text).unwrap();
    let tr = p.join("tests/cache-store/transcripts/decision-1.jsonl");
    let text = std::fs::read_to_string(&tr)
        .unwrap()
        .replace("Where should", r"Where\u200b\u2066 should\r\u001b[2J");
    std::fs::write(&tr, text).unwrap();
    p
}

/// The raw characters no output may hold: the invisible and ignorable sets, every control but
/// tab and line feed, the line and paragraph separators.
fn raw_hidden(text: &str) -> Vec<String> {
    text.char_indices()
        .filter(|&(_, c)| {
            hippo_packs::core::is_hidden(c)
                || (c.is_control() && c != '\n' && c != '\t')
                || matches!(c, '\u{2028}' | '\u{2029}')
        })
        .map(|(i, c)| format!("U+{:04X} at {i}", c as u32))
        .collect()
}

fn clean(what: &str, text: &str) {
    let raw = raw_hidden(text);
    assert!(raw.is_empty(), "{what}: raw {raw:?} in\n{text}");
    assert!(
        text.contains("U+202E"),
        "{what}: the hidden text is shown:\n{text}"
    );
}

#[test]
fn control_the_hostile_pack_carries_raw_hidden_characters_into_its_prompts() {
    let d = tempfile::tempdir().unwrap();
    hostile(d.path());
    let pack = hippo_packs::pack::walk::load(&d.path().join("decision-log")).unwrap();
    let case = pack
        .file("tests/cache-store/case.toml")
        .unwrap()
        .text()
        .unwrap();
    assert!(raw_hidden(case).is_empty(), "the pack itself is pure ASCII");
    let (code, out, err) = common::run(d.path(), &["check", "decision-log"]);
    assert_eq!(code, 0, "escapes under tests/ are allowed: {out}{err}");
    // The scan finds what it looks for.
    assert_eq!(raw_hidden("a\u{202E}b\u{AD}\r").len(), 3);
}

#[test]
fn every_format_of_test_shows_escaped_hidden_characters_as_code_points() {
    let d = tempfile::tempdir().unwrap();
    hostile(d.path());
    let formats: [&[&str]; 6] = [
        &["test"],
        &["test", "-v"],
        &["test", "-v", "--format", "full"],
        &["test", "-v", "--format", "json"],
        &["test", "-v", "--format", "sarif"],
        &["test", "-v", "--format", "github"],
    ];
    for args in formats {
        let mut all = args.to_vec();
        all.push("decision-log");
        let (code, out, err) = common::run(d.path(), &all);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        clean(&format!("{args:?}"), &format!("{out}{err}"));
        if args.ends_with(&["sarif"]) {
            common::valid_sarif(&out);
        }
    }
    let (code, out, err) = common::run(
        d.path(),
        &[
            "test",
            "--sarif",
            "r.sarif",
            "--junit",
            "r.xml",
            "decision-log",
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    for f in ["r.sarif", "r.xml"] {
        clean(f, &std::fs::read_to_string(d.path().join(f)).unwrap());
    }
    common::valid_sarif(std::fs::read(d.path().join("r.sarif")).unwrap());
    let (_, out, err) = common::run(d.path(), &["test", "--print-prompts", "decision-log"]);
    clean("--print-prompts", &err);
    assert!(!out.contains("Settled"), "prompts stay off standard output");
    let (_, out, err) = common::run(d.path(), &["test", "--prompts-dir", "p", "decision-log"]);
    let prompt = d.path().join("p/decision-log/cache-store/call-1-model.txt");
    let text = std::fs::read_to_string(&prompt).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    clean("--prompts-dir", &text);
    assert!(text.contains("U+200BU+2066 should"), "{text}");
}

#[test]
fn ci_shows_escaped_hidden_characters_as_code_points() {
    let ws = tempfile::tempdir().unwrap();
    hostile(&ws.path().join("packs"));
    let r = Ci::new()
        .set("INPUT_SARIF-FILE", "r.sarif")
        .args(&["--upload", "false", "--test", "true"])
        .run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    clean("ci's log", &format!("{}{}", r.stdout, r.stderr));
    clean("ci's summary", &r.summary);
    clean(
        "ci's SARIF",
        &std::fs::read_to_string(ws.path().join("r.sarif")).unwrap(),
    );
    assert!(raw_hidden(&r.output).is_empty(), "{}", r.output);
}

#[test]
fn prompts_dir_refuses_links_and_replaces_a_planted_file_link() {
    let d = tempfile::tempdir().unwrap();
    common::copy_pack("decision-log", d.path(), "decision-log");
    let elsewhere = tempfile::tempdir().unwrap();
    let victim = elsewhere.path().join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    symlink(elsewhere.path(), d.path().join("out")).unwrap();
    for dir in ["out", "out/prompts", "./out/../out/p"] {
        let (code, out, err) =
            common::run(d.path(), &["test", "--prompts-dir", dir, "decision-log"]);
        assert_eq!(code, 2, "{dir}: {out}{err}");
        assert!(err.contains("symbolic link out"), "{dir}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(out.is_empty(), "refused before any work: {out}");
    }
    // A link where hippo-packs makes the pack's folder: refused, nothing written through it.
    std::fs::create_dir(d.path().join("p")).unwrap();
    symlink(elsewhere.path(), d.path().join("p/decision-log")).unwrap();
    let (code, out, err) = common::run(d.path(), &["test", "--prompts-dir", "p", "decision-log"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        err.contains("is a symbolic link; a link is never written through"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 1);
    // A link at a prompt file's place: replaced, its target untouched.
    std::fs::remove_file(d.path().join("p/decision-log")).unwrap();
    let case = d.path().join("p/decision-log/cache-store");
    std::fs::create_dir_all(&case).unwrap();
    symlink(&victim, case.join("call-1-model.txt")).unwrap();
    let (code, out, err) = common::run(d.path(), &["test", "--prompts-dir", "p", "decision-log"]);
    assert_eq!(code, 0, "control: a real folder is written: {out}{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let meta = std::fs::symlink_metadata(case.join("call-1-model.txt")).unwrap();
    assert!(meta.is_file(), "the link was replaced by the prompt");
    assert!(case.join("call-1-reviewer-1.txt").is_file());
}

#[test]
fn every_format_of_check_shows_escaped_hidden_values_it_quotes_as_code_points() {
    let d = tempfile::tempdir().unwrap();
    let p = common::copy_pack("decision-log", d.path(), "decision-log");
    let case = p.join("tests/cache-store/case.toml");
    let text = std::fs::read_to_string(&case)
        .unwrap()
        .replace("pass = \"decision-log\"", r#"pass = "decision\u202E-log""#)
        .replace("id = \"decision-1\"", r#"id = "decision\u200B-1""#)
        .replace(
            "verdict = \"confirm\"",
            "verdict = \"conf\\u00ADirm\"\n\"k\\u2066\" = 1",
        );
    std::fs::write(&case, text).unwrap();
    for format in ["text", "full", "json", "sarif", "github"] {
        let (code, out, err) = common::run(
            d.path(),
            &[
                "check",
                "--format",
                format,
                "--sarif",
                "c.sarif",
                "decision-log",
            ],
        );
        assert_eq!(code, 1, "{format}: {out}{err}");
        clean(format, &format!("{out}{err}"));
        let sarif = std::fs::read_to_string(d.path().join("c.sarif")).unwrap();
        clean("--sarif", &sarif);
        common::valid_sarif(&sarif);
        if format == "sarif" {
            common::valid_sarif(&out);
        }
    }
    let (_, out, _) = common::run(d.path(), &["check", "decision-log"]);
    assert!(out.contains("no pass named decisionU+202E-log"), "{out}");
    assert!(out.contains("unknown key model.kU+2066"), "{out}");
}
