//! Secrets found by their context rather than a prefix of their own: webhook URLs, connection
//! string keys, Telegram bot tokens, JWTs, Authorization headers and credentials in URLs.

use super::keys::escaped;
use super::shape::*;
use regex::bytes::Regex;
use std::sync::LazyLock;

type Found = Option<(&'static str, usize, usize)>;

/// `hooks.slack.com/services/...` (the span leaves out the scheme).
pub(crate) fn slack_webhook(hay: &[u8], i: usize, _anchor: &str) -> Found {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,90}")
            .expect("valid webhook pattern")
    });
    let window = &hay[i..hay.len().min(i + 160)];
    let m = RE.find(window)?;
    let end = i + m.end();
    let path = &hay[i + 16..end];
    if !boundary_after(hay, end, |b| {
        b.is_ascii_alphanumeric() || b == b'+' || b == b'/'
    }) || is_placeholder(path)
    {
        return None;
    }
    Some(("slack-webhook-url", i, end))
}

/// `discord.com/api/webhooks/<id>/<token>`: the id and token are the match.
pub(crate) fn discord_webhook(hay: &[u8], i: usize, anchor: &str) -> Found {
    let before = &hay[i.saturating_sub(20)..i];
    if !(before.ends_with(b"discord.com") || before.ends_with(b"discordapp.com")) {
        return None;
    }
    let start = i + anchor.len();
    let id_end = run_end(hay, start, 20, |b| b.is_ascii_digit());
    if !(17..=20).contains(&(id_end - start)) || hay.get(id_end) != Some(&b'/') {
        return None;
    }
    let end = run_end(hay, id_end + 1, 100, url64);
    let token = &hay[id_end + 1..end];
    if !(60..=100).contains(&token.len()) || entropy(token) < 4.0 || is_placeholder(token) {
        return None;
    }
    Some(("discord-webhook-url", start, end))
}

/// `<bot id>:AA<33>`: 5 to 16 digits, `:AA`, 33 base64url characters.
pub(crate) fn telegram(hay: &[u8], i: usize, _anchor: &str) -> Found {
    let lo = i.saturating_sub(16);
    let mut s = i;
    while s > lo && hay[s - 1].is_ascii_digit() {
        s -= 1;
    }
    if i - s < 5 || !(boundary_before(hay, s) || hay[..s].ends_with(b"/bot")) {
        return None;
    }
    let body = i + 3;
    let end = run_end(hay, body, 33, url64);
    if end - body != 33 || !boundary_after(hay, end, url64) {
        return None;
    }
    let b = &hay[body..end];
    if entropy(b) < 3.5 || is_placeholder(b) {
        return None;
    }
    Some(("telegram-bot-api-token", s, end))
}

/// Three to five base64url parts joined by dots, the first decoding to a JSON object with an
/// `alg` (a JWS or JWE header; a header cut or garbled after `{"alg"` still counts, as a token
/// pasted with a typo is still one), the rest at least 16 characters in all.
pub(crate) fn jwt(hay: &[u8], i: usize, _anchor: &str) -> Found {
    if !boundary_before(hay, i) {
        return None;
    }
    let header_end = run_end(hay, i, 2048, url64);
    if header_end - i > 2048 || hay.get(header_end) != Some(&b'.') {
        return None;
    }
    let mut end = header_end;
    let mut parts = 1;
    let mut rest = 0;
    while parts < 5 && hay.get(end) == Some(&b'.') {
        let next = run_end(hay, end + 1, 16_384, url64);
        if next - (end + 1) > 16_384 {
            return None;
        }
        if next == end + 1 && parts >= 3 {
            // A dot after a whole token ends a sentence.
            break;
        }
        rest += next - (end + 1);
        end = next;
        parts += 1;
    }
    if parts < 3 || rest < 16 || !boundary_after(hay, end, url64) {
        return None;
    }
    let cut = (header_end - i) / 4 * 4;
    let header = base64_decode(&hay[i..i + cut])?;
    let alg = match serde_json::from_slice::<serde_json::Value>(&header) {
        Ok(value) => value.get("alg").is_some_and(|a| a.is_string()),
        Err(_) => header.starts_with(b"{\"") && contains(&header, b"\"alg\""),
    };
    if !alg {
        return None;
    }
    Some(("jwt", i, end))
}

