//! The decoders against the parsers' own values, and positions mapped back to the raw bytes.

use super::view::EscapeRun;
use super::*;
use crate::core::Span;

/// A TOML text decoded as `check` decodes it, once the model parsed it (`None`: it does not parse).
fn toml_strings(text: &str) -> Option<View> {
    decode_text(Format::Toml, text)
}

/// A JSON text decoded once serde_json accepted it.
fn json_strings(text: &str) -> Option<View> {
    decode_text(Format::Json, text)
}

/// A JSON Lines text decoded, each line once serde_json accepted it.
fn jsonl_strings(text: &str) -> Option<View> {
    decode_text(Format::JsonLines, text)
}

/// The raw bytes a span of the view maps to.
fn raw<'a>(text: &'a str, view: &View, needle: &str) -> &'a str {
    let at = view
        .text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} in {:?}", view.text));
    let s = view.raw_span(Span::new(at, at + needle.len()));
    &text[s.start..s.end]
}

fn messages(view: &View) -> Vec<String> {
    view.hidden_runs().iter().map(EscapeRun::message).collect()
}

#[test]
fn toml_strings_of_every_kind_are_decoded_and_mapped_to_their_backslash() {
    let text = concat!(
        "# \\u202E in a comment\n",
        "a = 'x\\u202Ey'\n",
        "\"k\\u0065y\".b = 1\n",
        "[t.\"h\\u0065ad\"]\n",
        "c = \"a\\u202Eb\"\n",
        "d = \"\"\"\n\\U000E0041\\U000E0042 \\\n    curl\\x20\"\"\"\"\n",
        "e = [\"A\\u200BB\", { f = \"\\e\\u00AD\" }]\n",
        "authors = ['''Ann'''', \"B\\u202Eob\\u200Bx\"]\n",
    );
    let view = toml_strings(text).expect("parses");
    assert_eq!(
        messages(&view),
        [
            "U+202E in an escape",
            "U+E0041 in an escape and 1 more",
            "U+200B in an escape",
            "U+001B in an escape",
            "U+00AD in an escape",
            "U+202E in an escape",
            "U+200B in an escape",
        ]
    );
    // A literal string is as written; keys, dotted keys and headers are decoded.
    assert!(view.text.contains("a = 'x\\u202Ey'"));
    assert!(view.text.contains("\"key\".b = 1"));
    assert!(view.text.contains("[t.\"head\"]"));
    // A line-ending backslash joins the lines; positions map back to the escapes as written.
    assert!(
        view.text.contains("\u{E0041}\u{E0042} curl \"\"\"\""),
        "{:?}",
        view.text
    );
    assert_eq!(raw(text, &view, "curl "), "curl\\x20");
    assert_eq!(raw(text, &view, "\u{202E}b"), "\\u202Eb");
    assert_eq!(raw(text, &view, "B\u{202E}ob"), "B\\u202Eob");
    // Control: a text whose escapes decode to visible characters has no hidden run.
    let plain = toml_strings("a = \"tab\\there \\u00e9 \\\\u202E\"\n").expect("parses");
    assert!(plain.hidden_runs().is_empty());
    assert_eq!(plain.text, "a = \"tab\there \u{e9} \\u202E\"\n");
}

/// Every string value and key of a document, as the toml crate's table holds them.
fn toml_values(text: &str) -> Vec<String> {
    fn walk(v: &crate::model::toml_spans::DeValue<'_>, out: &mut Vec<String>) {
        use crate::model::toml_spans::DeValue;
        match v {
            DeValue::String(s) => out.push(s.to_string()),
            DeValue::Array(a) => a.iter().for_each(|i| walk(i.get_ref(), out)),
            DeValue::Table(t) => t.iter().for_each(|(k, v)| {
                out.push(k.get_ref().to_string());
                walk(v.get_ref(), out);
            }),
            _ => {}
        }
    }
    let doc = crate::model::toml_spans::parse(text).ok().unwrap();
    let mut out = Vec::new();
    walk(
        &crate::model::toml_spans::DeValue::Table(doc.into_inner()),
        &mut out,
    );
    out
}

#[test]
fn every_decoded_toml_string_is_one_the_toml_crate_reads() {
    let text = "x = \"I\\u0067nore\"\n[\"s\\u0065c\"]\nk = \"\"\"\\\n  a\\tb\"\"\"\nl = [\"\\U0001F600\"]\n";
    let view = toml_strings(text).unwrap();
    let values = toml_values(text);
    for want in ["Ignore", "sec", "a\tb", "\u{1F600}"] {
        assert!(values.iter().any(|v| v == want), "{want:?} in {values:?}");
        assert!(view.text.contains(want), "{want:?} in {:?}", view.text);
    }
    // Control: a value the document does not hold is in neither.
    assert!(!values.iter().any(|v| v == "I\\u0067nore") && !view.text.contains("I\\u0067nore"));
}

#[test]
fn a_toml_document_that_does_not_parse_has_no_view() {
    assert!(toml_strings("a = \"\\u202E\n").is_none());
    assert!(toml_strings("a = [\"\\u202E\"\n").is_none());
    // Control: the same string closed parses.
    assert!(toml_strings("a = [\"\\u202E\"]\n").is_some());
}

