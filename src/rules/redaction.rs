//! Redaction: a file that hippo's secret redaction would change (docs/redaction.md).
//!
//! The detectors live in [`crate::secrets`]; this rule asks them for every match of every
//! file. Under `tests/` the file is an error (the case would not mean the same once indexed);
//! elsewhere a warning. One finding per file, at its first match, printed without a position
//! (the page's `tests/.../x.jsonl: redaction would change it (<kind>)`), carrying every secret
//! of the file, masked, for the formats that place each (docs/output-formats.md).
use super::declare::declare_rules;
use crate::core::{Diagnostic, Related, Severity, Span};
use crate::model::decode::View;
use crate::pack::{Pack, PackFile};

declare_rules! {
    /// A file that secret redaction would change
    ///
    /// hippo redacts secrets in transcripts as it indexes them. Under tests/ a file redaction would
    /// change is an error, because it would not mean the same once indexed; elsewhere it is a
    /// warning. The detectors (private keys, cloud and service tokens, JWTs, credentials in URLs
    /// and Authorization headers, and secret-named assignments of random-looking literals) carry
    /// gitleaks' rule names; the kind is in the message.
    ///
    /// How to fix: Replace the secret-looking text with a placeholder such as YOUR_API_KEY, <token>
    /// or ${TOKEN}; if the text is not a secret, report the false positive (see docs/redaction.md).
    /// If the key was ever committed, revoke it with its provider: it stays in the repository's
    /// history after the file is fixed.
    pub(crate) static REDACTION = "redaction", Error, High, rank = 630, error_rank = 175, security_severity = "7.5";
}

/// The kinds a finding's message names, one a line (`<kind>  <family>  <what it matches>`), for
/// `hippo-packs rules redaction`.
pub(crate) fn kinds_text() -> String {
    let kinds = crate::secrets::kinds();
    let id = kinds.iter().map(|k| k.id.len()).max().unwrap_or(0);
    let family = kinds.iter().map(|k| k.family.len()).max().unwrap_or(0);
    let mut out = String::from("Kinds (the name in parentheses; docs/redaction.md):\n");
    for k in &kinds {
        out.push_str(&format!(
            "  {:id$}  {:family$}  {}\n",
            k.id, k.family, k.what
        ));
    }
    out
}

/// The redaction rule alone over every file (`check` runs it in [`super::file_scan`], with the other
/// byte scans), each file's decoded strings read by the model for it
/// (`model::Documents::decoded`).
pub fn check(pack: &Pack, out: &mut Vec<Diagnostic>) {
    let docs = crate::model::Documents::decoded(pack);
    for (i, f) in pack.files().iter().enumerate() {
        check_file(f, docs.view(i), out);
    }
}

/// The redaction finding of one file, if any. `view` is its decoded text when it has one: a
/// secret spelled with escapes is the secret, found at the bytes as written.
/// What a file's messages must never quote whole: each secret's text (decoded) and each run
/// beside one (as written), with the masked form that replaces it.
pub(crate) type Masks = Vec<(String, String)>;

/// The redaction finding of one file, if it holds a secret; returns the texts its other findings'
/// messages must show masked ([`mask_messages`]).
pub(crate) fn check_file(f: &PackFile, view: Option<&View>, out: &mut Vec<Diagnostic>) -> Masks {
    // Files read whole only; the bytes need not be UTF-8 (every detector matches ASCII).
    if !f.complete {
        return Masks::new();
    }
    let hay = view.map_or(f.bytes.as_slice(), |v| v.text.as_bytes());
    let matches = crate::secrets::matches_bytes(hay);
    let Some(first) = matches.first() else {
        return Masks::new();
    };
    let mut masks = Masks::new();
    let mut secrets = matches
        .iter()
        .map(|m| {
            let text = String::from_utf8_lossy(&hay[m.span.start..m.span.end]);
            let span = view.map_or(m.span, |v| v.raw_span(m.span));
            let mut secret = secret(m.kind, span, &text);
            secret.evidence = m.verified.then_some("verified-shape");
            masks.push((text.into_owned(), secret.label.clone()));
            secret
        })
        .collect::<Vec<_>>();
    let spans: Vec<Span> = secrets.iter().map(|s| s.span).collect();
    for s in &mut secrets {
        for run in beside(&f.bytes, s.span, &spans) {
            let text = String::from_utf8_lossy(&f.bytes[run.start..run.end]).into_owned();
            let shown = format!("{}\u{2026}", &text[..4]);
            masks.push((text, shown.clone()));
            s.masks.push((run, shown));
        }
    }
    masks.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.cmp(b)));
    masks.dedup();
    let mut d = Diagnostic::key(
        &REDACTION,
        &f.path,
        secrets[0].span,
        format!("redaction would change it ({})", first.kind),
    );
    // A checksum that holds is evidence, never the condition (docs/redaction.md).
    d.evidence = secrets[0].evidence;
    let d = d.with_related(secrets);
    out.push(if f.in_tests() {
        d
    } else {
        d.with_severity(Severity::Warning)
    });
    masks
}

