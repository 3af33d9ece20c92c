//! GitHub's published API description between `ci` and the stand-in (with `HIPPO_PACKS_PROXY=1`
//! in the environment, `standin.rs`): one validating proxy per test binary, `prism proxy` loaded with
//! `@octokit/openapi`'s description trimmed to the operations `ci` calls
//! (scripts/trim_openapi.py `--routed`), in front of one router that hands each request to the
//! test it belongs to by its first path segment (`/t<n>`).
//!
//! Each test's `Server` is a front on 127.0.0.1 that forwards to the proxy under its own prefix
//! and records what the proxy said: a request the description refuses (prism's problem answer),
//! an answer it refuses, or any `sl-violations` entry. Answers with an error status that the
//! description does not list (GitHub's 403 and 429 for permissions and rate limits, a server
//! error) are what the tests play on purpose and are not counted.
//!
//! Nothing is installed here: `.ci/run` installs the npm packages with `npm ci` in `.ci/node`;
//! without them a test through the proxy fails, naming the step.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::standin::{Handler, Reply, Request};

/// The npm packages (`npm ci` in this folder).
pub(crate) fn node_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/node")
}

/// A test's handler and the URL its requests came in by (for `{base}` in `Link` headers).
type Route = (Arc<Handler>, String);

struct Proxy {
    /// `http://127.0.0.1:<port>`: prism.
    url: String,
    routes: Arc<Mutex<HashMap<String, Route>>>,
    next: Mutex<usize>,
}

static PROXY: OnceLock<Proxy> = OnceLock::new();

fn proxy() -> &'static Proxy {
    PROXY.get_or_init(start)
}

/// Registers `handler` as a new test's route; returns the prefix and prism's URL.
pub(crate) fn route(handler: Arc<Handler>, front: &str) -> (String, String) {
    let p = proxy();
    let key = {
        let mut n = p.next.lock().unwrap();
        *n += 1;
        format!("t{n}")
    };
    p.routes
        .lock()
        .unwrap()
        .insert(key.clone(), (handler, front.to_string()));
    (key, p.url.clone())
}

