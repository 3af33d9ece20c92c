//! A stand-in for GitHub's API on 127.0.0.1 (the code-scanning `sarifs` endpoints, a pull
//! request's files, the Checks API): records every request and answers as a handler says.
//! Nothing reaches the internet.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// Path and query.
    pub target: String,
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

pub enum Reply {
    Json(u16, String),
    /// With extra headers (a `Link` for pagination).
    JsonWith(u16, String, Vec<(String, String)>),
    /// Never answer (the connection stays open).
    Hang,
}

pub type Handler = dyn Fn(&Request, usize) -> Reply + Send + Sync;

pub struct Server {
    pub url: String,
    seen: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    /// `handler(request, n)` answers; `n` counts earlier requests with the same method and
    /// path.
    pub fn start(handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static) -> Server {
        Server::start_with(None, handler)
    }

    /// The same over TLS with `config` (the URL is `https://127.0.0.1:<port>`).
    pub fn start_tls(
        config: Arc<rustls::ServerConfig>,
        handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static,
    ) -> Server {
        Server::start_with(Some(config), handler)
    }

    fn start_with(
        tls: Option<Arc<rustls::ServerConfig>>,
        handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static,
    ) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let scheme = if tls.is_some() { "https" } else { "http" };
        let url = format!("{scheme}://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let (s, base) = (seen.clone(), url.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (s, h, base, tls) = (s.clone(), handler.clone(), base.clone(), tls.clone());
                std::thread::spawn(move || match tls {
                    None => serve(stream, &s, &*h, &base),
                    Some(cfg) => {
                        let Ok(conn) = rustls::ServerConnection::new(cfg) else {
                            return;
                        };
                        serve(rustls::StreamOwned::new(conn, stream), &s, &*h, &base)
                    }
                });
            }
        });
        Server { url, seen }
    }

    pub fn requests(&self) -> Vec<Request> {
        self.seen.lock().unwrap().clone()
    }

    pub fn uploads(&self) -> Vec<Request> {
        self.requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path().ends_with("/code-scanning/sarifs"))
            .collect()
    }
}

fn serve<S: Read + Write>(stream: S, seen: &Mutex<Vec<Request>>, handler: &Handler, base: &str) {
    let mut reader = BufReader::new(stream);
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
        let out = reader.get_mut();
        if out.write_all(head.as_bytes()).is_err()
            || out.write_all(body.as_bytes()).is_err()
            || out.flush().is_err()
        {
            return;
        }
    }
}

/// What one `hippo-packs ci` run left behind.
pub struct CiRun {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub summary: String,
    /// `$GITHUB_OUTPUT` as written (the delimiter form).
    pub output: String,
}

impl CiRun {
    /// An output's value (the line after `name<<DELIMITER`).
    pub fn out(&self, name: &str) -> Option<String> {
        let mut lines = self.output.lines();
        while let Some(l) = lines.next() {
            if l.split_once("<<").is_some_and(|(k, _)| k == name) {
                return lines.next().map(str::to_string);
            }
        }
        None
    }
    /// Everything the run wrote, to search for what must not be there.
    pub fn all_text(&self) -> String {
        format!(
            "{}\n{}\n{}\n{}",
            self.stdout, self.stderr, self.summary, self.output
        )
    }
    /// The workflow-command annotations printed.
    pub fn annotations(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|l| {
                l.starts_with("::error") || l.starts_with("::warning") || l.starts_with("::notice")
            })
            .collect()
    }
}

impl std::fmt::Display for CiRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}--- stderr\n{}--- summary\n{}--- outputs\n{}",
            self.code, self.stdout, self.stderr, self.summary, self.output
        )
    }
}

/// Runs `hippo-packs ci` in `ws` as the container would: a clean environment with
/// `GITHUB_WORKSPACE`, `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`, `GITHUB_ACTIONS=true`, then
/// `vars` (a var `EVENT` becomes the file `GITHUB_EVENT_PATH` names).
pub fn run_ci(ws: &std::path::Path, vars: &[(&str, &str)], args: &[&str]) -> CiRun {
    let home = tempfile::tempdir().unwrap();
    let output = home.path().join("output");
    let summary = home.path().join("summary.md");
    std::fs::write(&output, "").unwrap();
    std::fs::write(&summary, "").unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hippo-packs"));
    cmd.env_clear()
        .current_dir(ws)
        .arg("ci")
        .args(args)
        .env("HOME", home.path())
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", ws)
        .env("GITHUB_OUTPUT", &output)
        .env("GITHUB_STEP_SUMMARY", &summary);
    for (k, v) in vars {
        if *k == "EVENT" {
            let p = home.path().join("event.json");
            std::fs::write(&p, v).unwrap();
            cmd.env("GITHUB_EVENT_PATH", p);
        } else {
            cmd.env(k, v);
        }
    }
    let out = cmd.output().unwrap();
    CiRun {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        summary: std::fs::read_to_string(&summary).unwrap_or_default(),
        output: std::fs::read_to_string(&output).unwrap_or_default(),
    }
}
