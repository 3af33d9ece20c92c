//! The one reading of keys on all three documents: an unknown, a missing and a mistyped key each,
//! in each document's own words and rules, beside a control that draws none.

use crate::core::Diagnostic;
use crate::pack::PackKind;
use crate::pack::testing::text_pack;
use crate::rules::{case, manifest, pass};

const MANIFEST: &str = "protocol = \"HIPPO_V1\"\nname = \"decision-log\"\nversion = \"1.0.0\"\n\
    description = \"d\"\nauthors = [\"A\"]\nlicense = \"MIT\"\n";
const PASS: &str = "protocol = \"HIPPO_V1\"\nprompt = \"prompts/p.md\"\nreads = [\"notes\"]\n\
    reviewer = \"personas/r.md\"\nper_note = false\n";
const CASE: &str = "protocol = \"HIPPO_V1\"\npass = \"p\"\n[[session]]\nid = \"s\"\n\
    [model]\nverdict = \"confirm\"\n";

/// The key findings of the three documents, each replaced as `change` says, in output order.
fn findings(change: &[(&str, &str)]) -> Vec<Diagnostic> {
    let mut files = [
        ("pack.toml", MANIFEST.to_string()),
        ("passes/p.toml", PASS.to_string()),
        ("prompts/p.md", "x".to_string()),
        ("personas/r.md", "x".to_string()),
        ("tests/c/case.toml", CASE.to_string()),
    ];
    for (path, text) in change {
        files.iter_mut().find(|(p, _)| p == path).unwrap().1 = text.to_string();
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let pack = text_pack(PackKind::Pass, &files);
    let mut out = Vec::new();
    let docs = crate::model::Documents::read(&pack);
    manifest::check(&docs, &mut out);
    pass::check(&pack, &docs, &mut out);
    case::check(&pack, &docs, &mut out);
    crate::rules::sort(&mut out);
    out
}

fn lines(found: &[Diagnostic]) -> Vec<String> {
    found
        .iter()
        .map(|d| format!("{} {}", d.rule.id, d.text("")))
        .collect()
}

#[test]
fn control_the_three_documents_as_written_draw_nothing() {
    assert_eq!(lines(&findings(&[])), Vec::<String>::new());
}

#[test]
fn pack_toml_unknown_missing_and_mistyped_keys() {
    let broken = MANIFEST
        .replace("license = \"MIT\"\n", "homepage = \"x\"\n")
        .replace("name = \"decision-log\"", "name = 1");
    let found = findings(&[("pack.toml", &broken)]);
    assert_eq!(
        lines(&found),
        [
            "manifest-unknown-key pack.toml: unknown field `homepage`, expected one of `name`, \
             `version`, `description`, `authors`, `license`",
            "manifest-missing-key pack.toml: missing field `license`",
            "manifest-value pack.toml: name: expected a string, found an integer",
        ]
    );
    let hint = found[0].hint.as_deref().unwrap_or("");
    assert!(hint.ends_with("the keys of pack.toml: `protocol`, `kind`, `name`, `version`, `description`, `authors`, `license`"), "{hint}");
}

#[test]
fn pass_file_unknown_missing_and_mistyped_keys() {
    let broken = PASS
        .replace("per_note = false\n", "note_type = \"log\"\n")
        .replace("reads = [\"notes\"]", "reads = \"notes\"");
    let found = findings(&[("passes/p.toml", &broken)]);
    assert_eq!(
        lines(&found),
        [
            "pass-unknown-key passes/p.toml: unknown key note_type",
            "pass-missing-key passes/p.toml: missing key per_note",
            "pass-value passes/p.toml: reads: expected a list of strings, found a string",
        ]
    );
    let hint = found[0].hint.as_deref().unwrap_or("");
    assert!(
        hint.starts_with("did you mean `note_types`? the keys of a pass file: `protocol`"),
        "{hint}"
    );
}

#[test]
fn case_toml_unknown_missing_and_mistyped_keys_in_every_table() {
    let broken = CASE
        .replace("id = \"s\"\n", "tool = \"codex\"\n")
        .replace("verdict = \"confirm\"", "verdict = true\ntemperature = 0.2")
        .replace("pass = \"p\"\n", "pass = \"p\"\ncolour = 1\n");
    let found = findings(&[("tests/c/case.toml", &broken)]);
    assert_eq!(
        lines(&found),
        [
            "case-unknown-key tests/c/case.toml: unknown key colour",
            "case-unknown-key tests/c/case.toml: unknown key model.temperature",
            "case-missing-key tests/c/case.toml: missing key session.id",
            "case-value tests/c/case.toml: model.verdict: expected a string, found a boolean",
        ]
    );
    let hints: Vec<&str> = found[..2]
        .iter()
        .map(|d| d.hint.as_deref().unwrap_or(""))
        .collect();
    assert!(
        hints[0].starts_with("the keys of case.toml: `protocol`"),
        "{hints:?}"
    );
    assert_eq!(hints[1], "the keys of [model]: `reply`, `verdict`");
    // The missing id is reported at its [[session]] table, not on the file.
    assert!(found[2].span.is_some());
}
