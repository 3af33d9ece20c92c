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
        uri_base: crate::core::paths::uri_base(dir, None),
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
            report.hidden_folders = std::mem::take(&mut pack.hidden_folders);
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
    check_each_of(dirs, dirs.len() > 1, sink)
}

/// [`check_each`] of packs that are part of a larger run: `several` says whether the run has
/// several packs (their paths are prefixed), however many `dirs` holds.
pub fn check_each_of(dirs: &[String], several: bool, sink: impl FnMut(PackReport)) {
    parallel_ordered(dirs, |_, d| check_dir(d, prefix_for(d, several)).0, sink)
}

#[cfg(test)]
mod tests {
    use super::*;

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
