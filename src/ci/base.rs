//! The base of a pull request's or a merge group's review (docs/action.md, "The review: base
//! against head"): the commit the changes are compared with, read from the checkout's git
//! objects.
//!
//! - A merge checkout (`HEAD` has two parents and the second is the pull request's head, or the
//!   checkout is the merge commit by the rules of `commit::target`): the base is `HEAD^1`, held
//!   from `fetch-depth: 2`.
//! - A head checkout (`HEAD` is the pull request's head): the merge base of `HEAD` and the
//!   payload's `base.sha`, held when the checkout holds the history down to it.
//! - A merge group: its `base_sha`, when the checkout holds it.
//!
//! Push, schedule, dispatch and other runs with no pull request or merge group make no review.

use std::path::Path;

use super::commit::{self, Given};
use crate::github::env::GithubEnv;
use crate::github::event::{Changes, MergeGroup, PullRequest, WorkflowEvent};
use crate::repo::{self, Extracted, History, ObjectId, Repo};

/// The most bytes [`Base::read`] returns of a file (a caller with a lower limit sees a file
/// over it as over it, not as absent).
pub(crate) const MAX_READ: u64 = 4 << 20;

/// Whether this run reviews its changes, and against what.
pub(crate) enum Review {
    /// No pull request or merge group: no base is sought.
    Off,
    /// The base was found.
    Base(Box<Base>),
    /// A review without a base: why (one sentence, for the notice).
    NoBase(String),
}

/// The commit a review compares the checkout with.
pub(crate) struct Base {
    pub(crate) commit: ObjectId,
    /// How it was found, for the log (`HEAD^1 of the merge checkout`).
    pub(crate) how: String,
    repo: Repo,
}

impl Base {
    /// The file at `rel` (relative to the repository root, `/`-separated) as the base holds
    /// it; `None` when the base holds no such file or it is over [`MAX_READ`] bytes.
    pub(crate) fn read(&self, rel: &str) -> Option<Vec<u8>> {
        self.repo.read(&self.commit, rel, MAX_READ)
    }

    /// The folders `rels` (relative to the repository root: the touched packs) as the base
    /// holds them, written into a new temporary folder at the same relative paths, within the
    /// pack walk's caps (`repo::extract`).
    pub(crate) fn extract(&self, rels: &[String]) -> Result<Extracted, String> {
        self.repo.extract(&self.commit, rels)
    }

    /// The versions of files under `dirs` that the commits between the base and the checkout
    /// held and neither holds (`repo::History`), or why the checkout does not hold them.
    pub(crate) fn history(&self, dirs: &[String]) -> History {
        match self.repo.head() {
            Some(head) => self.repo.history(&self.commit, &head, dirs),
            None => History::Incomplete("the checkout's HEAD names no commit".to_string()),
        }
    }

    /// The file at `path` (relative to the repository root) as the checkout's commit holds it,
    /// at most `max` bytes.
    pub(crate) fn read_head(&self, path: &str, max: u64) -> Option<Vec<u8>> {
        self.repo.read(&self.repo.head()?, path, max)
    }

    /// The base's short name (`1a2b3c4`).
    pub(crate) fn short(&self) -> String {
        repo::short(&self.commit)
    }
}

/// The review of this run: its base, or why there is none. `root` is the repository root.
pub(crate) fn find(given: &Given, root: &Path, gh: &GithubEnv, event: &WorkflowEvent) -> Review {
    let found = match event.changes() {
        Changes::Unknown => return Review::Off,
        Changes::PullRequest(pr) => Repo::open(root).and_then(|r| {
            let side = commit::target(given, root, gh, event).map(|t| t.git_ref);
            pull_request(r, pr, side.ok().as_deref())
        }),
        Changes::MergeGroup(g) => Repo::open(root).and_then(|r| merge_group(r, g)),
    };
    match found {
        Ok(base) => Review::Base(Box::new(base)),
        Err(why) => Review::NoBase(why),
    }
}

/// A pull request's base: `HEAD^1` of a merge checkout, the merge base of a head checkout.
/// `target_ref` is the ref the checkout's results belong to (`refs/pull/7/merge`), when known.
fn pull_request(repo: Repo, pr: &PullRequest, target_ref: Option<&str>) -> Result<Base, String> {
    let head = repo.head().ok_or("the checkout's HEAD names no commit")?;
    let parents = repo.parents(&head).unwrap_or_default();
    let head_sha = pr.head_sha.as_deref().and_then(Repo::id);
    let merge_ref = target_ref.is_some_and(|r| r.ends_with("/merge"));
    if parents.len() == 2 && (head_sha.as_ref() == Some(&parents[1]) || merge_ref) {
        let first = parents[0];
        if !repo.has_commit(&first) {
            return Err(format!(
                "the checkout holds the merge commit {} but not its first parent, the base branch's commit {}",
                repo::short(&head),
                repo::short(&first)
            ));
        }
        return Ok(Base {
            commit: first,
            how: "HEAD^1, the merge checkout's first parent".to_string(),
            repo,
        });
    }
    if head_sha.as_ref() != Some(&head) {
        return Err(format!(
            "the checked-out commit {} is neither the pull request's head nor a merge of it",
            repo::short(&head)
        ));
    }
    let Some(base_sha) = pr.base_sha.as_deref().and_then(Repo::id) else {
        return Err("the event names no base commit".to_string());
    };
    match repo.merge_base(&head, &base_sha) {
        Some(commit) => Ok(Base {
            commit,
            how: format!(
                "the merge base of the head checkout and the base branch's {}",
                repo::short(&base_sha)
            ),
            repo,
        }),
        None => Err(format!(
            "the checkout of the pull request's head does not hold the history down to its merge base with the base branch's {}",
            repo::short(&base_sha)
        )),
    }
}

/// A merge group's base: its `base_sha`, when held.
fn merge_group(repo: Repo, g: &MergeGroup) -> Result<Base, String> {
    let Some(base_sha) = Repo::id(&g.base_sha) else {
        return Err("the event's base_sha is not a commit name".to_string());
    };
    if !repo.has_commit(&base_sha) {
        return Err(format!(
            "the checkout does not hold the merge group's base commit {}",
            repo::short(&base_sha)
        ));
    }
    Ok(Base {
        commit: base_sha,
        how: "the merge group's base_sha".to_string(),
        repo,
    })
}

/// The notice of a review without a base (docs/action.md, "The review: base against head").
pub(crate) fn no_base_notice(why: &str) -> String {
    format!(
        "no base to review against: {why}. Every finding of a touched pack counts as new, and the pull request's commits are not searched for secrets added and removed later. Check out with `fetch-depth: 2` (actions/checkout; `fetch-depth: 0` for a merge group or a checkout of the pull request's head)"
    )
}

#[cfg(test)]
mod tests;
