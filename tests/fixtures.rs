//! CLI fixture tests: every folder `tests/fixtures/<rule-id>/<variant>/` is a case run through the
//! real binary, twice: as written and with `--format json`. Each variant is a test of its own
//! named `<rule-id>/<variant>` (libtest-mimic; `harness = false`), so
//! `cargo test --test fixtures persona-role/` runs that rule's cases and
//! `cargo test --test fixtures -- --exact persona-role/bad` one of them (one filter at a time:
//! libtest-mimic takes one; `_` runs the checks and controls, whose names alone hold one).
//!
//! A variant holds `pack/`, or makes it in a temporary copy of the variant before the command:
//! - `setup.toml` and `changes/`: the page's good pack (`tests/packs/<base>`) less the paths
//!   `remove` names, with the files of `changes/` added or replaced (`fixture_setup`); a setup
//!   that names a path the base does not hold, or changes nothing, fails;
//! - `setup`: a bash script run in the copy (after `setup.toml`, when both are there), for what
//!   git cannot store (links, FIFOs, sparse files, odd names) and for edits of the good pack in
//!   place (`sed`), with `$BASE` the folder `tests/packs/`.
//!
//! Optionally `args` (one line of arguments, default `check pack`) and `code` (the exit
//! code; default 1 for `bad*` variants, 0 for `good*`). A `good*` variant is a near miss of its
//! rule: its `setup` or `setup.toml` says what it nears in a comment line `# nears ...` (one with
//! its own `pack/` nears the rule where that pack differs from the good pack).
//!
//! The outputs are reviewed snapshots (insta) in the variant's folder: `text.snap` (standard
//! output, then standard error after a `--- standard error` line when there is any) and
//! `json.snap` (standard output of the JSON run). A differing output is written beside the
//! snapshot as `.snap.new` (never under `CI`) and fails the test; review and accept it with
//! `cargo insta review`, or `mv text.snap.new text.snap` (docs/architecture.md, "Expected outputs
//! are reviewed").
//!
//! Beside the snapshots, the JSON run's rule ids are checked: a `bad*` variant reports the rule
//! its folder is named after, a `good*` variant does not.
//!
//! A variant whose `args` start with `ci` runs `hippo-packs ci` over a folder of packs, as the
//! registry's rules need (they judge the packs of a repository together, and only `ci` does):
//! in a cleared environment (no `GITHUB_*` variable, `HOME` inside the copy) with
//! `--sarif-file ci.sarif` added. `ci` has no `--format`, so its one run gives both snapshots:
//! `text.snap` its log, `json.snap` its SARIF file's results, each as its rule, level, path,
//! line and message; the SARIF file itself must be read by both SARIF readers (the 2.1.0 schema
//! and serde-sarif's typed model, `common::sarif_schema_errors`).
mod common;
mod fixture_setup;

use std::collections::BTreeSet;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The good packs a variant starts from.
fn packs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs")
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

fn file_name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// One run of the binary over a fresh copy of a variant.
struct Run {
    stdout: String,
    stderr: String,
    code: i32,
    /// A `ci` variant's SARIF file, when it wrote one.
    sarif: Option<String>,
}

/// Whether a variant's arguments run `ci`.
fn is_ci(args: &str) -> bool {
    args.split_whitespace().next() == Some("ci")
}

/// A `ci` run's JSON record: each SARIF result as its rule, level, path, line and message.
fn sarif_results(sarif: Option<&str>) -> String {
    let Some(v) = sarif.and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok()) else {
        return "no SARIF file\n".to_string();
    };
    let results: Vec<serde_json::Value> = v["runs"][0]["results"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            let at = &r["locations"][0]["physicalLocation"];
            serde_json::json!({
                "rule": r["ruleId"],
                "level": r["level"],
                "path": at["artifactLocation"]["uri"],
                "line": at["region"]["startLine"],
                "message": r["message"]["text"],
            })
        })
        .collect();
    format!("{}\n", serde_json::to_string_pretty(&results).unwrap())
}

