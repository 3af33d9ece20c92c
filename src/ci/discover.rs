//! Discovery: every folder of the workspace that holds a pack, and each pack's path relative to
//! the repository for SARIF and the pull request's files.

use std::path::{Path, PathBuf};

/// How deep the search for packs goes: a folder at this depth is looked at, its subfolders are
/// not (each is an error, [`Blocked::TooDeep`]).
pub const MAX_DEPTH: usize = 64;

/// A folder discovery cannot enter, so a pack in it would go unseen: each is an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blocked {
    /// Its name is not UTF-8.
    NotUtf8,
    /// Deeper than [`MAX_DEPTH`] levels.
    TooDeep,
    /// A symbolic link whose target holds a `pack.toml` at its top.
    Link,
    /// It could not be read (the reason).
    Unreadable(String),
}

impl Blocked {
    /// The message after the folder's path.
    pub fn message(&self) -> String {
        match self {
            Blocked::NotUtf8 => {
                "a folder whose name is not UTF-8; discovery cannot search it for packs".into()
            }
            Blocked::TooDeep => {
                format!("deeper than {MAX_DEPTH} levels; discovery does not search it for packs")
            }
            Blocked::Link => "a symbolic link to a folder holding a pack.toml; discovery never follows a link, so that pack would go unchecked".into(),
            Blocked::Unreadable(why) => format!("cannot be searched for packs: {why}"),
        }
    }
}

/// What discovery found: the packs, and the folders it could not enter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    pub packs: Vec<String>,
    /// Each folder's path (`root` joined, a non-UTF-8 name shown with U+FFFD), the path itself,
    /// and why.
    pub blocked: Vec<(String, PathBuf, Blocked)>,
}

/// Every folder under `root` holding a `pack.toml`, in byte order of their paths; the search
/// does not descend into a pack or into `.git`, and never follows a symbolic link. Dot-folders,
/// `target/` and `node_modules/` are searched like any other. Paths are `root` joined with the
/// relative path (`root` itself when it is a pack); with `root` `.`, just the relative path.
pub fn discover(root: &str) -> std::io::Result<Found> {
    let meta = std::fs::metadata(root)?;
    if !meta.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            "not a folder",
        ));
    }
    std::fs::read_dir(root)?;
    let mut found = Found::default();
    let mut stack: Vec<(PathBuf, Vec<String>)> = vec![(PathBuf::from(root), Vec::new())];
    // Depth first, in byte order: the stack holds children in reverse.
    while let Some((dir, rel)) = stack.pop() {
        if dir.join("pack.toml").symlink_metadata().is_ok() {
            found.packs.push(join_rel(root, &rel));
            continue;
        }
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                let why = Blocked::Unreadable(e.to_string());
                found.blocked.push((join_rel(root, &rel), dir, why));
                continue;
            }
        };
        let mut children: Vec<(Vec<u8>, PathBuf, String, Option<Blocked>)> = Vec::new();
        for e in entries.flatten() {
            let name = e.file_name();
            if name == ".git" {
                continue;
            }
            let Some(blocked) = classify(&e, rel.len()) else {
                continue;
            };
            let shown = name.to_string_lossy().into_owned();
            children.push((name.as_encoded_bytes().to_vec(), e.path(), shown, blocked));
        }
        children.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, path, name, blocked) in children.into_iter().rev() {
            let mut r = rel.clone();
            r.push(name);
            match blocked {
                Some(why) => found.blocked.push((join_rel(root, &r), path, why)),
                None => stack.push((path, r)),
            }
        }
    }
    // The blocked folders were found in reverse order per folder: sort all by path.
    found
        .blocked
        .sort_by(|a, b| a.1.as_os_str().cmp(b.1.as_os_str()));
    Ok(found)
}

/// `None`: not a folder to look into; `Some(None)`: a folder to enter; `Some(Some(why))`: a
/// folder that cannot be entered.
fn classify(e: &std::fs::DirEntry, depth: usize) -> Option<Option<Blocked>> {
    let ft = e.file_type().ok()?;
    if ft.is_symlink() {
        // Only a link to a pack matters; a package manager's linked folders cost nothing.
        let to_pack = std::fs::metadata(e.path().join("pack.toml")).is_ok();
        return to_pack.then_some(Some(Blocked::Link));
    }
    if !ft.is_dir() {
        return None;
    }
    if e.file_name().to_str().is_none() {
        return Some(Some(Blocked::NotUtf8));
    }
    if depth >= MAX_DEPTH {
        return Some(Some(Blocked::TooDeep));
    }
    Some(None)
}

