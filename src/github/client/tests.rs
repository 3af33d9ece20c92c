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
fn plain_http_only_to_loopback() {
    for ok in [
        "https://api.github.com",
        "http://127.0.0.1:8080",
        "http://localhost/api/v3",
        "http://[::1]:9",
    ] {
        assert!(api_base(ok).is_ok(), "{ok}");
    }
    for bad in [
        "http://api.github.com",
        "http://10.0.0.1",
        "HTTP://ghe.example/api/v3",
        "http://127.0.0.1.evil.example",
        "http://localhost.evil.example:80",
    ] {
        let why = api_base(bad).unwrap_err();
        assert!(why.contains("is http://, not https://"), "{bad}: {why}");
    }
}

#[test]
fn userinfo_in_the_api_url_is_refused_without_showing_it() {
    // A user name once hid the host from the plain-http check; now it is refused on its own.
    for bad in [
        "http://user@ghe.example:8080",
        "http://user@127.0.0.1:8080",
        "https://user:s3cret@api.github.com",
        "https://:s3cret@api.github.com",
    ] {
        let why = api_base(bad).unwrap_err();
        assert!(why.contains("user name or password"), "{bad}: {why}");
        assert!(!why.contains("s3cret") && !why.contains("user@"), "{why}");
    }
    // Control: the same hosts without userinfo pass or fail on the scheme alone.
    assert!(api_base("http://127.0.0.1:8080").is_ok());
    assert!(api_base("https://api.github.com").is_ok());
    assert!(
        api_base("http://ghe.example:8080")
            .unwrap_err()
            .contains("http://")
    );
}

#[test]
fn the_api_url_is_read_as_the_url_standard_reads_it() {
    // A backslash is a slash in an http(s) URL: the host is 127.0.0.1, and the client is built
    // from the URL as parsed, so the check and the connection agree on it.
    let u = api_base("http://127.0.0.1\\@evil.example/").unwrap();
    assert_eq!(u.host_str(), Some("127.0.0.1"));
    for bad in [
        "not a url",
        "ftp://ghe.example/api",
        "file:///etc/passwd",
        "/api/v3",
    ] {
        assert!(
            api_base(bad).unwrap_err().contains("not an http(s) URL"),
            "{bad}"
        );
    }
    assert_eq!(
        origin("https://API.github.com:443/x").as_deref(),
        Some("https://api.github.com")
    );
    assert_eq!(
        origin("https://u@api.github.com/x"),
        None,
        "userinfo has no origin here"
    );
}

#[test]
fn pagination_stays_on_the_api_origin() {
    let answer = |link: &str| Answer {
        status: 200,
        body: String::new(),
        retry_after: None,
        link: Some(link.to_string()),
        exhausted: false,
        origin: "https://api.github.com".into(),
    };
    let next = r#"<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=9>; rel="last""#;
    assert_eq!(
        answer(next).next_page().unwrap().as_deref(),
        Some("https://api.github.com/x?page=2")
    );
    let evil = r#"<https://evil.example/x?page=2>; rel="next""#;
    assert!(
        answer(evil)
            .next_page()
            .unwrap_err()
            .to_string()
            .contains("evil.example")
    );
    let last_only = r#"<https://api.github.com/x?page=9>; rel="last""#;
    assert_eq!(answer(last_only).next_page().unwrap(), None);
}

#[test]
fn rate_limits_are_told_apart() {
    let a = |status, body: &str, exhausted| Answer {
        status,
        body: body.into(),
        retry_after: Some(Duration::from_secs(2)),
        link: None,
        exhausted,
        origin: String::new(),
    };
    let secondary = r#"{"message": "You have exceeded a secondary rate limit."}"#;
    assert!(matches!(
        a(429, "{}", false).failure().0,
        Failure::RateLimited { code: 429, .. }
    ));
    assert!(
        matches!(a(403, secondary, false).failure(), (Failure::RateLimited { .. }, Some(d)) if d == Duration::from_secs(2))
    );
    assert!(matches!(
        a(403, "{}", true).failure().0,
        Failure::RateLimited { .. }
    ));
    // Control: a plain 403 is a permission problem.
    assert!(matches!(
        a(403, r#"{"message": "Resource not accessible"}"#, false)
            .failure()
            .0,
        Failure::Status { code: 403, .. }
    ));
}

#[test]
fn a_token_with_a_control_character_is_an_error_not_a_panic() {
    let rt = runtime().unwrap();
    let e = rt
        .block_on(async {
            Http::new(
                "https://api.github.com",
                Some("ab\ncd"),
                Duration::from_secs(1),
            )
            .map(|_| ())
        })
        .unwrap_err();
    assert!(e.contains("control character") && !e.contains("ab"), "{e}");
    let ok = rt.block_on(async {
        Http::new(
            "https://api.github.com",
            Some("abcd"),
            Duration::from_secs(1),
        )
        .map(|_| ())
    });
    assert!(ok.is_ok());
}

#[test]
fn a_bad_api_url_is_an_error_not_a_panic() {
    let rt = runtime().unwrap();
    let r = rt.block_on(async { Http::new("not a url", None, Duration::from_secs(1)).map(|_| ()) });
    assert!(r.is_err());
}
