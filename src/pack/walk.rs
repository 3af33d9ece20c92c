//! Walking a pack folder: byte order, depth first, links never followed, special files never
//! opened, reads bounded.
//!
//! The walk holds each folder open and reaches its entries through it (`openat` on the folder's
//! descriptor), so a file costs one short name lookup, `fstat` and the reads; an entry's type
//! comes from the folder listing and is checked again on the open file, so nothing but a regular
//! file is ever read, even when the tree changes during the walk.

use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fd::{AsFd, BorrowedFd, OwnedFd};
use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags};

use super::{
    Entry, EntryKind, MAX_ENTRIES, ONE_FILE_LIMIT, Pack, PackFile, PackKind, READ_BUDGET,
    WalkProblem, allowed_folder,
};

/// Deepest level the walk visits: a path has at most six components, so a seventh is reported
/// and nothing below it is read.
pub(crate) const MAX_DEPTH: usize = 7;

/// Loads the pack at `dir`. An `Err` is a folder that cannot be read at all
/// (`error nowhere: No such file or directory (os error 2)`).
pub fn load(dir: &Path) -> std::io::Result<Pack> {
    walk(dir, true)
}

/// The folders the walk of the pack at `dir` skips ([`Pack::hidden_folders`]), found by the
/// same walk without reading a file but `pack.toml` (which decides the folders it enters).
/// Nothing when the pack cannot be read (its check says why).
pub(crate) fn hidden_folders(dir: &Path) -> Vec<(String, bool)> {
    walk(dir, false)
        .map(|p| p.hidden_folders)
        .unwrap_or_default()
}

/// The walk of the pack at `dir`; `read`: whether it reads the files (else it only lists).
fn walk(dir: &Path, read: bool) -> std::io::Result<Pack> {
    // A folder that cannot be read is one error line (docs/exit-codes.md): the OS's error, also
    // for a file given instead of a folder. The folder itself may be a link (it is followed, as
    // the folder named on the command line); nothing inside it is.
    let root = open_dir(rustix::fs::CWD, dir, false)?;
    let mut pack = Pack::new(dir.to_path_buf(), PackKind::Pass);
    // pack.toml decides the layout, so it is read first (and kept: one read per file).
    let manifest = read_named(root.as_fd(), OsStr::new("pack.toml"));
    if let Ok(Some(FirstRead { bytes, .. })) = &manifest {
        pack.kind = crate::model::manifest::kind_of(bytes);
    }
    let mut walk = Walk {
        pack,
        manifest: manifest.ok().flatten(),
        budget: READ_BUDGET,
        count: 0,
        stopped: false,
        read,
    };
    walk.folder(root, "", 1);
    Ok(walk.pack)
}

/// Opens a folder without following a link at its name (`follow`: the walk's root may be one).
fn open_dir(at: BorrowedFd<'_>, name: &Path, no_follow: bool) -> std::io::Result<OwnedFd> {
    let mut flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    if no_follow {
        flags |= OFlags::NOFOLLOW;
    }
    Ok(rustix::fs::openat(at, name, flags, Mode::empty())?)
}

/// A folder entry's type and inode number, as its folder lists them.
type Listed = (FileType, u64);

/// A folder's entries: (name, type and inode from the listing).
type Listing = Vec<(Vec<u8>, Listed)>;

/// A folder's entries, sorted by name bytes, and the open folder to reach them through.
fn list(fd: OwnedFd) -> std::io::Result<(Dir, Listing)> {
    let mut dir = Dir::new(fd)?;
    let mut names = Vec::new();
    while let Some(entry) = dir.read() {
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        names.push((name.to_vec(), (entry.file_type(), entry.ino())));
    }
    names.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok((dir, names))
}

/// An entry's type and inode number: the listing's, or, where the file system does not give the
/// type in its listing, asked without following a link.
fn type_of(at: BorrowedFd<'_>, name: &OsStr, listed: Listed) -> Listed {
    if listed.0 != FileType::Unknown {
        return listed;
    }
    rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW)
        .map(|s| (FileType::from_raw_mode(s.st_mode), s.st_ino))
        .unwrap_or(listed)
}

