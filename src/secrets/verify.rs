//! Verification of a token's structure: the CRC32 tails of GitHub's and npm's tokens, the
//! macaroon inside a PyPI token, and the entropy and character-class tests of the others.

use super::row::Verify;
use super::shape::{base64_decode, entropy, has_digit, is_placeholder, is_written_placeholder};

/// Whether `body` (the token after its fixed prefix) passes `verify`: `None` when it does not,
/// `Some(true)` when its structure checks out (a checksum, a macaroon), `Some(false)` when only
/// its shape and entropy do. A checksum raises confidence; it never decides alone: a made-up
/// `ghp_` token of the right shape is still what hippo would redact.
pub(crate) fn passes(verify: Verify, body: &[u8]) -> Option<bool> {
    match verify {
        Verify::GitHubCrc | Verify::NpmCrc if crc_tail(body) => Some(true),
        Verify::GitHubCrc | Verify::NpmCrc => {
            (entropy(body) >= 3.0 && !is_placeholder(body)).then_some(false)
        }
        Verify::PyPiMacaroon => pypi_macaroon(body).then_some(true),
        _ => shape_passes(verify, body).then_some(false),
    }
}

/// The checks on shape and entropy alone.
fn shape_passes(verify: Verify, body: &[u8]) -> bool {
    match verify {
        Verify::Entropy(min) => entropy(body) >= min && !is_placeholder(body),
        Verify::Mixed => mixed(body),
        Verify::Cased => {
            body.iter().any(u8::is_ascii_uppercase)
                && body.iter().any(u8::is_ascii_lowercase)
                && entropy(body) >= 3.5
                && !is_placeholder(body)
        }
        Verify::GitHubCrc | Verify::NpmCrc | Verify::PyPiMacaroon => false,
        Verify::Exact => !is_written_placeholder(body),
        Verify::OpenAi => {
            (super::shape::contains(body, b"T3BlbkFJ") && !is_placeholder(body)) || mixed(body)
        }
    }
}

/// Upper case, lower case and digits, 3.5 bits of entropy, and no placeholder: a random token.
pub(crate) fn mixed(t: &[u8]) -> bool {
    t.iter().any(u8::is_ascii_uppercase)
        && t.iter().any(u8::is_ascii_lowercase)
        && has_digit(t)
        && entropy(t) >= 3.5
        && !is_placeholder(t)
}

/// The two base62 alphabets implementations use (digits first, then one case, then the other).
pub(crate) const BASE62: [&[u8; 62]; 2] = [
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
];

/// `n` in base62, left-padded with `0` to six characters.
pub(crate) fn base62_6(mut n: u32, alphabet: &[u8; 62]) -> [u8; 6] {
    let mut out = [b'0'; 6];
    for slot in out.iter_mut().rev() {
        *slot = alphabet[(n % 62) as usize];
        n /= 62;
    }
    out
}

/// GitHub's (and npm's) token format: 30 random characters, then their CRC32 in base62.
pub(crate) fn crc_tail(body: &[u8]) -> bool {
    if body.len() != 36 {
        return false;
    }
    let (random, tail) = body.split_at(30);
    let crc = crc32fast::hash(random);
    BASE62.iter().any(|a| base62_6(crc, a) == tail)
}

/// A PyPI token: `pypi-` and a base64url macaroon (version 2) whose first field is its location,
/// `pypi.org` or `test.pypi.org`, and whose second is a non-empty identifier.
pub(crate) fn pypi_macaroon(body: &[u8]) -> bool {
    let Some(bytes) = base64_decode(body) else {
        return false;
    };
    // version 2, then fields of (type, varint length, bytes): 1 = location, 2 = identifier.
    let Some((&2, rest)) = bytes.split_first() else {
        return false;
    };
    let Some((1, location, rest)) = field(rest) else {
        return false;
    };
    if location != b"pypi.org" && location != b"test.pypi.org" {
        return false;
    }
    matches!(field(rest), Some((2, id, _)) if !id.is_empty())
}

/// One macaroon field: its type, its bytes and what follows.
fn field(b: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&kind, rest) = b.split_first()?;
    let mut len = 0usize;
    let mut used = 0;
    for (k, &byte) in rest.iter().take(4).enumerate() {
        len |= ((byte & 0x7f) as usize) << (7 * k);
        used = k + 1;
        if byte & 0x80 == 0 {
            break;
        }
    }
    let rest = rest.get(used..)?;
    (rest.len() >= len).then(|| (kind, &rest[..len], &rest[len..]))
}

/// FNV-1a 64, the hash the table keeps published sample values as.
pub(crate) fn fnv1a(s: &[u8]) -> u64 {
    s.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_tail_accepts_its_own_checksum_and_refuses_one_changed_character() {
        let random = b"Zq8Vn3Lr0Tw5Ke7Hb2Yd4Pm6Xs9Ca1";
        let tail = base62_6(crc32fast::hash(random), BASE62[0]);
        let mut body = random.to_vec();
        body.extend_from_slice(&tail);
        assert!(crc_tail(&body));
        // controls: one character of the random part, or of the tail, changed
        let mut bad = body.clone();
        bad[3] = b'x';
        assert!(!crc_tail(&bad));
        let mut bad = body.clone();
        bad[35] = if bad[35] == b'0' { b'1' } else { b'0' };
        assert!(!crc_tail(&bad));
        assert!(!crc_tail(&body[..35]));
    }

    #[test]
    fn base62_pads_to_six() {
        assert_eq!(&base62_6(0, BASE62[0]), b"000000");
        assert_eq!(&base62_6(61, BASE62[0]), b"00000z");
        assert_eq!(&base62_6(62, BASE62[0]), b"000010");
        assert_eq!(&base62_6(u32::MAX, BASE62[0]), b"4gfFC3");
    }

    #[test]
    fn macaroon_needs_its_location_and_identifier() {
        let enc = |b: &[u8]| {
            use base64::Engine;
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b)
        };
        let mut good = vec![2u8, 1, 8];
        good.extend_from_slice(b"pypi.org");
        good.extend_from_slice(&[2, 4, b'i', b'd', b'4', b'2', 0, 6]);
        assert!(pypi_macaroon(enc(&good).as_bytes()));
        // controls: another location, a missing identifier, not base64, version 1
        let mut other = vec![2u8, 1, 8];
        other.extend_from_slice(b"evil.org");
        other.extend_from_slice(&[2, 1, b'x']);
        assert!(!pypi_macaroon(enc(&other).as_bytes()));
        assert!(!pypi_macaroon(enc(&good[..11]).as_bytes()));
        assert!(!pypi_macaroon(b"not!base64"));
        let mut v1 = good.clone();
        v1[0] = 1;
        assert!(!pypi_macaroon(enc(&v1).as_bytes()));
    }

    #[test]
    fn fnv_is_the_published_function() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
