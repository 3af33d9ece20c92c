//! `hippo-packs ci`: the GitHub Action's entry point (docs/action.md).
//!
//! Finds every pack under a folder, checks them all, tests those without errors, writes the
//! SARIF file, prints the report grouped per pack and the annotations, decides which packs gate
//! the verdict (`scope`), uploads the SARIF to code scanning (and dismisses the alerts of allowed
//! warnings), and writes the job summary and the step outputs. Each step is a module; this one
//! runs them in order and returns the verdict.

mod allowances;
mod annotate;
pub(crate) mod base;
mod comment;
mod commit;
mod context;
mod discover;
mod dismiss;
mod files;
mod gate;
mod history;
mod labels;
mod log;
mod packs;
mod registry;
mod root;
mod sarif_path;
mod settings;
mod shard;
mod step_outputs;
mod upload;

use std::io::Write;
use std::path::Path;

pub(crate) use context::RunContext;
pub(crate) use discover::discover;
pub(crate) use gate::fails;
pub(crate) use sarif_path::refusal as sarif_file_refusal;
pub(crate) use settings::{
    Annotations, Choice, FailOn, FilterMode, Flags, Scope, Settings, UploadMode,
};

use crate::core::Diagnostic;
use crate::core::paths::uri_base;
use crate::github::command::Level;
use crate::github::env::GithubEnv;
use crate::github::event::WorkflowEvent;
use crate::outcome::PackReport;
use crate::report::summary;
use files::append;

/// Whether the job passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    Passed,
    Failed,
}

impl Verdict {
    fn of(failed: bool) -> Verdict {
        if failed {
            Verdict::Failed
        } else {
            Verdict::Passed
        }
    }
}

/// `ci` with its settings resolved, on `event`, writing its log to `out`.
pub(crate) fn run(
    s: &Settings,
    gh: &GithubEnv,
    event: &WorkflowEvent,
    out: &mut dyn Write,
) -> anyhow::Result<Verdict> {
    run_with(&mut RunContext::new(s, gh, event, out))
}

/// The steps, in order, each handed the run.
fn run_with(cx: &mut RunContext<'_>) -> anyhow::Result<Verdict> {
    let s = cx.settings;
    cx.say(&root_note(cx))?;

    // 1. The packs, and the folders discovery cannot enter; without a shard, checked (`packs`).
    let (found, mut checked) = match find(s)? {
        Ok(d) => d,
        Err(e) => {
            let msg = format!("cannot read {}: {e}", s.root);
            cx.annotate(Level::Error, "ci", &msg)?;
            (discover::Found::default(), packs::ReportsByDir::default())
        }
    };
    if found.packs.is_empty() && found.blocked.is_empty() {
        no_pack(cx)?;
        return Ok(Verdict::Failed);
    }

    // 2. Which of them the pull request touches, before 3. a shard's partition, so the match
    // sees every pack.
    let entries = entries_of(&found, &s.repository.dir);
    let bases: Vec<String> = entries.iter().map(|e| e.base().to_string()).collect();
    let all_gate = gate::gate(&bases, cx)?;
    let registry = registry_packs(&entries, &all_gate);
    let (mut gate, entries) = partition(all_gate, entries, cx)?;
    let found = review(&mut gate, cx)?;
    let named = registry.findings(&found);

    // Check, and test what has no error; the registry's findings; the repository root's
    // allowances (docs/configuration.md).
    let mut reports = check_entries(entries, &mut checked, s)?;
    registry::attach(named, &mut reports);
    history::attach(&found, &gate.gated, &mut reports, cx)?;
    let sharded = s.shard.is_some();
    let unused = match allowances::apply_for(&s.repository.dir, &found, &mut reports, sharded) {
        Ok(applied) => {
            gate.notes.extend(applied.notes);
            applied.unused
        }
        Err(why) => {
            cx.annotate(Level::Error, "ci", &why)?;
            return Ok(Verdict::Failed);
        }
    };

    // The review: each gated pack's findings against the base.
    let review = labels::Review::make(&mut reports, (&gate, &found), cx)?;
    let gate = gate::Gate {
        reviewed: !matches!(found, base::Review::Off),
        ..gate
    };

    // 4. The SARIF file and the JSON report; 5. the report, grouped per pack.
    let sarif = files::sarif(&reports, &s.category, &unused)?;
    let owner = step_outputs::owner_of(&s.sarif_file, cx);
    files::write_file(Path::new(&s.sarif_file), sarif.as_bytes(), owner)?;
    labels::write_json(&reports, &unused, cx)?;
    log_reports(&reports, &unused, cx)?;

    // 6. The verdict of the gated packs, and the upload.
    let failing = failing(&reports, &gate, s.fail_on);
    let mut up = upload::upload(sarif.as_bytes(), cx)?;
    if let Some(msg) = log::over_stored(&reports, &unused) {
        cx.annotate(Level::Notice, "results", &msg)?;
        up.notes.push(format!("results: {msg}"));
    }
    dismiss::dismiss(&sarif, &mut up, cx)?;
    let failed = !failing.is_empty() || up.failed_required || gate.fails_job;

    // 7. The annotations; 8. the summary and the outputs; 9. the verdict.
    report_back(&reports, (&gate, &review), &failing, up, failed, cx)?;
    Ok(Verdict::of(failed))
}

