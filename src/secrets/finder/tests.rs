use super::*;
use aho_corasick::{AhoCorasickBuilder, MatchKind};

/// What Aho-Corasick reports, leftmost-first and without overlaps: the reference.
fn reference(patterns: &[&[u8]], hay: &[u8]) -> Vec<(usize, usize)> {
    AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostFirst)
        .build(patterns)
        .expect("a valid automaton")
        .find_iter(hay)
        .map(|m| (m.pattern().as_usize(), m.start()))
        .collect()
}

fn hits(patterns: &[&[u8]], hay: &[u8]) -> Vec<(usize, usize)> {
    Finder::new(patterns)
        .expect("a valid finder")
        .find_iter(hay)
        .collect()
}

/// A small deterministic generator (xorshift), so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A text of pieces of the patterns, whole or cut, between bytes of the patterns' alphabet.
fn text(rng: &mut Rng, patterns: &[&[u8]], len: usize) -> Vec<u8> {
    let alphabet: Vec<u8> = patterns
        .iter()
        .flat_map(|p| p.iter().copied())
        .chain(*b" x\n")
        .collect();
    let mut out = Vec::new();
    while out.len() < len {
        if rng.below(3) == 0 {
            let p = patterns[rng.below(patterns.len())];
            let cut = 1 + rng.below(p.len());
            out.extend_from_slice(&p[..cut]);
        } else {
            out.push(alphabet[rng.below(alphabet.len())]);
        }
    }
    out
}

fn same_as_reference(patterns: &[&[u8]], seed: u64, cases: usize) {
    let finder = Finder::new(patterns).expect("a valid finder");
    let mut rng = Rng(seed);
    for case in 0..cases {
        let len = rng.below(90);
        let hay = text(&mut rng, patterns, len);
        let got: Vec<_> = finder.find_iter(&hay).collect();
        assert_eq!(
            got,
            reference(patterns, &hay),
            "seed {seed} case {case}: {:?}",
            String::from_utf8_lossy(&hay)
        );
    }
}

#[test]
fn the_hits_are_aho_corasicks_leftmost_first_hits() {
    let sets: &[&[&[u8]]] = &[
        &[
            b"key", b"Key", b"oken", b"assw", b"assp", b"://", b"sk-", b"sk_", b"glp", b"glrt-",
        ],
        // prefixes of each other, in both orders: the earlier pattern wins at a byte
        &[b"gl", b"glpat-", b"glp", b"g"],
        &[b"glpat-", b"glp", b"gl"],
        // overlapping: the search goes on after a hit's end
        &[b"abc", b"bcd", b"cde", b"c"],
        // one and two bytes long: their missing bytes match anything
        &[b"a", b"ab", b"ba", b"aab"],
        &[b"aaa", b"aa"],
    ];
    for (i, set) in sets.iter().enumerate() {
        same_as_reference(set, 0x9e37_79b9_7f4a_7c15 + i as u64, 4000);
    }
}

#[test]
fn a_full_finder_of_128_patterns_keeps_each_apart() {
    let owned: Vec<Vec<u8>> = (0..128u8)
        .map(|i| vec![b'a' + i % 7, b'a' + i / 7 % 5, b'a' + i % 3, b'z' - i / 35])
        .collect();
    let mut uniq: Vec<&[u8]> = Vec::new();
    for p in &owned {
        if !uniq.contains(&p.as_slice()) {
            uniq.push(p);
        }
    }
    same_as_reference(&uniq, 7, 2000);
}

#[test]
fn hits_at_every_offset_of_a_step_and_at_the_very_end() {
    let patterns: &[&[u8]] = &[b"xyz", b"q"];
    for len in 0..40 {
        for at in 0..len {
            let mut hay = vec![b'.'; len];
            hay[at] = b'q';
            assert_eq!(hits(patterns, &hay), vec![(1, at)], "len {len} at {at}");
            if at + 3 <= len {
                hay[at..at + 3].copy_from_slice(b"xyz");
                assert_eq!(hits(patterns, &hay), vec![(0, at)], "len {len} at {at}");
            }
        }
    }
}

#[test]
fn sets_it_cannot_hold_are_refused() {
    let many: Vec<Vec<u8>> = (0..=Finder::MAX)
        .map(|i| format!("p{i:03}").into_bytes())
        .collect();
    assert!(Finder::new(&many).is_err());
    assert!(Finder::new(&many[..Finder::MAX]).is_ok());
    assert!(Finder::new(&[b"ok".as_slice(), b""]).is_err());
}

/// Control: the reference comparison catches a finder that misses a hit (here, a text
/// whose only hit is in its last two bytes, where the step loop does not reach).
#[test]
fn control_a_missed_tail_hit_differs_from_the_reference() {
    let patterns: &[&[u8]] = &[b"ab"];
    let hay = b"..........ab";
    let truncated: Vec<_> = Finder::new(patterns)
        .expect("a valid finder")
        .find_iter(&hay[..hay.len() - 1])
        .collect();
    assert_ne!(truncated, reference(patterns, hay));
    assert_eq!(hits(patterns, hay), reference(patterns, hay));
}
