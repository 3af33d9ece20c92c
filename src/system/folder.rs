//! A folder held open, and the files and folders made, written, read and removed through it
//! (`openat`, `mkdirat`, `unlinkat` on its descriptor): a name is looked up from the folder, not
//! walked again from `/`, and the last component is never followed when it is a symbolic link.
//! `test`'s temporary home and workspace are reached this way (docs/performance.md).

use std::io;
use std::path::{Path, PathBuf};

use rustix::fd::OwnedFd;
use rustix::fs::{AtFlags, Mode, OFlags};

/// An open folder and the path it was opened at (for messages, and for what is handed to a
/// command by path).
#[derive(Debug)]
pub(crate) struct Folder {
    fd: OwnedFd,
    path: PathBuf,
}

/// Opening a file: never through a link at its name (`NOFOLLOW`), never waiting on a FIFO put in
/// its place (`NONBLOCK`, nothing to a regular file), never a terminal.
const OPEN: OFlags = OFlags::NOFOLLOW
    .union(OFlags::NONBLOCK)
    .union(OFlags::NOCTTY)
    .union(OFlags::CLOEXEC);

impl Folder {
    /// Opens the folder at `path`, which must not be a symbolic link.
    pub(crate) fn open(path: &Path) -> io::Result<Folder> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(rustix::fs::CWD, path, flags, Mode::empty())?;
        Ok(Folder {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// Opens the folder `rel` of this one (not through a link at its name).
    pub(crate) fn open_dir(&self, rel: &str) -> io::Result<Folder> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.fd, plain(rel)?, flags, Mode::empty())?;
        Ok(Folder {
            fd,
            path: self.path.join(rel),
        })
    }

    /// Where the folder was opened.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Makes the folder `rel`, readable by this user only; an entry already there (a link too)
    /// is an error.
    pub(crate) fn make_dir(&self, rel: &str) -> io::Result<()> {
        Ok(rustix::fs::mkdirat(&self.fd, plain(rel)?, Mode::RWXU)?)
    }

    /// Writes `bytes` as the file `rel` (made, or emptied first), readable by this user only. A
    /// symbolic link at `rel` is an error, never followed.
    pub(crate) fn write(&self, rel: &str, bytes: &[u8]) -> io::Result<()> {
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::TRUNC | OPEN;
        let fd = rustix::fs::openat(&self.fd, plain(rel)?, flags, Mode::RUSR | Mode::WUSR)?;
        write_all(&fd, bytes)
    }

    /// Adds `bytes` at the end of the existing file `rel` (not made when missing; a symbolic link
    /// there is an error, never followed).
    pub(crate) fn append(&self, rel: &str, bytes: &[u8]) -> io::Result<()> {
        let flags = OFlags::WRONLY | OFlags::APPEND | OPEN;
        let fd = rustix::fs::openat(&self.fd, plain(rel)?, flags, Mode::empty())?;
        write_all(&fd, bytes)
    }

