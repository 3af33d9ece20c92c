//! Allowances in code scanning (docs/configuration.md, "Allowed warnings in code scanning"):
//! code scanning does not dismiss an alert for a SARIF suppression, so on a run of the default
//! branch whose upload code scanning has processed, `ci` dismisses the open alerts of allowed
//! warnings (`won't fix`, the allowance's reason as the comment after [`MARK`]) and reopens the
//! alerts it dismissed whose warning is reported again without an allowance. Never on a pull
//! request or a merge group: a dismissal holds for the whole repository. It never changes the
//! verdict: whatever goes wrong is a notice.

use std::collections::HashMap;

use super::context::RunContext;
use super::settings::{Settings, UploadMode};
use super::upload::Uploaded;
use crate::github::alerts::{self, Alert, Change};
use crate::github::client::{self, Failure};
use crate::github::command::Level;
use crate::github::env::GithubEnv;
use crate::github::event::WorkflowEvent;

/// How a dismissal's comment starts: the mark by which `ci` knows the alerts it dismissed.
pub(crate) const MARK: &str = "hippo-packs allowance: ";
/// The most alerts changed in one run: with the check run's 20 requests, under GitHub's
/// secondary limit of 80 content-creating requests a minute. The rest wait for the next run.
pub(crate) const MAX_CHANGES: usize = 50;
/// The most pages of alerts read per state (100 alerts a page).
pub(crate) const MAX_PAGES: usize = 10;

/// Dismisses and reopens as the allowances of this run say; what it did goes to the log and
/// to the upload's notes for the job summary (nothing when the run is not one that dismisses).
pub(crate) fn dismiss(
    sarif: &str,
    up: &mut Uploaded,
    cx: &mut RunContext<'_>,
) -> anyhow::Result<()> {
    let notes = step(sarif, up, cx)?;
    up.notes.extend(notes);
    Ok(())
}

fn step(sarif: &str, up: &Uploaded, cx: &mut RunContext<'_>) -> anyhow::Result<Vec<String>> {
    let (s, gh) = (cx.settings, cx.gh);
    let git_ref = match decide(s, gh, cx.event, up) {
        Decision::Skip => return Ok(Vec::new()),
        Decision::Wait(msg) => return notice(msg, cx),
        Decision::Go(git_ref) => git_ref,
    };
    let (Some((owner, repo)), Some(_)) = (gh.owner_repo(), s.token.as_deref()) else {
        return Ok(Vec::new());
    };
    let results = results(sarif);
    let mut stopped = None;
    let done = cx.github("code-scanning alerts", async |http, retry| {
        let http = http.with_rate_retries(1);
        match apply(&http, (owner, repo), &git_ref, &results, retry).await {
            Ok(done) => Ok(done),
            Err(Stopped { failure, done }) => {
                stopped = Some(done);
                Err(failure)
            }
        }
    })?;
    match done {
        Ok(d) => {
            let note = d.note(&git_ref);
            cx.line(&format!("hippo-packs: {note}"))?;
            Ok(vec![note])
        }
        Err(failure) => {
            let done = stopped.unwrap_or_default();
            notice(refusal(&failure, &done), cx)
        }
    }
}

/// Whether this run dismisses.
#[derive(Debug, PartialEq, Eq)]
enum Decision {
    /// Not a run that dismisses (the docs say which are).
    Skip,
    /// One that would, but code scanning has not processed the upload: the notice.
    Wait(String),
    /// Dismiss on this ref.
    Go(String),
}

fn decide(s: &Settings, gh: &GithubEnv, event: &WorkflowEvent, up: &Uploaded) -> Decision {
    if !s.dismiss_allowed || s.upload == UploadMode::False {
        return Decision::Skip;
    }
    let Some(git_ref) = gh.git_ref.clone() else {
        return Decision::Skip;
    };
    // Uploaded to the default branch: not to another ref the `ref` input named.
    if !event.may_dismiss_on(&git_ref) || up.git_ref.as_deref() != Some(&git_ref) {
        return Decision::Skip;
    }
    // Not uploaded: the upload step said why.
    let Some(id) = &up.sarif_id else {
        return Decision::Skip;
    };
    if !up.processed {
        return Decision::Wait(format!(
            "the alerts of allowed warnings were not dismissed: code scanning had not finished processing SARIF {id} within {}s; the next run of the default branch dismisses them",
            s.upload_wait.as_secs()
        ));
    }
    Decision::Go(git_ref)
}

/// A result as code scanning shows it in an alert: rule id, path, message.
type Key = (String, String, String);

/// What code scanning received, by [`Key`]: the allowance's reason when every such result
/// was allowed, `None` when one was not. Results with the same key are alike to an allowance
/// (its rule, path and quoted text are all in the key), so they are allowed alike.
fn results(sarif: &str) -> HashMap<Key, Option<String>> {
    let v: serde_json::Value = serde_json::from_str(sarif).unwrap_or_default();
    let mut out: HashMap<Key, Option<String>> = HashMap::new();
    let results = v["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for r in &results {
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap_or("");
        let key = (
            r["ruleId"].as_str().unwrap_or("").to_string(),
            percent_encoding::percent_decode_str(uri)
                .decode_utf8_lossy()
                .into_owned(),
            r["message"]["text"].as_str().unwrap_or("").to_string(),
        );
        let reason = r["suppressions"][0]["justification"]
            .as_str()
            .map(str::to_string);
        let entry = out.entry(key).or_insert_with(|| reason.clone());
        if reason.is_none() {
            *entry = None;
        }
    }
    out
}

