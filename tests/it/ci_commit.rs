//! `ci` in a pack repository and on pull requests: the report never lands in the pack, the
//! upload goes to the commit the workspace checked out with the ref that names it, carries
//! `started_at`, and a `failed` processing status is a warning under `auto` and fails under
//! `true`. Against the stand-in for GitHub's API on 127.0.0.1.

use crate::common;

use common::ci_env::pull_request_event;
use common::ci_run::Ci;
use common::standin::{Reply, Request, Server};
use std::path::Path;

const TOKEN: &str = "ghs_commitTestToken";
const GITHUB_SHA: &str = "1111111111111111111111111111111111111111";
const CHECKOUT: &str = "2222222222222222222222222222222222222222";
const HEAD: &str = "3333333333333333333333333333333333333333";

fn github(processing: &'static str) -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    move |req, _| {
        match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/code-scanning/sarifs") => {
            Reply::Json(202, r#"{"id": "sarif-1", "url": "https://api.github.com/repos/octo/pack/code-scanning/sarifs/sarif-1"}"#.into())
        }
        ("GET", p) if p.contains("/code-scanning/sarifs/") => Reply::Json(
            200,
            format!(r#"{{"processing_status": "{processing}", "errors": ["bad rule"]}}"#),
        ),
        ("GET", p) if p.ends_with("/files") => Reply::Json(200, "[]".into()),
        _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
    }
    }
}

/// A pack repository: the page's decision-log at the root, and a `.git` with `HEAD` at `sha`.
fn pack_repo(sha: &str) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    common::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log"),
        t.path(),
    );
    std::fs::create_dir_all(t.path().join(".git")).unwrap();
    std::fs::write(t.path().join(".git/HEAD"), format!("{sha}\n")).unwrap();
    t
}

/// A run with the API at `api` on `event` with `git_ref`, and short limits on the network.
fn ci(api: &str, event: &str, git_ref: &str) -> Ci {
    let mut ci = Ci::new();
    ci.set_all(&[
        ("GITHUB_REPOSITORY", "octo/pack"),
        ("GITHUB_SHA", GITHUB_SHA),
        ("GITHUB_REF", git_ref),
        ("GITHUB_EVENT_NAME", event),
        ("INPUT_TOKEN", TOKEN),
    ])
    .api(api)
    .args(&["--http-timeout", "3", "--upload-wait", "2"]);
    ci
}

/// GitHub's pull_request example on octo/pack: #7, merge commit `GITHUB_SHA`, head `HEAD`.
fn pr_event() -> String {
    let mut e = pull_request_event("octo/pack", false, Some(1));
    e["pull_request"]["merge_commit_sha"] = GITHUB_SHA.into();
    e["pull_request"]["head"]["sha"] = HEAD.into();
    e.to_string()
}

#[test]
fn a_pack_repository_passes_on_every_run_and_uploads_its_checkout() {
    let gh = Server::start(github("complete"));
    let ws = pack_repo(CHECKOUT);
    let v = ci(&gh.url, "push", "refs/heads/main");
    for _ in 0..2 {
        let r = v.run(ws.path());
        assert_eq!(r.code, 0, "{r}");
        let file = r.out("sarif-file").unwrap_or_default();
        assert!(
            file.ends_with("/.hippo-packs/hippo-packs.sarif"),
            "under $HOME: {r}"
        );
        assert!(r.sarif.is_some(), "{r}");
        assert_eq!(r.out("uploaded"), Some("true"), "{r}");
    }
    assert!(
        !ws.path().join(".hippo-packs").exists(),
        "nothing in the workspace"
    );
    let up = gh.uploads();
    assert_eq!(up.len(), 2);
    let body = up[1].json();
    assert_eq!(body["commit_sha"], CHECKOUT, "the checkout, not GITHUB_SHA");
    assert_eq!(body["ref"], "refs/heads/main");
    let started = body["started_at"].as_str().expect("started_at");
    assert!(
        started.len() >= 20 && started.contains('T') && started.ends_with('Z'),
        "{started}"
    );

    // Control: the old default inside the pack breaks the next run.
    let old = pack_repo(CHECKOUT);
    let mut v = ci(&gh.url, "push", "refs/heads/main");
    v.set("INPUT_SARIF-FILE", "hippo-packs.sarif");
    assert_eq!(v.run(old.path()).code, 0);
    let again = v.run(old.path());
    assert_eq!(again.code, 1, "{again}");
    assert!(
        again.stdout.contains("unexpected file hippo-packs.sarif"),
        "{again}"
    );
}

#[test]
fn a_pull_request_head_checkout_goes_to_the_head_ref() {
    let gh = Server::start(github("complete"));
    let ws = pack_repo(HEAD);
    let event = pr_event();
    let mut v = ci(&gh.url, "pull_request", "refs/pull/7/merge");
    v.event(&event);
    let r = v.run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    let body = gh.uploads()[0].json();
    assert_eq!(
        (body["commit_sha"].as_str(), body["ref"].as_str()),
        (Some(HEAD), Some("refs/pull/7/head"))
    );
}

#[test]
fn pull_request_target_with_the_base_checked_out_uploads_nothing() {
    let gh = Server::start(github("complete"));
    let ws = pack_repo(GITHUB_SHA);
    let mut event = pull_request_event("octo/pack", false, None);
    event["pull_request"]["merge_commit_sha"] = "4444444444444444444444444444444444444444".into();
    event["pull_request"]["head"]["sha"] = HEAD.into();
    let event = event.to_string();
    let mut v = ci(&gh.url, "pull_request_target", "refs/heads/main");
    v.event(&event);
    let r = v.run(ws.path());
    assert_eq!(
        r.code, 1,
        "the pull request's packs were never checked: {r}"
    );
    assert!(gh.uploads().is_empty(), "nothing goes to the base branch");
    assert!(r.stdout.contains("never to the base branch"), "{r}");
    assert!(
        r.errors()
            .concat()
            .contains("pull_request_target: the checked-out commit"),
        "{r}"
    );
    assert!(
        gh.requests()
            .iter()
            .all(|q| !q.path().ends_with("/check-runs")),
        "no check run on the head for code that was not checked: {r}"
    );
    // Control: scope all checks the base checkout alone, and passes.
    let r = v.clone().set("INPUT_SCOPE", "all").run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    // Control: the ref and sha inputs upload where they say.
    v.set("INPUT_REF", "refs/pull/7/head")
        .set("INPUT_SHA", HEAD);
    let r = v.run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(gh.uploads()[0].json()["ref"], "refs/pull/7/head");
}

#[test]
fn failed_processing_warns_under_auto_and_fails_under_true() {
    let gh = Server::start(github("failed"));
    let ws = pack_repo(CHECKOUT);
    let mut v = ci(&gh.url, "push", "refs/heads/main");
    let r = v.run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert!(
        r.annotations()
            .iter()
            .any(|a| a.starts_with("::warning") && a.contains("bad rule")),
        "{r}"
    );
    assert_eq!(r.out("uploaded"), Some("false"));
    v.set("INPUT_UPLOAD", "true");
    let r = v.run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    assert!(
        r.annotations()
            .iter()
            .any(|a| a.starts_with("::error") && a.contains("bad rule"))
    );
}

#[test]
fn a_lone_ref_input_is_a_usage_error() {
    let ws = pack_repo(CHECKOUT);
    let r = Ci::new().set("INPUT_REF", "refs/heads/x").run(ws.path());
    assert_eq!(r.code, 2, "{r}");
    assert!(r.stderr.contains("give both or neither"), "{r}");
}
