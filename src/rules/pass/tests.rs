//! The pass file's rules on good and broken pass files.

use super::*;
use crate::model::pass::{DEFAULT_INPUT_BUDGET, PassDef, note_glob};
use crate::pack::PackKind;
use crate::pack::testing::text_pack;

const GOOD: &str = r#"protocol = "HIPPO_V1"
prompt = "prompts/decision-log.md"
reads = ["sessions", "notes", "turns"]
reviewer = "personas/decision-log-reviewer.md"
input_budget_bytes = 200000
per_note = true
note_paths = ["**/Decision log*.md", "**/Decisions.md"]
"#;

fn run(pass: &str) -> (Vec<PassDef>, bool, Vec<String>) {
    let p = text_pack(
        PackKind::Pass,
        &[
            ("passes/decision-log.toml", pass),
            ("prompts/decision-log.md", "x"),
            ("personas/decision-log-reviewer.md", "x"),
        ],
    );
    let mut out = Vec::new();
    let docs = Documents::read(&p);
    check(&p, &docs, &mut out);
    let (defs, ok) = (docs.passes, docs.passes_parsed);
    super::super::finish(&p, &mut out);
    (defs, ok, out.iter().map(|d| d.text("")).collect())
}

#[test]
fn the_page_pass_file_is_clean_and_parsed() {
    let (defs, ok, msgs) = run(GOOD);
    assert!(ok);
    assert_eq!(msgs, Vec::<String>::new());
    let d = &defs[0];
    assert_eq!(d.name, "decision-log");
    assert_eq!(d.prompt, "prompts/decision-log.md");
    assert_eq!(d.reviewer, "personas/decision-log-reviewer.md");
    assert_eq!(d.reads, ["sessions", "notes", "turns"]);
    assert!(d.per_note);
    assert_eq!(d.input_budget_bytes, 200_000);
    assert_eq!(d.note_paths.len(), 2);
    let span = d.prompt_span.unwrap();
    assert_eq!(&GOOD[span.start..span.end], "\"prompts/decision-log.md\"");
}

#[test]
fn the_page_broken_pass_file() {
    let broken = GOOD.replace(
        "per_note = true\n",
        "per_note = true\nnote_type = \"decision\"\nnote_types = [\"diary\"]\n",
    );
    let (_, ok, msgs) = run(&broken);
    assert!(ok, "a pass with bad values still parsed");
    assert_eq!(
        msgs,
        [
            "passes/decision-log.toml: unknown key note_type",
            "passes/decision-log.toml: note_types: unknown type diary",
        ]
    );
}

#[test]
fn missing_keys_and_bad_values() {
    let (defs, _, msgs) = run(
        "protocol = \"HIPPO_V2\"\nprompt = \"prompts/nope.md\"\nreviewer = \"x.md\"\nreads = [\"notes\", \"notes\", \"diff\"]\ninput_budget_bytes = 0\nnote_types = []\nnote_paths = [\"/abs\", \"a/../b\", \"a[\", \"\"]\n",
    );
    for want in [
        "passes/decision-log.toml: missing key per_note",
        "passes/decision-log.toml: protocol: must be \"HIPPO_V1\"",
        "passes/decision-log.toml: prompt: prompts/nope.md is not in this pack",
        "passes/decision-log.toml: reviewer: x.md is not of the form personas/<name>.md",
        "passes/decision-log.toml: reads: notes is listed twice",
        "passes/decision-log.toml: reads: unknown input diff",
        "passes/decision-log.toml: input_budget_bytes: must be a positive integer",
        "passes/decision-log.toml: note_types: 0 types, must be one to five",
        "passes/decision-log.toml: note_paths: /abs starts with /",
        "passes/decision-log.toml: note_paths: a/../b has a .. component",
        "passes/decision-log.toml: note_paths: an empty pattern",
    ] {
        assert!(msgs.iter().any(|m| m == want), "{want} not in {msgs:#?}");
    }
    assert!(
        msgs.iter().any(
            |m| m.starts_with("passes/decision-log.toml: note_paths: a[ is not a valid glob: ")
        ),
        "{msgs:#?}"
    );
    assert!(
        !msgs.iter().any(|m| m.contains("missing key reads")),
        "reads is present"
    );
    // values are kept as written
    assert_eq!(defs[0].prompt, "prompts/nope.md");
    assert_eq!(defs[0].input_budget_bytes, DEFAULT_INPUT_BUDGET);
}