/// Steps 7 to 9: the annotations, the summary, the outputs and the log's last lines.
fn report_back(
    reports: &[PackReport],
    (gate, review): (&gate::Gate, &labels::Review),
    failing: &[&PackReport],
    mut up: upload::Uploaded,
    failed: bool,
    cx: &mut RunContext<'_>,
) -> anyhow::Result<()> {
    let s = cx.settings;
    let totals = Totals::of(reports);
    let gated = gate.gated.iter().filter(|g| **g).count();
    let verdict = verdict_line(reports, &totals, gated, s, failed);
    // The check run follows the gated packs (and the gate); a failed upload fails the job only.
    let conclusion = annotate::Conclusion {
        failed: !failing.is_empty() || gate.fails_job,
        title: verdict.trim_start_matches("hippo-packs: ").to_string(),
    };
    let annotated = annotate::annotate(reports, gate, &conclusion, cx)?;
    up.notes.extend(annotated.notes);
    up.notes
        .extend(comment::comment(reports, &gate.gated, failed, cx)?);
    write_summary(reports, (gate, review), &up, failed, cx)?;
    let written = step_outputs::Written {
        reports,
        failing,
        failed,
        uploaded: up.uploaded,
        sarif_id: up.sarif_id.as_deref(),
        check_run_url: annotated.url.as_deref(),
    };
    step_outputs::write(&written, cx)?;
    paced(cx)?;
    cx.line(&verdict)?;
    for r in failing {
        cx.line(&format!(
            "hippo-packs: failing: {} ({})",
            r.dir,
            log::status(r)
        ))?;
    }
    Ok(())
}

/// The base this run's review compares with (docs/action.md, "The review: base against
/// head"): found, a line of the log and the summary; not found, a notice as well.
fn review(gate: &mut gate::Gate, cx: &mut RunContext<'_>) -> anyhow::Result<base::Review> {
    let s = cx.settings;
    let review = base::find(&s.target, &s.repository.dir, cx.gh, cx.event);
    match &review {
        base::Review::Off => {}
        base::Review::Base(b) => {
            let note = format!("review: base {} ({})", b.short(), b.how);
            cx.line(&format!("hippo-packs: {note}"))?;
            gate.notes.push(note);
        }
        base::Review::NoBase(why) => {
            let msg = base::no_base_notice(why);
            cx.annotate(Level::Notice, "review", &msg)?;
            gate.notes.push(format!("review: {msg}"));
        }
    }
    Ok(review)
}

/// The gated packs that fail.
fn failing<'a>(
    reports: &'a [PackReport],
    gate: &gate::Gate,
    fail_on: FailOn,
) -> Vec<&'a PackReport> {
    reports
        .iter()
        .zip(&gate.gated)
        .filter(|(r, g)| **g && fails(r, fail_on))
        .map(|(r, _)| r)
        .collect()
}

/// The log's line about the repository root, when there is one to say (else nothing).
fn root_note(cx: &RunContext<'_>) -> String {
    let s = cx.settings;
    s.repository
        .note(&s.root, cx.gh.workspace.as_deref())
        .map(|n| cx.log.line(&format!("hippo-packs: {n}")))
        .unwrap_or_default()
}

