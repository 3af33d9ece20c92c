//! The `shard` input (`i/n`): one job of a matrix checks the packs whose repository-relative
//! folder hashes to its shard (docs/action.md, "A registry past one machine").
//!
//! The hash is FNV-1a (64-bit) of the folder's path bytes, modulo `n`: a pack's shard depends on
//! its own path and on `n` alone, so it keeps its shard when others are added or removed, and
//! every job of the matrix agrees without talking to the others.

/// GitHub runs at most 256 jobs of one matrix.
pub(crate) const MAX_SHARDS: u32 = 256;

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shard {
    pub(crate) index: u32,
    pub(crate) count: u32,
}

impl Shard {
    /// `i/n` with `1 <= i <= n <= 256`; anything else is `None`.
    pub(crate) fn parse(text: &str) -> Option<Shard> {
        let (i, n) = text.trim().split_once('/')?;
        let digits =
            |s: &str| !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(i.trim()) || !digits(n.trim()) {
            return None;
        }
        let (index, count) = (i.trim().parse().ok()?, n.trim().parse().ok()?);
        (index >= 1 && index <= count && count <= MAX_SHARDS).then_some(Shard { index, count })
    }

    /// Whether the pack at `path` (repository-relative, `/`-separated) belongs to this shard.
    pub(crate) fn holds(self, path: &str) -> bool {
        fnv1a(path.trim_end_matches('/').as_bytes()) % u64::from(self.count)
            == u64::from(self.index - 1)
    }

    /// The code-scanning category of this shard: `<category>/shard-<i>-of-<n>`, so each job's
    /// upload replaces only its own earlier results.
    pub(crate) fn category(self, category: &str) -> String {
        format!(
            "{}/shard-{}-of-{}",
            category.trim_end_matches('/'),
            self.index,
            self.count
        )
    }
}

/// FNV-1a, 64-bit: small, fixed forever, and the same on every machine.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_i_of_n_and_refuses_the_rest() {
        assert_eq!(Shard::parse("2/8"), Some(Shard { index: 2, count: 8 }));
        assert_eq!(Shard::parse(" 1 / 1 "), Some(Shard { index: 1, count: 1 }));
        for bad in [
            "0/8", "9/8", "1/0", "1/257", "a/b", "2", "2/8/1", "-1/8", "+1/8", "",
        ] {
            assert_eq!(Shard::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_pack_is_in_exactly_one_shard_and_keeps_it() {
        let paths: Vec<String> = (0..500).map(|i| format!("packs/p{i}")).collect();
        let shards: Vec<Shard> = (1..=8).map(|i| Shard { index: i, count: 8 }).collect();
        let mut sizes = [0usize; 8];
        for p in &paths {
            let owners: Vec<usize> = (0..8).filter(|&k| shards[k].holds(p)).collect();
            assert_eq!(owners.len(), 1, "{p}");
            sizes[owners[0]] += 1;
        }
        // Roughly even: no shard holds less than half or more than twice its share.
        assert!(sizes.iter().all(|&n| (31..=125).contains(&n)), "{sizes:?}");
        // Known values pin the hash: a change here moves packs between shards.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert!(Shard { index: 1, count: 1 }.holds("anything"));
        assert_eq!(
            Shard { index: 2, count: 8 }.category("hippo-packs/"),
            "hippo-packs/shard-2-of-8"
        );
    }
}
