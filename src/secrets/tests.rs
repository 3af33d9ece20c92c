//! The redaction tests, over the corpus of tests/data/secrets/corpus.toml (expanded at run
//! time by `corpus/`, so no secret scanner flags this repository).

use super::corpus::{self, Case, Rng};
use super::*;
use crate::core::Span;

fn positives() -> Vec<Case> {
    corpus::positives()
}

fn jwt(r: &mut Rng, header: &str) -> String {
    corpus::jwt(r, header)
}

/// A template of the corpus's generators, expanded.
fn expanded(r: &mut Rng, template: &str) -> String {
    corpus::expand(r, template).expect("a valid template")
}

#[test]
fn every_positive_is_found_with_its_kind_and_span() {
    let ids: Vec<&str> = kinds().iter().map(|k| k.id).collect();
    let mut wrong = Vec::new();
    for p in positives() {
        let kind = p.kind.as_deref().expect("a positive has a kind");
        assert!(ids.contains(&kind), "{kind} is not listed by kinds()");
        let r = redact(&p.text);
        let at = p.text.find(&p.secret).expect("the secret is in its text");
        let want = vec![(kind, Span::new(at, at + p.secret.len()))];
        let got: Vec<(&str, Span)> = r.matches.iter().map(|m| (m.kind, m.span)).collect();
        if got != want {
            wrong.push(format!("{kind} in {:?}: {:?}", p.text, r.matches));
            continue;
        }
        let text = p.text.replacen(&p.secret, &format!("[REDACTED:{kind}]"), 1);
        assert_eq!(r.text, text);
        assert_eq!(first_match(&p.text), r.matches.first().copied());
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A checksum raises confidence and never gates: a token of exact prefix and shape whose CRC32
/// tail does not hold is found, without the `verified` evidence.
#[test]
fn checksums_are_evidence_not_a_gate() {
    let r = &mut Rng(5);
    for prefix in ["ghp_", "gho_", "npm_"] {
        let good = format!("{prefix}{}", corpus::crc_body(r, false));
        let bad = format!("{prefix}{}", corpus::crc_body(r, true));
        let m = first_match(&good).expect("a token with its checksum");
        assert!(m.verified, "{good}");
        let m = first_match(&bad).expect("a token whose checksum fails");
        assert!(!m.verified, "{bad}");
        assert_eq!(m.span, Span::new(0, bad.len()));
    }
    // control: a JWT is found by its header, with no checksum to verify
    let t = jwt(r, r#"{"alg":"HS256","typ":"JWT"}"#);
    assert!(!first_match(&t).expect("a JWT").verified);
}

/// The families of `families` without a positive case and two near misses in `all`.
fn thin_families<'a>(all: &[Case], families: &[&'a str]) -> Vec<&'a str> {
    let count = |f: &str, positive: bool| {
        all.iter()
            .filter(|c| c.family == f && c.kind.is_some() == positive)
            .count()
    };
    families
        .iter()
        .copied()
        .filter(|f| count(f, true) < 1 || count(f, false) < 2)
        .collect()
}

#[test]
fn every_family_has_positives_and_near_misses() {
    let all = corpus::all();
    let families: std::collections::BTreeSet<&str> = kinds().iter().map(|k| k.family).collect();
    let families: Vec<&str> = families.into_iter().collect();
    assert_eq!(thin_families(&all, &families), Vec::<&str>::new());
    assert!(families.len() >= 33, "{} families", families.len());
    // control: with the near misses left out, every family is reported
    let positives: Vec<Case> = all.into_iter().filter(|c| c.kind.is_some()).collect();
    assert_eq!(thin_families(&positives, &families), families);
}