fn key(a: &Alert) -> Key {
    (a.rule.clone(), a.path.clone(), a.message.clone())
}

/// The comment of a dismissal: [`MARK`], then the reason, cut to GitHub's limit.
pub(crate) fn comment(reason: &str) -> String {
    let text = format!("{MARK}{reason}");
    if text.chars().count() <= alerts::MAX_COMMENT {
        return text;
    }
    let mut cut: String = text.chars().take(alerts::MAX_COMMENT - 1).collect();
    cut.push('…');
    cut
}

/// What the run did, and what it left.
#[derive(Debug, Default, PartialEq, Eq)]
struct Done {
    open: usize,
    dismissed: usize,
    dismissed_now: usize,
    reopened: usize,
    /// Changes left for a later run (past [`MAX_CHANGES`]).
    left: usize,
    /// A list was longer than [`MAX_PAGES`] pages.
    cut: bool,
}

impl Done {
    fn note(&self, git_ref: &str) -> String {
        let mut note = format!(
            "allowances in code scanning: {} dismissed as allowed, {} reopened (of {} open and {} dismissed alerts on {git_ref})",
            self.dismissed_now, self.reopened, self.open, self.dismissed
        );
        if self.left > 0 {
            note.push_str(&format!(
                "; {} more left for the next runs (at most {MAX_CHANGES} a run)",
                self.left
            ));
        }
        if self.cut {
            note.push_str(&format!(
                "; only the first {} alerts of each state were read",
                MAX_PAGES * alerts::PER_PAGE
            ));
        }
        note
    }
}

/// A request failed: why, and what was done before.
struct Stopped {
    failure: Failure,
    done: Done,
}

impl From<Failure> for Stopped {
    fn from(failure: Failure) -> Stopped {
        Stopped {
            failure,
            done: Done::default(),
        }
    }
}

/// Lists the open and the dismissed alerts, then changes those the results say.
async fn apply(
    http: &client::Http,
    repo: (&str, &str),
    git_ref: &str,
    results: &HashMap<Key, Option<String>>,
    mut retry: impl FnMut(&Failure),
) -> Result<Done, Stopped> {
    let open = alerts::list(http, repo, git_ref, "open", MAX_PAGES, &mut retry).await?;
    let dismissed = alerts::list(http, repo, git_ref, "dismissed", MAX_PAGES, &mut retry).await?;
    let changes = plan(&open.alerts, &dismissed.alerts, results);
    let mut done = Done {
        open: open.alerts.len(),
        dismissed: dismissed.alerts.len(),
        left: changes.len().saturating_sub(MAX_CHANGES),
        cut: open.cut || dismissed.cut,
        ..Done::default()
    };
    for (number, change) in changes.into_iter().take(MAX_CHANGES) {
        if let Err(failure) = alerts::change(http, repo, number, &change, &mut retry).await {
            return Err(Stopped { failure, done });
        }
        match change {
            Change::Dismiss(_) => done.dismissed_now += 1,
            Change::Reopen => done.reopened += 1,
        }
    }
    Ok(done)
}

/// The changes, in alert order: an open alert whose results are all allowed is dismissed; an
/// alert `ci` dismissed (its comment starts with [`MARK`]) whose result is reported again
/// without an allowance is reopened. Alerts dismissed by anyone else are left alone.
fn plan(
    open: &[Alert],
    dismissed: &[Alert],
    results: &HashMap<Key, Option<String>>,
) -> Vec<(u64, Change)> {
    let mut changes = Vec::new();
    for a in open {
        if let Some(Some(reason)) = results.get(&key(a)) {
            changes.push((a.number, Change::Dismiss(comment(reason))));
        }
    }
    for a in dismissed {
        let ours = a
            .dismissed_comment
            .as_deref()
            .is_some_and(|c| c.starts_with(MARK));
        if ours && matches!(results.get(&key(a)), Some(None)) {
            changes.push((a.number, Change::Reopen));
        }
    }
    changes
}

/// A notice in the log and the summary's notes.
fn notice(msg: String, cx: &mut RunContext<'_>) -> anyhow::Result<Vec<String>> {
    cx.annotate(Level::Notice, "code scanning", &msg)?;
    Ok(vec![format!("code scanning: {msg}")])
}

/// What a failed request means, and what was done before it.
fn refusal(f: &Failure, done: &Done) -> String {
    let before = if done.dismissed_now + done.reopened > 0 {
        format!(
            " after {} dismissed and {} reopened",
            done.dismissed_now, done.reopened
        )
    } else {
        String::new()
    };
    match f {
        Failure::RateLimited { .. } => format!(
            "the alerts of allowed warnings: stopped at GitHub's rate limit ({f}){before}; the next run of the default branch goes on"
        ),
        f if f.status() == Some(403) => format!(
            "the alerts of allowed warnings were not dismissed ({f}){before}: the token cannot change code-scanning alerts. Give the job `permissions: security-events: write`, or set `dismiss-allowed: false`"
        ),
        f => format!("the alerts of allowed warnings were not dismissed ({f}){before}"),
    }
}

#[cfg(test)]
mod tests;
