//! Which commit and ref an upload's results belong to (docs/action.md, "The commit and the
//! ref"): the commit the repository root has checked out, paired with the ref that names it.
//!
//! `GITHUB_SHA` and `GITHUB_REF` describe the event, not the checkout: on `pull_request_target`
//! they name the base branch, and a workflow that checks out the pull request's head analyses
//! another commit than the merge commit `GITHUB_SHA` names. So the checked-out commit is read
//! from the `.git` of the repository root (docs/action.md, "The repository root") and matched
//! as `github/codeql-action` matches it: against `GITHUB_SHA`, then against
//! `refs/remotes/pull/<n>/merge` (where `actions/checkout` fetches the merge), and only then
//! against the payload, whose `merge_commit_sha` is stale after a push to the pull request.

use std::path::Path;

use crate::github::checkout;
use crate::github::env::GithubEnv;
use crate::github::event::{PullRequest, WorkflowEvent};

/// The commit and ref an upload goes to, and how they were found (for the log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    pub(crate) sha: String,
    pub(crate) git_ref: String,
    pub(crate) how: String,
}

/// The `ref` and `sha` inputs, when given (both or neither).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Given {
    pub(crate) git_ref: Option<String>,
    pub(crate) sha: Option<String>,
}

/// Where the results go; `Err` says why they cannot go anywhere safely.
/// `root` is the repository root, whose `.git` names the checked-out commit.
pub(crate) fn target(
    given: &Given,
    root: &Path,
    gh: &GithubEnv,
    event: &WorkflowEvent,
) -> Result<Target, String> {
    if let (Some(sha), Some(git_ref)) = (&given.sha, &given.git_ref) {
        return Ok(Target {
            sha: sha.clone(),
            git_ref: git_ref.clone(),
            how: "the ref and sha inputs".to_string(),
        });
    }
    let checkout = checkout::head_commit(root);
    match event.pull_request() {
        Some(pr) => pull_request_target(pr, checkout, root, gh, event.github_sha_is_base()),
        None => plain(checkout, gh),
    }
}

/// A push (or any event without a pull request): the checked-out commit, else `GITHUB_SHA`,
/// with `GITHUB_REF`.
fn plain(checkout: Option<String>, gh: &GithubEnv) -> Result<Target, String> {
    let from_git = checkout.is_some();
    let sha = checkout.or_else(|| gh.sha.clone());
    match (sha, &gh.git_ref) {
        (Some(sha), Some(git_ref)) => Ok(Target {
            sha,
            git_ref: git_ref.clone(),
            how: if from_git {
                "the checkout and GITHUB_REF".to_string()
            } else {
                "GITHUB_SHA and GITHUB_REF".to_string()
            },
        }),
        (sha, git_ref) => {
            let missing: Vec<&str> = [
                ("GITHUB_SHA", sha.is_none()),
                ("GITHUB_REF", git_ref.is_none()),
            ]
            .into_iter()
            .filter_map(|(n, m)| m.then_some(n))
            .collect();
            Err(format!("no {}", missing.join(", ")))
        }
    }
}

/// A pull request: the checkout is its merge commit (`refs/pull/N/merge`) or its head
/// (`refs/pull/N/head`), compared in codeql-action's order (docs/action.md, "The commit and the
/// ref"); anything else is not the pull request's code, and is not uploaded under its ref, nor
/// under the base branch's.
fn pull_request_target(
    pr: &PullRequest,
    checkout: Option<String>,
    root: &Path,
    gh: &GithubEnv,
    target_event: bool,
) -> Result<Target, String> {
    let n = pr.number;
    // On `pull_request`, GITHUB_SHA is the merge GitHub made for this push; on
    // `pull_request_target` (`target_event`) it is the base branch's last commit, never the
    // pull request's.
    let github_sha = gh.sha.clone().filter(|_| !target_event);
    let Some(sha) = checkout.or_else(|| github_sha.clone()) else {
        return Err(format!(
            "cannot tell which commit of pull request #{n} was checked out (no readable .git at the repository root); set the ref and sha inputs"
        ));
    };
    let is = |other: Option<&str>| other == Some(sha.as_str());
    let remote_merge = format!("refs/remotes/pull/{n}/merge");
    let (side, how) = if is(github_sha.as_deref()) {
        ("merge", "GITHUB_SHA".to_string())
    } else if is(checkout::ref_commit(root, &remote_merge).as_deref()) {
        ("merge", remote_merge)
    } else if is(pr.head_sha.as_deref()) {
        ("head", "the payload's head.sha".to_string())
    } else if is(pr.merge_sha.as_deref()) {
        ("merge", "the payload's merge_commit_sha".to_string())
    } else {
        return Err(format!(
            "the checked-out commit {sha} is neither the head nor the merge commit of pull request #{n}, so its results belong to no ref of the pull request (and never to the base branch); set the ref and sha inputs to upload them"
        ));
    };
    Ok(Target {
        git_ref: format!("refs/pull/{n}/{side}"),
        sha,
        how: format!("the checkout, pull request #{n}'s {side} commit by {how}"),
    })
}

