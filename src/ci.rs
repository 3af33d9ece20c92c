//! `hippo-packs ci`: the GitHub Action's entry point (ACTION.md).
//!
//! Finds every pack under a folder, checks them all, tests those without errors, writes the
//! SARIF file, prints the report grouped per pack and the annotations, decides which packs gate
//! the verdict (`scope`), uploads the SARIF to code scanning, and writes the job summary and the
//! step outputs. Every input has a flag; a flag wins over its `INPUT_*` variable, which wins
//! over the default. `GITHUB_*` variables are read only when present.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::ValueEnum;

use crate::cli::{EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, print};
use crate::github::command::{Level, Log};
use crate::github::env::{self, GithubEnv};
use crate::github::{client, event, outputs, pulls, summary, upload};
use crate::report::{self, Mode, PackReport};

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadMode {
    /// Upload when a token is at hand; a failed upload changes nothing.
    Auto,
    /// Upload, and fail when the upload fails.
    True,
    /// Never upload.
    False,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    /// A gated pack with an error or a failed case fails.
    Error,
    /// A warning fails too.
    Warning,
    /// Never fail on findings.
    Never,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Only the packs the pull request changes decide the verdict.
    Changed,
    /// Every pack decides the verdict.
    All,
}

/// `hippo-packs ci`. Each option also reads the Action's input from `INPUT_<NAME>` (the
/// flag wins).
#[derive(clap::Args, Debug, Default)]
pub struct CiArgs {
    /// Where to look for packs [input: path] [default: .]
    #[arg(value_name = "ROOT")]
    pub root: Option<String>,
    /// The same as ROOT [input: path]
    #[arg(long, value_name = "DIR", conflicts_with = "root")]
    pub path: Option<String>,
    /// Run the fixture cases of every pack without errors [input: test] [default: true]
    #[arg(long, value_name = "BOOL", value_parser = clap::builder::BoolishValueParser::new())]
    pub test: Option<bool>,
    /// Where to write the SARIF file [input: sarif-file] [default: hippo-packs.sarif]
    #[arg(long = "sarif-file", value_name = "FILE")]
    pub sarif_file: Option<String>,
    /// Upload the SARIF to code scanning [input: upload] [default: auto]
    #[arg(long, value_enum)]
    pub upload: Option<UploadMode>,
    /// The code-scanning category [input: category] [default: hippo-packs]
    #[arg(long, value_name = "NAME")]
    pub category: Option<String>,
    /// What fails the job [input: fail-on] [default: error]
    #[arg(long = "fail-on", value_enum)]
    pub fail_on: Option<FailOn>,
    /// Which packs decide the verdict [input: scope] [default: changed on pull_request
    /// events, all otherwise]
    #[arg(long, value_enum)]
    pub scope: Option<Scope>,
    /// The GitHub token for the upload and the pull request's files [input: token]. Prefer
    /// the INPUT_TOKEN variable: a flag shows in process lists.
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
    /// The longest one request to GitHub may take, in seconds
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub http_timeout: u64,
    /// How long to wait for code scanning to process the upload, in seconds (0: do not wait)
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub upload_wait: u64,
}

/// The inputs after flags, `INPUT_*` and defaults.
#[derive(Debug, Clone)]
pub struct Settings {
    pub root: String,
    pub test: bool,
    pub sarif_file: String,
    pub upload: UploadMode,
    pub category: String,
    pub fail_on: FailOn,
    pub scope: Scope,
    pub token: Option<String>,
    pub http_timeout: Duration,
    pub upload_wait: Duration,
}

fn name_of<T: ValueEnum>(v: &T) -> String {
    v.to_possible_value()
        .map(|p| p.get_name().to_string())
        .unwrap_or_default()
}

fn choice<T: ValueEnum>(
    flag: Option<T>,
    get: &impl Fn(&str) -> Option<String>,
    input: &str,
) -> Result<Option<T>, String> {
    if flag.is_some() {
        return Ok(flag);
    }
    match env::input(get, input) {
        None => Ok(None),
        Some(v) => T::from_str(&v, true).map(Some).map_err(|_| {
            let names: Vec<String> = T::value_variants().iter().map(name_of).collect();
            format!(
                "input {input} ({}): expected one of {}, got {:?}",
                env::input_var(input),
                names.join(", "),
                v
            )
        }),
    }
}

