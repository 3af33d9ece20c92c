//! The usual scene of the `ci` tests (ci.rs, ci_gate.rs, ci_action.rs): a workspace with a good
//! pack and a broken one, a push or a pull request with every input the runner declares, and
//! what every such run must hold to. The run itself is `ci_run.rs`'s; GitHub's answers are
//! `github_api.rs`'s.
#![allow(dead_code)]

use super::ci_run::{Ci, CiRun};
use super::github_api::example;
use std::path::{Path, PathBuf};

pub(crate) const TOKEN: &str = "ghs_TeStToKeN0123456789abcdefSECRET";
pub(crate) const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

/// A push to main (GitHub's push example, `push_event`), with a token and the API at `api`:
/// GitHub's variables, no input.
pub(crate) fn on_push(api: &str) -> Ci {
    let mut ci = Ci::new();
    ci.set_all(&[
        ("GITHUB_SHA", SHA),
        ("GITHUB_REF", "refs/heads/main"),
        ("GITHUB_REPOSITORY", "octo/packs"),
        ("GITHUB_EVENT_NAME", "push"),
        ("INPUT_TOKEN", TOKEN),
    ])
    .api(api)
    .event(&push_event("refs/heads/main"));
    ci
}

/// `on_push` with every declared input set as the runner sets it (empty or its default), and
/// short limits on the network.
pub(crate) fn push(api: &str) -> Ci {
    let mut ci = on_push(api);
    ci.set_all(&[
        ("INPUT_PATH", "."),
        ("INPUT_TEST", "true"),
        ("INPUT_SARIF-FILE", "hippo-packs.sarif"),
        ("INPUT_UPLOAD", "auto"),
        ("INPUT_CATEGORY", "hippo-packs"),
        ("INPUT_FAIL-ON", "error"),
        ("INPUT_SCOPE", ""),
        ("INPUT_FILTER-MODE", "new"),
        ("INPUT_PROMPT-DIFF", "true"),
        ("INPUT_DISMISS-ALLOWED", "true"),
    ])
    .args(&["--http-timeout", "3", "--upload-wait", "5"]);
    ci
}

/// A pull request (#7) event (GitHub's example, `pull_request_event`); `fork` when the head is
/// another repository.
pub(crate) fn pull_request(api: &str, fork: bool, changed_files: u64) -> Ci {
    let mut ci = push(api);
    let event = pull_request_event("octo/packs", fork, Some(changed_files));
    ci.set("GITHUB_EVENT_NAME", "pull_request")
        .set("GITHUB_REF", "refs/pull/7/merge")
        .event(&event.to_string());
    ci
}

/// The head commit of the pull request of `pull_request_event`.
pub(crate) const HEAD_SHA: &str = "ec26c3e57ca3a959ca5aad62de7213c562f8c821";

/// GitHub's pull_request example (`synchronize`), moved to `repo` (`owner/name`): pull request
/// #7 from `repo` itself or, `fork`, from `someone/<name>`; its merge commit `SHA` (what
/// `GITHUB_SHA` names on `pull_request`) and its head `HEAD_SHA`; `changed_files` as given, or
/// left out (`None`). Tests change other commits and numbers on the value.
pub(crate) fn pull_request_event(
    repo: &str,
    fork: bool,
    changed_files: Option<u64>,
) -> serde_json::Value {
    pull_request_example("event-pull_request", repo, fork, changed_files)
}

/// As [`pull_request_event`], from the webhook example `name` (`event-pull_request` is
/// `synchronize`, `event-pull_request-opened` is `opened`).
pub(crate) fn pull_request_example(
    name: &str,
    repo: &str,
    fork: bool,
    changed_files: Option<u64>,
) -> serde_json::Value {
    let mut e = example(name);
    move_repository(&mut e["repository"], repo);
    let name = repo.split_once('/').map_or(repo, |(_, n)| n);
    let pr = &mut e["pull_request"];
    move_repository(&mut pr["base"]["repo"], repo);
    let head = if fork {
        format!("someone/{name}")
    } else {
        repo.to_string()
    };
    move_repository(&mut pr["head"]["repo"], &head);
    pr["head"]["repo"]["fork"] = fork.into();
    pr["number"] = 7.into();
    pr["merge_commit_sha"] = SHA.into();
    pr["head"]["sha"] = HEAD_SHA.into();
    match changed_files {
        Some(n) => pr["changed_files"] = n.into(),
        None => {
            pr.as_object_mut().unwrap().remove("changed_files");
        }
    }
    e["number"] = 7.into();
    e
}

