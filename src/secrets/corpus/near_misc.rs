//! Near-misses that belong to no family: hashes, identifiers, base64 prose, versions, and the
//! sentences documentation writes about keys and tokens.

use super::*;

/// Text that looks a little like a secret and is not one.
pub(crate) fn near_misses() -> Vec<Case> {
    let r = &mut Rng(0xDEAD_BEEF);
    let mut v: Vec<String> = Vec::new();
    texts(r, &mut v);
    v.into_iter().map(|t| near("other text", t)).collect()
}

/// The texts, in the order the corpus lists them.
fn texts(r: &mut Rng, v: &mut Vec<String>) {
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
    texts_2(v);
}

fn texts_2(v: &mut Vec<String>) {
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
}
