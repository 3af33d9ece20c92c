//! A stand-in for GitHub's API on 127.0.0.1 (the code-scanning `sarifs` endpoints, a pull
//! request's files, the Checks API): records every request and answers as a handler says.
//! Nothing reaches the internet. With `HIPPO_PACKS_PROXY=1` in the environment, `Server::start`
//! puts GitHub's published API description between `ci` and the handler (`proxy.rs`) and
//! fails the test that sent or answered anything the description refuses. GraphQL
//! (`POST /graphql`), which that description lacks, never goes to the proxy: `Server::start`
//! checks it against GitHub's GraphQL schema (`graphql.rs`) with or without the proxy.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub(crate) method: String,
    /// Path and query.
    pub(crate) target: String,
    pub(crate) headers: HashMap<String, String>,
    pub(crate) body: Vec<u8>,
    /// When its head arrived (at the front, with the proxy): how far apart writes came.
    pub(crate) at: std::time::Instant,
}

impl Request {
    pub(crate) fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

pub(crate) enum Reply {
    Json(u16, String),
    /// With extra headers (a `Link` for pagination).
    JsonWith(u16, String, Vec<(String, String)>),
    /// Never answer (the connection stays open).
    Hang,
}

pub(crate) type Handler = dyn Fn(&Request, usize) -> Reply + Send + Sync;

pub(crate) struct Server {
    pub(crate) url: String,
    seen: Arc<Mutex<Vec<Request>>>,
    /// Through the validating proxy: what it refused (checked when the server is dropped).
    violations: Option<Arc<Mutex<Vec<String>>>>,
}

/// Whether `Server::start` goes through the validating proxy: `HIPPO_PACKS_PROXY=1`, set by
/// `.ci/run` for a second run of the tests that start the stand-in (the same test binary, no
/// rebuild; docs/architecture.md, "The test suite").
pub(crate) fn proxied() -> bool {
    std::env::var_os("HIPPO_PACKS_PROXY").is_some_and(|v| v == "1")
}

impl Server {
    /// `handler(request, n)` answers; `n` counts earlier requests with the same method and
    /// path. Through GitHub's API description when [`proxied`] says so.
    pub(crate) fn start(
        handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static,
    ) -> Server {
        if proxied() {
            return Server::start_proxied(handler);
        }
        let violations: Arc<Mutex<Vec<String>>> = Arc::default();
        let v = violations.clone();
        let mut s = Server::start_direct(move |req, n| {
            graphql(req, &v);
            handler(req, n)
        });
        s.violations = Some(violations);
        s
    }

    /// Straight to `handler`, never through the proxy: for a server that answers what no
    /// description holds (a hang, a server error, a broken body).
    pub(crate) fn start_direct(
        handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static,
    ) -> Server {
        Server::start_with(None, handler)
    }

    /// A front that forwards to the validating proxy under a prefix of this test's own; the
    /// router behind the proxy hands the requests to `handler`.
    pub(crate) fn start_proxied(
        handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static,
    ) -> Server {
        let target: Arc<std::sync::OnceLock<(String, String)>> = Arc::default();
        let violations: Arc<Mutex<Vec<String>>> = Arc::default();
        let (t, v) = (target.clone(), violations.clone());
        let handler: Arc<Handler> = Arc::new(handler);
        let h = handler.clone();
        let mut front = Server::start_direct(move |req, n| {
            if graphql(req, &v) {
                return h(req, n);
            }
            let (key, prism) = t.get().expect("routed");
            super::proxy::forward(prism, key, req, &v)
        });
        let routed = super::proxy::route(handler, &front.url);
        target.set(routed).expect("routed once");
        front.violations = Some(violations);
        front
    }

    /// What the validating proxy refused so far (emptied: a test that expects refusals takes
    /// them); `None` without the proxy.
    pub(crate) fn take_violations(&self) -> Option<Vec<String>> {
        self.violations
            .as_ref()
            .map(|v| std::mem::take(&mut *v.lock().unwrap()))
    }

    /// The same over TLS with `config` (the URL is `https://127.0.0.1:<port>`).
    pub(crate) fn start_tls(
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
        Server {
            url,
            seen,
            violations: None,
        }
    }

    pub(crate) fn requests(&self) -> Vec<Request> {
        self.seen.lock().unwrap().clone()
    }

    pub(crate) fn uploads(&self) -> Vec<Request> {
        self.requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path().ends_with("/code-scanning/sarifs"))
            .collect()
    }
}

/// Whether `req` is for GitHub's GraphQL endpoint; its problems against GitHub's schema go to
/// `violations`.
fn graphql(req: &Request, violations: &Mutex<Vec<String>>) -> bool {
    if req.path() != "/graphql" {
        return false;
    }
    let problems = super::graphql::problems(req);
    if !problems.is_empty() {
        let what = format!(
            "{} {}: GitHub's GraphQL schema refuses it",
            req.method, req.target
        );
        violations
            .lock()
            .unwrap()
            .push(format!("{what}: {}", problems.join("; ")));
    }
    true
}

impl Drop for Server {
    /// A request or an answer GitHub's API description refuses fails the test.
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        if let Some(v) = self.take_violations() {
            assert!(
                v.is_empty(),
                "GitHub's API description refuses {} exchange(s):\n{}",
                v.len(),
                v.join("\n")
            );
        }
    }
}

fn serve<S: Read + Write>(stream: S, seen: &Mutex<Vec<Request>>, handler: &Handler, base: &str) {
    let mut reader = BufReader::new(stream);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let at = std::time::Instant::now();
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
            at,
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

/// Sends one request with a JSON body to `url` (a test's `Server`, through the proxy) and returns
/// the status of the answer (0 when there is none). The status line is enough; the stand-in keeps
/// the connection open.
pub(crate) fn send(url: &str, method: &str, path: &str, body: &str) -> u16 {
    use std::io::{BufRead, Write};
    let authority = url.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(authority).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {authority}\r\nconnection: close\r\ncontent-type: application/json\r\nauthorization: Bearer ghs_x\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut first = String::new();
    std::io::BufReader::new(s).read_line(&mut first).unwrap();
    first
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}