fn boolean(
    flag: Option<bool>,
    get: &impl Fn(&str) -> Option<String>,
    input: &str,
) -> Result<Option<bool>, String> {
    if flag.is_some() {
        return Ok(flag);
    }
    match env::input(get, input) {
        None => Ok(None),
        Some(v) => match v.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Ok(Some(true)),
            "false" | "no" | "off" | "0" => Ok(Some(false)),
            _ => Err(format!(
                "input {input} ({}): expected true or false, got {v:?}",
                env::input_var(input)
            )),
        },
    }
}

impl Settings {
    /// Flags, then `INPUT_*`, then defaults. An input with a value it cannot take is a usage
    /// error.
    pub fn resolve(
        args: CiArgs,
        get: &impl Fn(&str) -> Option<String>,
        gh: &GithubEnv,
    ) -> Result<Settings, String> {
        let text = |flag: Option<String>, input: &str| flag.or_else(|| env::input(get, input));
        Ok(Settings {
            root: args
                .root
                .or(args.path)
                .or_else(|| env::input(get, "path"))
                .unwrap_or_else(|| ".".to_string()),
            test: boolean(args.test, get, "test")?.unwrap_or(true),
            sarif_file: text(args.sarif_file, "sarif-file")
                .unwrap_or_else(|| "hippo-packs.sarif".to_string()),
            upload: choice(args.upload, get, "upload")?.unwrap_or(UploadMode::Auto),
            category: text(args.category, "category").unwrap_or_else(|| "hippo-packs".to_string()),
            fail_on: choice(args.fail_on, get, "fail-on")?.unwrap_or(FailOn::Error),
            scope: choice(args.scope, get, "scope")?.unwrap_or(if gh.is_pull_request() {
                Scope::Changed
            } else {
                Scope::All
            }),
            token: args
                .token
                .filter(|t| !t.trim().is_empty())
                .or_else(|| env::input(get, "token")),
            http_timeout: Duration::from_secs(args.http_timeout.max(1)),
            upload_wait: Duration::from_secs(args.upload_wait),
        })
    }
}

/// Folders skipped while looking for packs, besides names starting with `.`.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];
/// How deep the search for packs goes.
const MAX_DEPTH: usize = 32;

/// Every folder under `root` holding a `pack.toml`, in byte order of their paths; the search
/// does not descend into a pack, skips dot-folders, `target/` and `node_modules/`, and never
/// follows a symbolic link. Paths are `root` joined with the relative path (`root` itself when
/// it is a pack); with `root` `.`, just the relative path.
pub fn discover(root: &str) -> std::io::Result<Vec<String>> {
    let meta = std::fs::metadata(root)?;
    if !meta.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            "not a folder",
        ));
    }
    let mut found = Vec::new();
    let mut stack: Vec<(PathBuf, Vec<String>)> = vec![(PathBuf::from(root), Vec::new())];
    // Depth first, in byte order: the stack holds children in reverse.
    let mut first = true;
    while let Some((dir, rel)) = stack.pop() {
        if dir.join("pack.toml").symlink_metadata().is_ok() {
            found.push(join_rel(root, &rel));
            continue;
        }
        if rel.len() >= MAX_DEPTH {
            continue;
        }
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if first => return Err(e),
            Err(_) => continue,
        };
        first = false;
        let mut children: Vec<(Vec<u8>, PathBuf, String)> = Vec::new();
        for e in entries.flatten() {
            let Ok(ft) = e.file_type() else { continue };
            if !ft.is_dir() {
                continue;
            }
            let name = e.file_name();
            let Some(n) = name.to_str() else { continue };
            if n.starts_with('.') || SKIPPED_DIRS.contains(&n) {
                continue;
            }
            children.push((n.as_bytes().to_vec(), e.path(), n.to_string()));
        }
        children.sort();
        for (_, path, name) in children.into_iter().rev() {
            let mut r = rel.clone();
            r.push(name);
            stack.push((path, r));
        }
    }
    Ok(found)
}

fn join_rel(root: &str, rel: &[String]) -> String {
    if rel.is_empty() {
        return root.to_string();
    }
    let r = rel.join("/");
    let root_trimmed = root.trim_end_matches('/');
    if root_trimmed == "." || root_trimmed.is_empty() && !root.starts_with('/') {
        r
    } else if root_trimmed.is_empty() {
        format!("/{r}")
    } else {
        format!("{root_trimmed}/{r}")
    }
}