/// pack.toml as read before the walk: its bytes, whether they are all of it, its size and its
/// inode number.
#[derive(Debug, PartialEq)]
struct FirstRead {
    bytes: Vec<u8>,
    complete: bool,
    size: u64,
    ino: u64,
}

/// The state of one walk: the pack being built, pack.toml as read first, what is left of the
/// read budget, and the entry count.
struct Walk {
    pack: Pack,
    /// pack.toml as read first (the walk keeps the reading only for the same file).
    manifest: Option<FirstRead>,
    budget: u64,
    count: usize,
    stopped: bool,
    /// Whether files are read (and a folder not entered is looked into for its first file);
    /// else the walk only lists the folders it enters.
    read: bool,
}

impl Walk {
    /// Visits the entries of the folder `fd` (pack-relative `prefix`, `""` for the root, whose
    /// entries are at `depth` 1), in byte order, depth first.
    fn folder(&mut self, fd: OwnedFd, prefix: &str, depth: usize) {
        let (dir, names) = match list(fd) {
            Ok(listed) => listed,
            Err(err) => {
                let path = if prefix.is_empty() { "." } else { prefix };
                self.pack.walk_problems.push(WalkProblem::Unreadable {
                    path: path.to_string(),
                    message: err.to_string(),
                    in_pack: false,
                });
                return;
            }
        };
        let Ok(at) = dir.fd() else { return };
        for (name, listed) in names {
            if self.stopped {
                return;
            }
            self.entry(at, prefix, OsStr::from_bytes(&name), listed, depth);
        }
    }

    /// One entry of a folder.
    fn entry(
        &mut self,
        at: BorrowedFd<'_>,
        prefix: &str,
        name: &OsStr,
        (listed, ino): Listed,
        depth: usize,
    ) {
        let (path, utf8) = join(prefix, name);
        let (ft, ino) = type_of(at, name, (listed, ino));
        let lossy = name.to_string_lossy();
        if lossy.starts_with('.') || (depth == 1 && lossy == "origin.json") {
            if ft == FileType::Directory {
                self.pack.hidden_folders.push((path.clone(), utf8));
            }
            self.pack.skipped.push(path);
            return;
        }
        self.count += 1;
        if self.count > MAX_ENTRIES {
            self.pack.walk_problems.push(WalkProblem::EntryLimit);
            self.stopped = true;
            return;
        }
        let kind = match ft {
            FileType::Symlink => EntryKind::Symlink,
            FileType::Directory => {
                let descend = utf8 && depth < MAX_DEPTH && allowed_folder(self.pack.kind, &path);
                self.pack.entries.push(Entry {
                    path: path.clone(),
                    kind: EntryKind::Dir { descended: descend },
                    utf8,
                    first_file: None,
                });
                let index = self.pack.entries.len() - 1;
                if descend {
                    match open_dir(at, Path::new(name), true) {
                        Ok(fd) => self.folder(fd, &path, depth + 1),
                        Err(err) => self.pack.walk_problems.push(WalkProblem::Unreadable {
                            path,
                            message: err.to_string(),
                            in_pack: false,
                        }),
                    }
                } else if self.read {
                    self.pack.entries[index].first_file = first_file_below(at, name, &path, utf8);
                }
                return;
            }
            FileType::RegularFile => {
                if self.read {
                    self.file(at, (name, ino), &path, depth);
                }
                EntryKind::File
            }
            _ => EntryKind::Special,
        };
        self.pack.entries.push(Entry {
            path,
            kind,
            utf8,
            first_file: None,
        });
    }

