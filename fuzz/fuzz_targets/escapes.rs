#![no_main]
#[path = "common.rs"]
mod common;

// The escape decoders (TOML basic strings, JSON strings) over any text: no panic, every span on
// character boundaries and inside the text, runs in order; then the whole check over the text as
// a manifest, a pass file and a theme file.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    use hippo_packs::model::escapes;
    let s = String::from_utf8_lossy(data);
    for escs in [escapes::toml_escapes(&s), escapes::json_escapes(&s)] {
        let mut last = 0;
        for e in &escs {
            assert!(e.span.start >= last && e.span.start < e.span.end && e.span.end <= s.len());
            assert!(s.is_char_boundary(e.span.start) && s.is_char_boundary(e.span.end));
            assert_eq!(&s[e.span.start..e.span.start + 1], "\\");
            last = e.span.end;
        }
        for run in escapes::hidden_runs(&escs) {
            let _ = run.message();
        }
    }
    common::check_with("pack.toml", data);
    common::check_with("passes/decision-log.toml", data);
});