#[test]
fn wrong_types() {
    let (_, _, msgs) = run(
        "protocol = \"HIPPO_V1\"\nprompt = 1\nreviewer = true\nreads = \"notes\"\nper_note = \"yes\"\ninput_budget_bytes = \"big\"\nnote_types = [1]\n",
    );
    for want in [
        "prompt: expected a string, found an integer",
        "reviewer: expected a string, found a boolean",
        "reads: expected a list of strings, found a string",
        "per_note: expected true or false, found a string",
        "input_budget_bytes: expected a positive integer, found a string",
        "note_types: expected a list of strings, found an integer in it",
    ] {
        let want = format!("passes/decision-log.toml: {want}");
        assert!(msgs.contains(&want), "{want} not in {msgs:#?}");
    }
}

#[test]
fn syntax_errors_are_located_and_clear_the_flag() {
    let (defs, ok, msgs) = run("protocol = \"HIPPO_V1\"\nreads = [\n");
    assert!(!ok);
    assert!(defs.is_empty());
    assert_eq!(msgs.len(), 1);
    assert!(
        msgs[0] == "passes/decision-log.toml:2:10: unclosed array, expected `]`",
        "{}",
        msgs[0]
    );
}

#[test]
fn reserved_names() {
    let p = text_pack(PackKind::Pass, &[("passes/verify.toml", GOOD)]);
    let mut out = Vec::new();
    check(&p, &Documents::read(&p), &mut out);
    assert!(
        out.iter()
            .any(|d| d.text("") == "passes/verify.toml: verify is reserved for core")
    );
    let p = text_pack(PackKind::Pass, &[("passes/verify-more.toml", GOOD)]);
    let mut out = Vec::new();
    check(&p, &Documents::read(&p), &mut out);
    assert!(
        !out.iter().any(|d| d.rule == &RESERVED_PASS_NAME),
        "control: verify-more is not reserved"
    );
}

#[test]
fn note_glob_semantics() {
    let g = note_glob(&["**/Decision log*.md", "**/Decisions.md"]).unwrap();
    assert!(g.is_match("notes/Decision log.md"));
    assert!(g.is_match("notes/a/b/Decision log 2026.md"));
    assert!(g.is_match("notes/Decisions.md"));
    assert!(!g.is_match("notes/Meeting notes.md"), "control");
    let star = note_glob(&["notes/*.md"]).unwrap();
    assert!(star.is_match("notes/x.md"));
    assert!(!star.is_match("notes/a/x.md"), "* does not cross a /");
    let alt = note_glob(&["notes/{a,b}.md", "notes/[xy]?.md"]).unwrap();
    assert!(alt.is_match("notes/b.md") && alt.is_match("notes/y1.md"));
    assert!(!alt.is_match("notes/c.md"));
    let e = note_glob(&["ok/*.md", "a["]).unwrap_err();
    assert!(e.starts_with("a[ is not a valid glob: "), "{e}");
}

#[test]
fn unreadable_pass_clears_the_flag() {
    let mut p = text_pack(PackKind::Pass, &[("passes/a.toml", GOOD)]);
    p.file_mut("passes/a.toml").unwrap().bytes = vec![0xff, 0xfe];
    let mut out = Vec::new();
    let docs = Documents::read(&p);
    check(&p, &docs, &mut out);
    let (defs, ok) = (docs.passes, docs.passes_parsed);
    assert!(!ok && defs.is_empty());
    assert!(
        out.is_empty(),
        "the text rule reports a file that is not UTF-8"
    );
}

#[test]
fn a_budget_over_the_cap_is_a_warning() {
    for written in ["10000001", "9000000000000000000", "0x7FFF_FFFF_FFFF_FFFF"] {
        let over = GOOD.replace("= 200000", &format!("= {written}"));
        let (defs, _, msgs) = run(&over);
        assert_eq!(
            msgs,
            ["passes/decision-log.toml: input_budget_bytes over 10,000,000; test uses 10,000,000"],
            "{written}"
        );
        assert!(
            defs[0].input_budget_bytes > INPUT_BUDGET_CAP,
            "kept as written"
        );
    }
    // Control: the cap itself, and the default, draw nothing.
    let (_, _, msgs) = run(&GOOD.replace("= 200000", "= 10_000_000"));
    assert_eq!(msgs, Vec::<String>::new());
    let (_, _, msgs) = run(&GOOD.replace("input_budget_bytes = 200000\n", ""));
    assert_eq!(msgs, Vec::<String>::new());
}

#[test]
fn numbers_are_grouped_by_thousands() {
    assert_eq!(grouped(INPUT_BUDGET_CAP), "10,000,000");
    assert_eq!(grouped(1000), "1,000");
    assert_eq!(grouped(999), "999");
    assert_eq!(grouped(0), "0");
}
