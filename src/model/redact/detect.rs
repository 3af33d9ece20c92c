//! The detectors and the one-pass scan that dispatches to them.
//!
//! An Aho-Corasick automaton finds every anchor (in its usual spellings) in one pass; each
//! anchor names the detector that looks at the bytes around it. A detector checks the exact
//! case itself where the shape needs it, looks at a bounded window, and returns a span that
//! starts at or after its anchor (which lets [`scan`] stop early for the first match).

use super::Match;
use super::shape::*;
use crate::core::Span;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::bytes::Regex;
use std::sync::LazyLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Det {
    PrivateKey,
    Aws,
    GitHub,
    GitHubFine,
    Slack,
    SlackWebhook,
    Stripe,
    Gcp,
    SkDash,
    Jwt,
    Bearer,
    Basic,
    Url,
    Generic,
}

impl Det {
    /// Which detector wins when two matches start at the same byte: the more specific one.
    fn priority(self) -> u8 {
        match self {
            Det::PrivateKey => 0,
            Det::Aws => 1,
            Det::GitHub | Det::GitHubFine => 2,
            Det::Slack | Det::SlackWebhook => 3,
            Det::Stripe => 4,
            Det::Gcp => 5,
            Det::SkDash => 6,
            Det::Jwt => 7,
            Det::Bearer | Det::Basic => 8,
            Det::Url => 9,
            Det::Generic => 10,
        }
    }
}

/// The anchors. Those of [`Det::Bearer`], [`Det::Basic`] and [`Det::Generic`] are written in
/// lower case and also searched Capitalized and in UPPER case (`bearer`, `Bearer`, `BEARER`;
/// `apiKey`, `API_KEY`); the others are searched as written. The generic key names are parts of
/// names (`api_key`, `client_secret`, `DB_PASSWORD`, `x-auth-token`): the detector reads the
/// whole name around them.
const ANCHORS: &[(&str, Det)] = &[
    ("-----BEGIN", Det::PrivateKey),
    ("AKIA", Det::Aws),
    ("ASIA", Det::Aws),
    ("ABIA", Det::Aws),
    ("ACCA", Det::Aws),
    ("A3T", Det::Aws),
    ("ghp_", Det::GitHub),
    ("gho_", Det::GitHub),
    ("ghu_", Det::GitHub),
    ("ghs_", Det::GitHub),
    ("ghr_", Det::GitHub),
    ("github_pat_", Det::GitHubFine),
    ("xox", Det::Slack),
    ("xapp-", Det::Slack),
    ("hooks.slack.com/", Det::SlackWebhook),
    ("sk_", Det::Stripe),
    ("rk_", Det::Stripe),
    ("AIza", Det::Gcp),
    ("sk-", Det::SkDash),
    ("eyJ", Det::Jwt),
    ("bearer", Det::Bearer),
    ("basic", Det::Basic),
    ("://", Det::Url),
    ("key", Det::Generic),
    ("token", Det::Generic),
    ("secret", Det::Generic),
    ("passw", Det::Generic),
    ("passphrase", Det::Generic),
    ("pwd", Det::Generic),
    ("credential", Det::Generic),
    ("creds", Det::Generic),
];

/// The searched patterns: every anchor in each of its spellings, with its detector.
static PATTERNS: LazyLock<Vec<(String, Det)>> = LazyLock::new(|| {
    let mut out: Vec<(String, Det)> = Vec::new();
    for &(a, det) in ANCHORS {
        let mut forms = vec![a.to_string()];
        if matches!(det, Det::Bearer | Det::Basic | Det::Generic) {
            let mut cap = a.to_string();
            cap[..1].make_ascii_uppercase();
            forms.push(cap);
            forms.push(a.to_ascii_uppercase());
        }
        for f in forms {
            if !out.iter().any(|(p, _)| *p == f) {
                out.push((f, det));
            }
        }
    }
    out
});

/// Case-sensitive and leftmost-first, so that the automaton uses its SIMD prefilter (Teddy):
/// about 1 GB/s over text with no anchor, against some 200 MB/s for a case-insensitive or
/// standard-semantics automaton. Matches do not overlap; no anchor needs to be found inside
/// another (an anchor that starts inside another's match follows a word byte, so it could not
/// start a token, and the generic detector reads the whole name around any of its anchors).
static AUTOMATON: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostFirst)
        .build(PATTERNS.iter().map(|(a, _)| a.as_bytes()))
        .expect("the anchors are a valid automaton")
});

