//! Allowances end to end (docs/configuration.md): `check --config`, SARIF suppressions, an
//! unused allowance, and `ci` reading `.hippo-packs.toml` at the repository root only.
use crate::common;

use std::path::Path;
use std::process::Command;

use common::WARNED_ALLOWANCE as ALLOW;

/// A workspace with one good pack whose prompt quotes an injection phrase (a warning).
fn workspace() -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    common::warned_pack(&ws.path().join("packs"));
    ws
}

fn run(cwd: &Path, args: &[&str], envs: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .envs(envs.iter().copied())
        .output()
        .unwrap();
    common::outcome(out)
}

#[test]
fn check_reads_a_configuration_only_when_named() {
    let ws = workspace();
    std::fs::write(ws.path().join("allow.toml"), ALLOW).unwrap();
    let args = ["check", "packs/warned", "--deny-warnings"];
    let (code, out, _) = run(ws.path(), &args, &[]);
    assert_eq!(
        code, 1,
        "control: without --config the warning counts:\n{out}"
    );
    assert!(out.contains("warning prompts/decision-log.md: injection-shaped phrase"));
    let (code, out, err) = run(
        ws.path(),
        &[
            "check",
            "packs/warned",
            "--deny-warnings",
            "--config",
            "allow.toml",
        ],
        &[],
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "ok decision-log 1.0.0\n", "")
    );
}

#[test]
fn sarif_shows_the_allowed_warning_as_dismissed_and_an_unused_entry_as_a_warning() {
    let ws = workspace();
    let unused = "\n[[allow]]\nrule = \"shell-text\"\npath = \"packs/**\"\nreason = \"stale\"\n";
    std::fs::write(ws.path().join("allow.toml"), format!("{ALLOW}{unused}")).unwrap();
    let (code, out, _) = run(
        ws.path(),
        &[
            "check",
            "packs/warned",
            "--config",
            "allow.toml",
            "--format",
            "sarif",
        ],
        &[],
    );
    assert_eq!(code, 0);
    let sarif = common::valid_sarif(&out);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let allowed: Vec<&serde_json::Value> = results
        .iter()
        .filter(|r| r.get("suppressions").is_some())
        .collect();
    assert_eq!(allowed.len(), 1, "{out}");
    assert_eq!(allowed[0]["ruleId"], "injection-phrase");
    assert_eq!(allowed[0]["suppressions"][0]["kind"], "external");
    assert_eq!(
        allowed[0]["suppressions"][0]["status"], "accepted",
        "SARIF 2.1.0's own field: accepted, not under review"
    );
    assert_eq!(
        allowed[0]["suppressions"][0]["justification"],
        "The prompt quotes the phrase as a thing to reject."
    );
    let stale: Vec<&serde_json::Value> = results
        .iter()
        .filter(|r| r["ruleId"] == "unused-allowance")
        .collect();
    assert_eq!(stale.len(), 1, "{out}");
    assert_eq!(
        stale[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "allow.toml"
    );
    assert_eq!(
        stale[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        7
    );
}

#[test]
fn a_bad_configuration_is_a_usage_error_before_any_work() {
    let ws = workspace();
    let bad = ALLOW.replace("injection-phrase", "invisible-character");
    std::fs::write(ws.path().join("allow.toml"), bad).unwrap();
    let (code, out, err) = run(
        ws.path(),
        &["check", "packs/warned", "--config", "allow.toml"],
        &[],
    );
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "hippo-packs: --config allow.toml:1: rule invisible-character is an error: errors cannot be allowed (hippo would refuse the pack)\n"
    );
}

#[test]
fn ci_reads_the_root_file_and_never_one_inside_a_pack() {
    let ws = workspace();
    let summary = ws.path().join("summary.md");
    let envs = [
        ("GITHUB_WORKSPACE", ws.path().to_str().unwrap()),
        ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
    ];
    // A pull request cannot silence its own pack from inside it: a dot-file in the pack is
    // skipped, and the warning stays.
    std::fs::write(
        ws.path().join("packs/warned/.hippo-packs.toml"),
        ALLOW.replace("packs/warned/", ""),
    )
    .unwrap();
    let (_, out, _) = run(
        ws.path(),
        &["ci", "--upload", "false", "--fail-on", "warning"],
        &envs,
    );
    assert!(out.contains("injection-shaped phrase"), "control: {out}");
    std::fs::write(ws.path().join(".hippo-packs.toml"), ALLOW).unwrap();
    let (code, out, _) = run(
        ws.path(),
        &["ci", "--upload", "false", "--fail-on", "warning"],
        &envs,
    );
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("injection-shaped phrase"), "{out}");
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(
        text.contains("allowed by .hippo-packs.toml&#58; injection-phrase in packs/warned/prompts/decision-log.md"),
        "{text}"
    );
}

#[test]
fn an_allowance_glob_past_its_limit_is_a_one_line_usage_error_not_a_crash() {
    // 160,000 `?` once made the glob compiler panic (exit 3).
    let ws = workspace();
    let long = ALLOW.replace("packs/warned/prompts/*.md", &"?".repeat(160_000));
    std::fs::write(ws.path().join("allow.toml"), long).unwrap();
    let args = ["check", "packs/warned", "--config", "allow.toml"];
    let (code, out, err) = run(ws.path(), &args, &[]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(
        err,
        "hippo-packs: --config allow.toml:1: path is 160000 bytes long; at most 1024\n"
    );
    // Control: the same file with its short glob is read, and the warning it allows is taken.
    std::fs::write(ws.path().join("allow.toml"), ALLOW).unwrap();
    let (code, out, err) = run(ws.path(), &[&args[..], &["--deny-warnings"]].concat(), &[]);
    assert_eq!(code, 0, "{out}{err}");
}
