//! `hippo-packs ci` as GitHub runs it in the container: the real binary, the environment a
//! container action gets, and a small HTTP server on 127.0.0.1 standing for GitHub's API (the
//! code-scanning `sarifs` endpoints and a pull request's files). Nothing reaches the internet.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;

const TOKEN: &str = "ghs_TeStToKeN0123456789abcdefSECRET";
const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

// ---------------------------------------------------------------------------------------------
// The stand-in for GitHub's API.

#[derive(Debug, Clone)]
struct Request {
    method: String,
    /// Path and query.
    target: String,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

impl Request {
    fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

enum Reply {
    Json(u16, String),
    /// With extra headers (a `Link` for pagination).
    JsonWith(u16, String, Vec<(String, String)>),
    /// Never answer (the connection stays open).
    Hang,
}

type Handler = dyn Fn(&Request, usize) -> Reply + Send + Sync;

struct Server {
    url: String,
    seen: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    /// `handler(request, n)` answers; `n` counts earlier requests with the same method and
    /// path.
    fn start(handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let (s, base) = (seen.clone(), url.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (s, h, base) = (s.clone(), handler.clone(), base.clone());
                std::thread::spawn(move || serve(stream, &s, &*h, &base));
            }
        });
        Server { url, seen }
    }

    fn requests(&self) -> Vec<Request> {
        self.seen.lock().unwrap().clone()
    }

    fn uploads(&self) -> Vec<Request> {
        self.requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path().ends_with("/code-scanning/sarifs"))
            .collect()
    }
}

fn serve(stream: TcpStream, seen: &Mutex<Vec<Request>>, handler: &Handler, base: &str) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let (method, target) = match (parts.next(), parts.next()) {
            (Some(m), Some(t)) => (m.to_string(), t.to_string()),
            _ => return,
        };
        let mut headers = HashMap::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
            }
        }
        let len: usize = headers
            .get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; len];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let req = Request {
            method,
            target,
            headers,
            body,
        };
        let n = {
            let mut s = seen.lock().unwrap();
            let n = s
                .iter()
                .filter(|r| r.method == req.method && r.path() == req.path())
                .count();
            s.push(req.clone());
            n
        };
        let (code, body, extra) = match handler(&req, n) {
            Reply::Json(c, b) => (c, b, Vec::new()),
            Reply::JsonWith(c, b, h) => (c, b, h),
            Reply::Hang => {
                std::thread::sleep(Duration::from_secs(120));
                return;
            }
        };
        let mut head = format!(
            "HTTP/1.1 {code} X\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: {}\r\n",
            body.len()
        );
        for (k, v) in extra {
            head.push_str(&format!("{k}: {}\r\n", v.replace("{base}", base)));
        }
        head.push_str("\r\n");
        if out.write_all(head.as_bytes()).is_err() || out.write_all(body.as_bytes()).is_err() {
            return;
        }
    }
}

