//! The commits between a base and a head, and the files they added or changed under some
//! folders that neither end holds: what a secret committed and removed later hides in.
//!
//! The history is complete when every commit reachable from the head and not from the base is
//! held (a shallow clone may stop short): a commit counts as the base's when the base's held
//! ancestry names it, even as the parent of a held commit, so a one-commit pull request at
//! depth 2 is complete (its parent is the base branch's commit's parent too). Bounded: at most
//! [`MAX_COMMITS`] commits of the pull request, [`MAX_BASE_WALK`] of the base's ancestry,
//! and each folder read within the pack walk's caps.

use std::collections::HashSet;

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use super::objects::{Found, Repo, short};
use crate::pack::walk::MAX_DEPTH;
use crate::pack::{MAX_ENTRIES, ONE_FILE_LIMIT};

/// The most commits of the pull request walked; past them the history counts as incomplete.
pub(crate) const MAX_COMMITS: usize = 1_000;
/// The most commits of the base's ancestry walked.
const MAX_BASE_WALK: usize = 200_000;

/// A file one of the commits held under a folder, at a version neither the base nor the head
/// holds at its path.
pub(crate) struct Added {
    /// The first commit (oldest first, as walked) that held this version.
    pub(crate) commit: ObjectId,
    /// The path, relative to the repository root.
    pub(crate) path: String,
    /// Its bytes (files of at most [`ONE_FILE_LIMIT`] bytes).
    pub(crate) bytes: Vec<u8>,
}

/// The files of a history, or why the checkout does not hold it.
pub(crate) enum History {
    Complete(Vec<Added>),
    Incomplete(String),
}

impl Repo {
    /// The versions of files under `dirs` (relative to the repository root) that the commits
    /// between `base` and `head` held and neither end holds at the same path.
    pub(crate) fn history(&self, base: &ObjectId, head: &ObjectId, dirs: &[String]) -> History {
        let commits = match self.commits_between(base, head) {
            Ok(c) => c,
            Err(why) => return History::Incomplete(why),
        };
        let ends: HashSet<(String, ObjectId)> = [base, head]
            .into_iter()
            .flat_map(|c| self.blobs_under(c, dirs))
            .collect();
        let mut seen: HashSet<ObjectId> = HashSet::new();
        let mut out = Vec::new();
        for commit in commits.iter().rev() {
            for (path, blob) in self.blobs_under(commit, dirs) {
                if ends.contains(&(path.clone(), blob)) || !seen.insert(blob) {
                    continue;
                }
                if let Some(bytes) = self.blob(&blob, ONE_FILE_LIMIT) {
                    out.push(Added {
                        commit: *commit,
                        path,
                        bytes,
                    });
                }
            }
        }
        History::Complete(out)
    }

    /// The commits reachable from `head` and not from `base`, newest first as walked; `Err`
    /// when the checkout does not hold one of them, or there are over [`MAX_COMMITS`].
    fn commits_between(&self, base: &ObjectId, head: &ObjectId) -> Result<Vec<ObjectId>, String> {
        let mut base_side: HashSet<ObjectId> = HashSet::new();
        let mut stack = vec![*base];
        while let Some(c) = stack.pop() {
            if base_side.len() >= MAX_BASE_WALK || !base_side.insert(c) {
                continue;
            }
            stack.extend(self.parents(&c).unwrap_or_default());
        }
        let mut walked: Vec<ObjectId> = Vec::new();
        let mut visited: HashSet<ObjectId> = HashSet::new();
        let mut stack = vec![*head];
        while let Some(c) = stack.pop() {
            if base_side.contains(&c) || !visited.insert(c) {
                continue;
            }
            if walked.len() >= MAX_COMMITS {
                return Err(format!(
                    "the pull request's history is over {MAX_COMMITS} commits"
                ));
            }
            let Some(parents) = self.parents(&c) else {
                return Err(format!(
                    "the checkout does not hold commit {} of the pull request's history",
                    short(&c)
                ));
            };
            walked.push(c);
            stack.extend(parents);
        }
        Ok(walked)
    }

    /// The blobs under `dirs` in `commit`: (path from the repository root, blob), within the
    /// pack walk's caps per folder.
    fn blobs_under(&self, commit: &ObjectId, dirs: &[String]) -> Vec<(String, ObjectId)> {
        let mut out = Vec::new();
        for dir in dirs {
            let Some(Found::Tree(tree)) = self.find(commit, dir) else {
                continue;
            };
            let prefix = dir.trim_matches('/');
            let prefix = if prefix.is_empty() || prefix == "." {
                String::new()
            } else {
                format!("{prefix}/")
            };
            let mut left = MAX_ENTRIES;
            self.collect_blobs(&tree, &prefix, 0, &mut left, &mut out);
        }
        out
    }

    fn collect_blobs(
        &self,
        tree: &ObjectId,
        prefix: &str,
        depth: usize,
        left: &mut usize,
        out: &mut Vec<(String, ObjectId)>,
    ) {
        let Some(entries) = self.entries(tree) else {
            return;
        };
        for (name, kind, oid) in entries {
            if *left == 0 {
                return;
            }
            *left -= 1;
            let path = format!("{prefix}{}", String::from_utf8_lossy(&name));
            match kind {
                EntryKind::Tree if depth + 1 < MAX_DEPTH => {
                    self.collect_blobs(&oid, &format!("{path}/"), depth + 1, left, out);
                }
                EntryKind::Blob | EntryKind::BlobExecutable => out.push((path, oid)),
                EntryKind::Tree | EntryKind::Link | EntryKind::Commit => {}
            }
        }
    }
}
