#![no_main]
#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    // The text walk `check` runs, over the raw bytes and over their lossy text.
    let raw = hippo_packs::rules::text::scan_bytes(data);
    let valid = raw.not_utf8.unwrap_or(data.len());
    assert_eq!(valid, std::str::from_utf8(data).map_or_else(|e| e.valid_up_to(), |t| t.len()));
    let text = hippo_packs::rules::text::scan_bytes(s.as_bytes());
    assert_eq!(text.not_utf8, None);
    for (run, len) in raw.invisible.iter().map(|r| (r, valid)).chain(text.invisible.iter().map(|r| (r, s.len()))) {
        assert!(run.span.end <= len && run.span.start < run.span.end);
        let _ = run.message();
    }
    for run in &text.invisible {
        assert!(s.is_char_boundary(run.span.start) && s.is_char_boundary(run.span.end));
    }
    let _ = hippo_packs::core::escape::line(&s);
    common::check_with("prompts/decision-log.md", data);
});
