//! The one-pass scan: every anchor of [`TABLE`] (in its spellings) in one [`Finder`]; each hit runs the rows that anchor belongs to, which look at a bounded window of
//! bytes around it and return a span that starts at or after the anchor (which lets [`scan`]
//! stop early for the first match).

use super::finder::Finder;
use super::row::{Detector, Shape};
use super::shape::boundary_before;
use super::table::TABLE;
use super::verify::{fnv1a, passes};
use crate::core::Span;
use regex::bytes::Regex;
use std::sync::{LazyLock, OnceLock};

/// How far before its anchor a token may start (a row's `back`; a test holds the table to it).
pub(crate) const MAX_BACK: usize = 80;

/// One secret-looking span of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Match {
    /// The gitleaks-style rule name (`aws-access-token`, `generic-api-key`, ...).
    pub(crate) kind: &'static str,
    /// Byte offsets in the input; always on ASCII bytes, so on character boundaries.
    pub span: Span,
    /// The token's structure checks out (a CRC32 tail, a PyPI macaroon): the `verified-shape`
    /// evidence of JSON and SARIF. A match without it is still a match.
    pub(crate) verified: bool,
}

/// The finder's patterns: every spelling of every anchor, each once, with the rows to try
/// where it is found (the rows of every anchor that is a prefix of it or that it is a prefix
/// of, since the finder reports one pattern per position).
struct Anchors {
    patterns: Vec<String>,
    rows: Vec<Vec<usize>>,
}

/// Each row's anchors in every spelling, built once.
static FORMS: LazyLock<Vec<Vec<String>>> = LazyLock::new(|| {
    TABLE
        .iter()
        .map(|d| d.anchors.iter().flat_map(|a| spellings(d, a)).collect())
        .collect()
});

fn spellings(d: &Detector, anchor: &str) -> Vec<String> {
    let mut forms = vec![anchor.to_string()];
    if d.fold {
        let mut cap = anchor.to_string();
        cap[..1].make_ascii_uppercase();
        forms.push(cap);
        forms.push(anchor.to_ascii_uppercase());
    }
    forms
}

static ANCHORS: LazyLock<Anchors> = LazyLock::new(|| {
    let mut own: Vec<(String, usize)> = Vec::new();
    for (row, d) in TABLE.iter().enumerate() {
        for a in d.anchors {
            for f in spellings(d, a) {
                if !own.contains(&(f.clone(), row)) {
                    own.push((f, row));
                }
            }
        }
    }
    let mut patterns: Vec<String> = Vec::new();
    for (p, _) in &own {
        if !patterns.contains(p) {
            patterns.push(p.clone());
        }
    }
    let rows = patterns
        .iter()
        .map(|p| {
            let mut r: Vec<usize> = own
                .iter()
                .filter(|(q, _)| p.starts_with(q.as_str()) || q.starts_with(p.as_str()))
                .map(|&(_, row)| row)
                .collect();
            r.sort_unstable();
            r.dedup();
            r
        })
        .collect();
    Anchors { patterns, rows }
});

/// Leftmost-first: matches do not overlap, and an anchor that starts inside another's match
/// follows a word byte, so it could not start a token; the rows of anchors that share a start
/// are tried together.
static FINDER: LazyLock<Finder> = LazyLock::new(|| {
    Finder::new(&ANCHORS.patterns).expect("the anchors fit a finder (a test holds them to it)")
});

/// Each token row's pattern, anchored at the token's start, compiled the first time one of the
/// row's anchors is found (most texts never reach most rows, and compiling them all would cost
/// every run of `check` more than scanning a registry does).
static PATTERNS: LazyLock<Vec<OnceLock<Option<Regex>>>> =
    LazyLock::new(|| TABLE.iter().map(|_| OnceLock::new()).collect());

fn pattern(row: usize) -> Option<&'static Regex> {
    PATTERNS[row]
        .get_or_init(|| match TABLE[row].shape {
            Shape::Token { pattern, .. } => Some(
                Regex::new(&format!("^(?-u:{pattern})")).expect("the table's patterns are valid"),
            ),
            Shape::Scan(_) => None,
        })
        .as_ref()
}

/// The rows compiled (the finder and every pattern); a benchmark calls it before timing.
pub(crate) fn warm() {
    LazyLock::force(&FINDER);
    LazyLock::force(&FORMS);
    for row in 0..TABLE.len() {
        pattern(row);
    }
}