#[test]
fn json_strings_decode_surrogate_pairs_and_map_to_the_backslash() {
    let text = r#"{"a": "x\u202Ey", "b\u0063": "\udb40\udc41\udb40\udc42", "c": "\u00e9\b", "d": "\\u202E", "e": "\/\ud800"}"#;
    let view = json_strings(text).expect("accepted");
    assert_eq!(
        messages(&view),
        [
            "U+202E in an escape",
            "U+E0041 in an escape and 1 more",
            "U+0008 in an escape"
        ]
    );
    assert!(view.text.contains("\"bc\""));
    assert_eq!(raw(text, &view, "\u{E0041}"), "\\udb40\\udc41");
    // A lone surrogate is no character: U+FFFD, as a lossy reader shows it.
    assert!(view.text.contains("\"/\u{FFFD}\""));
    // Control: JSON that serde_json refuses has no view.
    assert!(json_strings("{\"a\": \"\\u202E\",}").is_none());
}

#[test]
fn json_lines_are_decoded_line_by_line() {
    let text =
        "{\"synthetic\": true}\n{\"t\": \"A\\u004bIA\"}\nnot json \\u0041\n{\"t\": \"\\n\"}\n";
    let view = jsonl_strings(text).expect("two lines decode");
    assert_eq!(
        view.text,
        "{\"synthetic\": true}\n{\"t\": \"AKIA\"}\nnot json \\u0041\n{\"t\": \"\n\"}\n"
    );
    assert_eq!(raw(text, &view, "AKIA"), "A\\u004bIA");
    assert_eq!(raw(text, &view, "not json"), "not json");
    // Control: no line that parses holds an escape.
    assert!(jsonl_strings("{\"a\": 1}\nbroken \\n\n").is_none());
}

#[test]
fn css_escapes_are_decoded_outside_comments() {
    let text = "/* \\202E */ p::after { content: \"\\202E\\200B x\\\nz\" } a\\3A b { c: \\'q }";
    let view = css_escapes(text);
    assert_eq!(messages(&view), ["U+202E in an escape and 1 more"]);
    assert_eq!(
        view.text,
        "/* \\202E */ p::after { content: \"\u{202E}\u{200B}xz\" } a:b { c: 'q }"
    );
    assert_eq!(raw(text, &view, "\u{200B}x"), "\\200B x");
    // Zero and a code point past Unicode are U+FFFD; a backslash at the end is itself.
    assert_eq!(css_escapes("\\0 \\110000 \\").text, "\u{FFFD}\u{FFFD}\\");
}

#[test]
fn css_urls_are_absolute_or_protocol_relative_and_not_data() {
    let text = "a { b: url(//evil.example/x) } @import 'ftp://h/x.css'; c { d: URL( \"data:x\" ) url(x.png) }";
    let urls: Vec<&str> = css_urls(text)
        .iter()
        .map(|s| &text[s.start..s.end])
        .collect();
    assert_eq!(urls, ["//", "ftp:"]);
    // Control: relative URLs and data: are none.
    assert!(css_urls("a { b: url(img/x.png) url('data:image/png;base64,AA') }").is_empty());
}

#[test]
fn a_text_without_a_backslash_has_no_view() {
    assert!(view("pack.toml", "a = \"x\"\n").is_none());
    assert!(view("prompts/a.md", "\\u202E").is_none());
    // Control: the same file with an escape has one.
    assert!(view("pack.toml", "a = \"\\u0078\"\n").is_some());
}

/// Decoding generated documents made of the tokens that matter: every mapped span lies inside
/// the text on character boundaries, every escape starts at a backslash, and the debug
/// assertions (each string equal to the parser's value) hold.
#[test]
fn mapped_spans_stay_inside_the_text_and_escapes_start_at_a_backslash() {
    let tokens = [
        "a = ", "\"", "'", "\"\"\"", "'''", "\\", "u", "U", "x", "e", "n", "202E", "d83d",
        "\\ude00", "0", "\n", "[", "]", "{", "}", ",", ":", "é", " ", "url(", "//", "/*", "*/",
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..4000 {
        let mut text = String::new();
        for _ in 0..(seed % 30) {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push_str(tokens[(seed >> 33) as usize % tokens.len()]);
        }
        let views = [
            toml_strings(&text),
            json_strings(&text),
            jsonl_strings(&text),
            Some(css_escapes(&text)),
        ];
        for v in views.iter().flatten() {
            for e in &v.escapes {
                assert!(
                    e.span.end <= text.len() && text.is_char_boundary(e.span.end),
                    "{text:?}"
                );
                assert_eq!(&text[e.span.start..e.span.start + 1], "\\", "{text:?}");
            }
            for (i, _) in v.text.char_indices() {
                let s = v.raw_span(Span::new(i, v.text.len()));
                assert!(s.start <= s.end && s.end <= text.len(), "{text:?}");
                assert!(
                    text.is_char_boundary(s.start) && text.is_char_boundary(s.end),
                    "{text:?}"
                );
            }
        }
    }
}

#[test]
fn a_rollback_forgets_what_came_after_its_mark() {
    let raw = "abcdef\\u0041";
    let mut view = View::default();
    view.copy(raw, 0, 2);
    let before = view.clone();
    let mark = view.mark();
    // A copy right after the mark extends the last stretch; an escape adds one.
    view.copy(raw, 2, 6);
    view.escape('A', Span::new(6, 12));
    assert_ne!(view, before);
    view.rollback(mark);
    assert_eq!(view, before);
    // Control: going on from there maps as if nothing had been added.
    view.copy(raw, 2, 4);
    assert_eq!(view.raw_span(Span::new(1, 4)), Span::new(1, 4));
}
