//! The connection under octocrab, for enterprise networks (docs/action.md, "Enterprise
//! networks"): TLS through rustls with Mozilla's roots compiled in plus the PEM certificates of
//! `SSL_CERT_FILE` and `SSL_CERT_DIR` (a GitHub Enterprise Server behind a private CA), and an
//! `https://` API reached through the proxy `HTTPS_PROXY` (or `ALL_PROXY`) names unless
//! `NO_PROXY` exempts its host, as curl reads them (hyper-util's matcher and CONNECT tunnel).
//! Every connection keeps the time limits.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http::Uri;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::connect::proxy::Tunnel;
use hyper_util::client::proxy::matcher::Matcher;
use hyper_util::rt::TokioIo;
use rustls_pki_types::CertificateDer;
use rustls_pki_types::pem::PemObject;
use tower_service::Service;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Where extra CA certificates come from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ExtraRoots {
    /// `SSL_CERT_FILE`: one PEM file, any number of certificates.
    pub(crate) file: Option<PathBuf>,
    /// `SSL_CERT_DIR`: folders (`:`-separated, as OpenSSL reads it) of PEM files.
    pub(crate) dirs: Vec<PathBuf>,
}

impl ExtraRoots {
    /// From the process environment; empty values count as absent.
    pub(crate) fn from_process() -> ExtraRoots {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        ExtraRoots {
            file: var("SSL_CERT_FILE").map(PathBuf::from),
            dirs: var("SSL_CERT_DIR")
                .map(|v| {
                    std::env::split_paths(&v)
                        .filter(|p| !p.as_os_str().is_empty())
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// Every certificate: all of `SSL_CERT_FILE` (an unreadable file or one without a
    /// certificate is an error: it was named on purpose), and each PEM file of the folders
    /// (other files, such as OpenSSL's hash links to CRLs, are passed over).
    pub(crate) fn load(&self) -> Result<Vec<CertificateDer<'static>>, String> {
        let mut out = Vec::new();
        if let Some(f) = &self.file {
            let certs = pem_certs(f).map_err(|e| format!("SSL_CERT_FILE {}: {e}", f.display()))?;
            if certs.is_empty() {
                return Err(format!(
                    "SSL_CERT_FILE {}: no PEM certificate in it",
                    f.display()
                ));
            }
            out.extend(certs);
        }
        for d in &self.dirs {
            let entries =
                std::fs::read_dir(d).map_err(|e| format!("SSL_CERT_DIR {}: {e}", d.display()))?;
            let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            files.sort();
            for f in files.iter().filter(|f| f.is_file()) {
                out.extend(pem_certs(f).unwrap_or_default());
            }
        }
        Ok(out)
    }
}

/// The certificates of one PEM file.
fn pem_certs(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    CertificateDer::pem_file_iter(path)
        .map_err(|e| e.to_string())?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}

/// rustls with ring, Mozilla's roots and `extra`.
pub(crate) fn tls_config(
    extra: Vec<CertificateDer<'static>>,
) -> Result<rustls::ClientConfig, String> {
    let mut roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let (_, refused) = roots.add_parsable_certificates(extra);
    if refused > 0 {
        return Err(format!(
            "{refused} certificate(s) of SSL_CERT_FILE / SSL_CERT_DIR cannot serve as a root"
        ));
    }
    rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map(|b| b.with_root_certificates(roots).with_no_client_auth())
        .map_err(|e| e.to_string())
}

/// Opens TCP connections, through a CONNECT tunnel when the proxy rules say so.
#[derive(Clone)]
pub(crate) struct ProxyConnector {
    direct: HttpConnector,
    proxy: Arc<Matcher>,
}

impl ProxyConnector {
    pub(crate) fn new(proxy: Matcher, connect_timeout: Duration) -> ProxyConnector {
        let mut direct = HttpConnector::new();
        direct.enforce_http(false);
        direct.set_connect_timeout(Some(connect_timeout));
        ProxyConnector {
            direct,
            proxy: Arc::new(proxy),
        }
    }
}

impl Service<Uri> for ProxyConnector {
    type Response = TokioIo<tokio::net::TcpStream>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, dst: Uri) -> Self::Future {
        let via = (dst.scheme_str() == Some("https"))
            .then(|| self.proxy.intercept(&dst))
            .flatten();
        match via {
            Some(proxy) => {
                let mut tunnel = Tunnel::new(proxy.uri().clone(), self.direct.clone());
                if let Some(auth) = proxy.basic_auth() {
                    tunnel = tunnel.with_auth(auth.clone());
                }
                Box::pin(async move { tunnel.call(dst).await.map_err(Into::into) })
            }
            None => {
                let mut direct = self.direct.clone();
                Box::pin(async move { direct.call(dst).await.map_err(Into::into) })
            }
        }
    }
}

/// The proxy rules of the process environment (`HTTPS_PROXY`, `ALL_PROXY`, `NO_PROXY`, and
/// their lower-case forms, as curl reads them).
pub(crate) fn proxy_from_env() -> Matcher {
    Matcher::from_env()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cert_pem() -> String {
        let key = rcgen::KeyPair::generate().unwrap();
        let params = rcgen::CertificateParams::new(vec!["ghes.example".to_string()]).unwrap();
        params.self_signed(&key).unwrap().pem()
    }

    #[test]
    fn extra_roots_come_from_the_file_and_the_folders() {
        let t = tempfile::tempdir().unwrap();
        let file = t.path().join("ca.pem");
        std::fs::write(&file, format!("{}{}", cert_pem(), cert_pem())).unwrap();
        let dir = t.path().join("certs");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("a.pem"), cert_pem()).unwrap();
        std::fs::write(dir.join("README"), "not a certificate").unwrap();
        let roots = ExtraRoots {
            file: Some(file.clone()),
            dirs: vec![dir],
        };
        let certs = roots.load().unwrap();
        assert_eq!(certs.len(), 3);
        assert!(tls_config(certs).is_ok());
        assert_eq!(ExtraRoots::default().load().unwrap().len(), 0);
    }

    #[test]
    fn a_named_file_that_is_no_certificate_is_an_error() {
        let t = tempfile::tempdir().unwrap();
        let bad = t.path().join("bad.pem");
        std::fs::write(&bad, "hello").unwrap();
        let e = ExtraRoots {
            file: Some(bad),
            dirs: vec![],
        }
        .load()
        .unwrap_err();
        assert!(e.contains("no PEM certificate"), "{e}");
        let missing = ExtraRoots {
            file: Some(t.path().join("nope.pem")),
            dirs: vec![],
        };
        assert!(missing.load().is_err());
    }

    #[test]
    fn the_proxy_applies_to_https_unless_no_proxy_names_the_host() {
        let m = Matcher::builder()
            .https("http://user:pw@proxy.example:3128")
            .no("ghes.internal")
            .build();
        let api: Uri = "https://api.github.com/repos".parse().unwrap();
        let inside: Uri = "https://ghes.internal/api/v3".parse().unwrap();
        let via = m.intercept(&api).expect("proxied");
        assert_eq!(via.uri().host(), Some("proxy.example"));
        assert!(via.basic_auth().is_some());
        assert!(m.intercept(&inside).is_none(), "NO_PROXY exempts it");
    }
}
