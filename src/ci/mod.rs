//! `hippo-packs ci`: the GitHub Action's entry point (docs/action.md).
//!
//! Finds every pack under a folder, checks them all, tests those without errors, writes the
//! SARIF file, prints the report grouped per pack and the annotations, decides which packs gate
//! the verdict (`scope`), uploads the SARIF to code scanning, and writes the job summary and the
//! step outputs. Each step is a module; this one runs them in order and returns the verdict.

mod commit;
mod discover;
mod gate;
mod net;
mod output;
mod sarif_path;
mod settings;
mod upload;

use std::io::Write;
use std::path::Path;

pub use discover::discover;
pub use gate::fails;
pub use sarif_path::refusal as sarif_file_refusal;
pub use settings::{Choice, FailOn, Flags, Scope, Settings, UploadMode};

use crate::github::command::{Level, Log};
use crate::github::env::GithubEnv;
use crate::github::{outputs, summary};
use crate::outcome::PackReport;
use crate::report;
use output::{append, say};

/// Whether the job passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Passed,
    Failed,
}

/// `ci` with its settings resolved, writing its log to `out`.
pub fn run(s: &Settings, gh: &GithubEnv, out: &mut dyn Write) -> anyhow::Result<Verdict> {
    let log = Log::new(gh.actions, s.token.as_deref());
    let mut net = net::Net::default();

    // 1. The packs, and the folders discovery could not enter (each an error).
    let found = match discover(&s.root) {
        Ok(d) => d,
        Err(e) => {
            let msg = format!("cannot read {}: {e}", s.root);
            say(out, &log.annotate(Level::Error, "ci", &msg))?;
            discover::Found::default()
        }
    };
    if found.packs.is_empty() && found.blocked.is_empty() {
        no_pack(s, gh, &log, out)?;
        return Ok(Verdict::Failed);
    }

    // 2. Check, and test what has no error.
    let mut reports = run_packs(&found.packs, s)?;
    for r in &mut reports {
        r.uri_base = discover::uri_base(&r.dir, gh.workspace.as_deref());
    }
    reports.extend(blocked_reports(&found, gh));
    reports.sort_by(|a, b| a.uri_base.cmp(&b.uri_base));

    // 3. The SARIF file.
    let sarif = report::sarif::render(&reports, &s.category);
    output::write_file(Path::new(&s.sarif_file), sarif.as_bytes())?;

    // 4. The report, grouped per pack, then the annotations.
    log_reports(&reports, s, gh, &log, out)?;

    // 5. Which packs decide the verdict.
    let gate = gate::gate(&reports, s, gh, &log, &mut net, out)?;
    let failing: Vec<&PackReport> = reports
        .iter()
        .zip(&gate.gated)
        .filter(|(r, g)| **g && fails(r, s.fail_on))
        .map(|(r, _)| r)
        .collect();

    // 6. The upload.
    let up = upload::upload(sarif.as_bytes(), s, gh, &log, &mut net, out)?;
    let failed = !failing.is_empty() || up.failed_required;

    // 7. The summary and the outputs; 8. the verdict.
    let totals = Totals::of(&reports);
    write_summary(&reports, &gate, &up, failed, s, gh, &log)?;
    write_outputs(&reports, &totals, &up, s, gh)?;
    let gated = gate.gated.iter().filter(|g| **g).count();
    say(
        out,
        &log.line(&verdict_line(&reports, &totals, gated, s, failed)),
    )?;
    for r in &failing {
        let line = format!("hippo-packs: failing: {} ({})", r.dir, output::status(r));
        say(out, &log.line(&line))?;
    }
    Ok(if failed {
        Verdict::Failed
    } else {
        Verdict::Passed
    })
}

/// Checks (and tests) every pack.
fn run_packs(dirs: &[String], s: &Settings) -> anyhow::Result<Vec<PackReport>> {
    if s.test {
        crate::fixture::test_all(&crate::fixture::TestOptions {
            dirs: dirs.to_vec(),
            case: None,
            model_command: None,
        })
    } else {
        Ok(crate::check::check_all(dirs))
    }
}

