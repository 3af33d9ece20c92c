#![no_main]
//! Redaction over any bytes: the anchor search finds what Aho-Corasick's leftmost-first search
//! finds, and the matches are in order, apart, inside the text and on character boundaries.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use hippo_packs::secrets as redact;
use std::sync::LazyLock;

static REFERENCE: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostFirst)
        .build(redact::anchors())
        .expect("a valid automaton")
});

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let want: Vec<(usize, usize)> = REFERENCE
        .find_iter(data)
        .map(|m| (m.pattern().as_usize(), m.start()))
        .collect();
    assert_eq!(redact::anchor_hits(data), want);
    let all = redact::matches_bytes(data);
    for pair in all.windows(2) {
        assert!(pair[0].span.end <= pair[1].span.start);
    }
    assert!(all.iter().all(|m| m.span.start < m.span.end && m.span.end <= data.len()));
    assert_eq!(redact::first_match_bytes(data), all.first().copied());
    let text = String::from_utf8_lossy(data);
    let r = redact::redact(&text);
    assert!(r.matches.iter().all(|m| text.is_char_boundary(m.span.start) && text.is_char_boundary(m.span.end)));
    assert_eq!(r.changed(), !r.matches.is_empty());
});
