//! The fix as every reader takes it: `check --diff` is the files' bytes, so `git apply` and
//! `patch -p1` apply it as printed and leave what `check --fix` leaves; SARIF carries the
//! finding's own help in `message.text` and, where `--fix` mends it, `fixes`.

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hippo-packs");

/// The session pack with a U+200B in a prompt and a fixture note and a misspelt key, plus a
/// byte-order mark and CRLF line ends in its prompt: the bytes an escaped diff loses.
fn pack(into: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cmd/fixable.in/pack");
    let ok = Command::new("cp")
        .args([
            "-r",
            &from.display().to_string(),
            &into.join("pack").display().to_string(),
        ])
        .status()
        .unwrap();
    assert!(ok.success());
    let prompt = into.join("pack/prompts/decision-log.md");
    let text = std::fs::read_to_string(&prompt).unwrap();
    std::fs::write(&prompt, format!("\u{FEFF}{}", text.replace('\n', "\r\n"))).unwrap();
}

fn run(dir: &Path, program: &str, args: &[&str], stdin: Option<&[u8]>) -> (bool, Vec<u8>) {
    use std::io::Write;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.unwrap_or_default())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.success(), out.stdout)
}

fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_diff_applies_with_git_and_patch_as_fix_fixes() {
    let t = tempfile::tempdir().unwrap();
    let (fixed, git, patched) = (
        t.path().join("fixed"),
        t.path().join("git"),
        t.path().join("patch"),
    );
    for d in [&fixed, &git, &patched] {
        std::fs::create_dir_all(d).unwrap();
        pack(d);
    }
    let (_, diff) = run(&git, BIN, &["check", "pack", "--diff"], None);
    let text = String::from_utf8(diff.clone()).unwrap();
    assert!(
        text.contains("\r\n"),
        "the carriage returns are bytes: {text}"
    );
    assert!(
        !text.contains("U+"),
        "nothing escaped off a terminal: {text}"
    );
    run(&fixed, BIN, &["check", "pack", "--fix"], None);
    assert!(run(&git, "git", &["init", "-q"], None).0);
    let (ok, _) = run(&git, "git", &["apply", "-"], Some(&diff));
    assert!(ok, "git apply takes it:\n{text}");
    std::fs::remove_dir_all(git.join(".git")).unwrap();
    assert_eq!(
        tree(&git),
        tree(&fixed),
        "git apply leaves what --fix leaves"
    );
    if run(t.path(), "sh", &["-c", "command -v patch"], None).0 {
        let (ok, _) = run(&patched, "patch", &["-p1", "-s"], Some(&diff));
        assert!(ok, "patch -p1 takes it");
        assert_eq!(
            tree(&patched),
            tree(&fixed),
            "patch leaves what --fix leaves"
        );
    } else {
        println!("SKIPPED patch -p1: patch is not installed");
    }
    // Control: the diff as a terminal shows it (a carriage return as U+000D) does not apply.
    let shown = text.replace('\r', "U+000D");
    let control = t.path().join("control");
    std::fs::create_dir_all(&control).unwrap();
    pack(&control);
    run(&control, "git", &["init", "-q"], None);
    let (ok, _) = run(&control, "git", &["apply", "-"], Some(shown.as_bytes()));
    assert!(!ok, "control: an escaped diff is refused");
}

#[test]
fn sarif_results_carry_the_hint_and_the_fix() {
    let t = tempfile::tempdir().unwrap();
    pack(t.path());
    let (_, out) = run(t.path(), BIN, &["check", "pack", "--format", "sarif"], None);
    let log = crate::common::valid_sarif(&out);
    let results = log["runs"][0]["results"].as_array().unwrap();
    let of = |rule: &str, uri_has: &str| {
        results
            .iter()
            .find(|r| {
                r["ruleId"] == rule
                    && !r["message"]["text"].as_str().unwrap().starts_with("U+FEFF")
                    && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                        .as_str()
                        .unwrap()
                        .contains(uri_has)
            })
            .unwrap_or_else(|| panic!("{rule} in {uri_has}"))
    };
    let key = of("pass-unknown-key", "passes/");
    let text = key["message"]["text"].as_str().unwrap();
    assert!(
        text.starts_with("unknown key per-note\n\nhelp: did you mean `per_note`?"),
        "{text}"
    );
    assert!(key.get("fixes").is_none());
    let fixed = of("invisible-character", "prompts/");
    let change = &fixed["fixes"][0]["artifactChanges"][0];
    assert_eq!(
        change["artifactLocation"]["uri"],
        "pack/prompts/decision-log.md"
    );
    let region = &change["replacements"][0]["deletedRegion"];
    assert_eq!(
        (region["startLine"].as_u64(), region["startColumn"].as_u64()),
        (Some(5), Some(6))
    );
    assert_eq!(region["endColumn"].as_u64(), Some(7), "one UTF-16 unit");
    assert!(
        change["replacements"][0].get("insertedContent").is_none(),
        "a removal"
    );
    assert_eq!(
        fixed["fixes"][0]["description"]["text"],
        "remove U+200B ZERO WIDTH SPACE"
    );
    // Control: the same character under tests/ has no fix, and a finding without a hint no
    // help line.
    let note = of("invisible-character", "tests/");
    assert!(note.get("fixes").is_none(), "{note}");
    assert!(!note["message"]["text"].as_str().unwrap().contains("help:"));
}
