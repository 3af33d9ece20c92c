//! The corpus's templates expanded: a case's text is written in tests/data/secrets/corpus.toml
//! with generators in `⟨…⟩` where a secret's random part goes, so the repository holds no
//! secret-shaped string. One deterministic generator expands every case in the file's order,
//! so the corpus is the same on every run.
//!
//! | generator | expands to |
//! | --- | --- |
//! | `⟨pick A N⟩` | N characters of the alphabet A |
//! | `⟨mixed A N⟩` | the same, with an upper-case letter, a lower-case letter and a digit where A has them |
//! | `⟨symbols N SET⟩` | N letters and digits (an upper-case letter and a digit among them) with two characters of SET inside |
//! | `⟨crc⟩`, `⟨crc-bad⟩` | 30 letters and digits and their CRC32 in base62 (GitHub's and npm's token body); `bad`: the tail off by one |
//! | `⟨pypi LOCATION⟩` | `pypi-` and a macaroon located at LOCATION |
//! | `⟨pem N⟩`, `⟨pem-escaped N⟩` | N lines of 64 base64 characters, apart by a newline (or by `\n` as JSON writes it) |
//! | `⟨jwt HEADER⟩` | a JWT with that JSON header |
//! | `⟨base64 T⟩`, `⟨base64url T⟩` | the base64 of T (itself expanded) |
//! | `⟨bytes64 N⟩`, `⟨bytes64url N⟩` | the base64 of N random bytes |
//! | `⟨bytes N⟩`, `⟨zeros N⟩`, `⟨hexbytes H⟩` | N random bytes, N zero bytes, the bytes of the hex digits H (inside `⟨base64 …⟩`) |
//! | `⟨upper T⟩`, `⟨lower T⟩` | T (itself expanded) in upper or lower case |
//!
//! An alphabet is a name (`upper`, `lower`, `digits`, `hex`, `base32`, `letters`, `alnum`,
//! `url64`, `b64`) or a class in brackets (`[a-f0-9_-]`: ranges and single characters).

use super::super::verify::{BASE62, base62_6};

/// A small deterministic generator (xorshift64*).
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
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next() >> 24) as u8).collect()
    }
}

const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
const DIGITS: &str = "0123456789";

/// An alphabet by its name, or a bracketed class spelled out.
fn alphabet(spec: &str) -> Result<String, String> {
    Ok(match spec {
        "upper" => UPPER.into(),
        "lower" => LOWER.into(),
        "digits" => DIGITS.into(),
        "hex" => "0123456789abcdef".into(),
        "base32" => format!("{UPPER}234567"),
        "letters" => format!("{UPPER}{LOWER}"),
        "alnum" => format!("{UPPER}{LOWER}{DIGITS}"),
        "url64" => format!("{UPPER}{LOWER}{DIGITS}-_"),
        "b64" => format!("{UPPER}{LOWER}{DIGITS}+/"),
        _ => {
            let inner = spec
                .strip_prefix('[')
                .and_then(|s| s.strip_suffix(']'))
                .ok_or_else(|| format!("unknown alphabet {spec:?}"))?;
            let c: Vec<char> = inner.chars().collect();
            let mut out = String::new();
            let mut i = 0;
            while i < c.len() {
                if i + 2 < c.len() && c[i + 1] == '-' {
                    out.extend(c[i]..=c[i + 2]);
                    i += 3;
                } else {
                    out.push(c[i]);
                    i += 1;
                }
            }
            out
        }
    })
}

fn b64_encode(data: &[u8], url: bool) -> String {
    let table = alphabet(if url { "url64" } else { "b64" }).unwrap_or_default();
    let table = table.as_bytes();
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
    let random = r.mixed(&alphabet("alnum").unwrap_or_default(), 30);
    let crc = crc32fast::hash(random.as_bytes()).wrapping_add(bad as u32);
    let tail = base62_6(crc, BASE62[0]);
    format!("{random}{}", String::from_utf8_lossy(&tail))
}

