//! A pass file (`passes/<name>.toml`) as `test` and the dreaming engine read it, read from its
//! parse ([`read`], with the pack's documents). The rules of its keys and values live in the
//! rules layer (`rules/pass.rs`), which judges the same parse.

use super::schema;
use super::toml_spans::{self, DeTable, DeValue};
use crate::core::Span;

/// The input budget of a pass file that does not set `input_budget_bytes`.
pub(crate) const DEFAULT_INPUT_BUDGET: u64 = 200_000;

/// The most `test` lets one prompt hold: it uses the smaller of `input_budget_bytes` and this
/// (hippo accepts any positive value; a larger one is the `input-budget` warning;
/// docs/testing-packs.md, "Budget").
pub(crate) const INPUT_BUDGET_CAP: u64 = 10_000_000;

/// A parsed pass file. A pass whose file parsed as TOML is listed even when some value breaks
/// its rule (the pack then has errors and `test` runs nothing); string values are kept as
/// written so that, say, a prompt it names still counts as referenced.
#[derive(Debug, Clone, Default)]
pub(crate) struct PassDef {
    /// The pass's name: its file name without `.toml`.
    pub(crate) name: String,
    /// `passes/<name>.toml`.
    pub(crate) path: String,
    /// `prompts/<name>.md` (as written; empty when absent or not a string).
    pub(crate) prompt: String,
    /// Any of sessions, notes, turns, human_confirmed, in file order (the strings as written;
    /// empty when absent or not a list of strings).
    pub(crate) reads: Vec<String>,
    /// `personas/<name>.md` (as written; empty when absent or not a string).
    pub(crate) reviewer: String,
    pub(crate) per_note: bool,
    /// As written; [`DEFAULT_INPUT_BUDGET`] when absent or invalid (`test` uses at most
    /// [`INPUT_BUDGET_CAP`]).
    pub(crate) input_budget_bytes: u64,
    pub(crate) note_types: Vec<String>,
    pub(crate) note_paths: Vec<String>,
    /// Where the `prompt` value stands in the pass file.
    pub(crate) prompt_span: Option<Span>,
    /// Where the `reviewer` value stands.
    pub(crate) reviewer_span: Option<Span>,
    /// Where the `reads` value stands.
    pub(crate) reads_span: Option<Span>,
}

/// The pass `name` of the file at `path`, read from its parse: each value of the type its key
/// declares, strings as written; a key of another type is read as absent.
pub(crate) fn read(name: &str, path: &str, table: &DeTable<'_>) -> PassDef {
    let mut def = PassDef {
        name: name.to_string(),
        path: path.to_string(),
        input_budget_bytes: DEFAULT_INPUT_BUDGET,
        ..PassDef::default()
    };
    let strings = schema::strings;
    for (key, _, v) in schema::fields(table) {
        let (span, value) = (toml_spans::span_of(v), v.get_ref());
        match (key, value) {
            ("prompt", DeValue::String(s)) => {
                (def.prompt, def.prompt_span) = (s.to_string(), Some(span))
            }
            ("reviewer", DeValue::String(s)) => {
                (def.reviewer, def.reviewer_span) = (s.to_string(), Some(span));
            }
            ("reads", _) => {
                if let Some(list) = strings(value) {
                    (def.reads, def.reads_span) = (list, Some(span));
                }
            }
            ("per_note", DeValue::Boolean(b)) => def.per_note = *b,
            ("input_budget_bytes", DeValue::Integer(_)) => {
                if let Some(n) = toml_spans::integer(value).filter(|n| *n > 0) {
                    def.input_budget_bytes = n as u64;
                }
            }
            ("note_types", _) => def.note_types = strings(value).unwrap_or_default(),
            ("note_paths", _) => def.note_paths = strings(value).unwrap_or_default(),
            _ => {}
        }
    }
    def
}

/// The matcher for `note_paths`: glob patterns (`**`, `*`, `?`, `[...]`, `{a,b}`) where `*`
/// and `?` never cross a `/` and `**/` matches any number of folders, including none, so
/// `**/Decision log*.md` matches `notes/Decision log.md`. Matched against a note's workspace
/// path. The error names the first pattern that is not a glob, and why.
pub(crate) fn note_glob<S: AsRef<str>>(patterns: &[S]) -> Result<globset::GlobSet, String> {
    let mut set = globset::GlobSetBuilder::new();
    for p in patterns {
        set.add(one_glob(p.as_ref())?);
    }
    set.build().map_err(|e| e.kind().to_string())
}

pub(crate) fn one_glob(pattern: &str) -> Result<globset::Glob, String> {
    globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|e| format!("{pattern} is not a valid glob: {}", e.kind()))
}
