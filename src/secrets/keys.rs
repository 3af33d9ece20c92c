//! Private keys: PEM blocks (real or `\n`-escaped line breaks, header lines before the body),
//! and PEM blocks wrapped in base64.

use super::shape::{base64_decode, entropy, find, run_end};

type Found = Option<(&'static str, usize, usize)>;

/// The length of an escape at `k`: one to eight backslashes and then one of `letters` (`\n` in
/// a JSON string, `\\n` in JSON inside JSON); 0 when there is none.
pub(crate) fn escaped(hay: &[u8], k: usize, letters: &[u8]) -> usize {
    let slashes = run_end(hay, k, 8, |b| b == b'\\') - k;
    match hay.get(k + slashes) {
        Some(b) if (1..=8).contains(&slashes) && letters.contains(b) => slashes + 1,
        _ => 0,
    }
}

fn is_b64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'='
}

/// The body of a block: its base64 characters (the first 512), how many there were, where the
/// body ends, and where the `-----END ...-----` line ends when there is one.
struct Body {
    head: Vec<u8>,
    count: usize,
    end: usize,
    end_line: Option<usize>,
}

/// Reads a block's body line by line from `k`: a body line is base64 and nothing else; header
/// lines (`Proc-Type: ...`, `Version: ...`) may come before it; anything else ends it.
fn body(hay: &[u8], mut k: usize) -> Body {
    let limit = hay.len().min(k + 65_536);
    let mut b = Body {
        head: Vec::new(),
        count: 0,
        end: k,
        end_line: None,
    };
    let newline = |k: usize| match hay.get(k) {
        Some(b'\n') => 1,
        Some(b'"') => joint(hay, k),
        _ => escaped(hay, k, b"n"),
    };
    let blank = |k: usize| match hay.get(k) {
        Some(b' ' | b'\t' | b'\r') => 1,
        _ => escaped(hay, k, b"rt"),
    };
    while k < limit {
        let step = newline(k).max(blank(k));
        if step > 0 {
            k += step;
            continue;
        }
        if hay[k..].starts_with(b"-----END") {
            let from = k + 8;
            b.end_line =
                find(&hay[from..hay.len().min(from + 100)], b"-----").map(|c| from + c + 5);
            break;
        }
        let line_start = k;
        let name_end = run_end(hay, k, 40, |b| b.is_ascii_alphabetic() || b == b'-');
        if b.count == 0 && name_end > k && hay.get(name_end) == Some(&b':') {
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
        b.count += k - line_start;
        let room = 512usize.saturating_sub(b.head.len());
        b.head
            .extend_from_slice(&hay[line_start..k.min(line_start + room)]);
        b.end = k;
        k = after;
    }
    b
}

/// A line break in a key written as string literals joined in code: `" +` or `"`, a line break,
/// spaces, then `"` or `+ "` (Java, JavaScript, Python); the joint's length, or 0.
fn joint(hay: &[u8], k: usize) -> usize {
    let blank = |b: u8| b == b' ' || b == b'\t' || b == b'\r';
    let mut j = run_end(hay, k + 1, 8, blank);
    if hay.get(j) == Some(&b'+') {
        j = run_end(hay, j + 1, 8, blank);
    }
    match hay.get(j) {
        Some(b'\n') => j += 1,
        _ => match escaped(hay, j, b"n") {
            0 => return 0,
            n => j += n,
        },
    }
    j = run_end(hay, j, 64, blank);
    if hay.get(j) == Some(&b'+') {
        j = run_end(hay, j + 1, 8, blank);
    }
    if hay.get(j) == Some(&b'"') {
        j + 1 - k
    } else {
        0
    }
}

/// Whether a body's first characters decode to a key's structure: OpenSSH's `openssh-key-v1`
/// magic, or a DER SEQUENCE with a long-form length (PKCS#1, PKCS#8, SEC1).
fn structured(head: &[u8]) -> bool {
    let n = head.len().min(64) / 4 * 4;
    let Some(bytes) = base64_decode(&head[..n]) else {
        return false;
    };
    bytes.starts_with(b"openssh-key-v1\0") || matches!(bytes.as_slice(), [0x30, 0x81..=0x83, ..])
}

/// `-----BEGIN ... PRIVATE KEY-----` and a body: at least 64 base64 characters with 4 bits of
/// entropy, 32 to 63 with 4.5 (a short encrypted key), or at least 40 that decode to a key's
/// fixed structure (an OpenSSH key's first line is low in entropy), to its `-----END ...-----`
/// line (or the end of the body).
pub(crate) fn pem(hay: &[u8], i: usize, _anchor: &str) -> Found {
    if !hay.get(i..)?.starts_with(b"-----BEGIN") {
        return None;
    }
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
    let b = body(hay, label_end + 5);
    let e = entropy(&b.head);
    let random = b.count >= 64 && e >= 4.0 || b.count >= 32 && e >= 4.5;
    if !(random || b.count >= 40 && structured(&b.head)) {
        return None;
    }
    Some(("private-key", i, b.end_line.unwrap_or(b.end)))
}

/// A PEM private key wrapped in base64 (`LS0tLS1CRUdJTi` is `-----BEGIN` encoded): the run of
/// base64, on one line or wrapped over several, decodes to a block [`pem`] accepts.
pub(crate) fn pem_base64(hay: &[u8], i: usize, _anchor: &str) -> Found {
    // `=` ends base64, so `KEY=LS0t...` starts a run; a letter, digit, `+` or `/` continues one.
    if i > 0 && hay[i - 1] != b'=' && is_b64(hay[i - 1]) {
        return None;
    }
    let mut text: Vec<u8> = Vec::new();
    let mut k = i;
    let mut end = i;
    while text.len() < 16_384 {
        let e = run_end(hay, k, 16_384, is_b64);
        if e == k {
            break;
        }
        text.extend_from_slice(&hay[k..e]);
        end = e;
        match hay.get(e) {
            Some(b'\n') => k = e + 1,
            Some(b'\r') if hay.get(e + 1) == Some(&b'\n') => k = e + 2,
            _ => break,
        }
    }
    let whole = text.len() - text.len() % 4;
    let decoded = base64_decode(&text[..whole])?;
    pem(&decoded, 0, "")?;
    Some(("private-key", i, end))
}