fn after_spaces(hay: &[u8], i: usize) -> Option<usize> {
    let j = run_end(hay, i, 16, |b| b == b' ' || b == b'\t');
    (j > i && j - i <= 16).then_some(j)
}

/// A credential after an Authorization scheme: 16 to 4096 token characters with letters and
/// digits, 3 bits of entropy, not a placeholder.
fn credential(hay: &[u8], start: usize) -> Option<usize> {
    let class = |b: u8| b.is_ascii_alphanumeric() || b"._~+/-=".contains(&b);
    let end = run_end(hay, start, 4096, class);
    let t = &hay[start..end];
    let ok = (16..=4096).contains(&t.len())
        && has_digit(t)
        && has_alpha(t)
        && entropy(t) >= 3.0
        && !is_placeholder(t);
    ok.then_some(end)
}

/// `Authorization` (also `Proxy-Authorization`, in a header, JSON or code), `:` or `=`, then a
/// scheme and its credential: `Bearer <token>`, `Basic <base64 of user:password>`, `Token`,
/// `Bot`, `Api-Token`, `ApiKey`, `SSWS`, `Key`. The anchor is `uthorization`, so that one
/// spelling finds both `Authorization` and `authorization`.
pub(crate) fn authorization(hay: &[u8], i: usize, anchor: &str) -> Found {
    if i == 0 || !matches!(hay[i - 1], b'a' | b'A') || !boundary_before(hay, i - 1) {
        return None;
    }
    let skip = |j: usize| {
        let j = run_end(hay, j, 8, |b| b == b' ' || b == b'\t');
        let q = match hay.get(j) {
            Some(b'"' | b'\'') => 1,
            _ => escaped(hay, j, b"\""),
        };
        run_end(hay, j + q, 8, |b| b == b' ' || b == b'\t')
    };
    let mut j = skip(i + anchor.len());
    if !matches!(hay.get(j), Some(b':' | b'=')) {
        return None;
    }
    j = skip(j + 1);
    let word_end = run_end(hay, j, 16, |b| b.is_ascii_alphabetic() || b == b'-');
    let word = hay[j..word_end].to_ascii_lowercase();
    const SCHEMES: &[&[u8]] = &[
        b"bearer",
        b"token",
        b"bot",
        b"api-token",
        b"apikey",
        b"api-key",
        b"ssws",
        b"key",
    ];
    if word == b"basic" {
        return basic(hay, after_spaces(hay, word_end)?);
    }
    if SCHEMES.contains(&word.as_slice()) {
        let start = after_spaces(hay, word_end)?;
        return Some(("authorization-header", start, credential(hay, start)?));
    }
    // No scheme: the whole value is the credential (`Authorization: <uuid>`, `sha256~...`).
    let class = |b: u8| b.is_ascii_alphanumeric() || b"._~+/-=@".contains(&b);
    let end = run_end(hay, j, 4096, class);
    let t = &hay[j..end];
    let ok = (16..=4096).contains(&t.len())
        && has_digit(t)
        && has_alpha(t)
        && entropy(t) >= 3.0
        && !is_placeholder(t)
        && boundary_after(hay, end, |b| b == b'(' || b == b'[');
    ok.then_some(("authorization-header", j, end))
}

/// `Basic <base64 of user:password>` whose password is not a placeholder, or whose user is the
/// credential (`<api key>:`, as Stripe and Mailgun take it). The decoded bytes need not be
/// UTF-8 (a pasted credential may be garbled; it is still one).
fn basic(hay: &[u8], start: usize) -> Found {
    let class = |b: u8| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=';
    let end = run_end(hay, start, 2048, class);
    let t = &hay[start..end];
    if !(8..=2048).contains(&t.len()) {
        return None;
    }
    let decoded = base64_decode(t)?;
    let colon = decoded.iter().position(|&b| b == b':')?;
    let (user, password) = (&decoded[..colon], &decoded[colon + 1..]);
    let shown = |s: &[u8]| s.iter().all(|&b| b >= 0x20 && b != 0x7f);
    if user.is_empty() || !shown(user) || !decoded.iter().all(|&b| b >= 0x20 || b >= 0x80) {
        return None;
    }
    let ok = if password.is_empty() {
        user.len() >= 6 && !is_password_placeholder(user)
    } else {
        !is_password_placeholder(password)
    };
    ok.then_some(("authorization-header", start, end))
}

