//! The command line: parse, dispatch, and one place that turns results into an exit code.

use clap::Parser;

mod args;
mod ci_args;
mod commands;
mod config;
mod exit;
mod hints;
mod init;
mod paths;
mod prompts_dir;
mod select;
mod shell;
mod sink;
mod stub_model;
mod targets;

pub(crate) use args::Cli;
pub use exit::EXIT_INTERNAL;
pub(crate) use exit::{EXIT_OK, EXIT_USAGE};

/// Hands the heap pages the argument parser used and freed back to the system. Parsing a
/// registry's thousands of folder names holds about 0.25 KB a name for a moment (clap keeps each
/// value raw and parsed); the worker threads allocate from their own arenas, so without this
/// those freed pages would stay resident for the whole run and peak memory would grow with the
/// number of packs (docs/performance.md, "Memory is flat"). glibc only: musl's allocator (the
/// container's) returns freed pages by itself.
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim(3) only returns free pages of the heap to the kernel; it reads and
    // changes no live allocation, and nothing else runs at this point (no thread is started).
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Runs the command line and returns the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    release_freed_memory();
    // Before any thread starts, so that every thread inherits the blocked signals.
    if let Err(e) = crate::system::interrupt::install() {
        eprintln!("hippo-packs: internal error: cannot wait for signals: {e}");
        return EXIT_INTERNAL;
    }
    match commands::dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            let msg = format!("{e:#}");
            eprintln!(
                "hippo-packs: internal error: {}",
                crate::core::escape::line(&msg)
            );
            EXIT_INTERNAL
        }
    }
}
