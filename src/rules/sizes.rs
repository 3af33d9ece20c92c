//! Sizes: one file, files outside tests/, the whole pack, the number of files.

use super::declare::declare_rules;
use crate::core::Diagnostic;
use crate::pack::{ONE_FILE_LIMIT, Pack};

declare_rules! {
    /// A file over 65,536 bytes
    ///
    /// One file may hold at most 65,536 bytes. A pack is a few prompts and small fixtures; a larger
    /// file is data that has no place in it, and it is not read further than the limit.
    ///
    /// How to fix: Shorten the file, or split a fixture into several cases.
    pub(crate) static FILE_SIZE = "file-size", Error, VeryHigh, rank = 150;

    /// Files outside tests/ over 131,072 bytes in all
    ///
    /// What hippo installs (everything but tests/) may total at most 131,072 bytes, which keeps the
    /// text sent to models reviewable.
    ///
    /// How to fix: Shorten the prompts, personas and templates.
    pub(crate) static OUTSIDE_TESTS_SIZE = "outside-tests-size", Error, VeryHigh, rank = 160;

    /// A pack over 524,288 bytes
    ///
    /// The whole pack, fixtures included, may total at most 524,288 bytes.
    ///
    /// How to fix: Make the fixtures smaller or fewer.
    pub(crate) static PACK_SIZE = "pack-size", Error, VeryHigh, rank = 170;

    /// A pack with more than 100 files
    ///
    /// A pack holds at most 100 files.
    ///
    /// How to fix: Merge or delete files; fewer, larger fixture cases often say the same.
    pub(crate) static FILE_COUNT = "file-count", Error, VeryHigh, rank = 180;

    /// A tree with more than 10,000 entries
    ///
    /// The walk stops after 10,000 entries, so a hostile tree cannot make a registry run slow. What
    /// lies beyond is not checked.
    ///
    /// How to fix: Delete what does not belong in the pack.
    pub(crate) static ENTRY_LIMIT = "entry-limit", Error, VeryHigh, rank = 190, reported_in = "src/rules/layout.rs";
}

pub(crate) fn check(pack: &Pack, out: &mut Vec<Diagnostic>) {
    let (mut total, mut outside) = (0u64, 0u64);
    for f in pack.files() {
        if f.size > ONE_FILE_LIMIT {
            out.push(Diagnostic::file(
                &FILE_SIZE,
                &f.path,
                format!("{} bytes, over the 65,536-byte limit for one file", f.size),
            ));
        }
        total = total.saturating_add(f.size);
        if !f.in_tests() {
            outside = outside.saturating_add(f.size);
        }
    }
    if outside > 131_072 {
        out.push(Diagnostic::pack(
            &OUTSIDE_TESTS_SIZE,
            format!("files outside tests/ total {outside} bytes, over the 131,072-byte limit"),
        ));
    }
    if total > 524_288 {
        out.push(Diagnostic::pack(
            &PACK_SIZE,
            format!("the pack totals {total} bytes, over the 524,288-byte limit"),
        ));
    }
    if pack.files().len() > 100 {
        out.push(Diagnostic::pack(
            &FILE_COUNT,
            format!(
                "the pack holds {} files, over the limit of 100",
                pack.files().len()
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::testing::sized_pack;

    #[test]
    fn limits() {
        let tests: Vec<(String, u64)> = (0..6)
            .map(|i| (format!("tests/c/notes/{i}.md"), 60_000))
            .collect();
        let mut files: Vec<(&str, u64)> = tests.iter().map(|(p, s)| (p.as_str(), *s)).collect();
        files.push(("a.md", 65_536));
        files.push(("b.md", 65_536));
        let mut out = Vec::new();
        check(&sized_pack(&files), &mut out);
        assert!(out.is_empty(), "at the limits nothing is reported: {out:?}");
        files.push(("c.md", 70_000));
        check(&sized_pack(&files), &mut out);
        let ids: Vec<_> = out.iter().map(|d| d.rule.id).collect();
        assert_eq!(ids, ["file-size", "outside-tests-size", "pack-size"]);
    }
}
