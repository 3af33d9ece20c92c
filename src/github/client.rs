//! The HTTP side of `ci`: one octocrab client against `$GITHUB_API_URL`, with time limits on
//! every request, bounded retries with back-off on server errors, and rate limits waited out as
//! GitHub's `Retry-After` says (docs/security.md, "The Action's HTTP client").
//!
//! The token never leaves for another host or in clear: the API URL is parsed as a URL, one
//! with a user name or password is refused, an `http://` one is refused unless its host is a
//! loopback address, and [`Answer::next_page`] follows a pagination `Link` only to the
//! API's own origin.
//!
//! octocrab is built lean (see Cargo.toml): no OpenSSL, rustls with ring and the webpki roots
//! compiled in, http/1 only, no redirects, no tracing. Its own retry layer is left out on
//! purpose: it retries without back-off and cannot tell a timeout from a refused connection,
//! so [`Http::request`] does that here, where the bound on the time spent is visible.

use std::time::Duration;

use std::sync::Arc;

use octocrab::Octocrab;
use octocrab::service::middleware::auth_header::AuthHeaderLayer;
use octocrab::service::middleware::base_uri::BaseUriLayer;
use octocrab::service::middleware::extra_headers::ExtraHeadersLayer;

use super::pace::{Paced, Pacer, SystemClock};
use super::transport;

/// Back-off before each retry: a request is tried at most `1 + RETRIES.len()` times.
pub(crate) const RETRIES: [Duration; 3] = [
    Duration::from_secs(1),
    Duration::from_secs(2),
    Duration::from_secs(4),
];

/// The longest `Retry-After` waited out; GitHub asking for more gives up at once.
pub(crate) const MAX_RATE_WAIT: Duration = Duration::from_secs(60);

/// Why a request failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// GitHub answered with an error status; `message` is GitHub's `message` (or the body).
    Status { code: u16, message: String },
    /// A 429, or a 403 for a primary or secondary rate limit, still so after the retries.
    RateLimited { code: u16, message: String },
    /// No answer within the time limit.
    Timeout(Duration),
    /// No connection, or the connection broke.
    Transport(String),
    /// An answer that does not parse as the API documents it.
    Decode(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Status { code, message } => write!(f, "HTTP {code}: {message}"),
            Failure::RateLimited { code, message } => {
                write!(f, "HTTP {code}, rate limited: {message}")
            }
            Failure::Timeout(d) => write!(f, "no answer within {}s", d.as_secs_f32()),
            Failure::Transport(m) => write!(f, "connection failed: {m}"),
            Failure::Decode(m) => write!(f, "unexpected answer: {m}"),
        }
    }
}

impl Failure {
    /// Worth trying again: a server error, or a connection that failed without timing out.
    pub(crate) fn transient(&self) -> bool {
        match self {
            Failure::Status { code, .. } => *code >= 500,
            Failure::Transport(_) => true,
            Failure::Timeout(_) | Failure::Decode(_) | Failure::RateLimited { .. } => false,
        }
    }

    pub(crate) fn status(&self) -> Option<u16> {
        match self {
            Failure::Status { code, .. } => Some(*code),
            _ => None,
        }
    }
}

/// Every message of an error's source chain, joined.
fn chain(e: &(dyn std::error::Error + 'static)) -> (String, bool) {
    let mut parts = vec![e.to_string()];
    let mut timed_out = false;
    let mut cur = e.source();
    while let Some(s) = cur {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            timed_out |= io.kind() == std::io::ErrorKind::TimedOut;
        }
        let m = s.to_string();
        if !parts.contains(&m) {
            parts.push(m);
        }
        cur = s.source();
    }
    (parts.join(": "), timed_out)
}

/// Sorts an octocrab error into a [`Failure`].
pub(crate) fn classify(e: octocrab::Error, limit: Duration) -> Failure {
    match e {
        octocrab::Error::GitHub { source, .. } => Failure::Status {
            code: source.status_code.as_u16(),
            message: source.message.trim().to_string(),
        },
        octocrab::Error::Serde { source, .. } => Failure::Decode(source.to_string()),
        octocrab::Error::Json { source, .. } => {
            Failure::Decode(format!("{}: {}", source.path(), source.inner()))
        }
        other => {
            let (msg, timed_out) = chain(&other);
            if timed_out {
                Failure::Timeout(limit)
            } else {
                Failure::Transport(msg)
            }
        }
    }
}

