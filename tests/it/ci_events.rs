//! Which packs gate on each event a registry uses (docs/action.md, "Events"): the pull
//! request's files counted as files, not paths (a rename lists two), and its count read from
//! the pull request itself when the payload lacks it.

use crate::common;

use common::ci_env::{hygiene, our_repository, pull_request, pull_request_event, workspace};
use common::github_api::{accepted, entries_json, example, forbidden, processing};
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
            // The description's own example lists a team without the `type` its schema
            // requires; no team is asked to review here.
            pr["requested_teams"] = serde_json::json!([]);
            Reply::Json(200, pr.to_string())
        }
        ("POST", p) if p.ends_with("/sarifs") => accepted(),
        ("GET", p) if p.contains("/sarifs/") => Reply::Json(200, processing("complete")),
        _ => forbidden(),
    }
}

/// Two renames inside the good pack (to files the checkout holds): two files, four paths.
const RENAMES: &[(&str, &str, Option<&str>)] = &[
    (
        "packs/good/prompts/decision-log.md",
        "renamed",
        Some("packs/good/prompts/a.md"),
    ),
    ("packs/good/README.md", "renamed", Some("packs/good/c.md")),
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
    pull_request_event("octo/packs", false, None).to_string()
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

/// A merge_group event (GitHub's example) for octo/packs, with a base and a head commit.
fn merge_group_event() -> String {
    let mut e = example("event-merge_group");
    our_repository(&mut e);
    e["merge_group"]["base_sha"] = "1111111111111111111111111111111111111111".into();
    e["merge_group"]["head_sha"] = "2222222222222222222222222222222222222222".into();
    e.to_string()
}

/// GitHub comparing the merge group's commits: `n` files of the good pack (the first its
/// README, which the checkout holds).
fn compare(n: usize) -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    move |req, _| match (req.method.as_str(), req.path()) {
        ("GET", p) if p.contains("/compare/") => {
            let mut c = example("commit-comparison");
            let names: Vec<String> = (0..n)
                .map(|i| match i {
                    0 => "packs/good/README.md".to_string(),
                    i => format!("packs/good/f{i}.md"),
                })
                .collect();
            let entries: Vec<(&str, &str, Option<&str>)> = names
                .iter()
                .map(|f| (f.as_str(), "modified", None))
                .collect();
            c["files"] = serde_json::from_str(&entries_json(&entries)).unwrap();
            Reply::Json(200, c.to_string())
        }
        _ => forbidden(),
    }
}

#[test]
fn a_merge_group_gates_the_packs_it_changes_and_300_listed_gates_all() {
    let ws = workspace();
    let run = |n: usize| {
        let gh = Server::start(compare(n));
        let mut ci = pull_request(&gh.url, false, 0);
        ci.set("GITHUB_EVENT_NAME", "merge_group")
            .set("GITHUB_REF", "refs/heads/gh-readonly-queue/main/pr-7-1111")
            .set("GITHUB_SHA", "2222222222222222222222222222222222222222")
            .set("INPUT_UPLOAD", "false")
            .event(&merge_group_event());
        let r = ci.run(ws.path());
        let compared = gh
            .requests()
            .iter()
            .any(|q| q.path().ends_with("/compare/1111111111111111111111111111111111111111...2222222222222222222222222222222222222222"));
        assert!(compared, "{r}");
        r
    };
    let r = run(1);
    assert_eq!(
        r.code, 0,
        "scope defaults to changed; only the good pack changed: {r}"
    );
    assert!(
        r.stdout
            .contains("the merge group changes 1 file, in 1 of 2 packs"),
        "{r}"
    );
    let r = run(300);
    assert_eq!(
        r.code, 1,
        "300 listed may be a cut list: every pack gates: {r}"
    );
    assert!(r.stdout.contains("compare lists at most 300"), "{r}");
}
