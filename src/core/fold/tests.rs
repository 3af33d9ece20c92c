//! The fold table against the Unicode data it is generated from, and folding of each spelling.

use super::*;
use crate::core::is_unusual_space;
use crate::core::unicode::is_space_separator;
use std::sync::LazyLock;
use unicode_normalization::UnicodeNormalization;

/// A non-ASCII character's folded form from the Unicode data, when folding changes it and the
/// result is all ASCII (the table's rule; hidden characters are removed by the code, not listed).
fn fold_from_data(c: char) -> Option<String> {
    if c.is_ascii() || is_hidden(c) {
        return None;
    }
    if is_space_separator(c) || is_unusual_space(c) {
        return Some(" ".to_string());
    }
    let mut out = String::new();
    let mut buf = [0; 4];
    for d in std::iter::once(c).nfkc() {
        if d.is_ascii() {
            out.push(d);
            continue;
        }
        // The confusables' prototype of one character (UTS #39's skeleton of it alone).
        let proto: String = unicode_security::skeleton(d.encode_utf8(&mut buf)).collect();
        if proto.is_empty() || !proto.is_ascii() {
            return None;
        }
        out.push_str(&proto);
    }
    let printable = out.bytes().all(|b| (0x20..0x7F).contains(&b));
    (printable && !out.is_empty()).then_some(out)
}

fn generate() -> String {
    let mut out = String::from(
        "# The fold table of src/core/fold.rs: each non-ASCII character that folds to ASCII text,\n\
         # as `XXXX \"text\"`. Generated from the Unicode data of the unicode-normalization and\n\
         # unicode-security crates; do not edit: `cargo test --lib core::fold` writes a new one\n\
         # beside it as table.txt.new when it differs\n",
    );
    for c in (0x80..=0x10FFFF).filter_map(char::from_u32) {
        if let Some(f) = fold_from_data(c) {
            out.push_str(&format!("{:04X} \"{f}\"\n", c as u32));
        }
    }
    out
}

#[test]
fn the_table_is_generated_from_unicode_data() {
    let want = generate();
    if let Err(stale) = crate::core::reviewed::compare("src/core/fold/table.txt", &want) {
        panic!("{stale}");
    }
    assert_eq!(
        FOLDS.len(),
        want.lines().filter(|l| !l.starts_with('#')).count()
    );
    assert!(FOLDS.windows(2).all(|w| w[0].0 < w[1].0), "sorted");
}

fn folded(text: &str) -> String {
    match fold(text.as_bytes()) {
        Some(f) => String::from_utf8(f.text).unwrap(),
        None => text.to_string(),
    }
}

#[test]
fn each_spelling_folds_to_the_ascii_phrase() {
    for (spelled, plain) in [
        ("ignore\u{2800}all", "ignore all"),
        ("ignore\u{A0}all", "ignore all"),
        ("ignore\u{2003}all", "ignore all"),
        ("\u{456}gnore", "ignore"), // Cyrillic і
        ("\u{FF49}\u{FF47}\u{FF4E}\u{FF4F}\u{FF52}\u{FF45}", "ignore"), // fullwidth
        (
            "\u{1D422}\u{1D420}\u{1D427}\u{1D428}\u{1D42B}\u{1D41E}",
            "ignore",
        ), // mathematical bold
        ("ig\u{AD}nore", "ignore"), // soft hyphen removed
        ("ig\u{200B}nore", "ignore"), // zero-width space removed
        ("\u{FB01}x", "fix"),       // ligature
        ("\u{FF5C} sh", "| sh"),    // fullwidth vertical line
        ("rm \u{2013}rf", "rm -rf"), // en dash
        ("don\u{2019}t", "don't"),
    ] {
        assert_eq!(folded(spelled), plain, "{spelled:?}");
    }
}

#[test]
fn ascii_is_never_remapped_and_kept_text_is_not_copied() {
    // The confusables map `|` to `l` and `0` to `O`: folding leaves ASCII alone.
    assert_eq!(fold(b"| sh 0 1 rn"), None);
    // Characters that do not fold to ASCII are kept, and a text of only those is not copied.
    assert_eq!(fold("café — 日本語のテキスト、中文".as_bytes()), None);
    assert_eq!(folded("é\u{2800}"), "é ");
    // Control: a hidden ASCII control is removed.
    assert_eq!(folded("a\u{7}b"), "ab");
}

