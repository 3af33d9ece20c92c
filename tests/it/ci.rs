//! `hippo-packs ci` as GitHub runs it in the container, and the SARIF upload: the real binary,
//! the environment a container action gets, and a small HTTP server on 127.0.0.1 standing for
//! GitHub's API (tests/common/standin.rs). Nothing reaches the internet. The gate by scope is in
//! ci_gate.rs, action.yml and the Dockerfile in ci_action.rs.

use crate::common;

use common::ci_env::*;
use common::ci_run::CiRun;
use common::github_api::*;
use common::standin::{Reply, Request, Server};
use std::path::Path;
use std::time::Duration;

#[test]
fn push_uploads_and_processing_completes() {
    let server = Server::start(github(&[]));
    let ws = workspace();
    let r = push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "the broken pack fails the push:\n{r}");

    // The report, grouped per pack, in byte order of the paths.
    let groups: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("::group::"))
        .collect();
    assert_eq!(
        groups,
        vec!["::group::packs/broken: 1 error", "::group::packs/good: ok"],
        "{r}"
    );
    assert!(
        r.stdout
            .contains("error packs/broken/pack.toml: unknown field `homepage`"),
        "{r}"
    );
    assert!(
        r.stdout.contains("ok packs/good: decision-log 1.0.0"),
        "{r}"
    );
    assert!(
        r.stdout.contains("ok packs/good/cache-store"),
        "the good pack's case ran:\n{r}"
    );
    assert!(
        r.annotations().iter().any(|a| a.starts_with(
            "::error file=packs/broken/pack.toml,line=7,endLine=7,col=1,endColumn=9,title=hippo-packs (manifest-unknown-key)::unknown field"
        )),
        "{r}"
    );
    assert_eq!(
        r.stdout.matches("::endgroup::").count(),
        2,
        "every group is closed:\n{r}"
    );

    assert_uploaded(&server, &r, ws.path());

    // Processing was polled until complete.
    assert!(
        server.requests().iter().any(|q| q.method == "GET"
            && q.path()
                .ends_with("/sarifs/47177e22-5596-11eb-80a1-c1e54ef945c6")),
        "{r}"
    );
    assert!(r.stdout.contains("processed (complete)"), "{r}");
    assert!(r.upload_notices().is_empty(), "no notice on success:\n{r}");

    // Outputs.
    assert_eq!(r.out("packs"), Some("2"));
    assert_eq!(r.out("errors"), Some("1"));
    assert_eq!(r.out("warnings"), Some("0"));
    assert_eq!(r.out("failed-cases"), Some("0"));
    assert_eq!(r.out("uploaded"), Some("true"));
    assert_eq!(
        r.out("sarif-id"),
        Some("47177e22-5596-11eb-80a1-c1e54ef945c6")
    );
    assert_eq!(r.out("sarif-file"), Some("hippo-packs.sarif"));

    assert_summary(&r);
}

#[test]
fn the_sarif_is_relative_to_the_workspace() {
    let server = Server::start(github(&[]));
    let ws = workspace();
    let mut env = push(&server.url);
    env.set("INPUT_PATH", "packs")
        .set("INPUT_SARIF-FILE", "out/h.sarif");
    let r = env.run(ws.path());
    hygiene(&r);
    let sarif = String::from_utf8(r.sarif.clone().expect("written under out/")).unwrap();
    assert_eq!(r.out("sarif-file"), Some("out/h.sarif"));
    let v = common::valid_sarif(&sarif);
    assert_eq!(v["runs"].as_array().map(Vec::len), Some(1), "one run");
    assert_eq!(v["runs"][0]["automationDetails"]["id"], "hippo-packs/");
    let uris: Vec<&str> = v["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|x| {
            x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(
        uris,
        vec!["packs/broken/pack.toml"],
        "URIs relative to GITHUB_WORKSPACE, not to path"
    );
    assert!(
        !sarif.contains(&ws.path().display().to_string()),
        "no machine path"
    );
    assert_eq!(
        decode_upload(&server.uploads()[0]).as_slice(),
        sarif.as_bytes()
    );
}

#[test]
fn failed_processing_is_reported_and_auto_keeps_the_verdict() {
    let handler = |req: &Request, _n: usize| {
        match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/sarifs") => accepted(),
        ("GET", p) if p.contains("/sarifs/") => Reply::Json(
            200,
            r#"{"processing_status": "failed", "errors": ["locationFromSarifResult: expected artifact location", "second reason"]}"#.into(),
        ),
        _ => Reply::Json(404, "{}".into()),
    }
    };
    let server = Server::start(handler);
    let ws = workspace();
    std::fs::remove_dir_all(ws.path().join("packs/broken")).unwrap();
    let r = push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(
        r.code, 0,
        "auto: a failed upload does not change the verdict:\n{r}"
    );
    let notices = r.upload_notices();
    assert_eq!(notices.len(), 1, "{r}");
    assert!(
        notices[0].starts_with("::warning "),
        "a warning under auto: {r}"
    );
    assert!(
        notices[0].contains("expected artifact location") && notices[0].contains("second reason"),
        "{r}"
    );
    assert_eq!(r.out("uploaded"), Some("false"));
    assert_eq!(
        r.out("sarif-id"),
        Some("47177e22-5596-11eb-80a1-c1e54ef945c6")
    );
    assert!(r.summary.contains("✅ **Passed**"), "{}", r.summary);

    // upload: true makes it fail the job.
    let mut env = push(&server.url);
    env.set("INPUT_UPLOAD", "true");
    let r = env.run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "{r}");
    assert!(r.upload_notices()[0].starts_with("::error "), "{r}");
}