    /// Reads one regular file into the pack (its bytes when it fits, else its size only).
    fn file(&mut self, at: BorrowedFd<'_>, (name, ino): (&OsStr, u64), path: &str, depth: usize) {
        let mut file = PackFile {
            path: path.to_string(),
            size: 0,
            bytes: Vec::new(),
            complete: false,
        };
        let kept = match self.manifest.take() {
            Some(m) if depth == 1 && path == "pack.toml" && m.ino == ino => Some(m),
            other => {
                self.manifest = other;
                None
            }
        };
        if let Some(FirstRead {
            bytes,
            complete,
            size,
            ..
        }) = kept
        {
            file.size = size;
            file.complete = complete;
            file.bytes = bytes;
        } else {
            self.read_into(at, (name, ino), &mut file);
        }
        self.budget = self.budget.saturating_sub(file.bytes.len() as u64);
        self.pack.push_file(file);
    }

    /// Opens the file and reads it when its size is within its limit and the budget left.
    fn read_into(&mut self, at: BorrowedFd<'_>, (name, ino): (&OsStr, u64), file: &mut PackFile) {
        let limit = ONE_FILE_LIMIT.min(self.budget);
        match open_regular(at, name, ino) {
            Ok((fd, size)) => {
                file.size = size;
                if size > limit {
                    return;
                }
                match read_bounded(fd, size) {
                    Ok((bytes, complete)) => {
                        file.complete = complete;
                        if !complete {
                            file.size = file.size.max(bytes.len() as u64);
                        }
                        file.bytes = bytes;
                    }
                    Err(err) => self.unreadable(file, err),
                }
            }
            Err(err) => {
                // A file that cannot be opened is a problem only where it would have been read.
                let size = rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW)
                    .map(|s| s.st_size as u64)
                    .unwrap_or(0);
                file.size = size;
                if size <= limit {
                    self.unreadable(file, err);
                }
            }
        }
    }

    fn unreadable(&mut self, file: &PackFile, err: std::io::Error) {
        self.pack.walk_problems.push(WalkProblem::Unreadable {
            path: file.path.clone(),
            message: err.to_string(),
            in_pack: true,
        });
    }
}

/// Opens the regular file the listing showed (`ino`: its inode number there) for reading,
/// following no link, never blocking on a FIFO and never taking a terminal. The open file must
/// be that regular file, or the entry changed between the listing and the open and is refused,
/// unread. Where the listing's inode number is not the file's (an overlay file system whose
/// layers lie on different file systems lists one number and `fstat` gives another), the name
/// is looked at again without following a link and must hold the very file that was opened
/// (device and inode): only then does a pack on such a mount read at all, and the open file is
/// still a regular file the name holds. Returns the descriptor and the size.
fn open_regular(at: BorrowedFd<'_>, name: &OsStr, ino: u64) -> std::io::Result<(OwnedFd, u64)> {
    let flags =
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    let fd = rustix::fs::openat(at, name, flags, Mode::empty()).map_err(|e| match e {
        rustix::io::Errno::LOOP => not_the_file(),
        e => e.into(),
    })?;
    let stat = rustix::fs::fstat(&fd)?;
    let regular = FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile;
    if !regular || (stat.st_ino != ino && !still_named(at, name, &stat)) {
        return Err(not_the_file());
    }
    Ok((fd, stat.st_size as u64))
}

/// Whether `name` (its link not followed) is the open file `stat` describes.
fn still_named(at: BorrowedFd<'_>, name: &OsStr, stat: &rustix::fs::Stat) -> bool {
    rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW)
        .is_ok_and(|now| (now.st_dev, now.st_ino) == (stat.st_dev, stat.st_ino))
}

/// The entry is no longer the regular file the walk found (swapped for a link, a FIFO or
/// another file between the look and the open).
fn not_the_file() -> std::io::Error {
    std::io::Error::other("changed while it was read: no longer the regular file the walk found")
}