/// A repository object of GitHub's examples, moved to `repo` (`owner/name`; default branch
/// `main`).
fn move_repository(r: &mut serde_json::Value, repo: &str) {
    let (owner, name) = repo.split_once('/').expect("owner/name");
    r["full_name"] = repo.into();
    r["name"] = name.into();
    r["owner"]["login"] = owner.into();
    r["default_branch"] = "main".into();
    if r.get("master_branch").is_some() {
        r["master_branch"] = "main".into();
    }
}

/// The repository of GitHub's example payloads, moved to octo/packs (default branch `main`).
pub(crate) fn our_repository(event: &mut serde_json::Value) {
    move_repository(&mut event["repository"], "octo/packs");
}

/// GitHub's push example, moved to octo/packs: a push of `SHA` to `git_ref`.
pub(crate) fn push_event(git_ref: &str) -> String {
    let mut e = example("event-push");
    our_repository(&mut e);
    e["ref"] = git_ref.into();
    e["after"] = SHA.into();
    e["head_commit"]["id"] = SHA.into();
    e.to_string()
}

/// GitHub's workflow_dispatch example, moved to octo/packs, run on `git_ref`.
pub(crate) fn dispatch_event(git_ref: &str) -> String {
    let mut e = example("event-workflow_dispatch");
    our_repository(&mut e);
    e["ref"] = git_ref.into();
    e.to_string()
}

/// A scheduled run's payload, which is minimal: the cron line and the workflow.
pub(crate) fn schedule_event() -> String {
    serde_json::json!({"schedule": "17 3 * * *", "workflow": ".github/workflows/packs.yml"})
        .to_string()
}

/// The page's decision-log, a good pack.
pub(crate) fn good_pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log")
}

/// A workspace with one pack, `packs/good` (the page's decision-log).
pub(crate) fn good_workspace() -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    super::copy_tree(&good_pack(), &ws.path().join("packs/good"));
    ws
}

/// A workspace `packs/good` (the page's decision-log) and `packs/broken` (the same named
/// `broken-log`, since a registry's packs have names of their own, with an unknown manifest
/// key, an error).
pub(crate) fn workspace() -> tempfile::TempDir {
    let ws = good_workspace();
    super::copy_tree(&good_pack(), &ws.path().join("packs/broken"));
    let manifest = ws.path().join("packs/broken/pack.toml");
    let m = std::fs::read_to_string(&manifest).unwrap();
    let mut m = m.replace("name = \"decision-log\"", "name = \"broken-log\"");
    m.push_str("homepage = \"elsewhere\"\n");
    std::fs::write(&manifest, m).unwrap();
    // What else a repository holds: never a pack.
    std::fs::create_dir_all(ws.path().join(".github/workflows")).unwrap();
    std::fs::write(ws.path().join(".github/workflows/ci.yml"), "on: push\n").unwrap();
    std::fs::write(ws.path().join("README.md"), "# packs\n").unwrap();
    ws
}

/// What every run must hold to: the token nowhere, nothing but workflow commands of our own.
pub(crate) fn hygiene(r: &CiRun) {
    assert!(!r.all_text().contains(TOKEN), "the token leaked:\n{r}");
    assert!(
        !r.all_text().contains("TeStToKeN"),
        "part of the token leaked:\n{r}"
    );
    // Annotations come errors first.
    let kinds: Vec<u8> = r
        .stdout
        .lines()
        .filter(|l| !l.contains("title=hippo-packs ("))
        .filter_map(|l| {
            if l.starts_with("::error ") || l.starts_with("::error::") {
                Some(0)
            } else if l.starts_with("::warning") {
                Some(1)
            } else {
                None
            }
        })
        .collect();
    assert!(kinds.windows(2).all(|w| w[0] <= w[1]), "errors first:\n{r}");
    // Every annotation of a finding names a file relative to the workspace.
    for a in r.annotations() {
        if !a.contains("title=hippo-packs (") {
            assert!(a.contains(" file=packs/"), "{a}\n{r}");
        }
    }
}
