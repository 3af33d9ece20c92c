//! The parsed documents of a pack, with spans, knowing nothing of rules: the manifest's kind,
//! pass files, prompts' placeholders, fixture cases, transcripts (both formats), timestamps, the
//! TOML reader that keeps spans, the one reading of a TOML table against its declared keys
//! (`schema`), the decoded strings of TOML, JSON and CSS, the redaction detectors, and the
//! documents a check parsed of one pack ([`Documents`]).

pub mod case;
pub mod decode;
pub mod documents;
pub mod manifest;
pub mod pass;
pub mod prompt;
pub mod redact;
pub mod schema;
pub mod time;
pub mod toml_spans;
pub mod transcript;

pub use documents::Documents;
