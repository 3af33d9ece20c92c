//! `check --fix` and `check --diff`: the fixes that cannot change what a pack means
//! (docs/fixes.md), planned from a pack's findings and bytes, made in memory until none is left,
//! and written back through `system::safe_write::rewrite` (never through a link).
//!
//! Nothing under `tests/` is fixed (a fixture's bytes are its meaning), nor a file that is not
//! UTF-8 or was not read whole, nor any edit that touches a secret a redaction finding places.

mod chars;
mod edit;
mod lines;
mod manifest;
mod prompt;
mod quotes;
mod suggest;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use crate::allow::Config;
use crate::check::{Loaded, check_dir_with, parallel_map, prefix_for};
use crate::core::{Diagnostic, LineIndex, Span};
use crate::model::Documents;
use crate::model::manifest::kind_of;
use crate::outcome::PackReport;
use crate::pack::{Pack, PackFile};
use crate::rules::redaction::REDACTION;
use edit::Guard;
pub(crate) use edit::{Edit, Fix};
pub(crate) use suggest::{fixes_of, suggest};

/// A round fixes what the findings show; the next one checks the result again. A fix can make
/// another one possible (a CRLF that a removed character split), never a cycle: this bounds the
/// rounds all the same.
const MAX_ROUNDS: usize = 4;

/// One fix made: where (line and code-point column of the file as it was before any fix) and
/// what (`removed U+200B ZERO WIDTH SPACE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fixed {
    pub(crate) line: usize,
    pub(crate) col: usize,
    pub(crate) message: String,
}

/// A file the fixes change: its bytes before and after, and each fix.
#[derive(Debug, Clone)]
pub(crate) struct FileFix {
    /// Pack-relative, `/`-separated.
    pub(crate) path: String,
    pub(crate) before: Vec<u8>,
    pub(crate) after: Vec<u8>,
    pub(crate) fixed: Vec<Fixed>,
    /// Why the file was not written ([`write()`]), if it was not.
    pub(crate) refused: Option<String>,
}

/// The fixes of one pack folder, its files in walk order.
#[derive(Debug, Clone, Default)]
pub(crate) struct PackFixes {
    /// The folder as given.
    pub(crate) dir: String,
    /// What the text output puts before the pack's paths (`check::prefix_for`).
    pub(crate) prefix: String,
    pub(crate) files: Vec<FileFix>,
}

/// Plans the fixes of every folder (in parallel), in the order given. `config`'s allowances
/// keep the warnings they allow from being fixed: a maintainer judged them.
pub(crate) fn plan_all(dirs: &[String], config: Option<Config>) -> Vec<PackFixes> {
    let several = dirs.len() > 1;
    let config = Mutex::new(config);
    parallel_map(dirs, |_, d| plan_dir(d, prefix_for(d, several), &config))
}

/// Checks every folder (in parallel), in the order given, each finding that `--fix` mends
/// carrying its fix ([`suggest()`]): for the formats that mark what is fixable.
pub(crate) fn check_all_suggested(dirs: &[String]) -> Vec<PackReport> {
    let several = dirs.len() > 1;
    parallel_map(dirs, |_, d| {
        let (mut report, loaded) =
            check_dir_with(d, prefix_for(d, several), |report, pack, docs| {
                // Planned from the check's own documents, while their parses are there.
                let mut found = report.diagnostics.clone();
                suggest(pack, &mut found, &|f, own| plan_file(f, own, docs));
                found.into_iter().map(|d| d.fix).collect::<Vec<_>>()
            });
        if let Some((_, fixes)) = loaded {
            for (d, fix) in report.diagnostics.iter_mut().zip(fixes) {
                d.fix = fix;
            }
        }
        report
    })
}

