//! The event that started the workflow: `GITHUB_EVENT_NAME` and its payload (the file
//! `$GITHUB_EVENT_PATH` names), read and parsed once into a [`WorkflowEvent`] that answers what
//! the steps of `ci` ask of it (docs/action.md, "Events"). Every answer is an exhaustive match
//! (no `_` arm), so a new event's variant fails to compile until each question has its answer
//! (docs/architecture.md, "A new event").
//!
//! The name says which part of the payload is read. A payload that cannot be read or parsed,
//! or lacks the part its name promises, leaves that part absent: the steps then say what they
//! said of any event without it.

use serde_json::Value;

use super::env::GithubEnv;

/// The pull request an event is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PullRequest {
    pub(crate) number: u64,
    /// `pull_request.changed_files`: how many files the pull request changes (GitHub's list
    /// endpoint returns at most 3,000 of them).
    pub(crate) changed_files: Option<u64>,
    /// The head repository is not the base repository: the workflow gets a read-only token.
    pub(crate) from_fork: bool,
    /// `pull_request.head.sha`: the pull request's last commit.
    pub(crate) head_sha: Option<String>,
    /// `pull_request.base.sha`: the base branch's last commit when the event was sent.
    pub(crate) base_sha: Option<String>,
    /// `pull_request.merge_commit_sha`: the test merge GitHub made (absent while it cannot).
    pub(crate) merge_sha: Option<String>,
    /// `pull_request.user.login`: who opened it (`dependabot[bot]`'s token is read-only unless
    /// the job's `permissions:` raise it).
    pub(crate) author: Option<String>,
}

impl PullRequest {
    /// Why this pull request's `pull_request` run may have a read-only token: a fork's, or
    /// Dependabot's (what a refused upload says; the upload is tried all the same).
    pub(crate) fn read_only(&self) -> Option<&'static str> {
        if self.from_fork {
            Some("this pull request comes from a fork")
        } else if self.author.as_deref() == Some("dependabot[bot]") {
            Some("this pull request is Dependabot's")
        } else {
            None
        }
    }
}

/// A merge group's two commits: the changes are those between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MergeGroup {
    /// `merge_group.base_sha`.
    pub(crate) base_sha: String,
    /// `merge_group.head_sha`.
    pub(crate) head_sha: String,
}

/// The event of this run, by `GITHUB_EVENT_NAME`, with what its payload holds that `ci` uses
/// (`None`: the payload did not say).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WorkflowEvent {
    /// `pull_request`: `GITHUB_SHA` is the pull request's merge commit.
    PullRequest(Option<PullRequest>),
    /// `pull_request_target`: `GITHUB_SHA` and `GITHUB_REF` name the base branch.
    PullRequestTarget(Option<PullRequest>),
    MergeGroup(Option<MergeGroup>),
    /// `push`, with the payload's `repository.default_branch`.
    Push {
        default_branch: Option<String>,
    },
    /// `schedule`: GitHub runs schedules only on the default branch.
    Schedule {
        default_branch: Option<String>,
    },
    WorkflowDispatch {
        default_branch: Option<String>,
    },
    /// Any other event (or none: `ci` off GitHub), with the pull request or merge group its
    /// payload holds (a `pull_request_review`'s, say).
    Other {
        pull_request: Option<PullRequest>,
        merge_group: Option<MergeGroup>,
    },
}

