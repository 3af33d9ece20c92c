//! The anchor search: where in a text any of up to 128 byte strings starts, leftmost-first and
//! without overlaps (the matches Aho-Corasick's `MatchKind::LeftmostFirst` reports, which a
//! test holds it to).
//!
//! Three tables, one per byte of a pattern's first three, map a byte to the set of patterns
//! (one bit each) that have that byte there; the bitwise AND of the three lookups at a position
//! is the set of patterns whose first three bytes are there, exactly. Only at such a position is
//! a pattern compared in full. Eight positions are looked up per step and a step with no
//! candidate costs one branch, so ordinary text is scanned at about 1.6 GB/s here, where the
//! Aho-Corasick automaton's Teddy prefilter over the same anchors ran at about 0.66 GB/s: its
//! fingerprints are nibbles, and over the 64 anchors most positions of prose passed them
//! (docs/performance.md, "The anchor search").
//!
//! Any input costs linear time: a position is compared only against the patterns whose first
//! three bytes are there, each at most as long as the longest pattern.

/// A pattern set, at most [`Finder::MAX`] patterns, none empty.
pub(super) struct Finder {
    /// `first[k][b]`: the patterns whose byte `k` is `b` (every pattern shorter than `k + 1`).
    first: Box<[[u128; 256]; 3]>,
    /// `first` folded to 64 bits (pattern `i` and `i + 64` share bit `i`): the scan's filter.
    /// Where `first` finds a candidate so does `folded`; with at most 64 patterns (the anchors
    /// are 64) it finds exactly the same, at half the loads.
    folded: Box<[[u64; 256]; 3]>,
    patterns: Vec<Box<[u8]>>,
}

/// Positions looked up per step of the scan.
const STEP: usize = 8;

impl Finder {
    /// The most patterns a finder holds (one bit of a `u128` each).
    pub(crate) const MAX: usize = 128;

    /// The finder for `patterns`, whose index is the pattern's number in the hits; earlier
    /// patterns win where several start at the same byte.
    pub(crate) fn new<P: AsRef<[u8]>>(patterns: &[P]) -> Result<Finder, String> {
        if patterns.len() > Self::MAX {
            return Err(format!(
                "{} patterns: a finder holds {} at most",
                patterns.len(),
                Self::MAX
            ));
        }
        let mut first = Box::new([[0u128; 256]; 3]);
        for (i, p) in patterns.iter().map(AsRef::as_ref).enumerate() {
            if p.is_empty() {
                return Err(format!("pattern {i} is empty"));
            }
            for (k, table) in first.iter_mut().enumerate() {
                match p.get(k) {
                    Some(&b) => table[usize::from(b)] |= 1 << i,
                    None => table.iter_mut().for_each(|t| *t |= 1 << i),
                }
            }
        }
        let mut folded = Box::new([[0u64; 256]; 3]);
        for (f, t) in folded.iter_mut().zip(first.iter()) {
            for (f, &t) in f.iter_mut().zip(t.iter()) {
                *f = (t as u64) | ((t >> 64) as u64);
            }
        }
        Ok(Finder {
            first,
            folded,
            patterns: patterns.iter().map(|p| p.as_ref().into()).collect(),
        })
    }

    /// Every hit of `hay` in order: `(pattern, start)`. At a byte where several patterns
    /// start, the first pattern wins; the search goes on after the hit's end.
    pub(crate) fn find_iter<'f, 'h>(&'f self, hay: &'h [u8]) -> Hits<'f, 'h> {
        Hits {
            finder: self,
            hay,
            at: 0,
        }
    }

    /// The candidates at `i`: the patterns whose first three bytes (or fewer, at the end) are
    /// there.
    fn candidates(&self, hay: &[u8], i: usize) -> u128 {
        let [t0, t1, t2] = &*self.first;
        let at = |t: &[u128; 256], j: usize| hay.get(j).map_or(!0, |&b| t[usize::from(b)]);
        at(t0, i) & at(t1, i + 1) & at(t2, i + 2)
    }

    /// The first pattern found whole at `i`, with its end.
    fn hit_at(&self, hay: &[u8], i: usize) -> Option<(usize, usize)> {
        let mut set = self.candidates(hay, i);
        while set != 0 {
            let p = set.trailing_zeros() as usize;
            set &= set - 1;
            let pattern = &self.patterns[p];
            if hay[i..].starts_with(pattern) {
                return Some((p, i + pattern.len()));
            }
        }
        None
    }

    /// The first step at or after `from` where some pattern's first three bytes may be (the
    /// folded tables find a superset of the candidates), [`STEP`] positions at a time while the
    /// three bytes of each are in `hay`.
    fn next_candidate(&self, hay: &[u8], from: usize) -> usize {
        let [t0, t1, t2] = &*self.folded;
        let mut i = from;
        while let Some(w) = hay.get(i..).and_then(<[u8]>::first_chunk::<{ STEP + 2 }>) {
            let mut any = 0u64;
            for j in 0..STEP {
                any |=
                    t0[usize::from(w[j])] & t1[usize::from(w[j + 1])] & t2[usize::from(w[j + 2])];
            }
            if any != 0 {
                break;
            }
            i += STEP;
        }
        i
    }
}

/// The hits of one text, in order.
pub(super) struct Hits<'f, 'h> {
    finder: &'f Finder,
    hay: &'h [u8],
    at: usize,
}

impl Iterator for Hits<'_, '_> {
    /// `(pattern, start)`.
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        let hay = self.hay;
        let mut i = self.at;
        while i < hay.len() {
            i = self.finder.next_candidate(hay, i);
            // A step with a candidate, or the last positions (fewer than a step's bytes left).
            let end = if hay.len() - i < STEP + 2 {
                hay.len()
            } else {
                i + STEP
            };
            for j in i..end {
                if let Some((p, after)) = self.finder.hit_at(hay, j) {
                    self.at = after;
                    return Some((p, j));
                }
            }
            i = end;
        }
        self.at = hay.len();
        None
    }
}

#[cfg(test)]
mod tests;