/// The fixes of one folder: rounds of findings and fixes on the pack in memory, until a round
/// finds nothing to fix.
pub(crate) fn plan_dir(dir: &str, prefix: String, config: &Mutex<Option<Config>>) -> PackFixes {
    let out = PackFixes {
        dir: dir.to_string(),
        prefix: prefix.clone(),
        files: Vec::new(),
    };
    // The first round is planned from the check's own documents, while their parses are there.
    let (_, loaded) = check_dir_with(dir, prefix, |report, pack, docs| {
        let findings = not_allowed(report.clone(), config);
        plan_round(pack, docs, &findings)
    });
    let Some((Loaded { pack, .. }, plans)) = loaded else {
        return out;
    };
    rounds(pack, plans, config, out)
}

/// [`plan_dir`] for a pack in memory and its findings once the allowances took theirs (the
/// language server's, from an editor's unsaved text).
pub(crate) fn plan_pack(
    dir: &str,
    pack: Pack,
    findings: &[Diagnostic],
    config: &Mutex<Option<Config>>,
) -> PackFixes {
    let plans = plan_round(&pack, &Documents::read(&pack), findings);
    let out = PackFixes {
        dir: dir.to_string(),
        prefix: String::new(),
        files: Vec::new(),
    };
    rounds(pack, plans, config, out)
}

/// The first round's fixes of the file at `path` (each one `--fix` would make first) from the
/// pack's findings once the allowances took theirs: the language server's quick fixes.
pub(crate) fn plan_one_file(pack: &Pack, path: &str, findings: &[Diagnostic]) -> Vec<Fix> {
    let Some(f) = pack.file(path) else {
        return Vec::new();
    };
    let own: Vec<&Diagnostic> = findings
        .iter()
        .filter(|d| d.file.as_deref() == Some(path))
        .collect();
    plan_file(f, &own, &Documents::read(pack))
}

/// The first round (`plans`) and the rounds after it, into `out`.
fn rounds(
    mut pack: Pack,
    mut plans: Vec<(usize, Vec<Fix>)>,
    config: &Mutex<Option<Config>>,
    mut out: PackFixes,
) -> PackFixes {
    let mut history = HashMap::new();
    for round in 0..MAX_ROUNDS {
        if round > 0 {
            // pack.toml decided the layout the walk read; when a fix changed the kind it names
            // (a byte-order mark kept the manifest from being read), the files in memory are no
            // longer the pack's, and the next round waits for the next run.
            let kind = pack.file("pack.toml").map(|f| kind_of(&f.bytes));
            if kind.is_some_and(|k| k != pack.kind) {
                break;
            }
            let docs = Documents::read(&pack);
            let report = PackReport {
                dir: out.dir.clone(),
                diagnostics: crate::rules::judge(&pack, &docs),
                ..PackReport::default()
            };
            plans = plan_round(&pack, &docs, &not_allowed(report, config));
        }
        if plans.is_empty() {
            break;
        }
        fix_round(
            &mut pack,
            std::mem::take(&mut plans),
            &mut out.files,
            &mut history,
        );
    }
    out
}

/// The fixes of each file of the pack (by its index), from the round's findings and documents;
/// the files without one are left out.
fn plan_round(
    pack: &Pack,
    docs: &Documents<'_>,
    findings: &[Diagnostic],
) -> Vec<(usize, Vec<Fix>)> {
    let mut plans = Vec::new();
    for (i, f) in pack.files().iter().enumerate() {
        let own: Vec<&Diagnostic> = findings
            .iter()
            .filter(|d| d.file.as_deref() == Some(f.path.as_str()))
            .collect();
        let fixes = plan_file(f, &own, docs);
        if !fixes.is_empty() {
            plans.push((i, fixes));
        }
    }
    plans
}

/// The report's findings once the allowances took theirs.
fn not_allowed(mut report: PackReport, config: &Mutex<Option<Config>>) -> Vec<Diagnostic> {
    let mut config = config.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = config.as_mut() {
        c.apply(&mut report);
    }
    report.diagnostics
}

