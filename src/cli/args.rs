//! The command line's arguments, as clap parses them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::report::annotations::GithubRenderer;
use crate::report::concise::ConciseRenderer;
use crate::report::full::FullRenderer;
use crate::report::json::JsonRenderer;
use crate::report::rendering::Render;
use crate::report::sarif::{MAX_RESULTS, SarifRenderer};
use crate::report::text::TextRenderer;

#[derive(Parser, Debug)]
#[command(
    name = "hippo-packs",
    version,
    about = "Checks and tests hippo packs: every rule of hippo's \"Writing a pack\" page, fixture cases through one dreaming pass, SARIF for code scanning."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Check packs against every rule of "Writing a pack" (errors and warnings).
    Check(CheckArgs),
    /// Run each fixture case of packs through one dreaming pass against the stand-in model.
    Test(TestArgs),
    /// List the rule catalogue, or explain one rule.
    Rules(RulesArgs),
    /// Write a new pack that passes `check` and `test` as written (a pass pack; `--theme` for
    /// a theme pack).
    Init(InitArgs),
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print the manual page (roff) on standard output.
    Manpage,
    /// A language server on standard input and output: the findings of `check` as an editor's
    /// diagnostics while you type, its fixes as code actions (docs/editors.md).
    Server,
    /// Print the JSON Schema of a TOML document (pack, pass, case, hippo-packs), for an
    /// editor's TOML support; docs/schemas/ holds the same files.
    Schema(SchemaArgs),
    /// The GitHub Action's entry point: find, check and test every pack of a registry.
    Ci(super::ci_args::CiArgs),
    /// The stand-in model and reviewer (reads a prompt on standard input).
    #[command(hide = true)]
    StubModel(super::stub_model::StubArgs),
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Format {
    /// The text lines of hippo's page "Writing a pack", byte for byte.
    #[default]
    Text,
    /// The versioned JSON report (`hippo-packs/v1`).
    Json,
    /// SARIF 2.1.0.
    Sarif,
    /// GitHub workflow-command annotations.
    Github,
    /// Every finding with its source line and a caret, `help:` lines and a summary (ruff's
    /// name for the same thing).
    Full,
    /// One line a finding, `path:line:col: severity[rule-id] message`, for editors and grep
    /// (ruff's name for the same thing).
    Concise,
}

impl Format {
    /// The renderer of the format (`verbose`: `-v`'s text lines): the one place a `--format`
    /// value meets its code.
    pub(crate) fn renderer(self, verbose: bool) -> &'static dyn Render {
        match self {
            Format::Text if verbose => &TextRenderer { verbose: true },
            Format::Text => &TextRenderer { verbose: false },
            Format::Json => &JsonRenderer,
            Format::Sarif => &SarifRenderer { limit: MAX_RESULTS },
            Format::Github => &GithubRenderer,
            Format::Full => &FullRenderer,
            Format::Concise => &ConciseRenderer,
        }
    }
}