/// Passwords that documentation writes in place of one.
pub(crate) fn is_password_placeholder(p: &[u8]) -> bool {
    const WORDS: &[&str] = &[
        "pass",
        "password",
        "passwd",
        "pwd",
        "pw",
        "secret",
        "mypassword",
        "mysecret",
        "pass123",
        "password123",
        "token",
        "apikey",
        "api_key",
        "hunter2",
        "p@ssw0rd",
        "p@ssword",
        "admin",
        "root",
        "test",
        "guest",
        "foo",
        "bar",
        "baz",
        "qux",
        "foobar",
        "opensesame",
        "open sesame",
        "letmein",
        "secret1",
        "secret123",
        "s3cret",
        "abc123",
        "user",
        "username",
        "pass1234",
        "example",
        "sample",
        "dummy",
        "changeit",
    ];
    p.len() < 4 || is_placeholder(p) || WORDS.iter().any(|w| p.eq_ignore_ascii_case(w.as_bytes()))
}

/// `scheme://user:password@host`: the password is the match.
pub(crate) fn url_credentials(hay: &[u8], i: usize, _anchor: &str) -> Found {
    let scheme_class = |b: u8| b.is_ascii_alphanumeric() || b == b'+' || b == b'.' || b == b'-';
    let lo = i.saturating_sub(32);
    let mut s = i;
    while s > lo && scheme_class(hay[s - 1]) {
        s -= 1;
    }
    if s == i || !hay[s].is_ascii_alphabetic() {
        return None;
    }
    let stop = |b: u8| {
        b.is_ascii_whitespace() || b"/?#\"'<>\\`@[]{}|".contains(&b) || b.is_ascii_control()
    };
    let user_start = i + 3;
    let mut j = user_start;
    let limit = hay.len().min(user_start + 256);
    while j < limit && hay[j] != b':' && !stop(hay[j]) {
        j += 1;
    }
    if hay.get(j) != Some(&b':') {
        return None;
    }
    let pass_start = j + 1;
    let mut k = pass_start;
    let limit = hay.len().min(pass_start + 256);
    while k < limit && !stop(hay[k]) {
        k += 1;
    }
    if hay.get(k) != Some(&b'@') || k == pass_start {
        return None;
    }
    if !hay
        .get(k + 1)
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'[')
    {
        return None;
    }
    let password = &hay[pass_start..k];
    // `host:port@` is not a password; nor is a placeholder.
    if password.iter().all(u8::is_ascii_digit)
        && j - user_start > 0
        && hay[user_start..j].contains(&b'.')
        || is_password_placeholder(password)
    {
        return None;
    }
    Some(("url-credentials", pass_start, k))
}

/// A Cohere key, which has no prefix of its own: gitleaks' `cohere-api-token` shape with its
/// keyword context. `cohere` in any case (the anchor is its `ohere`, so one anchor finds
/// `cohere` and `Cohere`), up to 20 name characters, an assignment (`=`, `:`, `:=`, `=>`, `?=`,
/// `||`, `>`, `,`, quotes and spaces around it), then 40 letters and digits ending at a quote, a
/// space, `;`, an escaped line break or the end (a quote escaped as a JSON transcript escapes
/// it counts as the quote), with more than 4 bits of entropy per character (a hex digest never
/// has them) and not a placeholder. gitleaks' other keyword, `CO_API_KEY`, is a secret name:
/// the secret-named assignments find it, with this kind.
pub(crate) fn cohere(hay: &[u8], i: usize, _anchor: &str) -> Found {
    let i = i.checked_sub(1)?;
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?-u)^(?i:cohere)[ \t\w.-]{0,20}(?:[\s'"]|\\{1,8}["']){0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)(?:[`'"\s=]|\\{1,8}["']){0,5}([A-Za-z0-9]{40})"#,
        )
        .expect("valid Cohere pattern")
    });
    let window = &hay[i..hay.len().min(i + 120)];
    let key = RE.captures(window)?.get(1)?;
    let (start, end) = (i + key.start(), i + key.end());
    let ends = match hay.get(end) {
        None => true,
        Some(&b) => b"`'\" \t\r\n;".contains(&b) || escaped(hay, end, b"nr\"'") > 0,
    };
    let v = &hay[start..end];
    (ends && entropy(v) > 4.0 && !is_placeholder(v)).then_some(("cohere-api-token", start, end))
}
