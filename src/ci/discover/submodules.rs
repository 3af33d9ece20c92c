//! Submodules that are not checked out. `.gitmodules` at the root of the repository holding the
//! searched root names each submodule's `path`; a checkout without submodules leaves each an
//! empty folder, and the packs a submodule holds would go unchecked. So an empty folder named
//! there, at or below the searched root, is an error; a checked-out one is searched like any
//! other folder (its `.git` file is skipped as every `.git` is). A path that is missing
//! altogether (a stale entry) is not reported: nothing stands there to hold a pack.

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
    let file = repo.join(".gitmodules");
    let regular =
        std::fs::symlink_metadata(&file).is_ok_and(|m| m.is_file() && m.len() <= MAX_BYTES);
    let Some(text) = regular
        .then(|| std::fs::read(&file).ok())
        .flatten()
        .and_then(|b| String::from_utf8(b).ok())
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for path in paths(&text) {
        let rel = Path::new(&path);
        let plain = rel
            .components()
            .all(|c| matches!(c, Component::Normal(n) if n != ".git"));
        if !plain {
            continue;
        }
        let full = repo.join(rel);
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

fn is_empty_folder(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir())
        && std::fs::read_dir(p).is_ok_and(|mut d| d.next().is_none())
}

/// The `path` values of the `[submodule "..."]` sections of a `.gitmodules` (git's config
/// syntax: keys case-insensitive, values trimmed, `"` quoting with `\"`, `\\`, `\t`, `\n`,
/// comments from `#` or `;` outside quotes).
fn paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_submodule = false;
    for line in text.lines() {
        let line = line.trim();
        if let Some(section) = line.strip_prefix('[') {
            let name = section.split(['"', ']', ' ', '\t']).next().unwrap_or("");
            in_submodule = name.eq_ignore_ascii_case("submodule");
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if in_submodule && key.trim().eq_ignore_ascii_case("path") {
            let v = value_of(value);
            if !v.is_empty() {
                out.push(v);
            }
        }
    }
    out
}

/// A config value as git reads it.
fn value_of(raw: &str) -> String {
    let mut out = String::new();
    let (mut quoted, mut chars) = (false, raw.trim().chars());
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '#' | ';' if !quoted => break,
            '\\' => match chars.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            },
            c => out.push(c),
        }
    }
    out.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_read_as_git_reads_them() {
        let text = "[submodule \"a\"]\n\tpath = vendor/a\n\turl = https://x/a\n\
            [submodule \"b\"]\n\tPath = \"packs/with space\" # a comment\n\
            [core]\n\tpath = not/a/submodule\n";
        assert_eq!(paths(text), ["vendor/a", "packs/with space"]);
        assert_eq!(value_of(r#" "a\"b" ; c"#), "a\"b");
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
}