/// An octocrab client with the limits `ci` keeps.
pub(crate) struct Http {
    pub(crate) crab: Octocrab,
    /// The longest one request may take (connect, send, answer).
    pub(crate) timeout: Duration,
    /// The API URL's `scheme://host[:port]`: the only origin a pagination link may lead to.
    origin: String,
    /// How many times a rate-limited request is tried again (each after GitHub's wait).
    rate_retries: usize,
    /// A second between two writes, shared by every copy of the client ([`super::pace`]).
    pace: Pacer,
}

/// The request methods `ci` uses, with their JSON bodies.
#[derive(Debug, Clone, Copy)]
enum Verb<'a> {
    Get,
    Post(&'a serde_json::Value),
    Patch(&'a serde_json::Value),
}

impl Verb<'_> {
    /// Every method but GET writes, and is paced.
    fn writes(self) -> bool {
        !matches!(self, Verb::Get)
    }
}

/// One answer: its status, its body, and the headers `ci` reads.
#[derive(Debug, Clone)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) body: String,
    pub(crate) retry_after: Option<Duration>,
    pub(crate) link: Option<String>,
    /// `x-ratelimit-remaining: 0`.
    pub(crate) exhausted: bool,
    origin: String,
}

impl Answer {
    /// The body as a typed value.
    pub(crate) fn json<T: serde::de::DeserializeOwned>(&self) -> Result<T, Failure> {
        serde_json::from_str(&self.body).map_err(|e| Failure::Decode(e.to_string()))
    }

    /// An error answer as a failure, with how long GitHub asks to wait before trying again.
    fn failure(&self) -> (Failure, Option<Duration>) {
        let message = serde_json::from_str::<serde_json::Value>(&self.body)
            .ok()
            .and_then(|v| v["message"].as_str().map(str::to_string))
            .unwrap_or_else(|| self.body.trim().chars().take(200).collect());
        let limited = self.status == 429
            || (self.status == 403
                && (self.exhausted || message.to_ascii_lowercase().contains("rate limit")));
        if limited {
            let code = self.status;
            // GitHub's advice without a Retry-After: wait at least a minute.
            let wait = self.retry_after.or(Some(MAX_RATE_WAIT));
            (Failure::RateLimited { code, message }, wait)
        } else {
            let code = self.status;
            (Failure::Status { code, message }, None)
        }
    }

    /// The `rel="next"` URL of the `Link` header; a link to another origin than the API's is
    /// an error, never followed (it would carry the token elsewhere).
    pub(crate) fn next_page(&self) -> Result<Option<String>, Failure> {
        let Some(link) = &self.link else {
            return Ok(None);
        };
        for part in link.split(',') {
            let mut pieces = part.split(';');
            let url = pieces.next().unwrap_or("").trim();
            let is_next = pieces.any(|p| p.trim().replace(' ', "") == "rel=\"next\"");
            let Some(url) = url.strip_prefix('<').and_then(|u| u.strip_suffix('>')) else {
                continue;
            };
            if !is_next {
                continue;
            }
            if origin(url).as_deref() != Some(self.origin.as_str()) {
                return Err(Failure::Decode(format!(
                    "the next page is on another host ({}); not followed",
                    origin(url).unwrap_or_else(|| "no origin".into())
                )));
            }
            return Ok(Some(url.to_string()));
        }
        Ok(None)
    }
}

/// `scheme://host[:port]` of an absolute http(s) URL, as the URL standard serializes it
/// (host lower-cased, a default port left out); none for a URL with a user name or password.
fn origin(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    let plain = u.username().is_empty() && u.password().is_none();
    let o = u.origin();
    (plain && o.is_tuple()).then(|| o.ascii_serialization())
}

