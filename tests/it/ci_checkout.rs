//! The commit a pull request's run belongs to, found as `github/codeql-action` finds it
//! (docs/action.md, "The commit and the ref"): the checked-out `HEAD` against `GITHUB_SHA`, then
//! against `refs/remotes/pull/<n>/merge` (what `actions/checkout` fetches a pull request's merge
//! into), and only then against the payload's `head.sha` and `merge_commit_sha`, which is stale
//! after a push to the pull request. On GitHub's webhook examples for `opened` and `synchronize`,
//! for `pull_request` and `pull_request_target` with a merge checkout, against the stand-in.

use crate::common;

use common::ci_env::{HEAD_SHA, pull_request_example};
use common::ci_run::{Ci, CiRun};
use common::github_api::{accepted, check_run, files_json, processing};
use common::standin::{Reply, Request, Server};

const TOKEN: &str = "ghs_checkoutTestToken";
/// The test merge GitHub made for this push: `GITHUB_SHA` on `pull_request`.
const MERGE: &str = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";
/// The test merge of the push before: what `merge_commit_sha` still says on `synchronize`.
const STALE: &str = "5555555555555555555555555555555555555555";
/// The base branch's last commit: `GITHUB_SHA` on `pull_request_target`.
const BASE: &str = "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0";

/// GitHub: the upload accepted and processed, the pull request's one changed file, a check run.
fn github() -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    |req, _| match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/code-scanning/sarifs") => accepted(),
        ("GET", p) if p.contains("/code-scanning/sarifs/") => {
            Reply::Json(200, processing("complete"))
        }
        ("GET", p) if p.ends_with("/files") => {
            Reply::Json(200, files_json(&["packs/good/pack.toml"]))
        }
        ("POST", p) if p.ends_with("/check-runs") => Reply::Json(201, check_run(42)),
        ("PATCH", p) if p.ends_with("/check-runs/42") => Reply::Json(200, check_run(42)),
        _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
    }
}

/// A workspace holding `packs/good` and a `.git` as `actions/checkout` leaves it: `HEAD`
/// detached at `head`, and `refs/remotes/pull/7/merge` at `merge` when it fetched one.
fn checkout(head: &str, merge: Option<&str>) -> tempfile::TempDir {
    let ws = common::ci_env::good_workspace();
    let git = ws.path().join(".git");
    std::fs::create_dir_all(git.join("refs/remotes/pull/7")).unwrap();
    std::fs::write(git.join("HEAD"), format!("{head}\n")).unwrap();
    if let Some(m) = merge {
        std::fs::write(git.join("refs/remotes/pull/7/merge"), format!("{m}\n")).unwrap();
    }
    ws
}

/// The webhook example `name` (`opened` or `synchronize`) of pull request #7 on octo/packs,
/// its `merge_commit_sha` as given (`None`: null, as GitHub's `opened` example has it).
fn event(name: &str, merge_commit_sha: Option<&str>) -> String {
    let mut e = pull_request_example(name, "octo/packs", false, Some(1));
    e["pull_request"]["merge_commit_sha"] = merge_commit_sha.into();
    e.to_string()
}

/// A run on `event_name` with the event, the API at `api` and the variables the runner sets.
fn ci(api: &str, event_name: &str, payload: &str) -> Ci {
    let target = event_name == "pull_request_target";
    let mut ci = Ci::new();
    ci.set_all(&[
        ("GITHUB_REPOSITORY", "octo/packs"),
        ("GITHUB_EVENT_NAME", event_name),
        ("GITHUB_SHA", if target { BASE } else { MERGE }),
        (
            "GITHUB_REF",
            if target {
                "refs/heads/main"
            } else {
                "refs/pull/7/merge"
            },
        ),
        ("INPUT_TOKEN", TOKEN),
        ("INPUT_PATH", "packs"),
    ])
    .api(api)
    .event(payload)
    .args(&["--http-timeout", "5", "--upload-wait", "5"]);
    ci
}

/// The upload's `(commit_sha, ref)`.
fn uploaded(gh: &Server, r: &CiRun) -> (String, String) {
    let ups = gh.uploads();
    assert_eq!(ups.len(), 1, "one upload: {r}");
    let b = ups[0].json();
    let s = |k: &str| b[k].as_str().unwrap_or_default().to_string();
    (s("commit_sha"), s("ref"))
}

