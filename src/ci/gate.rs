//! The gate: which packs decide the verdict (`scope`), and whether a pack fails (`fail-on`).

use super::commit;
use super::context::RunContext;
use super::settings::{FailOn, Scope};
use crate::core::Severity;
use crate::github::command::Level;
use crate::github::event::{Changes, MergeGroup};
use crate::github::pulls;
use crate::outcome::PackReport;

/// Why a changed file can be missing from the checkout: each means the packs checked are not
/// the ones the changes name, so every pack gates.
const LACKS: &str = "another commit checked out, a sparse checkout, or a checkout-path that is not the repository's folder";

/// What the scope step decided.
pub(crate) struct Gate {
    pub(crate) gated: Vec<bool>,
    pub(crate) notes: Vec<String>,
    /// The pull request's changed files, when listed (annotations put theirs first).
    pub(crate) files: Option<Vec<String>>,
    /// The job fails whatever the packs say: a `pull_request_target` run checked out other
    /// code than the pull request's, under `scope: changed`.
    pub(crate) fails_job: bool,
    /// The run labelled the gated packs' findings against a base (`ci::labels`): `filter-mode`
    /// applies.
    pub(crate) reviewed: bool,
}

/// Which packs gate the verdict: all of them, or under `scope: changed` those the pull request
/// touches (every pack, with a notice saying why, when its files cannot be listed). `paths` are
/// the packs' repository-relative folders, every pack discovered (before a `shard` partition).
pub(crate) fn gate(paths: &[String], cx: &mut RunContext<'_>) -> anyhow::Result<Gate> {
    let mut g = decide(paths, cx)?;
    let s = cx.settings;
    if s.scope == Scope::Changed
        && let Some(why) = commit::base_checkout(&s.target, &s.repository.dir, cx.gh, cx.event)
    {
        let msg = format!(
            "pull_request_target: {why}. The pull request's packs were not checked, so the job fails: check out its head (actions/checkout with `ref: ${{{{ github.event.pull_request.head.sha }}}}`), or set `scope: all` to check only what was checked out"
        );
        cx.annotate(Level::Error, "scope", &msg)?;
        g.notes.push(format!("scope changed: {msg}"));
        g.fails_job = true;
    }
    Ok(g)
}

/// The gate `scope` gives.
fn decide(paths: &[String], cx: &mut RunContext<'_>) -> anyhow::Result<Gate> {
    if cx.settings.scope == Scope::All {
        return Ok(Gate {
            gated: vec![true; paths.len()],
            notes: Vec::new(),
            files: None,
            fails_job: false,
            reviewed: false,
        });
    }
    match changed(paths, cx)? {
        Ok(gate) => Ok(gate),
        Err(why) => {
            let msg = format!("{why}; every pack gates");
            cx.annotate(Level::Notice, "scope", &msg).ok();
            Ok(Gate {
                gated: vec![true; paths.len()],
                notes: vec![format!("scope changed: {msg}")],
                files: None,
                fails_job: false,
                reviewed: false,
            })
        }
    }
}

/// The packs the pull request touches, or why they cannot be known.
fn changed(paths: &[String], cx: &mut RunContext<'_>) -> anyhow::Result<Result<Gate, String>> {
    let Some((owner, repo)) = cx.gh.owner_repo() else {
        return Ok(Err("GITHUB_REPOSITORY is not set".to_string()));
    };
    let pr = match cx.event.changes() {
        Changes::MergeGroup(g) => return merge_group(paths, g, (owner, repo), cx),
        Changes::PullRequest(pr) => pr,
        Changes::Unknown => {
            return Ok(Err("not a pull request or merge group event".to_string()));
        }
    };
    let listed = cx.github("reading the pull request", async |http, retry| {
        let listed = pulls::changed_files(http, owner, repo, pr.number, &mut *retry).await?;
        let count = match pr.changed_files {
            Some(n) => Some(n),
            None => pulls::changed_count(http, owner, repo, pr.number, &mut *retry).await?,
        };
        Ok((count, listed))
    })?;
    let (count, listed) = match listed {
        Ok(l) => l,
        Err(f) => {
            return Ok(Err(format!(
                "cannot list the files of pull request #{}: {f}",
                pr.number
            )));
        }
    };
    if let Err(why) = whole(pr.number, count, &listed, cx) {
        return Ok(Err(why));
    }
    let what = format!("pull request #{}", pr.number);
    Ok(Ok(changed_gate(paths, &what, listed, cx)?))
}