/// The discovered packs and the folders discovery could not enter, in byte order of their
/// paths relative to the repository root.
fn entries_of(found: &discover::Found, root: &Path) -> Vec<Entry> {
    let mut entries: Vec<Entry> = found
        .packs
        .iter()
        .map(|d| Entry::Pack(d.clone(), uri_base(d, Some(root))))
        .chain(
            discover::reports(found, Some(root))
                .into_iter()
                .map(|r| Entry::Blocked(Box::new(r))),
        )
        .collect();
    entries.sort_by(|a, b| a.base().cmp(b.base()));
    entries
}

/// A discovered pack (its folder and repository-relative path), or a folder discovery could not
/// enter (already a report).
enum Entry {
    Pack(String, String),
    Blocked(Box<PackReport>),
}

impl Entry {
    fn base(&self) -> &str {
        match self {
            Entry::Pack(_, base) => base,
            Entry::Blocked(r) => &r.uri_base,
        }
    }
}

/// Every discovered pack, for the registry's rules, before a shard's partition (docs/action.md,
/// "The registry as a whole"): a pack is touched when the gate knows the changes and gates it,
/// and every pack is when the changes are not known.
fn registry_packs(entries: &[Entry], gate: &gate::Gate) -> registry::Packs {
    let known = gate.files.is_some();
    let packs = entries
        .iter()
        .zip(&gate.gated)
        .filter_map(|(e, g)| match e {
            Entry::Pack(dir, base) => Some((dir.clone(), base.clone(), *g || !known)),
            Entry::Blocked(_) => None,
        })
        .collect();
    registry::Packs {
        packs,
        files: gate.files.clone(),
    }
}

/// The entries of this job's shard (every entry without one), with their gate.
fn partition(
    gate: gate::Gate,
    entries: Vec<Entry>,
    cx: &mut RunContext<'_>,
) -> anyhow::Result<(gate::Gate, Vec<Entry>)> {
    let s = cx.settings;
    let Some(shard) = s.shard else {
        return Ok((gate, entries));
    };
    let total = entries.len();
    let (mut kept, mut gated) = (Vec::new(), Vec::new());
    for (e, g) in entries.into_iter().zip(gate.gated) {
        if shard.holds(e.base()) {
            kept.push(e);
            gated.push(g);
        }
    }
    let note = format!(
        "shard {}/{}: {} of {total} {} (category {})",
        shard.index,
        shard.count,
        kept.len(),
        if total == 1 { "pack" } else { "packs" },
        s.category
    );
    cx.line(&format!("hippo-packs: {note}"))?;
    let mut notes = gate.notes;
    notes.push(note);
    let gate = gate::Gate {
        gated,
        notes,
        ..gate
    };
    Ok((gate, kept))
}

/// The packs and discovery's findings: with a shard, discovery alone (the shard's packs are
/// checked after the partition); without one, every pack checked as it is found.
type Finding = std::io::Result<(discover::Found, packs::ReportsByDir)>;

fn find(s: &Settings) -> anyhow::Result<Finding> {
    if s.shard.is_none() {
        return packs::find_and_check(s);
    }
    Ok(discover(&s.root).map(|f| (f, packs::ReportsByDir::default())))
}

/// The report of each of `entries`, in their order: the packs not checked yet (a shard's) are
/// checked (and tested) now.
fn check_entries(
    entries: Vec<Entry>,
    checked: &mut packs::ReportsByDir,
    s: &Settings,
) -> anyhow::Result<Vec<PackReport>> {
    let dirs: Vec<String> = entries
        .iter()
        .filter_map(|e| match e {
            Entry::Pack(d, _) => Some(d.clone()),
            Entry::Blocked(_) => None,
        })
        .filter(|d| !checked.has(d))
        .collect();
    let mut fresh = packs::run_packs(&dirs, s, dirs.len() > 1)?.into_iter();
    let mut reports = Vec::with_capacity(entries.len());
    for e in entries {
        match e {
            Entry::Pack(dir, base) => {
                let mut r = checked
                    .take(&dir)
                    .or_else(|| fresh.next())
                    .ok_or_else(|| anyhow::anyhow!("a pack's report is missing"))?;
                r.uri_base = base;
                reports.push(r);
            }
            Entry::Blocked(r) => reports.push(*r),
        }
    }
    Ok(reports)
}

