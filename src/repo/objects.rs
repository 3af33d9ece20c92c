//! A repository opened for reading, and what its commits, trees and blobs hold.

use std::path::Path;

use gix::ObjectId;
use gix::objs::tree::EntryKind;

/// A repository opened for reading.
pub(crate) struct Repo {
    git: gix::Repository,
}

/// What a path names in a commit's tree.
pub(super) enum Found {
    Tree(ObjectId),
    Blob(ObjectId),
    /// A link, a submodule, or nothing.
    Other,
}

impl Repo {
    /// The repository whose work tree is `root` (its `.git` folder or file); `Err` is a
    /// one-line reason (gix's own names the folder, which the log already does).
    pub(crate) fn open(root: &Path) -> Result<Repo, String> {
        let options = gix::open::Options::isolated().with_enforced_trust(gix::sec::Trust::Full);
        gix::open_opts(root, options)
            .map(|git| Repo { git })
            .map_err(|_| "the repository root holds no readable git repository".to_string())
    }

    /// The commit `HEAD` names; `None` when it names none (an unborn branch, a broken ref).
    pub(crate) fn head(&self) -> Option<ObjectId> {
        self.git.head_id().ok().map(gix::Id::detach)
    }

    /// `id` parsed from full hex; `None` when it is not an object name.
    pub(crate) fn id(hex: &str) -> Option<ObjectId> {
        ObjectId::from_hex(hex.trim().as_bytes()).ok()
    }

    /// Whether the repository holds the commit `id` (a shallow clone holds its last commits).
    pub(crate) fn has_commit(&self, id: &ObjectId) -> bool {
        self.git
            .try_find_header(*id)
            .ok()
            .flatten()
            .is_some_and(|h| h.kind() == gix::objs::Kind::Commit)
    }

    /// The parents commit `id` names (readable even when the parents themselves are not held);
    /// `None` when the commit is not held.
    pub(crate) fn parents(&self, id: &ObjectId) -> Option<Vec<ObjectId>> {
        let commit = self.git.find_commit(*id).ok()?;
        Some(commit.parent_ids().map(gix::Id::detach).collect())
    }

    /// The best common ancestor of `one` and `two`; `None` when there is none, or the history
    /// the repository holds does not reach it (a shallow clone).
    pub(crate) fn merge_base(&self, one: &ObjectId, two: &ObjectId) -> Option<ObjectId> {
        if !self.has_commit(one) || !self.has_commit(two) {
            return None;
        }
        let found = self.git.merge_base(*one, *two).ok().flatten()?;
        let id = found.detach();
        self.has_commit(&id).then_some(id)
    }

    /// The bytes of the file at `path` (`/`-separated, relative to the repository's root) in
    /// commit `id`; `None` when the commit is not held, the path is no file there (a folder,
    /// a link, nothing), or the file is over `max` bytes.
    pub(crate) fn read(&self, id: &ObjectId, path: &str, max: u64) -> Option<Vec<u8>> {
        let Found::Blob(blob) = self.find(id, path)? else {
            return None;
        };
        self.blob(&blob, max)
    }

    /// A blob's bytes when it is at most `max` bytes long (its size read from the object's
    /// header, before anything is inflated).
    pub(super) fn blob(&self, id: &ObjectId, max: u64) -> Option<Vec<u8>> {
        let header = self.git.try_find_header(*id).ok()??;
        if header.kind() != gix::objs::Kind::Blob || header.size() > max {
            return None;
        }
        let mut blob = self.git.find_blob(*id).ok()?;
        Some(blob.take_data())
    }

    /// A blob's size from its header.
    pub(super) fn blob_size(&self, id: &ObjectId) -> Option<u64> {
        let header = self.git.try_find_header(*id).ok()??;
        (header.kind() == gix::objs::Kind::Blob).then(|| header.size())
    }

    /// The root tree of commit `id`.
    pub(super) fn root_tree(&self, id: &ObjectId) -> Option<ObjectId> {
        let commit = self.git.find_commit(*id).ok()?;
        commit.tree_id().ok().map(gix::Id::detach)
    }

    /// The entries of tree `id`: name, kind and object, in the tree's order.
    pub(super) fn entries(&self, id: &ObjectId) -> Option<Vec<(Vec<u8>, EntryKind, ObjectId)>> {
        let tree = self.git.find_tree(*id).ok()?;
        let decoded = tree.decode().ok()?;
        Some(
            decoded
                .entries
                .iter()
                .map(|e| (e.filename.to_vec(), e.mode.kind(), e.oid.to_owned()))
                .collect(),
        )
    }

    /// What `path` names in commit `id` (`""` or `.`: the root tree); `None` when the commit or
    /// a tree on the way is not held.
    pub(super) fn find(&self, id: &ObjectId, path: &str) -> Option<Found> {
        let mut at = Found::Tree(self.root_tree(id)?);
        for part in path.split('/').filter(|p| !p.is_empty() && *p != ".") {
            let Found::Tree(tree) = at else {
                return Some(Found::Other);
            };
            let entries = self.entries(&tree)?;
            let Some((_, kind, oid)) = entries.into_iter().find(|(n, _, _)| n == part.as_bytes())
            else {
                return Some(Found::Other);
            };
            at = match kind {
                EntryKind::Tree => Found::Tree(oid),
                EntryKind::Blob | EntryKind::BlobExecutable => Found::Blob(oid),
                EntryKind::Link | EntryKind::Commit => Found::Other,
            };
        }
        Some(at)
    }
}

/// The first seven hex digits of `id`, as a log names a commit.
pub(crate) fn short(id: &ObjectId) -> String {
    id.to_hex_with_len(7).to_string()
}
