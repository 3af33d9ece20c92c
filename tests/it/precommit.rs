//! `.pre-commit-hooks.yaml`, tested with `pre-commit try-repo` (PyPI's pre-commit) on a pack
//! repository: the manifest validates, the `-system` hooks pass on a good pack and fail on a
//! broken one. The `language: rust` hooks run the same entries after pre-commit builds this
//! repository with `cargo install` (a release build of minutes, not repeated here).
use crate::common;

use std::path::Path;
use std::process::Command;

fn have_pre_commit() -> bool {
    Command::new("pre-commit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
        .status
        .success();
    assert!(ok, "git {args:?}");
}

/// `pre-commit try-repo <this repository> <hook> --all-files` in `dir`, with the built binary
/// first on PATH; returns (success, output).
fn try_repo(dir: &Path, hooks: &Path, hook: &str) -> (bool, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let home = tempfile::tempdir().unwrap();
    let out = Command::new("pre-commit")
        .arg("try-repo")
        .arg(hooks)
        .args([hook, "--all-files"])
        .current_dir(dir)
        .env("PATH", path)
        .env("PRE_COMMIT_HOME", home.path())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
#[cfg_attr(
    not(feature = "pre-commit"),
    ignore = "needs PyPI's pre-commit: .ci/run installs it and turns on the feature pre-commit"
)]
fn the_hooks_pass_a_good_pack_and_stop_a_broken_one() {
    assert!(
        have_pre_commit(),
        "the feature pre-commit is on, but pre-commit is not on PATH (pip install pre-commit)"
    );
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let st = Command::new("pre-commit")
        .arg("validate-manifest")
        .arg(&manifest)
        .status()
        .unwrap();
    assert!(st.success(), "the manifest validates");

    let t = tempfile::tempdir().unwrap();
    // The hooks' repository: this file as it stands in the work tree (try-repo reads committed
    // files and changes to them, not a file git does not track yet).
    let hooks = t.path().join("hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::copy(&manifest, hooks.join(".pre-commit-hooks.yaml")).unwrap();
    git(&hooks, &["init", "-q"]);
    git(&hooks, &["add", "."]);
    git(&hooks, &["commit", "-qm", "hooks"]);
    let repo = t.path().join("my-pack");
    common::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/packs/decision-log"),
        &repo,
    );
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-qm", "a pack"]);
    for hook in ["hippo-packs-check-system", "hippo-packs-test-system"] {
        let (ok, out) = try_repo(&repo, &hooks, hook);
        assert!(ok, "{hook} passes a good pack:\n{out}");
        assert!(out.contains("Passed"), "{out}");
    }

    // Control: a broken manifest stops the commit, with the page's line in the output.
    let m = repo.join("pack.toml");
    let text = std::fs::read_to_string(&m).unwrap() + "homepage = \"x\"\n";
    std::fs::write(&m, text).unwrap();
    git(&repo, &["add", "."]);
    let (ok, out) = try_repo(&repo, &hooks, "hippo-packs-check-system");
    assert!(!ok, "control: a broken pack fails the hook:\n{out}");
    assert!(out.contains("unknown field `homepage`"), "{out}");
}