/// The matches of the text, in order and not overlapping; with `first_only`, at most the first
/// one (the same one the full scan puts first), found without looking further than needed.
pub fn scan(hay: &[u8], first_only: bool) -> Vec<Match> {
    // (start, priority, end as a tiebreak: longer first), then the match.
    let key = |m: &Match, p: u8| (m.span.start, p, usize::MAX - m.span.end);
    let mut found: Vec<(Match, u8)> = Vec::new();
    let mut best: Option<(Match, u8)> = None;
    for hit in AUTOMATON.find_iter(hay) {
        // Hits come in order; a match starts at or after its hit, so no later hit can come
        // before the best match so far.
        if best.is_some_and(|(b, _)| hit.start() > b.span.start) {
            break;
        }
        let (anchor, det) = &PATTERNS[hit.pattern().as_usize()];
        let Some(m) = detect(*det, hay, hit.start(), anchor) else {
            continue;
        };
        debug_assert!(m.span.start >= hit.start());
        let p = det.priority();
        if first_only {
            if best.is_none_or(|(b, bp)| key(&m, p) < key(&b, bp)) {
                best = Some((m, p));
            }
        } else {
            found.push((m, p));
        }
    }
    if first_only {
        return best.map(|(m, _)| vec![m]).unwrap_or_default();
    }
    found.sort_by_key(|(m, p)| key(m, *p));
    let mut out: Vec<Match> = Vec::with_capacity(found.len());
    for (m, _) in found {
        if out.last().is_none_or(|l| m.span.start >= l.span.end) {
            out.push(m);
        }
    }
    out
}

fn detect(det: Det, hay: &[u8], i: usize, anchor: &str) -> Option<Match> {
    let exact = hay[i..].starts_with(anchor.as_bytes());
    let found = match det {
        Det::PrivateKey if exact => private_key(hay, i),
        Det::Aws if exact => aws(hay, i),
        Det::GitHub if exact => github(hay, i),
        Det::GitHubFine if exact => github_fine(hay, i),
        Det::Slack => slack(hay, i),
        Det::SlackWebhook if exact => slack_webhook(hay, i),
        Det::Stripe if exact => stripe(hay, i),
        Det::Gcp if exact => gcp(hay, i),
        Det::SkDash if exact => sk_dash(hay, i),
        Det::Jwt if exact => jwt(hay, i),
        Det::Bearer => bearer(hay, i),
        Det::Basic => basic(hay, i),
        Det::Url => url_credentials(hay, i),
        Det::Generic => generic(hay, i, anchor.len()),
        _ => None,
    };
    found.map(|(kind, start, end)| Match {
        kind,
        span: Span::new(start, end),
    })
}

type Found = Option<(&'static str, usize, usize)>;

/// The length of an escape at `k`: one to eight backslashes and then one of `letters` (`\n` in
/// a JSON string, `\\n` in JSON inside JSON); 0 when there is none.
fn escaped(hay: &[u8], k: usize, letters: &[u8]) -> usize {
    let slashes = run_end(hay, k, 8, |b| b == b'\\') - k;
    match hay.get(k + slashes) {
        Some(b) if (1..=8).contains(&slashes) && letters.contains(b) => slashes + 1,
        _ => 0,
    }
}

fn is_b64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'='
}

