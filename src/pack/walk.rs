//! Walking a pack folder: byte order, depth first, links never followed, special files never
//! opened, reads bounded.

use std::io::Read;
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt};
use std::path::Path;

use super::{
    Entry, EntryKind, Kind, MAX_ENTRIES, ONE_FILE_LIMIT, Pack, PackFile, READ_BUDGET, WalkProblem,
    allowed_folder,
};

/// Deepest level the walk visits: a path has at most six components, so a seventh is reported
/// and nothing below it is read.
const MAX_DEPTH: usize = 7;

/// Loads the pack at `dir`. An `Err` is a folder that cannot be read at all
/// (`error nowhere: No such file or directory (os error 2)`).
pub fn load(dir: &Path) -> std::io::Result<Pack> {
    // A folder that cannot be read is one error line (docs/exit-codes.md): read_dir gives the OS's error
    // (also for a file given instead of a folder).
    std::fs::read_dir(dir)?;
    let mut pack = Pack {
        dir: dir.to_path_buf(),
        kind: Kind::Pass,
        entries: Vec::new(),
        files: Vec::new(),
        skipped: Vec::new(),
        walk_problems: Vec::new(),
        index: Default::default(),
    };
    // pack.toml decides the layout, so it is read first (and kept: one read per file).
    let manifest = read_manifest(dir);
    if let Some((_, (bytes, _))) = &manifest {
        pack.kind = crate::model::manifest::kind_of(bytes);
    }
    let mut files = Files {
        manifest,
        budget: READ_BUDGET,
    };
    let mut walker = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .max_depth(MAX_DEPTH)
        .follow_links(false)
        .sort_by(|a, b| a.file_name().cmp(b.file_name()))
        .into_iter();
    let mut count = 0usize;
    while let Some(item) = walker.next() {
        let entry = match item {
            Ok(e) => e,
            Err(err) => {
                pack.walk_problems.push(unreadable(dir, &err));
                continue;
            }
        };
        let (path, utf8) = rel(dir, entry.path());
        let name = entry.file_name().to_string_lossy();
        let ft = entry.file_type();
        if name.starts_with('.') || (entry.depth() == 1 && name == "origin.json") {
            pack.skipped.push(path);
            if ft.is_dir() {
                walker.skip_current_dir();
            }
            continue;
        }
        count += 1;
        if count > MAX_ENTRIES {
            pack.walk_problems.push(WalkProblem::EntryLimit);
            break;
        }
        let mut first_file = None;
        let kind = if ft.is_symlink() {
            EntryKind::Symlink
        } else if ft.is_dir() {
            let descend = utf8 && entry.depth() < MAX_DEPTH && allowed_folder(pack.kind, &path);
            if !descend {
                walker.skip_current_dir();
                first_file = first_file_below(dir, entry.path());
            }
            EntryKind::Dir { descended: descend }
        } else if ft.is_file() {
            files.read(&mut pack, &entry, &path);
            EntryKind::File
        } else {
            EntryKind::Special
        };
        pack.entries.push(Entry {
            path,
            kind,
            utf8,
            first_file,
        });
    }
    Ok(pack)
}

/// pack.toml's device and inode numbers and its reading, read before the walk, and only when it
/// is a regular file: a FIFO, a device, a socket or a link of that name is never opened (the
/// walk reports it). The walk keeps this reading only for the same file (else it reads again).
fn read_manifest(dir: &Path) -> Option<((u64, u64), (Vec<u8>, bool))> {
    let path = dir.join("pack.toml");
    let seen = std::fs::symlink_metadata(&path).ok()?;
    let read = read_bounded(&path, &seen).ok()?;
    Some(((seen.dev(), seen.ino()), read))
}

/// An entry the walk could not read (outside the pack's files: a folder, a metadata error).
fn unreadable(dir: &Path, err: &walkdir::Error) -> WalkProblem {
    let path = err
        .path()
        .map(|p| rel(dir, p).0)
        .unwrap_or_else(|| ".".to_string());
    let message = err
        .io_error()
        .map(|e| e.to_string())
        .unwrap_or_else(|| err.to_string());
    WalkProblem::Unreadable {
        path,
        message,
        in_pack: false,
    }
}

/// The reading of a pack's regular files: pack.toml as read first, then each file within its
/// limit and what is left of the pack's read budget.
struct Files {
    /// pack.toml's device and inode numbers and its reading.
    manifest: Option<((u64, u64), (Vec<u8>, bool))>,
    budget: u64,
}

