//! `hippo-packs ci`'s flags, read into the Action's plain [`Flags`]; the words each choice takes
//! come from the Action's own tables, so `--help` and the `INPUT_*` reader agree.

use clap::builder::{PossibleValue, TypedValueParser};

use super::exit::{EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Stdout, print};
use crate::ci::{
    Annotations, Choice, FailOn, FilterMode, Flags, Scope, Settings, UploadMode, Verdict,
};
use crate::github::command::{Level, Log};
use crate::github::env::GithubEnv;
use crate::github::event::WorkflowEvent;

/// `hippo-packs ci`. Each option also reads the Action's input from `INPUT_<NAME>` (the
/// flag wins).
#[derive(clap::Args, Debug)]
pub(crate) struct CiArgs {
    /// Where to look for packs [input: path] [default: .]
    #[arg(value_name = "ROOT")]
    pub(crate) root: Option<String>,
    /// The same as ROOT [input: path]
    #[arg(long, value_name = "DIR", conflicts_with = "root")]
    pub(crate) path: Option<String>,
    /// The folder the repository was checked out to: changed files, SARIF URIs and
    /// .hippo-packs.toml are relative to it [input: checkout-path] [default: the folder
    /// holding .git at or above the path, else $GITHUB_WORKSPACE]
    #[arg(long = "checkout-path", value_name = "DIR")]
    pub(crate) checkout_path: Option<String>,
    /// Run the fixture cases of every pack without errors [input: test] [default: true]
    #[arg(long, value_name = "BOOL", value_parser = clap::builder::BoolishValueParser::new())]
    pub(crate) test: Option<bool>,
    /// Where to write the SARIF file [input: sarif-file] [default: .hippo-packs/hippo-packs.sarif]
    #[arg(long = "sarif-file", value_name = "FILE")]
    pub(crate) sarif_file: Option<String>,
    /// Upload the SARIF to code scanning [input: upload] [default: auto]
    #[arg(long, value_parser = ChoiceParser::<UploadMode>::default())]
    pub(crate) upload: Option<UploadMode>,
    /// The code-scanning category [input: category] [default: hippo-packs]
    #[arg(long, value_name = "NAME")]
    pub(crate) category: Option<String>,
    /// What fails the job [input: fail-on] [default: error]
    #[arg(long = "fail-on", value_parser = ChoiceParser::<FailOn>::default())]
    pub(crate) fail_on: Option<FailOn>,
    /// Which packs decide the verdict [input: scope] [default: changed on pull_request
    /// events, all otherwise]
    #[arg(long, value_parser = ChoiceParser::<Scope>::default())]
    pub(crate) scope: Option<Scope>,
    /// The GitHub token for the upload and the pull request's files [input: token]. Prefer
    /// the INPUT_TOKEN variable: a flag shows in process lists.
    #[arg(long, value_name = "TOKEN")]
    pub(crate) token: Option<String>,
    /// The ref the upload belongs to, e.g. refs/pull/7/head [input: ref] [default: the
    /// checkout's ref; give --sha with it]
    #[arg(long = "ref", value_name = "REF")]
    pub(crate) git_ref: Option<String>,
    /// The commit the upload belongs to [input: sha] [default: the repository root's checked-out
    /// commit; give --ref with it]
    #[arg(long, value_name = "SHA")]
    pub(crate) sha: Option<String>,
    /// Where the findings are annotated [input: annotations] [default: auto]
    #[arg(long, value_parser = ChoiceParser::<Annotations>::default())]
    pub(crate) annotations: Option<Annotations>,
    /// Which findings a pull request's review annotates (a run without a review annotates
    /// every one) [input: filter-mode] [default: new]
    #[arg(long = "filter-mode", value_parser = ChoiceParser::<FilterMode>::default())]
    pub(crate) filter_mode: Option<FilterMode>,
    /// Show in the job summary what the model receives, base against head: the prompts of the
    /// touched pass packs' cases, diffed [input: prompt-diff] [default: true]
    #[arg(long = "prompt-diff", value_name = "BOOL", value_parser = clap::builder::BoolishValueParser::new())]
    pub(crate) prompt_diff: Option<bool>,
    /// Check only this shard of the packs, i/n (e.g. 2/8), for a job matrix; uploads under
    /// <category>/shard-<i>-of-<n> [input: shard] [default: every pack]
    #[arg(long, value_name = "I/N")]
    // The doc comment is `--help`'s text, where <category> stands for itself.
    #[allow(rustdoc::invalid_html_tags)]
    pub(crate) shard: Option<String>,
    /// Dismiss the code-scanning alerts of allowed warnings, on runs of the default branch
    /// [input: dismiss-allowed] [default: true]
    #[arg(long = "dismiss-allowed", value_name = "BOOL", value_parser = clap::builder::BoolishValueParser::new())]
    pub(crate) dismiss_allowed: Option<bool>,
    /// Keep one comment on the pull request up to date with the verdict and the findings; needs
    /// pull-requests write [input: comment] [default: false]
    #[arg(long, value_name = "BOOL", value_parser = clap::builder::BoolishValueParser::new())]
    pub(crate) comment: Option<bool>,
    /// The longest one request to GitHub may take, in seconds
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub(crate) http_timeout: u64,
    /// How long to wait for code scanning to process the upload, in seconds (0: do not wait)
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub(crate) upload_wait: u64,
}

