//! Every `--format` value has the parts docs/architecture.md ("Adding an output format") lists
//! beyond its renderer (which `Format::renderer`'s match holds the compiler to): a row of
//! docs/output-formats.md's table of formats, a snapshot of its output in `tests/cmd/`, and
//! output for a pack.

use std::path::Path;
use std::process::Command;

/// The values `--format` takes and its default, as `check --help` lists them.
fn format_values() -> (Vec<String>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .args(["check", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let option = help
        .split("--format <FORMAT>")
        .nth(1)
        .expect("--format in --help");
    let option = option.split("\n      -").next().unwrap();
    let values = option
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- "))
        .filter_map(|l| l.split(':').next())
        .map(str::to_string)
        .collect();
    let default = option
        .split("[default: ")
        .nth(1)
        .and_then(|d| d.split(']').next());
    (values, default.expect("a default format").to_string())
}

/// What a format lacks of its parts, in the repository at `root`: its row of the table in
/// docs/output-formats.md (`| <name> |`), and a `tests/cmd/*.trycmd` running it (the default
/// format: any of them).
fn missing_parts(root: &Path, format: &str, default: &str) -> Vec<String> {
    let mut missing = Vec::new();
    let docs = std::fs::read_to_string(root.join("docs/output-formats.md")).unwrap_or_default();
    if !docs
        .lines()
        .any(|l| l.starts_with(&format!("| {format} |")))
    {
        missing.push(format!("{format}: its row in docs/output-formats.md"));
    }
    let runs = |text: &str| format == default || text.contains(&format!("--format {format}"));
    let snapshot = std::fs::read_dir(root.join("tests/cmd"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "trycmd"))
        .any(|p| std::fs::read_to_string(p).is_ok_and(|t| runs(&t)));
    if !snapshot {
        missing.push(format!("{format}: a snapshot in tests/cmd/"));
    }
    missing
}

#[test]
fn every_format_has_its_docs_a_snapshot_and_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (values, default) = format_values();
    assert_eq!(values.len(), 6, "{values:?}");
    assert!(values.contains(&default), "{default} in {values:?}");
    for format in &values {
        assert_eq!(missing_parts(root, format, &default), Vec::<String>::new());
        let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
            .args(["check", "tests/packs/broken", "--format", format])
            .current_dir(root)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}");
        assert!(!out.stdout.is_empty(), "{format}: no output");
    }
}

#[test]
fn control_a_format_without_docs_or_snapshot_is_caught() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(
        missing_parts(root, "yaml", "text"),
        [
            "yaml: its row in docs/output-formats.md",
            "yaml: a snapshot in tests/cmd/"
        ]
    );
    // The default format too, in a repository without the docs and snapshots.
    let tmp = tempfile::tempdir().unwrap();
    assert_eq!(missing_parts(tmp.path(), "text", "text").len(), 2);
}
