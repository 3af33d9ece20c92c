//! The Action's inputs (docs/action.md): a flag wins over its `INPUT_*` variable, which wins over
//! the default; an input with a value it cannot take is a usage error.

use std::time::Duration;

use super::commit::{self, Given};
use super::root::{self, Root};
use super::sarif_path;
use super::shard::Shard;
use crate::github::env::{self, GithubEnv};
use crate::github::event::WorkflowEvent;

/// An input that takes one word of a fixed set (matched without regard to case).
pub(crate) trait Choice: Copy + PartialEq + 'static {
    /// Every word, what it means, and its value, in the order `--help` lists them.
    const ALL: &'static [(&'static str, &'static str, Self)];

    /// The word for a value.
    fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, _, v)| *v == self)
            .map_or("", |(n, _, _)| n)
    }

    /// The value for a word.
    fn parse(word: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(word))
            .map(|(_, _, v)| *v)
    }
}

/// Whether to upload the SARIF to code scanning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UploadMode {
    Auto,
    True,
    False,
}

impl Choice for UploadMode {
    const ALL: &'static [(&'static str, &'static str, Self)] = &[
        (
            "auto",
            "Upload when a token is at hand; a failed upload changes nothing",
            UploadMode::Auto,
        ),
        (
            "true",
            "Upload, and fail when the upload fails",
            UploadMode::True,
        ),
        ("false", "Never upload", UploadMode::False),
    ];
}

/// What fails the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FailOn {
    Error,
    Warning,
    NewWarning,
    Never,
}

impl Choice for FailOn {
    const ALL: &'static [(&'static str, &'static str, Self)] = &[
        (
            "error",
            "A gated pack with an error or a failed case fails",
            FailOn::Error,
        ),
        ("warning", "A warning fails too", FailOn::Warning),
        (
            "new-warning",
            "A warning fails too when the pull request brings it (every warning without a review)",
            FailOn::NewWarning,
        ),
        ("never", "Never fail on findings", FailOn::Never),
    ];
}

/// Which packs decide the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    Changed,
    All,
}

impl Choice for Scope {
    const ALL: &'static [(&'static str, &'static str, Self)] = &[
        (
            "changed",
            "Only the packs the pull request changes decide the verdict",
            Scope::Changed,
        ),
        ("all", "Every pack decides the verdict", Scope::All),
    ];
}

/// Where the findings go as annotations on the pull request's diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Annotations {
    Auto,
    Checks,
    Commands,
    None,
}

impl Choice for Annotations {
    const ALL: &'static [(&'static str, &'static str, Self)] = &[
        (
            "auto",
            "A check run holding up to 1,000 findings when the token may write checks, else workflow commands",
            Annotations::Auto,
        ),
        (
            "checks",
            "A check run holding up to 1,000 findings (Checks API; needs checks: write)",
            Annotations::Checks,
        ),
        (
            "commands",
            "Workflow commands: the ten most important of each level, then a count",
            Annotations::Commands,
        ),
        ("none", "No annotations", Annotations::None),
    ];
}

/// Which findings a pull request's review annotates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FilterMode {
    New,
    All,
}

impl Choice for FilterMode {
    const ALL: &'static [(&'static str, &'static str, Self)] = &[
        (
            "new",
            "The findings the pull request brings and every error of a gated pack",
            FilterMode::New,
        ),
        ("all", "Every finding", FilterMode::All),
    ];
}

/// What the command line gave (`None`: not given).
#[derive(Debug, Clone, Default)]
pub(crate) struct Flags {
    pub(crate) root: Option<String>,
    pub(crate) checkout_path: Option<String>,
    pub(crate) test: Option<bool>,
    pub(crate) sarif_file: Option<String>,
    pub(crate) upload: Option<UploadMode>,
    pub(crate) category: Option<String>,
    pub(crate) fail_on: Option<FailOn>,
    pub(crate) scope: Option<Scope>,
    pub(crate) token: Option<String>,
    pub(crate) git_ref: Option<String>,
    pub(crate) sha: Option<String>,
    pub(crate) annotations: Option<Annotations>,
    pub(crate) filter_mode: Option<FilterMode>,
    pub(crate) prompt_diff: Option<bool>,
    pub(crate) shard: Option<String>,
    pub(crate) dismiss_allowed: Option<bool>,
    pub(crate) comment: Option<bool>,
    pub(crate) http_timeout: u64,
    pub(crate) upload_wait: u64,
}

