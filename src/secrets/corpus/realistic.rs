//! Realistic negatives: the random-looking strings a transcript of a coding session is full of
//! and that are not secrets (UUIDs, git SHAs, npm integrity hashes, base64 images, minified
//! code, hex digests, the ids model APIs and tools print). Generated at run time; none may be
//! reported (under `tests/` a false positive is an error that fails a pack).

use super::*;

fn uuid(r: &mut Rng) -> String {
    format!(
        "{}-{}-4{}-a{}-{}",
        r.pick(HEX, 8),
        r.pick(HEX, 4),
        r.pick(HEX, 3),
        r.pick(HEX, 3),
        r.pick(HEX, 12)
    )
}

/// A PNG's bytes (a header, runs of zero bytes as image data has them, random bytes) in base64.
fn png(r: &mut Rng) -> String {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    for _ in 0..12 {
        bytes.extend(std::iter::repeat_n(0u8, 24));
        bytes.extend(r.bytes(40));
    }
    b64_encode(&bytes, false)
}

/// Every realistic negative, each a line of a transcript or a file a session touches.
pub(crate) fn negatives() -> Vec<String> {
    let r = &mut Rng(0x00C0_FFEE_D00D);
    let sha = |r: &mut Rng| r.pick(HEX, 40);
    let mut v = vec![
        format!("session_id: {}", uuid(r)),
        format!("\"request_id\": \"{}\"", uuid(r)),
        format!("commit {}\nAuthor: Ada <ada@example.org>", sha(r)),
        format!("git checkout {} -- src/main.rs", &sha(r)[..12]),
        format!("Merge: {} {}", &sha(r)[..7], &sha(r)[..7]),
        format!(
            "\"integrity\": \"sha512-{}\"",
            b64_encode(&r.bytes(64), false)
        ),
        format!(
            "\"integrity\": \"sha1-{}\"",
            b64_encode(&r.bytes(20), false)
        ),
        format!("sha256sum: {}  dist/app.tar.gz", r.pick(HEX, 64)),
        format!("\"digest\": \"sha256:{}\"", r.pick(HEX, 64)),
        format!("md5 ({}) = {}", "notes.md", r.pick(HEX, 32)),
        format!("![chart](data:image/png;base64,{})", png(r)),
        format!("<img src=\"data:image/png;base64,{}\">", png(r)),
        format!("\"id\": \"toolu_01{}\"", r.mixed(&alnum(), 22)),
        format!("\"id\": \"msg_01{}\"", r.mixed(&alnum(), 22)),
        format!("request-id: req_011C{}", r.mixed(&alnum(), 20)),
        format!("\"id\": \"chatcmpl-{}\"", r.mixed(&alnum(), 29)),
        format!("\"tool_call_id\": \"call_{}\"", r.mixed(&alnum(), 24)),
        format!("\"cursor\": \"{}\"", b64_encode(&r.bytes(30), true)),
        format!("etag: W/\"{}\"", r.pick(HEX, 32)),
        format!("nonce=\"{}\"", b64_encode(&r.bytes(16), false)),
        format!("cache-key: node-modules-{}", r.pick(HEX, 32)),
        format!(
            "\"resolved\": \"https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz#{}\"",
            sha(r)
        ),
        format!("docker pull ghcr.io/acme/app@sha256:{}", r.pick(HEX, 64)),
        format!("trace_id={} span_id={}", r.pick(HEX, 32), r.pick(HEX, 16)),
        format!(
            "https://github.com/acme/app/compare/{}...{}",
            &sha(r)[..12],
            &sha(r)[..12]
        ),
        format!("\"checksum\": \"{}\"", r.pick(HEX, 64)),
        format!("X-Request-Id: {}", uuid(r)),
        format!(
            "\"publicKeyFingerprint\": \"SHA256:{}\"",
            b64_encode(&r.bytes(32), false)
        ),
        format!("const hashKey = \"{}\";", r.pick(HEX, 8)),
    ];
    v.push(minified(r));
    v.push(format!(
        "const aVeryLongIdentifierNameFromTheCodebase{} = useMemoizedSelectorForTheDashboard{}();",
        r.mixed(&alnum(), 6),
        r.pick(DIGITS, 3)
    ));
    v
}

/// A line of minified JavaScript: short names, string tables, a source map comment.
fn minified(r: &mut Rng) -> String {
    let mut s = String::from("!function(e,t){\"use strict\";var n=");
    for k in 0..40 {
        s.push_str(&format!(
            "e.{}=function(a,b){{return a[{k}]^b.{}}},",
            r.pick(LOWER, 2),
            r.pick(LOWER, 3)
        ));
    }
    s.push_str(&format!(
        "t.k=\"{}\";}}(this);\n//# sourceMappingURL=data:application/json;base64,{}",
        r.mixed(&alnum(), 12),
        b64_encode(&r.bytes(120), false)
    ));
    s
}
