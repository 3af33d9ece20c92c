//! The `annotations` input (docs/action.md, "Annotations"): the findings on the diff through a
//! check run (at most 1,000, the ones that matter first, the rest counted in its summary), or
//! workflow commands, of which GitHub shows at most ten per level and step, so the ones that
//! matter come first and one notice counts the rest.

use super::commit;
use super::context::RunContext;
use super::gate::Gate;
use super::settings::{Annotations, FilterMode};
use crate::core::baseline::Baseline;
use crate::core::{Diagnostic, Severity, escape};
use crate::github::checks::{self, Annotation, CheckRun};
use crate::github::client;
use crate::github::command::Level;
use crate::outcome::PackReport;
use crate::report::annotations::annotate as command_line;
use crate::report::located::{location_path, raw_message};

/// GitHub shows at most this many annotations of one level per step from workflow commands.
pub(crate) const COMMANDS_PER_LEVEL: usize = 10;

/// One finding, with what decides its rank.
struct Finding<'a> {
    report: &'a PackReport,
    diag: &'a Diagnostic,
    gated: bool,
    in_changed_file: bool,
}

/// Every finding (diagnostics and failed expectations), the ones that matter first: gated
/// packs, then changed files, then errors before warnings, then report order. With `only_new`
/// (a review under `filter-mode: new`), only the new findings and every error of a gated pack.
fn ranked<'a>(reports: &'a [PackReport], gate: &Gate, only_new: bool) -> Vec<Finding<'a>> {
    let mut all = Vec::new();
    for (i, r) in reports.iter().enumerate() {
        let failures = r.cases.iter().flat_map(|c| &c.failures);
        let gated = gate.gated.get(i).copied().unwrap_or(true);
        for d in r.diagnostics.iter().chain(failures) {
            let new = d.baseline == Some(Baseline::New);
            if only_new && !new && !(gated && d.severity == Severity::Error) {
                continue;
            }
            let path = location_path(r, d);
            all.push(Finding {
                report: r,
                diag: d,
                gated,
                in_changed_file: gate.files.as_ref().is_some_and(|f| f.contains(&path)),
            });
        }
    }
    // A stable sort keeps report order among equals.
    all.sort_by_key(|f| {
        (
            !f.gated,
            !f.in_changed_file,
            f.diag.severity != Severity::Error,
        )
    });
    all
}

/// Annotates as `annotations` says; returns the notes for the job summary.
pub(crate) fn annotate(
    reports: &[PackReport],
    gate: &Gate,
    conclusion: &Conclusion,
    cx: &mut RunContext<'_>,
) -> anyhow::Result<Annotated> {
    let s = cx.settings;
    let only_new = s.filter_mode == FilterMode::New && gate.reviewed;
    let findings = ranked(reports, gate, only_new);
    let try_checks = match s.annotations {
        Annotations::None => return Ok(Annotated::default()),
        Annotations::Commands => false,
        Annotations::Checks => true,
        Annotations::Auto => cx.gh.actions && s.token.is_some(),
    };
    // A check run belongs on the pull request's head; a base checkout's findings are not its.
    let try_checks = try_checks
        && commit::base_checkout(&s.target, &s.repository.dir, cx.gh, cx.event).is_none();
    if try_checks {
        match check_run(&findings, conclusion, cx) {
            Ok((Ok(note), url)) => {
                cx.line(&format!("hippo-packs: {note}"))?;
                let notes = vec![note];
                return Ok(Annotated { notes, url });
            }
            Ok((Err(stopped), url)) => {
                cx.annotate(Level::Notice, "annotations", &stopped)?;
                let notes = vec![format!("annotations: {stopped}")];
                return Ok(Annotated { notes, url });
            }
            Err(why) => {
                let msg = format!(
                    "no check run ({why}); the findings are annotated by workflow commands instead"
                );
                let level = match s.annotations {
                    Annotations::Checks => Level::Warning,
                    _ => Level::Notice,
                };
                cx.annotate(level, "annotations", &msg)?;
                commands(&findings, cx)?;
                let notes = vec![format!("annotations: {msg}")];
                return Ok(Annotated { notes, url: None });
            }
        }
    }
    commands(&findings, cx)?;
    Ok(Annotated::default())
}