/// What a run's changes can be known from (`scope: changed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Changes<'a> {
    /// The pull request's files.
    PullRequest(&'a PullRequest),
    /// The compare between the group's base and head.
    MergeGroup(&'a MergeGroup),
    /// Nothing in the event says what changed.
    Unknown,
}

impl WorkflowEvent {
    /// The event of the environment: its name, and the payload file read once.
    pub(crate) fn from_env(gh: &GithubEnv) -> WorkflowEvent {
        let payload = gh
            .event_path
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok());
        WorkflowEvent::parse(gh.event_name.as_deref(), payload.as_deref())
    }

    /// The event named `name` with `payload` (its JSON text, when it could be read).
    pub(crate) fn parse(name: Option<&str>, payload: Option<&str>) -> WorkflowEvent {
        let v: Option<Value> = payload.and_then(|p| serde_json::from_str(p).ok());
        let v = v.as_ref();
        let pull_request = || v.and_then(pull_request);
        let default_branch = || v.and_then(default_branch);
        match name {
            Some("pull_request") => WorkflowEvent::PullRequest(pull_request()),
            Some("pull_request_target") => WorkflowEvent::PullRequestTarget(pull_request()),
            Some("merge_group") => WorkflowEvent::MergeGroup(v.and_then(merge_group)),
            Some("push") => WorkflowEvent::Push {
                default_branch: default_branch(),
            },
            Some("schedule") => WorkflowEvent::Schedule {
                default_branch: default_branch(),
            },
            Some("workflow_dispatch") => WorkflowEvent::WorkflowDispatch {
                default_branch: default_branch(),
            },
            _ => WorkflowEvent::Other {
                pull_request: pull_request(),
                merge_group: v.and_then(merge_group),
            },
        }
    }

    /// Whether `scope` defaults to `changed`: the events whose changes are known, a pull
    /// request's files or a merge group's compare (whatever the payload holds).
    pub(crate) fn scope_defaults_to_changed(&self) -> bool {
        match self {
            WorkflowEvent::PullRequest(_)
            | WorkflowEvent::PullRequestTarget(_)
            | WorkflowEvent::MergeGroup(_) => true,
            WorkflowEvent::Push { .. }
            | WorkflowEvent::Schedule { .. }
            | WorkflowEvent::WorkflowDispatch { .. }
            | WorkflowEvent::Other { .. } => false,
        }
    }

    /// Where `scope: changed` learns the changes.
    pub(crate) fn changes(&self) -> Changes<'_> {
        match self {
            WorkflowEvent::PullRequest(pr) | WorkflowEvent::PullRequestTarget(pr) => {
                pr.as_ref().map_or(Changes::Unknown, Changes::PullRequest)
            }
            WorkflowEvent::MergeGroup(g) => {
                g.as_ref().map_or(Changes::Unknown, Changes::MergeGroup)
            }
            WorkflowEvent::Other {
                pull_request,
                merge_group,
            } => match (merge_group, pull_request) {
                (Some(g), _) => Changes::MergeGroup(g),
                (None, Some(pr)) => Changes::PullRequest(pr),
                (None, None) => Changes::Unknown,
            },
            WorkflowEvent::Push { .. }
            | WorkflowEvent::Schedule { .. }
            | WorkflowEvent::WorkflowDispatch { .. } => Changes::Unknown,
        }
    }

    /// The pull request this run is of (`pull_request`, `pull_request_target`): its results
    /// belong to one of its refs (the ref results belong to), and its check run to its head.
    pub(crate) fn pull_request(&self) -> Option<&PullRequest> {
        match self {
            WorkflowEvent::PullRequest(pr) | WorkflowEvent::PullRequestTarget(pr) => pr.as_ref(),
            WorkflowEvent::MergeGroup(_)
            | WorkflowEvent::Push { .. }
            | WorkflowEvent::Schedule { .. }
            | WorkflowEvent::WorkflowDispatch { .. }
            | WorkflowEvent::Other { .. } => None,
        }
    }

    /// Why this run's token may be read-only: a `pull_request` run of a fork's or Dependabot's
    /// pull request (`pull_request_target` runs with the base repository's token).
    pub(crate) fn read_only(&self) -> Option<&'static str> {
        match self {
            WorkflowEvent::PullRequest(pr) => pr.as_ref().and_then(PullRequest::read_only),
            WorkflowEvent::PullRequestTarget(_)
            | WorkflowEvent::MergeGroup(_)
            | WorkflowEvent::Push { .. }
            | WorkflowEvent::Schedule { .. }
            | WorkflowEvent::WorkflowDispatch { .. }
            | WorkflowEvent::Other { .. } => None,
        }
    }

    /// Where the base is: `true` when `GITHUB_SHA` and `GITHUB_REF` name the base branch, not
    /// the pull request (`pull_request_target`), so `actions/checkout` checks out the base.
    pub(crate) fn github_sha_is_base(&self) -> bool {
        match self {
            WorkflowEvent::PullRequestTarget(_) => true,
            WorkflowEvent::PullRequest(_)
            | WorkflowEvent::MergeGroup(_)
            | WorkflowEvent::Push { .. }
            | WorkflowEvent::Schedule { .. }
            | WorkflowEvent::WorkflowDispatch { .. }
            | WorkflowEvent::Other { .. } => false,
        }
    }

    /// Whether alert dismissal may run on `git_ref`: a run of a branch (`push`, `schedule`,
    /// `workflow_dispatch`, never a pull request or a merge group: a dismissal holds for the
    /// whole repository) whose ref is the default branch, as the payload's
    /// `repository.default_branch` says; a scheduled run whose payload does not say runs on the
    /// default branch (GitHub runs schedules only there).
    pub(crate) fn may_dismiss_on(&self, git_ref: &str) -> bool {
        let (default_branch, scheduled) = match self {
            WorkflowEvent::Push { default_branch }
            | WorkflowEvent::WorkflowDispatch { default_branch } => (default_branch, false),
            WorkflowEvent::Schedule { default_branch } => (default_branch, true),
            WorkflowEvent::PullRequest(_)
            | WorkflowEvent::PullRequestTarget(_)
            | WorkflowEvent::MergeGroup(_)
            | WorkflowEvent::Other { .. } => return false,
        };
        match default_branch {
            Some(branch) => git_ref == format!("refs/heads/{branch}"),
            None => scheduled && git_ref.starts_with("refs/heads/"),
        }
    }
}