/// When `--format full` uses colour.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum ColorWhen {
    /// On a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it.
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Args, Debug, Clone)]
pub(crate) struct OutputArgs {
    /// Output format on standard output.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// Also write SARIF 2.1.0 to this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) sarif: Option<PathBuf>,
    /// The SARIF category (`automationDetails.id` is `<category>/`).
    #[arg(long, default_value = "hippo-packs")]
    pub(crate) category: String,
    /// Colour in `--format full`.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub(crate) color: ColorWhen,
    /// Read allowances (`[[allow]]`) from this file; `auto`: the `.hippo-packs.toml` at the
    /// root of the git repository holding the packs, as `ci` reads it (`./auto` for a file named
    /// auto). Without it no configuration is read (docs/configuration.md).
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Say which configuration file was read (standard error); text format: after each failed
    /// case, why it failed and the notes a failed `contains` names.
    #[arg(short, long)]
    pub(crate) verbose: bool,
    /// Write the report to this file instead of standard output (once it is whole).
    #[arg(long, value_name = "FILE")]
    pub(crate) output_file: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    /// Pack folders.
    #[arg(required = true, value_name = "DIR")]
    pub(crate) dirs: Vec<String>,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
    /// Exit 1 on warnings too (the warnings `--select` and `--ignore` leave).
    #[arg(long)]
    pub(crate) deny_warnings: bool,
    /// Report only these warnings (rule ids, comma-separated, any case); every error is
    /// reported.
    #[arg(long, value_name = "RULE", value_delimiter = ',')]
    pub(crate) select: Vec<String>,
    /// Leave out these warnings (rule ids, comma-separated, any case); an error cannot be
    /// ignored.
    #[arg(long, value_name = "RULE", value_delimiter = ',')]
    pub(crate) ignore: Vec<String>,
    /// Print the findings only: no `skipped` or `ok` lines, no summary.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Print how many findings each rule has (`[*]`: `--fix` mends them) instead of the
    /// findings; `--format json` for a list.
    #[arg(long)]
    pub(crate) statistics: bool,
    /// Make the fixes that cannot change what the pack means (docs/fixes.md), name each on
    /// standard error, then check what remains. Never a file under tests/, never a secret.
    #[arg(long)]
    pub(crate) fix: bool,
    /// Print the fixes `--fix` would make as a unified diff and write nothing; exit 1 when there
    /// is one.
    #[arg(long, conflicts_with_all = ["fix", "format", "sarif", "deny_warnings"])]
    pub(crate) diff: bool,
    /// JUnit belongs to `test` (refused with a usage error that says so).
    #[arg(long, value_name = "FILE", hide = true)]
    pub(crate) junit: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct TestArgs {
    /// Pack folders.
    #[arg(required = true, value_name = "DIR")]
    pub(crate) dirs: Vec<String>,
    /// Run only this case.
    #[arg(long, value_name = "NAME")]
    pub(crate) case: Option<String>,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
    /// Write JUnit XML of the case results to this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<PathBuf>,
    /// Print the prompts each case sent (the model's and the reviewer's, each under a label
    /// line) on standard error.
    #[arg(long)]
    pub(crate) print_prompts: bool,
    /// Write each prompt to its own file in this folder instead of standard error.
    #[arg(long, value_name = "DIR")]
    pub(crate) prompts_dir: Option<PathBuf>,
    /// A model command to stand where the built-in stand-in stands (prompt on standard input,
    /// reply on standard output). Default: the stand-in, in-process.
    #[arg(long, value_name = "COMMAND", hide = true)]
    pub(crate) model_command: Option<String>,
}

#[derive(Args, Debug)]
pub(crate) struct InitArgs {
    /// The folder to write (created; it must be missing or hold only dot-files, such as `.git`).
    #[arg(value_name = "DIR")]
    pub(crate) dir: PathBuf,
    /// Write a theme pack instead of a pass pack.
    #[arg(long)]
    pub(crate) theme: bool,
    /// The pack's name (default: the folder's name).
    #[arg(long, value_name = "NAME")]
    pub(crate) name: Option<String>,
}

#[derive(Args, Debug)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub(crate) struct RulesArgs {
    /// A rule id to explain (any case).
    pub(crate) rule: Option<String>,
    /// `json`: the catalogue (or the rule) as JSON.
    #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
    pub(crate) format: RulesFormat,
}

/// How `rules` prints.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum RulesFormat {
    /// For people.
    #[default]
    Text,
    /// A JSON list of the rules (one object for one rule).
    Json,
}

#[derive(Args, Debug)]
pub(crate) struct SchemaArgs {
    /// The document: `pack` (pack.toml), `pass` (passes/<name>.toml), `case`
    /// (tests/<case>/case.toml) or `hippo-packs` (.hippo-packs.toml).
    #[arg(value_enum)]
    // The doc comment is `--help`'s text, where <name> and <case> stand for themselves.
    #[allow(rustdoc::invalid_html_tags)]
    pub(crate) document: SchemaDocument,
}

/// The documents `schema` describes.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
// The variants' doc comments are `--help`'s text, where <name> and <case> stand for themselves.
#[allow(rustdoc::invalid_html_tags)]
pub(crate) enum SchemaDocument {
    /// pack.toml.
    Pack,
    /// A pass file, passes/<name>.toml.
    Pass,
    /// A fixture case, tests/<case>/case.toml.
    Case,
    /// A registry's .hippo-packs.toml.
    HippoPacks,
}
