//! Where a report goes: standard output through a buffer, or with `--output-file FILE` a file,
//! written once the report is whole (through `system::safe_write`, never through a link), so a run
//! that fails leaves the file as it was.

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use super::exit::Stdout;

/// The report's destination; the renderers write to it (`io::Write`).
pub(crate) enum Sink {
    /// Standard output, as it is made (written out at least at each [`Write::flush`]).
    Stdout(BufWriter<Stdout>),
    /// A file, with the report so far.
    File { path: PathBuf, bytes: Vec<u8> },
}

impl Sink {
    /// `--output-file`'s file, or standard output.
    pub(crate) fn new(file: Option<&std::path::Path>) -> Sink {
        match file {
            Some(p) => Sink::File {
                path: p.to_path_buf(),
                bytes: Vec::new(),
            },
            None => Sink::stdout(),
        }
    }

    /// Standard output.
    pub(crate) fn stdout() -> Sink {
        Sink::Stdout(BufWriter::new(Stdout))
    }

    /// Whether the report goes to a terminal's standard output (colour may apply).
    pub(crate) fn is_stdout(&self) -> bool {
        matches!(self, Sink::Stdout(_))
    }

    /// Adds text to the report.
    pub(crate) fn print(&mut self, text: &str) -> anyhow::Result<()> {
        Ok(self.write_all(text.as_bytes())?)
    }

    /// Writes the rest out: standard output's buffer, or the file, when the report goes to one.
    pub(crate) fn finish(self) -> anyhow::Result<()> {
        match self {
            Sink::Stdout(mut out) => Ok(out.flush()?),
            Sink::File { path, bytes } => crate::system::safe_write::write_atomic(&path, &bytes)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display())),
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::Stdout(out) => out.write(buf),
            Sink::File { bytes, .. } => bytes.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Sink::Stdout(out) => out.write_all(buf),
            Sink::File { bytes, .. } => bytes.write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Stdout(out) => out.flush(),
            Sink::File { .. } => Ok(()),
        }
    }
}