/// The router behind prism, prism itself (killed with the test binary), and the wait until it
/// listens.
fn start() -> Proxy {
    let dir = node_dir();
    let prism = dir.join("node_modules/.bin/prism");
    let full = dir.join("node_modules/@octokit/openapi/generated/api.github.com.json");
    assert!(
        prism.exists() && full.exists(),
        "needs node: the proxy runs the npm packages: run `npm ci` in {} (.ci/run does)",
        dir.display()
    );
    let work = tempfile::tempdir().unwrap().keep();
    let spec = work.join("github-api.json");
    let trim = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/trim_openapi.py"))
        .args([full.as_os_str(), spec.as_os_str()])
        .arg("--routed")
        .output()
        .expect("python3 runs scripts/trim_openapi.py");
    assert!(trim.status.success(), "trim_openapi.py: {trim:?}");

    let routes: Arc<Mutex<HashMap<String, Route>>> = Arc::default();
    let table = routes.clone();
    let router = super::standin::Server::start_direct(move |req, n| {
        let (key, rest) = split_route(&req.target);
        let Some((handler, front)) = table.lock().unwrap().get(key).cloned() else {
            return Reply::Json(599, format!(r#"{{"message": "no test {key}"}}"#));
        };
        let inner = Request {
            target: rest.to_string(),
            ..req.clone()
        };
        match handler(&inner, n) {
            Reply::JsonWith(c, b, h) => Reply::JsonWith(
                c,
                b,
                h.into_iter()
                    .map(|(k, v)| (k, v.replace("{base}", &front)))
                    .collect(),
            ),
            other => other,
        }
    });
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let log = work.join("prism.log");
    spawn_prism(&prism, &spec, &router.url, port, &log);
    std::mem::forget(router);
    let url = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    while !std::fs::read_to_string(&log)
        .unwrap_or_default()
        .contains("Prism is listening")
    {
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "prism did not start within 90 s:\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Proxy {
        url,
        routes,
        next: Mutex::new(0),
    }
}

/// Starts prism from a thread that never ends, with the parent-death signal set, so prism ends
/// with the test binary (the signal follows the thread that forked).
fn spawn_prism(prism: &Path, spec: &Path, upstream: &str, port: u16, log: &Path) {
    let (prism, spec, upstream, log) = (
        prism.to_path_buf(),
        spec.to_path_buf(),
        upstream.to_string(),
        log.to_path_buf(),
    );
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::os::unix::process::CommandExt;
        let file = std::fs::File::create(&log).unwrap();
        let mut cmd = Command::new(&prism);
        cmd.arg("proxy")
            .arg(&spec)
            .arg(&upstream)
            .args(["-h", "127.0.0.1", "-p", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file);
        // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let child = cmd.spawn();
        tx.send(child.is_ok()).ok();
        let _child = child;
        loop {
            std::thread::park();
        }
    });
    assert!(
        rx.recv().unwrap(),
        "cannot start prism from node_modules/.bin"
    );
}

/// `/t3/repos/…` → (`t3`, `/repos/…`).
fn split_route(target: &str) -> (&str, &str) {
    let rest = target.strip_prefix('/').unwrap_or(target);
    match rest.find(['/', '?']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    }
}

/// The front's handler: forwards `req` to prism under `key` and answers with what came back;
/// what the description refused goes to `violations`.
pub(crate) fn forward(
    prism: &str,
    key: &str,
    req: &Request,
    violations: &Mutex<Vec<String>>,
) -> Reply {
    let (status, headers, body) = match send(prism, key, req) {
        Ok(a) => a,
        Err(e) => return Reply::Json(599, format!(r#"{{"message": "proxy: {e}"}}"#)),
    };
    let problem = serde_json::from_str::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v["type"].as_str().map(str::to_string))
        .filter(|t| t.starts_with("https://stoplight.io/prism/errors"));
    let what = format!("{} {}", req.method, req.target);
    if problem.is_some() {
        violations
            .lock()
            .unwrap()
            .push(format!("{what}: {status} {body}"));
    } else if let Some(v) = headers.get("sl-violations") {
        let counted = serde_json::from_str::<Vec<serde_json::Value>>(v)
            .unwrap_or_default()
            .into_iter()
            .filter(|x| !(status >= 400 && undocumented_status(x)))
            .map(|x| x.to_string())
            .collect::<Vec<_>>();
        if !counted.is_empty() {
            violations
                .lock()
                .unwrap()
                .push(format!("{what}: {status} {}", counted.join("; ")));
        }
    }
    let kept = [
        "retry-after",
        "link",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
    ]
    .iter()
    .filter_map(|k| headers.get(*k).map(|v| (k.to_string(), v.clone())))
    .collect();
    Reply::JsonWith(status, body, kept)
}

/// A violation saying only that the answer's status is not one the description lists.
fn undocumented_status(v: &serde_json::Value) -> bool {
    v["message"]
        .as_str()
        .is_some_and(|m| m.starts_with("Unable to match the returned status code"))
}

type Answer = (u16, HashMap<String, String>, String);

/// One HTTP/1.1 request to prism (`Connection: close`, read to the end).
fn send(prism: &str, key: &str, req: &Request) -> std::io::Result<Answer> {
    let authority = prism.trim_start_matches("http://");
    let mut stream = TcpStream::connect(authority)?;
    stream.set_read_timeout(Some(Duration::from_secs(150)))?;
    let mut head = format!(
        "{} /{key}{} HTTP/1.1\r\nhost: {authority}\r\nconnection: close\r\ncontent-length: {}\r\n",
        req.method,
        req.target,
        req.body.len()
    );
    for (k, v) in &req.headers {
        if !matches!(k.as_str(), "host" | "connection" | "content-length") {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(&req.body)?;
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("status line {line:?}")))?;
    let mut headers = HashMap::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h.trim_end().is_empty() {
            break;
        }
        if let Some((k, v)) = h.trim_end().split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let mut raw = Vec::new();
    reader.read_to_end(&mut raw)?;
    if headers
        .get("transfer-encoding")
        .is_some_and(|t| t.eq_ignore_ascii_case("chunked"))
    {
        raw = dechunk(&raw);
    }
    Ok((status, headers, String::from_utf8_lossy(&raw).into_owned()))
}

/// A chunked body, joined.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(i) = raw.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&raw[..i])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next()?.trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 || raw.len() < i + 2 + size {
            break;
        }
        out.extend_from_slice(&raw[i + 2..i + 2 + size]);
        raw = &raw[(i + 4 + size).min(raw.len())..];
    }
    out
}
