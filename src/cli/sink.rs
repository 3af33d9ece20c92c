//! Where a report goes: standard output, or with `--output-file FILE` a file, written once the
//! report is whole (through `core::safe_write`, never through a link), so a run that fails
//! leaves the file as it was.

use std::io::Write;
use std::path::PathBuf;

use super::exit::Stdout;

/// The report's destination.
pub(crate) enum Sink {
    /// Standard output, as it is made.
    Stdout,
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
            None => Sink::Stdout,
        }
    }

    /// Whether the report goes to a terminal's standard output (colour may apply).
    pub(crate) fn is_stdout(&self) -> bool {
        matches!(self, Sink::Stdout)
    }

    /// Adds text to the report.
    pub(crate) fn print(&mut self, text: &str) -> anyhow::Result<()> {
        match self {
            Sink::Stdout => super::exit::print(text),
            Sink::File { bytes, .. } => {
                bytes.extend_from_slice(text.as_bytes());
                Ok(())
            }
        }
    }

    /// The writer a streamed format writes to.
    pub(crate) fn writer(&mut self) -> Box<dyn Write + '_> {
        match self {
            Sink::Stdout => Box::new(Stdout),
            Sink::File { bytes, .. } => Box::new(bytes),
        }
    }

    /// Writes the file, when the report goes to one.
    pub(crate) fn finish(self) -> anyhow::Result<()> {
        match self {
            Sink::Stdout => Ok(()),
            Sink::File { path, bytes } => crate::core::safe_write::write_atomic(&path, &bytes)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display())),
        }
    }
}