/// A secret of a file as a related place of its redaction finding: a finding of its own (the
/// formats that place findings place each secret), never shown whole.
pub(crate) fn secret(kind: &'static str, span: Span, text: &str) -> Related {
    let label = masked(kind, text);
    Related {
        span,
        region: Default::default(),
        fingerprint: None,
        kind,
        finding: Some(format!("redaction would change it ({kind})")),
        evidence: None,
        masks: vec![(span, label.clone())],
        label,
        identity: digest(text),
        baseline: None,
    }
}

/// A secret as every format shows it: its first four characters (any but a visible ASCII one as
/// `U+XXXX`), an ellipsis and its kind in brackets, `ghp_…[github-pat]`. `secret` is the
/// secret's text, decoded when the file spells it with escapes.
pub(crate) fn masked(kind: &str, secret: &str) -> String {
    let shown = |c: char| match c.is_ascii_graphic() {
        true => c.to_string(),
        false => format!("U+{:04X}", c as u32),
    };
    let head: String = secret.chars().take(4).map(shown).collect();
    format!("{head}\u{2026}[{kind}]")
}

/// A digest of a secret's text, which tells two secrets of one kind apart in a review.
fn digest(secret: &str) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(secret, &mut hasher);
    std::hash::Hasher::finish(&hasher)
}

/// The shortest run beside a secret that is masked: a key's undetected half (an AWS secret
/// access key beside its detected id) is longer.
const RUN: usize = 16;

/// The characters of the token alphabets: letters, digits and base64's and base64url's `+`,
/// `/`, `=`, `-`, `_`.
fn token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_')
}

/// The runs of [`RUN`] or more token-alphabet characters on the lines `secret` covers, outside
/// every secret of the file (`secrets`): shown masked wherever the line is (docs/redaction.md).
fn beside(bytes: &[u8], secret: Span, secrets: &[Span]) -> Vec<Span> {
    let end = secret.end.min(bytes.len());
    let first = bytes[..secret.start.min(end)]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let last = bytes[end..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| end + i);
    let in_secret = |i: usize| secrets.iter().any(|s| s.start <= i && i < s.end);
    let mut out = Vec::new();
    let mut i = first;
    while i < last {
        if !token_char(bytes[i]) || in_secret(i) {
            i += 1;
            continue;
        }
        let start = i;
        while i < last && token_char(bytes[i]) && !in_secret(i) {
            i += 1;
        }
        if i - start >= RUN {
            out.push(Span::new(start, i));
        }
    }
    out
}

