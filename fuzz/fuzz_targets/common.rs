//! The good pack of hippo's page "Writing a pack", with one file replaced by the fuzzer's bytes, checked in memory.

macro_rules! good {
    ($p:literal) => {
        ($p, include_bytes!(concat!("../../tests/packs/decision-log/", $p)) as &[u8])
    };
}

pub fn check_with(path: &str, data: &[u8]) {
    let base: [(&str, &[u8]); 9] = [
        good!("pack.toml"),
        good!("README.md"),
        good!("passes/decision-log.toml"),
        good!("prompts/decision-log.md"),
        good!("personas/decision-log-reviewer.md"),
        good!("templates/Decision log.md"),
        good!("tests/cache-store/case.toml"),
        good!("tests/cache-store/notes/Decision log.md"),
        good!("tests/cache-store/transcripts/decision-1.jsonl"),
    ];
    let files: Vec<(&str, &[u8])> = base
        .iter()
        .map(|&(p, b)| if p == path { (p, data) } else { (p, b) })
        .collect();
    let pack = hippo_packs::pack::Pack::from_files(&files);
    let checked = hippo_packs::rules::run(&pack);
    for d in &checked.diagnostics {
        if let (Some(f), Some(span)) = (&d.file, d.span) {
            let len = pack.file(f).map(|f| f.bytes.len()).unwrap_or(0);
            assert!(span.end <= len, "a span past the end of {f}");
        }
        let _ = d.text("");
    }
}
