//! `check`: load each pack, run the rules, build its report. Packs are checked in parallel
//! across cores; the reports keep the order the folders were given in.

use crate::core::Diagnostic;
use crate::model::Documents;
use crate::outcome::PackReport;
use crate::pack::{Pack, walk};
use crate::rules::{self, layout};

/// A loaded and checked pack, for `test` to reuse (its skipped entries and diagnostics moved
/// into the report).
pub struct Loaded {
    /// The pack as the walk read it.
    pub pack: Pack,
    /// Its documents, parsed once before the rules, without the parses (`Documents::detach`).
    pub(crate) documents: Documents<'static>,
}

/// Checks one folder. `prefix` is what the text output puts before its paths.
pub fn check_dir(dir: &str, prefix: String) -> (PackReport, Option<Loaded>) {
    let (report, loaded) = check_dir_with(dir, prefix, |_, _, _| ());
    (report, loaded.map(|(l, ())| l))
}

/// [`check_dir`], and `then` called with the report, the pack and its documents while their
/// parses are there (what `--fix` plans from).
pub(crate) fn check_dir_with<R>(
    dir: &str,
    prefix: String,
    then: impl FnOnce(&PackReport, &Pack, &Documents<'_>) -> R,
) -> (PackReport, Option<(Loaded, R)>) {
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
        Ok(pack) => {
            let (report, loaded) = judge(report, pack, then);
            (report, Some(loaded))
        }
    }
}

/// Checks a pack already read (the language server's: the disk's files with an editor's unsaved
/// text in place of those it holds open), as [`check_dir`] checks the one it reads.
pub(crate) fn check_pack(dir: &str, pack: Pack) -> (PackReport, Loaded) {
    let report = PackReport {
        dir: dir.to_string(),
        uri_base: crate::core::paths::uri_base(dir, None),
        ..PackReport::default()
    };
    let (report, (loaded, ())) = judge(report, pack, |_, _, _| ());
    (report, loaded)
}

/// The rules' findings of a pack read, in its report.
fn judge<R>(
    mut report: PackReport,
    mut pack: Pack,
    then: impl FnOnce(&PackReport, &Pack, &Documents<'_>) -> R,
) -> (PackReport, (Loaded, R)) {
    report.kind = Some(pack.kind);
    // Moved, not copied: `test` reads the files, passes, cases and transcripts only.
    report.skipped = std::mem::take(&mut pack.skipped);
    report.hidden_folders = std::mem::take(&mut pack.hidden_folders);
    let documents = Documents::read(&pack);
    report.diagnostics = rules::judge(&pack, &documents);
    if let Some(m) = &documents.manifest {
        report.name = m.name.clone();
        report.version = m.version.clone();
    }
    let r = then(&report, &pack, &documents);
    let documents = documents.detach();
    (report, (Loaded { pack, documents }, r))
}

/// How far ahead of the oldest result not yet handed on a worker may start an item, per
/// thread: memory holds at most this many finished results per thread, however many items
/// there are.
const AHEAD_PER_THREAD: usize = 8;

/// Runs `f` over `items` on every core and hands each result to `sink` in the items' order, as
/// soon as it and every earlier one are done. A worker starts an item only while it is less
/// than a window ahead of the oldest result not yet handed on, so memory holds a bounded number
/// of results (the window), never all of them: peak memory is flat in the number of items.
///
/// The calling thread is one of the workers (one thread fewer to start and to wake): between
/// its own items it takes the others' results without waiting and hands on what is in order,
/// and it waits only at the window's edge and at the end (docs/performance.md, "Parallelism").
pub(crate) fn parallel_ordered<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(usize, &T) -> R + Sync,
    sink: impl FnMut(R),
) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    ordered_on(threads, threads * AHEAD_PER_THREAD, items, f, sink)
}