/// Makes one round of fixes in the pack's files (`plans`: each file's, by its index),
/// recording each in `files` at its place in the file before the first round (`history`: the
/// edits of each file's earlier rounds).
fn fix_round(
    pack: &mut Pack,
    plans: Vec<(usize, Vec<Fix>)>,
    files: &mut Vec<FileFix>,
    history: &mut HashMap<String, Vec<Vec<Edit>>>,
) {
    for (i, fixes) in plans {
        let f = &pack.files()[i];
        let after = edit::apply(&f.bytes, &fixes);
        let at = match files.iter().position(|ff| ff.path == f.path) {
            Some(i) => i,
            None => {
                files.push(FileFix {
                    path: f.path.clone(),
                    before: f.bytes.clone(),
                    after: Vec::new(),
                    fixed: Vec::new(),
                    refused: None,
                });
                files.len() - 1
            }
        };
        let FileFix {
            before,
            after: written,
            fixed,
            ..
        } = &mut files[at];
        let rounds = history.entry(f.path.clone()).or_default();
        let index = LineIndex::new(before);
        for fix in &fixes {
            let (line, col, _) = index.position(edit::original(fix.at(), rounds));
            fixed.push(Fixed {
                line,
                col,
                message: fix.message(),
            });
        }
        rounds.push(fixes.into_iter().flat_map(|x| x.edits).collect());
        written.clone_from(&after);
        let path = f.path.clone();
        pack.set_bytes(&path, after);
    }
}

/// The fixes of one file, from its findings (`findings`: the file's own), in the order of their
/// place. The planners' order decides an overlap: the closing instruction, the curly quotes, the
/// description, the hidden characters, then the line ends.
fn plan_file(f: &PackFile, findings: &[&Diagnostic], docs: &Documents<'_>) -> Vec<Fix> {
    if f.in_tests() {
        return Vec::new();
    }
    let Some(text) = f.text() else {
        return Vec::new();
    };
    let mut fixes: Vec<Fix> = prompt::closing(text, findings).into_iter().collect();
    fixes.extend(quotes::curly(&f.path, text, docs.toml(&f.path)));
    if let Some(Ok(doc)) = docs.toml(&f.path) {
        fixes.extend(manifest::description(&f.path, text, doc));
    }
    fixes.extend(chars::hidden(text, findings));
    fixes.extend(lines::crlf(text));
    edit::select(fixes, &guard(findings))
}

/// The places of the file's findings that are never shown as written (a secret, masked); the
/// whole file when a redaction finding places none.
fn guard(findings: &[&Diagnostic]) -> Guard {
    let mut spans: Vec<Span> = Vec::new();
    for d in findings {
        if d.rule.id == REDACTION.id && d.related.is_empty() {
            match d.span {
                Some(s) => spans.push(s),
                None => return Guard::File,
            }
        }
        let hidden = d.related.iter().filter(|r| !r.masks.is_empty());
        spans.extend(hidden.map(|r| r.span));
    }
    Guard::Spans(spans)
}

/// Writes each planned file of the pack, unless a symbolic link is on its way inside the pack
/// folder, or the file changed since it was read: then `refused` says why and the file is left
/// as it is. The pack folder itself, named on the command line, is followed as the walk follows
/// it.
pub(crate) fn write(p: &mut PackFixes) {
    let dir = Path::new(&p.dir);
    for f in &mut p.files {
        let rel = Path::new(&f.path);
        f.refused = if let Some(link) = crate::system::safe_write::link_on_path(rel, dir) {
            Some(format!(
                "{} is a symbolic link; a link is never written through",
                link.display()
            ))
        } else {
            let full = dir.join(rel);
            match std::fs::read(&full) {
                Ok(now) if now != f.before => Some("it changed since it was read".to_string()),
                Ok(_) => crate::system::safe_write::rewrite(&full, &f.after)
                    .err()
                    .map(|e| e.to_string()),
                Err(e) => Some(e.to_string()),
            }
        };
    }
}

#[cfg(test)]
mod tests;
