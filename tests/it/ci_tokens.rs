//! Fork and Dependabot pull requests (docs/action.md, "Fork and Dependabot pull requests"):
//! whether a token may write cannot be known before asking (GitHub raises a Dependabot token to
//! what the job's `permissions:` grant), so the upload is always tried; a 403 is the notice that
//! names `upload: false` and `github/codeql-action/upload-sarif`, and only `upload: true` written
//! by the user makes it fail the job. Against the stand-in for GitHub's API.

use crate::common;

use common::ci_env::{hygiene, pull_request, pull_request_event, workspace};
use common::ci_run::{Ci, CiRun};
use common::github_api::{accepted, files_json, forbidden, processing};
use common::standin::{Reply, Request, Server};

/// GitHub: the pull request touches `packs/good`; the upload is accepted, or refused with 403
/// (`upload_status` 403: the token is read-only).
fn github(upload_status: u16) -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    move |req, _| match (req.method.as_str(), req.path()) {
        ("GET", p) if p.ends_with("/files") => {
            Reply::Json(200, files_json(&["packs/good/README.md"]))
        }
        ("POST", p) if p.ends_with("/code-scanning/sarifs") && upload_status == 403 => forbidden(),
        ("POST", p) if p.ends_with("/code-scanning/sarifs") => accepted(),
        ("GET", p) if p.contains("/code-scanning/sarifs/") => {
            Reply::Json(200, processing("complete"))
        }
        ("POST", p) if p.ends_with("/check-runs") => forbidden(),
        _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
    }
}

/// A pull request (#7) on octo/packs by `author`, from a fork or not.
fn pr(api: &str, author: &str, fork: bool) -> Ci {
    let mut event = pull_request_event("octo/packs", fork, Some(1));
    event["pull_request"]["user"]["login"] = author.into();
    let mut ci = pull_request(api, fork, 1);
    ci.event(&event.to_string());
    ci
}

fn notice(r: &CiRun) -> String {
    r.upload_notices().concat()
}

/// The route the notice must name.
fn names_the_route(r: &CiRun) -> bool {
    let n = notice(r);
    n.contains("`upload: false`") && n.contains("github/codeql-action/upload-sarif")
}

#[test]
fn a_dependabot_pull_request_uploads_when_the_job_grants_it() {
    let gh = Server::start(github(202));
    let ws = workspace();
    let r = pr(&gh.url, "dependabot[bot]", false).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(gh.uploads().len(), 1, "the upload is tried: {r}");
    assert_eq!(r.out("uploaded"), Some("true"), "{r}");
    assert!(notice(&r).is_empty(), "nothing to say: {r}");
}

#[test]
fn a_read_only_token_is_the_notice_and_fails_only_under_upload_true() {
    for (author, fork) in [("dependabot[bot]", false), ("someone", true)] {
        let gh = Server::start(github(403));
        let ws = workspace();
        let what = format!("{author}, fork {fork}");
        let r = pr(&gh.url, author, fork).run(ws.path());
        hygiene(&r);
        assert_eq!(gh.uploads().len(), 1, "{what}: tried: {r}");
        assert_eq!(r.code, 0, "{what}: auto keeps the verdict: {r}");
        assert_eq!(r.out("uploaded"), Some("false"), "{what}");
        assert!(
            notice(&r).starts_with("::notice "),
            "{what}: one notice: {r}"
        );
        assert!(names_the_route(&r), "{what}: {r}");
        assert!(
            r.summary.contains("upload-sarif"),
            "{what}: the summary says it too:\n{}",
            r.summary
        );

        // `upload: true`, as the user writes it: the same words, as an error, exit 1.
        let mut ci = pr(&gh.url, author, fork);
        ci.set("INPUT_UPLOAD", "true");
        let r = ci.run(ws.path());
        assert_eq!(r.code, 1, "{what}: {r}");
        assert!(notice(&r).starts_with("::error "), "{what}: {r}");
        assert!(names_the_route(&r), "{what}: {r}");
    }
}

#[test]
fn control_a_refusal_on_the_repositorys_own_pull_request_names_the_permission() {
    let gh = Server::start(github(403));
    let ws = workspace();
    let r = pr(&gh.url, "octocat", false).run(ws.path());
    assert_eq!(gh.uploads().len(), 1, "{r}");
    assert_eq!(r.code, 0, "{r}");
    let n = notice(&r);
    assert!(n.contains("security-events: write"), "{r}");
    assert!(
        !n.contains("github/codeql-action/upload-sarif"),
        "not the fork's route: {r}"
    );
}