/// The anchors the search looks for, in its order (a hit names one by its index).
pub fn anchors() -> &'static [String] {
    &ANCHORS.patterns
}

/// Every anchor hit of `hay` as `(anchor, start)`, in order: what the detectors are run at.
pub fn anchor_hits(hay: &[u8]) -> Vec<(usize, usize)> {
    FINDER.find_iter(hay).collect()
}

/// The matches of the text, in order and not overlapping; with `first_only`, at most the first
/// one (the same one the full scan puts first), found without looking further than needed.
pub(crate) fn scan(hay: &[u8], first_only: bool) -> Vec<Match> {
    // (start, row, end as a tiebreak: longer first), then the match.
    let key = |m: &Match, row: usize| (m.span.start, row, usize::MAX - m.span.end);
    let mut found: Vec<(Match, usize)> = Vec::new();
    let mut best: Option<(Match, usize)> = None;
    for (pattern, start) in FINDER.find_iter(hay) {
        // Hits come in order; a match starts at or after its hit (or, for a row with `back`, at
        // at most `MAX_BACK` bytes before), so no later hit can come before the best match so far.
        if best.is_some_and(|(b, _)| start > b.span.start + MAX_BACK) {
            break;
        }
        for &row in &ANCHORS.rows[pattern] {
            let Some(m) = detect(row, hay, start) else {
                continue;
            };
            if first_only {
                if best.is_none_or(|(b, br)| key(&m, row) < key(&b, br)) {
                    best = Some((m, row));
                }
            } else {
                found.push((m, row));
            }
        }
    }
    if first_only {
        return best.map(|(m, _)| vec![m]).unwrap_or_default();
    }
    found.sort_by_key(|(m, row)| key(m, *row));
    let mut out: Vec<Match> = Vec::with_capacity(found.len());
    for (m, _) in found {
        if out.last().is_none_or(|l| m.span.start >= l.span.end) {
            out.push(m);
        }
    }
    out
}

/// The kind a value found by its context has by its shape: the first row with no anchor of its
/// own whose pattern covers the whole value and whose verification it passes.
fn named_kind(value: &[u8]) -> Option<&'static str> {
    named_row(value).map(|row| TABLE[row].id)
}

/// The row [`named_kind`] takes the kind of.
fn named_row(value: &[u8]) -> Option<usize> {
    TABLE.iter().enumerate().position(|(row, d)| {
        let Shape::Token { stop, verify, .. } = d.shape else {
            return false;
        };
        if !d.anchors.is_empty() {
            return false;
        }
        let Some(m) = pattern(row).and_then(|p| p.find(value)) else {
            return false;
        };
        let whole = m.end() == value.len() || !stop.holds(value[m.end()]);
        whole && m.end() == value.len() && passes(verify, value).is_some()
    })
}