/// `-----BEGIN ... PRIVATE KEY-----` with at least 64 base64 characters of body, to its
/// `-----END ...-----` line (or the end of the body when there is none). The body may be
/// written with real line breaks or with `\n` escapes (a key pasted into a JSON transcript),
/// and may start with `Name: value` header lines (encrypted PEM, PGP).
fn private_key(hay: &[u8], i: usize) -> Found {
    let label_start = i + "-----BEGIN".len();
    let label_end = label_start
        + find(
            &hay[label_start..hay.len().min(label_start + 100)],
            b"-----",
        )?;
    let label = &hay[label_start..label_end];
    if !label
        .iter()
        .all(|&b| b == b' ' || b == b'_' || b.is_ascii_uppercase() || b.is_ascii_digit())
        || !(label.ends_with(b"PRIVATE KEY") || label.ends_with(b"PRIVATE KEY BLOCK"))
    {
        return None;
    }
    let mut k = label_end + 5;
    let limit = hay.len().min(k + 65_536);
    let mut body: Vec<u8> = Vec::new();
    let mut count = 0usize;
    let mut body_end = k;
    let mut end = None;
    // A line break, real or escaped.
    let newline = |k: usize| -> usize {
        match hay.get(k) {
            Some(b'\n') => 1,
            _ => escaped(hay, k, b"n"),
        }
    };
    let blank = |k: usize| -> usize {
        match hay.get(k) {
            Some(b' ' | b'\t' | b'\r') => 1,
            _ => escaped(hay, k, b"rt"),
        }
    };
    // Line by line: a body line is base64 and nothing else; header lines (`Proc-Type: ...`,
    // `Version: ...`) may come before the body; anything else ends it.
    while k < limit {
        let step = newline(k).max(blank(k));
        if step > 0 {
            k += step;
            continue;
        }
        if hay[k..].starts_with(b"-----END") {
            let from = k + 8;
            end = find(&hay[from..hay.len().min(from + 100)], b"-----").map(|c| from + c + 5);
            break;
        }
        let line_start = k;
        let name_end = run_end(hay, k, 40, |b| b.is_ascii_alphabetic() || b == b'-');
        if count == 0 && name_end > k && hay.get(name_end) == Some(&b':') {
            while k < limit && newline(k) == 0 {
                k += 1;
            }
            continue;
        }
        k = run_end(hay, k, 4096, is_b64);
        let mut after = k;
        while blank(after) > 0 {
            after += blank(after);
        }
        let ends_line =
            after >= hay.len() || newline(after) > 0 || hay[after..].starts_with(b"-----END");
        if k == line_start || !ends_line {
            break;
        }
        count += k - line_start;
        let room = 512usize.saturating_sub(body.len());
        body.extend_from_slice(&hay[line_start..k.min(line_start + room)]);
        body_end = k;
        k = after;
    }
    if count < 64 || entropy(&body) < 4.0 {
        return None;
    }
    Some(("private-key", i, end.unwrap_or(body_end)))
}

/// `AKIA`/`ASIA`/`ABIA`/`ACCA` (or `A3T` + one) and 16 base32 characters.
fn aws(hay: &[u8], i: usize) -> Found {
    if !boundary_before(hay, i) {
        return None;
    }
    if hay[i..].starts_with(b"A3T") {
        let b = *hay.get(i + 3)?;
        if !(b.is_ascii_uppercase() || b.is_ascii_digit()) {
            return None;
        }
    }
    let prefix = 4;
    let base32 = |b: u8| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b);
    let end = run_end(hay, i + prefix, 16, base32);
    if end - (i + prefix) != 16 || !boundary_after(hay, end, is_word) {
        return None;
    }
    let key = &hay[i..end];
    if entropy(key) < 3.0 || is_placeholder(key) {
        return None;
    }
    Some(("aws-access-token", i, end))
}

/// `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` and 36 letters or digits.
fn github(hay: &[u8], i: usize) -> Found {
    if !boundary_before(hay, i) {
        return None;
    }
    let kind = match hay[i + 2] {
        b'p' => "github-pat",
        b'o' => "github-oauth",
        b'u' | b's' => "github-app-token",
        b'r' => "github-refresh-token",
        _ => return None,
    };
    let body = i + 4;
    let end = run_end(hay, body, 36, alnum);
    if end - body != 36 || !boundary_after(hay, end, is_word) {
        return None;
    }
    let b = &hay[body..end];
    if entropy(b) < 3.0 || is_placeholder(b) {
        return None;
    }
    Some((kind, i, end))
}

/// `github_pat_` and 82 word characters.
fn github_fine(hay: &[u8], i: usize) -> Found {
    if !boundary_before(hay, i) {
        return None;
    }
    let body = i + "github_pat_".len();
    let end = run_end(hay, body, 82, is_word);
    if end - body != 82 || !boundary_after(hay, end, is_word) {
        return None;
    }
    let b = &hay[body..end];
    if entropy(b) < 3.0 || is_placeholder(b) {
        return None;
    }
    Some(("github-fine-grained-pat", i, end))
}

