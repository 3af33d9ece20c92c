//! The `annotations` input and the `shard` input, against the stand-in for GitHub's API:
//! a check run is created `in_progress`, takes 50 annotations a request, at most 1,000, and is
//! completed by one final update; a rate limit stops it with a notice, never the verdict;
//! workflow commands show the ten that matter most of each level and count the rest, and
//! shards partition the packs stably.

use crate::common;

use common::ci_env::pull_request_event;
use common::ci_run::{Ci, CiRun};
use common::github_api::{check_run, files_json};
use common::standin::{Reply, Request, Server};
use std::path::Path;

const HEAD: &str = "3333333333333333333333333333333333333333";
const MERGE: &str = "1111111111111111111111111111111111111111";

/// GitHub with the Checks API answering `checks` for a created run.
fn github(
    checks: u16,
    files: &'static [&'static str],
) -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    move |req, _| match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/check-runs") && checks == 201 => {
            Reply::Json(201, check_run(42))
        }
        ("POST", p) if p.ends_with("/check-runs") => Reply::Json(
            checks,
            r#"{"message": "Resource not accessible by integration"}"#.into(),
        ),
        ("PATCH", p) if p.ends_with("/check-runs/42") => Reply::Json(200, check_run(42)),
        ("GET", p) if p.ends_with("/files") => Reply::Json(200, files_json(files)),
        _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
    }
}

/// `n` copies of the broken example (4 errors and 8 warnings each) under `packs/b<i>`, each
/// named `b<i>`.
fn broken_registry(n: usize) -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    for i in 0..n {
        let pack = common::copy_pack("broken", &ws.path().join("packs"), &format!("b{i}"));
        common::name_pack(&pack, &format!("b{i}"));
    }
    ws
}

/// A pull request (#7) with `annotations`, uploading nothing, the API at `api`, annotating
/// every finding (`filter-mode: all`: these tests count what each channel holds).
fn pull_request(api: &str, annotations: &str) -> Ci {
    let mut ci = reviewed(api, annotations);
    ci.set("INPUT_FILTER-MODE", "all");
    ci
}

/// [`pull_request`] with `filter-mode` at its default.
fn reviewed(api: &str, annotations: &str) -> Ci {
    let mut event = pull_request_event("octo/packs", false, Some(1));
    event["pull_request"]["merge_commit_sha"] = MERGE.into();
    event["pull_request"]["head"]["sha"] = HEAD.into();
    let mut ci = Ci::new();
    ci.set_all(&[
        ("GITHUB_REPOSITORY", "octo/packs"),
        ("GITHUB_SHA", MERGE),
        ("GITHUB_REF", "refs/pull/7/merge"),
        ("GITHUB_EVENT_NAME", "pull_request"),
        ("INPUT_TOKEN", "ghs_annotationsToken"),
        ("INPUT_UPLOAD", "false"),
        ("INPUT_ANNOTATIONS", annotations),
    ])
    .api(api)
    .event(&event.to_string())
    .args(&["--http-timeout", "3"]);
    ci
}

/// The finding annotations printed as workflow commands (`title=hippo-packs (<rule>)`).
fn finding_lines(r: &CiRun) -> Vec<&str> {
    r.annotations()
        .into_iter()
        .filter(|l| {
            !l.contains("title=hippo-packs (annotations)")
                && !l.contains("(scope)")
                && !l.contains("(review)")
        })
        .collect()
}

#[test]
fn commands_show_ten_of_each_level_the_changed_pack_first_then_a_count() {
    let gh = Server::start(github(404, &["packs/b3/pack.toml"]));
    let ws = broken_registry(4);
    let r = pull_request(&gh.url, "commands").run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    let lines = finding_lines(&r);
    let errors: Vec<&&str> = lines.iter().filter(|l| l.starts_with("::error")).collect();
    let warnings: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("::warning"))
        .collect();
    assert_eq!((errors.len(), warnings.len()), (10, 10), "{r}");
    // The gated pack's errors (b3: the pull request touches it) come first, pack.toml's first.
    assert!(
        errors[..4].iter().all(|l| l.contains("file=packs/b3/")),
        "{errors:#?}"
    );
    assert!(errors[0].contains("file=packs/b3/pack.toml"), "{errors:#?}");
    let count = r
        .annotations()
        .into_iter()
        .find(|l| l.contains("title=hippo-packs (annotations)"))
        .expect("a notice with the count");
    assert!(count.starts_with("::notice"), "{count}");
    assert!(
        count.contains("28 more findings are not annotated here (6 errors, 22 warnings)"),
        "{count}"
    );
    assert!(
        gh.requests()
            .iter()
            .all(|q| !q.path().ends_with("/check-runs")),
        "commands only"
    );
}