/// Copies the variant into a temporary folder, runs its `setup` there, then the binary with the
/// variant's arguments and `extra` after them.
fn run(variant: &Path, extra: &[&str]) -> Run {
    let name = format!(
        "{}/{}",
        file_name(variant.parent().unwrap()),
        file_name(variant)
    );
    let tmp = tempfile::tempdir().unwrap();
    common::copy_tree(variant, tmp.path());
    if variant.join(fixture_setup::FILE).exists() {
        let _ = std::fs::remove_dir_all(tmp.path().join(fixture_setup::CHANGES));
        fixture_setup::build(variant, &packs(), tmp.path())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    if tmp.path().join("setup").exists() {
        let st = Command::new("bash")
            .arg("setup")
            .current_dir(tmp.path())
            .env("BASE", packs())
            .status()
            .expect("bash runs");
        assert!(st.success(), "{name}: setup failed");
    }
    let args =
        std::fs::read_to_string(variant.join("args")).unwrap_or_else(|_| "check pack".into());
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hippo-packs"));
    cmd.args(args.split_whitespace())
        .args(extra)
        .current_dir(tmp.path())
        .env_remove("GITHUB_ACTIONS");
    if is_ci(&args) {
        cmd.env_clear()
            .env("HOME", tmp.path().join("home"))
            .args(["--sarif-file", "ci.sarif"]);
    }
    let out = cmd.output().expect("the binary runs");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
        sarif: std::fs::read_to_string(tmp.path().join("ci.sarif")).ok(),
    }
}

/// What `text.snap` holds: standard output, then standard error when there is any.
fn text_record(r: &Run) -> String {
    if r.stderr.is_empty() {
        r.stdout.clone()
    } else {
        format!("{}--- standard error\n{}", r.stdout, r.stderr)
    }
}

