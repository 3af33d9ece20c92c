//! The HTTP side of `ci`: one octocrab client against `$GITHUB_API_URL`, with time limits on
//! every request and bounded retries with back-off on server errors.
//!
//! octocrab is built lean (see Cargo.toml): no OpenSSL, rustls with ring and the webpki roots
//! compiled in, http/1 only, no redirects, no tracing. Its own retry layer is left out on
//! purpose: it retries without back-off and cannot tell a timeout from a refused connection,
//! so [`Http::call`] does that here, where the bound on the time spent is visible.

use std::future::Future;
use std::time::Duration;

use std::sync::Arc;

use octocrab::Octocrab;
use octocrab::service::middleware::auth_header::AuthHeaderLayer;
use octocrab::service::middleware::base_uri::BaseUriLayer;
use octocrab::service::middleware::extra_headers::ExtraHeadersLayer;

use super::transport;

/// Back-off before each retry: a request is tried at most `1 + RETRIES.len()` times.
pub const RETRIES: [Duration; 3] = [
    Duration::from_secs(1),
    Duration::from_secs(2),
    Duration::from_secs(4),
];

/// Why a request failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// GitHub answered with an error status; `message` is GitHub's `message` (or the body).
    Status { code: u16, message: String },
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
            Failure::Timeout(d) => write!(f, "no answer within {}s", d.as_secs_f32()),
            Failure::Transport(m) => write!(f, "connection failed: {m}"),
            Failure::Decode(m) => write!(f, "unexpected answer: {m}"),
        }
    }
}

impl Failure {
    /// Worth trying again: a server error, or a connection that failed without timing out.
    pub fn transient(&self) -> bool {
        match self {
            Failure::Status { code, .. } => *code >= 500,
            Failure::Transport(_) => true,
            Failure::Timeout(_) | Failure::Decode(_) => false,
        }
    }

    pub fn status(&self) -> Option<u16> {
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
pub fn classify(e: octocrab::Error, limit: Duration) -> Failure {
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
pub struct Http {
    pub crab: Octocrab,
    /// The longest one request may take (connect, send, answer).
    pub timeout: Duration,
}

impl Http {
    /// Builds the client. Must run inside the tokio runtime. The connection honours
    /// `SSL_CERT_FILE` / `SSL_CERT_DIR` and the proxy variables ([`transport`]).
    pub fn new(api_url: &str, token: Option<&str>, timeout: Duration) -> Result<Http, String> {
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
        let client =
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
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
        let agent =
            http::HeaderValue::from_static(concat!("hippo-packs/", env!("CARGO_PKG_VERSION")));
        let crab = octocrab::OctocrabBuilder::new_empty()
            .with_service(client)
            .with_layer(&ExtraHeadersLayer::new(Arc::new(vec![(
                http::header::USER_AGENT,
                agent,
            )])))
            .with_layer(&BaseUriLayer::new(base.clone()))
            .with_layer(&AuthHeaderLayer::new(auth, base.clone(), base))
            .with_auth(octocrab::AuthState::None)
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Http { crab, timeout })
    }

    /// Runs one request with the time limit, retrying transient failures with back-off.
    /// `on_retry` hears of each retry (to print it).
    pub async fn call<T, F, Fut>(
        &self,
        mut f: F,
        mut on_retry: impl FnMut(&Failure),
    ) -> Result<T, Failure>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = octocrab::Result<T>>,
    {
        let mut attempt = 0;
        loop {
            let failure = match tokio::time::timeout(self.timeout, f()).await {
                Ok(Ok(v)) => return Ok(v),
                Ok(Err(e)) => classify(e, self.timeout),
                Err(_) => Failure::Timeout(self.timeout),
            };
            match RETRIES.get(attempt) {
                Some(delay) if failure.transient() => {
                    on_retry(&failure);
                    tokio::time::sleep(*delay).await;
                    attempt += 1;
                }
                _ => return Err(failure),
            }
        }
    }
}

/// A current-thread tokio runtime: `ci` makes a handful of requests one after another.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_server_errors_and_broken_connections_are_retried() {
        let s = |code| Failure::Status {
            code,
            message: String::new(),
        };
        assert!(s(500).transient() && s(503).transient());
        assert!(!s(403).transient() && !s(413).transient() && !s(422).transient());
        assert!(Failure::Transport("reset".into()).transient());
        assert!(!Failure::Timeout(Duration::from_secs(1)).transient());
        assert_eq!(s(404).status(), Some(404));
    }

    #[test]
    fn a_bad_api_url_is_an_error_not_a_panic() {
        let rt = runtime().unwrap();
        let r =
            rt.block_on(async { Http::new("not a url", None, Duration::from_secs(1)).map(|_| ()) });
        assert!(r.is_err());
    }
}