/// Row `row` at a hit at `i`: the row's own anchor must be there (in one of its spellings).
fn detect(row: usize, hay: &[u8], i: usize) -> Option<Match> {
    let d = &TABLE[row];
    let anchor = FORMS[row]
        .iter()
        .find(|f| hay[i..].starts_with(f.as_bytes()))?;
    let (kind, start, end, verified) = match d.shape {
        Shape::Scan(f) => {
            let (kind, start, end) = f(hay, i, anchor)?;
            (kind, start, end, false)
        }
        Shape::Token {
            back, stop, verify, ..
        } => {
            let start = i.checked_sub(back)?;
            if !boundary_before(hay, start) {
                return None;
            }
            let re = pattern(row)?;
            let window = &hay[start..hay.len().min(start + 1100)];
            let end = start + re.find(window)?.end();
            if end < hay.len() && stop.holds(hay[end]) {
                return None;
            }
            let body = &hay[(start + back + anchor.len()).min(end)..end];
            (d.id, start, end, passes(verify, body)?)
        }
    };
    let value = &hay[start..end];
    let hash = fnv1a(value);
    if TABLE.iter().any(|d| d.samples.contains(&hash)) {
        return None;
    }
    let kind = match d.shape {
        Shape::Scan(_) => named_kind(value).unwrap_or(kind),
        Shape::Token { .. } => kind,
    };
    Some(Match {
        kind,
        span: Span::new(start, end),
        verified,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every anchor fits the finder (at most [`Finder::MAX`] of them), and every anchor is at
    /// least 3 bytes long, so that the finder's candidates (the anchors' first three bytes)
    /// stay rare in ordinary text.
    #[test]
    fn the_anchors_fit_the_finder() {
        let n = ANCHORS.patterns.len();
        assert!(n <= Finder::MAX, "{n} patterns: {:?}", ANCHORS.patterns);
        assert!(Finder::new(&ANCHORS.patterns).is_ok());
        let short: Vec<&String> = ANCHORS.patterns.iter().filter(|p| p.len() < 3).collect();
        assert!(short.is_empty(), "{short:?}");
        for d in TABLE.iter() {
            if let Shape::Token { back, .. } = d.shape {
                assert!(back <= MAX_BACK, "{}", d.id);
            }
        }
        // control: every row with anchors can be reached through one of them
        for (row, d) in TABLE.iter().enumerate() {
            let reached = ANCHORS.rows.iter().any(|r| r.contains(&row));
            assert_eq!(reached, !d.anchors.is_empty(), "{}", d.id);
        }
    }

    /// The row whose match is `span` in `hay` and wins it: the first row of the table that
    /// matches exactly there, or, for a scanner that named the value by a row with no anchor of
    /// its own, that row.
    fn winning_row(hay: &[u8], span: Span) -> Option<usize> {
        let mut rows: Vec<(usize, Match)> = Vec::new();
        for (pattern, start) in FINDER.find_iter(hay) {
            for &row in &ANCHORS.rows[pattern] {
                rows.extend(
                    detect(row, hay, start)
                        .filter(|m| m.span == span)
                        .map(|m| (row, m)),
                );
            }
        }
        let (row, m) = rows.into_iter().min_by_key(|&(row, _)| row)?;
        let named = named_row(&hay[span.start..span.end]).filter(|&n| TABLE[n].id == m.kind);
        Some(named.unwrap_or(row))
    }

    /// The rows that win no positive of `cases`.
    fn rows_without_a_case(cases: &[super::super::corpus::Case]) -> Vec<&'static str> {
        let mut won = vec![false; TABLE.len()];
        for c in cases {
            let at = c.text.find(&c.secret).expect("the secret is in its text");
            let span = Span::new(at, at + c.secret.len());
            if let Some(row) = winning_row(c.text.as_bytes(), span) {
                won[row] = true;
            }
        }
        TABLE
            .iter()
            .zip(won)
            .filter(|(_, won)| !won)
            .map(|(d, _)| d.id)
            .collect()
    }

    /// docs/architecture.md, "A new secret detector": a new row comes with its corpus case. Every
    /// row of the table is the row that wins at least one positive of the corpus, so a row
    /// without one, or shadowed by a row before it, fails.
    #[test]
    fn every_row_detects_a_corpus_case_first() {
        let positives = super::super::corpus::positives();
        assert_eq!(rows_without_a_case(&positives), Vec::<&str>::new());
        // control: without the `rows` group (one positive per token row), rows lack a case
        let fewer: Vec<_> = positives
            .into_iter()
            .filter(|c| c.group != "rows")
            .collect();
        assert!(rows_without_a_case(&fewer).len() > 20);
    }

    /// The finder over the real anchors reports what Aho-Corasick's leftmost-first search
    /// reports, over every anchor whole and cut, run together and apart, and over the
    /// example packs' files.
    #[test]
    fn the_finder_over_the_anchors_is_aho_corasick_leftmost_first() {
        use aho_corasick::{AhoCorasickBuilder, MatchKind};
        let reference = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostFirst)
            .build(&ANCHORS.patterns)
            .expect("a valid automaton");
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for sep in [&b""[..], b" ", b"_"] {
            let mut hay = Vec::new();
            for p in &ANCHORS.patterns {
                for cut in 1..=p.len() {
                    hay.extend_from_slice(&p.as_bytes()[..cut]);
                    hay.extend_from_slice(sep);
                }
            }
            texts.push(hay);
        }
        let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/packs");
        for entry in walkdir::WalkDir::new(examples).into_iter().flatten() {
            if entry.file_type().is_file() {
                texts.push(std::fs::read(entry.path()).expect("a readable example"));
            }
        }
        let mut hits = 0;
        for hay in &texts {
            let want: Vec<(usize, usize)> = reference
                .find_iter(hay)
                .map(|m| (m.pattern().as_usize(), m.start()))
                .collect();
            assert_eq!(FINDER.find_iter(hay).collect::<Vec<_>>(), want);
            hits += want.len();
        }
        // control: the texts do hold anchors, so an empty finder would not pass
        assert!(hits > 100, "{hits}");
    }
}
