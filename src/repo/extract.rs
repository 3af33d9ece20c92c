//! Folders of a commit written into a temporary folder, so the pack walk reads them as it reads
//! the checkout: each folder's files, folders and links as the commit holds them.
//!
//! A hostile tree costs what a hostile checkout costs: nothing is written outside the
//! temporary folder (a name that is empty, `.`, `..` or holds `/` is skipped; a file is created
//! only where it does not exist yet, and the writer enters only folders it has just made, so a
//! link written for a tree's entry is never followed), and the caps are the pack walk's: at
//! most [`MAX_ENTRIES`]` + 1` entries a folder, paths of at most [`MAX_DEPTH`] components, and
//! file contents up to [`READ_BUDGET`] in all, each at most [`ONE_FILE_LIMIT`]` + 1` bytes.
//! Past those, a file keeps its size (a sparse file, so the walk's size findings are the
//! commit's) without its bytes, which the walk does not read anyway.

use std::ffi::OsStr;
use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use gix::objs::tree::EntryKind;

use super::objects::{Found, Repo, short};
use crate::pack::walk::MAX_DEPTH;
use crate::pack::{MAX_ENTRIES, ONE_FILE_LIMIT, READ_BUDGET};
use gix::ObjectId;

/// The most bytes of a blob inflated to write its first [`ONE_FILE_LIMIT`]` + 1` bytes; a
/// larger one is written as its size alone.
const MAX_INFLATED: u64 = 64 << 20;
/// The longest link target written (a path, never a file's content).
const MAX_LINK_TARGET: u64 = 4096;

/// Folders of one commit, written into a temporary folder (removed when dropped).
pub(crate) struct Extracted {
    dir: tempfile::TempDir,
    /// For each folder asked for, whether the commit holds it as a folder.
    pub(crate) present: Vec<bool>,
}

impl Extracted {
    /// Where the folder `rel` (as asked for) was written.
    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }
}

/// What one folder's writing has left.
struct Caps {
    entries: usize,
    budget: u64,
}

impl Repo {
    /// The folders `rels` (`/`-separated, relative to the repository's root) as commit `id`
    /// holds them, written into a new temporary folder at the same relative paths. A folder the
    /// commit does not hold is left out (`present` says which); `Err` when the commit is not
    /// held or the temporary folder cannot be written.
    pub(crate) fn extract(&self, id: &ObjectId, rels: &[String]) -> Result<Extracted, String> {
        if !self.has_commit(id) {
            return Err(format!("commit {} is not in the checkout", short(id)));
        }
        let dir = tempfile::Builder::new()
            .prefix("hippo-packs-base-")
            .tempdir()
            .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
        let mut present = Vec::with_capacity(rels.len());
        for rel in rels {
            let tree = match self.find(id, rel) {
                Some(Found::Tree(t)) => t,
                _ => {
                    present.push(false);
                    continue;
                }
            };
            let Some(at) = make_dirs(dir.path(), rel) else {
                present.push(false);
                continue;
            };
            let mut caps = Caps {
                entries: MAX_ENTRIES + 1,
                budget: READ_BUDGET,
            };
            self.write_tree(&tree, &at, 0, &mut caps)
                .map_err(|e| format!("cannot write {rel} at the base: {e}"))?;
            present.push(true);
        }
        Ok(Extracted { dir, present })
    }

    /// Writes tree `id`'s entries into the folder `at` (just made), `depth` components below
    /// the pack's folder.
    fn write_tree(
        &self,
        id: &ObjectId,
        at: &Path,
        depth: usize,
        caps: &mut Caps,
    ) -> std::io::Result<()> {
        let Some(entries) = self.entries(id) else {
            return Ok(());
        };
        for (name, kind, oid) in entries {
            if caps.entries == 0 {
                return Ok(());
            }
            if !plain_name(&name) {
                continue;
            }
            caps.entries -= 1;
            let path = at.join(OsStr::from_bytes(&name));
            match kind {
                EntryKind::Tree | EntryKind::Commit => {
                    if std::fs::create_dir(&path).is_ok()
                        && kind == EntryKind::Tree
                        && depth + 1 < MAX_DEPTH
                    {
                        self.write_tree(&oid, &path, depth + 1, caps)?;
                    }
                }
                EntryKind::Blob | EntryKind::BlobExecutable => {
                    self.write_blob(&oid, &path, kind == EntryKind::BlobExecutable, caps)?;
                }
                EntryKind::Link => {
                    if let Some(target) = self.blob(&oid, MAX_LINK_TARGET)
                        && !target.contains(&0)
                    {
                        // An entry that already exists (a name twice in a hostile tree) stays.
                        std::os::unix::fs::symlink(OsStr::from_bytes(&target), &path).ok();
                    }
                }
            }
        }
        Ok(())
    }

    /// Writes blob `id` as a new file at `path`: its first [`ONE_FILE_LIMIT`]` + 1` bytes while
    /// the budget lasts, and its size.
    fn write_blob(
        &self,
        id: &ObjectId,
        path: &Path,
        executable: bool,
        caps: &mut Caps,
    ) -> std::io::Result<()> {
        let Some(size) = self.blob_size(id) else {
            return Ok(());
        };
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(if executable { 0o755 } else { 0o644 })
            .open(path);
        let Ok(mut file) = file else {
            return Ok(());
        };
        let wanted = size.min(ONE_FILE_LIMIT + 1);
        if wanted <= caps.budget
            && let Some(bytes) = self.blob(id, MAX_INFLATED)
        {
            let n = bytes.len().min(wanted as usize);
            file.write_all(&bytes[..n])?;
            caps.budget -= wanted;
        }
        file.set_len(size)
    }
}

/// A tree entry's name that stays inside its folder.
pub(super) fn plain_name(name: &[u8]) -> bool {
    !name.is_empty() && name != b"." && name != b".." && !name.contains(&b'/') && !name.contains(&0)
}

/// The folder `rel` under `root`, made component by component; `None` when a component is not
/// a plain name or exists as anything but a folder (never a link).
pub(super) fn make_dirs(root: &Path, rel: &str) -> Option<PathBuf> {
    let mut at = root.to_path_buf();
    for part in rel.split('/').filter(|p| !p.is_empty() && *p != ".") {
        if !plain_name(part.as_bytes()) {
            return None;
        }
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return None,
            Err(_) => std::fs::create_dir(&at).ok()?,
        }
    }
    Some(at)
}