#[test]
fn filter_mode_new_annotates_the_new_findings_and_a_gated_packs_errors() {
    let gh = Server::start(github(404, &["packs/b1/pack.toml"]));
    let ws = broken_registry(2);
    let r = reviewed(&gh.url, "commands").run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    let lines = finding_lines(&r);
    // No base is read here, so every finding of the touched pack is new (fail closed); the
    // untouched pack's are not the pull request's.
    assert_eq!(lines.len(), 12, "b1's 4 errors and 8 warnings: {r}");
    assert!(lines.iter().all(|l| l.contains("file=packs/b1/")), "{r}");
    // Control: `filter-mode: all` annotates the untouched pack's too (its errors as notices).
    let r = pull_request(&gh.url, "commands").run(ws.path());
    let lines = finding_lines(&r);
    assert!(lines.iter().any(|l| l.contains("file=packs/b0/")), "{r}");
}

#[test]
fn a_check_run_holds_every_finding_in_batches_of_fifty() {
    let gh = Server::start(github(201, &["packs/b0/pack.toml"]));
    let ws = broken_registry(6);
    let r = pull_request(&gh.url, "auto").run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    assert!(
        finding_lines(&r).is_empty(),
        "no workflow commands beside the check run: {r}"
    );
    let reqs: Vec<Request> = gh
        .requests()
        .into_iter()
        .filter(|q| q.path().contains("/check-runs"))
        .collect();
    assert_eq!(reqs.len(), 2, "72 annotations: 50, then 22");
    let create = reqs[0].json();
    assert_eq!(reqs[0].method, "POST");
    assert_eq!(
        create["name"], "hippo-packs findings",
        "a name no job of the examples has"
    );
    assert_eq!(
        create["head_sha"], HEAD,
        "the pull request's head, where the checks show"
    );
    assert_eq!(create["status"], "in_progress");
    assert!(create.get("conclusion").is_none(), "{create}");
    let last = reqs[1].json();
    assert_eq!(
        (&last["status"], &last["conclusion"]),
        (&"completed".into(), &"failure".into()),
        "the final update completes the run"
    );
    let first = create["output"]["annotations"].as_array().unwrap();
    let second = last["output"]["annotations"].as_array().unwrap().clone();
    assert_eq!((first.len(), second.len()), (50, 22));
    assert_eq!(reqs[1].method, "PATCH");
    assert_eq!(first[0]["annotation_level"], "failure");
    assert!(
        first[0]["path"].as_str().unwrap().starts_with("packs/b0/"),
        "{}",
        first[0]
    );
    assert_eq!(second.last().unwrap()["annotation_level"], "warning");
    assert!(
        r.stdout.contains("holds all 72 annotations (2 requests)"),
        "{r}"
    );
}

#[test]
fn a_check_run_holds_at_most_a_thousand_findings_the_gated_pack_first() {
    // 90 broken packs: 1,080 findings; the pull request changes packs/b89.
    let gh = Server::start(github(201, &["packs/b89/pack.toml"]));
    let ws = broken_registry(90);
    let mut ci = pull_request(&gh.url, "auto");
    ci.set("INPUT_TEST", "false");
    let r = ci.run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    let reqs: Vec<Request> = gh
        .requests()
        .into_iter()
        .filter(|q| q.path().contains("/check-runs"))
        .collect();
    assert_eq!(reqs.len(), 20, "1,000 annotations in 20 requests");
    let sizes: Vec<usize> = reqs
        .iter()
        .map(|q| q.json()["output"]["annotations"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, vec![50; 20]);
    let first = &reqs[0].json()["output"]["annotations"];
    assert!(
        first.as_array().unwrap()[..12]
            .iter()
            .all(|a| a["path"].as_str().unwrap().starts_with("packs/b89/")),
        "the gated pack's findings first: {first}"
    );
    let summary = reqs[19].json()["output"]["summary"].clone();
    assert!(
        summary.as_str().unwrap().contains("first 1000 of 1080")
            && summary.as_str().unwrap().contains("other 80"),
        "{summary}"
    );
    assert!(
        r.stdout
            .contains("holds 1000 of 1080 annotations (20 requests)"),
        "{r}"
    );
}

#[test]
fn a_rate_limit_stops_annotating_with_a_notice_and_the_verdict_stands() {
    let limited = Server::start(|req: &Request, _| match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/check-runs") => Reply::Json(201, check_run(42)),
        ("PATCH", _) => Reply::JsonWith(
            403,
            r#"{"message": "You have exceeded a secondary rate limit."}"#.into(),
            vec![("retry-after".into(), "1".into())],
        ),
        ("GET", p) if p.ends_with("/files") => {
            Reply::Json(200, files_json(&["packs/b0/pack.toml"]))
        }
        _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
    });
    let ws = broken_registry(6);
    let r = pull_request(&limited.url, "auto").run(ws.path());
    assert_eq!(r.code, 1, "the verdict stands: {r}");
    let patches = limited
        .requests()
        .iter()
        .filter(|q| q.method == "PATCH")
        .count();
    assert_eq!(patches, 2, "retried once after retry-after: {r}");
    let notice = annotations_notice(&r);
    assert!(
        notice.contains("rate limit") && notice.contains("after 50 of 72 annotations"),
        "{notice}"
    );
    assert!(!r.all_text().contains("no check run"), "there is one: {r}");
    assert!(finding_lines(&r).is_empty(), "{r}");
    // Control: the same run without the limit completes the check run.
    let gh = Server::start(github(201, &["packs/b0/pack.toml"]));
    let r = pull_request(&gh.url, "auto").run(ws.path());
    assert!(r.stdout.contains("holds all 72 annotations"), "{r}");
}

