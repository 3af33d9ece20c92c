//! Credentials on a `curl` command line: `-u`/`--user user:password` and `-H`/`--header` with a
//! header named like a secret (`Api-Token: ...`, `X-Api-Key: ...`). An `Authorization` header
//! is the Authorization scanner's; here only what curl alone says is a credential. Also the
//! `.netrc` entry curl (and git, pip, wandb) reads: `machine <host> login <user> password <pw>`.

use super::context::is_password_placeholder;
use super::shape::*;

type Found = Option<(&'static str, usize, usize)>;

/// How far a command is read: its line, continued by a trailing `\`, at most this many bytes.
const REACH: usize = 4096;

/// Header names that carry a credential whatever their value looks like (lower case).
const HEADERS: &[&[u8]] = &[
    b"token",
    b"api-token",
    b"api-key",
    b"apikey",
    b"x-api-key",
    b"x-api-token",
    b"x-auth-token",
    b"x-access-token",
    b"private-token",
    b"x-private-token",
    b"access-token",
    b"auth-token",
];

/// The first credential of the `curl` command at `i`.
pub(crate) fn scan(hay: &[u8], i: usize, anchor: &str) -> Found {
    if !boundary_before(hay, i) || hay.get(i + anchor.len()) != Some(&b' ') {
        return None;
    }
    let end = command_end(hay, i);
    let mut k = i + anchor.len();
    while k < end {
        let ((s, e), next) = word(hay, k, end)?;
        k = next;
        let flag = &hay[s..e];
        if flag == b"-u" || flag == b"--user" {
            let (arg, _) = word(hay, k, end)?;
            return user(hay, arg);
        }
        if flag == b"-H" || flag == b"--header" {
            let (arg, after) = word(hay, k, end)?;
            if let Some(found) = header(hay, arg) {
                return Some(found);
            }
            k = after;
        }
    }
    None
}

/// Where the command ends: the first line break not escaped by a `\` before it.
fn command_end(hay: &[u8], i: usize) -> usize {
    let limit = hay.len().min(i + REACH);
    let mut k = i;
    while k < limit {
        if hay[k] == b'\n'
            && !(k > i && hay[k - 1] == b'\\' || k > i + 1 && hay[k - 2..k] == *b"\\\r")
        {
            return k;
        }
        k += 1;
    }
    limit
}

/// The next shell word from `k`: its span (quotes included) and where the next one may start.
fn word(hay: &[u8], k: usize, end: usize) -> Option<((usize, usize), usize)> {
    let blank = |b: u8| b == b' ' || b == b'\t' || b == b'\\' || b == b'\n' || b == b'\r';
    let mut s = k;
    while s < end && blank(hay[s]) {
        s += 1;
    }
    if s >= end {
        return None;
    }
    let mut e = s;
    let mut quote: Option<u8> = None;
    while e < end {
        let b = hay[e];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b' ' || b == b'\t' || b == b'\n' => break,
            None => {}
        }
        e += 1;
    }
    Some(((s, e), e))
}

/// The word's text without its quotes.
fn unquote(raw: &[u8]) -> Vec<u8> {
    raw.iter()
        .copied()
        .filter(|&b| b != b'"' && b != b'\'')
        .collect()
}

/// A piece of `user:password` as written; `{abc}` around a literal is taken off.
fn piece(p: &[u8]) -> &[u8] {
    match p {
        [b'{', inner @ .., b'}'] if !inner.contains(&b'{') && !inner.contains(&b'$') => inner,
        _ => p,
    }
}

/// `-u user:password`: the whole argument is the match when the password (or, with an empty
/// password, the user, which is then an API key) is not a placeholder.
fn user(hay: &[u8], (s, e): (usize, usize)) -> Found {
    let text = unquote(&hay[s..e]);
    let colon = text.iter().position(|&b| b == b':')?;
    let (name, password) = (piece(&text[..colon]), piece(&text[colon + 1..]));
    let secret = if password.is_empty() { name } else { password };
    if is_password_placeholder(secret) || secret.len() < 6 || secret.starts_with(b"$") {
        return None;
    }
    Some(("curl-auth-user", s, e))
}

