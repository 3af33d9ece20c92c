//! Small byte-level helpers the detectors share: character classes, word boundaries, Shannon
//! entropy, the placeholder allowlist and a base64 decoder.

/// A word byte, as regex `\w` in ASCII: letters, digits, `_`.
pub(crate) fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether a token may start at `i`: the byte before is not a word byte, or is the letter of a
/// JSON/string escape such as `\n` (a transcript stores a line break before a key as `\n`).
pub(crate) fn boundary_before(hay: &[u8], i: usize) -> bool {
    if i == 0 {
        return true;
    }
    let b = hay[i - 1];
    if !is_word(b) {
        return true;
    }
    matches!(b, b'n' | b'r' | b't') && i >= 2 && hay[i - 2] == b'\\'
}

/// Whether a token may end at `i`: end of input or a byte outside `class`.
pub(crate) fn boundary_after(hay: &[u8], i: usize, class: fn(u8) -> bool) -> bool {
    i >= hay.len() || !class(hay[i])
}

/// The end of the run of `class` bytes starting at `i`, looking at most `cap + 1` bytes (so a
/// run longer than `cap` is seen as such without scanning it all).
pub(crate) fn run_end(hay: &[u8], i: usize, cap: usize, class: fn(u8) -> bool) -> usize {
    let stop = hay.len().min(i.saturating_add(cap + 1));
    let mut j = i;
    while j < stop && class(hay[j]) {
        j += 1;
    }
    j
}

/// base64url plus `_`/`-`: `[A-Za-z0-9_-]`.
pub(crate) fn url64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// Shannon entropy in bits per byte.
pub(crate) fn entropy(s: &[u8]) -> f64 {
    if s.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in s {
        counts[b as usize] += 1;
    }
    let n = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

pub(crate) fn has_digit(s: &[u8]) -> bool {
    s.iter().any(u8::is_ascii_digit)
}

pub(crate) fn has_alpha(s: &[u8]) -> bool {
    s.iter().any(u8::is_ascii_alphabetic)
}

/// Text in a documentation or a template that stands for a secret without being one:
/// `YOUR_API_KEY`, `xxxx`, `****`, `<token>`, `${TOKEN}`, `{{token}}`, `$TOKEN`, `%s`, values
/// ending in `EXAMPLE` (AWS's documented keys), `changeme`, one repeated character, and
/// keyboard or alphabet runs (`0123456789`, `abcdefghij`).
pub(crate) fn is_placeholder(v: &[u8]) -> bool {
    const RUNS: &[&[u8]] = &[
        b"0123456789",
        b"1234567890",
        b"abcdefghij",
        b"qwertyuiop",
        b"abc123",
    ];
    let lower = v.to_ascii_lowercase();
    is_written_placeholder(v) || RUNS.iter().any(|m| contains(&lower, m))
}

/// The placeholders that say so in writing (`YOUR_...`, `xxxx`, `<token>`, `${TOKEN}`,
/// `EXAMPLE`, `changeme`, one repeated character), without the alphabet and keyboard runs of
/// [`is_placeholder`]: a token of a vendor's exact shape and length is one even when its random
/// part happens to hold `abc123`.
pub(crate) fn is_written_placeholder(v: &[u8]) -> bool {
    let Some(&first) = v.first() else {
        return true;
    };
    if v.iter().all(|&b| b == first) {
        return true;
    }
    if matches!(first, b'$' | b'%' | b'<' | b'{' | b'[') {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    const MARKERS: &[&[u8]] = &[
        b"your_",
        b"your-",
        b"yourapi",
        b"yourkey",
        b"yoursecret",
        b"yourtoken",
        b"yourpass",
        b"xxxx",
        b"****",
        b"...",
        b"<",
        b">",
        b"${",
        b"{{",
        b"}}",
        b"placeholder",
        b"redacted",
        b"changeme",
        b"change_me",
        b"change-me",
        b"replaceme",
        b"replace_me",
        b"replace-me",
    ];
    if MARKERS.iter().any(|m| contains(&lower, m)) {
        return true;
    }
    lower.ends_with(b"example") || contains(v, b"EXAMPLE")
}

pub(crate) fn contains(hay: &[u8], needle: &[u8]) -> bool {
    find(hay, needle).is_some()
}

pub(crate) fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    memchr::memmem::find(hay, needle)
}

/// Decodes standard or URL-safe base64, padded or not; `None` on any other byte.
pub(crate) fn base64_decode(s: &[u8]) -> Option<Vec<u8>> {
    let s = match s.iter().position(|&b| b == b'=') {
        Some(p) if s[p..].iter().all(|&b| b == b'=') && s.len() - p <= 2 => &s[..p],
        Some(_) => return None,
        None => s,
    };
    if s.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in s {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entropy_of_known_strings() {
        assert_eq!(entropy(b"aaaa"), 0.0);
        assert!((entropy(b"abcd") - 2.0).abs() < 1e-9);
        assert!((entropy(b"0123456789abcdef") - 4.0).abs() < 1e-9);
    }

    #[test]
    fn base64_decodes_both_alphabets() {
        assert_eq!(base64_decode(b"dXNlcjpwYXNz").unwrap(), b"user:pass");
        assert_eq!(
            base64_decode(b"eyJhbGciOiJIUzI1NiJ9").unwrap(),
            br#"{"alg":"HS256"}"#
        );
        assert_eq!(base64_decode(b"Pz8-").unwrap(), b"??>");
        assert_eq!(base64_decode(b"Pz8+").unwrap(), b"??>");
        assert_eq!(base64_decode(b"YQ==").unwrap(), b"a");
        // controls: a stray byte, bad padding and an impossible length are refused
        assert!(base64_decode(b"dXNl!").is_none());
        assert!(base64_decode(b"YQ=a").is_none());
        assert!(base64_decode(b"abcde").is_none());
    }

    #[test]
    fn placeholders() {
        for p in [
            "YOUR_API_KEY",
            "your-token-here",
            "xxxxxxxxxxxxxxxxxxxx",
            "sk-XXXXXXXXXXXXXXXX",
            "<token>",
            "${TOKEN}",
            "{{ secrets.TOKEN }}",
            "$GITHUB_TOKEN",
            "AKIAIOSFODNN7EXAMPLE",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "0000000000000000",
            "changeme",
            "abc123...",
        ] {
            assert!(is_placeholder(p.as_bytes()), "{p} should be a placeholder");
        }
        for s in [
            "Zq8Vn3Lr0Tw5Ke7Hb2Yd",
            "9f2c1e7a4b8d6053e1f0",
            "AKIAZ2NEVERREALKEY67",
        ] {
            assert!(!is_placeholder(s.as_bytes()), "{s} is not a placeholder");
        }
    }

    #[test]
    fn boundaries_see_json_escapes() {
        let hay = br"x\nghp_";
        assert!(boundary_before(hay, 3));
        assert!(!boundary_before(b"tghp_", 1));
        assert!(boundary_before(b" ghp_", 1));
    }
}
