//! The redaction corpus: generated true positives for every kind (built from parts at run time,
//! so no secret scanner flags this file), and near-misses that must not match.

use super::*;

/// A small deterministic generator (xorshift64*), so the corpus is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn pick(&mut self, alphabet: &str, n: usize) -> String {
        let a = alphabet.as_bytes();
        (0..n)
            .map(|_| a[(self.next() % a.len() as u64) as usize] as char)
            .collect()
    }
    /// `n` characters of `alphabet` with at least one upper-case letter, lower-case letter and
    /// digit where the alphabet has them.
    fn mixed(&mut self, alphabet: &str, n: usize) -> String {
        loop {
            let s = self.pick(alphabet, n);
            let ok =
                |f: fn(&u8) -> bool| !alphabet.bytes().any(|b| f(&b)) || s.bytes().any(|b| f(&b));
            if ok(u8::is_ascii_uppercase) && ok(u8::is_ascii_lowercase) && ok(u8::is_ascii_digit) {
                return s;
            }
        }
    }
}

const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
const DIGITS: &str = "0123456789";
const HEX: &str = "0123456789abcdef";

fn alnum() -> String {
    format!("{UPPER}{LOWER}{DIGITS}")
}
fn url64() -> String {
    format!("{UPPER}{LOWER}{DIGITS}-_")
}
fn b64() -> String {
    format!("{UPPER}{LOWER}{DIGITS}+/")
}

fn b64_encode(data: &[u8], url: bool) -> String {
    let table: Vec<u8> = if url { url64() } else { b64() }.into_bytes();
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let n = chunk.len();
        let v = (chunk[0] as u32) << 16
            | (*chunk.get(1).unwrap_or(&0) as u32) << 8
            | *chunk.get(2).unwrap_or(&0) as u32;
        for k in 0..=n {
            out.push(table[((v >> (18 - 6 * k)) & 63) as usize] as char);
        }
        if !url {
            for _ in n..3 {
                out.push('=');
            }
        }
    }
    out
}

/// A true positive: the text, the secret inside it (the span the match must cover) and its kind.
struct Positive {
    kind: &'static str,
    text: String,
    secret: String,
}

fn pos(kind: &'static str, before: &str, secret: String, after: &str) -> Positive {
    Positive {
        kind,
        text: format!("{before}{secret}{after}"),
        secret,
    }
}

fn pem_body(r: &mut Rng, lines: usize, nl: &str) -> String {
    (0..lines)
        .map(|_| r.pick(&b64(), 64))
        .collect::<Vec<_>>()
        .join(nl)
}

fn jwt(r: &mut Rng, header: &str) -> String {
    let payload = format!(
        r#"{{"sub":"{}","name":"Ada","iat":{}}}"#,
        r.pick(DIGITS, 10),
        1_700_000_000 + r.next() % 1000
    );
    format!(
        "{}.{}.{}",
        b64_encode(header.as_bytes(), true),
        b64_encode(payload.as_bytes(), true),
        r.mixed(&url64(), 43)
    )
}

