//! The repository root (docs/action.md, "The repository root"): the folder the pull request's
//! file names, the SARIF file's URIs, the checked-out commit and `.hippo-packs.toml` are taken
//! from. `actions/checkout` may put the repository anywhere in the workspace (`path: repo`),
//! while GitHub names every changed file from the repository's own root.

use std::path::{Component, Path, PathBuf};

/// Where the repository root came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// The `checkout-path` input.
    Input,
    /// The nearest folder at or above `path` holding a `.git` (a folder, or a file in a
    /// worktree or submodule).
    Git,
    /// No `.git` at or above `path` inside the workspace: `$GITHUB_WORKSPACE`, as GitHub's own
    /// tools assume.
    Workspace,
    /// Neither a `.git` nor `$GITHUB_WORKSPACE`: the working folder.
    WorkingFolder,
}

/// The repository root and the `path` input seen from it.
#[derive(Debug, Clone)]
pub(crate) struct Root {
    /// The folder (links resolved, except the workspace as the runner names it).
    pub(crate) dir: PathBuf,
    pub(crate) found: Found,
    /// `path` relative to the root, `/`-separated (empty: the root itself); `None` when `path`
    /// does not exist or lies outside the root.
    pub(crate) path_from_root: Option<String>,
}

/// The repository root for the `checkout-path` input (when given) and the `path` input.
///
/// Without `checkout-path`, the search for `.git` goes up from `path` to `$GITHUB_WORKSPACE`
/// and no higher: above the workspace lies the runner's own folder, and a `.git` there (a
/// self-hosted runner installed from a clone) is not the checkout. A `path` outside the
/// workspace, or a run without one, searches up to the file system's root, as git does.
/// `Err` is a usage error: a `checkout-path` that is not a folder, or does not hold `path`.
pub(crate) fn resolve(
    checkout_path: Option<&str>,
    path: &str,
    workspace: Option<&Path>,
) -> Result<Root, String> {
    let start = std::fs::canonicalize(path).ok();
    let from_root = |dir: &Path| {
        let rel = start.as_deref()?.strip_prefix(dir).ok()?;
        Some(crate::core::paths::slash(rel))
    };
    if let Some(given) = checkout_path {
        let input = "input checkout-path (INPUT_CHECKOUT-PATH)";
        let dir = std::fs::canonicalize(given)
            .ok()
            .filter(|d| d.is_dir())
            .ok_or_else(|| format!("{input}: {given:?} is not a folder"))?;
        let path_from_root = from_root(&dir);
        if start.is_some() && path_from_root.is_none() {
            return Err(format!(
                "{input}: {given:?} does not hold path {path:?}; name the folder the repository was checked out to"
            ));
        }
        return Ok(Root {
            dir,
            found: Found::Input,
            path_from_root,
        });
    }
    let ws = workspace.and_then(|w| std::fs::canonicalize(w).ok());
    let git = start.as_deref().and_then(|s| {
        let bound = ws.as_deref().filter(|w| s.starts_with(w));
        for a in s.ancestors() {
            if a.join(".git").symlink_metadata().is_ok() {
                let outer = superproject(a).filter(|p| bound.is_none_or(|b| p.starts_with(b)));
                return Some(outer.unwrap_or_else(|| a.to_path_buf()));
            }
            if Some(a) == bound {
                return None;
            }
        }
        None
    });
    let (dir, found) = match (git, workspace) {
        (Some(g), _) => (g, Found::Git),
        (None, Some(w)) => (w.to_path_buf(), Found::Workspace),
        (None, None) => (
            std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            Found::WorkingFolder,
        ),
    };
    let canon = std::fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone());
    Ok(Root {
        path_from_root: from_root(&canon),
        dir,
        found,
    })
}

/// The superproject of a checked-out submodule at `folder`: its `.git` file names a folder
/// under `<superproject>/.git/modules/`, and the pull request (like the upload) is the
/// superproject's, naming its files from there. `None` for a repository of its own (a `.git`
/// folder, or a worktree's `.git` file).
fn superproject(folder: &Path) -> Option<PathBuf> {
    if !std::fs::symlink_metadata(folder.join(".git"))
        .ok()?
        .is_file()
    {
        return None;
    }
    let dir = crate::core::paths::lexical(&crate::github::checkout::git_dir(folder)?);
    let parts: Vec<Component> = dir.components().collect();
    let at = parts
        .windows(2)
        .position(|w| w[0].as_os_str() == ".git" && w[1].as_os_str() == "modules")?;
    let outer: PathBuf = parts[..at].iter().collect();
    (folder.starts_with(&outer) && outer != folder && outer.join(".git").is_dir()).then_some(outer)
}

impl Root {
    /// The log's line about the root, when it is not simply the workspace's own checkout.
    pub(crate) fn note(&self, path: &str, workspace: Option<&Path>) -> Option<String> {
        let ws = workspace.and_then(|w| std::fs::canonicalize(w).ok());
        let shown = match ws.as_deref().and_then(|w| self.dir.strip_prefix(w).ok()) {
            Some(rel) if rel.as_os_str().is_empty() => "the workspace".to_string(),
            Some(rel) => crate::core::paths::slash(rel),
            None => self.dir.display().to_string(),
        };
        match self.found {
            Found::Input => Some(format!("repository root: {shown} (checkout-path)")),
            Found::Git if ws.as_deref() == Some(self.dir.as_path()) => None,
            Found::Git => Some(format!(
                "repository root: {shown} (the folder holding .git at or above {path}); changed files, SARIF URIs and .hippo-packs.toml are relative to it"
            )),
            Found::Workspace => Some(format!(
                "no .git at or above {path} in the workspace: paths are relative to $GITHUB_WORKSPACE; set checkout-path to the folder the repository was checked out to if it is elsewhere"
            )),
            Found::WorkingFolder => Some(format!(
                "no .git at or above {path}: paths are relative to the working folder"
            )),
        }
    }