/// Every secret text and every run beside a secret that `findings`' messages quote, masked: a
/// quote from a line holding a secret never shows it, nor its undetected half.
pub(crate) fn mask_messages(masks: &Masks, findings: &mut [Diagnostic]) {
    if masks.is_empty() {
        return;
    }
    for d in findings {
        for (text, shown) in masks {
            if d.message.contains(text.as_str()) {
                d.message = d.message.replace(text.as_str(), shown);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `text` that list the kind `id`.
    fn listings(text: &str, id: &str) -> usize {
        text.lines()
            .filter(|l| l.trim_start().starts_with(&format!("{id} ")))
            .count()
    }

    #[test]
    fn kinds_are_listed_once_each() {
        let text = kinds_text();
        for id in [
            "private-key",
            "github-pat",
            "pypi-upload-token",
            "generic-api-key",
        ] {
            assert_eq!(listings(&text, id), 1, "{id} in\n{text}");
        }
        assert!(text.lines().count() > 60);
        // control: a kind listed twice, or not at all, is counted so
        assert_eq!(
            listings(&format!("{text}  github-pat again\n"), "github-pat"),
            2
        );
        assert_eq!(listings(&text, "github"), 0);
    }
    use crate::core::Span;
    use crate::pack::testing::bytes_pack;

    /// An access key id of the right shape, built at run time.
    fn key() -> String {
        format!("{}{}", "AKIA", "Q7RZ2MNB4XK5WP3T")
    }

    #[test]
    fn runs_beside_a_secret_on_its_line_are_masked_too() {
        let half = "Xq9vL2mT8kR4wZ7nB3cY6pD1fH5jG0sA";
        let text = format!(
            "intro {half}\nkey {} {half} short123456789a end\nnext {half}\n",
            key()
        );
        let p = bytes_pack(&[("prompts/p.md", text.clone().into_bytes(), true)]);
        let mut out = Vec::new();
        let f = &p.files()[0];
        let masks = check_file(f, None, &mut out);
        let line = text.find("key ").unwrap();
        let at = text[line..].find(half).unwrap() + line;
        // Only the run on the secret's line; a run of 15 is left, as are the other lines.
        assert_eq!(
            out[0].related[0].masks[1..],
            [(Span::new(at, at + half.len()), "Xq9v\u{2026}".to_string())]
        );
        assert!(masks.iter().any(|(t, m)| t == half && m == "Xq9v\u{2026}"));
        assert!(masks.iter().any(|(t, _)| *t == key()));
        // A message quoting the line shows neither whole; control: one quoting other text
        // stays as it is.
        let mut quotes = vec![
            Diagnostic::file(
                &REDACTION,
                "prompts/p.md",
                format!("text \"{} {half}\"", key()),
            ),
            Diagnostic::file(&REDACTION, "prompts/p.md", "text \"short123456789a\""),
        ];
        mask_messages(&masks, &mut quotes);
        assert_eq!(
            quotes[0].message,
            "text \"AKIA\u{2026}[aws-access-token] Xq9v\u{2026}\""
        );
        assert_eq!(quotes[1].message, "text \"short123456789a\"");
    }

    #[test]
    fn error_under_tests_warning_elsewhere_one_per_file_at_the_first_match() {
        let transcript = format!(
            "{{\"synthetic\": true}}\n{{\"text\": \"key {} and ghp_{}\"}}\n",
            key(),
            "Zk3".repeat(12)
        );
        let prompt = format!("Use {} here and {} there.\n", key(), key());
        let p = bytes_pack(&[
            ("prompts/p.md", prompt.clone().into_bytes(), true),
            (
                "tests/c/transcripts/x.jsonl",
                transcript.clone().into_bytes(),
                true,
            ),
            (
                "tests/c/notes/clean.md",
                b"Decision: use SQLite.\n".to_vec(),
                true,
            ),
            ("README.md", b"Set api_key = YOUR_API_KEY.\n".to_vec(), true),
        ]);
        let mut out = Vec::new();
        check(&p, &mut out);
        assert_eq!(out.len(), 2, "{out:?}");
        let w = &out[0];
        assert_eq!(w.severity, Severity::Warning);
        assert_eq!(
            w.text(""),
            "prompts/p.md: redaction would change it (aws-access-token)"
        );
        let at = prompt.find("AKIA").unwrap();
        assert_eq!(w.span, Some(Span::new(at, at + 20)));
        // Every secret of the file is carried, masked; the text line names the file once.
        let masked: Vec<&str> = w.related.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(masked, ["AKIA\u{2026}[aws-access-token]"; 2]);
        assert_eq!(w.related[1].span.start, prompt.rfind("AKIA").unwrap());
        assert!(!w.text("").contains(&key()), "control: never the key whole");
        let e = &out[1];
        assert_eq!(e.severity, Severity::Error);
        assert_eq!(
            e.text("pk/"),
            "pk/tests/c/transcripts/x.jsonl: redaction would change it (aws-access-token)"
        );
        let at = transcript.find("AKIA").unwrap();
        assert_eq!(e.span, Some(Span::new(at, at + 20)));
    }

    /// A GitHub token whose CRC32 tail holds carries `verified-shape`; one whose tail does not
    /// is reported all the same, without it.
    #[test]
    fn a_checksum_is_evidence_on_the_finding() {
        let random = "Zq8Vn3Lr0Tw5Ke7Hb2Yd4Pm6Xs9Ca1";
        let crc = crc32fast::hash(random.as_bytes());
        let tail: String = (0..6)
            .rev()
            .map(|k| {
                let digits = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
                digits[(crc / 62u32.pow(k) % 62) as usize] as char
            })
            .collect();
        let good = format!("ghp_{random}{tail}");
        let bad = format!("ghp_{random}{}", "Qx7Rt2");
        let p = bytes_pack(&[
            ("tests/c/notes/good.md", good.into_bytes(), true),
            ("tests/c/notes/made-up.md", bad.into_bytes(), true),
        ]);
        let mut out = Vec::new();
        check(&p, &mut out);
        let evidence: Vec<_> = out
            .iter()
            .map(|d| (d.subject.as_deref(), d.evidence))
            .collect();
        assert_eq!(
            evidence,
            [
                (Some("tests/c/notes/good.md"), Some("verified-shape")),
                (Some("tests/c/notes/made-up.md"), None),
            ]
        );
    }

    #[test]
    fn invalid_utf8_is_scanned_and_partial_files_are_not() {
        let mut bytes = b"\xff\xfe ".to_vec();
        bytes.extend_from_slice(key().as_bytes());
        let p = bytes_pack(&[
            ("tests/c/notes/a.md", bytes.clone(), true),
            ("tests/c/notes/b.md", bytes, false),
        ]);
        let mut out = Vec::new();
        check(&p, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].subject.as_deref(), Some("tests/c/notes/a.md"));
    }

    #[test]
    fn a_clean_pack_has_no_finding() {
        let p = bytes_pack(&[
            (
                "prompts/p.md",
                b"Respect the token budget; never print a password field.\n".to_vec(),
                true,
            ),
            (
                "tests/c/transcripts/x.jsonl",
                b"{\"synthetic\": true}\n".to_vec(),
                true,
            ),
        ]);
        let mut out = Vec::new();
        check(&p, &mut out);
        assert!(out.is_empty(), "{out:?}");
    }
}
