//! GitHub's own description of its API and its own event payloads, as the tests of `ci` use
//! them (tests/common/proxy.rs, tests/data/github/): the validating proxy refuses what the
//! description refuses, the committed examples are the packages' own, and a run on GitHub's
//! pull_request example gates the pack the pull request changes.

use crate::common;

use common::ci_env::{hygiene, pull_request, pull_request_event, workspace};
use common::github_api::{accepted, check_run, files_json, processing};
use common::standin::{Reply, Request, Server, send};

#[test]
#[cfg_attr(not(feature = "external-tools"), ignore = "needs node and prism")]
fn the_proxy_refuses_what_githubs_description_refuses() {
    let gh = Server::start(|req: &Request, _| match req.method.as_str() {
        "POST" => Reply::Json(201, check_run(42)),
        // An update answered with less than a check run.
        _ => Reply::Json(200, r#"{"id": 42}"#.into()),
    });
    let route = "/repos/octo/packs/check-runs";
    let good = r#"{"name": "hippo-packs findings", "head_sha": "0123456789abcdef0123456789abcdef01234567", "status": "in_progress"}"#;
    assert_eq!(send(&gh.url, "POST", route, good), 201);
    assert_eq!(
        gh.take_violations(),
        Some(Vec::new()),
        "control: a described request and answer pass"
    );
    send(
        &gh.url,
        "POST",
        route,
        r#"{"name": "x", "status": "bogus"}"#,
    );
    let refused = gh.take_violations().unwrap();
    assert_eq!(refused.len(), 1, "{refused:#?}");
    assert!(
        refused[0].contains("head_sha") && refused[0].contains("status"),
        "{refused:#?}"
    );
    send(
        &gh.url,
        "PATCH",
        &format!("{route}/42"),
        r#"{"status": "completed", "conclusion": "success"}"#,
    );
    let refused = gh.take_violations().unwrap();
    assert!(
        refused.len() == 1 && refused[0].contains("node_id"),
        "an answer the description refuses: {refused:#?}"
    );
    send(&gh.url, "GET", "/repos/octo/packs/issues", "");
    assert_eq!(
        gh.take_violations().unwrap().len(),
        1,
        "a route `ci` has no business with"
    );
}

#[test]
#[cfg_attr(not(feature = "external-tools"), ignore = "needs node and prism")]
fn the_committed_examples_are_the_packages_own() {
    let out = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let made = std::process::Command::new("python3")
        .arg(root.join("scripts/github_examples.py"))
        .arg(root.join(".ci/node/node_modules"))
        .arg(out.path())
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let committed = root.join("tests/data/github");
    let mut names = 0;
    for e in std::fs::read_dir(out.path()).unwrap() {
        let e = e.unwrap();
        let ours = std::fs::read(committed.join(e.file_name())).unwrap_or_default();
        assert!(
            ours == std::fs::read(e.path()).unwrap(),
            "tests/data/github/{} differs from the npm packages: run scripts/github_examples.py",
            e.file_name().to_string_lossy()
        );
        names += 1;
    }
    assert!(names >= 9, "{names}");
}

/// GitHub's pull_request example, moved to octo/packs, #7, `changed` files.
fn example_pull_request(changed: u64) -> String {
    pull_request_event("octo/packs", false, Some(changed)).to_string()
}

#[test]
fn githubs_pull_request_example_gates_the_changed_pack() {
    let gate = |file: &'static [&'static str]| {
        let gh = Server::start(
            move |req: &Request, _| match (req.method.as_str(), req.path()) {
                ("GET", p) if p.ends_with("/files") => Reply::Json(200, files_json(file)),
                ("POST", p) if p.ends_with("/sarifs") => accepted(),
                ("GET", p) if p.contains("/sarifs/") => Reply::Json(200, processing("complete")),
                ("POST", p) if p.ends_with("/check-runs") => Reply::Json(201, check_run(42)),
                _ => Reply::Json(200, check_run(42)),
            },
        );
        let ws = workspace();
        let mut ci = pull_request(&gh.url, false, 1);
        ci.event(&example_pull_request(1));
        let r = ci.run(ws.path());
        hygiene(&r);
        r
    };
    let r = gate(&["packs/broken/pack.toml"]);
    assert_eq!(r.code, 1, "the broken pack is changed: {r}");
    assert!(
        r.stdout
            .contains("pull request #7 changes 1 file, in 1 of 2 packs"),
        "{r}"
    );
    let r = gate(&["packs/good/README.md"]);
    assert_eq!(r.code, 0, "control: only the good pack is changed: {r}");
}
