//! The Action's allowances (docs/configuration.md): `.hippo-packs.toml` at the repository root
//! (docs/action.md, "The repository root"), and no other copy — never one inside a pack, so a pull request cannot silence its
//! own pack from inside it. The job summary lists the allowances used and names the file when
//! the pull request changes it.

use std::path::{Path, PathBuf};

use crate::allow::{CI_FILE, Config};
use crate::core::Diagnostic;
use crate::outcome::PackReport;

/// The repository root's configuration file, when there is one.
pub(crate) fn path(root: &Path) -> Option<PathBuf> {
    let p = root.join(CI_FILE);
    p.is_file().then_some(p)
}

/// Reads the file; `Err` is a one-line reason.
pub(crate) fn load(p: &Path) -> Result<Config, String> {
    Config::load(p, CI_FILE)
}

/// Applies the allowances to every report; returns the `unused-allowance` warnings (none in a
/// shard, which sees only part of the packs).
pub(crate) fn apply(c: &mut Config, reports: &mut [PackReport], sharded: bool) -> Vec<Diagnostic> {
    reports.iter_mut().for_each(|r| c.apply(r));
    if sharded { Vec::new() } else { c.unused() }
}

/// The job summary's lines: each allowed warning with its reason, then a note when the pull
/// request changes the file (its allowances apply to this very run).
pub(crate) fn notes(reports: &[PackReport], changed: Option<&[String]>) -> Vec<String> {
    let mut out = Vec::new();
    let used: Vec<String> = reports
        .iter()
        .flat_map(|r| {
            r.allowed.iter().map(move |a| {
                let base = r.uri_base.trim_end_matches('/');
                let file = a.diagnostic.file.as_deref().unwrap_or("");
                let at = if base.is_empty() {
                    file.to_string()
                } else {
                    format!("{base}/{file}")
                };
                format!(
                    "allowed by {CI_FILE}: {} in {at} ({})",
                    a.diagnostic.rule.id, a.reason
                )
            })
        })
        .collect();
    out.extend(used);
    if changed.is_some_and(|files| files.iter().any(|f| f == CI_FILE)) {
        out.push(format!(
            "this pull request changes {CI_FILE}: its allowances already apply to this run; review them"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Allowed;
    use crate::rules::content::INJECTION_PHRASE;

    #[test]
    fn the_summary_names_each_allowance_and_a_changed_file() {
        let r = PackReport {
            uri_base: "packs/a".into(),
            allowed: vec![Allowed {
                diagnostic: Diagnostic::file(&INJECTION_PHRASE, "prompts/x.md", "m"),
                reason: "quoted to reject".into(),
            }],
            ..PackReport::default()
        };
        let files = vec![".hippo-packs.toml".to_string()];
        let n = notes(std::slice::from_ref(&r), Some(&files));
        assert_eq!(
            n,
            [
                "allowed by .hippo-packs.toml: injection-phrase in packs/a/prompts/x.md (quoted to reject)",
                "this pull request changes .hippo-packs.toml: its allowances already apply to this run; review them"
            ]
        );
        let other = vec!["packs/a/pack.toml".to_string()];
        assert_eq!(
            notes(&[r], Some(&other)).len(),
            1,
            "control: an unchanged file is not named"
        );
    }
}
