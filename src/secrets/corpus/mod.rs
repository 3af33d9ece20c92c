//! The redaction corpus, generated at run time (so the repository holds no secret-shaped
//! string): per family, positives in the contexts a pack author pastes them into, and
//! near-misses that must not match. The unit tests check every case; `export` writes the corpus
//! out for scripts/secrets_diff.py, which runs gitleaks and Kingfisher over the same files.

mod context;
mod models;
mod near;
mod near_misc;
pub(crate) mod realistic;
mod rows;
mod tokens;

use super::verify::{BASE62, base62_6};

/// One case: a positive carries the kind and the secret its match must cover; a near-miss
/// carries neither.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    pub(crate) family: &'static str,
    pub(crate) kind: Option<&'static str>,
    pub(crate) text: String,
    pub(crate) secret: String,
}

pub(crate) fn pos(
    family: &'static str,
    kind: &'static str,
    before: &str,
    secret: String,
    after: &str,
) -> Case {
    Case {
        family,
        kind: Some(kind),
        text: format!("{before}{secret}{after}"),
        secret,
    }
}

pub(crate) fn near(family: &'static str, text: impl Into<String>) -> Case {
    Case {
        family,
        kind: None,
        text: text.into(),
        secret: String::new(),
    }
}

/// Every positive, then every near-miss.
pub(crate) fn all() -> Vec<Case> {
    let mut v = positives();
    v.extend(near::near_misses());
    v.extend(near_misc::near_misses());
    v.extend(rows::cases().into_iter().filter(|c| c.kind.is_none()));
    v.extend(
        realistic::negatives()
            .into_iter()
            .map(|t| near("other text", t)),
    );
    v
}

pub(crate) fn positives() -> Vec<Case> {
    let mut v = context::positives();
    v.extend(tokens::positives());
    v.extend(rows::cases().into_iter().filter(|c| c.kind.is_some()));
    v
}

/// A small deterministic generator (xorshift64*), so the corpus is the same on every run.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(crate) fn pick(&mut self, alphabet: &str, n: usize) -> String {
        let a = alphabet.as_bytes();
        (0..n)
            .map(|_| a[(self.next() % a.len() as u64) as usize] as char)
            .collect()
    }
    /// `n` characters of `alphabet` with at least one upper-case letter, lower-case letter and
    /// digit where the alphabet has them.
    pub(crate) fn mixed(&mut self, alphabet: &str, n: usize) -> String {
        loop {
            let s = self.pick(alphabet, n);
            let ok =
                |f: fn(&u8) -> bool| !alphabet.bytes().any(|b| f(&b)) || s.bytes().any(|b| f(&b));
            if ok(u8::is_ascii_uppercase) && ok(u8::is_ascii_lowercase) && ok(u8::is_ascii_digit) {
                return s;
            }
        }
    }
    pub(crate) fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next() >> 24) as u8).collect()
    }
}

pub(crate) const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
pub(crate) const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
pub(crate) const DIGITS: &str = "0123456789";
pub(crate) const HEX: &str = "0123456789abcdef";
pub(crate) const BASE32: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

pub(crate) fn alnum() -> String {
    format!("{UPPER}{LOWER}{DIGITS}")
}
pub(crate) fn url64() -> String {
    format!("{UPPER}{LOWER}{DIGITS}-_")
}
pub(crate) fn b64() -> String {
    format!("{UPPER}{LOWER}{DIGITS}+/")
}

pub(crate) fn b64_encode(data: &[u8], url: bool) -> String {
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

/// 30 random characters and their CRC32 in base62: GitHub's and npm's token body. With `bad`,
/// the tail is off by one (a near-miss).
pub(crate) fn crc_body(r: &mut Rng, bad: bool) -> String {
    let random = r.mixed(&alnum(), 30);
    let crc = crc32fast::hash(random.as_bytes()).wrapping_add(bad as u32);
    let tail = base62_6(crc, BASE62[0]);
    format!("{random}{}", String::from_utf8_lossy(&tail))
}

/// A PyPI token: `pypi-` and a macaroon located at `location`.
pub(crate) fn pypi(r: &mut Rng, location: &str) -> String {
    let mut m = vec![2u8, 1, location.len() as u8];
    m.extend_from_slice(location.as_bytes());
    let id = r.pick(HEX, 32);
    m.extend_from_slice(&[2, 32]);
    m.extend_from_slice(id.as_bytes());
    m.extend_from_slice(&[0, 2, 26]);
    m.extend_from_slice(br#"{"version": 1, "p": null}"#);
    m.push(0);
    m.extend_from_slice(&[0, 6, 32]);
    m.extend(r.bytes(32));
    format!("pypi-{}", b64_encode(&m, true))
}

pub(crate) fn pem_body(r: &mut Rng, lines: usize, nl: &str) -> String {
    (0..lines)
        .map(|_| r.pick(&b64(), 64))
        .collect::<Vec<_>>()
        .join(nl)
}

pub(crate) fn jwt(r: &mut Rng, header: &str) -> String {
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

/// Writes the corpus to `dir`: one file a case (`<family>/<pos|near>-<n>.txt`) and
/// `manifest.json` listing each file's family, kind and secret.
pub(crate) fn export(dir: &std::path::Path) -> std::io::Result<usize> {
    let mut manifest = Vec::new();
    for (n, c) in all().iter().enumerate() {
        let slug: String = c
            .family
            .chars()
            .map(|ch| {
                if ch.is_ascii_alphanumeric() {
                    ch.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        let file = format!(
            "{slug}/{}-{n:03}.txt",
            if c.kind.is_some() { "pos" } else { "near" }
        );
        let path = dir.join(&file);
        std::fs::create_dir_all(path.parent().expect("a file has a folder"))?;
        std::fs::write(&path, format!("{}\n", c.text))?;
        manifest.push(serde_json::json!({
            "file": file, "family": c.family, "kind": c.kind, "secret": c.secret,
        }));
    }
    let json = serde_json::to_string_pretty(&manifest).expect("the manifest serializes");
    std::fs::write(dir.join("manifest.json"), json)?;
    Ok(manifest.len())
}