/// The inputs after flags, `INPUT_*` and defaults.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    /// The `path` input: where to look for packs.
    pub(crate) root: String,
    /// The repository root (`checkout-path`, else the folder holding `.git` above `root`).
    pub(crate) repository: Root,
    pub(crate) test: bool,
    pub(crate) sarif_file: String,
    pub(crate) upload: UploadMode,
    /// The code-scanning category; with a shard, `<category>/shard-<i>-of-<n>`.
    pub(crate) category: String,
    pub(crate) fail_on: FailOn,
    pub(crate) scope: Scope,
    pub(crate) token: Option<String>,
    /// The `ref` and `sha` inputs: where the upload goes instead of the checkout's commit.
    pub(crate) target: Given,
    pub(crate) annotations: Annotations,
    /// Which findings a review annotates (a run without a review annotates every one).
    pub(crate) filter_mode: FilterMode,
    /// Whether a review's summary shows the prompts' diff, base against head.
    pub(crate) prompt_diff: bool,
    /// `None`: every pack.
    pub(crate) shard: Option<Shard>,
    /// Dismiss the alerts of allowed warnings in code scanning (docs/configuration.md).
    pub(crate) dismiss_allowed: bool,
    /// Keep one pull-request comment up to date (docs/action.md, "One pull-request comment").
    pub(crate) comment: bool,
    /// When the run began: the upload's `started_at`.
    pub(crate) started_at: chrono::DateTime<chrono::Utc>,
    pub(crate) http_timeout: Duration,
    pub(crate) upload_wait: Duration,
}

/// The one reader of an input: the flag when given, else `INPUT_<NAME>` read by `parse`, whose
/// `None` is a usage error saying what was `expected`.
fn input<T>(
    flag: Option<T>,
    get: &impl Fn(&str) -> Option<String>,
    name: &str,
    parse: impl Fn(&str) -> Option<T>,
    expected: &str,
) -> Result<Option<T>, String> {
    if flag.is_some() {
        return Ok(flag);
    }
    match env::input(get, name) {
        None => Ok(None),
        Some(v) => parse(&v).map(Some).ok_or_else(|| {
            format!(
                "input {name} ({}): expected {expected}, got {v:?}",
                env::input_var(name)
            )
        }),
    }
}

fn choice<T: Choice>(
    flag: Option<T>,
    get: &impl Fn(&str) -> Option<String>,
    name: &str,
) -> Result<Option<T>, String> {
    let names: Vec<&str> = T::ALL.iter().map(|(n, _, _)| *n).collect();
    let expected = format!("one of {}", names.join(", "));
    input(flag, get, name, T::parse, &expected)
}