    /// The first of `files` (named from the root, as GitHub names them) under `path` that the
    /// checkout lacks: the checkout is of another commit, sparse, or not where the root says.
    /// A name that could leave the root (absolute, `..`) is no file of the checkout's and is
    /// passed over.
    pub(crate) fn lacks<'a>(&self, files: &'a [String]) -> Option<&'a str> {
        let under = self.path_from_root.as_deref()?;
        files
            .iter()
            .map(String::as_str)
            .filter(|f| {
                under.is_empty()
                    || f.strip_prefix(under)
                        .is_some_and(|rest| rest.starts_with('/'))
            })
            .filter(|f| {
                !f.is_empty()
                    && Path::new(f)
                        .components()
                        .all(|c| matches!(c, Component::Normal(_)))
            })
            .find(|f| self.dir.join(f).symlink_metadata().is_err())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> (tempfile::TempDir, PathBuf) {
        let t = tempfile::tempdir().unwrap();
        let ws = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(ws.join("repo/.git")).unwrap();
        std::fs::create_dir_all(ws.join("repo/packs/a")).unwrap();
        std::fs::create_dir_all(ws.join("plain/packs")).unwrap();
        std::fs::write(ws.join("repo/packs/a/pack.toml"), "").unwrap();
        (t, ws)
    }

    fn at(p: &Path) -> String {
        p.to_str().unwrap().to_string()
    }

    #[test]
    fn the_root_is_the_nearest_git_at_or_above_path_within_the_workspace() {
        let (_t, ws) = tree();
        let r = resolve(None, &at(&ws.join("repo/packs")), Some(&ws)).unwrap();
        assert_eq!(
            (r.dir.as_path(), r.found),
            (ws.join("repo").as_path(), Found::Git)
        );
        assert_eq!(r.path_from_root.as_deref(), Some("packs"));
        assert!(
            r.note("repo/packs", Some(&ws))
                .unwrap()
                .contains("repository root: repo")
        );
        // No .git between path and the workspace: the workspace; a .git above it is not the
        // checkout's.
        std::fs::create_dir_all(ws.join(".git")).unwrap();
        let inner = ws.join("plain");
        let r = resolve(None, &at(&inner.join("packs")), Some(&inner)).unwrap();
        assert_eq!(
            (r.dir.as_path(), r.found),
            (inner.as_path(), Found::Workspace)
        );
        assert!(r.note("packs", Some(&inner)).unwrap().contains("no .git"));
        // Control: without a workspace the search goes on up, as git's does.
        let r = resolve(None, &at(&inner.join("packs")), None).unwrap();
        assert_eq!((r.dir.as_path(), r.found), (ws.as_path(), Found::Git));
    }

    #[test]
    fn a_submodule_s_root_is_its_superproject() {
        let (_t, ws) = tree();
        std::fs::create_dir_all(ws.join("repo/.git/modules/packs")).unwrap();
        std::fs::write(
            ws.join("repo/packs/.git"),
            "gitdir: ../.git/modules/packs\n",
        )
        .unwrap();
        let r = resolve(None, &at(&ws.join("repo/packs/a")), Some(&ws)).unwrap();
        assert_eq!(r.dir, ws.join("repo"));
        assert_eq!(r.path_from_root.as_deref(), Some("packs/a"));
        // Control: a worktree's .git file names no superproject; its folder is the root.
        std::fs::write(
            ws.join("repo/packs/.git"),
            "gitdir: /elsewhere/.git/worktrees/p\n",
        )
        .unwrap();
        let r = resolve(None, &at(&ws.join("repo/packs/a")), Some(&ws)).unwrap();
        assert_eq!(r.dir, ws.join("repo/packs"));
    }

    #[test]
    fn checkout_path_overrides_and_must_hold_path() {
        let (_t, ws) = tree();
        let plain = at(&ws.join("plain"));
        let r = resolve(Some(&plain), &at(&ws.join("plain/packs")), Some(&ws)).unwrap();
        assert_eq!((r.dir, r.found), (ws.join("plain"), Found::Input));
        let e = resolve(Some(&plain), &at(&ws.join("repo/packs")), Some(&ws)).unwrap_err();
        assert!(e.contains("does not hold path"), "{e}");
        let e = resolve(Some(&at(&ws.join("nope"))), ".", Some(&ws)).unwrap_err();
        assert!(
            e.contains("INPUT_CHECKOUT-PATH") && e.contains("not a folder"),
            "{e}"
        );
    }

    #[test]
    fn a_changed_file_under_path_missing_from_the_checkout_is_named() {
        let (_t, ws) = tree();
        let r = resolve(None, &at(&ws.join("repo/packs")), Some(&ws)).unwrap();
        let files = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(r.lacks(&files(&["packs/a/pack.toml", "README.md"])), None);
        assert_eq!(
            r.lacks(&files(&["packs/a/pack.toml", "packs/b/pack.toml"])),
            Some("packs/b/pack.toml"),
            "control: a file under path the checkout lacks"
        );
        assert_eq!(
            r.lacks(&files(&["packs/../../x", "/etc/x", "packsx/y"])),
            None
        );
    }
}