/// The API URL parsed as a URL, or why it is refused: not an absolute http(s) URL with a host;
/// a user name or password in it (userinfo, never shown: it may be a credential); `http://` to
/// anything but a loopback host, which would send the token in clear.
fn api_base(api_url: &str) -> Result<url::Url, String> {
    let not_url = || format!("GITHUB_API_URL is not an http(s) URL: {api_url}");
    let u = url::Url::parse(api_url).map_err(|_| not_url())?;
    if !u.username().is_empty() || u.password().is_some() {
        return Err("GITHUB_API_URL holds a user name or password before its host; refused: the token travels in the Authorization header only".to_string());
    }
    let loopback = match u.host() {
        Some(url::Host::Domain(d)) => d == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => return Err(not_url()),
    };
    match u.scheme() {
        "https" => Ok(u),
        "http" if loopback => Ok(u),
        "http" => Err(format!(
            "GITHUB_API_URL {} is http://, not https://: the token would travel in clear; only a loopback address may be plain http",
            u.origin().ascii_serialization()
        )),
        _ => Err(not_url()),
    }
}

impl Http {
    /// Builds the client. Must run inside the tokio runtime. Refuses an API URL [`api_base`]
    /// refuses, and a token no HTTP header can carry (never naming it).
    pub(crate) fn new(
        api_url: &str,
        token: Option<&str>,
        timeout: Duration,
    ) -> Result<Http, String> {
        let base = api_base(api_url)?;
        if token.is_some_and(|t| t.chars().any(char::is_control)) {
            return Err("the token holds a control character (a line break, say), which no HTTP header can carry; check the secret the `token` input reads".to_string());
        }
        // The client is built from the URL as parsed above, so the check and the connection
        // read the same host.
        let crab = build(base.as_str().trim_end_matches('/'), token, timeout)?;
        Ok(Http {
            crab,
            timeout,
            origin: base.origin().ascii_serialization(),
            rate_retries: RETRIES.len(),
            pace: Pacer::new(Arc::new(SystemClock::new())),
        })
    }

    /// The same client, paced by `pacer` (a test's clock).
    #[cfg(test)]
    pub(crate) fn with_pacer(self, pace: Pacer) -> Http {
        Http { pace, ..self }
    }

    /// The writes this client (and its copies) sent, and the time it waited between them.
    pub(crate) fn paced(&self) -> Paced {
        self.pace.paced()
    }

    /// The same client (its connections shared), trying a rate-limited request again at most
    /// `n` times.
    pub(crate) fn with_rate_retries(&self, n: usize) -> Http {
        Http {
            crab: self.crab.clone(),
            timeout: self.timeout,
            origin: self.origin.clone(),
            rate_retries: n,
            pace: self.pace.clone(),
        }
    }

    /// One request (a GET, or a POST of `body`) with the time limit; server errors and broken
    /// connections are retried with back-off, rate limits after GitHub's `Retry-After` (at most
    /// [`MAX_RATE_WAIT`]). `uri` is a route under the API URL, or a full URL of its origin.
    pub(crate) async fn request(
        &self,
        body: Option<&serde_json::Value>,
        uri: &str,
        on_retry: impl FnMut(&Failure),
    ) -> Result<Answer, Failure> {
        let verb = match body {
            Some(b) => Verb::Post(b),
            None => Verb::Get,
        };
        self.send(verb, uri, on_retry).await
    }

    /// A PATCH of `body`, as [`Http::request`].
    pub(crate) async fn patch(
        &self,
        body: &serde_json::Value,
        uri: &str,
        on_retry: impl FnMut(&Failure),
    ) -> Result<Answer, Failure> {
        self.send(Verb::Patch(body), uri, on_retry).await
    }

    /// The one way out: every request of a run goes through here (one client per run, built
    /// by the run context), so pacing between writes and rate-limit state shared across the
    /// run's requests belong here.
    async fn send(
        &self,
        verb: Verb<'_>,
        uri: &str,
        mut on_retry: impl FnMut(&Failure),
    ) -> Result<Answer, Failure> {
        let (mut attempt, mut rated) = (0, 0);
        loop {
            // A write waits for its turn; the time limit is the request's own.
            if verb.writes() {
                self.pace.before_write().await;
            }
            let answer = tokio::time::timeout(self.timeout, self.once(verb, uri)).await;
            if verb.writes() {
                self.pace.after_write();
            }
            let (failure, wait) = match answer {
                Ok(Ok(a)) if a.status < 400 => return Ok(a),
                Ok(Ok(a)) => a.failure(),
                Ok(Err(e)) => (classify(e, self.timeout), None),
                Err(_) => (Failure::Timeout(self.timeout), None),
            };
            let delay = match &failure {
                Failure::RateLimited { .. } if rated < self.rate_retries => {
                    rated += 1;
                    wait.filter(|w| *w <= MAX_RATE_WAIT)
                }
                f if f.transient() => RETRIES.get(attempt).copied(),
                _ => None,
            };
            let Some(delay) = delay else {
                return Err(failure);
            };
            on_retry(&failure);
            tokio::time::sleep(delay).await;
            attempt += 1;
        }
    }

