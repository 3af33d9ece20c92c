//! The review's labels in `ci` (docs/action.md, "The review"): on a pull request or a merge
//! group, each gated pack's findings are labelled new, existing or fixed against the same pack
//! at the base (`crate::label`); and the JSON report written beside the SARIF file, which
//! carries them.

use std::collections::HashMap;
use std::path::Path;

use super::context::RunContext;
use super::output;
use super::sarif_path;
use super::step_outputs;
use crate::outcome::{Mode, PackReport};
use crate::pack::PackKind;
use crate::report::prompt_diff;

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
    /// The review of a run: none on push, schedule and dispatch; otherwise each gated pack's
    /// findings labelled, and with `prompt-diff` (and `test`) its pass packs' prompts kept.
    pub(crate) fn make(
        reports: &mut [PackReport],
        gated: &[bool],
        cx: &RunContext<'_>,
    ) -> anyhow::Result<Review> {
        if !reviewed(cx) {
            return Ok(Review::default());
        }
        let bases: Option<BaseReports> = None;
        label(reports, gated, bases.as_ref());
        let s = cx.settings;
        let mut prompted = Vec::new();
        if s.prompt_diff && s.test {
            let touched: Vec<usize> = (0..reports.len())
                .filter(|&i| gated.get(i).copied().unwrap_or(false))
                .filter(|&i| reports[i].kind == Some(PackKind::Pass))
                .collect();
            let dirs = touched.iter().map(|&i| reports[i].dir.clone()).collect();
            let options = crate::fixture::TestOptions {
                dirs,
                keep_prompts: true,
                one_of_several: true,
                ..Default::default()
            };
            prompted = touched
                .into_iter()
                .zip(crate::fixture::test_all(&options)?)
                .collect();
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

/// Whether the run makes a review: a pull request's or a merge group's (push, schedule and
/// dispatch runs make none).
pub(crate) fn reviewed(cx: &RunContext<'_>) -> bool {
    cx.event.scope_defaults_to_changed()
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
    let json = crate::report::json::render_with(reports, mode, unused);
    let file = sarif_path::json_file(&s.sarif_file);
    let owner = step_outputs::owner_of(&file, cx);
    output::write_file(Path::new(&file), json.as_bytes(), owner)
}
