//! What the stand-in (`standin.rs`) answers as GitHub's API in the `ci` tests, and how they read
//! the SARIF a run uploaded. The answers start from the examples of GitHub's published API
//! description (tests/data/github/, copied from `@octokit/openapi`), changing only what a test
//! is about, so the validating proxy (`proxy.rs`) takes them as GitHub's.
#![allow(dead_code)]

use super::standin::{Reply, Request};
use std::io::Read;

use base64::Engine;

/// The usual GitHub: the upload is accepted, processing completes, the pull request changes
/// `files`, no alert is open.
pub(crate) fn github(
    files: &'static [&'static str],
) -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    move |req, _| match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/code-scanning/sarifs") => accepted(),
        ("GET", p) if p.contains("/code-scanning/sarifs/") => {
            Reply::Json(200, processing("complete"))
        }
        ("GET", p) if p.ends_with("/files") => Reply::Json(200, files_json(files)),
        // No alert of ours yet on the default branch.
        ("GET", p) if p.ends_with("/code-scanning/alerts") => Reply::Json(200, "[]".into()),
        _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
    }
}

/// The answer to an accepted upload (202, with the id processing is polled by).
pub(crate) fn accepted() -> Reply {
    Reply::Json(
        202,
        r#"{"id": "47177e22-5596-11eb-80a1-c1e54ef945c6", "url": "https://api.github.com/repos/octo/packs/code-scanning/sarifs/47177e22-5596-11eb-80a1-c1e54ef945c6"}"#.into(),
    )
}

/// GitHub's refusal of a request the token has no permission for (a check run without
/// `checks: write`, an alert list without `security-events: read`).
pub(crate) fn forbidden() -> Reply {
    Reply::Json(
        403,
        r#"{"message": "Resource not accessible by integration"}"#.into(),
    )
}

