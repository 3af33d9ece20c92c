//! The commit a workspace has checked out, read from its `.git` without git (the image has
//! none): `HEAD`, a loose ref or `packed-refs`, through a `.git` file (`gitdir: …`) and a
//! worktree's `commondir`.

use std::path::{Path, PathBuf};

/// How many symbolic refs `HEAD` may pass through (git's own limit is 5).
const MAX_SYMREF_DEPTH: usize = 5;
/// The most bytes read of `HEAD`, a ref or a `.git` file (each is one short line).
const MAX_SMALL_FILE: u64 = 4096;
/// The most bytes read of `packed-refs`.
const MAX_PACKED_REFS: u64 = 64 << 20;

/// The object name `HEAD` of the repository at `workspace` points at, lower-case hex (40
/// digits, or 64 in a SHA-256 repository); `None` when there is no readable repository.
pub(crate) fn head_commit(workspace: &Path) -> Option<String> {
    let git_dir = git_dir(workspace)?;
    let common = common_dir(&git_dir);
    let mut content = read_small(&git_dir.join("HEAD"))?;
    for _ in 0..=MAX_SYMREF_DEPTH {
        let line = content.trim();
        let Some(name) = line.strip_prefix("ref:") else {
            return object_name(line);
        };
        let name = name.trim();
        if !safe_ref_name(name) {
            return None;
        }
        content = read_small(&git_dir.join(name))
            .or_else(|| read_small(&common.join(name)))
            .or_else(|| packed_ref(&common, name))?;
    }
    None
}

/// The object name the full ref `name` (`refs/remotes/pull/7/merge`) points at in the
/// repository at `workspace`, through symbolic refs as [`head_commit`] reads `HEAD`; `None`
/// when there is no such ref.
pub(crate) fn ref_commit(workspace: &Path, name: &str) -> Option<String> {
    if !name.starts_with("refs/") || !safe_ref_name(name) {
        return None;
    }
    let git_dir = git_dir(workspace)?;
    let common = common_dir(&git_dir);
    let mut name = name.to_string();
    for _ in 0..=MAX_SYMREF_DEPTH {
        let content = read_small(&git_dir.join(&name))
            .or_else(|| read_small(&common.join(&name)))
            .or_else(|| packed_ref(&common, &name))?;
        let line = content.trim();
        let Some(next) = line.strip_prefix("ref:") else {
            return object_name(line);
        };
        name = next.trim().to_string();
        if !safe_ref_name(&name) {
            return None;
        }
    }
    None
}

/// `workspace/.git` when a folder; the folder a `.git` file names (`gitdir: <path>`, relative
/// to the workspace) otherwise.
pub(crate) fn git_dir(workspace: &Path) -> Option<PathBuf> {
    let dot_git = workspace.join(".git");
    let meta = std::fs::symlink_metadata(&dot_git).ok()?;
    if meta.is_dir() {
        return Some(dot_git);
    }
    if !meta.is_file() {
        return None;
    }
    let text = read_small(&dot_git)?;
    let target = text.trim().strip_prefix("gitdir:")?.trim();
    let p = Path::new(target);
    Some(if p.is_absolute() {
        p.to_path_buf()
    } else {
        workspace.join(p)
    })
}

/// A worktree's shared repository (`commondir`), else the git folder itself.
fn common_dir(git_dir: &Path) -> PathBuf {
    match read_small(&git_dir.join("commondir")) {
        Some(c) if Path::new(c.trim()).is_absolute() => PathBuf::from(c.trim()),
        Some(c) => git_dir.join(c.trim()),
        None => git_dir.to_path_buf(),
    }
}

/// A ref's object name from `packed-refs` (`<hex> <name>` lines; `#` and `^` lines skipped).
fn packed_ref(common: &Path, name: &str) -> Option<String> {
    let text = read_limited(&common.join("packed-refs"), MAX_PACKED_REFS)?;
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('^'))
        .filter_map(|l| l.split_once(' '))
        .find(|(_, n)| n.trim_end() == name)
        .map(|(hex, _)| hex.to_string())
}

/// A ref name that stays inside the git folder: `refs/…` or `HEAD`-like, no `..`, no `\`.
fn safe_ref_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('/')
        && !name.contains('\\')
        && name
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..")
}