/// Every `"rule"` string of a JSON report, however deep (packs' diagnostics, cases' results).
fn rule_ids(json: &str) -> Result<BTreeSet<String>, String> {
    fn walk(v: &serde_json::Value, out: &mut BTreeSet<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    match v {
                        serde_json::Value::String(s) if k == "rule" => {
                            out.insert(s.clone());
                        }
                        _ => walk(v, out),
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("not JSON ({e})"))?;
    let mut out = BTreeSet::new();
    walk(&v, &mut out);
    Ok(out)
}

/// The `bad*` variants whose failure is not a finding, so no output of theirs holds a rule id,
/// each with its reason.
const NOT_A_FINDING: &[(&str, &str)] = &[(
    "test-expectation/bad-no-case",
    "`--case` naming no case of the pack fails it without a finding (JSON: `no_case`)",
)];

/// The problem with a variant's rule ids: a `bad*` variant must report `rule`, a `good*` one
/// must not.
fn id_problem(rule: &str, variant: &str, ids: &BTreeSet<String>) -> Option<String> {
    let reported = ids.contains(rule);
    let name = format!("{rule}/{variant}");
    if NOT_A_FINDING.iter().any(|(n, _)| *n == name) {
        return (!ids.is_empty()).then(|| format!("{name}: listed as no finding, reports {ids:?}"));
    }
    if variant.starts_with("bad") && !reported {
        Some(format!(
            "{rule}/{variant}: a bad variant that does not report `{rule}` (it reports {ids:?})"
        ))
    } else if variant.starts_with("good") && reported {
        Some(format!(
            "{rule}/{variant}: a good variant that reports `{rule}`"
        ))
    } else {
        None
    }
}

/// Compares `content` with the reviewed snapshot `<dir>/<name>.snap`; `Err` names it when it
/// differs (insta has then written `<name>.snap.new` and printed the diff).
fn snapshot(dir: &Path, name: &str, description: &str, content: &str) -> Result<(), String> {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(dir);
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(description);
    std::panic::catch_unwind(AssertUnwindSafe(|| {
        settings.bind(|| insta::assert_snapshot!(name, content));
    }))
    .map_err(|_| {
        let rel = dir.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(dir);
        let what = if dir.join(format!("{name}.snap")).exists() {
            "differs"
        } else {
            "is missing"
        };
        format!("{}/{name}.snap {what}", rel.display())
    })
}

/// Everything wrong with one variant: its two snapshots, its exit codes, its rule ids.
fn check_variant(variant: &Path) -> Vec<String> {
    let (rule, vname) = (file_name(variant.parent().unwrap()), file_name(variant));
    let args =
        std::fs::read_to_string(variant.join("args")).unwrap_or_else(|_| "check pack".into());
    let default_code = if vname.starts_with("bad") { 1 } else { 0 };
    let want_code = std::fs::read_to_string(variant.join("code"))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(default_code);
    let mut problems = Vec::new();
    let text = run(variant, &[]);
    let refused = text.sarif.as_ref().map(common::sarif_schema_errors);
    if let Some(errors) = refused.filter(|e| !e.is_empty()) {
        problems.push(format!(
            "{rule}/{vname}: the SARIF file refused: {errors:#?}"
        ));
    }
    let command = format!("hippo-packs {}", args.trim());
    let json = match is_ci(&args) {
        true => Run {
            stdout: sarif_results(text.sarif.as_deref()),
            stderr: String::new(),
            code: text.code,
            sarif: None,
        },
        false => run(variant, &["--format", "json"]),
    };
    let json_command = match is_ci(&args) {
        true => format!("{command}: the SARIF file's results"),
        false => format!("{command} --format json"),
    };
    let shown = [
        ("text", command.clone(), text_record(&text), text.code),
        ("json", json_command, json.stdout.clone(), json.code),
    ];
    // insta compares without trailing whitespace: the end of the text output is held here.
    for (stream, out) in [("output", &text.stdout), ("standard error", &text.stderr)] {
        if !out.is_empty() && (!out.ends_with('\n') || out.ends_with("\n\n")) {
            problems.push(format!(
                "{rule}/{vname}: the {stream} does not end in one newline"
            ));
        }
    }
    for (name, description, content, code) in shown {
        if let Err(e) = snapshot(variant, name, &description, &content) {
            problems.push(e);
        }
        if code != want_code {
            problems.push(format!(
                "{rule}/{vname} ({name}): exit {code} (wanted {want_code})"
            ));
        }
    }
    match rule_ids(&json.stdout) {
        Ok(ids) => problems.extend(id_problem(&rule, &vname, &ids)),
        Err(e) => problems.push(format!("{rule}/{vname}: the JSON run printed {e}")),
    }
    problems
}

/// Every variant as a test named `<rule-id>/<variant>`, then the checks of the folders and the
/// controls.
fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let mut trials: Vec<libtest_mimic::Trial> = sorted_dirs(&root())
        .iter()
        .flat_map(|rule| sorted_dirs(rule))
        .map(|v| {
            let name = format!("{}/{}", file_name(v.parent().unwrap()), file_name(&v));
            libtest_mimic::Trial::test(name, move || {
                let problems = check_variant(&v);
                match problems.is_empty() {
                    true => Ok(()),
                    false => Err(problems.join("\n").into()),
                }
            })
        })
        .collect();
    let checks: [(&str, fn()); 5] = [
        (
            "every_fixture_folder_names_a_rule",
            every_fixture_folder_names_a_rule,
        ),
        (
            "control_a_variant_with_the_wrong_rule_ids_is_caught",
            control_a_variant_with_the_wrong_rule_ids_is_caught,
        ),
        (
            "control_a_differing_output_is_caught",
            control_a_differing_output_is_caught,
        ),
        (
            "control_a_setup_naming_nothing_or_changing_nothing_fails",
            fixture_setup::control_a_setup_naming_nothing_or_changing_nothing_fails,
        ),
        (
            "control_each_variant_is_a_test_named_by_rule_and_variant",
            control_each_variant_is_a_test_named_by_rule_and_variant,
        ),
    ];
    trials.extend(checks.into_iter().map(|(name, f)| {
        libtest_mimic::Trial::test(name, move || {
            f();
            Ok(())
        })
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// Whether a variant's setup is fine on nearing: a `good*` variant made by a setup (`setup`,
/// `setup.toml`, `setup` holding both) says what its near miss nears in a comment line starting
/// `# nears`.
fn says_what_it_nears(variant: &str, setup: &str) -> bool {
    !variant.starts_with("good")
        || setup.is_empty()
        || setup.lines().any(|l| l.starts_with("# nears"))
}

/// Every fixture folder names a rule of the catalogue, every variant is `bad*` or `good*` and
/// has one way to make its pack (`fixture_setup::layout_problem`), and every `good*` setup says
/// what it nears (that every rule has a bad and a good variant is
/// tests/it/docs.rs's `every_rule_has_every_part`).
fn every_fixture_folder_names_a_rule() {
    assert!(
        !sorted_dirs(&root()).is_empty(),
        "no fixture found under {}",
        root().display()
    );
    for dir in sorted_dirs(&root()) {
        let id = file_name(&dir);
        assert!(
            hippo_packs::rules::find(&id).is_some(),
            "tests/fixtures/{id} names no rule"
        );
        for v in sorted_dirs(&dir) {
            let name = file_name(&v);
            assert!(
                name.starts_with("bad") || name.starts_with("good"),
                "{id}/{name}"
            );
            if let Some(problem) = fixture_setup::layout_problem(&v) {
                panic!("{id}/{name}: {problem}");
            }
            let setup = ["setup", fixture_setup::FILE]
                .map(|f| std::fs::read_to_string(v.join(f)).unwrap_or_default())
                .concat();
            assert!(
                says_what_it_nears(&name, &setup),
                "{id}/{name}: no `# nears` line in its setup"
            );
        }
    }
}

/// Control: a bad variant that does not fire its rule, and a good one that does, are caught;
/// a JSON report's ids are found at any depth.
fn control_a_variant_with_the_wrong_rule_ids_is_caught() {
    let json = r#"{"packs": [{"diagnostics": [{"rule": "file-size"}]}],
                   "cases": [{"results": [{"rule": "test-expectation"}]}]}"#;
    let ids = rule_ids(json).unwrap();
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert!(id_problem("file-count", "bad", &ids).is_some());
    assert!(id_problem("file-size", "good-limit", &ids).is_some());
    assert!(id_problem("file-size", "bad-two", &ids).is_none());
    assert!(id_problem("file-count", "good", &ids).is_none());
    assert!(rule_ids("error x\n").is_err());
    // A variant listed as no finding must report nothing, and every listed variant exists.
    let none = BTreeSet::new();
    assert!(id_problem("test-expectation", "bad-no-case", &none).is_none());
    assert!(id_problem("test-expectation", "bad-no-case", &ids).is_some());
    // A good setup that does not say what it nears is caught; a bad one needs not say it.
    let setup = "cp -r \"$BASE/decision-log\" pack\nrm pack/README.md\n";
    assert!(!says_what_it_nears("good", setup));
    assert!(says_what_it_nears("good", &format!("{setup}# nears: x\n")));
    assert!(says_what_it_nears("bad", setup));
    for (name, reason) in NOT_A_FINDING {
        assert!(root().join(name).is_dir(), "{name}: {reason}");
    }
}

/// Control: an output that differs from its reviewed snapshot fails. The snapshot is in a
/// temporary folder, so the `.snap.new` insta writes beside it goes with the folder.
fn control_a_differing_output_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let snap = "---\nsource: tests/fixtures.rs\n---\nerror pack.toml: missing field `name`\n";
    std::fs::write(dir.path().join("text.snap"), snap).unwrap();
    let same = "error pack.toml: missing field `name`\n";
    assert_eq!(snapshot(dir.path(), "text", "control", same), Ok(()));
    assert!(snapshot(dir.path(), "text", "control", "ok x 1.0.0\n").is_err());
    let with_err = text_record(&Run {
        stdout: "ok\n".into(),
        stderr: "hint\n".into(),
        code: 0,
        sarif: None,
    });
    assert_eq!(sarif_results(None), "no SARIF file\n");
    assert!(
        rule_ids(&sarif_results(None)).is_err(),
        "a ci run without SARIF is caught"
    );
    assert_eq!(with_err, "ok\n--- standard error\nhint\n");
}

/// Control: the binary lists each variant as a test of its own, `<rule-id>/<variant>`, and a
/// filter by a rule's id and `/` runs that rule's variants alone.
fn control_each_variant_is_a_test_named_by_rule_and_variant() {
    let list = |filter: &[&str]| {
        let out = Command::new(std::env::current_exe().unwrap())
            .args(["--list", "--format", "terse"])
            .args(filter)
            .output()
            .expect("the fixture binary lists its tests");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .filter_map(|l| l.strip_suffix(": test"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let persona_role = list(&["persona-role/"]);
    let on_disk: Vec<String> = sorted_dirs(&root().join("persona-role"))
        .iter()
        .map(|v| format!("persona-role/{}", file_name(v)))
        .collect();
    assert!(on_disk.len() >= 2, "{on_disk:?}");
    assert_eq!(persona_role, on_disk);
    let all = list(&[]);
    let variants = sorted_dirs(&root())
        .iter()
        .map(|r| sorted_dirs(r).len())
        .sum::<usize>();
    assert_eq!(all.iter().filter(|n| n.contains('/')).count(), variants);
}
