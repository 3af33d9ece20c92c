//! `check`: load each pack, run the rules, build its report. Packs are checked in parallel
//! across cores; the reports keep the order the folders were given in.

use crate::core::Diagnostic;
use crate::outcome::PackReport;
use crate::pack::{Pack, walk};
use crate::rules::{self, Checked, layout};

/// A loaded and checked pack, for `test` to reuse (its skipped entries and diagnostics moved
/// into the report).
pub struct Loaded {
    pub pack: Pack,
    pub checked: Checked,
}

/// Checks one folder. `prefix` is what the text output puts before its paths.
pub fn check_dir(dir: &str, prefix: String) -> (PackReport, Option<Loaded>) {
    let mut report = PackReport {
        dir: dir.to_string(),
        prefix,
        uri_base: uri_base(dir),
        ..PackReport::default()
    };
    match walk::load(std::path::Path::new(dir)) {
        Err(err) => {
            // `error nowhere: No such file or directory (os error 2)`: the folder as given.
            report.prefix.clear();
            report.diagnostics.push(
                Diagnostic::file(&layout::UNREADABLE, dir, err.to_string()).pointing_at(None, None),
            );
            (report, None)
        }
        Ok(mut pack) => {
            let mut checked = rules::run(&pack);
            report.kind = Some(pack.kind);
            // Moved, not copied: `test` reads the files, passes, cases and transcripts only.
            report.skipped = std::mem::take(&mut pack.skipped);
            report.diagnostics = std::mem::take(&mut checked.diagnostics);
            if let Some(m) = &checked.manifest {
                report.name = m.name.clone();
                report.version = m.version.clone();
            }
            (report, Some(Loaded { pack, checked }))
        }
    }
}

/// How far ahead of the oldest result not yet handed on a worker may start an item, per
/// thread: memory holds at most this many finished results per thread, however many items
/// there are.
const AHEAD_PER_THREAD: usize = 8;

/// Runs `f` over `items` on every core and hands each result to `sink` in the items' order, as
/// soon as it and every earlier one are done. A worker starts an item only while it is less
/// than a window ahead of the oldest result not yet handed on, so memory holds a bounded number
/// of results (the window), never all of them: peak memory is flat in the number of items.
pub fn parallel_ordered<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(usize, &T) -> R + Sync,
    mut sink: impl FnMut(R),
) {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(items.len().max(1));
    if threads <= 1 {
        for (i, t) in items.iter().enumerate() {
            sink(f(i, t));
        }
        return;
    }
    let window = threads * AHEAD_PER_THREAD;
    let next = std::sync::atomic::AtomicUsize::new(0);
    // The index of the oldest result not yet handed on; workers wait on it.
    let handed = (std::sync::Mutex::new(0usize), std::sync::Condvar::new());
    let (tx, rx) = std::sync::mpsc::channel::<(usize, R)>();
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, f, handed) = (&next, &f, &handed);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= items.len() {
                        break;
                    }
                    let (lock, cv) = handed;
                    let mut want = lock.lock().unwrap_or_else(|e| e.into_inner());
                    while i >= *want + window {
                        want = cv.wait(want).unwrap_or_else(|e| e.into_inner());
                    }
                    drop(want);
                    if tx.send((i, f(i, &items[i]))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = std::collections::BTreeMap::new();
        let mut want = 0;
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&want) {
                sink(r);
                want += 1;
                let (lock, cv) = &handed;
                *lock.lock().unwrap_or_else(|e| e.into_inner()) = want;
                cv.notify_all();
            }
        }
    });
}

/// Runs `f` over `items` on every core, returning the results in the items' order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let mut out = Vec::with_capacity(items.len());
    parallel_ordered(items, f, |r| out.push(r));
    out
}

/// The text prefix of a pack's paths: nothing with one folder, `<dir>/` with several.
pub fn prefix_for(dir: &str, several: bool) -> String {
    if several {
        format!("{}/", dir.trim_end_matches('/'))
    } else {
        String::new()
    }
}

/// Checks every folder (in parallel), reports in the order given.
pub fn check_all(dirs: &[String]) -> Vec<PackReport> {
    let mut out = Vec::with_capacity(dirs.len());
    check_each(dirs, |r| out.push(r));
    out
}

/// Checks every folder (in parallel) and hands each report to `sink` in the order given, as
/// soon as it can: a registry run streams its output in flat memory.
pub fn check_each(dirs: &[String], sink: impl FnMut(PackReport)) {
    let several = dirs.len() > 1;
    parallel_ordered(dirs, |_, d| check_dir(d, prefix_for(d, several)).0, sink)
}

/// The folder as SARIF names it (docs/output-formats.md): relative to the root of the
/// repository that holds it (the nearest folder above it, or itself, with a `.git`), else to the
/// working folder; `/`-separated, no `./`, no `..`, no trailing `/` (empty: that root itself).
/// A folder outside both is its absolute path, starting with `/` (SARIF makes it a `file://`
/// URI).
pub fn uri_base(dir: &str) -> String {
    let cwd = working_folder();
    let Some(abs) = absolute(dir, cwd.as_deref()) else {
        return clean(std::path::Path::new(dir));
    };
    let root = cached_root(&abs).or_else(|| cwd.filter(|c| abs.starts_with(c)));
    match root.and_then(|r| abs.strip_prefix(&r).ok().map(clean)) {
        Some(rel) => rel,
        None => clean(&abs),
    }
}

/// The working folder, through links, read once: a registry run names hundreds of folders under
/// the same one.
fn working_folder() -> Option<std::path::PathBuf> {
    static CWD: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    CWD.get_or_init(|| {
        let cwd = std::env::current_dir().ok()?;
        Some(std::fs::canonicalize(&cwd).unwrap_or(cwd))
    })
    .clone()
}

