//! Lines on standard error that help a person at a terminal and change no verdict and no line
//! of standard output: the command probably meant, a pack without cases, why `--deny-warnings`
//! exits 1.

use std::path::Path;

use crate::core::escape;
use crate::outcome::PackReport;

/// `check packs` where `packs` is not a pack but holds packs: after the page's errors, name
/// the command that was probably meant.
pub(crate) fn packs_folders(dirs: &[String]) {
    for d in dirs {
        if let Some(line) = packs_folder_hint(Path::new(d), d) {
            eprintln!("{line}");
        }
    }
}

fn packs_folder_hint(dir: &Path, shown: &str) -> Option<String> {
    if dir.join("pack.toml").exists() {
        return None;
    }
    let mut packs: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.path().join("pack.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if packs.is_empty() {
        return None;
    }
    packs.sort();
    let base = shown.trim_end_matches('/');
    Some(format!(
        "hint: {} is not a pack but holds {} pack{} ({}); to check them: hippo-packs check {}/*/",
        escape::line(base),
        packs.len(),
        if packs.len() == 1 { "" } else { "s" },
        escape::line(&packs.join(", ")),
        escape::line(base)
    ))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_of_packs_gets_a_hint_and_a_pack_none() {
        let t = tempfile::tempdir().unwrap();
        for p in ["b", "a"] {
            std::fs::create_dir_all(t.path().join(p)).unwrap();
            std::fs::write(t.path().join(p).join("pack.toml"), "").unwrap();
        }
        let hint = packs_folder_hint(t.path(), "packs/").unwrap();
        assert_eq!(
            hint,
            "hint: packs is not a pack but holds 2 packs (a, b); to check them: hippo-packs check packs/*/"
        );
        assert_eq!(
            packs_folder_hint(&t.path().join("a"), "packs/a"),
            None,
            "control: a pack gets no hint"
        );
    }
}
