//! What redaction costs within `check`, over a registry (a benchmark that prints, never a timed
//! assertion).
//!
//! ```text
//! python3 scripts/gen_registry.py /tmp/reg --packs 500
//! HIPPO_BENCH_REGISTRY=/tmp/reg/packs cargo bench --bench redaction
//! ```
//!
//! Loads every pack once, then times, on one thread and best of five: every rule
//! (`rules::run`), the redaction rule alone, and `redact()` over every file (what `test`
//! does to transcripts).

use std::time::{Duration, Instant};

fn best_of<T>(n: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..n {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed());
        last = Some(r);
    }
    (best, last.expect("n > 0"))
}

fn main() {
    let Some(root) = std::env::var_os("HIPPO_BENCH_REGISTRY") else {
        eprintln!("set HIPPO_BENCH_REGISTRY to a folder of packs (see benches/redaction.rs)");
        return;
    };
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("a readable registry folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let t = Instant::now();
    let packs: Vec<_> = dirs
        .iter()
        .map(|d| hippo_packs::pack::walk::load(d).expect("a loadable pack"))
        .collect();
    let load = t.elapsed();
    // The automaton and the table's patterns are built once per process, before any timing.
    hippo_packs::secrets::warm();
    let files: usize = packs.iter().map(|p| p.files().len()).sum();
    let bytes: usize = packs
        .iter()
        .flat_map(|p| p.files())
        .map(|f| f.bytes.len())
        .sum();

    let (all, findings) = best_of(5, || {
        packs
            .iter()
            .map(|p| hippo_packs::rules::run(p).diagnostics.len())
            .sum::<usize>()
    });
    let (redaction, found) = best_of(5, || {
        let mut out = Vec::new();
        for p in &packs {
            hippo_packs::rules::redaction::check(p, &mut out);
        }
        out.len()
    });
    let (full, matches) = best_of(5, || {
        packs
            .iter()
            .flat_map(|p| p.files())
            .filter_map(|f| f.text())
            .map(|t| hippo_packs::secrets::redact(t).matches.len())
            .sum::<usize>()
    });
    let mb = bytes as f64 / 1e6;
    println!(
        "{} packs, {files} files, {mb:.1} MB (loaded in {:.0} ms)",
        packs.len(),
        load.as_secs_f64() * 1e3
    );
    println!(
        "all rules:       {:7.1} ms  ({findings} findings)",
        all.as_secs_f64() * 1e3
    );
    println!(
        "redaction rule:  {:7.1} ms  ({found} findings, {:.0} MB/s, {:.1}% of all rules, {:.1}% of load + rules)",
        redaction.as_secs_f64() * 1e3,
        mb / redaction.as_secs_f64(),
        100.0 * redaction.as_secs_f64() / all.as_secs_f64(),
        100.0 * redaction.as_secs_f64() / (all + load).as_secs_f64()
    );
    println!(
        "redact() all:    {:7.1} ms  ({matches} matches, {:.0} MB/s)",
        full.as_secs_f64() * 1e3,
        mb / full.as_secs_f64()
    );
}