impl Files {
    /// Reads one regular file into the pack (its bytes when it fits, else its size only).
    fn read(&mut self, pack: &mut Pack, entry: &walkdir::DirEntry, path: &str) {
        // The entry's own lstat (no link followed): what the open must find again.
        let seen = entry.metadata().map_err(std::io::Error::from);
        let size = seen.as_ref().map(|m| m.len()).unwrap_or(0);
        let mut file = PackFile {
            path: path.to_string(),
            size,
            bytes: Vec::new(),
            complete: false,
        };
        let kept = match self.manifest.take() {
            Some((id, read))
                if entry.depth() == 1
                    && path == "pack.toml"
                    && seen.as_ref().is_ok_and(|m| (m.dev(), m.ino()) == id) =>
            {
                Some(read)
            }
            other => {
                self.manifest = other;
                None
            }
        };
        if let Some((bytes, complete)) = kept {
            file.complete = complete;
            file.bytes = bytes;
        } else if size <= ONE_FILE_LIMIT && size <= self.budget {
            match seen.and_then(|seen| read_bounded(entry.path(), &seen)) {
                Ok((bytes, complete)) => {
                    file.complete = complete;
                    if !complete {
                        file.size = file.size.max(bytes.len() as u64);
                    }
                    file.bytes = bytes;
                }
                Err(err) => pack.walk_problems.push(WalkProblem::Unreadable {
                    path: path.to_string(),
                    message: err.to_string(),
                    in_pack: true,
                }),
            }
        }
        self.budget = self.budget.saturating_sub(file.bytes.len() as u64);
        pack.index.insert(path.to_string(), pack.files.len());
        pack.files.push(file);
    }
}

/// Reads at most `ONE_FILE_LIMIT + 1` bytes of the regular file at `path` that `seen` (its
/// lstat, taken by the caller) describes; the flag says whether the whole file fit. Nothing but
/// that file is ever read: an entry `seen` does not show as a regular file is never opened, the
/// open follows no link and does not block on a FIFO, and the open file must be the same regular
/// file (device and inode) `seen` described, or the entry changed between the look and the open
/// and is refused, unread.
pub fn read_bounded(path: &Path, seen: &std::fs::Metadata) -> std::io::Result<(Vec<u8>, bool)> {
    if !seen.file_type().is_file() {
        return Err(not_the_file());
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => not_the_file(),
            _ => e,
        })?;
    let meta = file.metadata()?;
    if !meta.is_file() || (meta.dev(), meta.ino()) != (seen.dev(), seen.ino()) {
        return Err(not_the_file());
    }
    let mut bytes = Vec::with_capacity(meta.len().min(ONE_FILE_LIMIT + 1) as usize);
    file.take(ONE_FILE_LIMIT + 1).read_to_end(&mut bytes)?;
    let complete = bytes.len() as u64 <= ONE_FILE_LIMIT;
    Ok((bytes, complete))
}

/// The entry is no longer the regular file the walk found (swapped for a link, a FIFO or
/// another file between the look and the open).
fn not_the_file() -> std::io::Error {
    std::io::Error::other("changed while it was read: no longer the regular file the walk found")
}

/// The first regular file below a folder, in walk order, looking at no more than 64 entries.
fn first_file_below(dir: &Path, folder: &Path) -> Option<String> {
    walkdir::WalkDir::new(folder)
        .min_depth(1)
        .max_depth(MAX_DEPTH)
        .follow_links(false)
        .sort_by(|a, b| a.file_name().cmp(b.file_name()))
        .into_iter()
        .take(64)
        .filter_map(Result::ok)
        .find(|e| e.file_type().is_file())
        .map(|e| rel(dir, e.path()))
        .filter(|(_, utf8)| *utf8)
        .map(|(p, _)| p)
}

/// The pack-relative `/`-separated path, and whether it is valid UTF-8.
fn rel(dir: &Path, path: &Path) -> (String, bool) {
    let r = path.strip_prefix(dir).unwrap_or(path);
    // The walk gives clean relative paths: a valid UTF-8 one is already `/`-separated.
    if let Some(s) = r.to_str() {
        return (s.to_string(), true);
    }
    let mut utf8 = true;
    let parts: Vec<String> = r
        .components()
        .map(|c| {
            let s = c.as_os_str();
            match s.to_str() {
                Some(s) => s.to_string(),
                None => {
                    utf8 = false;
                    s.to_string_lossy().into_owned()
                }
            }
        })
        .collect();
    (parts.join("/"), utf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_swapped_between_the_look_and_the_open_is_refused_unread() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("pack.toml"), d.path().join("other"));
        std::fs::write(&a, "name = \"a\"\n").unwrap();
        std::fs::write(&b, "secret\n").unwrap();
        let seen = std::fs::symlink_metadata(&a).unwrap();
        // Control: the file the look saw is read.
        assert_eq!(read_bounded(&a, &seen).unwrap().0, b"name = \"a\"\n");
        std::fs::rename(&b, &a).unwrap();
        let err = read_bounded(&a, &seen).unwrap_err();
        assert!(
            err.to_string().contains("changed while it was read"),
            "{err}"
        );
        std::fs::remove_file(&a).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", &a).unwrap();
        assert!(read_bounded(&a, &seen).is_err(), "a link is never followed");
        let folder = std::fs::symlink_metadata(d.path()).unwrap();
        assert!(
            read_bounded(d.path(), &folder).is_err(),
            "not a regular file: never opened"
        );
    }

    #[test]
    fn a_fifo_pack_toml_leaves_the_kind_to_the_walk() {
        let d = tempfile::tempdir().unwrap();
        let c = std::ffi::CString::new(
            d.path()
                .join("pack.toml")
                .into_os_string()
                .into_encoded_bytes(),
        )
        .unwrap();
        // SAFETY: mkfifo on a path string that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let pack = load(d.path()).unwrap();
        assert!(pack.file("pack.toml").is_none());
        assert_eq!(pack.entries[0].kind, EntryKind::Special);
    }
}