/// pack.toml, read before the walk: checked to be a regular file before it is opened (so a FIFO,
/// a device or a link by that name is never opened), then checked again on the open file.
/// `Ok(None)`: there is no regular file by that name.
fn read_named(at: BorrowedFd<'_>, name: &OsStr) -> std::io::Result<Option<FirstRead>> {
    let listed = match rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(s) => s,
        Err(rustix::io::Errno::NOENT) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    if FileType::from_raw_mode(listed.st_mode) != FileType::RegularFile {
        return Ok(None);
    }
    let (fd, size) = open_regular(at, name, listed.st_ino)?;
    if rustix::fs::fstat(&fd)?.st_dev != listed.st_dev {
        return Err(not_the_file());
    }
    let (bytes, complete) = read_bounded(fd, size)?;
    Ok(Some(FirstRead {
        bytes,
        complete,
        size,
        ino: listed.st_ino,
    }))
}

/// Reads at most `ONE_FILE_LIMIT + 1` bytes of an open regular file of `size` bytes (by its
/// `fstat`). The flag says whether the whole file fit.
///
/// The first read asks for one byte more than `size`: a read of a regular file returns fewer
/// bytes than asked only at the end of the file (POSIX `read`), so a file that did not change
/// costs one read instead of a second one that returns nothing. A file that grew since its
/// `fstat` fills that read and is read on, to the limit.
///
/// The read goes into the vector's spare capacity: nothing is zeroed first.
fn read_bounded(fd: OwnedFd, size: u64) -> std::io::Result<(Vec<u8>, bool)> {
    let want = size.min(ONE_FILE_LIMIT) as usize + 1;
    let mut bytes = Vec::with_capacity(want);
    let n = loop {
        match rustix::io::read(&fd, rustix::buffer::spare_capacity(&mut bytes)) {
            Err(rustix::io::Errno::INTR) => continue,
            r => break r?,
        }
    };
    if n == want {
        std::fs::File::from(fd)
            .take(ONE_FILE_LIMIT + 1 - n as u64)
            .read_to_end(&mut bytes)?;
    }
    let complete = bytes.len() as u64 <= ONE_FILE_LIMIT;
    Ok((bytes, complete))
}

/// The first regular file below a folder the walk does not enter (at most [`MAX_DEPTH`] levels
/// below it), in walk order, looking at no more than 64 entries; `None` when its path is not
/// UTF-8 (`utf8`: whether the folder's is).
fn first_file_below(at: BorrowedFd<'_>, name: &OsStr, path: &str, utf8: bool) -> Option<String> {
    let mut budget = 64usize;
    let fd = open_dir(at, Path::new(name), true).ok()?;
    let (found, found_utf8) = first_in(fd, (path, utf8), 1, &mut budget)?;
    found_utf8.then_some(found)
}

/// [`first_file_below`] inside one folder (`prefix`: its path and whether it is UTF-8), `level`
/// levels below the folder it started from.
fn first_in(
    fd: OwnedFd,
    prefix: (&str, bool),
    level: usize,
    budget: &mut usize,
) -> Option<(String, bool)> {
    if level > MAX_DEPTH {
        return None;
    }
    let (dir, names) = list(fd).ok()?;
    let at = dir.fd().ok()?;
    for (name, listed) in names {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let name = OsStr::from_bytes(&name);
        let (path, utf8) = join(prefix.0, name);
        let utf8 = utf8 && prefix.1;
        match type_of(at, name, listed).0 {
            FileType::RegularFile => return Some((path, utf8)),
            FileType::Directory => {
                if let Ok(sub) = open_dir(at, Path::new(name), true)
                    && let Some(found) = first_in(sub, (&path, utf8), level + 1, budget)
                {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

/// `prefix/name` (pack-relative, `/`-separated; lossy where the name is not UTF-8), and whether
/// every component is UTF-8 (a folder whose name is not is never entered, so the prefix is).
fn join(prefix: &str, name: &OsStr) -> (String, bool) {
    let (part, utf8) = match name.to_str() {
        Some(s) => (std::borrow::Cow::Borrowed(s), true),
        None => (name.to_string_lossy(), false),
    };
    if prefix.is_empty() {
        (part.into_owned(), utf8)
    } else {
        (format!("{prefix}/{part}"), utf8)
    }
}

#[cfg(test)]
mod tests;
