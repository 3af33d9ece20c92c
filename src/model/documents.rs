//! The parsed documents of one pack, as the rules read them while they check: what `test`
//! reuses instead of reading the pack again.

use super::case::CaseDef;
use super::manifest::Manifest;
use super::pass::PassDef;
use super::transcript::Transcript;

/// The manifest, pass files, cases and transcripts of a checked pack.
#[derive(Debug)]
pub(crate) struct Documents {
    /// `None` when pack.toml is missing, not UTF-8 or does not parse.
    pub(crate) manifest: Option<Manifest>,
    /// The pass files that parsed, in walk order (pass packs only).
    pub(crate) passes: Vec<PassDef>,
    /// Whether every pass file parsed (the unreferenced warning needs that).
    pub(crate) passes_parsed: bool,
    /// A case for every `tests/<case>/case.toml` read whole as UTF-8, in walk order (pass packs only).
    pub(crate) cases: Vec<CaseDef>,
    /// Every case's transcripts as the transcript rules read them (pass packs only).
    pub(crate) transcripts: Vec<Transcript>,
}

impl Default for Documents {
    /// Nothing read yet: no pass file has failed to parse.
    fn default() -> Self {
        Documents {
            manifest: None,
            passes: Vec::new(),
            passes_parsed: true,
            cases: Vec::new(),
            transcripts: Vec::new(),
        }
    }
}