/// The folder's absolute path: through links when it exists, else joined to the working
/// folder. A folder that is not itself a link is its parent's absolute path (looked up once per
/// parent) joined with its name.
fn absolute(dir: &str, cwd: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
    let path = std::path::Path::new(dir);
    let last_is_name = matches!(
        path.components().next_back(),
        Some(std::path::Component::Normal(_))
    );
    if last_is_name
        && let (Some(parent), Some(name)) = (path.parent(), path.file_name())
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
        && let Some(p) = cached_parent(parent)
    {
        return Some(p.join(name));
    }
    if let Ok(p) = std::fs::canonicalize(path) {
        return Some(p);
    }
    if path.is_absolute() {
        return Some(path.to_path_buf());
    }
    let cwd = cwd?;
    Some(cwd.join(path))
}

type Memo =
    std::sync::Mutex<std::collections::HashMap<std::path::PathBuf, Option<std::path::PathBuf>>>;

/// `f(key)`, remembered for the run (the file system is only read).
fn memo(
    table: &'static std::sync::OnceLock<Memo>,
    key: &std::path::Path,
    f: impl FnOnce() -> Option<std::path::PathBuf>,
) -> Option<std::path::PathBuf> {
    let table = table.get_or_init(Default::default);
    if let Some(v) = table.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
        return v.clone();
    }
    let v = f();
    table
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key.to_path_buf(), v.clone());
    v
}

/// A parent folder through links (`""`: the working folder), once per parent.
fn cached_parent(parent: &std::path::Path) -> Option<std::path::PathBuf> {
    static PARENTS: std::sync::OnceLock<Memo> = std::sync::OnceLock::new();
    let parent = if parent.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        parent
    };
    memo(&PARENTS, parent, || std::fs::canonicalize(parent).ok())
}

/// [`repository_root`] of a folder: its own `.git` looked up each time, its parent's answer
/// remembered (a registry's packs share their parents).
fn cached_root(abs: &std::path::Path) -> Option<std::path::PathBuf> {
    static ROOTS: std::sync::OnceLock<Memo> = std::sync::OnceLock::new();
    if abs.join(".git").symlink_metadata().is_ok() {
        return Some(abs.to_path_buf());
    }
    let parent = abs.parent()?;
    memo(&ROOTS, parent, || repository_root(parent))
}

/// The nearest folder at or above `abs` that holds a `.git` (a folder, or a file in a worktree
/// or submodule).
pub fn repository_root(abs: &std::path::Path) -> Option<std::path::PathBuf> {
    abs.ancestors()
        .find(|a| a.join(".git").symlink_metadata().is_ok())
        .map(std::path::Path::to_path_buf)
}

/// `/`-separated components, `.` dropped and `..` folded; a leading `/` kept for an absolute
/// path.
fn clean(path: &std::path::Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if parts.last().is_some_and(|p| p != ".." && !p.is_empty()) {
                    parts.pop();
                } else if parts.is_empty() {
                    parts.push("..".into());
                }
            }
            std::path::Component::RootDir => parts.push(String::new()),
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    if parts == [""] {
        return "/".to_string();
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_bases_are_clean() {
        let p = std::path::Path::new;
        assert_eq!(clean(p("./packs/a/")), "packs/a");
        assert_eq!(clean(p(".")), "");
        assert_eq!(clean(p("a/../b")), "b");
        assert_eq!(clean(p("/x/../y")), "/y");
        assert_eq!(clean(p("/")), "/");
        assert_ne!(clean(p("./x")), "./x");
    }

    #[test]
    fn uri_bases_start_at_the_repository_root() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(root.join("repo/.git")).unwrap();
        std::fs::create_dir_all(root.join("repo/packs/a")).unwrap();
        std::fs::create_dir_all(root.join("loose/b")).unwrap();
        let a = root.join("repo/packs/a");
        assert_eq!(uri_base(a.to_str().unwrap()), "packs/a");
        let via_dots = root.join("repo/packs/../packs/a");
        assert_eq!(uri_base(via_dots.to_str().unwrap()), "packs/a");
        // Outside any repository and (unless the tests run from there) the working folder.
        let b = root.join("loose/b");
        let base = uri_base(b.to_str().unwrap());
        assert!(
            base == b.to_str().unwrap() || !base.contains(".."),
            "{base}"
        );
        assert_eq!(repository_root(&a), Some(root.join("repo")));
        assert_eq!(repository_root(&b), None, "control: no .git, no root");
    }

    #[test]
    fn parallel_ordered_never_runs_more_than_a_window_ahead() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let items: Vec<usize> = (0..500).collect();
        let handed = AtomicUsize::new(0);
        let ahead = AtomicUsize::new(0);
        let mut out = Vec::new();
        parallel_ordered(
            &items,
            |i, x| {
                // The first item is slow: without the window every other item would finish first.
                if i == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                ahead.fetch_max(i - handed.load(Ordering::SeqCst).min(i), Ordering::SeqCst);
                x * 2
            },
            |r| {
                out.push(r);
                handed.fetch_add(1, Ordering::SeqCst);
            },
        );
        assert_eq!(out, items.iter().map(|x| x * 2).collect::<Vec<_>>());
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let limit = threads * AHEAD_PER_THREAD;
        assert!(
            ahead.load(Ordering::SeqCst) < limit.max(1),
            "control: an item started {} ahead of the oldest result, window {limit}",
            ahead.load(Ordering::SeqCst)
        );
    }

    #[test]
    fn parallel_map_keeps_order() {
        let items: Vec<usize> = (0..100).collect();
        assert_eq!(
            parallel_map(&items, |_, x| x * 2),
            items.iter().map(|x| x * 2).collect::<Vec<_>>()
        );
    }
}