/// [`parallel_ordered`] on `threads` threads (at most one an item) with a `window` of items a
/// worker may start ahead of the oldest result not yet handed on.
fn ordered_on<T: Sync, R: Send>(
    threads: usize,
    window: usize,
    items: &[T],
    f: impl Fn(usize, &T) -> R + Sync,
    sink: impl FnMut(R),
) {
    let threads = threads.min(items.len().max(1));
    if threads <= 1 {
        let mut sink = sink;
        for (i, t) in items.iter().enumerate() {
            sink(f(i, t));
        }
        return;
    }
    let shared = Shared {
        next: std::sync::atomic::AtomicUsize::new(0),
        window,
        handed: std::sync::Mutex::new(Handed::default()),
        cv: std::sync::Condvar::new(),
    };
    let (tx, rx) = std::sync::mpsc::channel::<(usize, R)>();
    std::thread::scope(|s| {
        for _ in 1..threads {
            let tx = tx.clone();
            let (shared, f) = (&shared, &f);
            s.spawn(move || {
                while let Some(i) = shared.claim(items.len()) {
                    shared.wait_for_window(i);
                    if tx.send((i, f(i, &items[i]))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut order = InOrder {
            pending: std::collections::BTreeMap::new(),
            want: 0,
            sink,
            shared: &shared,
        };
        while let Some(i) = shared.claim(items.len()) {
            // Never more than a window ahead of the oldest result not handed on.
            while i >= order.want + shared.window {
                let Ok((j, r)) = rx.recv() else { return };
                order.put(j, r);
            }
            order.put(i, f(i, &items[i]));
            while let Ok((j, r)) = rx.try_recv() {
                order.put(j, r);
            }
        }
        for (j, r) in rx {
            order.put(j, r);
        }
    });
}

/// What the workers share: the next item to claim, the window, and how far the results have
/// been handed on (with the workers waiting for it to move).
struct Shared {
    next: std::sync::atomic::AtomicUsize,
    window: usize,
    handed: std::sync::Mutex<Handed>,
    cv: std::sync::Condvar,
}

/// The index of the oldest result not yet handed on, and how many workers wait for it to move.
#[derive(Default)]
struct Handed {
    want: usize,
    waiting: usize,
}

impl Shared {
    /// The next item no worker has claimed.
    fn claim(&self, len: usize) -> Option<usize> {
        let i = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        (i < len).then_some(i)
    }

    /// Waits until item `i` is within the window.
    fn wait_for_window(&self, i: usize) {
        let mut h = self.handed.lock().unwrap_or_else(|e| e.into_inner());
        while i >= h.want + self.window {
            h.waiting += 1;
            h = self.cv.wait(h).unwrap_or_else(|e| e.into_inner());
            h.waiting -= 1;
        }
    }

    /// The results are handed on up to `want`: a waiting worker is woken (none waiting, no
    /// wake-up is sent).
    fn handed_to(&self, want: usize) {
        let mut h = self.handed.lock().unwrap_or_else(|e| e.into_inner());
        h.want = want;
        if h.waiting > 0 {
            self.cv.notify_all();
        }
    }
}

/// The results not yet handed on, and the sink they go to in order.
struct InOrder<'s, R, S> {
    pending: std::collections::BTreeMap<usize, R>,
    want: usize,
    sink: S,
    shared: &'s Shared,
}

impl<R, S: FnMut(R)> InOrder<'_, R, S> {
    /// Keeps result `i` and hands on every result now in order.
    fn put(&mut self, i: usize, r: R) {
        self.pending.insert(i, r);
        let before = self.want;
        while let Some(r) = self.pending.remove(&self.want) {
            (self.sink)(r);
            self.want += 1;
        }
        if self.want != before {
            self.shared.handed_to(self.want);
        }
    }
}

/// Runs `f` over `items` on every core, returning the results in the items' order.
pub(crate) fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let mut out = Vec::with_capacity(items.len());
    parallel_ordered(items, f, |r| out.push(r));
    out
}

/// The text prefix of a pack's paths: nothing with one folder, `<dir>/` with several.
pub(crate) fn prefix_for(dir: &str, several: bool) -> String {
    if several {
        format!("{}/", dir.trim_end_matches('/'))
    } else {
        String::new()
    }
}

/// Checks every folder (in parallel) and hands each report to `sink` in the order given, as
/// soon as it can: a registry run streams its output in flat memory.
pub(crate) fn check_each(dirs: &[String], sink: impl FnMut(PackReport)) {
    check_each_of(dirs, dirs.len() > 1, sink)
}

/// [`check_each`] of packs that are part of a larger run: `several` says whether the run has
/// several packs (their paths are prefixed), however many `dirs` holds.
pub(crate) fn check_each_of(dirs: &[String], several: bool, sink: impl FnMut(PackReport)) {
    parallel_ordered(dirs, |_, d| check_dir(d, prefix_for(d, several)).0, sink)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    use std::time::{Duration, Instant};

    /// Runs 500 items on `threads` threads with `window`, the first item holding until `window`
    /// items have started (then a little longer, time for one more to start if the window let
    /// it): how far ahead of the oldest result not yet handed on an item started, at most.
    fn furthest_ahead(threads: usize, window: usize) -> usize {
        let items: Vec<usize> = (0..500).collect();
        let (started, handed, ahead) = (
            AtomicUsize::new(0),
            AtomicUsize::new(0),
            AtomicUsize::new(0),
        );
        let mut out = Vec::new();
        let f = |i: usize, x: &usize| {
            started.fetch_add(1, SeqCst);
            ahead.fetch_max(i - handed.load(SeqCst).min(i), SeqCst);
            if i == 0 {
                let t = Instant::now();
                while started.load(SeqCst) < window.min(items.len())
                    && t.elapsed() < Duration::from_secs(10)
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            x * 2
        };
        ordered_on(threads, window, &items, f, |r| {
            out.push(r);
            handed.fetch_add(1, SeqCst);
        });
        assert_eq!(
            out,
            items.iter().map(|x| x * 2).collect::<Vec<_>>(),
            "the items' order"
        );
        ahead.into_inner()
    }

    /// Whatever the machine's core count: four threads, and the first item slow, so without the
    /// window every other item would start before it is handed on.
    #[test]
    fn a_worker_never_starts_an_item_a_window_ahead() {
        assert_eq!(
            furthest_ahead(4, 32),
            31,
            "items 1 to 31 start, item 32 waits"
        );
        assert_eq!(furthest_ahead(2, 3), 2);
        // control: a window as large as the items lets every item start while the first holds,
        // and the measure sees it
        assert_eq!(furthest_ahead(4, 500), 499);
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