/// A path relative to `base`, `/`-separated, no `./`; `None` when it is not under `base`.
fn relative_to(path: &Path, base: &Path) -> Option<String> {
    let abs = |p: &Path| -> Option<PathBuf> {
        std::fs::canonicalize(p)
            .ok()
            .or_else(|| std::env::current_dir().ok().map(|cwd| cwd.join(p)))
    };
    let (p, b) = (abs(path)?, abs(base)?);
    let rel = p.strip_prefix(&b).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// The pack folder relative to `$GITHUB_WORKSPACE` (the repository root on GitHub), else
/// relative to the working folder.
fn uri_base(dir: &str, workspace: Option<&Path>) -> String {
    workspace
        .and_then(|w| relative_to(Path::new(dir), w))
        .unwrap_or_else(|| crate::check::uri_base(dir))
}

/// Checks (and tests) every pack.
fn run_packs(dirs: &[String], s: &Settings) -> anyhow::Result<Vec<PackReport>> {
    if s.test {
        crate::fixture::test_all(&crate::cli::TestArgs {
            dirs: dirs.to_vec(),
            case: None,
            output: crate::cli::OutputArgs {
                format: crate::cli::Format::Text,
                sarif: None,
                category: s.category.clone(),
            },
            junit: None,
            print_prompts: false,
            model_command: None,
        })
    } else {
        Ok(crate::check::check_all(dirs))
    }
}

/// Whether a pack fails the gate.
pub fn fails(r: &PackReport, fail_on: FailOn) -> bool {
    match fail_on {
        FailOn::Never => false,
        FailOn::Error => r.failed(false),
        FailOn::Warning => r.failed(true),
    }
}

/// One pack's block of the text report: the check lines, then the case lines.
fn pack_text(r: &PackReport, tested: bool) -> String {
    let mut text = report::text::render(std::slice::from_ref(r), Mode::Check);
    if tested && r.errors() == 0 {
        let cases = PackReport {
            diagnostics: Vec::new(),
            ..r.clone()
        };
        text.push_str(&report::text::render(&[cases], Mode::Test));
    }
    text
}

fn status(r: &PackReport) -> String {
    let mut parts = Vec::new();
    let n = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    if r.errors() > 0 {
        parts.push(n(r.errors(), "error", "errors"));
    }
    if r.warnings() > 0 {
        parts.push(n(r.warnings(), "warning", "warnings"));
    }
    if r.failed_cases() > 0 {
        parts.push(n(r.failed_cases(), "failed case", "failed cases"));
    }
    if parts.is_empty() {
        "ok".to_string()
    } else {
        parts.join(", ")
    }
}

/// Annotation lines: every error, failed expectation and warning, errors first (GitHub shows
/// only the first ten of each per step). `Mode::Check` because `ci` reports warnings even for
/// tested packs; failed expectations come with any mode.
fn annotations(reports: &[PackReport]) -> String {
    let all = report::github::render(reports, Mode::Check);
    let mut errors = String::new();
    let mut rest = String::new();
    for l in all.lines() {
        let dst = if l.starts_with("::error") {
            &mut errors
        } else {
            &mut rest
        };
        dst.push_str(l);
        dst.push('\n');
    }
    errors + &rest
}

/// What the scope step decided.
struct Gate {
    gated: Vec<bool>,
    notes: Vec<String>,
}

fn gate(
    reports: &[PackReport],
    s: &Settings,
    gh: &GithubEnv,
    log: &Log,
    rt: &mut Option<tokio::runtime::Runtime>,
) -> anyhow::Result<Gate> {
    let all = Gate {
        gated: vec![true; reports.len()],
        notes: Vec::new(),
    };
    if s.scope == Scope::All {
        return Ok(all);
    }
    let fallback = |why: String| -> Gate {
        print(&log.annotate(Level::Notice, "scope", &format!("{why}; every pack gates"))).ok();
        Gate {
            gated: vec![true; reports.len()],
            notes: vec![format!("scope changed: {why}; every pack gates")],
        }
    };
    let payload = gh
        .event_path
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok());
    let Some(pr) = payload.as_deref().and_then(event::pull_request) else {
        return Ok(fallback("not a pull request event".to_string()));
    };
    let Some((owner, repo)) = gh.owner_repo() else {
        return Ok(fallback("GITHUB_REPOSITORY is not set".to_string()));
    };
    let rt = runtime(rt)?;
    let listed = rt.block_on(async {
        let http = client::Http::new(&gh.api_url, s.token.as_deref(), s.http_timeout)
            .map_err(client::Failure::Transport)?;
        pulls::changed_files(&http, owner, repo, pr.number, |f| {
            print(&log.line(&format!(
                "hippo-packs: listing the pull request's files: {f}; trying again"
            )))
            .ok();
        })
        .await
    });
    let files = match listed {
        Ok(f) => f,
        Err(f) => {
            return Ok(fallback(format!(
                "cannot list the files of pull request #{}: {f}",
                pr.number
            )));
        }
    };
    if let Some(n) = pr.changed_files
        && n as usize > files.len()
    {
        return Ok(fallback(format!(
            "pull request #{} changes {n} files and GitHub lists only {}",
            pr.number,
            files.len()
        )));
    }
    let paths: Vec<String> = reports.iter().map(|r| r.uri_base.clone()).collect();
    let gated = pulls::touched(&paths, &files);
    let count = gated.iter().filter(|g| **g).count();
    let note = format!(
        "scope changed: pull request #{} changes {} {}, in {count} of {} {}",
        pr.number,
        files.len(),
        if files.len() == 1 { "file" } else { "files" },
        reports.len(),
        if reports.len() == 1 { "pack" } else { "packs" }
    );
    print(&log.line(&format!("hippo-packs: {note}")))?;
    Ok(Gate {
        gated,
        notes: vec![note],
    })
}