/// A full object name in hex (SHA-1 or SHA-256), lower-cased; anything else is `None`.
pub(crate) fn object_name(s: &str) -> Option<String> {
    let s = s.trim();
    ((s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| s.to_ascii_lowercase())
}

fn read_small(path: &Path) -> Option<String> {
    read_limited(path, MAX_SMALL_FILE)
}

/// A regular file's text, at most `max` bytes; a link, a folder or a bigger file is `None`.
fn read_limited(path: &Path, max: u64) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > max {
        return None;
    }
    String::from_utf8(std::fs::read(path).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "0123456789abcdef0123456789abcdef01234567";
    const B: &str = "89abcdef0123456789abcdef0123456789abcdef";

    fn repo(head: &str) -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".git/refs/heads")).unwrap();
        std::fs::write(t.path().join(".git/HEAD"), head).unwrap();
        t
    }

    #[test]
    fn a_detached_head_is_its_commit() {
        let t = repo(&format!("{}\n", A.to_uppercase()));
        assert_eq!(head_commit(t.path()).as_deref(), Some(A));
        let bad = repo("not a commit\n");
        assert_eq!(
            head_commit(bad.path()),
            None,
            "control: garbage is no commit"
        );
    }

    #[test]
    fn a_remote_ref_resolves_loose_or_packed() {
        let t = repo(&format!("{A}\n"));
        std::fs::create_dir_all(t.path().join(".git/refs/remotes/pull/7")).unwrap();
        std::fs::write(
            t.path().join(".git/refs/remotes/pull/7/merge"),
            format!("{B}\n"),
        )
        .unwrap();
        let merge = "refs/remotes/pull/7/merge";
        assert_eq!(ref_commit(t.path(), merge).as_deref(), Some(B));
        let p = repo(&format!("{A}\n"));
        let packed = format!("# pack-refs with: peeled\n{B} {merge}\n");
        std::fs::write(p.path().join(".git/packed-refs"), packed).unwrap();
        assert_eq!(ref_commit(p.path(), merge).as_deref(), Some(B));
        // Controls: no such ref, and names that would leave the git folder.
        assert_eq!(ref_commit(p.path(), "refs/remotes/pull/8/merge"), None);
        assert_eq!(ref_commit(t.path(), "refs/../HEAD"), None);
        assert_eq!(ref_commit(t.path(), "HEAD"), None, "a full ref only");
    }

    #[test]
    fn a_branch_resolves_through_loose_and_packed_refs() {
        let t = repo("ref: refs/heads/main\n");
        std::fs::write(t.path().join(".git/refs/heads/main"), format!("{B}\n")).unwrap();
        assert_eq!(head_commit(t.path()).as_deref(), Some(B));
        let p = repo("ref: refs/heads/topic\n");
        let packed =
            format!("# pack-refs with: peeled\n{A} refs/heads/main\n{B} refs/heads/topic\n^{A}\n");
        std::fs::write(p.path().join(".git/packed-refs"), packed).unwrap();
        assert_eq!(head_commit(p.path()).as_deref(), Some(B));
        let missing = repo("ref: refs/heads/gone\n");
        assert_eq!(head_commit(missing.path()), None);
    }

    #[test]
    fn a_git_file_and_a_worktree_commondir_are_followed() {
        let main = repo("ref: refs/heads/main\n");
        std::fs::write(main.path().join(".git/refs/heads/main"), A).unwrap();
        let wt_git = main.path().join(".git/worktrees/wt");
        std::fs::create_dir_all(&wt_git).unwrap();
        std::fs::write(wt_git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(wt_git.join("commondir"), "../..\n").unwrap();
        let wt = tempfile::tempdir().unwrap();
        std::fs::write(
            wt.path().join(".git"),
            format!("gitdir: {}\n", wt_git.display()),
        )
        .unwrap();
        assert_eq!(head_commit(wt.path()).as_deref(), Some(A));
        let none = tempfile::tempdir().unwrap();
        assert_eq!(head_commit(none.path()), None);
    }

    #[test]
    fn a_ref_cannot_leave_the_git_folder() {
        let t = repo("ref: ../../secret\n");
        std::fs::write(t.path().join("secret"), A).unwrap();
        assert_eq!(head_commit(t.path()), None);
        assert!(safe_ref_name("refs/heads/a/b") && !safe_ref_name("refs/../x"));
    }
}