/// The check run's commit, when one was created.
fn check_run_commit(gh: &Server) -> Option<String> {
    gh.requests()
        .iter()
        .find(|q| q.method == "POST" && q.path().ends_with("/check-runs"))
        .map(|q| {
            q.json()["head_sha"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
}

/// The merge checkout of each example, on each event: the new merge goes up under
/// `refs/pull/7/merge`, and the check run lands on the pull request's head.
#[test]
fn a_merge_checkout_uploads_the_merge_after_every_push() {
    let cases = [
        ("pull_request", "event-pull_request-opened", None),
        ("pull_request", "event-pull_request", Some(STALE)),
        ("pull_request_target", "event-pull_request-opened", None),
        ("pull_request_target", "event-pull_request", Some(STALE)),
    ];
    let mut wrong = Vec::new();
    for (event_name, example, merge_commit_sha) in cases {
        let gh = Server::start(github());
        let ws = checkout(MERGE, Some(MERGE));
        let r = ci(&gh.url, event_name, &event(example, merge_commit_sha)).run(ws.path());
        let ups: Vec<(String, String)> = gh
            .uploads()
            .iter()
            .map(|u| {
                let b = u.json();
                let s = |k: &str| b[k].as_str().unwrap_or_default().to_string();
                (s("commit_sha"), s("ref"))
            })
            .collect();
        let seen = (r.code, ups, check_run_commit(&gh));
        let want = (
            0,
            vec![(MERGE.to_string(), "refs/pull/7/merge".to_string())],
            Some(HEAD_SHA.to_string()),
        );
        if seen != want {
            wrong.push(format!("{event_name} on {example}: {seen:?}\n{r}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 4 cases:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// `actions/checkout` on `pull_request` without the merge ref in `.git` (a checkout made by
/// another tool): `HEAD` against `GITHUB_SHA` alone finds the merge.
#[test]
fn on_pull_request_the_checkout_of_github_sha_is_the_merge() {
    let gh = Server::start(github());
    let ws = checkout(MERGE, None);
    let r = ci(
        &gh.url,
        "pull_request",
        &event("event-pull_request", Some(STALE)),
    )
    .run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(
        uploaded(&gh, &r),
        (MERGE.to_string(), "refs/pull/7/merge".to_string())
    );
    assert!(
        r.stdout
            .contains(&format!("upload: commit {MERGE} on refs/pull/7/merge")),
        "{r}"
    );
}

/// Controls: a checkout that is none of the pull request's commits is not uploaded; a
/// `pull_request_target` checkout of the base is refused as before, and the head goes up under
/// `refs/pull/7/head`.
#[test]
fn control_other_checkouts_are_not_taken_for_the_merge() {
    // HEAD moved off the merge the checkout fetched (`git checkout HEAD~1`, say).
    let gh = Server::start(github());
    let moved = "9999999999999999999999999999999999999999";
    let ws = checkout(moved, Some(MERGE));
    let r = ci(
        &gh.url,
        "pull_request",
        &event("event-pull_request", Some(STALE)),
    )
    .run(ws.path());
    assert_eq!(r.code, 0, "auto: a skipped upload changes no verdict: {r}");
    assert!(gh.uploads().is_empty(), "{r}");
    assert!(
        r.upload_notices()
            .concat()
            .contains("neither the head nor the merge commit"),
        "{r}"
    );

    // pull_request_target with the default checkout: the base branch.
    let gh = Server::start(github());
    let ws = checkout(BASE, None);
    let r = ci(
        &gh.url,
        "pull_request_target",
        &event("event-pull_request", Some(STALE)),
    )
    .run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    assert!(gh.uploads().is_empty(), "{r}");
    assert_eq!(check_run_commit(&gh), None, "{r}");

    // The head checked out (`ref: ${{ github.event.pull_request.head.sha }}`).
    let gh = Server::start(github());
    let ws = checkout(HEAD_SHA, None);
    let r = ci(
        &gh.url,
        "pull_request_target",
        &event("event-pull_request-opened", None),
    )
    .run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(
        uploaded(&gh, &r),
        (HEAD_SHA.to_string(), "refs/pull/7/head".to_string())
    );
}

/// The merge ref may be packed (`git pack-refs`), as `.git` allows.
#[test]
fn a_packed_merge_ref_is_read() {
    let gh = Server::start(github());
    let ws = checkout(MERGE, None);
    std::fs::write(
        ws.path().join(".git/packed-refs"),
        format!(
            "# pack-refs with: peeled fully-peeled sorted\n{MERGE} refs/remotes/pull/7/merge\n"
        ),
    )
    .unwrap();
    let r = ci(
        &gh.url,
        "pull_request_target",
        &event("event-pull_request", Some(STALE)),
    )
    .run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(
        uploaded(&gh, &r),
        (MERGE.to_string(), "refs/pull/7/merge".to_string())
    );
}