fn positives() -> Vec<Positive> {
    let r = &mut Rng(0x9E37_79B9_7F4A_7C15);
    let base32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut v = Vec::new();

    // private-key
    let begin = |label: &str| format!("-----{} {label}-----", "BEGIN");
    let end = |label: &str| format!("-----{} {label}-----", "END");
    for label in [
        "RSA PRIVATE KEY",
        "PRIVATE KEY",
        "EC PRIVATE KEY",
        "OPENSSH PRIVATE KEY",
    ] {
        let key = format!("{}\n{}\n{}", begin(label), pem_body(r, 6, "\n"), end(label));
        v.push(pos("private-key", "Key file:\n", key, "\nend of file\n"));
    }
    let key = format!(
        "{}\\n{}\\n{}",
        begin("OPENSSH PRIVATE KEY"),
        pem_body(r, 4, "\\n"),
        end("OPENSSH PRIVATE KEY")
    );
    v.push(pos(
        "private-key",
        r#"{"type": "user", "message": {"content": "here: "#,
        key,
        r#"\n"}}"#,
    ));
    let key = format!(
        "{}\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,{}\n\n{}\n{}",
        begin("RSA PRIVATE KEY"),
        r.pick(HEX, 32).to_uppercase(),
        pem_body(r, 5, "\n"),
        end("RSA PRIVATE KEY")
    );
    v.push(pos("private-key", "", key, "\n"));
    let key = format!(
        "{}\nVersion: GnuPG v2\n\n{}\n{}",
        begin("PGP PRIVATE KEY BLOCK"),
        pem_body(r, 5, "\n"),
        end("PGP PRIVATE KEY BLOCK")
    );
    v.push(pos("private-key", "", key, ""));
    // a key cut before its END line still has its body redacted
    let key = format!("{}\n{}", begin("PRIVATE KEY"), pem_body(r, 3, "\n"));
    v.push(pos(
        "private-key",
        "",
        key,
        "\n\nand then the note went on.",
    ));

    // aws-access-token
    for prefix in ["AKIA", "ASIA", "ABIA", "ACCA", "AKIA", "AKIA"] {
        let key = format!("{prefix}{}", r.pick(base32, 16));
        v.push(pos("aws-access-token", "aws_access_key_id = ", key, "\n"));
    }
    let key = format!("AKIA{}", r.pick(base32, 16));
    v.push(pos(
        "aws-access-token",
        r#"{"content": "my key is\n"#,
        key,
        r#"\nthanks"}"#,
    ));

    // github
    for (prefix, kind) in [
        ("ghp_", "github-pat"),
        ("gho_", "github-oauth"),
        ("ghu_", "github-app-token"),
        ("ghs_", "github-app-token"),
        ("ghr_", "github-refresh-token"),
        ("ghp_", "github-pat"),
    ] {
        let key = format!("{prefix}{}", r.mixed(&alnum(), 36));
        v.push(pos(
            kind,
            "git clone https://x-access-token@github.com; export T=",
            key,
            "; done",
        ));
        let key = format!("{prefix}{}", r.mixed(&alnum(), 36));
        v.push(pos(kind, "", key, ""));
    }
    for _ in 0..3 {
        let key = format!(
            "github_pat_{}_{}",
            r.mixed(&alnum(), 22),
            r.mixed(&alnum(), 59)
        );
        v.push(pos("github-fine-grained-pat", "token: ", key, "\n"));
    }

    // slack
    for _ in 0..2 {
        let t = format!(
            "xoxb-{}-{}-{}",
            r.pick(DIGITS, 12),
            r.pick(DIGITS, 13),
            r.mixed(&alnum(), 24)
        );
        v.push(pos("slack-bot-token", "SLACK=", t, "\n"));
        let t = format!(
            "xoxp-{}-{}-{}-{}",
            r.pick(DIGITS, 12),
            r.pick(DIGITS, 12),
            r.pick(DIGITS, 13),
            r.pick(HEX, 32)
        );
        v.push(pos("slack-user-token", "slack: ", t, " (user)"));
        let t = format!(
            "xapp-1-A{}-{}-{}",
            r.pick(&format!("{UPPER}{DIGITS}"), 10),
            r.pick(DIGITS, 13),
            r.pick(HEX, 64)
        );
        v.push(pos("slack-app-token", "", t, ""));
        let t = format!("xoxe.xoxp-1-{}", r.mixed(&format!("{UPPER}{DIGITS}"), 164));
        v.push(pos("slack-config-access-token", "cfg ", t, "\n"));
        let t = format!("xoxe-1-{}", r.mixed(&format!("{UPPER}{DIGITS}"), 146));
        v.push(pos("slack-config-refresh-token", "cfg ", t, "\n"));
        let t = format!("xoxb-{}-{}", r.pick(DIGITS, 9), r.mixed(&alnum(), 24));
        v.push(pos("slack-legacy-bot-token", "bot ", t, "\n"));
        let t = format!("xoxa-2-{}", r.mixed(&alnum(), 40));
        v.push(pos("slack-legacy-workspace-token", "ws ", t, "\n"));
        let t = format!(
            "xoxs-{}-{}-{}-{}",
            r.pick(DIGITS, 10),
            r.pick(DIGITS, 11),
            r.pick(DIGITS, 12),
            r.pick(HEX, 64)
        );
        v.push(pos("slack-legacy-token", "old ", t, "\n"));
        let t = format!(
            "hooks.slack.com/services/T{}/B{}/{}",
            r.pick(&format!("{UPPER}{DIGITS}"), 8),
            r.pick(&format!("{UPPER}{DIGITS}"), 10),
            r.mixed(&alnum(), 24)
        );
        v.push(pos(
            "slack-webhook-url",
            "post to https://",
            t,
            " on failure",
        ));
    }

    // stripe
    for prefix in ["sk_live_", "sk_test_", "rk_live_", "rk_test_"] {
        let key = format!("{prefix}{}", r.mixed(&alnum(), 24));
        v.push(pos("stripe-access-token", "stripe.api_key = '", key, "'"));
    }
    let key = format!("sk_live_{}", r.mixed(&alnum(), 99));
    v.push(pos("stripe-access-token", "", key, ""));

    // gcp
    for _ in 0..4 {
        let key = format!("AIza{}", r.mixed(&url64(), 35));
        v.push(pos(
            "gcp-api-key",
            "https://maps.googleapis.com/maps/api/js?key=",
            key,
            "&callback=init",
        ));
    }

    // anthropic
    for _ in 0..3 {
        let key = format!("sk-ant-api03-{}AA", r.mixed(&url64(), 93));
        v.push(pos("anthropic-api-key", "ANTHROPIC_API_KEY=", key, "\n"));
    }
    let key = format!("sk-ant-admin01-{}AA", r.mixed(&url64(), 93));
    v.push(pos("anthropic-admin-api-key", "admin: ", key, "\n"));

    // openai
    let marker = "T3Blbk".to_string() + "FJ";
    for _ in 0..2 {
        let key = format!(
            "sk-{}{marker}{}",
            r.mixed(&alnum(), 20),
            r.mixed(&alnum(), 20)
        );
        v.push(pos("openai-api-key", "openai.api_key = \"", key, "\""));
        let key = format!(
            "sk-proj-{}{marker}{}",
            r.mixed(&url64(), 74),
            r.mixed(&url64(), 74)
        );
        v.push(pos("openai-api-key", "OPENAI_API_KEY=", key, "\n"));
        let key = format!("sk-{}", r.mixed(&alnum(), 48));
        v.push(pos("openai-api-key", "use ", key, " for now"));
        let key = format!("sk-svcacct-{}", r.mixed(&url64(), 120));
        v.push(pos("openai-api-key", "", key, ""));
    }

    // jwt
    for header in [
        r#"{"alg":"HS256","typ":"JWT"}"#,
        r#"{"alg":"RS256","kid":"k1","typ":"JWT"}"#,
        r#"{"typ":"JWT","alg":"ES384"}"#,
    ] {
        let t = jwt(r, header);
        v.push(pos("jwt", "session=", t, "; Path=/"));
    }
    let t = jwt(r, r#"{"alg":"HS512"}"#);
    v.push(pos("jwt", "the token was ", t, ". It expired."));

    // url-credentials
    for (scheme, user, host) in [
        ("postgres", "app", "db.internal:5432/app"),
        ("https", "deploy", "git.example.org/team/repo.git"),
        ("redis", "", "cache.local:6379/0"),
        ("mongodb+srv", "svc", "cluster0.abcde.mongodb.net/"),
        ("amqp", "worker", "mq:5672"),
    ] {
        let pw = r.mixed(&alnum(), 18);
        v.push(pos(
            "url-credentials",
            &format!("DATABASE_URL={scheme}://{user}:"),
            pw,
            &format!("@{host}\n"),
        ));
    }
    let pw = format!("hunter{}", r.pick(DIGITS, 3));
    v.push(pos(
        "url-credentials",
        "clone https://ada:",
        pw,
        "@example.com/repo",
    ));

    // authorization-header
    for _ in 0..3 {
        let t = r.mixed(&format!("{}._-", alnum()), 40);
        v.push(pos(
            "authorization-header",
            "curl -H \"Authorization: Bearer ",
            t,
            "\" https://api.example.com",
        ));
        let creds = format!("deploy:{}", r.mixed(&alnum(), 16));
        v.push(pos(
            "authorization-header",
            "Authorization: Basic ",
            b64_encode(creds.as_bytes(), false),
            "\r\n",
        ));
    }
    let t = r.mixed(&alnum(), 32);
    v.push(pos(
        "authorization-header",
        r#"{"headers": {"authorization": "bearer "#,
        t,
        r#""}}"#,
    ));

    // generic-api-key
    for (before, after) in [
        ("api_key = \"", "\"\n"),
        ("\"client_secret\": \"", "\",\n"),
        ("DB_PASSWORD=", "\n"),
        ("secret_key_base: ", "\n"),
        ("  apiKey: '", "'\n"),
        ("X-Api-Key: ", "\r\n"),
        ("const accessToken = `", "`;\n"),
        (
            r#"{"content": "set \"api_key\": \""#,
            r#"\" in the config"}"#,
        ),
        ("aws_secret_access_key = ", ""),
        ("spring.datasource.password=", "\n"),
        ("auth_token := \"", "\"\n"),
        ("--password ", ""),
    ] {
        let s = r.mixed(&format!("{}+/", alnum()), 40);
        if before == "--password " {
            // a flag is not an assignment: covered by the near-misses instead
            continue;
        }
        v.push(pos("generic-api-key", before, s, after));
    }
    let s = r.mixed(&alnum(), 16);
    v.push(pos("generic-api-key", "token=", s, ""));
    v
}

#[test]
fn every_kind_catches_its_positives() {
    let corpus = positives();
    let mut seen = std::collections::BTreeSet::new();
    for p in &corpus {
        let r = redact(&p.text);
        let at = p.text.find(&p.secret).expect("the secret is in its text");
        assert_eq!(
            r.matches,
            vec![Match {
                kind: p.kind,
                span: Span::new(at, at + p.secret.len())
            }],
            "{} in {:?}",
            p.kind,
            p.text
        );
        let want = p
            .text
            .replacen(&p.secret, &format!("[REDACTED:{}]", p.kind), 1);
        assert_eq!(r.text, want);
        assert_eq!(first_match(&p.text), r.matches.first().copied());
        seen.insert(p.kind);
    }
    for k in KINDS {
        assert!(seen.contains(k), "no positive for {k}");
    }
    assert_eq!(
        seen.len(),
        KINDS.len(),
        "a positive has a kind KINDS does not list"
    );
}

#[test]
fn several_secrets_are_all_replaced_in_order() {
    let corpus = positives();
    let text = corpus
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join("\n---\n");
    let r = redact(&text);
    assert_eq!(r.matches.len(), corpus.len());
    assert!(
        r.matches
            .windows(2)
            .all(|w| w[0].span.end <= w[1].span.start)
    );
    for (m, p) in r.matches.iter().zip(&corpus) {
        assert_eq!(m.kind, p.kind);
        assert_eq!(&text[m.span.start..m.span.end], p.secret);
    }
    assert_eq!(first_match(&text), r.matches.first().copied());
    for p in &corpus {
        assert!(!r.text.contains(&p.secret), "{} survived redaction", p.kind);
    }
}

#[test]
fn a_specific_kind_wins_over_a_generic_one() {
    let r = &mut Rng(7);
    let key = format!("ghp_{}", r.mixed(&alnum(), 36));
    let text = format!("GITHUB_TOKEN=\"{key}\"");
    assert_eq!(redact(&text).text, "GITHUB_TOKEN=\"[REDACTED:github-pat]\"");
    let t = jwt(r, r#"{"alg":"HS256","typ":"JWT"}"#);
    let text = format!("Authorization: Bearer {t}");
    assert_eq!(redact(&text).text, "Authorization: Bearer [REDACTED:jwt]");
}

#[test]
fn anchors_sit_at_word_boundaries() {
    let r = &mut Rng(11);
    let tail = r.mixed(&alnum(), 48);
    // control: the same tail after a space is a key
    assert_eq!(
        first_match(&format!("use sk-{tail}")).map(|m| m.kind),
        Some("openai-api-key")
    );
    for inside in [
        format!("task-brief task-{tail}"),
        format!("ask-{tail}"),
        format!("xghp_{}", r.mixed(&alnum(), 36)),
        format!("MAKIA{}", r.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)),
        format!("ghp_{}X", r.mixed(&alnum(), 36)),
        format!("AIza{}_more", r.mixed(&url64(), 35)),
    ] {
        assert_eq!(redact(&inside).matches, vec![], "{inside}");
    }
}

/// Text that looks a little like a secret and is not one.
fn near_misses() -> Vec<String> {
    let r = &mut Rng(0xDEAD_BEEF);
    let mut v: Vec<String> = Vec::new();
    for _ in 0..20 {
        v.push(format!("commit {}", r.pick(HEX, 40)));
        v.push(format!("sha256:{}", r.pick(HEX, 64)));
        v.push(format!("id = \"{}\"", r.pick(HEX, 40)));
        let u = r.pick(HEX, 32);
        v.push(format!(
            "sessionId: {}-{}-4{}-a{}-{}",
            &u[..8],
            &u[8..12],
            &u[13..16],
            &u[17..20],
            &u[20..]
        ));
    }
    for prose in [
        "The quick brown fox jumps over the lazy dog while the cache stores its decision.",
        "Decision: use a local SQLite file for the cache, because it needs no server.",
        "Reviewer: confirm only when the evidence names the session and the ordinal.",
    ] {
        v.push(b64_encode(prose.as_bytes(), false));
        v.push(b64_encode(prose.as_bytes(), true));
        v.push(format!(
            "data: {}",
            b64_encode(prose.repeat(3).as_bytes(), false)
        ));
    }
    v.extend(
        [
            "version 1.2.3",
            "v2.10.0-beta.1+build.20240101",
            "hippo-packs 0.1.0 (rustc 1.95.0 59807616e 2026-04-14)",
            "Fill in the password field and press Enter.",
            "Enter your password: ",
            "The token budget is 200000 bytes per prompt.",
            "max_tokens = 4096",
            "tokens: 128000",
            "token_budget = 200000000000000000",
            "input_budget_bytes = 200000",
            "ask-me-anything",
            "task-brief",
            "risk-averse desk-side whisk-like",
            "The API key lives in the keychain; never paste it here.",
            "Bearer tokens are sent in the Authorization header.",
            "Authorization: Bearer <token>",
            "Authorization: Bearer $TOKEN",
            "Authorization: Bearer ${API_TOKEN}",
            "Authorization: Bearer YOUR_ACCESS_TOKEN_HERE",
            "Basic authentication is disabled.",
            "Authorization: Basic dXNlcjpwYXNzd29yZA==",
            "A secret-free design keeps the key out of the repository.",
            "api_key = YOUR_API_KEY",
            "api_key = \"YOUR_API_KEY_GOES_HERE_12345\"",
            "token: <token>",
            "export GITHUB_TOKEN=${GITHUB_TOKEN}",
            "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
            "password: {{ vault_db_password_2024 }}",
            "$GITHUB_TOKEN",
            "API_KEY=",
            "OPENAI_API_KEY=sk-...",
            "api_key = os.environ[\"OPENAI_API_KEY_2\"]",
            "const token = process.env.SLACK_BOT_TOKEN_V2;",
            "secret = base64.b64decode(blob)",
            "AKIAIOSFODNN7EXAMPLE",
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "password = changeme",
            "password = \"xxxxxxxxxxxxxxxxxxxx\"",
            "secret_key = \"0123456789abcdef0123456789abcdef\"",
            "postgres://user:password@localhost:5432/db",
            "https://user:${PASSWORD}@host.example.com/",
            "mysql://root:<password>@db/app",
            "https://github.com/owner/repo",
            "ssh://git@github.com:22/owner/repo.git",
            "git@github.com:owner/repo.git",
            "https://user@host.example.com/path",
            "http://localhost:8080/path?x=1",
            "https://example.com/search?q=token&key=value",
            "http://example.com:8080@",
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "ghp_ is the prefix of a GitHub classic token",
            "xoxb-your-bot-token",
            "xoxb-1234567890-1234567890-abcdefghijklmnopqrstuvwx",
            "sk_test_environment_variable",
            "sk_live_...",
            "AIza is the prefix of a Google API key",
            "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
            "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE8AkAFmxZzow3x+VJYKdjykkJ0iT9wCS0DRTXu269V264Vf/3jvredZiKRkgwlL9xNAwxXFg0x/XFw005UWVRIkdgcKWTjpBP2dPwVZ4WWC+9aGVd+Gyn1o0CLelf4rEjGoXbAAEgAqeGUxrcIlbjXfbcmwIDAQAB\n-----END PUBLIC KEY-----",
            "eyJustkidding.eyJustkidding.signature1234567890",
            "see eyJhbGciOiJIUzI1NiJ9 for the header",
            "cache_key = \"user-profile-v2\"",
            "primary_key = \"a1b2c3d4e5f6a7b8c9d0e1f2\"",
            "key = \"decision-log\"",
            "\"timestamp\": \"2026-11-01T10:00:00.000Z\"",
            "The tokenizer is cl100k_base and the secretary keeps minutes.",
            "password_field_name = \"login_password_input_2\"",
            "A passphrase is a long password made of words.",
            "generate_private_key: x25519_generate_private_key,",
            "Proxy::all(\"http://letme:in@yo.local\")",
            "redis://foo:bar@somehost:6379/",
            "Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
        ]
        .map(String::from),
    );
    v
}

#[test]
fn no_near_miss_is_flagged() {
    for text in near_misses() {
        let r = redact(&text);
        assert_eq!(r.matches, vec![], "{text:?} was flagged");
        assert!(matches!(r.text, Cow::Borrowed(_)));
        assert_eq!(first_match(&text), None);
    }
}

/// The page's example packs (copied into tests/) and this rule's good fixtures hold no secret.
#[test]
fn the_example_packs_hold_no_secret() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = 0;
    for dir in [
        "tests/packs/decision-log",
        "tests/packs/broken",
        "tests/fixtures/redaction/good/pack",
        "tests/fixtures/redaction/good-placeholders/pack",
    ] {
        for e in walkdir::WalkDir::new(format!("{root}/{dir}")) {
            let e = e.expect("readable example pack");
            if e.file_type().is_file() {
                let bytes = std::fs::read(e.path()).expect("readable example file");
                assert_eq!(matches_bytes(&bytes), vec![], "{}", e.path().display());
                files += 1;
            }
        }
    }
    assert!(
        files >= 30,
        "the example packs went missing ({files} files)"
    );
    // control: the bad fixture's transcript is caught
    let bad = std::fs::read(format!(
        "{root}/tests/fixtures/redaction/bad/pack/tests/cache-store/transcripts/decision-1.jsonl"
    ))
    .expect("the bad fixture");
    assert_eq!(
        first_match_bytes(&bad).map(|m| m.kind),
        Some("aws-access-token")
    );
}