fn boolean(word: &str) -> Option<bool> {
    match word.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

impl Settings {
    /// Flags, then `INPUT_*` (read through `get`), then defaults (`scope`'s from the event).
    pub(crate) fn resolve(
        flags: Flags,
        get: &impl Fn(&str) -> Option<String>,
        gh: &GithubEnv,
        event: &WorkflowEvent,
    ) -> Result<Settings, String> {
        let text = |flag: Option<String>, name: &str| flag.or_else(|| env::input(get, name));
        let shard = input(flags.shard, get, "shard", |v| Some(v.to_string()), "")?
            .map(|v| {
                Shard::parse(&v).ok_or_else(|| {
                    format!(
                        "input shard ({}): expected i/n with 1 <= i <= n <= {}, got {v:?}",
                        env::input_var("shard"),
                        super::shard::MAX_SHARDS
                    )
                })
            })
            .transpose()?;
        let category =
            text(flags.category, "category").unwrap_or_else(|| "hippo-packs".to_string());
        let category = match shard {
            Some(sh) => sh.category(&category),
            None => category,
        };
        // Unless `sarif-file` says otherwise, under `$HOME`, never in the workspace
        // (docs/action.md, "Where the report goes").
        let home = gh.home.as_deref().and_then(|h| h.to_str());
        let sarif_file = text(flags.sarif_file, "sarif-file")
            .unwrap_or_else(|| sarif_path::default_file(home, &category));
        let default_scope = if event.scope_defaults_to_changed() {
            Scope::Changed
        } else {
            Scope::All
        };
        let path = text(flags.root, "path").unwrap_or_else(|| ".".to_string());
        let checkout_path = text(flags.checkout_path, "checkout-path");
        let repository = root::resolve(checkout_path.as_deref(), &path, gh.workspace.as_deref())?;
        Ok(Settings {
            root: path,
            repository,
            test: input(flags.test, get, "test", boolean, "true or false")?.unwrap_or(true),
            sarif_file,
            upload: choice(flags.upload, get, "upload")?.unwrap_or(UploadMode::Auto),
            category,
            fail_on: choice(flags.fail_on, get, "fail-on")?.unwrap_or(FailOn::Error),
            scope: choice(flags.scope, get, "scope")?.unwrap_or(default_scope),
            token: flags
                .token
                .filter(|t| !t.trim().is_empty())
                .or_else(|| env::input(get, "token")),
            target: commit::given(text(flags.git_ref, "ref"), text(flags.sha, "sha"))?,
            annotations: choice(flags.annotations, get, "annotations")?
                .unwrap_or(Annotations::Auto),
            filter_mode: choice(flags.filter_mode, get, "filter-mode")?.unwrap_or(FilterMode::New),
            prompt_diff: input(
                flags.prompt_diff,
                get,
                "prompt-diff",
                boolean,
                "true or false",
            )?
            .unwrap_or(true),
            shard,
            dismiss_allowed: input(
                flags.dismiss_allowed,
                get,
                "dismiss-allowed",
                boolean,
                "true or false",
            )?
            .unwrap_or(true),
            comment: input(flags.comment, get, "comment", boolean, "true or false")?
                .unwrap_or(false),
            started_at: chrono::Utc::now(),
            http_timeout: Duration::from_secs(flags.http_timeout.max(1)),
            upload_wait: Duration::from_secs(flags.upload_wait),
        })
    }
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

    /// No event: `ci` off GitHub.
    fn none() -> WorkflowEvent {
        WorkflowEvent::parse(None, None)
    }

    fn defaults() -> Flags {
        Flags {
            http_timeout: 60,
            upload_wait: 120,
            ..Flags::default()
        }
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
        let pr = WorkflowEvent::parse(Some("pull_request"), None);
        let flags = Flags {
            upload: Some(UploadMode::True),
            ..defaults()
        };
        let s = Settings::resolve(flags, &g, &GithubEnv::default(), &pr).unwrap();
        assert_eq!(s.upload, UploadMode::True, "the flag wins");
        assert_eq!(s.fail_on, FailOn::Warning, "the input applies");
        assert_eq!(s.root, "packs");
        assert!(!s.test);
        assert_eq!(s.scope, Scope::Changed, "pull requests default to changed");
        assert_eq!(s.sarif_file, ".hippo-packs/hippo-packs.sarif", "no $HOME");
        let home = GithubEnv {
            home: Some("/github/home".into()),
            ..GithubEnv::default()
        };
        let s = Settings::resolve(defaults(), &get(&[]), &home, &pr).unwrap();
        assert_eq!(s.sarif_file, "/github/home/.hippo-packs/hippo-packs.sarif");
        let push =
            Settings::resolve(defaults(), &get(&[]), &GithubEnv::default(), &none()).unwrap();
        assert_eq!(push.scope, Scope::All);
        for (event, scope) in [
            ("pull_request_target", Scope::Changed),
            ("merge_group", Scope::Changed),
            ("schedule", Scope::All),
            ("workflow_dispatch", Scope::All),
        ] {
            let name = event;
            let gh = GithubEnv::default();
            let event = WorkflowEvent::parse(Some(event), None);
            let s = Settings::resolve(defaults(), &get(&[]), &gh, &event).unwrap();
            assert_eq!(s.scope, scope, "{name}");
        }
        assert_eq!(push.upload, UploadMode::Auto);
        assert!(push.dismiss_allowed, "dismiss-allowed defaults to true");
        let off = get(&[("INPUT_DISMISS-ALLOWED", "false")]);
        let off = Settings::resolve(defaults(), &off, &GithubEnv::default(), &none()).unwrap();
        assert!(!off.dismiss_allowed, "control: the input turns it off");
        assert_eq!(push.token, None);
    }

    #[test]
    fn a_bad_input_is_a_usage_error() {
        let e = Settings::resolve(
            defaults(),
            &get(&[("INPUT_FAIL-ON", "sometimes")]),
            &GithubEnv::default(),
            &none(),
        )
        .unwrap_err();
        assert!(
            e.contains("INPUT_FAIL-ON") && e.contains("error, warning, new-warning, never"),
            "{e}"
        );
        let bad_bool = get(&[("INPUT_TEST", "maybe")]);
        assert!(Settings::resolve(defaults(), &bad_bool, &GithubEnv::default(), &none()).is_err());
    }

    #[test]
    fn a_shard_names_its_category_and_a_bad_one_is_a_usage_error() {
        let g = get(&[("INPUT_SHARD", "2/8"), ("INPUT_CATEGORY", "packs")]);
        let s = Settings::resolve(defaults(), &g, &GithubEnv::default(), &none()).unwrap();
        assert_eq!(s.shard, Some(Shard { index: 2, count: 8 }));
        assert_eq!(s.category, "packs/shard-2-of-8");
        assert_eq!(s.annotations, Annotations::Auto);
        let e = Settings::resolve(
            defaults(),
            &get(&[("INPUT_SHARD", "9/8")]),
            &GithubEnv::default(),
            &none(),
        )
        .unwrap_err();
        assert!(e.contains("INPUT_SHARD"), "{e}");
        let none =
            Settings::resolve(defaults(), &get(&[]), &GithubEnv::default(), &none()).unwrap();
        assert_eq!((none.shard, none.category.as_str()), (None, "hippo-packs"));
    }

    #[test]
    fn words_and_values_round_trip() {
        assert_eq!(FailOn::parse("WARNING"), Some(FailOn::Warning));
        assert_eq!(Scope::All.name(), "all");
        assert_eq!(UploadMode::parse("sometimes"), None);
        assert_eq!(FailOn::parse("new-warning"), Some(FailOn::NewWarning));
        assert_eq!(FilterMode::parse("ALL"), Some(FilterMode::All));
        assert_eq!(FilterMode::parse("changed"), None, "a control");
    }

    #[test]
    fn filter_mode_defaults_to_new_and_the_prompt_diff_to_shown() {
        let gh = GithubEnv::default();
        let s = Settings::resolve(defaults(), &get(&[]), &gh, &none()).unwrap();
        assert_eq!((s.filter_mode, s.prompt_diff), (FilterMode::New, true));
        let g = get(&[("INPUT_FILTER-MODE", "all"), ("INPUT_PROMPT-DIFF", "false")]);
        let s = Settings::resolve(defaults(), &g, &gh, &none()).unwrap();
        assert_eq!((s.filter_mode, s.prompt_diff), (FilterMode::All, false));
        let bad = get(&[("INPUT_FILTER-MODE", "some")]);
        assert!(Settings::resolve(defaults(), &bad, &gh, &none()).is_err());
    }
}
