//! What a row of the detector table ([`super::table`]) is. A row is either a token shape (a
//! pattern matched where its anchor starts, the byte class that may not follow, and a
//! verification) or a scanner of its own, for the secrets a pattern cannot say because they
//! depend on their context (a PEM block, a URL's password, an Authorization header, a
//! secret-named assignment).

/// How a token proves it is one, beyond its shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Verify {
    /// At least this many bits of entropy per character in the part after the anchor.
    Entropy(f64),
    /// Upper case, lower case and digits, and 3.5 bits of entropy (a random token among words).
    Mixed,
    /// GitHub's CRC32 tail: the last 6 characters are the base62 CRC32 of the 30 before them.
    GitHubCrc,
    /// npm's tokens carry the same CRC32 tail as GitHub's.
    NpmCrc,
    /// A PyPI token is `pypi-` and a base64url macaroon whose location is PyPI.
    PyPiMacaroon,
    /// Upper and lower case letters and 3.5 bits of entropy (Hugging Face's letters-only tokens).
    Cased,
    /// OpenAI's `T3BlbkFJ` marker, or [`Verify::Mixed`].
    OpenAi,
    /// A vendor's exact shape and length (a fixed suffix, a fixed encoded prefix): any value
    /// but a written placeholder (`xxxx`, `YOUR_...`, `EXAMPLE`).
    Exact,
}

/// The byte class that may not follow a token (so a longer run is not cut into a token).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// `[A-Za-z0-9_]`
    Word,
    /// `[A-Za-z0-9_-]`
    Url64,
    /// `[A-Za-z0-9+/=]`
    Base64,
    /// `[A-Za-z0-9_~.-]` (Azure's client secrets)
    Azure,
}

impl Stop {
    pub(crate) fn holds(self, b: u8) -> bool {
        b.is_ascii_alphanumeric()
            || match self {
                Stop::Word => b == b'_',
                Stop::Url64 => b == b'_' || b == b'-',
                Stop::Base64 => b == b'+' || b == b'/' || b == b'=',
                Stop::Azure => b"_~.-".contains(&b),
            }
    }
}

/// A scanner of its own: the bytes, where its anchor starts, the anchor as found. Returns the
/// kind and the span of the secret, which starts at or after the anchor.
pub(crate) type ScanFn = fn(&[u8], usize, &str) -> Option<(&'static str, usize, usize)>;

#[derive(Clone, Copy)]
pub(crate) enum Shape {
    /// A pattern (regex syntax, bytes, no Unicode) matched at the token's start, which is
    /// `back` bytes before the anchor; the byte after it may not be in `stop`.
    Token {
        pattern: &'static str,
        back: usize,
        stop: Stop,
        verify: Verify,
    },
    Scan(ScanFn),
}

#[derive(Clone, Copy)]
pub(crate) struct Detector {
    /// The kind, in gitleaks' vocabulary where it has one.
    pub(crate) id: &'static str,
    /// The family of docs/redaction.md's table and of the differential script.
    pub(crate) family: &'static str,
    /// Where the row looks: written as the text holds them; with `fold`, also searched
    /// Capitalized and in UPPER case. None: the row only names the kind of a secret-named
    /// assignment's value.
    pub(crate) anchors: &'static [&'static str],
    pub(crate) fold: bool,
    pub(crate) shape: Shape,
    /// FNV-1a 64 hashes of published sample values that are not secrets (the values themselves
    /// are not written here, so no scanner flags this file).
    pub(crate) samples: &'static [u64],
    /// One line for `hippo-packs rules redaction`.
    pub(crate) what: &'static str,
}

/// A token row: the kind, its family, its anchors, its pattern (anchored at the token's start),
/// the byte class that may not follow it, its evidence and one line for the kinds table.
pub(super) const fn token(
    id: &'static str,
    family: &'static str,
    anchors: &'static [&'static str],
    pattern: &'static str,
    stop: Stop,
    verify: Verify,
    what: &'static str,
) -> Detector {
    Detector {
        id,
        family,
        anchors,
        fold: false,
        shape: Shape::Token {
            pattern,
            back: 0,
            stop,
            verify,
        },
        samples: &[],
        what,
    }
}

pub(super) const fn scanner(
    id: &'static str,
    family: &'static str,
    anchors: &'static [&'static str],
    fold: bool,
    scan: ScanFn,
    what: &'static str,
) -> Detector {
    Detector {
        id,
        family,
        anchors,
        fold,
        shape: Shape::Scan(scan),
        samples: &[],
        what,
    }
}