#[test]
fn forbidden_upload_is_one_notice_with_the_fix() {
    let handler = |req: &Request, _n: usize| {
        match req.method.as_str() {
        "POST" => Reply::Json(
            403,
            r#"{"message": "Resource not accessible by integration", "documentation_url": "https://docs.github.com/rest"}"#.into(),
        ),
        _ => Reply::Json(404, "{}".into()),
    }
    };
    let server = Server::start(handler);
    let ws = workspace();
    let r = push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(
        r.code, 1,
        "the broken pack still fails, the upload changes nothing:\n{r}"
    );
    assert_eq!(server.uploads().len(), 1, "a 403 is not retried");
    let notices = r.upload_notices();
    assert_eq!(notices.len(), 1, "{r}");
    assert!(notices[0].starts_with("::notice "), "{r}");
    assert!(
        notices[0].contains("HTTP 403: Resource not accessible by integration"),
        "{r}"
    );
    assert!(
        notices[0].contains("security-events: write"),
        "the fix:\n{r}"
    );
    assert_eq!(r.out("uploaded"), Some("false"));
    assert!(!r.outputs.contains_key("sarif-id"), "{r}");

    // With upload: true and only good packs, the 403 fails the job.
    std::fs::remove_dir_all(ws.path().join("packs/broken")).unwrap();
    let mut env = push(&server.url);
    env.set("INPUT_UPLOAD", "true");
    let r = env.run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    assert!(r.upload_notices()[0].starts_with("::error "), "{r}");
    env.set("INPUT_UPLOAD", "auto");
    assert_eq!(env.run(ws.path()).code, 0, "a control: auto passes");
}

#[test]
fn too_large_is_a_notice() {
    let server = Server::start(|req: &Request, _| match req.method.as_str() {
        "POST" => Reply::Json(413, r#"{"message": "Payload Too Large"}"#.into()),
        _ => Reply::Json(404, "{}".into()),
    });
    let ws = workspace();
    let r = push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "{r}");
    let notices = r.upload_notices();
    assert_eq!(notices.len(), 1, "{r}");
    assert!(
        notices[0].contains("413") && notices[0].contains("too large"),
        "{r}"
    );
    assert_eq!(r.out("uploaded"), Some("false"));
}

#[test]
fn server_errors_are_retried_with_back_off() {
    let server = Server::start(|req: &Request, n| match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/sarifs") && n < 2 => {
            Reply::Json(502, r#"{"message": "Bad Gateway"}"#.into())
        }
        ("POST", p) if p.ends_with("/sarifs") => accepted(),
        ("GET", p) if p.contains("/sarifs/") && n == 0 => Reply::Json(200, processing("pending")),
        ("GET", p) if p.contains("/sarifs/") => Reply::Json(200, processing("complete")),
        _ => Reply::Json(404, "{}".into()),
    });
    let ws = workspace();
    let r = push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(server.uploads().len(), 3, "two 502s, then accepted:\n{r}");
    assert_eq!(r.stdout.matches("trying again").count(), 2, "{r}");
    assert!(
        r.took >= Duration::from_secs(3),
        "back-off of 1s then 2s: {:?}",
        r.took
    );
    assert_eq!(r.out("uploaded"), Some("true"), "{r}");
    assert!(
        r.stdout.contains("processed (complete)"),
        "pending, then complete:\n{r}"
    );
    for (a, b) in server.uploads().iter().zip(server.uploads().iter().skip(1)) {
        assert_eq!(a.body, b.body, "a retry sends the same upload");
    }
}

