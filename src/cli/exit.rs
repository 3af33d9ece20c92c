//! Exit codes and the printer: the one place that decides what the process returns and writes
//! to standard output.

use std::io::Write;

/// Exit codes (docs/exit-codes.md): 0 clean, 1 findings, 2 usage, 3 internal error.
pub(crate) const EXIT_OK: i32 = 0;
pub(crate) const EXIT_FINDINGS: i32 = 1;
pub(crate) const EXIT_USAGE: i32 = 2;
/// The exit code of an internal error (a bug): the process prints one line and exits with it.
pub const EXIT_INTERNAL: i32 = 3;

/// Standard output for the commands' writers: a closed pipe (`| head`) is not an error.
pub(crate) struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match std::io::stdout().lock().write_all(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(buf.len()),
            r => r.map(|_| buf.len()),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match std::io::stdout().lock().flush() {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            r => r,
        }
    }
}

/// Writes to standard output; a closed pipe is not an error.
pub(crate) fn print(text: &str) -> anyhow::Result<()> {
    Ok(Stdout
        .write_all(text.as_bytes())
        .and_then(|_| Stdout.flush())?)
}