#[test]
fn a_folded_span_is_located_as_written() {
    let text = "x \u{456}gn\u{AD}ore\u{2800}y \u{FB01}";
    let f = fold(text.as_bytes()).unwrap();
    let s = String::from_utf8(f.text.clone()).unwrap();
    assert_eq!(s, "x ignore y fi");
    // "ignore " in the folded text is "іgn\u{AD}ore\u{2800}" as written.
    assert_eq!(f.written_span(2, 9), Span::new(2, 14));
    assert_eq!(&text[2..14], "\u{456}gn\u{AD}ore\u{2800}");
    // Half of a ligature is the whole ligature as written.
    assert_eq!(f.written_span(12, 13), Span::new(16, 19));
    // A byte that is not UTF-8 is kept, at its place.
    let raw = b"\xff\xc2\xa0a";
    let f = fold(raw).unwrap();
    assert_eq!(f.text, b"\xff a");
    assert_eq!(f.written_span(1, 3), Span::new(1, 4));
}

/// A character's form with its marks dropped (the marks table's rule), for a character the main
/// table keeps: NFKD, marks of category Mn dropped, a LATIN LETTER SMALL CAPITAL read as its
/// letter, each remaining non-ASCII character mapped to its confusable prototype; all ASCII, or
/// empty for a mark alone.
fn marks_from_data(c: char) -> Option<String> {
    static MN: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(r"^\p{Mn}$").unwrap());
    if c.is_ascii() || is_hidden(c) || fold_from_data(c).is_some() {
        return None;
    }
    let mut buf = [0; 4];
    let mut out = String::new();
    for d in std::iter::once(c).nfkd() {
        if MN.is_match(d.encode_utf8(&mut buf)) {
            continue;
        }
        if d.is_ascii() {
            out.push(d);
            continue;
        }
        let name = unicode_names2::name(d)
            .map(|n| n.to_string())
            .unwrap_or_default();
        if let Some(letter) = name.strip_prefix("LATIN LETTER SMALL CAPITAL ")
            && letter.len() == 1
        {
            out.push_str(&letter.to_lowercase());
            continue;
        }
        let proto: String = unicode_security::skeleton(d.encode_utf8(&mut buf)).collect();
        if proto.is_empty() || !proto.is_ascii() {
            return None;
        }
        out.push_str(&proto);
    }
    let printable = out.bytes().all(|b| (0x20..0x7F).contains(&b));
    let mark_alone = out.is_empty() && MN.is_match(c.encode_utf8(&mut buf));
    (printable && (!out.is_empty() || mark_alone)).then_some(out)
}

fn generate_marks() -> String {
    let mut out = String::from(
        "# The marks table of src/core/fold.rs (fold_marks, for the injection phrases only): each\n\
         # non-ASCII character the fold table keeps that folds to ASCII text with its combining\n\
         # marks dropped, as `XXXX \"text\"`. Generated from the Unicode data of the\n\
         # unicode-normalization, unicode-security and unicode_names2 crates; do not edit:\n\
         # `cargo test --lib core::fold` writes a new one beside it as marks.txt.new when it differs\n",
    );
    for c in (0x80..=0x10FFFF).filter_map(char::from_u32) {
        if let Some(f) = marks_from_data(c) {
            out.push_str(&format!("{:04X} \"{f}\"\n", c as u32));
        }
    }
    out
}

#[test]
fn the_marks_table_is_generated_from_unicode_data() {
    let want = generate_marks();
    if let Err(stale) = crate::core::reviewed::compare("src/core/fold/marks.txt", &want) {
        panic!("{stale}");
    }
    assert_eq!(
        MARKS.len(),
        want.lines().filter(|l| !l.starts_with('#')).count()
    );
    assert!(MARKS.windows(2).all(|w| w[0].0 < w[1].0), "sorted");
}

#[test]
fn marks_fold_for_phrases_only() {
    let marks = |t: &str| match fold_marks(t.as_bytes()) {
        Some(f) => String::from_utf8(f.text).unwrap(),
        None => t.to_string(),
    };
    assert_eq!(marks("pr\u{E9}vious"), "previous");
    assert_eq!(marks("pre\u{301}vious"), "previous");
    assert_eq!(marks("I\u{307}gnore"), "Ignore");
    assert_eq!(
        marks("\u{26A}\u{262}\u{274}\u{1D0F}\u{280}\u{1D07}"),
        "ignore"
    );
    assert_eq!(
        marks("\u{456}gn\u{F3}re"),
        "ignore",
        "with the main table's folds"
    );
    // Controls: the main fold keeps accents (the shell set reads it), ASCII is never remapped.
    assert_eq!(folded("sud\u{F3} "), "sud\u{F3} ");
    assert_eq!(fold_marks(b"| sh 0 1 rn"), None);
    assert_eq!(marks("日本語"), "日本語");
}
