//! Writes to GitHub are paced (docs/action.md, "Paced writes"): at least one second between two
//! write requests (POST, PATCH, PUT, DELETE) of a run, as GitHub's best practices ask, in the run's
//! one client; reads are not paced; the log says how long the run waited. The stand-in's clock
//! says when each request arrived (the pacing itself is tested against a clock the test
//! controls, beside the client).

use crate::common;

use common::ci_env::push;
use common::github_api::{accepted, check_run, processing};
use common::standin::{Reply, Request, Server};
use std::time::Duration;

fn github() -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    |req, _| match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/code-scanning/sarifs") => accepted(),
        ("GET", p) if p.contains("/code-scanning/sarifs/") => {
            Reply::Json(200, processing("complete"))
        }
        ("GET", p) if p.ends_with("/code-scanning/alerts") => Reply::Json(200, "[]".into()),
        ("POST", p) if p.ends_with("/check-runs") => Reply::Json(201, check_run(42)),
        ("PATCH", p) if p.ends_with("/check-runs/42") => Reply::Json(200, check_run(42)),
        _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
    }
}

fn is_write(q: &Request) -> bool {
    matches!(q.method.as_str(), "POST" | "PATCH" | "PUT" | "DELETE")
}

#[test]
fn writes_are_a_second_apart_and_reads_are_not_held() {
    let gh = Server::start(github());
    // Nine broken packs: 108 findings, so the check run takes three writes (50, 50, 8).
    let ws = tempfile::tempdir().unwrap();
    for i in 0..9 {
        common::copy_pack("broken", &ws.path().join("packs"), &format!("b{i}"));
    }
    let r = push(&gh.url).run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    let all = gh.requests();
    let writes: Vec<&Request> = all.iter().filter(|q| is_write(q)).collect();
    assert_eq!(
        writes.len(),
        4,
        "the upload and three check-run writes: {r}"
    );
    for w in writes.windows(2) {
        let gap = w[1].at.duration_since(w[0].at);
        assert!(
            gap >= Duration::from_secs(1),
            "{} {} came {gap:?} after {} {}: {r}",
            w[1].method,
            w[1].path(),
            w[0].method,
            w[0].path()
        );
    }
    assert!(
        r.stdout
            .contains("hippo-packs: 4 write requests to GitHub, "),
        "the log says what pacing cost: {r}"
    );
    // Control: the processing poll after the upload is a read, and is not held a second.
    let upload = writes[0];
    let poll = all
        .iter()
        .find(|q| q.method == "GET" && q.path().contains("/code-scanning/sarifs/"))
        .expect("a poll");
    assert!(
        poll.at.duration_since(upload.at) < Duration::from_secs(1),
        "a read follows a write without the wait: {:?}: {r}",
        poll.at.duration_since(upload.at)
    );
}