/// gitleaks' Slack token shapes, most specific first.
static SLACK: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        (
            r"^xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*",
            "slack-bot-token",
        ),
        (
            r"^xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}",
            "slack-user-token",
        ),
        (
            r"^(?i:xapp)-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+",
            "slack-app-token",
        ),
        (
            r"^(?i:xoxe\.xox[bp]-[0-9]-[A-Z0-9]{163,166})",
            "slack-config-access-token",
        ),
        (
            r"^(?i:xoxe-[0-9]-[A-Z0-9]{146})",
            "slack-config-refresh-token",
        ),
        (
            r"^xoxb-[0-9]{8,14}-[a-zA-Z0-9]{18,26}",
            "slack-legacy-bot-token",
        ),
        (
            r"^xox[ar]-(?:[0-9]-)?[0-9a-zA-Z]{8,48}",
            "slack-legacy-workspace-token",
        ),
        (
            r"^xox[os]-[0-9]+-[0-9]+-[0-9]+-[a-fA-F0-9]+",
            "slack-legacy-token",
        ),
    ]
    .into_iter()
    .map(|(re, kind)| (Regex::new(re).expect("valid Slack pattern"), kind))
    .collect()
});

fn slack(hay: &[u8], i: usize) -> Found {
    if !boundary_before(hay, i) {
        return None;
    }
    let window = &hay[i..hay.len().min(i + 400)];
    for (re, kind) in SLACK.iter() {
        let Some(m) = re.find(window) else {
            continue;
        };
        let end = i + m.end();
        let token = &hay[i..end];
        if boundary_after(hay, end, alnum) && !is_placeholder(token) && entropy(token) >= 3.0 {
            return Some((kind, i, end));
        }
    }
    None
}

/// `hooks.slack.com/services/...` (the span leaves out the scheme).
fn slack_webhook(hay: &[u8], i: usize) -> Found {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}")
            .expect("valid webhook pattern")
    });
    let window = &hay[i..hay.len().min(i + 120)];
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

/// `sk_`/`rk_` + `live`/`test`/`prod` + `_` and 20 or more letters or digits.
fn stripe(hay: &[u8], i: usize) -> Found {
    if !boundary_before(hay, i) {
        return None;
    }
    let rest = &hay[i + 3..];
    if !(rest.starts_with(b"live_") || rest.starts_with(b"test_") || rest.starts_with(b"prod_")) {
        return None;
    }
    let body = i + 8;
    let end = run_end(hay, body, 247, alnum);
    let b = &hay[body..end];
    if !(20..=247).contains(&b.len())
        || !boundary_after(hay, end, is_word)
        || entropy(b) < 3.0
        || is_placeholder(b)
    {
        return None;
    }
    Some(("stripe-access-token", i, end))
}

/// `AIza` and 35 base64url characters.
fn gcp(hay: &[u8], i: usize) -> Found {
    if !boundary_before(hay, i) {
        return None;
    }
    let end = run_end(hay, i + 4, 35, url64);
    let b = &hay[i + 4..end];
    if b.len() != 35 || !boundary_after(hay, end, url64) || entropy(b) < 3.0 || is_placeholder(b) {
        return None;
    }
    Some(("gcp-api-key", i, end))
}

/// `sk-ant-...` (Anthropic) or `sk-...` (OpenAI): a long random-looking tail.
fn sk_dash(hay: &[u8], i: usize) -> Found {
    if !boundary_before(hay, i) {
        return None;
    }
    let end = run_end(hay, i + 3, 400, url64);
    if end - (i + 3) > 400 || !boundary_after(hay, end, url64) {
        return None;
    }
    let tail = &hay[i + 3..end];
    let mixed = |t: &[u8]| {
        t.iter().any(u8::is_ascii_uppercase)
            && t.iter().any(u8::is_ascii_lowercase)
            && has_digit(t)
            && entropy(t) >= 3.5
            && !is_placeholder(t)
    };
    if let Some(rest) = tail.strip_prefix(b"ant-") {
        if rest.len() < 32 || !mixed(rest) {
            return None;
        }
        let kind = if rest.starts_with(b"admin") {
            "anthropic-admin-api-key"
        } else {
            "anthropic-api-key"
        };
        return Some((kind, i, end));
    }
    let marked = contains(tail, b"T3BlbkFJ");
    if tail.len() < 40 || !(marked && !is_placeholder(tail) || mixed(tail)) {
        return None;
    }
    Some(("openai-api-key", i, end))
}

/// Three or more base64url parts joined by dots, the first decoding to a JSON object with an
/// `alg` (a JWS or JWE header), the rest at least 16 characters in all.
fn jwt(hay: &[u8], i: usize) -> Found {
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
    let header = base64_decode(&hay[i..header_end])?;
    let value: serde_json::Value = serde_json::from_slice(&header).ok()?;
    if !value.get("alg").is_some_and(|a| a.is_string()) {
        return None;
    }
    Some(("jwt", i, end))
}