/// `repository.default_branch` of an event payload (push, workflow_dispatch and most others
/// carry it).
fn default_branch(v: &Value) -> Option<String> {
    let branch = v.get("repository")?.get("default_branch")?.as_str()?.trim();
    (!branch.is_empty()).then(|| branch.to_string())
}

/// A merge group's commits from a `merge_group` event payload.
fn merge_group(v: &Value) -> Option<MergeGroup> {
    let g = v.get("merge_group")?;
    let sha = |k: &str| g.get(k).and_then(Value::as_str).map(str::to_string);
    Some(MergeGroup {
        base_sha: sha("base_sha")?,
        head_sha: sha("head_sha")?,
    })
}

/// The pull request of an event payload; `None` when it is not about one.
fn pull_request(v: &Value) -> Option<PullRequest> {
    let pr = v.get("pull_request")?;
    let number = pr
        .get("number")
        .and_then(Value::as_u64)
        .or_else(|| v.get("number").and_then(Value::as_u64))?;
    let full_name = |side: &str| {
        pr.get(side)
            .and_then(|s| s.get("repo"))
            .and_then(|r| r.get("full_name"))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let head_fork = pr
        .get("head")
        .and_then(|s| s.get("repo"))
        .and_then(|r| r.get("fork"))
        .and_then(Value::as_bool);
    let from_fork = match (full_name("head"), full_name("base")) {
        (Some(h), Some(b)) => h != b,
        _ => head_fork.unwrap_or(false),
    };
    let sha = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .map(|s| s.trim().to_ascii_lowercase())
    };
    Some(PullRequest {
        number,
        changed_files: pr.get("changed_files").and_then(Value::as_u64),
        from_fork,
        head_sha: sha(pr.get("head").and_then(|h| h.get("sha"))),
        base_sha: sha(pr.get("base").and_then(|b| b.get("sha"))),
        merge_sha: sha(pr.get("merge_commit_sha")),
        author: pr
            .get("user")
            .and_then(|u| u.get("login"))
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

#[cfg(test)]
mod tests;
