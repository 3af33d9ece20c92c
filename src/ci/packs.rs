//! The packs of a `ci` run and their reports.
//!
//! A job that checks every pack (no `shard`) finds the packs and checks them together: each
//! pack's walk hands discovery the dot-folders it skipped, where discovery looks for packs
//! inside it, so a pack's folders are listed once (docs/performance.md, "Discovery inside
//! packs"). A shard's job needs every pack before it checks its own (the partition and the
//! gate see all of them), so there discovery lists the packs' folders itself
//! ([`super::discover()`]) and only the shard's packs are checked afterwards.

use std::collections::HashMap;

use super::discover::{Found, Search};
use super::settings::Settings;
use crate::outcome::PackReport;

/// Every pack under the root, each checked (and tested), and discovery's findings: the reports
/// by pack folder as discovery names it.
pub(crate) fn find_and_check(
    s: &Settings,
) -> anyhow::Result<std::io::Result<(Found, ReportsByDir)>> {
    let mut search = match Search::new(&s.root) {
        Ok(search) => search,
        Err(e) => return Ok(Err(e)),
    };
    let mut checked = ReportsByDir::default();
    let mut alone: Option<String> = None;
    loop {
        let packs = search.step();
        if packs.is_empty() {
            return Ok(Ok((search.finish(), checked)));
        }
        // The first step finds the packs outside packs, a later one packs inside them: a run
        // holds several packs when the first step found more than one or a later step found any.
        let several = !checked.0.is_empty() || packs.len() > 1;
        if let Some(dir) = alone.take()
            && let Some(r) = checked.0.get_mut(&dir)
        {
            // The one pack of the first step has packs inside it (so it could be read): its
            // paths are prefixed as in a run of several.
            r.prefix = crate::check::prefix_for(&dir, true);
        }
        if checked.0.is_empty() && packs.len() == 1 {
            alone = Some(packs[0].dir.clone());
        }
        let dirs: Vec<String> = packs.iter().map(|p| p.dir.clone()).collect();
        let reports = run_packs(&dirs, s, several)?;
        if reports.len() != packs.len() {
            anyhow::bail!("a pack's report is missing");
        }
        for (p, mut r) in packs.iter().zip(reports) {
            search.enter(p, &std::mem::take(&mut r.hidden_folders));
            checked.0.insert(p.dir.clone(), r);
        }
    }
}

/// The reports of the packs already checked, by folder.
#[derive(Default)]
pub(crate) struct ReportsByDir(HashMap<String, PackReport>);

impl ReportsByDir {
    /// Whether the pack at `dir` was checked.
    pub(crate) fn has(&self, dir: &str) -> bool {
        self.0.contains_key(dir)
    }

    /// The report of the pack at `dir`, if it was checked.
    pub(crate) fn take(&mut self, dir: &str) -> Option<PackReport> {
        self.0.remove(dir)
    }
}

/// Checks (and tests) every pack; `several`: whether the run holds several packs (their paths
/// are prefixed in the text).
pub(crate) fn run_packs(
    dirs: &[String],
    s: &Settings,
    several: bool,
) -> anyhow::Result<Vec<PackReport>> {
    if s.test {
        crate::case_runner::test_all(&crate::case_runner::TestOptions {
            dirs: dirs.to_vec(),
            one_of_several: several,
            ..Default::default()
        })
    } else {
        let mut out = Vec::with_capacity(dirs.len());
        crate::check::check_each_of(dirs, several, |r| out.push(r));
        Ok(out)
    }
}