/// An example answer of GitHub's API description (`tests/data/github/<name>.json`).
pub(crate) fn example(name: &str) -> serde_json::Value {
    let path = super::data(&format!("github/{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// A page of a pull request's files, as GitHub lists them: each `modified`.
pub(crate) fn files_json(files: &[&str]) -> String {
    let items: Vec<(&str, &str, Option<&str>)> =
        files.iter().map(|f| (*f, "modified", None)).collect();
    entries_json(&items)
}

/// A page of a pull request's files: (file name, status, previous name of a rename).
pub(crate) fn entries_json(files: &[(&str, &str, Option<&str>)]) -> String {
    let items: Vec<serde_json::Value> = files
        .iter()
        .map(|(f, status, previous)| {
            let mut e = example("diff-entry");
            e["filename"] = (*f).into();
            e["status"] = (*status).into();
            // GitHub percent-encodes the path (`Meeting%20notes.md`): a URI has no space.
            let path: String = f
                .bytes()
                .map(|b| match b {
                    b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                        char::from(b).to_string()
                    }
                    _ => format!("%{b:02X}"),
                })
                .collect();
            e["contents_url"] =
                format!("https://api.github.com/repos/octo/packs/contents/{path}").into();
            if let Some(p) = previous {
                e["previous_filename"] = (*p).into();
            }
            e
        })
        .collect();
    serde_json::Value::Array(items).to_string()
}

/// The processing status of an upload (`pending`, `complete` or `failed`).
pub(crate) fn processing(status: &str) -> String {
    let mut v = example("sarif-upload-status");
    v["processing_status"] = status.into();
    v.to_string()
}

/// A check run as GitHub answers its creation or an update, with `id`.
pub(crate) fn check_run(id: u64) -> String {
    let mut v = example("check-run");
    v["id"] = id.into();
    v.to_string()
}

/// The SARIF an upload carried (its `sarif` field: gzip, then base64), read by both SARIF
/// readers ([`super::valid_sarif`]) before it is returned.
pub(crate) fn decode_upload(req: &Request) -> Vec<u8> {
    let b64 = req.json()["sarif"]
        .as_str()
        .expect("a sarif field")
        .to_string();
    let gz = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .expect("base64");
    let mut sarif = Vec::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_end(&mut sarif)
        .expect("gzip");
    super::valid_sarif(&sarif);
    sarif
}

/// A code-scanning alert of ours as GitHub lists it (from the description's examples: an open
/// one, or a dismissed one with `comment`), at `path` with `rule` and the result's `message`.
pub(crate) fn alert(
    number: u64,
    (rule, path, message): (&str, &str, &str),
    dismissed: Option<&str>,
) -> serde_json::Value {
    let mut a = match dismissed {
        None => example("code-scanning-alert"),
        Some(comment) => {
            let mut a = example("code-scanning-alert-dismissed");
            a["dismissed_reason"] = "won't fix".into();
            a["dismissed_comment"] = comment.into();
            a
        }
    };
    let base = "https://api.github.com/repos/octo/packs/code-scanning/alerts";
    a["number"] = number.into();
    a["url"] = format!("{base}/{number}").into();
    a["instances_url"] = format!("{base}/{number}/instances").into();
    a["html_url"] = format!("https://github.com/octo/packs/code-scanning/{number}").into();
    a["rule"]["id"] = rule.into();
    a["rule"]["name"] = rule.into();
    a["tool"] = serde_json::json!({"name": "hippo-packs", "guid": null, "version": "0.1.0"});
    let state = a["state"].clone();
    let i = &mut a["most_recent_instance"];
    i["message"]["text"] = message.into();
    i["location"]["path"] = path.into();
    i["state"] = state;
    a
}

/// An alert as [`alert`] after a change of state: `dismissed` with its comment, or open.
pub(crate) fn alert_state(a: &serde_json::Value, dismissed: Option<&str>) -> serde_json::Value {
    let text = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
    let i = &a["most_recent_instance"];
    let (rule, path, message) = (
        text(&a["rule"]["id"]),
        text(&i["location"]["path"]),
        text(&i["message"]["text"]),
    );
    let number = a["number"].as_u64().unwrap_or(0);
    alert(number, (&rule, &path, &message), dismissed)
}

/// The GraphQL answer to `viewer { login databaseId }` (the token's user; `id` null when GitHub
/// leaves it out, as its schema allows: `databaseId: Int`).
pub(crate) fn viewer_json(login: &str, id: Option<u64>) -> String {
    serde_json::json!({"data": {"viewer": {"login": login, "databaseId": id}}}).to_string()
}

/// A comment of pull request #7 as GitHub's example has it: `id`, by `user` (login, id), `body`.
pub(crate) fn issue_comment(
    id: u64,
    (login, user_id): (&str, u64),
    body: &str,
) -> serde_json::Value {
    let mut c = example("issue-comment");
    c["id"] = id.into();
    c["url"] = format!("https://api.github.com/repos/octo/packs/issues/comments/{id}").into();
    c["html_url"] = format!("https://github.com/octo/packs/pull/7#issuecomment-{id}").into();
    c["issue_url"] = "https://api.github.com/repos/octo/packs/issues/7".into();
    c["user"]["login"] = login.into();
    c["user"]["id"] = user_id.into();
    c["body"] = body.into();
    c
}

/// The token's user on github.com: the Actions app's bot.
pub(crate) const BOT: (&str, u64) = ("github-actions[bot]", 41898282);

/// Pull request #7's comments, kept as GitHub keeps them.
pub(crate) type Thread = std::sync::Arc<std::sync::Mutex<Vec<serde_json::Value>>>;

/// The usual GitHub ([`github`] with `files`) that also answers GraphQL's `viewer` as [`BOT`]
/// and keeps pull request #7's comments in `thread`: listed, created (by the bot) and edited;
/// with `read_only`, every comment write is refused as a read-only token's (403).
pub(crate) fn commenting(
    files: &'static [&'static str],
    thread: Thread,
    read_only: bool,
) -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    let rest = github(files);
    move |req, n| {
        let list = "/repos/octo/packs/issues/7/comments";
        let edit = req
            .path()
            .strip_prefix("/repos/octo/packs/issues/comments/");
        let body = || req.json()["body"].as_str().unwrap_or("").to_string();
        match (req.method.as_str(), req.path()) {
            ("POST", "/graphql") => Reply::Json(200, viewer_json(BOT.0, Some(BOT.1))),
            ("GET", p) if p == list => Reply::Json(
                200,
                serde_json::Value::Array(thread.lock().unwrap().clone()).to_string(),
            ),
            ("POST" | "PATCH", _) if read_only && (req.path() == list || edit.is_some()) => {
                forbidden()
            }
            ("POST", p) if p == list => {
                let mut t = thread.lock().unwrap();
                let c = issue_comment(1000 + t.len() as u64, BOT, &body());
                t.push(c.clone());
                Reply::Json(201, c.to_string())
            }
            ("PATCH", _) if edit.is_some() => {
                let id: u64 = edit.unwrap().parse().unwrap_or(0);
                let mut t = thread.lock().unwrap();
                match t.iter_mut().find(|c| c["id"] == id) {
                    Some(c) => {
                        c["body"] = body().into();
                        Reply::Json(200, c.to_string())
                    }
                    None => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
                }
            }
            _ => rest(req, n),
        }
    }
}