/// No pack under the root: the error, the summary and the outputs say so.
fn no_pack(cx: &mut RunContext<'_>) -> anyhow::Result<()> {
    let (s, gh) = (cx.settings, cx.gh);
    let msg = format!(
        "no pack found under {}: no folder there holds a pack.toml (every folder but .git is searched)",
        s.root
    );
    cx.annotate(Level::Error, "ci", &msg)?;
    if let Some(p) = &gh.step_summary {
        let text = format!("## hippo-packs\n\n❌ **Failed** — {}\n", summary::md(&msg));
        append(p, &text)?;
    }
    step_outputs::write_none(cx)
}

/// The report grouped per pack, then the run's own findings (allowances that matched nothing).
fn log_reports(
    reports: &[PackReport],
    unused: &[Diagnostic],
    cx: &mut RunContext<'_>,
) -> anyhow::Result<()> {
    let s = cx.settings;
    for r in reports {
        // A pack at the root is shown by its name (`.` says little in a list of groups).
        let title = match (r.dir.as_str(), &r.name) {
            (".", Some(name)) => name.as_str(),
            (dir, _) => dir,
        };
        let group = cx.log.group(&format!("{title}: {}", log::status(r)));
        cx.say(&group)?;
        cx.say(&log::pack_text(r, s.test))?;
        let end = cx.log.endgroup();
        cx.say(&end)?;
    }
    for d in unused {
        cx.annotate(Level::Warning, "ci", &d.text(""))?;
    }
    Ok(())
}

/// The counts over every pack.
struct Totals {
    errors: usize,
    warnings: usize,
    failed_cases: usize,
}

impl Totals {
    fn of(reports: &[PackReport]) -> Totals {
        Totals {
            errors: reports.iter().map(|r| r.errors()).sum(),
            warnings: reports.iter().map(|r| r.warnings()).sum(),
            failed_cases: reports.iter().map(|r| r.failed_cases()).sum(),
        }
    }
}

fn write_summary(
    reports: &[PackReport],
    (gate, review): (&gate::Gate, &labels::Review),
    up: &upload::Uploaded,
    failed: bool,
    cx: &RunContext<'_>,
) -> anyhow::Result<()> {
    let (s, log) = (cx.settings, &cx.log);
    let Some(p) = &cx.gh.step_summary else {
        return Ok(());
    };
    let allowed = allowances::notes(reports);
    let notes = gate.notes.iter().chain(&up.notes).chain(&allowed);
    let cx = summary::Context {
        gated: gate.gated.clone(),
        scope: s.scope.name().to_string(),
        fail_on: s.fail_on.name().to_string(),
        failed,
        notes: notes.map(|n| log.clean(n)).collect(),
    };
    let mut text = summary::render(reports, &cx);
    let room = summary::BUDGET.saturating_sub(text.len());
    text.push_str(&review.prompt_section(reports, room));
    append(p, &text)
}

/// What pacing the writes cost, when the run wrote to GitHub (docs/action.md, "Paced writes").
fn paced(cx: &mut RunContext<'_>) -> anyhow::Result<()> {
    let Some(p) = cx.paced().filter(|p| p.writes > 0) else {
        return Ok(());
    };
    let line = format!(
        "hippo-packs: {} write {} to GitHub, {:.1} s spent waiting to keep a second between them",
        p.writes,
        if p.writes == 1 { "request" } else { "requests" },
        p.waited.as_secs_f64()
    );
    cx.line(&line)
}

/// The last line: the counts, the gate and the verdict.
fn verdict_line(
    reports: &[PackReport],
    t: &Totals,
    gated: usize,
    s: &Settings,
    failed: bool,
) -> String {
    let plural = |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    format!(
        "hippo-packs: {} {}, {} {}, {} {}, {} failed {}; {gated} gated (scope {}, fail-on {}): {}",
        reports.len(),
        plural(reports.len(), "pack", "packs"),
        t.errors,
        plural(t.errors, "error", "errors"),
        t.warnings,
        plural(t.warnings, "warning", "warnings"),
        t.failed_cases,
        plural(t.failed_cases, "case", "cases"),
        s.scope.name(),
        s.fail_on.name(),
        if failed { "failed" } else { "passed" }
    )
}