/// A folder discovery could not enter, as a report of its own holding one error: it is counted,
/// annotated, in the SARIF and the summary, and under `scope: changed` it gates when the pull
/// request touches a file under it (docs/action.md, "Finds the packs").
fn blocked_reports(found: &discover::Found, gh: &GithubEnv) -> Vec<PackReport> {
    use crate::rules::{layout, paths};
    found
        .blocked
        .iter()
        .map(|(dir, path, why)| {
            let rule = match why {
                discover::Blocked::NotUtf8 => &paths::NAME_NOT_UTF8,
                discover::Blocked::Link => &layout::SYMBOLIC_LINK,
                discover::Blocked::TooDeep | discover::Blocked::Unreadable(_) => {
                    &layout::UNREADABLE
                }
            };
            let msg = format!("{dir}: {}", why.message());
            PackReport {
                dir: dir.clone(),
                uri_base: discover::entry_uri_base(path, gh.workspace.as_deref()),
                diagnostics: vec![crate::core::Diagnostic::pack(rule, msg)],
                ..PackReport::default()
            }
        })
        .collect()
}

/// No pack under the root: the error, the summary and the outputs say so.
fn no_pack(s: &Settings, gh: &GithubEnv, log: &Log, out: &mut dyn Write) -> anyhow::Result<()> {
    let msg = format!(
        "no pack found under {}: no folder there holds a pack.toml (every folder but .git is searched)",
        s.root
    );
    say(out, &log.annotate(Level::Error, "ci", &msg))?;
    if let Some(p) = &gh.step_summary {
        let text = format!("## hippo-packs\n\n❌ **Failed** — {}\n", summary::md(&msg));
        append(p, &text)?;
    }
    if let Some(p) = &gh.output {
        let values: Vec<(&str, String)> = [
            ("sarif-file", ""),
            ("packs", "0"),
            ("errors", "0"),
            ("warnings", "0"),
            ("failed-cases", "0"),
            ("uploaded", "false"),
        ]
        .into_iter()
        .map(|(k, v)| (k, v.to_string()))
        .collect();
        outputs::write(p, &values)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))?;
    }
    Ok(())
}

/// The report grouped per pack, then the annotations (on GitHub).
fn log_reports(
    reports: &[PackReport],
    s: &Settings,
    gh: &GithubEnv,
    log: &Log,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    for r in reports {
        // A pack at the root is shown by its name (`.` says little in a list of groups).
        let title = match (r.dir.as_str(), &r.name) {
            (".", Some(name)) => name.as_str(),
            (dir, _) => dir,
        };
        say(out, &log.group(&format!("{title}: {}", output::status(r))))?;
        say(out, &output::pack_text(r, s.test))?;
        say(out, &log.endgroup())?;
    }
    if gh.actions {
        say(out, &output::annotations(reports))?;
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
    gate: &gate::Gate,
    up: &upload::Uploaded,
    failed: bool,
    s: &Settings,
    gh: &GithubEnv,
    log: &Log,
) -> anyhow::Result<()> {
    let Some(p) = &gh.step_summary else {
        return Ok(());
    };
    let notes = gate.notes.iter().chain(&up.notes);
    let cx = summary::Context {
        gated: gate.gated.clone(),
        scope: s.scope.name().to_string(),
        fail_on: s.fail_on.name().to_string(),
        failed,
        notes: notes.map(|n| log.clean(n)).collect(),
    };
    append(p, &summary::render(reports, &cx))
}

fn write_outputs(
    reports: &[PackReport],
    t: &Totals,
    up: &upload::Uploaded,
    s: &Settings,
    gh: &GithubEnv,
) -> anyhow::Result<()> {
    let Some(p) = &gh.output else {
        return Ok(());
    };
    let mut values = vec![
        ("sarif-file", s.sarif_file.clone()),
        ("packs", reports.len().to_string()),
        ("errors", t.errors.to_string()),
        ("warnings", t.warnings.to_string()),
        ("failed-cases", t.failed_cases.to_string()),
        ("uploaded", up.uploaded.to_string()),
    ];
    if let Some(id) = &up.sarif_id {
        values.push(("sarif-id", id.clone()));
    }
    outputs::write(p, &values).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))
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
