//! action.yml and the Dockerfile agree with the binary (what can be checked without Docker).

use crate::common;

use common::ci_env::*;
use common::ci_run::parse_outputs;
use common::github_api::*;
use common::standin::Server;
use std::path::Path;
use std::process::Command;

// action.yml and the Dockerfile agree with the binary (what can be checked without Docker).

fn repo_file(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap()
}

/// The keys of a top-level section of action.yml (two-space indented `name:` lines).
fn action_keys(section: &str) -> Vec<String> {
    let text = repo_file("action.yml");
    let mut keys = Vec::new();
    let mut inside = false;
    for l in text.lines() {
        if !l.starts_with(' ') && !l.is_empty() {
            inside = l.trim_end() == format!("{section}:");
            continue;
        }
        if inside
            && let Some(k) = l.strip_prefix("  ").and_then(|k| k.strip_suffix(':'))
            && !k.starts_with(' ')
        {
            keys.push(k.to_string());
        }
    }
    keys
}

#[test]
fn every_input_of_action_yml_has_a_flag_and_every_output_is_written() {
    let inputs = action_keys("inputs");
    assert_eq!(
        inputs,
        vec![
            "path",
            "checkout-path",
            "test",
            "sarif-file",
            "upload",
            "category",
            "fail-on",
            "scope",
            "annotations",
            "filter-mode",
            "prompt-diff",
            "shard",
            "ref",
            "sha",
            "dismiss-allowed",
            "comment",
            "token"
        ]
    );
    let help = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .args(["ci", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for i in &inputs {
        assert!(help.contains(&format!("--{i} ")), "no flag --{i}:\n{help}");
        assert!(
            help.contains(&format!("[input: {i}]")),
            "--{i} does not name its input:\n{help}"
        );
    }
    assert!(!help.contains("--nonexistent "), "a control");

    let outputs = action_keys("outputs");
    let server = Server::start(github(&[]));
    let ws = workspace();
    let r = push(&server.url).run(ws.path());
    let mut written: Vec<&String> = r.outputs.keys().collect();
    written.sort();
    let mut declared: Vec<&String> = outputs.iter().collect();
    declared.sort();
    assert_eq!(written, declared, "{r}");
    // A control: outputs are read in the runner's delimiter form only, each value closed.
    let d = "ghadelimiter_0123456789abcdef";
    assert_eq!(
        parse_outputs(&format!("packs<<{d}\n2\n{d}\n")).map(|o| o["packs"].clone()),
        Ok("2".to_string())
    );
    assert!(parse_outputs("packs=2\n").is_err(), "the plain form");
    assert!(
        parse_outputs(&format!("packs<<{d}\n2\n")).is_err(),
        "unclosed"
    );
    assert!(
        parse_outputs("packs<<EOF\n2\nEOF\n").is_err(),
        "not a runner's"
    );

    let action = repo_file("action.yml");
    for needed in [
        "  using: docker\n",
        "  image: Dockerfile\n",
        "  args:\n    - ci\n",
        "branding:",
        "default: ${{ github.token }}",
    ] {
        assert!(action.contains(needed), "action.yml lacks {needed:?}");
    }
}

#[test]
fn the_dockerfile_builds_a_static_binary_into_an_empty_image() {
    let docker = repo_file("Dockerfile");
    let stages: Vec<&str> = docker.split("\nFROM ").collect();
    let last = stages.last().unwrap();
    assert!(
        last.starts_with("scratch") || last.starts_with("gcr.io/distroless/static"),
        "{last}"
    );
    assert!(docker.contains("cargo build --release --locked"));
    let first = docker.lines().find(|l| l.starts_with("FROM ")).unwrap();
    assert!(
        first.contains(':')
            && !first.contains(":latest")
            && first.chars().filter(|c| *c == '.').count() >= 2,
        "a pinned toolchain image: {first}"
    );
    let instructions: Vec<&str> = last
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();
    assert!(
        !instructions.contains(&"USER") && !instructions.contains(&"WORKDIR"),
        "{last}"
    );
    assert!(
        last.contains("ENTRYPOINT [\"/hippo-packs\"]"),
        "an absolute entry point"
    );
    let ignore = repo_file(".dockerignore");
    assert!(
        ignore.lines().next().is_some() && ignore.contains("!src/"),
        "{ignore}"
    );
}

#[test]
fn a_single_pack_repository_is_one_pack_at_the_root() {
    let server = Server::start(github(&[".github/workflows/ci.yml"]));
    let ws = tempfile::tempdir().unwrap();
    common::copy_tree(&good_pack(), ws.path());
    let manifest = ws.path().join("pack.toml");
    let m = std::fs::read_to_string(&manifest).unwrap() + "homepage = \"elsewhere\"\n";
    std::fs::write(&manifest, m).unwrap();
    // The SARIF file lands in the pack's folder, after the check: a fresh checkout each run.
    let r = pull_request(&server.url, false, 1).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "a root pack is gated by any change:\n{r}");
    assert!(r.stdout.contains("::group::decision-log: 1 error\n"), "{r}");
    assert!(r.stdout.contains("\nerror pack.toml: unknown field"), "{r}");
    assert!(r.stdout.contains("::error file=pack.toml,line=7"), "{r}");
    assert_eq!(r.out("packs"), Some("1"));
    let sarif = decode_upload(&server.uploads()[0]);
    let sarif = String::from_utf8(sarif).unwrap();
    assert!(sarif.contains("\"uri\": \"pack.toml\""), "{sarif}");
}