/// `-H "Name: value"` with a credential header name: the value is the match.
fn header(hay: &[u8], (s, e): (usize, usize)) -> Found {
    let q = usize::from(matches!(hay[s], b'"' | b'\''));
    let colon = s + find(&hay[s..e], b":")?;
    let name = hay[s + q..colon].to_ascii_lowercase();
    if !HEADERS.contains(&name.as_slice()) {
        return None;
    }
    let v = run_end(hay, colon + 1, 16, |b| b == b' ');
    let end = run_end(hay, v, 1024, |b| {
        b.is_ascii_alphanumeric() || b"._~+/-=".contains(&b)
    });
    let t = &hay[v..end];
    let ok = (8..=1024).contains(&t.len())
        && has_digit(t)
        && has_alpha(t)
        && entropy(t) >= 2.5
        && !is_placeholder(t);
    ok.then_some(("authorization-header", v, end))
}

/// `machine <host> login <user> password <password>` (on one line or several): the password is
/// the match, unless it is a placeholder.
pub(crate) fn netrc(hay: &[u8], i: usize, anchor: &str) -> Found {
    if !boundary_before(hay, i) {
        return None;
    }
    let end = hay.len().min(i + 512);
    let mut k = i + anchor.len();
    let mut words: Vec<(usize, usize)> = Vec::new();
    while words.len() < 5 {
        let s = run_end(hay, k, 32, |b| b.is_ascii_whitespace());
        let e = run_end(hay, s, 256, |b| {
            b.is_ascii_graphic() && b != b'"' && b != b'`'
        });
        if s == k && k != i + anchor.len() || e == s || e > end {
            return None;
        }
        words.push((s, e));
        k = e;
    }
    let word = |n: usize| &hay[words[n].0..words[n].1];
    if word(1) != b"login" || word(3) != b"password" {
        return None;
    }
    let (s, e) = words[4];
    let p = &hay[s..e];
    (!is_password_placeholder(p) && p.len() >= 8 && has_digit(p) && has_alpha(p)).then_some((
        "netrc-credentials",
        s,
        e,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Option<&str> {
        scan(text.as_bytes(), 0, "curl").map(|(_, s, e)| &text[s..e])
    }

    #[test]
    fn netrc_entries() {
        let pw = format!("{}{}", "7cc938e45e63", "e9014f88f811");
        let text = format!("machine api.example.org\n  login ada\n  password {pw}\n");
        let at = text.find("machine").unwrap_or(0);
        let found = netrc(text.as_bytes(), at, "machine").map(|(_, s, e)| &text[s..e]);
        assert_eq!(found, Some(&*pw));
        // controls: a placeholder password, prose about a machine
        for text in [
            "machine h login ada password pass123",
            "the machine login screen asks for a password first",
        ] {
            assert_eq!(netrc(text.as_bytes(), 0, "machine"), None, "{text}");
        }
    }

    #[test]
    fn users_and_headers_on_a_command_line() {
        let pw = format!("{}{}", "Zq8Vn3", "Lr0Tw5");
        assert_eq!(
            found(&format!("curl -u dev:{pw} https://h")),
            Some(&*format!("dev:{pw}"))
        );
        let line = format!("curl -X POST \\\n  --user 'ops:{pw}' https://h");
        assert_eq!(found(&line), Some(&*format!("'ops:{pw}'")));
        let line = format!("curl -H \"Api-Token: {pw}\" https://h");
        assert_eq!(found(&line), Some(&*pw));
        // controls: placeholders, variables, other headers, another command's line
        for text in [
            "curl -u user:password https://h".to_string(),
            "curl -u \"$USER:$PASS\" https://h".to_string(),
            "curl -u admin:admin https://h".to_string(),
            format!("curl -H \"Content-Type: {pw}\" https://h"),
            format!("curl https://h\nssh -u dev:{pw}"),
            format!("curly -u dev:{pw}"),
        ] {
            assert_eq!(found(&text), None, "{text}");
        }
    }
}
