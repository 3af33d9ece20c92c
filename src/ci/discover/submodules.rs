//! Submodules that are not checked out. `.gitmodules` at the root of the repository holding the
//! searched root names each submodule's `path`; a checkout without submodules leaves each an
//! empty folder, and the packs a submodule holds would go unchecked. So an empty folder named
//! there, at or below the searched root, is an error; a checked-out one is searched like any
//! other folder (its `.git` file is skipped as every `.git` is). A path that is missing
//! altogether (a stale entry) is not reported: nothing stands there to hold a pack. A pull
//! request that changes `.gitmodules` touches every folder it names ([`changed_entries`]).

use std::path::{Component, Path, PathBuf};

use super::Blocked;

/// `.gitmodules` past this size is not read (a real one is a few lines per submodule).
const MAX_BYTES: u64 = 1 << 20;

/// The submodule folders below `canon_root` (the searched root through links; `root` as given,
/// for the paths shown) that are empty.
pub(crate) fn unchecked(root: &str, canon_root: &Path) -> Vec<(String, PathBuf, Blocked)> {
    let Some(repo) = crate::core::paths::repository_root(canon_root) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for rel in entries(&repo) {
        let full = repo.join(&rel);
        let Ok(below) = full.strip_prefix(canon_root) else {
            continue;
        };
        if below.as_os_str().is_empty() || !is_empty_folder(&full) {
            continue;
        }
        let shown = super::join_rel(root, &[crate::core::paths::slash(below)]);
        out.push((shown, Path::new(root).join(below), Blocked::Submodule));
    }
    out
}

/// The folders, relative to the repository root `repo`, that its `.gitmodules` names: plain
/// relative paths only (never `..`, an absolute path or a `.git`).
fn entries(repo: &Path) -> Vec<PathBuf> {
    let file = repo.join(".gitmodules");
    let regular =
        std::fs::symlink_metadata(&file).is_ok_and(|m| m.is_file() && m.len() <= MAX_BYTES);
    let Some(paths) = regular
        .then(|| std::fs::read(&file).ok())
        .flatten()
        .and_then(|b| paths(&b))
    else {
        return Vec::new();
    };
    paths
        .into_iter()
        .filter(|rel| {
            rel.components()
                .all(|c| matches!(c, Component::Normal(n) if n != ".git"))
        })
        .collect()
}

/// When the changed `files` (relative to the repository root `repo`) include `.gitmodules`,
/// the folder of each of its entries, as a changed path: a pull request that adds or changes an
/// entry changes what stands at that path, so the packs under it gate (and a submodule there
/// that is not checked out fails the job). Without the base's `.gitmodules` at hand, every
/// entry counts as added or changed.
pub(crate) fn changed_entries(repo: &Path, files: &[String]) -> Vec<String> {
    if !files.iter().any(|f| f == ".gitmodules") {
        return Vec::new();
    }
    entries(repo)
        .iter()
        .map(|p| crate::core::paths::slash(p))
        .collect()
}

fn is_empty_folder(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir())
        && std::fs::read_dir(p).is_ok_and(|mut d| d.next().is_none())
}

/// The `path` values of the `[submodule ...]` sections of a `.gitmodules`, read by a git-config
/// parser (gix-config) so that every spelling git accepts is read as git reads it: the
/// subsection in quotes or after a dot (`[submodule.x]`), a value on the header line, a value
/// continued over lines with `\\`, quoting and escapes, comments, keys in any case. Every
/// value counts (a later one for the same submodule included): an empty folder any of them names
/// is reported. `None` when the file is not git config (git refuses it too).
fn paths(bytes: &[u8]) -> Option<Vec<PathBuf>> {
    use std::os::unix::ffi::OsStrExt;
    let options = gix_config::file::init::Options {
        lossy: true,
        ..Default::default()
    };
    let file =
        gix_config::File::from_bytes_no_includes(bytes, gix_config::file::Metadata::api(), options)
            .ok()?;
    let mut out = Vec::new();
    for section in file.sections() {
        if !section.header().name().eq_ignore_ascii_case(b"submodule") {
            continue;
        }
        for v in section.values("path") {
            if !v.is_empty() {
                out.push(PathBuf::from(std::ffi::OsStr::from_bytes(&v)));
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_read_as_git_reads_them() {
        let text = "[submodule \"a\"]\n\tpath = vendor/a\n\turl = https://x/a\n\
            [submodule \"b\"]\n\tPath = \"packs/with space\" # a comment\n\
            [core]\n\tpath = not/a/submodule\n";
        let got = paths(text.as_bytes()).unwrap();
        assert_eq!(got, [Path::new("vendor/a"), Path::new("packs/with space")]);
        // The spellings a line-by-line reader missed: a subsection after a dot, the value on
        // the header line, a value continued over two lines, the section name in capitals.
        let text = "[submodule.evil]\n\tpath = packs/one\n\
            [submodule \"two\"] path = packs/two\n\
            [submodule \"three\"]\n\tpath = packs/\\\nthree\n\
            [SubModule \"four\"]\n\tPATH = packs/four\n";
        let got = paths(text.as_bytes()).unwrap();
        assert_eq!(
            got,
            ["packs/one", "packs/two", "packs/three", "packs/four"].map(Path::new)
        );
        assert_eq!(
            paths(b"[submodule \"x\"\n\tpath = y\n"),
            None,
            "not git config"
        );
    }

    #[test]
    fn an_empty_submodule_folder_below_the_root_is_reported() {
        let t = tempfile::tempdir().unwrap();
        let repo = std::fs::canonicalize(t.path()).unwrap();
        for d in [".git", "packs/sub", "packs/full", "other/sub"] {
            std::fs::create_dir_all(repo.join(d)).unwrap();
        }
        std::fs::write(repo.join("packs/full/.git"), "gitdir: x").unwrap();
        let modules = [
            "packs/sub",
            "packs/full",
            "other/sub",
            "../up",
            "packs/gone",
        ]
        .map(|p| format!("[submodule \"{p}\"]\n\tpath = {p}\n"))
        .concat();
        std::fs::write(repo.join(".gitmodules"), modules).unwrap();
        let got = unchecked("ws/packs", &repo.join("packs"));
        assert_eq!(
            got,
            [(
                "ws/packs/sub".to_string(),
                PathBuf::from("ws/packs/sub"),
                Blocked::Submodule
            )],
            "checked out, outside the root, above the repository or missing: not reported"
        );
    }

    #[test]
    fn a_changed_gitmodules_touches_every_folder_it_names() {
        let t = tempfile::tempdir().unwrap();
        let modules = "[submodule.a]\n\tpath = packs/a\n[submodule \"b\"] path = ../up\n";
        std::fs::write(t.path().join(".gitmodules"), modules).unwrap();
        let files = |f: &[&str]| f.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            changed_entries(t.path(), &files(&["README.md", ".gitmodules"])),
            ["packs/a"],
            "a path above the repository is no entry"
        );
        assert!(
            changed_entries(t.path(), &files(&["packs/a/x"])).is_empty(),
            "control: .gitmodules unchanged"
        );
    }
}