fn join_rel(root: &str, rel: &[String]) -> String {
    if rel.is_empty() {
        return root.to_string();
    }
    let r = rel.join("/");
    let root_trimmed = root.trim_end_matches('/');
    if root_trimmed == "." || root_trimmed.is_empty() && !root.starts_with('/') {
        r
    } else if root_trimmed.is_empty() {
        format!("/{r}")
    } else {
        format!("{root_trimmed}/{r}")
    }
}

/// A blocked entry's path relative to the workspace, like `core::paths::uri_base` but without resolving
/// the entry itself (a link names where it is, not where it points).
pub fn entry_uri_base(path: &Path, workspace: Option<&Path>) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let base = crate::core::paths::uri_base(&parent.to_string_lossy(), workspace);
    match base.trim_end_matches('/') {
        "" | "." => name,
        b => format!("{b}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mk(root: &Path, dirs: &[&str], files: &[&str]) {
        for d in dirs {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        for f in files {
            std::fs::write(root.join(f), "").unwrap();
        }
    }

    #[test]
    fn discovery_stops_at_packs_and_searches_every_folder_but_git() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        mk(
            root,
            &[
                "packs/b",
                "packs/a/tests/x",
                ".hidden/p",
                "target/p",
                "node_modules/p",
                "other/deep/er",
                "empty",
                ".git/p",
            ],
            &[
                "packs/b/pack.toml",
                "packs/a/pack.toml",
                "packs/a/tests/x/pack.toml",
                ".hidden/p/pack.toml",
                "target/p/pack.toml",
                "node_modules/p/pack.toml",
                "other/deep/er/pack.toml",
                ".git/p/pack.toml",
            ],
        );
        let r = root.to_str().unwrap();
        let found = discover(r).unwrap();
        let want: Vec<String> = [
            ".hidden/p",
            "node_modules/p",
            "other/deep/er",
            "packs/a",
            "packs/b",
            "target/p",
        ]
        .iter()
        .map(|p| format!("{r}/{p}"))
        .collect();
        assert_eq!(
            found.packs, want,
            "every folder but .git, packs not entered"
        );
        assert!(found.blocked.is_empty());
        assert_eq!(
            discover(&format!("{r}/packs/a")).unwrap().packs,
            vec![format!("{r}/packs/a")]
        );
        assert_eq!(discover(&format!("{r}/empty")).unwrap(), Found::default());
        assert!(discover(&format!("{r}/nowhere")).is_err());
        assert_eq!(join_rel(".", &["a".into()]), "a");
        assert_eq!(join_rel("./", &["a".into()]), "a");
        assert_eq!(join_rel("x/", &["a".into()]), "x/a");
    }

    #[test]
    fn folders_it_cannot_enter_are_named() {
        use std::os::unix::ffi::OsStrExt;
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        mk(root, &["real/p", "real/plain"], &["real/p/pack.toml"]);
        std::os::unix::fs::symlink(root.join("real/p"), root.join("linked")).unwrap();
        std::os::unix::fs::symlink(root.join("real/plain"), root.join("linked-plain")).unwrap();
        let odd = root.join(std::ffi::OsStr::from_bytes(b"bad\xff"));
        std::fs::create_dir_all(odd.join("p")).unwrap();
        let deep: String = (0..MAX_DEPTH + 1).map(|i| format!("d{i}/")).collect();
        mk(
            root,
            &[&format!("{deep}p")],
            &[&format!("{deep}p/pack.toml")],
        );
        let r = root.to_str().unwrap();
        let found = discover(r).unwrap();
        assert_eq!(found.packs, vec![format!("{r}/real/p")]);
        let blocked: Vec<(String, Blocked)> = found
            .blocked
            .iter()
            .map(|(s, _, b)| (s.clone(), b.clone()))
            .collect();
        let too_deep: String = (0..=MAX_DEPTH)
            .map(|i| format!("d{i}"))
            .collect::<Vec<_>>()
            .join("/");
        assert_eq!(
            blocked,
            vec![
                (format!("{r}/bad\u{FFFD}"), Blocked::NotUtf8),
                (format!("{r}/{too_deep}"), Blocked::TooDeep),
                (format!("{r}/linked"), Blocked::Link),
            ],
            "a link to a plain folder costs nothing"
        );
        let link = &found.blocked[2].1;
        assert_eq!(
            entry_uri_base(link, Some(root)),
            "linked",
            "the link, not its target"
        );
    }
}