    /// The text of the file `rel`, read whole: an open, the reads, a close (no size asked
    /// first). `written` is the length this run wrote the file with, when it did.
    ///
    /// With `written`, the read that returns exactly that many bytes while asking for one more
    /// ends the reading, without a last read to see the end: on Linux a read of a regular file
    /// returns fewer bytes than asked only at its end, and the file is one this run wrote into
    /// its private temporary folder (0700) and nobody else writes, so its end is where the
    /// write left it. A file of any other length (shorter, longer, or a short read anywhere
    /// else) is read on to the end as any other file.
    pub(crate) fn read_text(&self, rel: &str, written: Option<usize>) -> io::Result<String> {
        let fd = rustix::fs::openat(&self.fd, plain(rel)?, OFlags::RDONLY | OPEN, Mode::empty())?;
        let mut buf: Vec<u8> = Vec::with_capacity(written.map_or(8 * 1024, |n| n + 1));
        loop {
            if buf.len() == buf.capacity() {
                buf.reserve(buf.len().max(8 * 1024));
            }
            let asked = buf.capacity() - buf.len();
            let n = match rustix::io::read(&fd, rustix::buffer::spare_capacity(&mut buf)) {
                Ok(n) => n,
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            };
            if n == 0 || (n < asked && Some(buf.len()) == written) {
                break;
            }
        }
        if buf.capacity() > buf.len() + 4096 {
            buf.shrink_to_fit();
        }
        String::from_utf8(buf).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            )
        })
    }

    /// Whether `rel` is a regular file (a link is not looked through).
    pub(crate) fn is_file(&self, rel: &str) -> bool {
        plain(rel).is_ok_and(|rel| {
            rustix::fs::statat(&self.fd, rel, AtFlags::SYMLINK_NOFOLLOW)
                .is_ok_and(|st| rustix::fs::FileType::from_raw_mode(st.st_mode).is_file())
        })
    }

    /// Removes the file (or link) `rel`.
    pub(crate) fn remove_file(&self, rel: &str) -> io::Result<()> {
        Ok(rustix::fs::unlinkat(
            &self.fd,
            plain(rel)?,
            AtFlags::empty(),
        )?)
    }

    /// Removes the empty folder `rel`.
    pub(crate) fn remove_dir(&self, rel: &str) -> io::Result<()> {
        Ok(rustix::fs::unlinkat(
            &self.fd,
            plain(rel)?,
            AtFlags::REMOVEDIR,
        )?)
    }

    /// Renames the entry `from` of this folder to `to`, never replacing an entry already at
    /// `to`.
    pub(crate) fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        let flags = rustix::fs::RenameFlags::NOREPLACE;
        Ok(rustix::fs::renameat_with(
            &self.fd,
            plain(from)?,
            &self.fd,
            plain(to)?,
            flags,
        )?)
    }

    /// Whether every entry of the folder is one `expected` accepts (by its name), read through
    /// the open descriptor from the start of the folder.
    pub(crate) fn holds_only(&self, expected: impl Fn(&[u8]) -> bool) -> io::Result<bool> {
        let mut only = true;
        self.each_name(|name| {
            only &= matches!(name, b"." | b"..") || expected(name);
            only
        })?;
        Ok(only)
    }

    /// Calls `f` with each entry's name (`.` and `..` too) until it returns false: the listing
    /// system call on the descriptor itself, from its start.
    #[cfg(target_os = "linux")]
    fn each_name(&self, mut f: impl FnMut(&[u8]) -> bool) -> io::Result<()> {
        rustix::fs::seek(&self.fd, rustix::fs::SeekFrom::Start(0))?;
        let mut buf = [std::mem::MaybeUninit::<u8>::uninit(); 2048];
        let mut dir = rustix::fs::RawDir::new(&self.fd, &mut buf);
        while let Some(e) = dir.next() {
            if !f(e?.file_name().to_bytes()) {
                break;
            }
        }
        Ok(())
    }

    #[cfg(not(target_os = "linux"))]
    fn each_name(&self, mut f: impl FnMut(&[u8]) -> bool) -> io::Result<()> {
        for e in rustix::fs::Dir::read_from(&self.fd)? {
            if !f(e?.file_name().to_bytes()) {
                break;
            }
        }
        Ok(())
    }

    /// Removes everything in the folder, keeping the folder (and this descriptor): links and
    /// files are removed, folders removed whole without following a link.
    pub(crate) fn empty(&self) -> io::Result<()> {
        for e in std::fs::read_dir(&self.path)? {
            let e = e?;
            if e.file_type()?.is_dir() {
                std::fs::remove_dir_all(e.path())?;
            } else {
                std::fs::remove_file(e.path())?;
            }
        }
        Ok(())
    }
}