/// The corpus's rows are held to their two shapes and its generators to their names.
#[test]
fn a_malformed_corpus_row_is_refused() {
    let row = |fields: &str| {
        format!("[[group]]\nname = \"g\"\ncase = [ {{ family = \"f\", {fields} }} ]\n")
    };
    let good = corpus::parse(&row(r#"kind = "k", secret = "s⟨pick hex 4⟩""#)).expect("a positive");
    assert_eq!(
        (good[0].secret.len(), good[0].kind.as_deref()),
        (5, Some("k"))
    );
    assert_eq!(corpus::parse(&row(r#"text = "t""#)).map(|c| c.len()), Ok(1));
    // controls: a row of both shapes, of neither, with an unknown generator or an open ⟨
    for bad in [
        r#"kind = "k", secret = "s", text = "t""#,
        r#"before = "b""#,
        r#"text = "⟨shuffle hex 4⟩""#,
        r#"text = "⟨pick hex 4""#,
        r#"text = "t", colour = "red""#,
    ] {
        assert!(corpus::parse(&row(bad)).is_err(), "{bad}");
    }
}

#[test]
fn the_corpus_exports_one_file_a_case() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let n = corpus::export(dir.path()).expect("the corpus is written");
    assert_eq!(n, corpus::all().len());
    let manifest: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("manifest.json")).expect("the manifest"),
    )
    .expect("the manifest is JSON");
    let first = &manifest[0];
    let text = std::fs::read_to_string(dir.path().join(first["file"].as_str().expect("a file")))
        .expect("the case file");
    assert!(text.contains(first["secret"].as_str().expect("a secret")));
}

#[test]
fn several_secrets_are_all_replaced_in_order() {
    let corpus = positives();
    let text = corpus
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join("\n---\n");
    let r = redact(&text);
    assert_eq!(r.matches.len(), corpus.len());
    assert!(
        r.matches
            .windows(2)
            .all(|w| w[0].span.end <= w[1].span.start)
    );
    for (m, p) in r.matches.iter().zip(&corpus) {
        assert_eq!(Some(m.kind), p.kind.as_deref());
        assert_eq!(&text[m.span.start..m.span.end], p.secret);
    }
    assert_eq!(first_match(&text), r.matches.first().copied());
    for p in &corpus {
        assert!(
            !r.text.contains(&p.secret),
            "{:?} survived redaction",
            p.kind
        );
    }
}

#[test]
fn a_specific_kind_wins_over_a_generic_one() {
    let r = &mut Rng(7);
    let key = format!("ghp_{}", corpus::crc_body(r, false));
    let text = format!("GITHUB_TOKEN=\"{key}\"");
    assert_eq!(redact(&text).text, "GITHUB_TOKEN=\"[REDACTED:github-pat]\"");
    let t = jwt(r, r#"{"alg":"HS256","typ":"JWT"}"#);
    let text = format!("Authorization: Bearer {t}");
    assert_eq!(redact(&text).text, "Authorization: Bearer [REDACTED:jwt]");
}

#[test]
fn anchors_sit_at_word_boundaries() {
    let r = &mut Rng(11);
    let tail = expanded(r, "⟨mixed alnum 48⟩");
    // control: the same tail after a space is a key
    assert_eq!(
        first_match(&format!("use sk-{tail}")).map(|m| m.kind),
        Some("openai-api-key")
    );
    for inside in [
        format!("task-brief task-{tail}"),
        format!("ask-{tail}"),
        expanded(r, "xghp_⟨mixed alnum 36⟩"),
        expanded(r, "MAKIA⟨pick base32 16⟩"),
        expanded(r, "ghp_⟨mixed alnum 36⟩X"),
        expanded(r, "AIza⟨mixed url64 35⟩_more"),
    ] {
        assert_eq!(redact(&inside).matches, vec![], "{inside}");
    }
}

#[test]
fn no_near_miss_is_flagged() {
    let mut flagged = Vec::new();
    for case in corpus::all().into_iter().filter(|c| c.kind.is_none()) {
        let text = case.text;
        let r = redact(&text);
        if !r.matches.is_empty() {
            flagged.push(format!("{text:?}: {:?}", r.matches));
            continue;
        }
        assert!(matches!(r.text, Cow::Borrowed(_)));
        assert_eq!(first_match(&text), None);
    }
    assert!(flagged.is_empty(), "{}", flagged.join("\n"));
}

/// The example packs of hippo's page "Writing a pack" (copied into tests/) and the placeholders
/// of this rule's good fixture (the README its `changes/` lays over the good pack) hold no
/// secret (its other good fixture is the good pack changed by a setup, which tests/fixtures.rs
/// runs).
#[test]
fn the_example_packs_hold_no_secret() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = 0;
    for dir in [
        "tests/packs/decision-log",
        "tests/packs/broken",
        "tests/fixtures/redaction/good-placeholders/changes",
    ] {
        for e in walkdir::WalkDir::new(format!("{root}/{dir}")) {
            let e = e.expect("readable example pack");
            if e.file_type().is_file() {
                let bytes = std::fs::read(e.path()).expect("readable example file");
                assert_eq!(matches_bytes(&bytes), vec![], "{}", e.path().display());
                files += 1;
            }
        }
    }
    assert!(
        files >= 21,
        "the example packs went missing ({files} files)"
    );
    // control: the bad fixture's transcript is caught
    let bad = std::fs::read(format!(
        "{root}/tests/fixtures/redaction/bad/changes/tests/cache-store/transcripts/decision-1.jsonl"
    ))
    .expect("the bad fixture");
    assert_eq!(
        first_match_bytes(&bad).map(|m| m.kind),
        Some("aws-access-token")
    );
}

#[test]
fn hostile_input_is_cheap_and_never_panics() {
    // Many anchors back to back, a huge base64 run and invalid UTF-8 around anchors.
    let mut text = String::new();
    for _ in 0..5000 {
        text.push_str("eyJ.eyJ.key=token:secret://@Bearer basic -----BEGIN sk-ant-xoxb- LS0tLS1CRUdJTi LS0tLS1CRUdJTiBQUk :AA 9Q~ SKf Authorization: Token ");
    }
    text.push_str(&"A".repeat(70_000));
    let r = redact(&text);
    assert_eq!(r.matches, vec![]);
    let bytes = [b"\xff\xfeghp_".as_slice(), &[0xC3; 40], b"AKIA\xff"].concat();
    assert_eq!(matches_bytes(&bytes), vec![]);
    // control: a real-shaped key amid invalid bytes is still found
    let r2 = &mut Rng(3);
    let key = format!("ghp_{}", corpus::crc_body(r2, false));
    let bytes = [b"\xff ".as_slice(), key.as_bytes(), b" \xfe"].concat();
    assert_eq!(matches_bytes(&bytes).len(), 1);
}

#[test]
fn secrets_inside_json_transcripts_are_found_and_the_line_stays_json() {
    for p in positives() {
        let line = format!(
            r#"{{"type": "user", "message": {{"role": "user", "content": {}}}}}"#,
            serde_json::to_string(&p.text).expect("a string serializes")
        );
        let r = redact(&line);
        assert_eq!(
            r.matches.iter().map(|m| m.kind).collect::<Vec<_>>(),
            vec![p.kind.as_deref().expect("a positive has a kind")],
            "{line}"
        );
        let v: serde_json::Value = serde_json::from_str(&r.text).expect("still JSON");
        let content = v["message"]["content"].as_str().expect("content");
        assert!(
            content.contains(&format!(
                "[REDACTED:{}]",
                p.kind.as_deref().unwrap_or_default()
            )),
            "{content}"
        );
    }
    // control: the unredacted line holds the secret
    let p = &positives()[0];
    assert!(
        serde_json::to_string(&p.text)
            .unwrap()
            .contains("PRIVATE KEY")
    );
}

const TABLE_START: &str = "<!-- kinds: generated from the detector rows; `cargo test --lib secrets` fails when it is stale and writes the new page beside it as redaction.md.new -->";
const TABLE_END: &str = "<!-- end of the generated kinds table -->";

/// docs/redaction.md's table of every kind, one row per kind as [`kinds`] lists them.
fn kinds_markdown() -> String {
    let mut out =
        format!("{TABLE_START}\n| kind | family | what it matches |\n| --- | --- | --- |\n");
    for k in kinds() {
        let what = k.what.replace('|', "\\|");
        out.push_str(&format!("| `{}` | {} | {what} |\n", k.id, k.family));
    }
    out.push_str(TABLE_END);
    out
}

/// The generated block of `doc` replaced by `table` (None: the markers are missing).
fn with_table(doc: &str, table: &str) -> Option<String> {
    let start = doc.find(TABLE_START)?;
    let end = doc[start..].find(TABLE_END)? + start + TABLE_END.len();
    Some(format!("{}{table}{}", &doc[..start], &doc[end..]))
}

#[test]
fn the_kinds_table_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/redaction.md");
    let doc = std::fs::read_to_string(path).expect("docs/redaction.md");
    let table = kinds_markdown();
    let want = with_table(&doc, &table).expect("docs/redaction.md holds the table's markers");
    if let Err(stale) = crate::core::reviewed::compare("docs/redaction.md", &want) {
        panic!("{stale}");
    }
    // control: every kind is a row, and a table missing one is noticed
    assert_eq!(table.lines().count(), kinds().len() + 4);
    let edited = table.replacen("| `github-pat` |", "| `github-pet` |", 1);
    assert_ne!(with_table(&doc, &edited), Some(doc.clone()));
}

/// The random-looking strings of a coding session that are not secrets: no finding at all.
#[test]
fn realistic_negatives_have_no_finding() {
    let negatives = corpus::group("realistic");
    let flagged: Vec<String> = negatives
        .iter()
        .filter_map(|t| first_match(t).map(|m| format!("{}: {t}", m.kind)))
        .collect();
    assert!(flagged.is_empty(), "{}", flagged.join("\n"));
    assert!(negatives.len() >= 30, "{}", negatives.len());
    // control: the same lines with a key appended are caught, each
    let r = &mut Rng(9);
    let key = format!("ghp_{}", corpus::crc_body(r, false));
    for t in &negatives {
        let m = first_match(&format!("{t} {key}")).map(|m| m.kind);
        assert_eq!(m, Some("github-pat"), "{t}");
    }
}
