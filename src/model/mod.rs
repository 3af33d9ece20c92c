//! The parsed documents of a pack, with spans, knowing nothing of rules: the manifest's kind,
//! pass files, prompts' placeholders, fixture cases, transcripts (both formats), timestamps, the
//! TOML reader that keeps spans, the one reading of a TOML table against its declared keys
//! (`schema`), the decoded strings of TOML, JSON and CSS, and the documents of one pack, parsed
//! once before the rules ([`Documents`]).

pub(crate) mod case;
pub mod decode;
pub(crate) mod documents;
pub(crate) mod front_matter;
pub(crate) mod glob_reach;
pub(crate) mod json;
pub(crate) mod manifest;
pub(crate) mod markdown;
pub(crate) mod pass;
pub(crate) mod prompt;
pub(crate) mod schema;
pub(crate) mod theme;
pub(crate) mod time;
pub mod toml_spans;
pub mod transcript;

pub(crate) use documents::Documents;
