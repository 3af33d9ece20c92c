//! The Action's HTTP client against the local stand-in for GitHub. A plain
//! `http://` API URL off loopback is refused, a pagination `Link` to another host is not
//! followed, a token with a control character is a clear error (not a panic), and rate limits
//! are waited out as `Retry-After` says, with rate-limit advice when they persist.

use crate::common;

use common::ci_env::{TOKEN, good_workspace, on_push, pull_request_event};
use common::ci_run::Ci;
use common::github_api::{files_json, forbidden, processing};
use common::standin::{Reply, Request, Server};
use std::time::Duration;

/// A push with a token and the API at `api`: no case runs, short limits on the network.
fn push(api: &str) -> Ci {
    let mut ci = on_push(api);
    ci.args(&[
        "--test",
        "false",
        "--http-timeout",
        "5",
        "--upload-wait",
        "0",
    ]);
    ci
}

const RECEIPT: &str = r#"{"id": "47177e22-5596-11eb-80a1-c1e54ef945c6", "url": "https://api.github.com/repos/octo/packs/code-scanning/sarifs/47177e22-5596-11eb-80a1-c1e54ef945c6"}"#;

/// GitHub taking the upload; a check run is refused (the token has no `checks: write`).
fn receipt(req: &Request) -> Reply {
    match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/sarifs") => Reply::Json(202, RECEIPT.into()),
        ("GET", p) if p.contains("/sarifs/") => Reply::Json(200, processing("complete")),
        _ => forbidden(),
    }
}

#[test]
fn plain_http_off_loopback_is_refused() {
    let ws = good_workspace();
    // `.invalid` is reserved: nothing can answer there, and the client must not even try.
    let r = push("http://gh.invalid:9")
        .args(&["--upload", "true"])
        .run(ws.path());
    assert_eq!(r.code, 1, "upload: true fails: {r}");
    assert!(r.stdout.contains("would travel in clear"), "{r}");
    assert!(!r.all_text().contains(TOKEN), "{r}");
    // Control: loopback over plain http is the stand-in, and it uploads.
    let server = Server::start(|req, _| receipt(req));
    let r = push(&server.url).args(&["--upload", "true"]).run(ws.path());
    assert_eq!((r.code, r.out("uploaded")), (0, Some("true")), "{r}");
}

#[test]
fn a_pagination_link_to_another_host_is_not_followed() {
    let ws = good_workspace();
    let server = Server::start(|req, _| {
        if req.path().ends_with("/pulls/7/files") {
            let page = files_json(&["packs/good/README.md"]);
            // {base} is this server; `localhost` is another origin for the client.
            let port_link = "<{base}/x>; rel=\"last\", <http://localhost:1/repos/octo/packs/pulls/7/files?page=2>; rel=\"next\"";
            Reply::JsonWith(200, page, vec![("link".into(), port_link.into())])
        } else {
            Reply::Json(404, "{}".into())
        }
    });
    let event = pull_request_event("octo/packs", false, None).to_string();
    let r = push(&server.url)
        .set("GITHUB_EVENT_NAME", "pull_request")
        .event(&event)
        .args(&["--upload", "false"])
        .run(ws.path());
    assert!(
        r.stdout.contains("another host (http://localhost:1)"),
        "{r}"
    );
    assert!(
        r.stdout.contains("every pack gates"),
        "unknown changes gate everything: {r}"
    );
    let files = server
        .requests()
        .into_iter()
        .filter(|q| q.path().ends_with("/files"))
        .count();
    assert_eq!(files, 1, "{r}");
}

#[test]
fn a_token_with_a_control_character_is_a_clear_error() {
    let ws = good_workspace();
    let server = Server::start(|req, _| receipt(req));
    let r = push(&server.url)
        .set("INPUT_TOKEN", "ghs_abc\u{1}def")
        .run(ws.path());
    assert_eq!(r.code, 0, "upload auto: the verdict stands: {r}");
    assert!(r.stdout.contains("control character"), "{r}");
    assert!(
        !r.all_text().contains("internal error") && !r.all_text().contains("panicked"),
        "{r}"
    );
    assert!(
        r.summary.contains("hippo-packs") && r.out("packs") == Some("1"),
        "{r}"
    );
    assert!(server.requests().is_empty());
}

#[test]
fn rate_limits_are_waited_out_as_retry_after_says() {
    let ws = good_workspace();
    let server = Server::start(|req, n| {
        if req.method == "POST" && n == 0 {
            Reply::JsonWith(
                429,
                r#"{"message": "slow down"}"#.into(),
                vec![("retry-after".into(), "1".into())],
            )
        } else if req.method == "POST" && n == 1 {
            let m = r#"{"message": "You have exceeded a secondary rate limit. Please wait a few minutes."}"#;
            Reply::JsonWith(403, m.into(), vec![("retry-after".into(), "1".into())])
        } else {
            receipt(req)
        }
    });
    let r = push(&server.url).args(&["--upload", "true"]).run(ws.path());
    assert_eq!((r.code, r.out("uploaded")), (0, Some("true")), "{r}");
    assert_eq!(server.uploads().len(), 3, "{r}");
    assert!(r.took >= Duration::from_secs(2), "waited as asked: {r}");
}

#[test]
fn a_persistent_rate_limit_gets_rate_limit_advice() {
    let ws = good_workspace();
    let server = Server::start(|_, _| {
        let m = r#"{"message": "You have exceeded a secondary rate limit."}"#;
        Reply::JsonWith(403, m.into(), vec![("retry-after".into(), "0".into())])
    });
    let r = push(&server.url).run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert!(
        r.stdout.contains("rate limit") && r.stdout.contains("Re-run the job later"),
        "{r}"
    );
    assert!(!r.stdout.contains("security-events: write"), "{r}");
    assert_eq!(server.uploads().len(), 4, "tried 1 + 3 times: {r}");
    // Control: a plain 403 still names the permission.
    let plain = Server::start(|_, _| forbidden());
    let r = push(&plain.url).run(ws.path());
    assert!(r.stdout.contains("security-events: write"), "{r}");
}
