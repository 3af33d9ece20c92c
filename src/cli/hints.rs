//! Lines on standard error that help a person at a terminal and change no verdict and no line
//! of standard output: a pack without cases, why `--deny-warnings` exits 1. (A folder of packs
//! named as a pack is checked as its packs: `cli::targets`.)

use crate::core::escape;
use crate::outcome::PackReport;

/// `test` of a pack that declares no case: say so (the run passes: there is nothing to fail).
pub(crate) fn no_cases(reports: &[PackReport], filtered: bool) {
    if filtered {
        return;
    }
    for r in reports
        .iter()
        .filter(|r| r.errors() == 0 && r.case_names.is_empty())
    {
        eprintln!(
            "hippo-packs: {} has no fixture cases (tests/<case>/case.toml): nothing was run",
            escape::line(r.run_name())
        );
    }
}

/// `hippo-packs: exit 1: 3 warnings (--deny-warnings)` (docs/output-formats.md).
pub(crate) fn deny_warnings(warnings: usize) {
    if warnings > 0 {
        eprintln!(
            "hippo-packs: exit 1: {warnings} warning{} (--deny-warnings)",
            if warnings == 1 { "" } else { "s" }
        );
    }
}