#[test]
fn server_errors_give_up_after_bounded_retries() {
    let server = Server::start(|_: &Request, _| Reply::Json(500, r#"{"message": "boom"}"#.into()));
    let ws = workspace();
    std::fs::remove_dir_all(ws.path().join("packs/broken")).unwrap();
    let r = push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(server.uploads().len(), 4, "one try and three retries:\n{r}");
    assert_eq!(r.code, 0, "auto: {r}");
    assert!(r.upload_notices()[0].contains("HTTP 500: boom"), "{r}");
}

#[test]
fn a_server_that_never_answers_costs_bounded_time() {
    let server = Server::start(|_: &Request, _| Reply::Hang);
    let ws = workspace();
    let r = push(&server.url).run(ws.path());
    hygiene(&r);
    assert!(r.took < Duration::from_secs(20), "took {:?}", r.took);
    assert!(
        r.took >= Duration::from_secs(3),
        "the 3-second limit was waited: {:?}",
        r.took
    );
    assert_eq!(r.code, 1, "the verdict is the packs':\n{r}");
    let notices = r.upload_notices();
    assert_eq!(notices.len(), 1, "{r}");
    assert!(notices[0].contains("no answer within 3s"), "{r}");
    assert_eq!(server.uploads().len(), 1, "a timeout is not retried");
    assert_eq!(r.out("uploaded"), Some("false"));
}

#[test]
fn pending_processing_ends_after_the_wait() {
    let server = Server::start(|req: &Request, _| match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/sarifs") => accepted(),
        ("GET", p) if p.contains("/sarifs/") => Reply::Json(200, processing("pending")),
        _ => Reply::Json(404, "{}".into()),
    });
    let ws = workspace();
    let mut env = push(&server.url);
    env.flag("--upload-wait", "2");
    let r = env.run(ws.path());
    hygiene(&r);
    assert!(r.took < Duration::from_secs(10), "{:?}", r.took);
    assert!(r.upload_notices()[0].contains("(pending)"), "{r}");
    assert_eq!(
        r.out("uploaded"),
        Some("true"),
        "accepted counts as uploaded"
    );
}

/// The upload of a push: the SARIF file as written, with the commit, the ref and the checkout.
fn assert_uploaded(server: &Server, r: &CiRun, ws: &Path) {
    let uploads = server.uploads();
    assert_eq!(uploads.len(), 1, "{r}");
    let up = &uploads[0];
    assert_eq!(up.path(), "/repos/octo/packs/code-scanning/sarifs");
    assert_eq!(
        up.headers.get("authorization").map(String::as_str),
        Some(format!("Bearer {TOKEN}").as_str()),
        "the token goes in the header"
    );
    let body = up.json();
    assert_eq!(body["commit_sha"], SHA);
    assert_eq!(body["ref"], "refs/heads/main");
    assert_eq!(body["tool_name"], "hippo-packs");
    assert_eq!(body["checkout_uri"], format!("file://{}", ws.display()));
    let written = r.sarif.clone().expect("the SARIF file is written");
    assert_eq!(
        decode_upload(up),
        written,
        "the upload is the file, byte for byte"
    );
}

/// The summary of a failed push: totals, the broken pack's row and its finding with the
/// location.
fn assert_summary(r: &CiRun) {
    assert!(r.summary.contains("❌ **Failed**"), "{}", r.summary);
    assert!(r.summary.contains("| 2 | 1 | 0 | 0 |"), "{}", r.summary);
    assert!(
        r.summary
            .contains("<code>packs/broken</code> broken&#45;log")
            || r.summary.contains("<code>packs/broken</code> broken-log"),
        "{}",
        r.summary
    );
    assert!(
        r.summary.contains("<code>packs/broken/pack.toml&#58;"),
        "a location relative to the workspace:\n{}",
        r.summary
    );
    assert!(
        !r.summary.contains("<code>packs/good</code>"),
        "{}",
        r.summary
    );
}