/// Why a `pull_request_target` run's checkout is not the pull request's code (the base branch,
/// as `actions/checkout` gives by default); `None` on other events, on a head or merge
/// checkout, and when the ref and sha inputs say where the results go.
pub(crate) fn base_checkout(
    given: &Given,
    root: &Path,
    gh: &GithubEnv,
    event: &WorkflowEvent,
) -> Option<String> {
    if !event.github_sha_is_base() {
        return None;
    }
    target(given, root, gh, event).err()
}

/// Checks the `ref` and `sha` inputs: both or neither, a full ref and a full object name.
pub(crate) fn given(git_ref: Option<String>, sha: Option<String>) -> Result<Given, String> {
    let sha = match sha {
        Some(s) => Some(
            checkout::object_name(&s)
                .ok_or_else(|| format!("input sha: expected a full commit hash, got {s:?}"))?,
        ),
        None => None,
    };
    if let Some(r) = &git_ref {
        let ok = r.starts_with("refs/")
            && !r.ends_with('/')
            && !r.contains("..")
            && !r.chars().any(|c| c.is_whitespace() || c.is_control());
        if !ok {
            return Err(format!(
                "input ref: expected a full ref such as refs/heads/main or refs/pull/7/merge, got {r:?}"
            ));
        }
    }
    match (&git_ref, &sha) {
        (Some(_), None) | (None, Some(_)) => {
            Err("inputs ref and sha: give both or neither (as codeql-action asks)".to_string())
        }
        _ => Ok(Given { git_ref, sha }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MERGE: &str = "1111111111111111111111111111111111111111";
    const HEAD: &str = "2222222222222222222222222222222222222222";
    const BASE: &str = "3333333333333333333333333333333333333333";

    /// A workspace with `checkout` as its detached HEAD (or no .git), and an event file.
    fn setup(event_name: &str, checkout: Option<&str>) -> (tempfile::TempDir, GithubEnv) {
        let t = tempfile::tempdir().unwrap();
        if let Some(c) = checkout {
            std::fs::create_dir_all(t.path().join(".git")).unwrap();
            std::fs::write(t.path().join(".git/HEAD"), format!("{c}\n")).unwrap();
        }
        let event = serde_json::json!({"number": 7, "pull_request": {
            "number": 7, "merge_commit_sha": MERGE, "head": {"sha": HEAD}}});
        let ev = t.path().join("event.json");
        std::fs::write(&ev, event.to_string()).unwrap();
        let target = event_name == "pull_request_target";
        let gh = GithubEnv {
            workspace: Some(t.path().to_path_buf()),
            event_name: Some(event_name.into()),
            event_path: Some(ev),
            sha: Some(if target { BASE } else { MERGE }.into()),
            git_ref: Some(
                if target {
                    "refs/heads/main"
                } else {
                    "refs/pull/7/merge"
                }
                .into(),
            ),
            ..GithubEnv::default()
        };
        (t, gh)
    }

    /// The target with the workspace as the repository root.
    fn at(g: &Given, gh: &GithubEnv) -> Result<Target, String> {
        let event = WorkflowEvent::from_env(gh);
        target(g, gh.workspace.as_deref().unwrap(), gh, &event)
    }

    fn pair(t: Result<Target, String>) -> (String, String) {
        let t = t.unwrap();
        (t.sha, t.git_ref)
    }

    #[test]
    fn a_pull_request_checkout_pairs_with_its_ref() {
        let (_t, gh) = setup("pull_request", Some(MERGE));
        let g = Given::default();
        assert_eq!(
            pair(at(&g, &gh)),
            (MERGE.into(), "refs/pull/7/merge".into())
        );
        let (_t, gh) = setup("pull_request", Some(HEAD));
        assert_eq!(pair(at(&g, &gh)), (HEAD.into(), "refs/pull/7/head".into()));
        let (_t, gh) = setup("pull_request", None);
        assert_eq!(
            pair(at(&g, &gh)),
            (MERGE.into(), "refs/pull/7/merge".into())
        );
    }

    #[test]
    fn github_sha_and_the_fetched_merge_outrank_a_stale_merge_commit_sha() {
        const NEW: &str = "4444444444444444444444444444444444444444";
        let stale = |gh: &GithubEnv| {
            let event = serde_json::json!({"pull_request": {
                "number": 7, "merge_commit_sha": MERGE, "head": {"sha": HEAD}}});
            std::fs::write(gh.event_path.as_ref().unwrap(), event.to_string()).unwrap();
        };
        let g = Given::default();
        let (_t, mut gh) = setup("pull_request", Some(NEW));
        gh.sha = Some(NEW.into());
        stale(&gh);
        let t = at(&g, &gh).unwrap();
        assert_eq!(
            (t.sha.as_str(), t.git_ref.as_str()),
            (NEW, "refs/pull/7/merge")
        );
        assert!(t.how.contains("GITHUB_SHA"), "{}", t.how);
        // pull_request_target: GITHUB_SHA is the base; the merge ref actions/checkout wrote.
        let (t, gh) = setup("pull_request_target", Some(NEW));
        stale(&gh);
        assert!(
            at(&g, &gh).is_err(),
            "control: without the merge ref, no guess"
        );
        let refs = t.path().join(".git/refs/remotes/pull/7");
        std::fs::create_dir_all(&refs).unwrap();
        std::fs::write(refs.join("merge"), format!("{NEW}\n")).unwrap();
        let found = at(&g, &gh).unwrap();
        assert_eq!(found.git_ref, "refs/pull/7/merge");
        assert!(
            found.how.contains("refs/remotes/pull/7/merge"),
            "{}",
            found.how
        );
    }

    #[test]
    fn pull_request_target_never_uploads_to_the_base_branch() {
        let g = Given::default();
        let (_t, gh) = setup("pull_request_target", Some(HEAD));
        assert_eq!(pair(at(&g, &gh)), (HEAD.into(), "refs/pull/7/head".into()));
        let (_t, gh) = setup("pull_request_target", Some(BASE));
        let e = at(&g, &gh).unwrap_err();
        assert!(e.contains("never to the base branch"), "{e}");
        let (_t, gh) = setup("pull_request_target", None);
        assert!(at(&g, &gh).is_err(), "control: no checkout, no guess");
    }

    #[test]
    fn a_push_uses_the_checkout_and_inputs_win() {
        let (_t, mut gh) = setup("push", Some(HEAD));
        gh.sha = Some(BASE.into());
        gh.git_ref = Some("refs/heads/main".into());
        assert_eq!(
            pair(at(&Given::default(), &gh)),
            (HEAD.into(), "refs/heads/main".into())
        );
        let g = given(Some("refs/heads/x".into()), Some(BASE.to_uppercase())).unwrap();
        assert_eq!(pair(at(&g, &gh)), (BASE.into(), "refs/heads/x".into()));
        gh.git_ref = None;
        assert_eq!(at(&Given::default(), &gh).unwrap_err(), "no GITHUB_REF");
    }

    #[test]
    fn ref_and_sha_inputs_are_checked() {
        assert!(given(Some("refs/heads/x".into()), None).is_err());
        assert!(given(Some("main".into()), Some(HEAD.into())).is_err());
        assert!(given(Some("refs/heads/x".into()), Some("abc".into())).is_err());
        assert_eq!(given(None, None).unwrap(), Given::default());
    }
}