/// A clap value parser over a [`Choice`] table.
#[derive(Clone)]
struct ChoiceParser<T>(std::marker::PhantomData<T>);

impl<T> Default for ChoiceParser<T> {
    fn default() -> Self {
        ChoiceParser(std::marker::PhantomData)
    }
}

impl<T: Choice + Send + Sync + Clone> TypedValueParser for ChoiceParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let inner =
            clap::builder::PossibleValuesParser::new(self.possible_values().into_iter().flatten());
        let word = inner.parse_ref(cmd, arg, value)?;
        T::parse(&word).ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(T::ALL.iter().map(|(name, help, _)| {
            PossibleValue::new(*name).help(*help)
        })))
    }
}

impl From<CiArgs> for Flags {
    fn from(a: CiArgs) -> Flags {
        Flags {
            root: a.root.or(a.path),
            checkout_path: a.checkout_path,
            test: a.test,
            sarif_file: a.sarif_file,
            upload: a.upload,
            category: a.category,
            fail_on: a.fail_on,
            scope: a.scope,
            token: a.token,
            git_ref: a.git_ref,
            sha: a.sha,
            annotations: a.annotations,
            filter_mode: a.filter_mode,
            prompt_diff: a.prompt_diff,
            shard: a.shard,
            dismiss_allowed: a.dismiss_allowed,
            comment: a.comment,
            http_timeout: a.http_timeout,
            upload_wait: a.upload_wait,
        }
    }
}

/// `hippo-packs ci`: settings from the flags and the environment, then the run.
pub(crate) fn run(args: CiArgs) -> anyhow::Result<i32> {
    let gh = GithubEnv::from_process();
    let event = WorkflowEvent::from_env(&gh);
    let get = |k: &str| std::env::var_os(k).map(|v| v.to_string_lossy().into_owned());
    let s = match Settings::resolve(args.into(), &get, &gh, &event) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("hippo-packs: {}", crate::core::escape::line(&msg));
            return Ok(EXIT_USAGE);
        }
    };
    // A report path outside the workspace and $HOME, or through a link: refused before any
    // work.
    let (ws, home) = (gh.workspace.as_deref(), gh.home.as_deref());
    if let Some(msg) = crate::ci::sarif_file_refusal(&s.sarif_file, ws, home) {
        let log = Log::new(gh.actions, s.token.as_deref());
        print(&log.annotate(Level::Error, "ci", &msg))?;
        return Ok(EXIT_USAGE);
    }
    Ok(match crate::ci::run(&s, &gh, &event, &mut Stdout)? {
        Verdict::Passed => EXIT_OK,
        Verdict::Failed => EXIT_FINDINGS,
    })
}
