//! The walk's own tests: order, the first file of a folder not entered, entries that
//! change between the look and the open, reads of files whose size changed, and the
//! dot-folders it skips.

use super::*;

/// The inode number the folder lists for `name` (the walk's look).
fn look(at: BorrowedFd<'_>, name: &str) -> u64 {
    rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW)
        .unwrap()
        .st_ino
}

#[test]
fn a_file_swapped_between_the_look_and_the_open_is_refused_unread() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("pack.toml"), d.path().join("other"));
    std::fs::write(&a, "name = \"a\"\n").unwrap();
    std::fs::write(&b, "secret\n").unwrap();
    let folder = open_dir(rustix::fs::CWD, d.path(), false).unwrap();
    let at = folder.as_fd();
    let seen = look(at, "pack.toml");
    // Control: the file the look saw is read.
    let (fd, size) = open_regular(at, OsStr::new("pack.toml"), seen).unwrap();
    assert_eq!(read_bounded(fd, size).unwrap().0, b"name = \"a\"\n");
    // Swapped for a FIFO after the look: refused, unread (the open does not block).
    std::fs::remove_file(&a).unwrap();
    let c = std::ffi::CString::new(a.clone().into_os_string().into_encoded_bytes()).unwrap();
    // SAFETY: mkfifo on a path string that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let err = open_regular(at, OsStr::new("pack.toml"), seen).unwrap_err();
    assert!(
        err.to_string().contains("changed while it was read"),
        "{err}"
    );
    // Swapped for another regular file: the listing's number no longer matches, so the name is
    // looked at again, and it holds the file that was opened (what an overlay whose listing
    // numbers differ from the files' looks like): read, the file the name holds.
    std::fs::remove_file(&a).unwrap();
    std::fs::rename(&b, &a).unwrap();
    let (fd, size) = open_regular(at, OsStr::new("pack.toml"), seen).unwrap();
    assert_eq!(read_bounded(fd, size).unwrap().0, b"secret\n");
    std::fs::remove_file(&a).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", &a).unwrap();
    let link = look(at, "pack.toml");
    assert!(
        open_regular(at, OsStr::new("pack.toml"), link).is_err(),
        "a link is never followed"
    );
    assert_eq!(read_named(at, OsStr::new("pack.toml")).unwrap(), None);
    std::fs::create_dir(d.path().join("sub")).unwrap();
    let sub = look(at, "sub");
    assert!(
        open_regular(at, OsStr::new("sub"), sub).is_err(),
        "not a regular file: never read"
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

#[test]
fn entries_come_in_byte_order_depth_first_with_their_first_file() {
    let d = tempfile::tempdir().unwrap();
    for (p, body) in [
        ("pack.toml", "name = \"p\"\n"),
        ("prompts/b.md", "b"),
        ("prompts/a.md", "a"),
        ("junk/deep/x.md", "x"),
        ("README.md", "r"),
        (".hidden", "h"),
    ] {
        let path = d.path().join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    let pack = load(d.path()).unwrap();
    let paths: Vec<&str> = pack.entries.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "README.md",
            "junk",
            "pack.toml",
            "prompts",
            "prompts/a.md",
            "prompts/b.md"
        ]
    );
    assert_eq!(pack.skipped, [".hidden"]);
    // A folder the layout does not allow is not entered; it points at its first file.
    assert_eq!(pack.entries[1].kind, EntryKind::Dir { descended: false });
    assert_eq!(
        pack.entries[1].first_file.as_deref(),
        Some("junk/deep/x.md")
    );
    assert_eq!(pack.file("prompts/a.md").unwrap().bytes, b"a");
    assert!(pack.file("junk/deep/x.md").is_none(), "control: never read");
}

/// The file's bytes, read as `read_bounded` reads a file `fstat` said has `size` bytes.
fn read_as_if(bytes: &[u8], size: u64) -> (Vec<u8>, bool) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("f");
    std::fs::write(&path, bytes).expect("written");
    let fd = OwnedFd::from(std::fs::File::open(&path).expect("opened"));
    read_bounded(fd, size).expect("read")
}

#[test]
fn a_file_is_read_whole_whatever_its_size_said() {
    let limit = ONE_FILE_LIMIT as usize;
    let body: Vec<u8> = (0..limit + 10).map(|i| (i % 251) as u8).collect();
    for len in [0, 1, 7, 4096, limit - 1, limit] {
        let want = (body[..len].to_vec(), true);
        // as fstat said; grown since (fstat said less); shrunk since (fstat said more)
        for size in [len as u64, len.saturating_sub(3) as u64, 0, len as u64 + 5] {
            assert_eq!(
                read_as_if(&body[..len], size),
                want,
                "len {len} size {size}"
            );
        }
    }
    // over the limit: the limit and one byte more, and the flag says it did not fit
    for size in [limit as u64 + 10, 10, limit as u64] {
        let (bytes, complete) = read_as_if(&body, size);
        assert_eq!(
            (bytes.as_slice(), complete),
            (&body[..limit + 1], false),
            "size {size}"
        );
    }
}

/// Control: a read that trusted the size `fstat` gave would lose a grown file's tail, and the
/// comparison above tells the two apart.
#[test]
fn control_a_read_of_only_the_stated_size_loses_a_grown_tail() {
    let stated_only = |bytes: &[u8], size: usize| bytes[..size.min(bytes.len())].to_vec();
    let (read, complete) = read_as_if(b"0123456789", 4);
    assert_eq!((read.as_slice(), complete), (&b"0123456789"[..], true));
    assert_ne!(stated_only(b"0123456789", 4), read);
}

#[test]
fn the_folders_the_walk_skips_are_found_where_the_walk_goes() {
    use std::os::unix::ffi::OsStrExt;
    let t = tempfile::tempdir().unwrap();
    let p = t.path();
    for d in [
        ".a",
        ".git/x",
        "prompts/.b",
        "tests/c/transcripts/.d",
        "templates/1/2/3/4/5/.deepest",
        "templates/1/2/3/4/5/6/.too-deep",
        "assets/.never",
        "real/.x",
        "origin.json/p",
        "prompts/origin.json",
    ] {
        std::fs::create_dir_all(p.join(d)).unwrap();
    }
    std::fs::write(p.join("pack.toml"), "name = \"a\"\n").unwrap();
    std::fs::write(p.join(".file"), "").unwrap();
    std::os::unix::fs::symlink(p.join("real"), p.join("tests/.link")).unwrap();
    std::fs::create_dir_all(p.join("personas").join(OsStr::from_bytes(b".\xff"))).unwrap();
    let want: Vec<(String, bool)> = [
        (".a", true),
        (".git", true),
        ("origin.json", true),
        ("personas/.\u{FFFD}", false),
        ("prompts/.b", true),
        ("templates/1/2/3/4/5/.deepest", true),
        ("tests/c/transcripts/.d", true),
    ]
    .map(|(p, u)| (p.to_string(), u))
    .to_vec();
    assert_eq!(
        hidden_folders(p),
        want,
        "a folder named origin.json at the top is skipped as the page's file is, so it is \
         searched too; deeper it is a folder like any other"
    );
    let pack = load(p).unwrap();
    assert_eq!(
        pack.hidden_folders, want,
        "the listing walk and the reading walk agree"
    );
    assert!(pack.skipped.contains(&".file".to_string()));
    assert!(hidden_folders(&p.join("nowhere")).is_empty());
}