#[test]
fn auto_falls_back_to_commands_without_checks_write_and_none_is_silent() {
    let gh = Server::start(github(403, &[]));
    let ws = broken_registry(1);
    let r = pull_request(&gh.url, "auto").run(ws.path());
    let notice = annotations_notice(&r);
    assert!(
        notice.starts_with("::notice") && notice.contains("HTTP 403"),
        "{notice}"
    );
    assert_eq!(finding_lines(&r).len(), 4 + 8, "{r}");
    let r = pull_request(&gh.url, "none").run(ws.path());
    assert_eq!(r.code, 1, "none changes no verdict: {r}");
    assert!(finding_lines(&r).is_empty(), "{r}");
}

/// Which packs a run checked (its `::group::` lines).
fn groups(r: &CiRun) -> Vec<String> {
    r.stdout
        .lines()
        .filter_map(|l| l.strip_prefix("::group::"))
        .map(|l| l.split(':').next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn shards_partition_the_packs_stably_each_under_its_category() {
    let ws = tempfile::tempdir().unwrap();
    let good = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log");
    for i in 0..12 {
        let pack = ws.path().join(format!("packs/p{i:02}"));
        common::copy_tree(&good, &pack);
        common::name_pack(&pack, &format!("p{i:02}"));
    }
    let run_all = |ws: &Path| -> Vec<Vec<String>> {
        (1..=3)
            .map(|i| {
                let shard = format!("{i}/3");
                let r = Ci::new()
                    .set_all(&[("INPUT_SHARD", &shard), ("INPUT_TEST", "false")])
                    .run(ws);
                assert_eq!(r.code, 0, "{r}");
                let file = r.out("sarif-file").unwrap_or_default();
                assert!(
                    file.ends_with(&format!("/hippo-packs-shard-{i}-of-3.sarif")),
                    "a file of the shard's own: {r}"
                );
                let log = common::valid_sarif(r.sarif.as_deref().expect("the SARIF"));
                assert_eq!(
                    log["runs"][0]["automationDetails"]["id"],
                    format!("hippo-packs/shard-{i}-of-3/")
                );
                groups(&r)
            })
            .collect()
    };
    let before = run_all(ws.path());
    let mut union: Vec<String> = before.concat();
    union.sort();
    let expected: Vec<String> = (0..12).map(|i| format!("packs/p{i:02}")).collect();
    assert_eq!(union, expected, "every pack in exactly one shard");
    assert!(
        before.iter().filter(|s| !s.is_empty()).count() >= 2,
        "{before:?}"
    );
    // Adding packs moves no existing pack.
    for i in 12..20 {
        let pack = ws.path().join(format!("packs/p{i:02}"));
        common::copy_tree(&good, &pack);
        common::name_pack(&pack, &format!("p{i:02}"));
    }
    let after = run_all(ws.path());
    for (b, a) in before.iter().zip(&after) {
        assert!(b.iter().all(|p| a.contains(p)), "{b:?} -> {a:?}");
    }
    let bad = Ci::new().set("INPUT_SHARD", "4/3").run(ws.path());
    assert_eq!(
        bad.code, 2,
        "control: a shard past the count is a usage error"
    );
}

/// The notice `ci` gives about its annotations (rate limit, no permission).
fn annotations_notice(r: &CiRun) -> String {
    r.annotations()
        .into_iter()
        .find(|l| l.contains("title=hippo-packs (annotations)"))
        .expect("a notice")
        .to_string()
}
