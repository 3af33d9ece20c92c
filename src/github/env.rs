//! The environment GitHub gives a container action: `GITHUB_*` and `INPUT_*`.
//!
//! Read once, through a lookup function, so tests can hand in a map instead of the process
//! environment. An empty value counts as absent (the runner sets every declared input, empty
//! when the workflow gives none).

use std::path::PathBuf;

/// The public API unless `GITHUB_API_URL` names another (GitHub Enterprise Server).
pub(crate) const DEFAULT_API_URL: &str = "https://api.github.com";

/// What `ci` reads of `GITHUB_*`. Every field is optional: on a laptop or another CI system
/// none of them is set, and `ci` runs without them.
#[derive(Debug, Clone, Default)]
pub(crate) struct GithubEnv {
    /// `GITHUB_ACTIONS=true`: print workflow commands (groups, annotations, notices).
    pub(crate) actions: bool,
    pub(crate) workspace: Option<PathBuf>,
    pub(crate) sha: Option<String>,
    pub(crate) git_ref: Option<String>,
    /// `owner/name`.
    pub(crate) repository: Option<String>,
    /// The event's name and the path of its payload: read as the event, once, by
    /// `event::WorkflowEvent::from_env`, and nowhere else.
    pub(crate) event_name: Option<String>,
    pub(crate) event_path: Option<PathBuf>,
    pub(crate) output: Option<PathBuf>,
    pub(crate) step_summary: Option<PathBuf>,
    pub(crate) api_url: String,
    /// `GITHUB_GRAPHQL_URL`: GitHub's GraphQL endpoint (`https://api.github.com/graphql`,
    /// `https://<host>/api/graphql` on GitHub Enterprise Server).
    pub(crate) graphql_url: Option<String>,
    /// `HOME`: the runner's `/github/home` in a container action, where the report goes.
    pub(crate) home: Option<PathBuf>,
    /// `RUNNER_TEMP`, the runner's own path of its temporary folder (what `/github/home` is
    /// mounted from, as `_github_home`).
    pub(crate) runner_temp: Option<PathBuf>,
}

impl GithubEnv {
    /// Reads the process environment.
    pub(crate) fn from_process() -> Self {
        Self::from_lookup(|k| std::env::var_os(k).map(|v| v.to_string_lossy().into_owned()))
    }

    pub(crate) fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Self {
        let var = |k: &str| get(k).filter(|v| !v.trim().is_empty());
        GithubEnv {
            actions: var("GITHUB_ACTIONS").is_some_and(|v| v.trim() == "true"),
            workspace: var("GITHUB_WORKSPACE").map(PathBuf::from),
            sha: var("GITHUB_SHA").map(|v| v.trim().to_string()),
            git_ref: var("GITHUB_REF").map(|v| v.trim().to_string()),
            repository: var("GITHUB_REPOSITORY").map(|v| v.trim().to_string()),
            event_name: var("GITHUB_EVENT_NAME").map(|v| v.trim().to_string()),
            event_path: var("GITHUB_EVENT_PATH").map(PathBuf::from),
            output: var("GITHUB_OUTPUT").map(PathBuf::from),
            step_summary: var("GITHUB_STEP_SUMMARY").map(PathBuf::from),
            home: var("HOME").map(PathBuf::from),
            runner_temp: var("RUNNER_TEMP").map(PathBuf::from),
            api_url: var("GITHUB_API_URL")
                .map(|v| v.trim().trim_end_matches('/').to_string())
                .unwrap_or_else(|| DEFAULT_API_URL.to_string()),
            graphql_url: var("GITHUB_GRAPHQL_URL").map(|v| v.trim().to_string()),
        }
    }

    /// `(owner, name)` of `GITHUB_REPOSITORY`.
    pub(crate) fn owner_repo(&self) -> Option<(&str, &str)> {
        let (o, r) = self.repository.as_deref()?.split_once('/')?;
        (!o.is_empty() && !r.is_empty() && !r.contains('/')).then_some((o, r))
    }
}

/// The environment variable the runner sets for an input: `INPUT_` and the name upper-cased,
/// hyphens kept (`sarif-file` → `INPUT_SARIF-FILE`).
pub(crate) fn input_var(name: &str) -> String {
    format!("INPUT_{}", name.to_uppercase())
}

/// An input's value from the environment, trimmed; empty is absent.
pub(crate) fn input(get: &impl Fn(&str) -> Option<String>, name: &str) -> Option<String> {
    get(&input_var(name))
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::event::WorkflowEvent;
    use std::collections::HashMap;

    fn lookup(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn inputs_keep_hyphens_and_ignore_empty() {
        assert_eq!(input_var("sarif-file"), "INPUT_SARIF-FILE");
        let get = lookup(&[("INPUT_FAIL-ON", " warning "), ("INPUT_SCOPE", "")]);
        assert_eq!(input(&get, "fail-on").as_deref(), Some("warning"));
        assert_eq!(input(&get, "scope"), None);
        assert_eq!(input(&get, "FAIL_ON"), None, "underscores are not hyphens");
    }

    #[test]
    fn reads_github_variables() {
        let env = GithubEnv::from_lookup(lookup(&[
            ("GITHUB_ACTIONS", "true"),
            ("GITHUB_REPOSITORY", "octo/packs"),
            ("GITHUB_EVENT_NAME", "pull_request"),
            ("GITHUB_API_URL", "https://ghes.example/api/v3/"),
        ]));
        let pull_request =
            |e: &GithubEnv| WorkflowEvent::from_env(e) == WorkflowEvent::PullRequest(None);
        assert!(env.actions && pull_request(&env));
        assert_eq!(env.owner_repo(), Some(("octo", "packs")));
        assert_eq!(env.api_url, "https://ghes.example/api/v3");
        let bare = GithubEnv::from_lookup(lookup(&[("GITHUB_REPOSITORY", "nope")]));
        assert!(!bare.actions && !pull_request(&bare));
        assert_eq!(bare.owner_repo(), None);
        assert_eq!(bare.api_url, DEFAULT_API_URL);
    }
}
