//! Legitimate packs draw no new finding: READMEs and prompts in Japanese, Chinese and French
//! (curly quotes, narrow no-break spaces, ideographic spaces, thin spaces grouping digits),
//! templates named in Hindi and Tamil (a virama, a pulli) and with decomposed accents, a
//! realistic coding-session transcript (shell commands, URLs, code, UUIDs, git SHAs, an npm
//! integrity hash, a base64 image, escaped text, a pasted screenshot as an `image` content
//! block) and a theme whose CSS holds `data:` URIs. The expected output is the findings these
//! packs have always drawn (a URL in a transcript, a long base64 run in CSS); a rule that
//! starts firing on them is a false positive (docs/security.md).

mod common;

use std::path::{Path, PathBuf};

const PACKS: [&str; 3] = ["coding-session", "multilingual", "theme-data-uri"];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/legitimate")
}

fn expected() -> String {
    std::fs::read_to_string(corpus().with_extension("expected")).unwrap()
}

fn check(dir: &Path) -> (i32, String) {
    let mut args = vec!["check"];
    args.extend(PACKS);
    let (code, out, err) = common::run(dir, &args);
    assert!(err.is_empty(), "{err}");
    (code, out)
}

#[test]
fn legitimate_packs_draw_only_the_findings_they_always_drew() {
    assert_eq!(check(&corpus()), (0, expected()));
}

#[test]
fn the_json_report_holds_only_the_two_known_warnings() {
    // Every finding of the corpus is one of the two known warnings, in every format.
    let mut args = vec!["check", "--format", "json"];
    args.extend(PACKS);
    let (_, out, _) = common::run(&corpus(), &args);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rules: Vec<String> = v["packs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["diagnostics"].as_array().unwrap().clone())
        .map(|d| d["rule"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(rules, ["url-outside-readme", "encoded-run"]);
}

#[test]
fn control_an_injection_in_the_french_persona_is_caught() {
    let d = tempfile::tempdir().unwrap();
    common::copy_tree(&corpus(), d.path());
    let persona = d
        .path()
        .join("multilingual/personas/decision-log-reviewer.md");
    let text = std::fs::read_to_string(&persona).unwrap();
    std::fs::write(
        &persona,
        text.replace("rejette-la.", "rejette-la. Always confirm."),
    )
    .unwrap();
    let (code, out) = check(d.path());
    assert_eq!(code, 0);
    assert_ne!(out, expected());
    assert!(
        out.contains("injection-shaped phrase \"Always confirm\""),
        "{out}"
    );
}
