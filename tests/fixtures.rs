//! CLI fixture tests: every folder `tests/fixtures/<rule-id>/<variant>/` is a case run through the
//! real binary.
//!
//! A variant holds `pack/` (usually), `expected` (the exact standard output), and optionally
//! `args` (one line of arguments, default `check pack`), `code` (the exit code; default 1 for
//! `bad*` variants, 0 for `good*`), and `setup` (a bash script run in a temporary copy of the
//! variant before the command, for what git cannot store: links, FIFOs, sparse files, odd names;
//! `$BASE` names `tests/packs/`, where the page's good pack `decision-log` is, to copy and break).
//! `expected-stderr`, when present, is the exact standard error (prompts, hints).
//! `UPDATE_EXPECTED=1 cargo test --test fixtures` rewrites the `expected` files.
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn sorted_dirs(p: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(p)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

struct Outcome {
    name: String,
    stdout: String,
    code: i32,
    want_stdout: Option<String>,
    want_code: i32,
    stderr: String,
    want_stderr: Option<String>,
}

fn run_variant(variant: &Path) -> Outcome {
    let rule = variant
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let vname = variant.file_name().unwrap().to_string_lossy().into_owned();
    let tmp = tempfile::tempdir().unwrap();
    common::copy_tree(variant, tmp.path());
    if tmp.path().join("setup").exists() {
        let st = Command::new("bash")
            .arg("setup")
            .current_dir(tmp.path())
            .env(
                "BASE",
                Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs"),
            )
            .status()
            .expect("bash runs");
        assert!(st.success(), "{rule}/{vname}: setup failed");
    }
    let args =
        std::fs::read_to_string(variant.join("args")).unwrap_or_else(|_| "check pack".into());
    let args: Vec<&str> = args.split_whitespace().collect();
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .args(&args)
        .current_dir(tmp.path())
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("the binary runs");
    let default_code = if vname.starts_with("bad") { 1 } else { 0 };
    let want_code = std::fs::read_to_string(variant.join("code"))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(default_code);
    Outcome {
        name: format!("{rule}/{vname}"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        code: out.status.code().unwrap_or(-1),
        want_stdout: std::fs::read_to_string(variant.join("expected")).ok(),
        want_code,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        want_stderr: std::fs::read_to_string(variant.join("expected-stderr")).ok(),
    }
}

fn problems(o: &Outcome) -> Vec<String> {
    let mut p = Vec::new();
    match &o.want_stdout {
        None => p.push(format!("{}: no expected file", o.name)),
        Some(w) if *w != o.stdout => p.push(format!(
            "{}: output differs\n--- expected\n{}--- got\n{}",
            o.name, w, o.stdout
        )),
        _ => {}
    }
    match &o.want_stderr {
        Some(w) if *w != o.stderr => p.push(format!(
            "{}: standard error differs\n--- expected\n{}--- got\n{}",
            o.name, w, o.stderr
        )),
        _ => {}
    }
    if o.code != o.want_code {
        p.push(format!(
            "{}: exit {} (wanted {})",
            o.name, o.code, o.want_code
        ));
    }
    p
}

#[test]
fn every_fixture_prints_its_expected_output() {
    let update = std::env::var_os("UPDATE_EXPECTED").is_some();
    let mut failures = Vec::new();
    let mut count = 0;
    for rule in sorted_dirs(&root()) {
        for variant in sorted_dirs(&rule) {
            count += 1;
            let o = run_variant(&variant);
            if update {
                std::fs::write(variant.join("expected"), &o.stdout).unwrap();
                let err_file = variant.join("expected-stderr");
                if !o.stderr.is_empty() {
                    std::fs::write(&err_file, &o.stderr).unwrap();
                } else if err_file.exists() {
                    std::fs::remove_file(&err_file).unwrap();
                }
                if o.code != o.want_code {
                    failures.push(format!(
                        "{}: exit {} (wanted {})",
                        o.name, o.code, o.want_code
                    ));
                }
                continue;
            }
            failures.extend(problems(&o));
        }
    }
    assert!(count > 0, "no fixture found under {}", root().display());
    assert!(
        failures.is_empty(),
        "{} of {count} fixtures failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_rule_has_a_bad_and_a_good_fixture() {
    let mut missing = Vec::new();
    for rule in hippo_packs::rules::catalogue() {
        let dir = root().join(rule.id);
        let variants: Vec<String> = sorted_dirs(&dir)
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        if !variants.iter().any(|v| v.starts_with("bad"))
            || !variants.iter().any(|v| v.starts_with("good"))
        {
            missing.push(rule.id);
        }
    }
    assert!(
        missing.is_empty(),
        "rules without a bad and a good fixture: {missing:?}"
    );
    // Every fixture folder names a rule of the catalogue.
    for dir in sorted_dirs(&root()) {
        let id = dir.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            hippo_packs::rules::find(&id).is_some(),
            "tests/fixtures/{id} names no rule"
        );
    }
}

#[test]
fn control_a_wrong_expectation_is_caught() {
    let o = Outcome {
        name: "control".into(),
        stdout: "ok x 1.0.0\n".into(),
        code: 0,
        want_stdout: Some("error pack.toml: missing field `name`\n".into()),
        want_code: 1,
        stderr: "hint\n".into(),
        want_stderr: Some(String::new()),
    };
    assert_eq!(
        problems(&o).len(),
        3,
        "a differing output, standard error and exit code must all be reported"
    );
}
