//! Enterprise networks: a GitHub Enterprise Server behind a private CA (`SSL_CERT_FILE`,
//! `SSL_CERT_DIR`) and a runner behind a proxy (`HTTPS_PROXY`, `NO_PROXY`). The stand-in for
//! GitHub speaks TLS with a self-signed certificate made here; the proxy is a CONNECT proxy on
//! 127.0.0.1 that records what it tunnels. Nothing reaches the internet.

use crate::common;

use common::ci_env::good_workspace;
use common::ci_run::Ci;
use common::standin::{Reply, Request, Server};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// A self-signed certificate for 127.0.0.1: (PEM, the TLS server's configuration).
fn certificate() -> (String, Arc<rustls::ServerConfig>) {
    let key = rcgen::KeyPair::generate().unwrap();
    let params = rcgen::CertificateParams::new(vec!["127.0.0.1".to_string()]).unwrap();
    let cert = params.self_signed(&key).unwrap();
    let der = rustls_pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into());
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![cert.der().clone()], der)
    .unwrap();
    (cert.pem(), Arc::new(config))
}

fn github(req: &Request, _: usize) -> Reply {
    match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/code-scanning/sarifs") => Reply::Json(
            202,
            r#"{"id": "s-1", "url": "https://ghes.example/api/v3/repos/octo/packs/code-scanning/sarifs/s-1"}"#.into(),
        ),
        ("GET", p) if p.contains("/code-scanning/sarifs/") => {
            Reply::Json(200, r#"{"processing_status": "complete"}"#.into())
        }
        _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
    }
}

/// A CONNECT proxy: records each request head, then pipes bytes both ways.
struct Proxy {
    url: String,
    heads: Arc<Mutex<Vec<String>>>,
}

fn proxy() -> Proxy {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let heads = Arc::new(Mutex::new(Vec::new()));
    let h = heads.clone();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let h = h.clone();
            std::thread::spawn(move || tunnel(client, &h));
        }
    });
    Proxy { url, heads }
}

fn tunnel(client: TcpStream, heads: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(client.try_clone().unwrap());
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    heads.lock().unwrap().push(head.clone());
    let target = head.split_whitespace().nth(1).unwrap_or("").to_string();
    let Ok(upstream) = TcpStream::connect(&target) else {
        return;
    };
    let mut c = client;
    if c.write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        .is_err()
    {
        return;
    }
    let (mut up_r, mut up_w) = (upstream.try_clone().unwrap(), upstream);
    let mut c_w = c.try_clone().unwrap();
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut up_r, &mut c_w);
    });
    let _ = std::io::copy(&mut reader, &mut up_w);
}

/// A push with a token and the API at `api`, annotations as workflow commands.
fn push(api: &str) -> Ci {
    let mut ci = Ci::new();
    ci.set_all(&[
        ("GITHUB_REPOSITORY", "octo/packs"),
        ("GITHUB_SHA", "1111111111111111111111111111111111111111"),
        ("GITHUB_REF", "refs/heads/main"),
        ("GITHUB_EVENT_NAME", "push"),
        ("INPUT_TOKEN", "ghs_networkToken"),
        ("INPUT_ANNOTATIONS", "commands"),
    ])
    .api(api)
    .args(&["--http-timeout", "5", "--upload-wait", "3"]);
    ci
}

#[test]
fn a_private_ca_is_trusted_through_ssl_cert_file_and_ssl_cert_dir() {
    let (pem, config) = certificate();
    let gh = Server::start_tls(config, github);
    let ws = good_workspace();
    let certs = tempfile::tempdir().unwrap();
    std::fs::write(certs.path().join("ghes-ca.pem"), &pem).unwrap();

    // Control: the compiled-in roots alone do not trust the private CA.
    let r = push(&gh.url).run(ws.path());
    assert_eq!(r.out("uploaded"), Some("false"), "{r}");
    assert!(r.stdout.to_lowercase().contains("certificate"), "{r}");
    assert!(gh.uploads().is_empty());

    let ca = certs.path().join("ghes-ca.pem");
    let r = push(&gh.url)
        .set("SSL_CERT_FILE", ca.to_str().unwrap())
        .run(ws.path());
    assert_eq!(r.out("uploaded"), Some("true"), "{r}");

    let r = push(&gh.url)
        .set("SSL_CERT_DIR", certs.path().to_str().unwrap())
        .run(ws.path());
    assert_eq!(r.out("uploaded"), Some("true"), "{r}");
    assert_eq!(gh.uploads().len(), 2);

    // A named file that holds no certificate is said, not ignored.
    let not_a_certificate = ws.path().join("packs/good/pack.toml");
    let r = push(&gh.url)
        .set("SSL_CERT_FILE", not_a_certificate.to_str().unwrap())
        .run(ws.path());
    assert!(r.stdout.contains("no PEM certificate"), "{r}");
}

#[test]
fn https_proxy_tunnels_with_its_credentials_and_no_proxy_goes_direct() {
    let (pem, config) = certificate();
    let gh = Server::start_tls(config, github);
    let ws = good_workspace();
    let ca = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(ca.path(), &pem).unwrap();
    let p = proxy();
    let with_proxy = |proxy_url: &str, no_proxy: Option<&str>| {
        let mut ci = push(&gh.url);
        ci.set("SSL_CERT_FILE", ca.path().to_str().unwrap())
            .set("HTTPS_PROXY", proxy_url);
        if let Some(n) = no_proxy {
            ci.set("NO_PROXY", n);
        }
        ci.run(ws.path())
    };
    let authed = p.url.replace("http://", "http://hippo:s3cret@");
    let r = with_proxy(&authed, None);
    assert_eq!(r.out("uploaded"), Some("true"), "{r}");
    let heads = p.heads.lock().unwrap().clone();
    let host = gh.url.trim_start_matches("https://");
    assert!(!heads.is_empty(), "the proxy saw nothing");
    assert!(
        heads
            .iter()
            .all(|h| h.starts_with(&format!("CONNECT {host} "))),
        "{heads:?}"
    );
    // base64("hippo:s3cret")
    assert!(heads[0].contains("aGlwcG86czNjcmV0"), "{heads:?}");

    let before = heads.len();
    let r = with_proxy(&p.url, Some("127.0.0.1"));
    assert_eq!(r.out("uploaded"), Some("true"), "{r}");
    assert_eq!(
        p.heads.lock().unwrap().len(),
        before,
        "NO_PROXY goes direct"
    );

    // Control: a proxy that is not there fails the upload, so the proxy is really used.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let r = with_proxy(&dead, None);
    assert_eq!(r.out("uploaded"), Some("false"), "{r}");
}
