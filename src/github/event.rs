//! The event payload (`$GITHUB_EVENT_PATH`): what `ci` needs of a pull request.

use serde_json::Value;

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
    /// `pull_request.merge_commit_sha`: the test merge GitHub made (absent while it cannot).
    pub(crate) merge_sha: Option<String>,
    /// `pull_request.user.login`: who opened it (`dependabot[bot]` gets a read-only token).
    pub(crate) author: Option<String>,
}

impl PullRequest {
    /// Why this pull request's `pull_request` run has a read-only token, if it has: a fork's,
    /// or Dependabot's.
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

/// `repository.default_branch` of an event payload (push, workflow_dispatch and most others
/// carry it).
pub(crate) fn default_branch(payload: &str) -> Option<String> {
    let v: Value = serde_json::from_str(payload).ok()?;
    let branch = v.get("repository")?.get("default_branch")?.as_str()?.trim();
    (!branch.is_empty()).then(|| branch.to_string())
}

/// A merge group's `(base_sha, head_sha)` from a `merge_group` event payload.
pub(crate) fn merge_group(payload: &str) -> Option<(String, String)> {
    let v: Value = serde_json::from_str(payload).ok()?;
    let g = v.get("merge_group")?;
    let sha = |k: &str| g.get(k).and_then(Value::as_str).map(str::to_string);
    Some((sha("base_sha")?, sha("head_sha")?))
}

/// Reads the pull request from an event payload; `None` when it is not about one.
pub(crate) fn pull_request(payload: &str) -> Option<PullRequest> {
    let v: Value = serde_json::from_str(payload).ok()?;
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
        merge_sha: sha(pr.get("merge_commit_sha")),
        author: pr
            .get("user")
            .and_then(|u| u.get("login"))
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_pull_request() {
        let p = r#"{"number": 7, "pull_request": {"number": 7, "changed_files": 3,
            "merge_commit_sha": "CCCC",
            "head": {"sha": "aaaa", "repo": {"full_name": "someone/packs", "fork": true}},
            "base": {"repo": {"full_name": "octo/packs"}}}}"#;
        assert_eq!(
            pull_request(p),
            Some(PullRequest {
                number: 7,
                changed_files: Some(3),
                from_fork: true,
                head_sha: Some("aaaa".into()),
                merge_sha: Some("cccc".into()),
                author: None,
            })
        );
        let same = r#"{"pull_request": {"number": 8,
            "head": {"repo": {"full_name": "octo/packs"}}, "base": {"repo": {"full_name": "octo/packs"}}}}"#;
        assert_eq!(
            pull_request(same).map(|p| (p.number, p.from_fork)),
            Some((8, false))
        );
    }

    #[test]
    fn reads_the_default_branch() {
        let push = r#"{"ref": "refs/heads/main", "repository": {"default_branch": "main"}}"#;
        assert_eq!(default_branch(push).as_deref(), Some("main"));
        assert_eq!(default_branch(r#"{"schedule": "17 3 * * *"}"#), None);
        assert_eq!(
            default_branch(r#"{"repository": {"default_branch": ""}}"#),
            None
        );
        assert_eq!(default_branch("not json"), None);
    }

    #[test]
    fn other_events_and_garbage_are_none() {
        assert_eq!(pull_request(r#"{"ref": "refs/heads/main"}"#), None);
        assert_eq!(pull_request("not json"), None);
        assert_eq!(pull_request(r#"{"pull_request": {"number": "x"}}"#), None);
    }
}
