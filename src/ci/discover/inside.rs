//! Inside a pack, discovery looks only for the folders the pack's walk skips (names starting
//! with `.`, never `.git`), in the folders the walk descends into; each is searched for packs
//! like any folder. The folders are reached through their parent's open descriptor (`openat`,
//! types from the listing), as the walk reaches them: a pack costs one listing per folder.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fd::{BorrowedFd, OwnedFd};
use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags};

use super::Blocked;

/// How deep inside a pack the walk descends (a path has at most six components).
const WALK_DEPTH: usize = 7;

/// A folder the walk skips: its components below the pack, and why it cannot be searched.
pub type Skipped = (Vec<String>, Option<Blocked>);

/// The folders the walk of the pack at `dir` skips, in walk order (byte order, depth first).
/// Nothing when the pack cannot be read (its check says why).
pub fn skipped_folders(dir: &Path) -> Vec<Skipped> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let Ok(fd) = rustix::fs::openat(rustix::fs::CWD, dir, flags, Mode::empty()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut budget = crate::pack::MAX_ENTRIES;
    folder(fd, &mut Vec::new(), &mut budget, &mut out);
    out
}

/// One folder of the pack (`at`: its components below the pack).
fn folder(fd: OwnedFd, at: &mut Vec<String>, budget: &mut usize, out: &mut Vec<Skipped>) {
    let Ok((dir, names)) = list(fd, budget) else {
        return;
    };
    let Ok(dir) = dir.fd() else { return };
    for (name, ft) in names {
        let name = OsStr::from_bytes(&name);
        if !is_dir(dir, name, ft) {
            continue;
        }
        if name.as_bytes().starts_with(b".") {
            if name == ".git" {
                continue;
            }
            let shown = name.to_string_lossy().into_owned();
            let why = name.to_str().is_none().then_some(Blocked::NotUtf8);
            out.push((with(at, shown), why));
            continue;
        }
        let Some(name) = name.to_str() else { continue };
        let path = with(at, name.to_string()).join("/");
        if at.len() + 1 >= WALK_DEPTH
            || !crate::pack::allowed_folder(crate::pack::Kind::Pass, &path)
        {
            continue;
        }
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NOFOLLOW;
        if let Ok(sub) = rustix::fs::openat(dir, name, flags, Mode::empty()) {
            at.push(name.to_string());
            folder(sub, at, budget, out);
            at.pop();
        }
    }
}

fn with(at: &[String], name: String) -> Vec<String> {
    let mut v = at.to_vec();
    v.push(name);
    v
}

/// Whether an entry is a folder (not a link): the listing's type, or asked.
fn is_dir(at: BorrowedFd<'_>, name: &OsStr, listed: FileType) -> bool {
    if listed != FileType::Unknown {
        return listed == FileType::Directory;
    }
    rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW)
        .is_ok_and(|s| FileType::from_raw_mode(s.st_mode) == FileType::Directory)
}

/// A folder's entries: name bytes and the listed type.
type Listing = Vec<(Vec<u8>, FileType)>;

/// A folder's entries sorted by name, with their listed types, and the open folder; at most
/// `budget` entries in all (the walk stops at as many).
fn list(fd: OwnedFd, budget: &mut usize) -> std::io::Result<(Dir, Listing)> {
    let mut dir = Dir::new(fd)?;
    let mut names = Vec::new();
    while let Some(entry) = dir.read() {
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        names.push((name.to_vec(), entry.file_type()));
    }
    names.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok((dir, names))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn the_folders_the_walk_skips_are_found_where_the_walk_goes() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path();
        for d in [
            ".a",
            ".git/x",
            "prompts/.b",
            "tests/c/transcripts/.d",
            "templates/1/2/3/4/5/6/.too-deep",
            "assets/.never",
            "real/.x",
        ] {
            std::fs::create_dir_all(p.join(d)).unwrap();
        }
        std::fs::write(p.join(".file"), "").unwrap();
        std::os::unix::fs::symlink(p.join("real"), p.join("tests/.link")).unwrap();
        std::fs::create_dir_all(p.join("personas").join(OsStr::from_bytes(b".\xff"))).unwrap();
        let got: Vec<(String, Option<Blocked>)> = skipped_folders(p)
            .into_iter()
            .map(|(rel, why)| (rel.join("/"), why))
            .collect();
        let want = [
            (".a", None),
            ("personas/.\u{FFFD}", Some(Blocked::NotUtf8)),
            ("prompts/.b", None),
            ("tests/c/transcripts/.d", None),
        ];
        assert_eq!(
            got,
            want.map(|(p, w)| (p.to_string(), w)),
            "not .git, a file, a link, a folder the walk does not enter, or below its depth"
        );
    }
}
