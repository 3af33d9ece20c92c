//! The walk looks at an entry before it opens it. A FIFO,
//! a character device, a socket or a symbolic link named `pack.toml` (or any pack file) gets its
//! diagnostic and is never opened: Linux's inotify reports every open of the entry (or of a
//! link's target), and the test fails on any.

use crate::common;

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Watches one path for opens (IN_OPEN) until dropped.
struct OpenWatch {
    fd: i32,
}

impl OpenWatch {
    fn new(path: &Path) -> OpenWatch {
        let c = CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: plain syscalls on a descriptor this value owns; `c` outlives the call.
        let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        assert!(fd >= 0, "inotify_init1");
        let wd = unsafe { libc::inotify_add_watch(fd, c.as_ptr(), libc::IN_OPEN) };
        assert!(wd >= 0, "inotify_add_watch {}", path.display());
        OpenWatch { fd }
    }

    /// Whether the path was opened since the watch began (or the last call).
    fn opened(&self) -> bool {
        let mut buf = [0u8; 4096];
        // SAFETY: reads into a buffer of the length given.
        let n = unsafe { libc::read(self.fd, buf.as_mut_ptr().cast(), buf.len()) };
        n > 0
    }
}

impl Drop for OpenWatch {
    fn drop(&mut self) {
        // SAFETY: closes the descriptor this value owns, once.
        unsafe { libc::close(self.fd) };
    }
}

fn pack(dir: &Path) -> PathBuf {
    common::copy_pack("decision-log", dir, "decision-log")
}

/// `check` then `test` over the pack: both outputs, and whether `watched` was opened.
fn run_watched(dir: &Path, watched: &Path) -> (String, bool) {
    let watch = OpenWatch::new(watched);
    assert!(!watch.opened(), "nothing opened it yet");
    let mut all = String::new();
    for cmd in ["check", "test"] {
        let (code, out, err) = common::run(dir, &[cmd, "decision-log"]);
        assert_eq!(code, 1, "{cmd}: {out}{err}");
        all.push_str(&out);
        all.push_str(&err);
    }
    (all, watch.opened())
}

/// Replaces `file` of the pack by a special entry made by `make`; `None` when it cannot be made
/// here (a device needs root).
fn special(file: &str, make: impl FnOnce(&Path) -> bool) -> Option<(tempfile::TempDir, PathBuf)> {
    let d = tempfile::tempdir().unwrap();
    let p = pack(d.path()).join(file);
    std::fs::remove_file(&p).unwrap();
    make(&p).then_some((d, p))
}

fn fifo(p: &Path) -> bool {
    let c = CString::new(p.as_os_str().as_bytes()).unwrap();
    // SAFETY: mkfifo on a path string that outlives the call.
    unsafe { libc::mkfifo(c.as_ptr(), 0o644) == 0 }
}

fn null_device(p: &Path) -> bool {
    let c = CString::new(p.as_os_str().as_bytes()).unwrap();
    // SAFETY: mknod on a path string that outlives the call; /dev/null's numbers (1, 3).
    unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 3)) == 0 }
}

#[test]
fn a_fifo_named_pack_toml_or_a_pack_file_is_never_opened() {
    for file in ["pack.toml", "prompts/decision-log.md"] {
        let (d, p) = special(file, fifo).unwrap();
        let (out, opened) = run_watched(d.path(), &p);
        assert!(!opened, "the FIFO {file} was opened:\n{out}");
        assert!(
            out.contains(&format!("error {file}: not a regular file or folder\n")),
            "{out}"
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "privileged"),
    ignore = "mknod of a device needs root: .ci/run turns on the feature privileged as root"
)]
fn a_device_named_pack_toml_or_a_pack_file_is_never_opened() {
    for file in ["pack.toml", "prompts/decision-log.md"] {
        let (d, p) =
            special(file, null_device).expect("mknod of a device (the feature privileged)");
        let (out, opened) = run_watched(d.path(), &p);
        assert!(!opened, "the device {file} was opened:\n{out}");
        assert!(out.contains(&format!("error {file}: not a regular file or folder\n")));
    }
}

#[test]
fn a_socket_or_a_link_named_pack_toml_is_reported_and_its_target_never_opened() {
    let (d, p) = special("pack.toml", |p| {
        std::os::unix::net::UnixListener::bind(p)
            .map(std::mem::forget)
            .is_ok()
    })
    .unwrap();
    let (code, out, err) = common::run(d.path(), &["check", "decision-log"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("error pack.toml: not a regular file or folder\n"),
        "{out}"
    );
    assert!(
        !out.contains("No such device"),
        "never opened, so no OS error: {out}"
    );
    drop(p);
    let target = d.path().join("elsewhere.toml");
    std::fs::copy(pack(&d.path().join("copy")).join("pack.toml"), &target).unwrap();
    let (d2, link) = special("pack.toml", |p| {
        std::os::unix::fs::symlink(&target, p).is_ok()
    })
    .unwrap();
    let (out, opened) = run_watched(d2.path(), &target);
    assert!(!opened, "the link's target was opened:\n{out}");
    assert!(out.contains("error pack.toml: symbolic link\n"), "{out}");
    drop(link);
}

#[test]
fn control_the_watch_sees_an_open_and_a_plain_pack_toml_is_read() {
    let d = tempfile::tempdir().unwrap();
    let manifest = pack(d.path()).join("pack.toml");
    let watch = OpenWatch::new(&manifest);
    let (code, out, err) = common::run(d.path(), &["check", "decision-log"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        watch.opened(),
        "a regular pack.toml is opened, and the watch sees it"
    );
}

/// An overlay mount, unmounted when dropped.
struct Overlay(PathBuf);

impl Drop for Overlay {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

/// On an overlay whose layers lie on two file systems, a folder listing gives other inode
/// numbers than `fstat` for files copied up to the upper layer: the walk must still read them
/// (it looks at the name again), not call them changed.
#[test]
#[cfg_attr(
    not(feature = "privileged"),
    ignore = "mounting an overlay needs root and /dev/shm: .ci/run turns on the feature privileged as root"
)]
fn a_pack_on_an_overlay_over_two_file_systems_is_read() {
    use std::os::unix::fs::MetadataExt;
    let lower = tempfile::tempdir_in("/dev/shm").expect("a folder in /dev/shm");
    let top = tempfile::tempdir().unwrap();
    let dev = |p: &Path| std::fs::metadata(p).map(|m| m.dev()).unwrap_or(0);
    assert_ne!(
        dev(lower.path()),
        dev(top.path()),
        "/dev/shm and the temporary folder must be two file systems"
    );
    pack(lower.path());
    let (upper, work, merged) = (
        top.path().join("u"),
        top.path().join("w"),
        top.path().join("m"),
    );
    for d in [&upper, &work, &merged] {
        std::fs::create_dir(d).unwrap();
    }
    let options = format!(
        "lowerdir={},upperdir={},workdir={}",
        lower.path().display(),
        upper.display(),
        work.display()
    );
    let mounted = std::process::Command::new("mount")
        .args(["-t", "overlay", "overlay", "-o", &options])
        .arg(&merged)
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(mounted, "mount -t overlay (root and CAP_SYS_ADMIN)");
    let _guard = Overlay(merged.clone());
    // Copied up: the listing's number and the file's differ from here on.
    let readme = merged.join("decision-log/README.md");
    let text = std::fs::read_to_string(&readme).unwrap();
    std::fs::write(&readme, text).unwrap();
    let (code, out, err) = common::run(&merged, &["check", "decision-log"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "ok decision-log 1.0.0\n");
}