fn after_spaces(hay: &[u8], i: usize) -> Option<usize> {
    let j = run_end(hay, i, 16, |b| b == b' ' || b == b'\t');
    (j > i && j - i <= 16).then_some(j)
}

/// `Bearer <token>`: a token of 16 or more characters with letters and digits.
fn bearer(hay: &[u8], i: usize) -> Found {
    if !boundary_before(hay, i) {
        return None;
    }
    let start = after_spaces(hay, i + 6)?;
    let class = |b: u8| b.is_ascii_alphanumeric() || b"._~+/-=".contains(&b);
    let end = run_end(hay, start, 4096, class);
    let t = &hay[start..end];
    if !(16..=4096).contains(&t.len())
        || !has_digit(t)
        || !has_alpha(t)
        || entropy(t) < 3.0
        || is_placeholder(t)
    {
        return None;
    }
    Some(("authorization-header", start, end))
}

/// `Basic <base64 of user:password>` with a password that is not a placeholder.
fn basic(hay: &[u8], i: usize) -> Found {
    if !boundary_before(hay, i) {
        return None;
    }
    let start = after_spaces(hay, i + 5)?;
    let end = run_end(hay, start, 2048, is_b64);
    let t = &hay[start..end];
    if !(8..=2048).contains(&t.len()) {
        return None;
    }
    let decoded = base64_decode(t)?;
    let text = std::str::from_utf8(&decoded).ok()?;
    let (user, password) = text.split_once(':')?;
    if user.is_empty()
        || text.chars().any(char::is_control)
        || is_password_placeholder(password.as_bytes())
    {
        return None;
    }
    Some(("authorization-header", start, end))
}

/// Passwords that documentation writes in place of one.
fn is_password_placeholder(p: &[u8]) -> bool {
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
    ];
    p.len() < 4 || is_placeholder(p) || WORDS.iter().any(|w| p.eq_ignore_ascii_case(w.as_bytes()))
}

