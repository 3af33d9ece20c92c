//! What the stand-in (`standin.rs`) answers as GitHub's API in the `ci` tests, and how they read
//! the SARIF a run uploaded.
#![allow(dead_code)]

use super::standin::{Reply, Request};
use std::io::Read;

use base64::Engine;

/// The usual GitHub: the upload is accepted, processing completes, the pull request changes
/// `files`.
pub fn github(files: &'static [&'static str]) -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    move |req, _| match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/code-scanning/sarifs") => accepted(),
        ("GET", p) if p.contains("/code-scanning/sarifs/") => Reply::Json(
            200,
            r#"{"processing_status": "complete", "analyses_url": null, "errors": null}"#.into(),
        ),
        ("GET", p) if p.ends_with("/files") => Reply::Json(200, files_json(files)),
        _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
    }
}

/// The answer to an accepted upload (202, with the id processing is polled by).
pub fn accepted() -> Reply {
    Reply::Json(
        202,
        r#"{"id": "47177e22-5596-11eb-80a1-c1e54ef945c6", "url": "https://api.github.com/repos/octo/packs/code-scanning/sarifs/47177e22-5596-11eb-80a1-c1e54ef945c6"}"#.into(),
    )
}

/// A page of a pull request's files, as GitHub lists them.
pub fn files_json(files: &[&str]) -> String {
    let items: Vec<serde_json::Value> = files
        .iter()
        .map(|f| {
            serde_json::json!({
                "sha": "bbcd538c8e72b8c175046e27cc8f907076331401",
                "filename": f,
                "status": "modified",
                "additions": 1, "deletions": 0, "changes": 1,
                "blob_url": null, "raw_url": null,
                "contents_url": format!("https://api.github.com/repos/octo/packs/contents/{f}"),
            })
        })
        .collect();
    serde_json::Value::Array(items).to_string()
}

/// The SARIF an upload carried (its `sarif` field: gzip, then base64).
pub fn decode_upload(req: &Request) -> Vec<u8> {
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
    sarif
}