/// The usual GitHub: the upload is accepted, processing completes, the pull request changes
/// `files`.
fn github(files: &'static [&'static str]) -> impl Fn(&Request, usize) -> Reply + Send + Sync {
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

fn accepted() -> Reply {
    Reply::Json(
        202,
        r#"{"id": "47177e22-5596-11eb-80a1-c1e54ef945c6", "url": "https://api.github.com/repos/octo/packs/code-scanning/sarifs/47177e22-5596-11eb-80a1-c1e54ef945c6"}"#.into(),
    )
}

fn files_json(files: &[&str]) -> String {
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

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    summary: String,
    outputs: HashMap<String, String>,
    sarif: Option<Vec<u8>>,
    took: Duration,
}

impl Run {
    fn all_text(&self) -> String {
        format!(
            "{}\n{}\n{}\n{:?}",
            self.stdout, self.stderr, self.summary, self.outputs
        )
    }
    fn out(&self, k: &str) -> &str {
        self.outputs.get(k).map(String::as_str).unwrap_or("<none>")
    }
    fn annotations(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|l| {
                l.starts_with("::error") || l.starts_with("::warning") || l.starts_with("::notice")
            })
            .collect()
    }
    fn upload_notices(&self) -> Vec<&str> {
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

fn copy_dir(from: &Path, to: &Path) {
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

fn good_pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log")
}

/// A workspace `packs/good` (the page's decision-log) and `packs/broken` (the same with an
/// unknown manifest key, an error).
fn workspace() -> tempfile::TempDir {
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

struct Env {
    vars: Vec<(String, String)>,
    args: Vec<String>,
}

impl Env {
    /// A push to main, with a token and the API at `api`.
    fn push(api: &str) -> Env {
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
    fn pull_request(api: &str, fork: bool, changed_files: u64) -> Env {
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

    fn set(&mut self, k: &str, v: &str) -> &mut Self {
        self.vars.retain(|(n, _)| n != k);
        self.vars.push((k.into(), v.into()));
        self
    }

    fn run(&self, ws: &Path) -> Run {
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
fn parse_outputs(text: &str) -> HashMap<String, String> {
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

fn decode_upload(req: &Request) -> Vec<u8> {
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
fn hygiene(r: &Run) {
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

// ---------------------------------------------------------------------------------------------

#[test]
fn push_uploads_and_processing_completes() {
    let server = Server::start(github(&[]));
    let ws = workspace();
    let r = Env::push(&server.url).run(ws.path());
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

    // The upload: the SARIF file as written, with the commit, the ref and the checkout.
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
    assert_eq!(
        body["checkout_uri"],
        format!("file://{}", ws.path().display())
    );
    let written = r.sarif.clone().expect("the SARIF file is written");
    assert_eq!(
        decode_upload(up),
        written,
        "the upload is the file, byte for byte"
    );

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
    assert_eq!(r.out("packs"), "2");
    assert_eq!(r.out("errors"), "1");
    assert_eq!(r.out("warnings"), "0");
    assert_eq!(r.out("failed-cases"), "0");
    assert_eq!(r.out("uploaded"), "true");
    assert_eq!(r.out("sarif-id"), "47177e22-5596-11eb-80a1-c1e54ef945c6");
    assert_eq!(r.out("sarif-file"), "hippo-packs.sarif");

    // The summary: totals, the broken pack's row and its finding with the location.
    assert!(r.summary.contains("❌ **Failed**"), "{}", r.summary);
    assert!(r.summary.contains("| 2 | 1 | 0 | 0 |"), "{}", r.summary);
    assert!(
        r.summary
            .contains("<code>packs/broken</code> decision&#45;log")
            || r.summary.contains("<code>packs/broken</code> decision-log"),
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

#[test]
fn the_sarif_is_relative_to_the_workspace() {
    let server = Server::start(github(&[]));
    let ws = workspace();
    let mut env = Env::push(&server.url);
    env.set("INPUT_PATH", "packs")
        .set("INPUT_SARIF-FILE", "out/h.sarif");
    let r = env.run(ws.path());
    hygiene(&r);
    let sarif = String::from_utf8(r.sarif.clone().expect("written under out/")).unwrap();
    assert_eq!(r.out("sarif-file"), "out/h.sarif");
    let v: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF is JSON");
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
        ("POST", _) => accepted(),
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
    let r = Env::push(&server.url).run(ws.path());
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
    assert_eq!(r.out("uploaded"), "false");
    assert_eq!(r.out("sarif-id"), "47177e22-5596-11eb-80a1-c1e54ef945c6");
    assert!(r.summary.contains("✅ **Passed**"), "{}", r.summary);

    // upload: true makes it fail the job.
    let mut env = Env::push(&server.url);
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
    let r = Env::push(&server.url).run(ws.path());
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
    assert_eq!(r.out("uploaded"), "false");
    assert!(!r.outputs.contains_key("sarif-id"), "{r}");

    // With upload: true and only good packs, the 403 fails the job.
    std::fs::remove_dir_all(ws.path().join("packs/broken")).unwrap();
    let mut env = Env::push(&server.url);
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
    let r = Env::push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "{r}");
    let notices = r.upload_notices();
    assert_eq!(notices.len(), 1, "{r}");
    assert!(
        notices[0].contains("413") && notices[0].contains("too large"),
        "{r}"
    );
    assert_eq!(r.out("uploaded"), "false");
}

#[test]
fn server_errors_are_retried_with_back_off() {
    let server = Server::start(|req: &Request, n| match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/sarifs") && n < 2 => {
            Reply::Json(502, r#"{"message": "Bad Gateway"}"#.into())
        }
        ("POST", p) if p.ends_with("/sarifs") => accepted(),
        ("GET", p) if p.contains("/sarifs/") && n == 0 => {
            Reply::Json(200, r#"{"processing_status": "pending"}"#.into())
        }
        ("GET", p) if p.contains("/sarifs/") => {
            Reply::Json(200, r#"{"processing_status": "complete"}"#.into())
        }
        _ => Reply::Json(404, "{}".into()),
    });
    let ws = workspace();
    let r = Env::push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(server.uploads().len(), 3, "two 502s, then accepted:\n{r}");
    assert_eq!(r.stdout.matches("trying again").count(), 2, "{r}");
    assert!(
        r.took >= Duration::from_secs(3),
        "back-off of 1s then 2s: {:?}",
        r.took
    );
    assert_eq!(r.out("uploaded"), "true", "{r}");
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
    let r = Env::push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(server.uploads().len(), 4, "one try and three retries:\n{r}");
    assert_eq!(r.code, 0, "auto: {r}");
    assert!(r.upload_notices()[0].contains("HTTP 500: boom"), "{r}");
}

#[test]
fn a_server_that_never_answers_costs_bounded_time() {
    let server = Server::start(|_: &Request, _| Reply::Hang);
    let ws = workspace();
    let r = Env::push(&server.url).run(ws.path());
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
    assert_eq!(r.out("uploaded"), "false");
}

#[test]
fn pending_processing_ends_after_the_wait() {
    let server = Server::start(|req: &Request, _| match req.method.as_str() {
        "POST" => accepted(),
        _ => Reply::Json(200, r#"{"processing_status": "pending"}"#.into()),
    });
    let ws = workspace();
    let mut env = Env::push(&server.url);
    env.args = vec!["ci".into(), "--upload-wait".into(), "2".into()];
    let r = env.run(ws.path());
    hygiene(&r);
    assert!(r.took < Duration::from_secs(10), "{:?}", r.took);
    assert!(r.upload_notices()[0].contains("(pending)"), "{r}");
    assert_eq!(r.out("uploaded"), "true", "accepted counts as uploaded");
}

#[test]
fn scope_changed_gates_only_the_packs_the_pull_request_touches() {
    let server = Server::start(github(&["packs/good/prompts/decision-log.md", "README.md"]));
    let ws = workspace();
    let r = Env::pull_request(&server.url, false, 2).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 0, "only packs/good is gated:\n{r}");
    assert!(
        r.stdout.contains("error packs/broken/pack.toml"),
        "every pack is still reported:\n{r}"
    );
    assert_eq!(r.out("errors"), "1", "and counted");
    let files: Vec<Request> = server
        .requests()
        .into_iter()
        .filter(|q| q.path() == "/repos/octo/packs/pulls/7/files")
        .collect();
    assert_eq!(files.len(), 1, "{r}");
    assert!(files[0].target.contains("per_page=100"));
    assert_eq!(server.uploads()[0].json()["ref"], "refs/pull/7/merge");
    assert!(
        r.summary.contains("| no |"),
        "the broken pack is not gated:\n{}",
        r.summary
    );
    assert!(r.summary.contains("✅ **Passed**"), "{}", r.summary);

    // scope: all on the same pull request gates the broken pack too.
    let mut env = Env::pull_request(&server.url, false, 2);
    env.set("INPUT_SCOPE", "all");
    assert_eq!(env.run(ws.path()).code, 1, "a control: scope all fails");
}

#[test]
fn the_files_of_a_pull_request_are_read_page_by_page() {
    let server = Server::start(|req: &Request, _| {
        match (req.method.as_str(), req.path()) {
        ("GET", p) if p.ends_with("/files") && !req.target.contains("page=2") => Reply::JsonWith(
            200,
            files_json(&["packs/good/README.md"]),
            vec![(
                "link".into(),
                "<{base}/repos/octo/packs/pulls/7/files?per_page=100&page=2>; rel=\"next\", <{base}/repos/octo/packs/pulls/7/files?per_page=100&page=2>; rel=\"last\"".into(),
            )],
        ),
        ("GET", p) if p.ends_with("/files") => Reply::Json(200, files_json(&["packs/broken/README.md"])),
        ("POST", _) => accepted(),
        _ => Reply::Json(200, r#"{"processing_status": "complete"}"#.into()),
    }
    });
    let ws = workspace();
    let r = Env::pull_request(&server.url, false, 2).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "page 2 touches the broken pack:\n{r}");
    assert!(r.stdout.contains("changes 2 files, in 2 of 2 packs"), "{r}");
}

#[test]
fn a_fork_pull_request_works_with_a_read_only_token() {
    let server = Server::start(|req: &Request, _| match (req.method.as_str(), req.path()) {
        ("GET", p) if p.ends_with("/files") => {
            Reply::Json(200, files_json(&["packs/broken/pack.toml"]))
        }
        ("POST", _) => Reply::Json(
            403,
            r#"{"message": "Resource not accessible by integration"}"#.into(),
        ),
        _ => Reply::Json(404, "{}".into()),
    });
    let ws = workspace();
    let r = Env::pull_request(&server.url, true, 1).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "the fork touches the broken pack:\n{r}");
    let notices = r.upload_notices();
    assert_eq!(notices.len(), 1, "{r}");
    assert!(notices[0].starts_with("::notice "), "{r}");
    assert!(
        notices[0].contains("fork") && notices[0].contains("read-only token"),
        "{r}"
    );
    assert_eq!(r.out("uploaded"), "false");
    assert!(
        r.summary.contains("fork"),
        "the summary says why:\n{}",
        r.summary
    );
}

#[test]
fn an_unlistable_pull_request_gates_every_pack() {
    let server = Server::start(|req: &Request, _| match req.method.as_str() {
        "GET" => Reply::Json(401, r#"{"message": "Bad credentials"}"#.into()),
        _ => Reply::Json(403, "{}".into()),
    });
    let ws = workspace();
    let mut env = Env::pull_request(&server.url, false, 1);
    env.set("INPUT_UPLOAD", "false");
    let r = env.run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "unknown changes gate everything:\n{r}");
    assert!(r.stdout.contains("::notice title=hippo-packs (scope)::cannot list the files of pull request #7: HTTP 401: Bad credentials; every pack gates"), "{r}");
    assert!(server.uploads().is_empty(), "upload: false uploads nothing");
    assert_eq!(r.out("uploaded"), "false");
}

#[test]
fn no_pack_found_is_an_error() {
    let server = Server::start(github(&[]));
    let ws = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(ws.path().join("docs")).unwrap();
    std::fs::create_dir_all(ws.path().join(".git/x")).unwrap();
    std::fs::write(ws.path().join(".git/x/pack.toml"), "").unwrap();
    let r = Env::push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "{r}");
    assert!(
        r.stdout
            .contains("::error title=hippo-packs (ci)::no pack found under ."),
        "{r}"
    );
    assert_eq!(r.out("packs"), "0");
    assert!(
        server.requests().is_empty(),
        "nothing uploaded over existing alerts"
    );
    assert!(r.summary.contains("no pack found"), "{}", r.summary);
}

#[test]
fn without_github_it_runs_like_any_ci() {
    let ws = workspace();
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .env_clear()
        .current_dir(ws.path())
        .args([
            "ci",
            "packs",
            "--sarif-file",
            "x.sarif",
            "--fail-on",
            "never",
            "--test",
            "false",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        !stdout.contains("::"),
        "no workflow commands off GitHub:\n{stdout}"
    );
    assert!(stdout.contains("== packs/broken: 1 error =="), "{stdout}");
    assert!(ws.path().join("x.sarif").exists());
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .env_clear()
        .current_dir(ws.path())
        .args(["ci", "packs", "--test", "false"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "a control: fail-on error fails");
}

#[test]
fn bad_inputs_and_unwritable_outputs() {
    let ws = workspace();
    let mut env = Env::push("http://127.0.0.1:9");
    env.set("INPUT_FAIL-ON", "sometimes");
    let r = env.run(ws.path());
    assert_eq!(r.code, 2, "{r}");
    assert!(r.stderr.contains("INPUT_FAIL-ON"), "{r}");

    // An output file that cannot be written is an internal error.
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .env_clear()
        .current_dir(ws.path())
        .env("GITHUB_OUTPUT", ws.path().join("packs"))
        .args(["ci", "--upload", "false", "--test", "false"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn hostile_pack_text_cannot_forge_workflow_commands() {
    let server = Server::start(github(&[]));
    let ws = workspace();
    std::fs::write(ws.path().join("packs/broken/%0A::error::forged"), "x").unwrap();
    std::fs::write(ws.path().join("packs/broken/a\n::warning::forged"), "x").unwrap();
    let r = Env::push(&server.url).run(ws.path());
    hygiene(&r);
    for l in r.stdout.lines() {
        assert!(
            !l.starts_with("::error::forged") && !l.starts_with("::warning::forged"),
            "{r}"
        );
    }
    assert!(!r.summary.contains("::error::forged"), "{}", r.summary);
}

#[test]
fn a_failing_case_fails_the_gate_and_is_reported_everywhere() {
    let server = Server::start(github(&[]));
    let ws = workspace();
    std::fs::remove_dir_all(ws.path().join("packs/broken")).unwrap();
    let case = ws.path().join("packs/good/tests/cache-store/case.toml");
    let text = std::fs::read_to_string(&case).unwrap();
    assert!(
        text.contains("\napplied = 1\n"),
        "the page's case expects one change"
    );
    std::fs::write(&case, text.replace("\napplied = 1\n", "\napplied = 0\n")).unwrap();
    let r = Env::push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "{r}");
    assert!(
        r.stdout
            .contains("FAIL decision-log/cache-store: applied: expected 0, got 1"),
        "{r}"
    );
    assert_eq!(r.out("failed-cases"), "1");
    assert_eq!(r.out("errors"), "0");
    assert!(
        r.annotations().iter().any(|a| a
            .starts_with("::error file=packs/good/tests/cache-store/case.toml,line=")
            && a.contains("(test-expectation)::")),
        "{r}"
    );
    assert!(
        r.summary.contains("FAIL decision&#45;log/cache&#45;store")
            || r.summary.contains("FAIL decision-log/cache-store"),
        "{}",
        r.summary
    );
    let sarif = String::from_utf8(r.sarif.clone().unwrap()).unwrap();
    assert!(
        sarif.contains("\"test-expectation\""),
        "the failure is in the SARIF"
    );

    // test: false runs no case, so the same packs pass.
    let mut env = Env::push(&server.url);
    env.set("INPUT_TEST", "false");
    let r = env.run(ws.path());
    assert_eq!(r.code, 0, "a control: without the cases nothing fails\n{r}");
    assert!(!r.stdout.contains("cache-store"), "{r}");
}

// ---------------------------------------------------------------------------------------------
// action.yml and the Dockerfile agree with the binary (what can be checked without Docker).

fn repo_file(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap()
}

/// The keys of a top-level section of action.yml (two-space indented `name:` lines).
fn action_keys(section: &str) -> Vec<String> {
    let text = repo_file("action.yml");
    let mut keys = Vec::new();
    let mut inside = false;
    for l in text.lines() {
        if !l.starts_with(' ') && !l.is_empty() {
            inside = l.trim_end() == format!("{section}:");
            continue;
        }
        if inside
            && let Some(k) = l.strip_prefix("  ").and_then(|k| k.strip_suffix(':'))
            && !k.starts_with(' ')
        {
            keys.push(k.to_string());
        }
    }
    keys
}

#[test]
fn every_input_of_action_yml_has_a_flag_and_every_output_is_written() {
    let inputs = action_keys("inputs");
    assert_eq!(
        inputs,
        vec![
            "path",
            "test",
            "sarif-file",
            "upload",
            "category",
            "fail-on",
            "scope",
            "annotations",
            "shard",
            "ref",
            "sha",
            "token"
        ]
    );
    let help = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .args(["ci", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for i in &inputs {
        assert!(help.contains(&format!("--{i} ")), "no flag --{i}:\n{help}");
        assert!(
            help.contains(&format!("[input: {i}]")),
            "--{i} does not name its input:\n{help}"
        );
    }
    assert!(!help.contains("--nonexistent "), "a control");

    let outputs = action_keys("outputs");
    let server = Server::start(github(&[]));
    let ws = workspace();
    let r = Env::push(&server.url).run(ws.path());
    let mut written: Vec<&String> = r.outputs.keys().collect();
    written.sort();
    let mut declared: Vec<&String> = outputs.iter().collect();
    declared.sort();
    assert_eq!(written, declared, "{r}");

    let action = repo_file("action.yml");
    for needed in [
        "  using: docker\n",
        "  image: Dockerfile\n",
        "  args:\n    - ci\n",
        "branding:",
        "default: ${{ github.token }}",
    ] {
        assert!(action.contains(needed), "action.yml lacks {needed:?}");
    }
}

#[test]
fn the_dockerfile_builds_a_static_binary_into_an_empty_image() {
    let docker = repo_file("Dockerfile");
    let stages: Vec<&str> = docker.split("\nFROM ").collect();
    let last = stages.last().unwrap();
    assert!(
        last.starts_with("scratch") || last.starts_with("gcr.io/distroless/static"),
        "{last}"
    );
    assert!(docker.contains("cargo build --release --locked"));
    let first = docker.lines().find(|l| l.starts_with("FROM ")).unwrap();
    assert!(
        first.contains(':')
            && !first.contains(":latest")
            && first.chars().filter(|c| *c == '.').count() >= 2,
        "a pinned toolchain image: {first}"
    );
    let instructions: Vec<&str> = last
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();
    assert!(
        !instructions.contains(&"USER") && !instructions.contains(&"WORKDIR"),
        "{last}"
    );
    assert!(
        last.contains("ENTRYPOINT [\"/hippo-packs\"]"),
        "an absolute entry point"
    );
    let ignore = repo_file(".dockerignore");
    assert!(
        ignore.lines().next().is_some() && ignore.contains("!src/"),
        "{ignore}"
    );
}

#[test]
fn a_single_pack_repository_is_one_pack_at_the_root() {
    let server = Server::start(github(&[".github/workflows/ci.yml"]));
    let ws = tempfile::tempdir().unwrap();
    copy_dir(&good_pack(), ws.path());
    let manifest = ws.path().join("pack.toml");
    let m = std::fs::read_to_string(&manifest).unwrap() + "homepage = \"elsewhere\"\n";
    std::fs::write(&manifest, m).unwrap();
    // The SARIF file lands in the pack's folder, after the check: a fresh checkout each run.
    let r = Env::pull_request(&server.url, false, 1).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "a root pack is gated by any change:\n{r}");
    assert!(r.stdout.contains("::group::decision-log: 1 error\n"), "{r}");
    assert!(r.stdout.contains("\nerror pack.toml: unknown field"), "{r}");
    assert!(r.stdout.contains("::error file=pack.toml,line=7"), "{r}");
    assert_eq!(r.out("packs"), "1");
    let sarif = decode_upload(&server.uploads()[0]);
    let sarif = String::from_utf8(sarif).unwrap();
    assert!(sarif.contains("\"uri\": \"pack.toml\""), "{sarif}");
}