    async fn once(&self, verb: Verb<'_>, uri: &str) -> octocrab::Result<Answer> {
        let res = match verb {
            Verb::Get => self.crab._get(uri).await?,
            Verb::Post(b) => self.crab._post(uri, Some(b)).await?,
            Verb::Patch(b) => self.crab._patch(uri, Some(b)).await?,
        };
        let header = |k: &str| {
            res.headers()
                .get(k)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let status = res.status().as_u16();
        // `retry-after` in seconds, else `x-ratelimit-reset` (epoch seconds) from now.
        let reset = header("x-ratelimit-reset")
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(|at| at.saturating_sub(chrono::Utc::now().timestamp().max(0) as u64));
        let retry_after = header("retry-after")
            .and_then(|v| v.trim().parse::<u64>().ok())
            .or(reset);
        let (link, remaining) = (header("link"), header("x-ratelimit-remaining"));
        let body = self.crab.body_to_string(res).await?;
        Ok(Answer {
            status,
            body,
            retry_after: retry_after.map(Duration::from_secs),
            link,
            exhausted: remaining.as_deref().map(str::trim) == Some("0"),
            origin: self.origin.clone(),
        })
    }
}

/// octocrab over our connection ([`transport`]): rustls with the compiled-in and the
/// `SSL_CERT_FILE` / `SSL_CERT_DIR` roots, the proxy variables, the time limits; and octocrab's
/// own base-URI, header and auth layers, as its default client has them.
fn build(api_url: &str, token: Option<&str>, timeout: Duration) -> Result<Octocrab, String> {
    let base: http::Uri = api_url
        .parse()
        .ok()
        .filter(|u: &http::Uri| u.scheme().is_some() && u.host().is_some())
        .ok_or_else(|| format!("GITHUB_API_URL is not a URL: {api_url}"))?;
    let connect = timeout.min(Duration::from_secs(10));
    let tls = transport::tls_config(transport::ExtraRoots::from_process().load()?)?;
    let tcp = transport::ProxyConnector::new(transport::proxy_from_env(), connect);
    let https = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_http1()
        .wrap_connector(tcp);
    let mut timed = hyper_timeout::TimeoutConnector::new(https);
    timed.set_connect_timeout(Some(connect));
    timed.set_read_timeout(Some(timeout));
    timed.set_write_timeout(Some(timeout));
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build::<_, octocrab::OctoBody>(timed);
    let auth = match token {
        Some(t) => {
            // The error names no value: the token must never reach the log.
            let mut v = http::HeaderValue::from_str(&format!("Bearer {t}"))
                .map_err(|_| "the token holds a character an HTTP header cannot carry")?;
            v.set_sensitive(true);
            Some(v)
        }
        None => None,
    };
    let agent = http::HeaderValue::from_static(concat!("hippo-packs/", env!("CARGO_PKG_VERSION")));
    octocrab::OctocrabBuilder::new_empty()
        .with_service(client)
        .with_layer(&ExtraHeadersLayer::new(Arc::new(vec![(
            http::header::USER_AGENT,
            agent,
        )])))
        .with_layer(&BaseUriLayer::new(base.clone()))
        .with_layer(&AuthHeaderLayer::new(auth, base.clone(), base))
        .with_auth(octocrab::AuthState::None)
        .build()
        .map_err(|e| e.to_string())
}

/// A current-thread tokio runtime: `ci` makes a handful of requests one after another.
pub(crate) fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

#[cfg(test)]
mod tests;