fn runtime(rt: &mut Option<tokio::runtime::Runtime>) -> anyhow::Result<&tokio::runtime::Runtime> {
    if rt.is_none() {
        *rt = Some(client::runtime()?);
    }
    Ok(rt.as_ref().expect("just set"))
}

/// What the upload step did.
#[derive(Default)]
struct Uploaded {
    uploaded: bool,
    sarif_id: Option<String>,
    /// The upload was required (`upload: true`) and failed.
    failed_required: bool,
    notes: Vec<String>,
}

fn do_upload(
    sarif: &[u8],
    s: &Settings,
    gh: &GithubEnv,
    log: &Log,
    rt: &mut Option<tokio::runtime::Runtime>,
) -> anyhow::Result<Uploaded> {
    let mut done = Uploaded::default();
    if s.upload == UploadMode::False {
        done.notes.push("upload: off".to_string());
        return Ok(done);
    }
    let required = s.upload == UploadMode::True;
    // A problem: an error that fails the job when the upload is required, else a notice.
    let problem = |done: &mut Uploaded, msg: String| -> anyhow::Result<()> {
        let level = if required {
            Level::Error
        } else {
            Level::Notice
        };
        print(&log.annotate(level, "upload", &msg))?;
        done.failed_required |= required;
        done.notes.push(format!("upload: {msg}"));
        Ok(())
    };
    let missing: Vec<&str> = [
        ("token", s.token.is_none()),
        ("GITHUB_REPOSITORY", gh.owner_repo().is_none()),
        ("GITHUB_SHA", gh.sha.is_none()),
        ("GITHUB_REF", gh.git_ref.is_none()),
    ]
    .into_iter()
    .filter_map(|(n, m)| m.then_some(n))
    .collect();
    if !missing.is_empty() {
        if required {
            problem(
                &mut done,
                format!("cannot upload without {}", missing.join(", ")),
            )?;
        } else {
            let note = format!("upload skipped: no {}", missing.join(", "));
            print(&log.line(&format!("hippo-packs: {note}")))?;
            done.notes.push(note);
        }
        return Ok(done);
    }
    let (owner, repo) = gh.owner_repo().expect("checked above");
    let (encoded, gz_len) = upload::encode(sarif)?;
    if gz_len > upload::MAX_GZIPPED {
        problem(
            &mut done,
            format!(
                "not uploaded: the SARIF file is {gz_len} bytes gzipped, over code scanning's limit of {} bytes; the annotations and the job summary carry the findings",
                upload::MAX_GZIPPED
            ),
        )?;
        return Ok(done);
    }
    let from_fork = gh
        .event_path
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|p| event::pull_request(&p))
        .is_some_and(|pr| pr.from_fork);
    let target = upload::Target {
        owner: owner.to_string(),
        repo: repo.to_string(),
        commit_sha: gh.sha.clone().unwrap_or_default(),
        git_ref: gh.git_ref.clone().unwrap_or_default(),
        checkout_uri: gh
            .workspace
            .as_ref()
            .map(|w| format!("file://{}", w.to_string_lossy())),
    };
    let rt = runtime(rt)?;
    let result = rt.block_on(async {
        let http = client::Http::new(&gh.api_url, s.token.as_deref(), s.http_timeout)
            .map_err(client::Failure::Transport)?;
        upload::upload(&http, &target, encoded, s.upload_wait, |f| {
            print(&log.line(&format!("hippo-packs: upload: {f}; trying again"))).ok();
        })
        .await
    });
    match result {
        Ok(accepted) => {
            done.sarif_id = Some(accepted.id.clone());
            let id = &accepted.id;
            match accepted.processing {
                upload::Processing::Complete => {
                    done.uploaded = true;
                    let note = format!("upload: SARIF {id} processed (complete)");
                    print(&log.line(&format!("hippo-packs: {note}")))?;
                    done.notes.push(note);
                }
                upload::Processing::Pending => {
                    done.uploaded = true;
                    let msg = format!(
                        "SARIF {id} accepted; code scanning was still processing it after {}s (pending)",
                        s.upload_wait.as_secs()
                    );
                    print(&log.annotate(Level::Notice, "upload", &msg))?;
                    done.notes.push(format!("upload: {msg}"));
                }
                upload::Processing::Unknown(why) => {
                    done.uploaded = true;
                    let msg =
                        format!("SARIF {id} accepted; its processing status is unknown: {why}");
                    print(&log.annotate(Level::Notice, "upload", &msg))?;
                    done.notes.push(format!("upload: {msg}"));
                }
                upload::Processing::Failed(errors) => {
                    let errs = if errors.is_empty() {
                        "no reason given".to_string()
                    } else {
                        errors.join("; ")
                    };
                    problem(
                        &mut done,
                        format!("code scanning failed to process SARIF {id}: {errs}"),
                    )?;
                }
            }
        }
        Err(f) => {
            let msg = match f.status() {
                Some(403) if from_fork => format!(
                    "not uploaded ({f}): this pull request comes from a fork, and GitHub gives a fork's workflow a read-only token that cannot write code-scanning results. The annotations and the job summary carry the findings; the push to the default branch uploads them."
                ),
                Some(403) => format!(
                    "not uploaded ({f}): the token cannot write code-scanning results. Give the job `permissions: security-events: write`, and on a private repository enable code scanning (GitHub Advanced Security / Code Security); or set `upload: false`. The annotations and the job summary carry the findings."
                ),
                Some(404) => format!(
                    "not uploaded ({f}): the code-scanning API was not found for {owner}/{repo}; check GITHUB_API_URL, the token's access to the repository, and that code scanning is available (GitHub Enterprise Server needs it enabled)."
                ),
                Some(413) => format!(
                    "not uploaded ({f}): the SARIF upload is too large for code scanning (10 MB gzipped at most). The annotations and the job summary carry the findings."
                ),
                _ => format!("not uploaded: {f}"),
            };
            problem(&mut done, msg)?;
        }
    }
    Ok(done)
}