/// `scheme://user:password@host`: the password is the match.
fn url_credentials(hay: &[u8], i: usize) -> Found {
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

/// The parts a name is made of: split at `_`, `.`, `-` and lower-to-upper case changes,
/// lowercased (`clientSecret` → `client`, `secret`).
fn name_parts(name: &[u8]) -> Vec<String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for &b in name {
        if b == b'_' || b == b'.' || b == b'-' {
            if !cur.is_empty() {
                parts.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if b.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            parts.push(std::mem::take(&mut cur));
        }
        prev_lower = b.is_ascii_lowercase() || b.is_ascii_digit();
        cur.push(b.to_ascii_lowercase() as char);
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    parts
}

/// Whether a name says its value is a secret: it ends in a secret word (`token`, `secret`,
/// `password`, `api_key`, `client_secret`, `secret_key_base`, ...). `token_budget`,
/// `max_tokens`, `password_field` and `primary_key` do not.
fn secret_name(name: &[u8]) -> bool {
    const SECRET: &[&str] = &[
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "passphrase",
        "credential",
        "credentials",
        "creds",
        "apikey",
        "accesskey",
        "secretkey",
        "privatekey",
        "authtoken",
        "accesstoken",
        "refreshtoken",
        "clientsecret",
    ];
    const KEY_OF: &[&str] = &[
        "api",
        "access",
        "secret",
        "private",
        "signing",
        "encryption",
        "master",
        "client",
        "app",
        "service",
        "account",
        "license",
        "auth",
        "session",
        "shared",
        "webhook",
        "consumer",
        "subscription",
        "admin",
    ];
    let mut parts = name_parts(name);
    // `API_KEY_2`, `token2`: a number at the end says nothing.
    while parts
        .last()
        .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
    {
        parts.pop();
    }
    if let Some(last) = parts.last_mut() {
        while last.ends_with(|c: char| c.is_ascii_digit()) {
            last.pop();
        }
    }
    if parts
        .last()
        .is_some_and(|p| matches!(p.as_str(), "value" | "base" | "string" | "str"))
    {
        parts.pop();
    }
    let Some(last) = parts.last() else {
        return false;
    };
    if SECRET.contains(&last.as_str()) {
        return true;
    }
    last == "key" && parts.len() >= 2 && KEY_OF.contains(&parts[parts.len() - 2].as_str())
}

/// `<secret name> = <literal>` (also `:`, `:=`, `=>`, quoted or not, in JSON, YAML, TOML, env
/// files and code): a literal of 16 to 256 characters with letters, digits and at least 3.5 bits
/// of entropy per character. The literal is the match.
fn generic(hay: &[u8], hit: usize, anchor_len: usize) -> Found {
    let name_class = |b: u8| is_word(b) || b == b'.' || b == b'-';
    let lo = hit.saturating_sub(64);
    let mut s = hit;
    while s > lo && name_class(hay[s - 1]) {
        if matches!(hay[s - 1], b'n' | b'r' | b't') && s >= 2 && hay[s - 2] == b'\\' {
            break;
        }
        s -= 1;
    }
    let e = run_end(hay, hit + anchor_len, 64, name_class);
    if e - hit > 64 || !secret_name(&hay[s..e]) {
        return None;
    }
    let mut j = e;
    let skip_quote = |j: usize| -> (usize, Option<u8>) {
        match hay.get(j) {
            Some(&q @ (b'"' | b'\'' | b'`')) => (j + 1, Some(q)),
            _ => match escaped(hay, j, b"\"'") {
                0 => (j, None),
                n => (j + n, Some(hay[j + n - 1])),
            },
        }
    };
    j = skip_quote(j).0;
    j = run_end(hay, j, 8, |b| b == b' ' || b == b'\t');
    match hay.get(j) {
        Some(b':') => {
            j += 1;
            if hay.get(j) == Some(&b'=') {
                j += 1;
            }
        }
        Some(b'=') => {
            j += 1;
            match hay.get(j) {
                Some(b'=') => return None,
                Some(b'>') => j += 1,
                _ => {}
            }
        }
        _ => return None,
    }
    j = run_end(hay, j, 8, |b| b == b' ' || b == b'\t');
    let (start, quote) = skip_quote(j);
    let class = |b: u8| b.is_ascii_alphanumeric() || b"_.~+/=-".contains(&b);
    let end = run_end(hay, start, 256, class);
    let v = &hay[start..end];
    if !(16..=256).contains(&v.len()) {
        return None;
    }
    let terminated = match (quote, hay.get(end)) {
        (_, None) => quote.is_none(),
        (Some(q), Some(&b)) => b == q || escaped(hay, end, &[q]) > 0,
        (None, Some(&b)) => b.is_ascii_whitespace() || b",;)}]&#\\\"'`".contains(&b),
    };
    if !terminated
        || !has_digit(v)
        || !has_alpha(v)
        || entropy(v) < 3.5
        || is_placeholder(v)
        || is_code_reference(v)
    {
        return None;
    }
    Some(("generic-api-key", start, end))
}

/// A name standing for the value rather than the value: `process.env.API_TOKEN_2`,
/// `settings.SECRET_KEY`, `SLACK_BOT_TOKEN_V2`, `x25519_generate_private_key`.
fn is_code_reference(v: &[u8]) -> bool {
    let ident = |s: &[u8]| {
        s.first()
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
            && s.iter().all(|&b| is_word(b))
    };
    let dotted = v.contains(&b'.') && v.split(|&b| b == b'.').all(ident);
    // `SLACK_BOT_TOKEN_V2`, `x25519_generate_private_key`: words joined by `_`, each in one case.
    let one_case = |s: &[u8]| {
        !s.is_empty()
            && (s.iter().all(|b| !b.is_ascii_uppercase())
                || s.iter().all(|b| !b.is_ascii_lowercase()))
    };
    let snake = v.iter().filter(|&&b| b == b'_').count() >= 2
        && v.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_')
        && v.split(|&b| b == b'_').all(one_case);
    dotted || snake
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for n in [
            "api_key",
            "API_KEY",
            "apiKey",
            "x-api-key",
            "client_secret",
            "clientSecret",
            "DB_PASSWORD",
            "secret_key_base",
            "aws_secret_access_key",
            "GITHUB_TOKEN",
            "auth.token",
            "spring.datasource.password",
        ] {
            assert!(secret_name(n.as_bytes()), "{n} names a secret");
        }
        for n in [
            "token_budget",
            "max_tokens",
            "tokenizer",
            "password_field",
            "primary_key",
            "sort_key",
            "keywords",
            "secretary",
            "monkey",
        ] {
            assert!(!secret_name(n.as_bytes()), "{n} does not name a secret");
        }
    }

    #[test]
    fn parts_split_case_and_separators() {
        assert_eq!(name_parts(b"clientSecret"), ["client", "secret"]);
        assert_eq!(name_parts(b"X-Api-Key"), ["x", "api", "key"]);
        assert_eq!(name_parts(b"API_KEY2"), ["api", "key2"]);
    }
}