/// The gate of a whole list of changed files: the packs they touch gate, and the log says how
/// many (`what`: "pull request #7", "the merge group"). A changed `.gitmodules` touches every
/// folder it names.
fn changed_gate(
    paths: &[String],
    what: &str,
    listed: pulls::Listed,
    cx: &mut RunContext<'_>,
) -> anyhow::Result<Gate> {
    let repo = cx.settings.repository.dir.as_path();
    let submodules = super::discover::changed_entries(repo, &listed.paths);
    let mut notes = Vec::new();
    if !submodules.is_empty() {
        let note = format!(
            "scope changed: {what} changes .gitmodules, so the {} {} it names count as changed: {}",
            submodules.len(),
            if submodules.len() == 1 {
                "folder"
            } else {
                "folders"
            },
            submodules.join(", ")
        );
        cx.line(&format!("hippo-packs: {note}"))?;
        notes.push(note);
    }
    let touching: Vec<String> = listed.paths.iter().chain(&submodules).cloned().collect();
    let gated = pulls::touched(paths, &touching);
    let count = gated.iter().filter(|g| **g).count();
    let n_files = listed.files;
    let note = format!(
        "scope changed: {what} changes {} {}, in {count} of {} {}",
        n_files,
        if n_files == 1 { "file" } else { "files" },
        paths.len(),
        if paths.len() == 1 { "pack" } else { "packs" }
    );
    cx.line(&format!("hippo-packs: {note}"))?;
    notes.push(note);
    Ok(Gate {
        gated,
        notes,
        files: Some(listed.paths),
        fails_job: false,
        reviewed: false,
    })
}

/// Whether the listed files are every file pull request `n` changes, as the checkout holds
/// them; `Err` says why not.
fn whole(
    n: u64,
    count: Option<u64>,
    listed: &pulls::Listed,
    cx: &RunContext<'_>,
) -> Result<(), String> {
    // Files, not paths: a rename lists two paths for one of `changed_files`.
    match count {
        None => {
            return Err(format!(
                "GitHub gives no count of pull request #{n}'s changed files, so a cut list cannot be told from a whole one"
            ));
        }
        Some(c) if c as usize > listed.files => {
            return Err(format!(
                "pull request #{n} changes {c} files and GitHub lists only {}",
                listed.files
            ));
        }
        Some(_) => {}
    }
    match cx.settings.repository.lacks(&listed.in_head) {
        Some(f) => Err(format!(
            "pull request #{n} changes {f}, which the checkout lacks ({LACKS})"
        )),
        None => Ok(()),
    }
}

/// The packs a merge group changes: the compare API between its base and head commits. It
/// lists at most 300 files, so 300 listed may be a cut list: every pack gates then.
fn merge_group(
    paths: &[String],
    g: &MergeGroup,
    (owner, repo): (&str, &str),
    cx: &mut RunContext<'_>,
) -> anyhow::Result<Result<Gate, String>> {
    let shas = (g.base_sha.as_str(), g.head_sha.as_str());
    let listed = cx.github("comparing the merge group", async |http, retry| {
        pulls::compared_files(http, owner, repo, shas, retry).await
    })?;
    let listed = match listed {
        Ok(l) => l,
        Err(f) => {
            return Ok(Err(format!(
                "cannot compare the merge group's commits: {f}"
            )));
        }
    };
    if listed.files >= pulls::MAX_COMPARED {
        return Ok(Err(format!(
            "the merge group lists {} changed files, and GitHub's compare lists at most {}",
            listed.files,
            pulls::MAX_COMPARED
        )));
    }
    if let Some(f) = cx.settings.repository.lacks(&listed.in_head) {
        return Ok(Err(format!(
            "the merge group changes {f}, which the checkout lacks ({LACKS})"
        )));
    }
    Ok(Ok(changed_gate(paths, "the merge group", listed, cx)?))
}

/// Whether a pack fails the gate.
pub(crate) fn fails(r: &PackReport, fail_on: FailOn) -> bool {
    match fail_on {
        FailOn::Never => false,
        FailOn::Error => r.failed(false),
        FailOn::Warning => r.failed(true),
        FailOn::NewWarning => {
            r.failed(false)
                || r.diagnostics
                    .iter()
                    .any(|d| d.severity == Severity::Warning && crate::label::is_new(d))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fail_on_decides_what_fails() {
        let warned = PackReport {
            diagnostics: vec![
                crate::core::Diagnostic::file(&crate::rules::layout::UNREADABLE, "a", "b")
                    .with_severity(crate::core::Severity::Warning),
            ],
            ..PackReport::default()
        };
        assert!(!fails(&warned, FailOn::Error));
        assert!(fails(&warned, FailOn::Warning));
        assert!(!fails(&warned, FailOn::Never));
        assert!(fails(&warned, FailOn::NewWarning), "unlabelled: new");
    }

    #[test]
    fn new_warning_fails_on_a_new_warning_only() {
        let warning = || {
            crate::core::Diagnostic::file(&crate::rules::layout::UNREADABLE, "a", "b")
                .with_severity(Severity::Warning)
        };
        let base = PackReport {
            diagnostics: vec![warning()],
            ..PackReport::default()
        };
        let mut old = base.clone();
        crate::label::against(&mut old, Some(&base));
        assert!(!fails(&old, FailOn::NewWarning), "an old warning passes");
        assert!(
            fails(&old, FailOn::Warning),
            "control: under warning it fails"
        );
        let mut added = base.clone();
        added.diagnostics.push(
            crate::core::Diagnostic::file(&crate::rules::layout::UNREADABLE, "c", "d")
                .with_severity(Severity::Warning),
        );
        crate::label::against(&mut added, Some(&base));
        assert!(fails(&added, FailOn::NewWarning), "a new warning fails");
        let mut error = base.clone();
        error.diagnostics[0].severity = Severity::Error;
        let error_base = error.clone();
        crate::label::against(&mut error, Some(&error_base));
        assert!(
            fails(&error, FailOn::NewWarning),
            "an old error fails as always"
        );
    }
}