fn write_all(fd: &OwnedFd, bytes: &[u8]) -> io::Result<()> {
    let mut rest = bytes;
    while !rest.is_empty() {
        match rustix::io::write(fd, rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = rest.get(n..).unwrap_or_default(),
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// `rel` when it is a relative path of plain names (no empty, `.` or `..` component), so that
/// what is reached through a folder stays in it; an error otherwise.
fn plain(rel: &str) -> io::Result<&str> {
    let ok = !rel.is_empty()
        && rel
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != "..");
    if ok {
        Ok(rel)
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{rel:?} is not a relative path of plain names"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> (tempfile::TempDir, Folder) {
        let t = tempfile::tempdir().unwrap();
        let f = Folder::open(t.path()).unwrap();
        (t, f)
    }

    #[test]
    fn files_and_folders_are_made_read_and_removed_through_the_folder() {
        let (t, f) = folder();
        f.make_dir("a").unwrap();
        f.write("a/b.md", b"one").unwrap();
        assert_eq!(std::fs::read(t.path().join("a/b.md")).unwrap(), b"one");
        f.write("a/b.md", b"x").unwrap();
        assert_eq!(
            f.read_text("a/b.md", Some(1)).unwrap(),
            "x",
            "emptied first"
        );
        f.append("a/b.md", b"yz").unwrap();
        assert_eq!(f.read_text("a/b.md", Some(3)).unwrap(), "xyz");
        assert!(
            f.append("a/new.md", b"x").is_err(),
            "control: only an existing file"
        );
        assert!(f.is_file("a/b.md") && !f.is_file("a") && !f.is_file("nope"));
        assert!(f.make_dir("a").is_err(), "an entry already there");
        let sub = f.open_dir("a").unwrap();
        assert_eq!(sub.path(), t.path().join("a"));
        assert_eq!(sub.read_text("b.md", None).unwrap(), "xyz");
        assert!(f.remove_dir("a").is_err(), "control: not empty");
        f.remove_file("a/b.md").unwrap();
        f.remove_dir("a").unwrap();
        assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 0);
    }

    #[test]
    fn read_text_reads_whole_files_whatever_length_is_expected() {
        let (t, f) = folder();
        for text in [String::new(), "é".repeat(10), "x".repeat(100_000)] {
            std::fs::write(t.path().join("a.md"), &text).unwrap();
            let n = text.len();
            for written in [
                None,
                Some(0),
                Some(1),
                Some(n.saturating_sub(1)),
                Some(n),
                Some(n + 1),
            ] {
                assert_eq!(f.read_text("a.md", written).unwrap(), text, "{written:?}");
            }
        }
        std::fs::write(t.path().join("a.md"), [0xff, 0xfe]).unwrap();
        let err = f.read_text("a.md", Some(2)).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData, "control: not UTF-8");
        assert_eq!(err.to_string(), "stream did not contain valid UTF-8");
        let err = f.read_text("nope.md", Some(2)).unwrap_err();
        assert_eq!(err.to_string(), "No such file or directory (os error 2)");
    }

    #[test]
    fn links_are_never_followed_and_paths_stay_inside() {
        let (t, f) = folder();
        let elsewhere = tempfile::tempdir().unwrap();
        let victim = elsewhere.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        std::os::unix::fs::symlink(&victim, t.path().join("link")).unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), t.path().join("dir")).unwrap();
        assert!(f.write("link", b"x").is_err());
        assert!(f.append("link", b"x").is_err());
        assert!(f.read_text("link", None).is_err());
        assert!(!f.is_file("link"));
        assert!(f.open_dir("dir").is_err());
        assert!(f.make_dir("dir").is_err());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        for bad in ["", "/etc/passwd", "../x", "a/../b", "./a", "a//b", "a/"] {
            assert!(f.write(bad, b"x").is_err(), "{bad:?}");
            assert!(f.read_text(bad, None).is_err(), "{bad:?}");
        }
        f.remove_file("link").unwrap();
        assert!(victim.exists(), "the link is removed, not its target");
        // Control: a plain write through the folder's path follows the link.
        std::fs::write(t.path().join("dir/victim"), "overwritten").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "overwritten");
    }

    #[test]
    fn holds_only_lists_through_the_descriptor_each_time() {
        let (t, f) = folder();
        let only_a = |n: &[u8]| n == b"a";
        assert!(f.holds_only(only_a).unwrap(), "empty");
        f.make_dir("a").unwrap();
        assert!(f.holds_only(only_a).unwrap());
        assert!(f.holds_only(only_a).unwrap(), "again, from the start");
        std::fs::write(t.path().join("stray"), "").unwrap();
        assert!(!f.holds_only(only_a).unwrap(), "control: a stray file");
        std::fs::remove_file(t.path().join("stray")).unwrap();
        let many: Vec<String> = (0..200).map(|i| format!("{i:0>40}")).collect();
        for n in &many {
            f.make_dir(n).unwrap();
        }
        let known = |n: &[u8]| n == b"a" || many.iter().any(|m| m.as_bytes() == n);
        assert!(
            f.holds_only(known).unwrap(),
            "more names than one read holds"
        );
        assert!(!f.holds_only(only_a).unwrap());
    }

    #[test]
    fn rename_never_replaces() {
        let (t, f) = folder();
        f.make_dir("a").unwrap();
        f.write("a/x", b"x").unwrap();
        let a = f.open_dir("a").unwrap();
        f.rename("a", "b").unwrap();
        assert_eq!(
            a.read_text("x", None).unwrap(),
            "x",
            "the descriptor follows"
        );
        assert!(t.path().join("b/x").is_file());
        f.make_dir("c").unwrap();
        assert!(
            f.rename("b", "c").is_err(),
            "control: an empty folder there stays"
        );
        assert!(t.path().join("b/x").is_file() && t.path().join("c").is_dir());
    }

    #[test]
    fn empty_keeps_the_folder_and_never_follows_a_link() {
        let (t, f) = folder();
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::write(elsewhere.path().join("kept"), "x").unwrap();
        std::fs::create_dir_all(t.path().join("a/b")).unwrap();
        std::fs::write(t.path().join("a/b/c"), "x").unwrap();
        std::fs::write(t.path().join("d"), "x").unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), t.path().join("e")).unwrap();
        f.empty().unwrap();
        assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 0);
        assert!(elsewhere.path().join("kept").exists());
        f.write("again", b"y").unwrap();
        assert!(
            t.path().join("again").is_file(),
            "the descriptor still works"
        );
    }
}
