//! The review's labels in `ci` (docs/action.md, "The review"): on a pull request or a merge
//! group, each gated pack's findings are labelled new, existing or fixed against the same pack
//! at the base (`crate::label`); and the JSON report written beside the SARIF file, which
//! carries them.

use std::collections::HashMap;
use std::path::Path;

use super::base;
use super::context::RunContext;
use super::files;
use super::gate::Gate;
use super::sarif_path;
use super::step_outputs;
use crate::outcome::{Mode, PackReport};
use crate::pack::PackKind;
use crate::report::json::JsonRenderer;
use crate::report::prompt_diff;
use crate::report::rendering::{Render, Rendering};

/// The reports of the packs at the base, by repository-relative folder (`uri_base`); a pack
/// missing from them is new at the head.
pub(crate) type BaseReports = HashMap<String, PackReport>;

/// What a review holds for the steps after the labels: the base's reports, and the touched pass
/// packs tested again with their prompts kept (by index into the run's reports), for the
/// summary's prompt diff.
#[derive(Default)]
pub(crate) struct Review {
    pub(crate) bases: Option<BaseReports>,
    pub(crate) prompted: Vec<(usize, PackReport)>,
}

impl Review {
    /// The review of a run: none on push, schedule and dispatch (`found` is `Off`); otherwise
    /// each gated pack's findings labelled against the same pack at the base (every one new
    /// without a base), and with `prompt-diff` (and `test`) its pass packs' prompts kept.
    pub(crate) fn make(
        reports: &mut [PackReport],
        (gate, found): (&Gate, &base::Review),
        cx: &mut RunContext<'_>,
    ) -> anyhow::Result<Review> {
        let gated = &gate.gated;
        let bases = match found {
            base::Review::Off => return Ok(Review::default()),
            base::Review::NoBase(_) => None,
            base::Review::Base(b) => at_base(b, reports, gated, cx)?,
        };
        label(reports, gated, bases.as_ref());
        let s = cx.settings;
        let mut prompted = Vec::new();
        if s.prompt_diff && s.test {
            let touched: Vec<usize> = (0..reports.len())
                .filter(|&i| gated.get(i).copied().unwrap_or(false))
                .filter(|&i| reports[i].kind == Some(PackKind::Pass))
                .collect();
            let dirs: Vec<String> = touched.iter().map(|&i| reports[i].dir.clone()).collect();
            prompted = touched.into_iter().zip(tested(dirs, true)?).collect();
        }
        Ok(Review { bases, prompted })
    }

    /// The summary's prompt diff, in at most `room` bytes (empty without a review).
    pub(crate) fn prompt_section(&self, reports: &[PackReport], room: usize) -> String {
        let pairs: Vec<prompt_diff::Pair<'_>> = self
            .prompted
            .iter()
            .map(|(i, head)| prompt_diff::Pair {
                folder: &reports[*i].uri_base,
                base: self
                    .bases
                    .as_ref()
                    .and_then(|b| b.get(&reports[*i].uri_base)),
                head,
            })
            .collect();
        prompt_diff::render(&pairs, room)
    }
}

/// The packs at `dirs` checked and tested (with their prompts kept when `keep_prompts`), as
/// packs of a run over several.
fn tested(dirs: Vec<String>, keep_prompts: bool) -> anyhow::Result<Vec<PackReport>> {
    crate::case_runner::test_all(&crate::case_runner::TestOptions {
        dirs,
        keep_prompts,
        one_of_several: true,
        ..Default::default()
    })
}

/// The reports of the gated packs as the base holds them, by repository-relative folder: each
/// written from the base's objects into a temporary folder, then checked (and tested, with its
/// prompts kept for the prompt diff) as the head's were. `None`, with a line of the log and the
/// summary, when the folders cannot be written: every finding is new then.
fn at_base(
    b: &base::Base,
    reports: &[PackReport],
    gated: &[bool],
    cx: &mut RunContext<'_>,
) -> anyhow::Result<Option<BaseReports>> {
    let s = cx.settings;
    let rels: Vec<String> = reports
        .iter()
        .zip(gated)
        .filter(|(_, g)| **g)
        .map(|(r, _)| r.uri_base.clone())
        .collect();
    let extracted = match b.extract(&rels) {
        Ok(e) => e,
        Err(why) => {
            let line = format!(
                "review: the gated packs could not be read at the base {} ({why}); every finding of a gated pack counts as new",
                b.short()
            );
            cx.line(&format!("hippo-packs: {line}"))?;
            return Ok(None);
        }
    };
    let present: Vec<(String, String)> = rels
        .into_iter()
        .zip(&extracted.present)
        .filter(|(_, p)| **p)
        .map(|(rel, _)| {
            let dir = extracted.path(&rel).display().to_string();
            (rel, dir)
        })
        .collect();
    let dirs: Vec<String> = present.iter().map(|(_, d)| d.clone()).collect();
    let base_reports = if s.test {
        tested(dirs, s.prompt_diff)?
    } else {
        let mut out = Vec::with_capacity(dirs.len());
        crate::check::check_each_of(&dirs, true, |r| out.push(r));
        out
    };
    Ok(Some(
        present
            .into_iter()
            .map(|(rel, _)| rel)
            .zip(base_reports)
            .collect(),
    ))
}

/// Labels each gated pack's findings against its report at the base; `bases` is `None` when no
/// base could be read, and then every finding of a gated pack is new (the gate fails closed).
pub(crate) fn label(reports: &mut [PackReport], gated: &[bool], bases: Option<&BaseReports>) {
    for (r, g) in reports.iter_mut().zip(gated) {
        if !*g {
            continue;
        }
        let base = bases.and_then(|b| b.get(&r.uri_base));
        crate::label::against(r, base);
    }
}

/// Writes the JSON report (`hippo-packs/v1`) beside the SARIF file.
pub(crate) fn write_json(
    reports: &[PackReport],
    unused: &[crate::core::Diagnostic],
    cx: &RunContext<'_>,
) -> anyhow::Result<()> {
    let s = cx.settings;
    let mode = if s.test { Mode::Test } else { Mode::Check };
    let run = Rendering {
        unused,
        ..Rendering::new(reports, mode)
    };
    let mut json = Vec::new();
    JsonRenderer.render(&run, &mut json)?;
    let file = sarif_path::json_file(&s.sarif_file);
    let owner = step_outputs::owner_of(&file, cx);
    files::write_file(Path::new(&file), &json, owner)
}
