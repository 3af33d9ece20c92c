//! The text walk: runs of hidden characters, the fast path, unusual spaces.

use super::*;

#[test]
fn one_run_per_sequence() {
    let runs = invisible_runs("a\u{202E}b\u{200B}\u{200C}\u{200D}c");
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0].message(), "U+202E");
    assert_eq!(runs[1].message(), "U+200B and 2 more");
    assert_eq!(runs[1].span, Span::new(5, 14));
}

#[test]
fn ignorable_runs_are_apart_from_invisible_ones() {
    let (inv, ign) = hidden_runs("a\u{00AD}\u{00AD}b\u{200B}\u{034F}c\u{FFF9}");
    assert_eq!(inv.len(), 1);
    assert_eq!(inv[0].message(), "U+200B");
    let msgs: Vec<String> = ign.iter().map(ignorable_message).collect();
    assert_eq!(
        msgs,
        [
            "U+00AD and 1 more, invisible characters hippo accepts",
            "U+034F, an invisible character hippo accepts",
            "U+FFF9, an invisible character hippo accepts"
        ]
    );
    assert_eq!(ign[0].span, Span::new(1, 5));
    // Control: text without either set has no run.
    assert_eq!(hidden_runs("plain é — 😀"), (Vec::new(), Vec::new()));
}

#[test]
fn tag_runs_spell_hidden_text() {
    let hidden: String = "hidden"
        .chars()
        .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
        .collect();
    let runs = invisible_runs(&format!("ok{hidden}"));
    assert_eq!(
        runs[0].message(),
        "U+E0068 and 5 more (hidden text \"hidden\")"
    );
}

#[test]
fn the_fast_path_agrees_with_the_slow_one() {
    for b in 0u8..=0xFF {
        let mut block = [b'a'; BLOCK];
        block[17] = b;
        let plain = (0x20..0x7F).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r');
        assert_eq!(plain_block(&block), plain, "byte {b:#04x}");
    }
    // A run right after a long plain stretch, and at every alignment.
    for pad in 0..70 {
        let text = format!("{}\u{202E}x", "a\n".repeat(pad / 2) + &"a".repeat(pad % 2));
        let runs = invisible_runs(&text);
        assert_eq!(runs.len(), 1, "pad {pad}");
        assert_eq!(runs[0].span.start, pad);
    }
}

#[test]
fn allowed_whitespace_is_not_reported() {
    assert!(invisible_runs("a\tb\r\nc é 😀 \u{00A0}").is_empty());
    assert_eq!(invisible_runs("\u{7}").len(), 1, "control: BEL is caught");
    assert_eq!(
        invisible_runs("\u{FEFF}x").len(),
        1,
        "a byte-order mark is caught"
    );
    assert_eq!(invisible_runs("\u{E0101}").len(), 1);
    assert_eq!(invisible_runs("\u{10FFFD}").len(), 1);
}

#[test]
fn unusual_spaces_are_found_in_order_and_common_ones_are_not() {
    let text = "a\u{2800}b c\u{A0}d\u{202F}e\u{3000}f\u{2003}g\u{1680}";
    let found: Vec<(Span, char)> = unusual_spaces(text.as_bytes())
        .iter()
        .map(|s| (s.span, s.c))
        .collect();
    assert_eq!(found, [(Span::new(1, 4), '\u{2800}')]);
    assert!(scan_bytes(text.as_bytes()).non_ascii);
    assert!(!scan_bytes(&[b'a'; 100]).non_ascii, "control: plain ASCII");
    assert!(
        scan_bytes(&[b'a', 0xFF]).non_ascii,
        "a byte that is not UTF-8 is past ASCII"
    );
    // Control: the spaces of ordinary text in French, Japanese and Chinese, and the other space
    // separators (typography), are not unusual.
    assert!(
        unusual_spaces(
            "a b\u{A0}: \u{202F}; \u{3000}x 1\u{2009}000\u{2003}\u{1680}\t\n".as_bytes()
        )
        .is_empty()
    );
}

#[test]
fn one_unusual_space_warning_per_file_counts_the_rest() {
    let mut out = Vec::new();
    let text = "x\u{2800}y\nz\u{2800}w\u{2800}1\u{2009}000";
    report_unusual_spaces("prompts/a.md", &scan_bytes(text.as_bytes()), None, &mut out);
    let got: Vec<(&str, &str)> = out
        .iter()
        .map(|d| (d.rule.id, d.message.as_str()))
        .collect();
    assert_eq!(
        got,
        [("unusual-space", "U+2800, an unusual space and 2 more")]
    );
    assert_eq!(out[0].span, Some(Span::new(1, 4)));
    let one = "x\u{2800}y";
    out.clear();
    report_unusual_spaces("pack.toml", &scan_bytes(one.as_bytes()), None, &mut out);
    assert_eq!(out[0].message, "U+2800, an unusual space");
    // Control: README.md, LICENSE and tests/ are not looked at.
    for path in ["README.md", "LICENSE", "tests/c/notes/n.md"] {
        out.clear();
        report_unusual_spaces(path, &scan_bytes(text.as_bytes()), None, &mut out);
        assert!(out.is_empty(), "{path}");
    }
}

#[test]
fn an_escape_to_an_unusual_space_counts_with_the_raw_ones() {
    let toml = "description = \"a\\u2800b\"\nname = \"x\u{2800}y\\u2009\"\n";
    let view = crate::model::decode::view("pack.toml", toml).unwrap();
    let mut out = Vec::new();
    report_unusual_spaces(
        "pack.toml",
        &scan_bytes(toml.as_bytes()),
        Some(&view),
        &mut out,
    );
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].message, "U+2800, an unusual space and 1 more");
    assert_eq!(out[0].span, Some(Span::new(16, 22)), "at the escape");
    // Control: an escape to an ordinary space, or to a thin space, is not unusual.
    let plain = "description = \"a\\u0020b\\u2009c\"\n";
    let view = crate::model::decode::view("pack.toml", plain).unwrap();
    out.clear();
    report_unusual_spaces(
        "pack.toml",
        &scan_bytes(plain.as_bytes()),
        Some(&view),
        &mut out,
    );
    assert!(out.is_empty());
}

#[test]
fn a_byte_order_mark_says_how_to_save_the_file() {
    let helps = |text: &str| {
        let mut out = Vec::new();
        report("a.md", &scan_bytes(text.as_bytes()), &mut out);
        out.iter()
            .map(|d| (d.hint.clone(), d.own_help))
            .collect::<Vec<_>>()
    };
    let save = "save the file as UTF-8 without a byte-order mark (the U+FEFF at its start)";
    assert_eq!(helps("\u{FEFF}x"), [(Some(save.to_string()), true)]);
    assert_eq!(
        helps("\u{FEFF}\u{200B}x"),
        [(Some(save.to_string()), false)],
        "a longer run keeps the rule's help too"
    );
    // Control: U+FEFF past the first byte is a zero-width no-break space, deleted as any other.
    assert_eq!(helps("x\u{FEFF}"), [(None, false)]);
}
