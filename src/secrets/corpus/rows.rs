//! Examples generated from the detector table's rows: for every token row with an anchor, a
//! positive drawn from its own pattern (until the row's evidence holds for it, as a real token's
//! would), and two near-misses: the same token written as a placeholder (`xxxx` after the
//! anchor) and glued to the word before it. The repository holds none of them; they exist only
//! while the tests run (and in the corpus scripts/secrets_diff.py exports).

use super::super::row::{Shape, Verify};
use super::super::table::TABLE;
use super::super::verify::passes;
use super::*;
use regex_syntax::hir::{Class, Hir, HirKind};

/// A random string `hir` matches, from `r` (bounded repeats take a length in their range; an
/// unbounded one at most 8 more than its minimum).
fn sample(hir: &Hir, r: &mut Rng, out: &mut String) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(lit) => out.push_str(&String::from_utf8_lossy(&lit.0)),
        HirKind::Class(Class::Bytes(c)) => {
            let all: Vec<u8> = c.iter().flat_map(|g| g.start()..=g.end()).collect();
            out.push(all[(r.next() % all.len() as u64) as usize] as char);
        }
        HirKind::Class(Class::Unicode(c)) => {
            let all: Vec<char> = c.iter().flat_map(|g| g.start()..=g.end()).collect();
            out.push(all[(r.next() % all.len() as u64) as usize]);
        }
        HirKind::Repetition(rep) => {
            let max = rep.max.unwrap_or(rep.min + 8);
            let n = rep.min + (r.next() % u64::from(max - rep.min + 1)) as u32;
            for _ in 0..n {
                sample(&rep.sub, r, out);
            }
        }
        HirKind::Capture(c) => sample(&c.sub, r, out),
        HirKind::Concat(v) => v.iter().for_each(|h| sample(h, r, out)),
        HirKind::Alternation(v) => sample(&v[(r.next() % v.len() as u64) as usize], r, out),
    }
}

/// A token of the row's pattern whose part after the anchor passes the row's evidence.
fn token(pattern: &str, anchors: &[&str], back: usize, verify: Verify, r: &mut Rng) -> String {
    let hir = regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
        .parse(pattern)
        .expect("the table's patterns parse");
    for _ in 0..1000 {
        let mut t = String::new();
        sample(&hir, r, &mut t);
        let Some(anchor) = anchors.iter().find(|a| t[back..].starts_with(**a)) else {
            continue;
        };
        if passes(verify, &t.as_bytes()[back + anchor.len()..]).is_some() {
            return t;
        }
    }
    panic!("no token of {pattern} passes its evidence in 1000 draws")
}

/// One positive and two near-misses per token row with an anchor (but PyPI's, whose macaroon a
/// pattern cannot draw: its own cases are in `tokens.rs`).
pub(crate) fn cases() -> Vec<Case> {
    let r = &mut Rng(0x5EC2_E70F_F00D);
    let mut v = Vec::new();
    for d in TABLE.iter() {
        let Shape::Token {
            pattern,
            back,
            verify,
            ..
        } = d.shape
        else {
            continue;
        };
        if d.anchors.is_empty() || verify == Verify::PyPiMacaroon {
            continue;
        }
        let t = token(pattern, d.anchors, back, verify, r);
        let anchor = d
            .anchors
            .iter()
            .find(|a| t[back..].starts_with(**a))
            .expect("the token holds its anchor");
        let keep = back + anchor.len();
        let blank: String = t
            .char_indices()
            .map(|(k, c)| {
                if (back..keep).contains(&k) || !c.is_ascii_alphanumeric() {
                    c
                } else {
                    'x'
                }
            })
            .collect();
        v.push(near(d.family, format!("value: {blank}\n")));
        v.push(near(d.family, format!("value: q{t}\n")));
        v.push(pos(d.family, d.id, "value: ", t, "\n"));
    }
    v
}
