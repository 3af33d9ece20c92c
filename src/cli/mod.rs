//! The command line: parse, dispatch, and one place that turns results into an exit code.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::outcome::{Mode, PackReport};
use crate::report;

mod ci_args;
mod exit;
mod stub_model;

use exit::print;
pub use exit::{EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE};

#[derive(Parser, Debug)]
#[command(
    name = "hippo-packs",
    version,
    about = "Checks and tests hippo packs: every rule of hippo's \"Writing a pack\" page, fixture cases through one dreaming pass, SARIF for code scanning."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check packs against every rule of "Writing a pack" (errors and warnings).
    Check(CheckArgs),
    /// Run each fixture case of packs through one dreaming pass against the stand-in model.
    Test(TestArgs),
    /// List the rule catalogue, or explain one rule.
    Rules(RulesArgs),
    /// The GitHub Action's entry point: find, check and test every pack of a registry.
    Ci(ci_args::CiArgs),
    /// The stand-in model and reviewer (reads a prompt on standard input).
    #[command(hide = true)]
    StubModel(stub_model::StubArgs),
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// The text lines of hippo's page "Writing a pack", byte for byte.
    #[default]
    Text,
    /// The versioned JSON report (`hippo-packs/v1`).
    Json,
    /// SARIF 2.1.0.
    Sarif,
    /// GitHub workflow-command annotations.
    Github,
}

#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Output format on standard output.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also write SARIF 2.1.0 to this file.
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// The SARIF category (`automationDetails.id` is `<category>/`).
    #[arg(long, default_value = "hippo-packs")]
    pub category: String,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Pack folders.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<String>,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Exit 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
}

#[derive(Args, Debug)]
pub struct TestArgs {
    /// Pack folders.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<String>,
    /// Run only this case.
    #[arg(long, value_name = "NAME")]
    pub case: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Write JUnit XML of the case results to this file.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Print the prompts each case sent to the model.
    #[arg(long)]
    pub print_prompts: bool,
    /// A model command to stand where the built-in stand-in stands (prompt on standard input,
    /// reply on standard output). Default: the stand-in, in-process.
    #[arg(long, value_name = "COMMAND", hide = true)]
    pub model_command: Option<String>,
}

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// A rule id to explain.
    pub rule: Option<String>,
}

/// Runs the command line and returns the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            let msg = format!("{e:#}");
            eprintln!(
                "hippo-packs: internal error: {}",
                crate::core::escape::line(&msg)
            );
            EXIT_INTERNAL
        }
    }
}

fn dispatch(cli: Cli) -> anyhow::Result<i32> {
    match cli.command {
        Command::Check(a) if a.output.format == Format::Text && a.output.sarif.is_none() => {
            // The text report streams: each pack is printed as soon as it and the packs before
            // it are checked, and only its verdict is kept.
            let (mut failed, mut result) = (false, Ok(()));
            crate::check::check_each(&a.dirs, |r| {
                failed |= r.failed(a.deny_warnings);
                if result.is_ok() {
                    result = print(&report::text::render(std::slice::from_ref(&r), Mode::Check));
                }
            });
            result?;
            Ok(if failed { EXIT_FINDINGS } else { EXIT_OK })
        }
        Command::Check(a) => {
            let reports = crate::check::check_all(&a.dirs);
            emit(&reports, Mode::Check, &a.output, None)?;
            Ok(verdict(&reports, a.deny_warnings))
        }
        Command::Test(a) => {
            let reports = crate::fixture::test_all(&crate::fixture::TestOptions {
                dirs: a.dirs.clone(),
                case: a.case.clone(),
                model_command: a.model_command.clone(),
            })?;
            emit(&reports, Mode::Test, &a.output, a.junit.as_deref())?;
            if a.print_prompts {
                print(&report::prompts(&reports))?;
            }
            Ok(verdict(&reports, false))
        }
        Command::Rules(a) => match report::rules::render(a.rule.as_deref()) {
            Ok(text) => {
                print(&text)?;
                Ok(EXIT_OK)
            }
            Err(text) => {
                eprint!("{text}");
                Ok(EXIT_USAGE)
            }
        },
        Command::Ci(a) => ci_args::run(a),
        Command::StubModel(a) => stub_model::run(a).map(|()| EXIT_OK),
    }
}

/// 1 when any pack fails, else 0.
pub fn verdict(reports: &[PackReport], deny_warnings: bool) -> i32 {
    if reports.iter().any(|r| r.failed(deny_warnings)) {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    }
}

fn emit(
    reports: &[PackReport],
    mode: Mode,
    out: &OutputArgs,
    junit: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    let text = match out.format {
        Format::Text => report::text::render(reports, mode),
        Format::Json => report::json::render(reports, mode),
        Format::Sarif => report::sarif::render(reports, &out.category),
        Format::Github => report::github::render(reports, mode),
    };
    if let Some(path) = &out.sarif {
        crate::core::fsx::write_atomic(
            path,
            report::sarif::render(reports, &out.category).as_bytes(),
        )
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = junit {
        crate::core::fsx::write_atomic(path, report::junit::render(reports).as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    print(&text)
}