/// Writes a file, creating its folder.
fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

fn append(path: &Path, text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

pub fn run(args: CiArgs) -> anyhow::Result<i32> {
    let gh = GithubEnv::from_process();
    let get = |k: &str| std::env::var_os(k).map(|v| v.to_string_lossy().into_owned());
    let s = match Settings::resolve(args, &get, &gh) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("hippo-packs: {}", crate::escape::line(&msg));
            return Ok(EXIT_USAGE);
        }
    };
    run_with(&s, &gh)
}

/// `ci` with its settings resolved.
pub fn run_with(s: &Settings, gh: &GithubEnv) -> anyhow::Result<i32> {
    let log = Log::new(gh.actions, s.token.as_deref());
    let mut rt: Option<tokio::runtime::Runtime> = None;

    // 1. The packs.
    let dirs = match discover(&s.root) {
        Ok(d) => d,
        Err(e) => {
            print(&log.annotate(Level::Error, "ci", &format!("cannot read {}: {e}", s.root)))?;
            Vec::new()
        }
    };
    if dirs.is_empty() {
        let msg = format!(
            "no pack found under {}: no folder there holds a pack.toml (dot-folders, target/ and node_modules/ are not searched)",
            s.root
        );
        print(&log.annotate(Level::Error, "ci", &msg))?;
        if let Some(p) = &gh.step_summary {
            append(
                p,
                &format!("## hippo-packs\n\n❌ **Failed** — {}\n", summary::md(&msg)),
            )?;
        }
        if let Some(p) = &gh.output {
            outputs::write(
                p,
                &[
                    ("sarif-file", String::new()),
                    ("packs", "0".to_string()),
                    ("errors", "0".to_string()),
                    ("warnings", "0".to_string()),
                    ("failed-cases", "0".to_string()),
                    ("uploaded", "false".to_string()),
                ],
            )
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))?;
        }
        return Ok(EXIT_FINDINGS);
    }

    // 2. Check, and test what has no error.
    let mut reports = run_packs(&dirs, s)?;
    for r in &mut reports {
        r.uri_base = uri_base(&r.dir, gh.workspace.as_deref());
    }

    // 3. The SARIF file.
    let sarif = report::sarif::render(&reports, &s.category);
    write_file(Path::new(&s.sarif_file), sarif.as_bytes())?;

    // 4. The report, grouped per pack, then the annotations.
    for r in &reports {
        // A pack at the root is shown by its name (`.` says little in a list of groups).
        let title = match (r.dir.as_str(), &r.name) {
            (".", Some(name)) => name.as_str(),
            (dir, _) => dir,
        };
        print(&log.group(&format!("{title}: {}", status(r))))?;
        print(&pack_text(r, s.test))?;
        print(&log.endgroup())?;
    }
    if gh.actions {
        print(&annotations(&reports))?;
    }

    // 5. Which packs decide the verdict.
    let gate = gate(&reports, s, gh, &log, &mut rt)?;
    let failing: Vec<&PackReport> = reports
        .iter()
        .zip(&gate.gated)
        .filter(|(r, g)| **g && fails(r, s.fail_on))
        .map(|(r, _)| r)
        .collect();

    // 6. The upload.
    let up = do_upload(sarif.as_bytes(), s, gh, &log, &mut rt)?;
    let failed = !failing.is_empty() || up.failed_required;

    // 7. The summary and the outputs.
    let errors: usize = reports.iter().map(|r| r.errors()).sum();
    let warnings: usize = reports.iter().map(|r| r.warnings()).sum();
    let failed_cases: usize = reports.iter().map(|r| r.failed_cases()).sum();
    if let Some(p) = &gh.step_summary {
        let mut notes = gate.notes.clone();
        notes.extend(up.notes.iter().cloned());
        let cx = summary::Context {
            gated: gate.gated.clone(),
            scope: name_of(&s.scope),
            fail_on: name_of(&s.fail_on),
            failed,
            notes: notes.iter().map(|n| log.clean(n)).collect(),
        };
        append(p, &summary::render(&reports, &cx))?;
    }
    if let Some(p) = &gh.output {
        let mut values = vec![
            ("sarif-file", s.sarif_file.clone()),
            ("packs", reports.len().to_string()),
            ("errors", errors.to_string()),
            ("warnings", warnings.to_string()),
            ("failed-cases", failed_cases.to_string()),
            ("uploaded", up.uploaded.to_string()),
        ];
        if let Some(id) = &up.sarif_id {
            values.push(("sarif-id", id.clone()));
        }
        outputs::write(p, &values)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))?;
    }

    // 8. The verdict.
    let gated = gate.gated.iter().filter(|g| **g).count();
    print(&log.line(&format!(
        "hippo-packs: {} {}, {errors} {}, {warnings} {}, {failed_cases} failed {}; {gated} gated (scope {}, fail-on {}): {}",
        reports.len(),
        if reports.len() == 1 { "pack" } else { "packs" },
        if errors == 1 { "error" } else { "errors" },
        if warnings == 1 { "warning" } else { "warnings" },
        if failed_cases == 1 { "case" } else { "cases" },
        name_of(&s.scope),
        name_of(&s.fail_on),
        if failed { "failed" } else { "passed" }
    )))?;
    for r in &failing {
        print(&log.line(&format!("hippo-packs: failing: {} ({})", r.dir, status(r))))?;
    }
    Ok(if failed { EXIT_FINDINGS } else { EXIT_OK })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn get(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn flags_win_over_inputs_which_win_over_defaults() {
        let g = get(&[
            ("INPUT_FAIL-ON", "warning"),
            ("INPUT_UPLOAD", "FALSE"),
            ("INPUT_PATH", "packs"),
            ("INPUT_TEST", "false"),
            ("INPUT_SCOPE", ""),
        ]);
        let pr = GithubEnv {
            event_name: Some("pull_request".into()),
            ..GithubEnv::default()
        };
        let s = Settings::resolve(
            CiArgs {
                upload: Some(UploadMode::True),
                ..CiArgs::default()
            },
            &g,
            &pr,
        )
        .unwrap();
        assert_eq!(s.upload, UploadMode::True, "the flag wins");
        assert_eq!(s.fail_on, FailOn::Warning, "the input applies");
        assert_eq!(s.root, "packs");
        assert!(!s.test);
        assert_eq!(s.scope, Scope::Changed, "pull requests default to changed");
        assert_eq!(s.sarif_file, "hippo-packs.sarif");
        let push = Settings::resolve(CiArgs::default(), &get(&[]), &GithubEnv::default()).unwrap();
        assert_eq!(push.scope, Scope::All);
        assert_eq!(push.upload, UploadMode::Auto);
        assert_eq!(push.token, None);
    }

    #[test]
    fn a_bad_input_is_a_usage_error() {
        let e = Settings::resolve(
            CiArgs::default(),
            &get(&[("INPUT_FAIL-ON", "sometimes")]),
            &GithubEnv::default(),
        )
        .unwrap_err();
        assert!(
            e.contains("INPUT_FAIL-ON") && e.contains("error, warning, never"),
            "{e}"
        );
        assert!(
            Settings::resolve(
                CiArgs::default(),
                &get(&[("INPUT_TEST", "maybe")]),
                &GithubEnv::default()
            )
            .is_err()
        );
    }

    #[test]
    fn discovery_stops_at_packs_and_skips_the_usual_folders() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        for d in [
            "packs/b",
            "packs/a/tests/x",
            ".hidden/p",
            "target/p",
            "node_modules/p",
            "other/deep/er",
            "empty",
        ] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        for p in [
            "packs/b/pack.toml",
            "packs/a/pack.toml",
            "packs/a/tests/x/pack.toml",
            ".hidden/p/pack.toml",
            "target/p/pack.toml",
            "node_modules/p/pack.toml",
            "other/deep/er/pack.toml",
        ] {
            std::fs::write(root.join(p), "").unwrap();
        }
        let r = root.to_str().unwrap();
        assert_eq!(
            discover(r).unwrap(),
            vec![
                format!("{r}/other/deep/er"),
                format!("{r}/packs/a"),
                format!("{r}/packs/b")
            ]
        );
        assert_eq!(
            discover(&format!("{r}/packs/a")).unwrap(),
            vec![format!("{r}/packs/a")]
        );
        assert_eq!(
            discover(&format!("{r}/empty")).unwrap(),
            Vec::<String>::new()
        );
        assert!(discover(&format!("{r}/nowhere")).is_err());
        assert_eq!(join_rel(".", &["a".into()]), "a");
        assert_eq!(join_rel("./", &["a".into()]), "a");
        assert_eq!(join_rel("x/", &["a".into()]), "x/a");
    }

    #[test]
    fn fail_on_decides_what_fails() {
        let warned = PackReport {
            diagnostics: vec![
                crate::diagnostic::Diagnostic::file(&crate::rules::layout::UNREADABLE, "a", "b")
                    .with_severity(crate::diagnostic::Severity::Warning),
            ],
            ..PackReport::default()
        };
        assert!(!fails(&warned, FailOn::Error));
        assert!(fails(&warned, FailOn::Warning));
        assert!(!fails(&warned, FailOn::Never));
    }
}
