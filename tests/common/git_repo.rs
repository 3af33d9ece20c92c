//! Real git repositories for the review's tests: a base commit on `main`, a pull request's
//! commit on `feature`, and the test merge GitHub makes on `merge`, cloned over `file://` at a
//! chosen depth, as `actions/checkout` clones them. Commits carry fixed dates and names, so
//! their hashes, and every output naming them, are the same on every run.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `git` in `dir` with no user or system settings; returns its trimmed output.
pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "protocol.file.allow=always",
        ])
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_DATE", "2026-01-02T03:04:05Z")
        .env("GIT_COMMITTER_DATE", "2026-01-02T03:04:05Z")
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A pull request's repository: where it lives, and its commits.
pub(crate) struct PullRepo {
    pub(crate) dir: tempfile::TempDir,
    /// The base branch's commit the pull request starts from.
    pub(crate) base: String,
    /// The pull request's head.
    pub(crate) head: String,
    /// GitHub's test merge of the head into the base.
    pub(crate) merge: String,
}

/// `origin` made by `setup` (committed on `main`), then `change` committed on `feature`, then
/// the merge of `feature` into `main` on `merge`.
pub(crate) fn pull_repo(setup: impl FnOnce(&Path), change: impl FnOnce(&Path)) -> PullRepo {
    let dir = tempfile::tempdir().unwrap();
    let origin = dir.path().join("origin");
    std::fs::create_dir_all(&origin).unwrap();
    git(&origin, &["init", "-q", "."]);
    setup(&origin);
    git(&origin, &["add", "-A"]);
    git(&origin, &["commit", "-qm", "base"]);
    let base = git(&origin, &["rev-parse", "HEAD"]);
    git(&origin, &["checkout", "-qb", "feature"]);
    change(&origin);
    git(&origin, &["add", "-A"]);
    git(&origin, &["commit", "-qm", "change"]);
    let head = git(&origin, &["rev-parse", "HEAD"]);
    git(&origin, &["checkout", "-q", "main"]);
    git(&origin, &["checkout", "-qb", "merge"]);
    git(
        &origin,
        &["merge", "-q", "--no-ff", "-m", "merge", "feature"],
    );
    let merge = git(&origin, &["rev-parse", "HEAD"]);
    git(&origin, &["checkout", "-q", "main"]);
    PullRepo {
        dir,
        base,
        head,
        merge,
    }
}

impl PullRepo {
    /// A clone of `branch` at `depth` (`None`: the whole history), as `name`.
    pub(crate) fn clone(&self, branch: &str, depth: Option<&str>, name: &str) -> PathBuf {
        let t = self.dir.path();
        let url = format!("file://{}", t.join("origin").display());
        let mut args = vec!["clone", "-q", "--branch", branch];
        if let Some(d) = depth {
            args.extend(["--depth", d]);
        }
        args.extend([url.as_str(), name]);
        git(t, &args);
        t.join(name)
    }
}
