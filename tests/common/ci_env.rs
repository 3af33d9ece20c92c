//! The container `hippo-packs ci` runs in, for the `ci` tests: a workspace with a good pack and
//! a broken one, GitHub's variables, and the usual answers of the stand-in GitHub
//! (`standin.rs`).
#![allow(dead_code)]

use super::standin::{Reply, Request};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use base64::Engine;

pub const TOKEN: &str = "ghs_TeStToKeN0123456789abcdefSECRET";
pub const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

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

pub fn accepted() -> Reply {
    Reply::Json(
        202,
        r#"{"id": "47177e22-5596-11eb-80a1-c1e54ef945c6", "url": "https://api.github.com/repos/octo/packs/code-scanning/sarifs/47177e22-5596-11eb-80a1-c1e54ef945c6"}"#.into(),
    )
}

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

// ---------------------------------------------------------------------------------------------
// The container: a workspace with a good pack and a broken one, and GitHub's variables.

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub summary: String,
    pub outputs: HashMap<String, String>,
    pub sarif: Option<Vec<u8>>,
    pub took: Duration,
}

impl Run {
    pub fn all_text(&self) -> String {
        format!(
            "{}\n{}\n{}\n{:?}",
            self.stdout, self.stderr, self.summary, self.outputs
        )
    }
    pub fn out(&self, k: &str) -> &str {
        self.outputs.get(k).map(String::as_str).unwrap_or("<none>")
    }
    pub fn annotations(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|l| {
                l.starts_with("::error") || l.starts_with("::warning") || l.starts_with("::notice")
            })
            .collect()
    }
    pub fn upload_notices(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|l| l.contains("title=hippo-packs (upload)::"))
            .collect()
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}--- stderr\n{}--- summary\n{}--- outputs\n{:?}",
            self.code, self.stdout, self.stderr, self.summary, self.outputs
        )
    }
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dst);
        } else {
            std::fs::copy(e.path(), dst).unwrap();
        }
    }
}

pub fn good_pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log")
}

/// A workspace `packs/good` (the page's decision-log) and `packs/broken` (the same with an
/// unknown manifest key, an error).
pub fn workspace() -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    copy_dir(&good_pack(), &ws.path().join("packs/good"));
    copy_dir(&good_pack(), &ws.path().join("packs/broken"));
    let manifest = ws.path().join("packs/broken/pack.toml");
    let mut m = std::fs::read_to_string(&manifest).unwrap();
    m.push_str("homepage = \"elsewhere\"\n");
    std::fs::write(&manifest, m).unwrap();
    // What else a repository holds: never a pack.
    std::fs::create_dir_all(ws.path().join(".github/workflows")).unwrap();
    std::fs::write(ws.path().join(".github/workflows/ci.yml"), "on: push\n").unwrap();
    ws
}

pub struct Env {
    pub vars: Vec<(String, String)>,
    pub args: Vec<String>,
}

impl Env {
    /// A push to main, with a token and the API at `api`.
    pub fn push(api: &str) -> Env {
        Env {
            vars: vec![
                ("GITHUB_ACTIONS".into(), "true".into()),
                ("GITHUB_SHA".into(), SHA.into()),
                ("GITHUB_REF".into(), "refs/heads/main".into()),
                ("GITHUB_REPOSITORY".into(), "octo/packs".into()),
                ("GITHUB_EVENT_NAME".into(), "push".into()),
                ("GITHUB_API_URL".into(), api.into()),
                // The runner sets every declared input, empty or with its default.
                ("INPUT_PATH".into(), ".".into()),
                ("INPUT_TEST".into(), "true".into()),
                ("INPUT_SARIF-FILE".into(), "hippo-packs.sarif".into()),
                ("INPUT_UPLOAD".into(), "auto".into()),
                ("INPUT_CATEGORY".into(), "hippo-packs".into()),
                ("INPUT_FAIL-ON".into(), "error".into()),
                ("INPUT_SCOPE".into(), "".into()),
                ("INPUT_TOKEN".into(), TOKEN.into()),
            ],
            args: vec![
                "ci".into(),
                "--http-timeout".into(),
                "3".into(),
                "--upload-wait".into(),
                "5".into(),
            ],
        }
    }