/// A PyPI token: `pypi-` and a macaroon located at `location`.
fn pypi(r: &mut Rng, location: &str) -> String {
    let mut m = vec![2u8, 1, location.len() as u8];
    m.extend_from_slice(location.as_bytes());
    let id = r.pick("0123456789abcdef", 32);
    m.extend_from_slice(&[2, 32]);
    m.extend_from_slice(id.as_bytes());
    m.extend_from_slice(&[0, 2, 26]);
    m.extend_from_slice(br#"{"version": 1, "p": null}"#);
    m.push(0);
    m.extend_from_slice(&[0, 6, 32]);
    m.extend(r.bytes(32));
    format!("pypi-{}", b64_encode(&m, true))
}

/// A JWT whose header is `header`.
pub(crate) fn jwt(r: &mut Rng, header: &str) -> String {
    let payload = format!(
        r#"{{"sub":"{}","name":"Ada","iat":{}}}"#,
        r.pick(DIGITS, 10),
        1_700_000_000 + r.next() % 1000
    );
    let sig = r.mixed(&alphabet("url64").unwrap_or_default(), 43);
    format!(
        "{}.{}.{sig}",
        b64_encode(header.as_bytes(), true),
        b64_encode(payload.as_bytes(), true),
    )
}

/// Letters and digits with two symbols of `set` inside (so it never starts like a placeholder).
fn symbols(r: &mut Rng, n: usize, set: &str) -> String {
    let alnum = alphabet("alnum").unwrap_or_default();
    loop {
        let mut s = r.mixed(&alnum, n);
        let at = 2 + (r.next() % (n as u64 - 4)) as usize;
        let sym = r.pick(set, 2);
        s.replace_range(at..at + 2, &sym);
        let b = s.as_bytes();
        if b.iter().any(u8::is_ascii_digit) && b.iter().any(u8::is_ascii_uppercase) {
            return s;
        }
    }
}

/// The text with every generator expanded, left to right.
pub(crate) fn expand(r: &mut Rng, text: &str) -> Result<String, String> {
    String::from_utf8(expand_bytes(r, text)?)
        .map_err(|_| format!("{text:?} expands to bytes that are not UTF-8"))
}

/// The same as bytes (a generator inside `⟨base64 …⟩` may give bytes that are not UTF-8).
fn expand_bytes(r: &mut Rng, text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('⟨') {
        out.extend_from_slice(&rest.as_bytes()[..open]);
        let inner_start = open + '⟨'.len_utf8();
        let mut depth = 1;
        let mut close = None;
        for (k, ch) in rest[inner_start..].char_indices() {
            match ch {
                '⟨' => depth += 1,
                '⟩' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(inner_start + k);
                        break;
                    }
                }
                _ => {}
            }
        }
        let close = close.ok_or_else(|| format!("an unclosed ⟨ in {text:?}"))?;
        out.extend(generate(r, &rest[inner_start..close])?);
        rest = &rest[close + '⟩'.len_utf8()..];
    }
    out.extend_from_slice(rest.as_bytes());
    Ok(out)
}

/// One generator's text (what is between `⟨` and `⟩`).
fn generate(r: &mut Rng, spec: &str) -> Result<Vec<u8>, String> {
    let (name, args) = spec.split_once(' ').unwrap_or((spec, ""));
    let number = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| format!("{s:?} is not a count in ⟨{spec}⟩"))
    };
    Ok(match name {
        "bytes" => r.bytes(number(args)?),
        "zeros" => vec![0; number(args)?],
        "hexbytes" => (0..args.len() / 2)
            .map(|k| u8::from_str_radix(args.get(2 * k..2 * k + 2).unwrap_or("?"), 16))
            .collect::<Result<_, _>>()
            .map_err(|_| format!("⟨{spec}⟩ is not hex"))?,
        _ => generate_text(r, name, args, spec)?.into_bytes(),
    })
}

/// A generator whose result is text.
fn generate_text(r: &mut Rng, name: &str, args: &str, spec: &str) -> Result<String, String> {
    let number = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| format!("{s:?} is not a count in ⟨{spec}⟩"))
    };
    let two = || {
        args.split_once(' ')
            .ok_or_else(|| format!("⟨{spec}⟩ takes two arguments"))
    };
    Ok(match name {
        "pick" | "mixed" => {
            let (a, n) = two()?;
            let (a, n) = (alphabet(a)?, number(n)?);
            if name == "pick" {
                r.pick(&a, n)
            } else {
                r.mixed(&a, n)
            }
        }
        "symbols" => {
            let (n, set) = two()?;
            symbols(r, number(n)?.max(5), set)
        }
        "crc" => crc_body(r, false),
        "crc-bad" => crc_body(r, true),
        "pypi" => pypi(r, args),
        "pem" | "pem-escaped" => {
            let b64 = alphabet("b64")?;
            let lines: Vec<String> = (0..number(args)?).map(|_| r.pick(&b64, 64)).collect();
            lines.join(if name == "pem" { "\n" } else { "\\n" })
        }
        "jwt" => jwt(r, args),
        "base64" => b64_encode(&expand_bytes(r, args)?, false),
        "base64url" => b64_encode(&expand_bytes(r, args)?, true),
        "bytes64" => b64_encode(&r.bytes(number(args)?), false),
        "bytes64url" => b64_encode(&r.bytes(number(args)?), true),
        "upper" => expand(r, args)?.to_ascii_uppercase(),
        "lower" => expand(r, args)?.to_ascii_lowercase(),
        _ => return Err(format!("unknown generator ⟨{spec}⟩")),
    })
}
