//! Which packs gate on each event a registry uses (docs/action.md, "Events"): the pull
//! request's files counted as files, not paths (a rename lists two), and its count read from
//! the pull request itself when the payload lacks it.

mod common;

use common::ci_env::{hygiene, pull_request, workspace};
use common::github_api::{accepted, entries_json, example, processing};
use common::standin::{Reply, Request, Server};

/// GitHub listing `files` for pull request #7 (and answering `GET /pulls/7` with
/// `changed_files: count`), taking the upload.
fn github(
    files: &'static [(&'static str, &'static str, Option<&'static str>)],
    count: u64,
) -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    move |req, _| match (req.method.as_str(), req.path()) {
        ("GET", p) if p.ends_with("/pulls/7/files") => Reply::Json(200, entries_json(files)),
        ("GET", p) if p.ends_with("/pulls/7") => {
            let mut pr = example("pull-request");
            pr["number"] = 7.into();
            pr["changed_files"] = count.into();
            Reply::Json(200, pr.to_string())
        }
        ("POST", p) if p.ends_with("/sarifs") => accepted(),
        ("GET", p) if p.contains("/sarifs/") => Reply::Json(200, processing("complete")),
        _ => Reply::Json(
            403,
            r#"{"message": "Resource not accessible by integration"}"#.into(),
        ),
    }
}

/// Two renames inside the good pack: two files, four paths.
const RENAMES: &[(&str, &str, Option<&str>)] = &[
    (
        "packs/good/prompts/b.md",
        "renamed",
        Some("packs/good/prompts/a.md"),
    ),
    (
        "packs/good/prompts/d.md",
        "renamed",
        Some("packs/good/prompts/c.md"),
    ),
];

#[test]
fn truncation_counts_files_not_the_paths_of_renames() {
    let gh = Server::start(github(RENAMES, 0));
    let ws = workspace();
    // Three files changed, two listed (four paths): the third may be in the broken pack.
    let r = pull_request(&gh.url, false, 3).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "a cut list gates every pack: {r}");
    assert!(
        r.stdout
            .contains("pull request #7 changes 3 files and GitHub lists only 2; every pack gates"),
        "{r}"
    );
    // Control: the whole list (two files) gates the good pack only.
    let r = pull_request(&gh.url, false, 2).run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert!(
        r.stdout
            .contains("pull request #7 changes 2 files, in 1 of 2 packs"),
        "{r}"
    );
}

/// A pull_request event whose payload has no `changed_files`.
fn without_count() -> String {
    serde_json::json!({"action": "synchronize", "number": 7, "pull_request": {"number": 7,
        "head": {"repo": {"full_name": "octo/packs"}}, "base": {"repo": {"full_name": "octo/packs"}}}})
    .to_string()
}

#[test]
fn without_changed_files_in_the_payload_the_pull_request_gives_it() {
    const ONE: &[(&str, &str, Option<&str>)] = &[("packs/good/README.md", "modified", None)];
    let gh = Server::start(github(ONE, 4));
    let ws = workspace();
    let mut ci = pull_request(&gh.url, false, 1);
    ci.event(&without_count());
    let r = ci.run(ws.path());
    assert_eq!(r.code, 1, "4 changed, 1 listed: every pack gates: {r}");
    assert!(
        r.stdout.contains("changes 4 files and GitHub lists only 1"),
        "{r}"
    );
    assert!(
        gh.requests()
            .iter()
            .any(|q| q.method == "GET" && q.path() == "/repos/octo/packs/pulls/7"),
        "{r}"
    );
    // Control: the pull request says 1, the list is whole.
    let gh = Server::start(github(ONE, 1));
    let mut ci = pull_request(&gh.url, false, 1);
    ci.event(&without_count());
    let r = ci.run(ws.path());
    assert_eq!(r.code, 0, "{r}");
}
