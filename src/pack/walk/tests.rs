//! The walk's own tests: order, the first file of a folder not entered, and entries that
//! change between the look and the open.

use super::*;

#[test]
fn an_entry_swapped_between_the_look_and_the_open_is_refused_unread() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("pack.toml"), d.path().join("other"));
    std::fs::write(&a, "name = \"a\"\n").unwrap();
    std::fs::write(&b, "secret\n").unwrap();
    let folder = open_dir(rustix::fs::CWD, d.path(), false).unwrap();
    let at = folder.as_fd();
    let name = OsStr::new("pack.toml");
    // Control: the regular file the listing showed is read.
    let (fd, stat) = open_regular(at, name).unwrap();
    assert_eq!(
        read_bounded(fd, stat.st_size as u64).unwrap().0,
        b"name = \"a\"\n"
    );
    std::fs::remove_file(&a).unwrap();
    std::os::unix::fs::symlink(&b, &a).unwrap();
    let err = open_regular(at, name).unwrap_err();
    assert!(
        err.to_string().contains("changed while it was read"),
        "a link is never followed: {err}"
    );
    assert_eq!(read_named(at, name).unwrap(), None, "nor read first");
    std::fs::remove_file(&a).unwrap();
    std::fs::create_dir(&a).unwrap();
    assert!(
        open_regular(at, name).is_err(),
        "not a regular file: never read"
    );
}

#[test]
fn pack_toml_read_first_must_be_the_file_the_look_found() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("pack.toml"), "name = \"a\"\n").unwrap();
    let folder = open_dir(rustix::fs::CWD, d.path(), false).unwrap();
    let first = read_named(folder.as_fd(), OsStr::new("pack.toml"))
        .unwrap()
        .unwrap();
    assert_eq!(first.bytes, b"name = \"a\"\n");
    assert!(first.complete);
    // The same file by another name is another look: control that the inode is what is kept.
    let again = rustix::fs::statat(folder.as_fd(), "pack.toml", AtFlags::empty()).unwrap();
    assert_eq!(first.ino, again.st_ino);
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
