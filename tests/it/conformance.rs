//! The examples of hippo's page "Writing a pack", byte for byte (the same runs as
//! `shared/conformance/check-examples.sh`, over the copies in `tests/packs/`).

use crate::common;

use std::path::Path;
use std::process::Command;

fn packs() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/packs"))
}

/// A work folder holding `decision-log`, `broken` (with the `.git` folder the page adds) and
/// `failing` (the page's failing variant of the good pack).
fn workspace() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["decision-log", "broken"] {
        common::copy_tree(&packs().join(name), &tmp.path().join(name));
    }
    std::fs::create_dir_all(tmp.path().join("broken/.git")).unwrap();
    std::fs::write(
        tmp.path().join("broken/.git/HEAD"),
        "ref: refs/heads/main\n",
    )
    .unwrap();
    common::copy_tree(&packs().join("decision-log"), &tmp.path().join("failing"));
    let case = tmp.path().join("failing/tests/cache-store/case.toml");
    let text = std::fs::read_to_string(&case).unwrap();
    let changed = text.replace("\napplied = 1\n", "\napplied = 0\n").replace(
        "\ncontains = [\"SQLite file\"]\n",
        "\ncontains = [\"postgres\"]\n",
    );
    assert_ne!(
        text, changed,
        "the failing variant must differ from the good pack"
    );
    std::fs::write(&case, changed).unwrap();
    tmp
}

fn run(dir: &Path, args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn broken_expected() -> String {
    std::fs::read_to_string(packs().join("broken.expected")).unwrap()
}

#[test]
fn check_good_pack() {
    let w = workspace();
    assert_eq!(
        run(w.path(), &["check", "decision-log"]),
        ("ok decision-log 1.0.0\n".into(), 0)
    );
}

#[test]
fn check_broken_pack_prints_the_page_byte_for_byte() {
    let w = workspace();
    assert_eq!(run(w.path(), &["check", "broken"]), (broken_expected(), 1));
}

#[test]
fn check_unreadable_dir() {
    let w = workspace();
    assert_eq!(
        run(w.path(), &["check", "nowhere"]),
        (
            "error nowhere: No such file or directory (os error 2)\n".into(),
            1
        )
    );
}

/// Control: the comparison sees one line of the page go missing. With the broken pack's
/// `homepage` key removed, its output is the page's lines but that one, and so differs.
#[test]
fn control_a_pack_missing_one_of_the_pages_lines_is_caught() {
    let w = workspace();
    let manifest = w.path().join("broken/pack.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let fixed: String = text
        .lines()
        .filter(|l| !l.starts_with("homepage"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(
        fixed, text,
        "the broken pack's pack.toml has a homepage key"
    );
    std::fs::write(&manifest, fixed).unwrap();
    let (out, code) = run(w.path(), &["check", "broken"]);
    assert_ne!(out, broken_expected());
    let want: String = broken_expected()
        .lines()
        .filter(|l| !l.contains("homepage"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!((out, code), (want, 1));
}

#[test]
fn test_good_pack() {
    let w = workspace();
    assert_eq!(
        run(w.path(), &["test", "decision-log"]),
        ("ok decision-log/cache-store\n".into(), 0)
    );
}

#[test]
fn test_failing_case_prints_the_page_two_lines() {
    let w = workspace();
    assert_eq!(
        run(w.path(), &["test", "failing"]),
        (
            "FAIL decision-log/cache-store: applied: expected 0, got 1\nFAIL decision-log/cache-store: note notes/Decision log.md: \"postgres\" not found\n".into(),
            1
        )
    );
}

#[test]
fn test_unknown_case() {
    let w = workspace();
    assert_eq!(
        run(w.path(), &["test", "decision-log", "--case", "nope"]),
        ("error no case named nope\n".into(), 1)
    );
}

#[test]
fn test_broken_pack_prints_only_the_errors() {
    let w = workspace();
    let want: String = broken_expected()
        .lines()
        .filter(|l| l.starts_with("error"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(run(w.path(), &["test", "broken"]), (want, 1));
}
