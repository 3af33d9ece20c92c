//! The Action's allowances (docs/configuration.md): `.hippo-packs.toml` at the repository root
//! (docs/action.md, "The repository root"), and no other copy — never one inside a pack, so a
//! pull request cannot silence its own pack from inside it. On a review (a pull request, a
//! merge group) the file is the **base's**, so a pull request cannot allow its own findings
//! either: its changes to the file apply once merged, and the job summary lists what they would
//! allow. Without a base, no allowance applies. Other runs read the checkout's file.

use std::path::{Path, PathBuf};

use super::base::Review;
use crate::allow::{CI_FILE, Config, text_of};
use crate::core::Diagnostic;
use crate::outcome::PackReport;

/// What the run's allowances did.
#[derive(Default)]
pub(crate) struct Applied {
    /// The `unused-allowance` warnings of the file applied.
    pub(crate) unused: Vec<Diagnostic>,
    /// The job summary's lines about a file the review did not apply.
    pub(crate) notes: Vec<String>,
}

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

/// Applies this run's allowances (module documentation): the checkout's file, or on a review
/// the base's; `Err` is a file that cannot be read or parsed, a one-line reason.
pub(crate) fn apply_for(
    root: &Path,
    review: &Review,
    reports: &mut [PackReport],
    sharded: bool,
) -> Result<Applied, String> {
    let head = path(root).map(|p| load(&p)).transpose()?;
    let (base_text, base) = match review {
        Review::Off => {
            let unused = match head {
                Some(mut c) => apply(&mut c, reports, sharded),
                None => Vec::new(),
            };
            return Ok(Applied {
                unused,
                notes: Vec::new(),
            });
        }
        Review::NoBase(_) => (None, None),
        Review::Base(b) => match b.read(CI_FILE) {
            None => (None, None),
            Some(bytes) => {
                let text = text_of(bytes).map_err(|e| format!("{CI_FILE} at the base: {e}"))?;
                let config = Config::parse(&text, CI_FILE, folder(root))
                    .map_err(|e| format!("at the base: {e}"))?;
                (Some(text), Some(config))
            }
        },
    };
    let unused = match base {
        Some(mut c) => apply(&mut c, reports, sharded),
        None => Vec::new(),
    };
    let head_text = path(root).and_then(|p| std::fs::read_to_string(p).ok());
    let mut notes = Vec::new();
    if let Some(mut head) = head.filter(|_| head_text != base_text) {
        let used = match review {
            Review::Base(b) if base_text.is_some() => format!("the base's ({})", b.short()),
            Review::Base(b) => format!("none: the base ({}) has no {CI_FILE}", b.short()),
            Review::Off | Review::NoBase(_) => {
                "none: without a base, the base's file is not known".to_string()
            }
        };
        notes.push(format!(
            "this change to {CI_FILE} applies once merged; this run applied {used}"
        ));
        notes.extend(would_allow(&mut head, reports));
    }
    Ok(Applied { unused, notes })
}

/// The folder globs are relative to: the repository root, as `Config::load` makes it.
fn folder(root: &Path) -> PathBuf {
    let abs = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    std::fs::canonicalize(&abs).unwrap_or(abs)
}

/// What `c` would allow beyond what the reports' allowances allowed, as the summary names an
/// allowance.
fn would_allow(c: &mut Config, reports: &[PackReport]) -> Vec<String> {
    let mut after = reports.to_vec();
    after.iter_mut().for_each(|r| c.apply(r));
    let what = format!("once merged, {CI_FILE} would allow");
    let mut out = Vec::new();
    for (before, r) in reports.iter().zip(&after) {
        let more = PackReport {
            uri_base: r.uri_base.clone(),
            allowed: r.allowed[before.allowed.len()..].to_vec(),
            ..PackReport::default()
        };
        out.extend(allowed_lines(std::slice::from_ref(&more), &what));
    }
    out
}

/// The job summary's lines: each allowed warning with its reason. (A pull request's change to
/// the file is [`Applied`]'s note: the file it changes never applies to its own run.)
pub(crate) fn notes(reports: &[PackReport]) -> Vec<String> {
    allowed_lines(reports, &format!("allowed by {CI_FILE}"))
}

/// `<what>: <rule> in <path> (<reason>)`, each allowed warning.
fn allowed_lines(reports: &[PackReport], what: &str) -> Vec<String> {
    reports
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
                format!("{what}: {} in {at} ({})", a.diagnostic.rule.id, a.reason)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Allowed;
    use crate::rules::content::INJECTION_PHRASE;

    #[test]
    fn the_summary_names_each_allowance() {
        let r = PackReport {
            uri_base: "packs/a".into(),
            allowed: vec![Allowed {
                diagnostic: Diagnostic::file(&INJECTION_PHRASE, "prompts/x.md", "m"),
                reason: "quoted to reject".into(),
            }],
            ..PackReport::default()
        };
        assert_eq!(
            notes(std::slice::from_ref(&r)),
            [
                "allowed by .hippo-packs.toml: injection-phrase in packs/a/prompts/x.md (quoted to reject)"
            ]
        );
        assert!(
            notes(&[PackReport::default()]).is_empty(),
            "control: nothing allowed"
        );
    }
}
