#![no_main]
#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    for run in hippo_packs::rules::text::invisible_runs(&s) {
        assert!(run.span.end <= s.len() && run.span.start < run.span.end);
        assert!(s.is_char_boundary(run.span.start) && s.is_char_boundary(run.span.end));
        let _ = run.message();
    }
    let _ = hippo_packs::core::escape::line(&s);
    common::check_with("prompts/decision-log.md", data);
});
