#![no_main]

// The CSS escape decoder over any text: no panic; every escape starts at a backslash and ends on
// a character boundary inside the text; a hex escape decodes to the code point its digits spell
// (U+FFFD for zero, surrogates and past U+10FFFF); every span of the decoded text maps back inside
// the text on character boundaries; the URL finder's spans lie inside what it was given.
use hippo_packs::core::Span;
use hippo_packs::model::decode;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let view = decode::css_escapes(text);
    for e in &view.escapes {
        assert!(e.span.start < e.span.end && e.span.end <= text.len());
        assert!(text.is_char_boundary(e.span.end));
        let raw = &text[e.span.start..e.span.end];
        assert!(raw.starts_with('\\'));
        let digits: String = raw[1..].chars().take_while(char::is_ascii_hexdigit).take(6).collect();
        if !digits.is_empty() {
            let code = u32::from_str_radix(&digits, 16).unwrap();
            let want = char::from_u32(code)
                .filter(|_| code != 0)
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            assert_eq!(e.decoded, want, "{raw:?}");
        }
    }
    for (i, _) in view.text.char_indices() {
        let s = view.raw_span(Span::new(i, view.text.len()));
        assert!(s.start <= s.end && s.end <= text.len());
        assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
    }
    for s in decode::css_urls(&view.text) {
        assert!(s.end <= view.text.len());
        let _ = view.raw_span(s);
    }
});