#[test]
fn hostile_input_is_cheap_and_never_panics() {
    // Many anchors back to back, a huge base64 run and invalid UTF-8 around anchors.
    let mut text = String::new();
    for _ in 0..5000 {
        text.push_str("eyJ.eyJ.key=token:secret://@Bearer basic -----BEGIN sk-ant-xoxb-");
    }
    text.push_str(&"A".repeat(70_000));
    let r = redact(&text);
    assert_eq!(r.matches, vec![]);
    let bytes = [b"\xff\xfeghp_".as_slice(), &[0xC3; 40], b"AKIA\xff"].concat();
    assert_eq!(matches_bytes(&bytes), vec![]);
    // control: a real-shaped key amid invalid bytes is still found
    let r2 = &mut Rng(3);
    let key = format!("ghp_{}", r2.mixed(&alnum(), 36));
    let bytes = [b"\xff ".as_slice(), key.as_bytes(), b" \xfe"].concat();
    assert_eq!(matches_bytes(&bytes).len(), 1);
}

#[test]
fn secrets_inside_json_transcripts_are_found_and_the_line_stays_json() {
    for p in positives() {
        let line = format!(
            r#"{{"type": "user", "message": {{"role": "user", "content": {}}}}}"#,
            serde_json::to_string(&p.text).expect("a string serializes")
        );
        let r = redact(&line);
        assert_eq!(
            r.matches.iter().map(|m| m.kind).collect::<Vec<_>>(),
            vec![p.kind],
            "{line}"
        );
        let v: serde_json::Value = serde_json::from_str(&r.text).expect("still JSON");
        let content = v["message"]["content"].as_str().expect("content");
        assert!(
            content.contains(&format!("[REDACTED:{}]", p.kind)),
            "{content}"
        );
    }
    // control: the unredacted line holds the secret
    let p = &positives()[0];
    assert!(
        serde_json::to_string(&p.text)
            .unwrap()
            .contains("PRIVATE KEY")
    );
}
