//! How a folder is named in the reports, and paths tidied without reading the disk: the one
//! home of the path helpers `check`, `ci` and the report writers share (docs/output-formats.md,
//! "What every machine format shares", Location).

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The folder as the reports name it (SARIF's `%SRCROOT%`-relative URI base, the JSON `uri`):
/// relative to `workspace` when given and the folder lies in it (`ci`: `$GITHUB_WORKSPACE`),
/// else to the root of the repository that holds it (the nearest folder above it, or itself,
/// with a `.git`), else to the working folder; `/`-separated, no `./`, no `..`, no trailing `/`
/// (empty: that root itself). A folder outside all of them is its absolute path, starting with
/// `/` (SARIF makes it a `file://` URI). Links in the folder's path are resolved.
pub(crate) fn uri_base(dir: &str, workspace: Option<&Path>) -> String {
    let cwd = working_folder();
    let Some(abs) = absolute(Path::new(dir), cwd.as_deref()) else {
        return slash(Path::new(dir));
    };
    let inside = |root: PathBuf| abs.starts_with(&root).then_some(root);
    let root = workspace
        .and_then(|w| absolute(w, cwd.as_deref()))
        .and_then(inside)
        .or_else(|| cached_root(&abs))
        .or_else(|| cwd.and_then(inside));
    match root.and_then(|r| abs.strip_prefix(&r).ok().map(slash)) {
        Some(rel) => rel,
        None => slash(&abs),
    }
}

/// The working folder through links, read once: a registry run names thousands of folders
/// under the same one.
fn working_folder() -> Option<PathBuf> {
    static CWD: OnceLock<Option<PathBuf>> = OnceLock::new();
    CWD.get_or_init(|| {
        let cwd = std::env::current_dir().ok()?;
        Some(std::fs::canonicalize(&cwd).unwrap_or(cwd))
    })
    .clone()
}

/// The path made absolute: through links when it exists, else joined to the (resolved) working
/// folder. A folder that is not itself a link is its parent's resolved path (resolved once per
/// parent: a registry's packs share theirs) joined with its name.
fn absolute(path: &Path, cwd: Option<&Path>) -> Option<PathBuf> {
    let named = matches!(path.components().next_back(), Some(Component::Normal(_)));
    if named
        && let (Some(parent), Some(name)) = (path.parent(), path.file_name())
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
        && let Some(p) = resolved_parent(parent)
    {
        return Some(p.join(name));
    }
    if let Ok(p) = std::fs::canonicalize(path) {
        return Some(p);
    }
    if path.is_absolute() {
        return Some(path.to_path_buf());
    }
    Some(cwd?.join(path))
}

/// What the disk said about a folder, remembered for the run (it is only read, never changed).
type Memo = Mutex<HashMap<PathBuf, Option<PathBuf>>>;

fn memo(
    table: &'static OnceLock<Memo>,
    key: &Path,
    f: impl FnOnce() -> Option<PathBuf>,
) -> Option<PathBuf> {
    let table = table.get_or_init(Default::default);
    if let Some(v) = table.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
        return v.clone();
    }
    let v = f();
    table
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key.to_path_buf(), v.clone());
    v
}

/// A parent folder through links (`""`: the working folder), once per parent.
fn resolved_parent(parent: &Path) -> Option<PathBuf> {
    static PARENTS: OnceLock<Memo> = OnceLock::new();
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    memo(&PARENTS, parent, || std::fs::canonicalize(parent).ok())
}

/// [`repository_root`] of a folder: its own `.git` looked up each time, its parent's answer
/// remembered.
fn cached_root(abs: &Path) -> Option<PathBuf> {
    static ROOTS: OnceLock<Memo> = OnceLock::new();
    if abs.join(".git").symlink_metadata().is_ok() {
        return Some(abs.to_path_buf());
    }
    let parent = abs.parent()?;
    memo(&ROOTS, parent, || repository_root(parent))
}

/// The nearest folder at or above `abs` that holds a `.git` (a folder, or a file in a worktree
/// or submodule).
pub(crate) fn repository_root(abs: &Path) -> Option<PathBuf> {
    abs.ancestors()
        .find(|a| a.join(".git").symlink_metadata().is_ok())
        .map(Path::to_path_buf)
}

/// `.` and `..` resolved without reading the disk (a `..` at the top stays dropped).
pub(crate) fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// `/`-separated components, `.` dropped and `..` folded (a leading `..` of a relative path
/// kept); a leading `/` kept for an absolute path.
pub(crate) fn slash(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.last().is_some_and(|p| p != ".." && !p.is_empty()) {
                    parts.pop();
                } else if parts.is_empty() {
                    parts.push("..".into());
                }
            }
            Component::RootDir => parts.push(String::new()),
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    if parts == [""] {
        return "/".to_string();
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_tidied_without_the_disk() {
        let p = Path::new;
        assert_eq!(slash(p("./packs/a/")), "packs/a");
        assert_eq!(slash(p(".")), "");
        assert_eq!(slash(p("a/../b")), "b");
        assert_eq!(slash(p("../a")), "../a");
        assert_eq!(slash(p("/x/../y")), "/y");
        assert_eq!(slash(p("/")), "/");
        assert_ne!(slash(p("./x")), "./x");
        assert_eq!(lexical(p("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(lexical(p("a/../../b")), PathBuf::from("b"));
    }

    #[test]
    fn uri_bases_start_at_the_workspace_or_the_repository_root() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(root.join("ws/repo/.git")).unwrap();
        std::fs::create_dir_all(root.join("ws/repo/packs/a")).unwrap();
        std::fs::create_dir_all(root.join("loose/b")).unwrap();
        let a = root.join("ws/repo/packs/a");
        let a = a.to_str().unwrap();
        assert_eq!(uri_base(a, None), "packs/a");
        let via_dots = root.join("ws/repo/packs/../packs/a");
        assert_eq!(uri_base(via_dots.to_str().unwrap(), None), "packs/a");
        // The workspace wins over the repository inside it, but only for a folder it holds.
        assert_eq!(uri_base(a, Some(&root.join("ws"))), "repo/packs/a");
        assert_eq!(uri_base(a, Some(&root.join("loose"))), "packs/a");
        std::os::unix::fs::symlink(root.join("ws"), root.join("link")).unwrap();
        assert_eq!(uri_base(a, Some(&root.join("link"))), "repo/packs/a");
        // Outside every root (unless the tests run from there): the absolute path.
        let b = root.join("loose/b");
        let shown = uri_base(b.to_str().unwrap(), None);
        assert!(
            shown.ends_with("loose/b") && !shown.contains("/./"),
            "{shown}"
        );
        assert_eq!(uri_base(a, Some(&root.join("ws/repo/packs/a"))), "");
        assert_eq!(
            repository_root(&root.join("ws/repo/packs/a")),
            Some(root.join("ws/repo"))
        );
        assert_eq!(repository_root(&b), None, "control: no .git, no root");
    }
}
