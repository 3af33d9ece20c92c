//! Symbolic links met by discovery. A link is never followed; it is an error only when its
//! resolved target lies outside the searched tree (outside the root, or under a `.git`) and
//! holds a `pack.toml` at any depth — a pack that would otherwise go unchecked. A link to a
//! folder inside the tree (`docs/packs -> ../packs`) costs nothing: the search finds the
//! target's packs where they are.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use super::Blocked;

/// How many entries the search of a link's target looks at; reaching it is itself the error
/// ([`Blocked::LinkTooLarge`]).
pub(crate) const SEARCH_LIMIT: usize = crate::pack::MAX_ENTRIES;

/// The searched root, and what each link target already searched held.
pub(crate) struct Links {
    /// The root through links.
    root: PathBuf,
    /// The root's device and inode: a target's search does not look into the root itself
    /// again (its packs are found where they are).
    root_id: (u64, u64),
    seen: HashMap<PathBuf, Option<Blocked>>,
}

impl Links {
    pub(crate) fn new(root: &Path) -> std::io::Result<Links> {
        let root = std::fs::canonicalize(root)?;
        let meta = std::fs::metadata(&root)?;
        Ok(Links {
            root,
            root_id: (meta.dev(), meta.ino()),
            seen: HashMap::new(),
        })
    }

    /// The root through links.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// What a link at `link` is: `None` when it costs nothing (dangling, not a folder, inside
    /// the searched tree, or outside without a `pack.toml`).
    pub(crate) fn judge(&mut self, link: &Path) -> Option<Blocked> {
        let target = std::fs::canonicalize(link).ok()?;
        if !target.is_dir() || self.covers(&target) {
            return None;
        }
        if let Some(known) = self.seen.get(&target) {
            return known.clone();
        }
        let verdict = match search(&target, self.root_id) {
            Search::Pack => Some(Blocked::Link),
            Search::TooLarge => Some(Blocked::LinkTooLarge),
            Search::Nothing => None,
        };
        self.seen.insert(target, verdict.clone());
        verdict
    }

    /// Whether discovery searches `target` (resolved) itself: inside the root, not under `.git`.
    fn covers(&self, target: &Path) -> bool {
        target.strip_prefix(&self.root).is_ok_and(|rel| {
            !rel.components()
                .any(|c| c == Component::Normal(".git".as_ref()))
        })
    }
}

/// What the search of a link's target found.
#[derive(Debug, PartialEq, Eq)]
enum Search {
    Pack,
    TooLarge,
    Nothing,
}

/// Looks for an entry named `pack.toml` under `top`, following no link, skipping `.git` and the
/// folder `skip` (device, inode), stopping at [`SEARCH_LIMIT`] entries.
fn search(top: &Path, skip: (u64, u64)) -> Search {
    let mut count = 0usize;
    let mut stack = vec![top.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            count += 1;
            if count >= SEARCH_LIMIT {
                return Search::TooLarge;
            }
            let name = e.file_name();
            if name == "pack.toml" {
                return Search::Pack;
            }
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            if !is_dir || name == ".git" {
                continue;
            }
            let id = e.metadata().map(|m| (m.dev(), m.ino()));
            if id.is_ok_and(|id| id != skip) {
                stack.push(e.path());
            }
        }
    }
    Search::Nothing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_finds_a_pack_at_any_depth_and_stops_at_the_limit() {
        let t = tempfile::tempdir().unwrap();
        let top = t.path();
        let none = (0, 0);
        std::fs::create_dir_all(top.join("a/b/c")).unwrap();
        assert_eq!(search(top, none), Search::Nothing, "control: no pack.toml");
        std::fs::write(top.join("a/b/c/pack.toml"), "").unwrap();
        assert_eq!(search(top, none), Search::Pack);
        let b = std::fs::metadata(top.join("a/b")).unwrap();
        assert_eq!(
            search(top, (b.dev(), b.ino())),
            Search::Nothing,
            "the root's own folder is not searched again"
        );
        std::fs::remove_file(top.join("a/b/c/pack.toml")).unwrap();
        std::fs::create_dir_all(top.join(".git/x")).unwrap();
        std::fs::write(top.join(".git/x/pack.toml"), "").unwrap();
        assert_eq!(search(top, none), Search::Nothing, ".git is not searched");
        for i in 0..SEARCH_LIMIT {
            std::fs::write(top.join(format!("a/f{i}")), "").unwrap();
        }
        assert_eq!(search(top, none), Search::TooLarge);
    }
}