/// What annotating did: the summary's notes, and the check run's page when one was made.
#[derive(Default)]
pub(crate) struct Annotated {
    pub(crate) notes: Vec<String>,
    pub(crate) url: Option<String>,
}

/// What the check run says of the job.
pub(crate) struct Conclusion {
    /// Whether a gated pack fails (or the gate itself fails the job): the check run's
    /// conclusion, which a failed upload does not change.
    pub(crate) failed: bool,
    /// One line of counts: the check run's title.
    pub(crate) title: String,
}

/// At most ten workflow commands per level, the ones that matter first, then one notice with
/// the count left out (only on GitHub Actions: elsewhere nothing reads them).
fn commands(findings: &[Finding<'_>], cx: &mut RunContext<'_>) -> anyhow::Result<()> {
    if !cx.gh.actions {
        return Ok(());
    }
    let (mut errors, mut warnings) = (0usize, 0usize);
    let (mut left_errors, mut left_warnings) = (0usize, 0usize);
    let mut text = String::new();
    for f in findings {
        let (shown, left) = match f.diag.severity {
            Severity::Error => (&mut errors, &mut left_errors),
            Severity::Warning => (&mut warnings, &mut left_warnings),
        };
        if *shown < COMMANDS_PER_LEVEL {
            *shown += 1;
            command_line(&mut text, f.report, f.diag);
        } else {
            *left += 1;
        }
    }
    cx.say(&text)?;
    let left = left_errors + left_warnings;
    if left > 0 {
        let msg = format!(
            "{left} more {} not annotated here ({left_errors} {}, {left_warnings} {}): GitHub shows at most {COMMANDS_PER_LEVEL} annotations of each level per step. Every finding is in the job summary and the SARIF file (code scanning, when uploaded); `annotations: checks` with `permissions: checks: write` annotates them all.",
            if left == 1 {
                "finding is"
            } else {
                "findings are"
            },
            if left_errors == 1 { "error" } else { "errors" },
            if left_warnings == 1 {
                "warning"
            } else {
                "warnings"
            },
        );
        cx.annotate(Level::Notice, "annotations", &msg)?;
    }
    Ok(())
}

/// The check run and its page: `Ok(Ok)` the line saying what it holds, `Ok(Err)` the notice
/// of a run whose annotating stopped early (a rate limit), `Err` why there is none.
fn check_run(
    findings: &[Finding<'_>],
    conclusion: &Conclusion,
    cx: &mut RunContext<'_>,
) -> Result<(Result<String, String>, Option<String>), String> {
    let s = cx.settings;
    let (owner, repo) = cx.gh.owner_repo().ok_or("no GITHUB_REPOSITORY")?;
    s.token.as_deref().ok_or("no token")?;
    let head_sha = head_sha(cx)?;
    let annotations: Vec<Annotation> = findings
        .iter()
        .take(checks::MAX_ANNOTATIONS)
        .map(|f| annotation(f.report, f.diag, f.gated))
        .collect();
    let run = CheckRun {
        owner: owner.to_string(),
        repo: repo.to_string(),
        name: format!("{} findings", s.category),
        head_sha,
        conclusion: if conclusion.failed {
            "failure"
        } else {
            "success"
        },
        title: conclusion.title.clone(),
        summary: run_summary(annotations.len(), findings.len()),
    };
    let done = cx
        .github("check run", async |http, retry| {
            let http = http.with_rate_retries(1);
            checks::publish(&http, &run, &annotations, retry).await
        })
        .map_err(|e| e.to_string())?;
    let p = done.map_err(|f| cx.log.clean(&f.to_string()))?;
    let line = published(&run.name, &p, annotations.len(), findings.len(), cx);
    Ok((line, p.url.clone()))
}

/// The check run's summary: how many findings it holds, and where the rest are.
fn run_summary(kept: usize, total: usize) -> String {
    let noun = |n: usize| if n == 1 { "finding" } else { "findings" };
    if kept == total {
        return format!(
            "{total} {} annotated; the job summary has the whole report.",
            noun(total)
        );
    }
    format!(
        "The first {kept} of {total} findings are annotated (gated packs and changed files first; a check run here holds at most {}); the other {} are in the job summary and the SARIF file.",
        checks::MAX_ANNOTATIONS,
        total - kept
    )
}

/// What the log says of a published check run: the line, or the notice of a run whose
/// annotating stopped (it names the rate limit and how many were sent).
fn published(
    name: &str,
    p: &checks::Published,
    kept: usize,
    total: usize,
    cx: &RunContext<'_>,
) -> Result<String, String> {
    let requests = format!(
        "{} {}",
        p.requests,
        if p.requests == 1 {
            "request"
        } else {
            "requests"
        }
    );
    let why = p.stopped.as_ref().or(p.unfinished.as_ref());
    if let Some(f) = why {
        let limited = matches!(f, client::Failure::RateLimited { .. });
        return Err(format!(
            "check run {name} ({}): {} after {} of {kept} annotations ({requests}; {}); the verdict stands, and every finding is in the job summary and the SARIF file",
            p.id,
            if limited {
                "annotating stopped at GitHub's rate limit"
            } else {
                "annotating stopped"
            },
            p.sent,
            cx.log.clean(&f.to_string())
        ));
    }
    if kept == total {
        Ok(format!(
            "check run {name} ({}) holds all {kept} annotations ({requests})",
            p.id
        ))
    } else {
        Ok(format!(
            "check run {name} ({}) holds {kept} of {total} annotations ({requests}); the other {} are in the job summary",
            p.id,
            total - kept
        ))
    }
}

/// The commit the check run belongs to: a pull request's head (a run on the merge commit would
/// not show on the pull request), else the commit the upload goes to.
fn head_sha(cx: &RunContext<'_>) -> Result<String, String> {
    if let Some(sha) = cx.event.pull_request().and_then(|p| p.head_sha.clone()) {
        return Ok(sha);
    }
    let s = cx.settings;
    commit::target(&s.target, &s.repository.dir, cx.gh, cx.event).map(|t| t.sha)
}

/// A finding as the Checks API takes it: columns (code points) only on a one-line span; the
/// finding's own hint (`did you mean per_note?`) under its message, the rule's help (or the
/// finding's own, which replaces it) in `raw_details`. An error of a pack that does not gate
/// (`gated` false: one the pull request does not touch) is a `notice`, never a `failure`.
fn annotation(r: &PackReport, d: &Diagnostic, gated: bool) -> Annotation {
    let g = &d.region;
    let one_line = d.span.is_some() && g.end_line == g.line;
    // Each part a line of its own, escaped as one (a pack's text never breaks a line).
    let mut message = escape::line(&raw_message(d)).into_owned();
    if let Some(hint) = d.hint.as_deref().filter(|h| !h.is_empty()) {
        message.push_str("\nhelp: ");
        message.push_str(&escape::line(hint));
    }
    let help = match (&d.hint, d.own_help) {
        (Some(own), true) => own.as_str(),
        _ => d.rule.help(),
    };
    Annotation {
        path: location_path(r, d),
        start_line: g.line.max(1),
        end_line: g.end_line.max(g.line).max(1),
        start_column: one_line.then_some(g.col.max(1)),
        end_column: one_line.then_some(g.end_col.max(g.col).max(1)),
        annotation_level: match d.severity {
            Severity::Error if gated => "failure",
            Severity::Error => "notice",
            Severity::Warning => "warning",
        },
        title: format!("hippo-packs ({})", d.rule.id),
        message: checks::cap_message(&message),
        raw_details: (!help.is_empty()).then(|| checks::cap_message(&escape::line(help))),
    }
}