    /// A pull request (#7) event; `fork` when the head is another repository.
    pub fn pull_request(api: &str, fork: bool, changed_files: u64) -> Env {
        let mut e = Env::push(api);
        e.set("GITHUB_EVENT_NAME", "pull_request");
        e.set("GITHUB_REF", "refs/pull/7/merge");
        let head = if fork { "someone/packs" } else { "octo/packs" };
        e.vars.push((
            "EVENT".into(),
            serde_json::json!({
                "action": "synchronize",
                "number": 7,
                "pull_request": {
                    "number": 7,
                    "changed_files": changed_files,
                    "head": {"repo": {"full_name": head, "fork": fork}},
                    "base": {"repo": {"full_name": "octo/packs", "fork": false}}
                }
            })
            .to_string(),
        ));
        e
    }

    pub fn set(&mut self, k: &str, v: &str) -> &mut Self {
        self.vars.retain(|(n, _)| n != k);
        self.vars.push((k.into(), v.into()));
        self
    }

    pub fn run(&self, ws: &Path) -> Run {
        let home = tempfile::tempdir().unwrap();
        let output = home.path().join("output");
        let summary = home.path().join("summary.md");
        std::fs::write(&output, "").unwrap();
        std::fs::write(&summary, "").unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hippo-packs"));
        cmd.env_clear()
            .current_dir(ws)
            .args(&self.args)
            .env("HOME", home.path())
            .env("GITHUB_WORKSPACE", ws)
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_STEP_SUMMARY", &summary);
        for (k, v) in &self.vars {
            if k == "EVENT" {
                let p = home.path().join("event.json");
                std::fs::write(&p, v).unwrap();
                cmd.env("GITHUB_EVENT_PATH", p);
            } else {
                cmd.env(k, v);
            }
        }
        let start = Instant::now();
        let out = cmd.output().unwrap();
        let took = start.elapsed();
        let sarif_name = self
            .vars
            .iter()
            .find(|(k, _)| k == "INPUT_SARIF-FILE")
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| "hippo-packs.sarif".into());
        let outputs = parse_outputs(&std::fs::read_to_string(&output).unwrap_or_default());
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            summary: std::fs::read_to_string(&summary).unwrap_or_default(),
            outputs,
            sarif: std::fs::read(ws.join(sarif_name)).ok(),
            took,
        }
    }
}

/// `$GITHUB_OUTPUT` in the runner's delimiter form (`name<<D`, value lines, `D`); a plain
/// `name=value` line is refused, as only the delimiter form is written.
pub fn parse_outputs(text: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        let (k, d) = l
            .split_once("<<")
            .unwrap_or_else(|| panic!("not the delimiter form: {l:?}"));
        assert!(d.starts_with("ghadelimiter_"), "{d}");
        let mut v = Vec::new();
        for l in lines.by_ref() {
            if l == d {
                break;
            }
            v.push(l);
        }
        out.insert(k.to_string(), v.join("\n"));
    }
    out
}

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

/// What every run must hold to: the token nowhere, nothing but workflow commands of our own.
pub fn hygiene(r: &Run) {
    assert!(!r.all_text().contains(TOKEN), "the token leaked:\n{r}");
    assert!(
        !r.all_text().contains("TeStToKeN"),
        "part of the token leaked:\n{r}"
    );
    // Annotations come errors first.
    let kinds: Vec<u8> = r
        .stdout
        .lines()
        .filter(|l| !l.contains("title=hippo-packs ("))
        .filter_map(|l| {
            if l.starts_with("::error ") || l.starts_with("::error::") {
                Some(0)
            } else if l.starts_with("::warning") {
                Some(1)
            } else {
                None
            }
        })
        .collect();
    assert!(kinds.windows(2).all(|w| w[0] <= w[1]), "errors first:\n{r}");
    // Every annotation of a finding names a file relative to the workspace.
    for a in r.annotations() {
        if !a.contains("title=hippo-packs (") {
            assert!(a.contains(" file=packs/"), "{a}\n{r}");
        }
    }
}
