//! Secrets in the pull request's history (docs/action.md, "The review's base"): every version of
//! a file under a touched pack that a commit between the base and the checkout held, and neither
//! end holds, is scanned by the redaction detectors. A secret the checkout's file no longer
//! holds is a `redaction` finding on that file (an error under `tests/`, a warning elsewhere,
//! as the rule has it), naming the commit: GitHub keeps a pull request's commits after a
//! force-push, so the key is out and must be revoked.
//!
//! The finding points at the file, without a line: the lines of a version the head no longer
//! holds mean nothing in the head, and the file may be gone from it.

use std::collections::HashSet;

use super::base::{Base, Review};
use super::context::RunContext;
use crate::core::{Diagnostic, Severity};
use crate::github::command::Level;
use crate::outcome::PackReport;
use crate::pack::ONE_FILE_LIMIT;
use crate::repo::{self, History};
use crate::rules::redaction::REDACTION;

/// Adds the history's secrets to the reports of the gated packs; a notice when the checkout
/// does not hold the history (a review without a base says so in its own notice).
pub(crate) fn attach(
    review: &Review,
    gated: &[bool],
    reports: &mut [PackReport],
    cx: &mut RunContext<'_>,
) -> anyhow::Result<()> {
    let Review::Base(base) = review else {
        return Ok(());
    };
    let packs: Vec<String> = reports
        .iter()
        .zip(gated)
        .filter(|(_, g)| **g)
        .map(|(r, _)| r.uri_base.clone())
        .collect();
    match secrets(base, &packs) {
        Ok(found) => super::registry::attach(found, reports),
        Err(why) => {
            let msg = format!(
                "{why}, so secrets its commits added and later removed are not sought. Check out with `fetch-depth: 0` to search them"
            );
            cx.annotate(Level::Notice, "review", &msg)?;
        }
    }
    Ok(())
}

/// The findings of secrets the commits between the base and the checkout held under `packs`
/// (their repository-relative folders, as reports name them) that the checkout's files no
/// longer hold, each with its pack; `Err` says why the history cannot be read.
fn secrets(base: &Base, packs: &[String]) -> Result<Vec<(String, Diagnostic)>, String> {
    let dirs: Vec<String> = packs
        .iter()
        .map(|p| p.trim_end_matches('/').to_string())
        .collect();
    let added = match base.history(&dirs) {
        History::Complete(a) => a,
        History::Incomplete(why) => return Err(why),
    };
    let mut out = Vec::new();
    let mut reported: HashSet<(String, Vec<u8>)> = HashSet::new();
    for a in added {
        let Some((pack, rel)) = owner(&dirs, &a.path) else {
            continue;
        };
        let head = base.read_head(&a.path, ONE_FILE_LIMIT).unwrap_or_default();
        let fresh: Vec<&'static str> = crate::secrets::matches_bytes(&a.bytes)
            .into_iter()
            .filter(|m| {
                let text = a.bytes[m.span.start..m.span.end].to_vec();
                memchr::memmem::find(&head, &text).is_none()
                    && reported.insert((a.path.clone(), text))
            })
            .map(|m| m.kind)
            .collect();
        let Some(kind) = fresh.first() else {
            continue;
        };
        let msg = format!(
            "a key was committed in {} and removed later; GitHub keeps the pull request's commits: revoke it, then rewrite the branch ({kind})",
            repo::short(&a.commit)
        );
        let d = Diagnostic::file(&REDACTION, rel, msg);
        let d = if rel.starts_with("tests/") {
            d
        } else {
            d.with_severity(Severity::Warning)
        };
        out.push((packs[pack].clone(), d));
    }
    Ok(out)
}

/// The pack (its index in `dirs`) holding `path`, and the path relative to it.
fn owner<'p>(dirs: &[String], path: &'p str) -> Option<(usize, &'p str)> {
    dirs.iter()
        .enumerate()
        .filter_map(|(i, d)| {
            if d.is_empty() || d == "." {
                return Some((i, path));
            }
            path.strip_prefix(d.as_str())
                .and_then(|r| r.strip_prefix('/'))
                .map(|r| (i, r))
        })
        .max_by_key(|(i, _)| dirs[*i].len())
}
