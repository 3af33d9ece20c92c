//! Pass files: every `passes/<name>.toml` has the keys of hippo's page "Writing a pack", each with its rule.
//!
//! The parsed passes ([`PassDef`]) are what the prompt, unreferenced and case rules and the
//! dreaming pass of `test` read. [`note_glob`] is the one place `note_paths` patterns become a
//! matcher, so `check` and `test` agree on what a pattern means.

use super::declare::declare_rules;
use super::layout::{Place, is_name, place};
use crate::core::{Diagnostic, Span};
use crate::model::tomlx::{self, DeTable, DeValue, Spanned};
use crate::pack::{Kind, Pack};

declare_rules! {
    /// A pass file is not valid TOML
    ///
    /// A passes/<name>.toml file must parse as TOML; the finding gives the parser's message at the
    /// place it stopped. While a pass file does not parse, no prompt or persona can be called
    /// unused, so the not-referenced warning is held back.
    ///
    /// How to fix: Fix the TOML at the line and column given.
    pub static PASS_SYNTAX = "pass-syntax", Error, VeryHigh;

    /// A pass file has a key the pass file does not define
    ///
    /// A pass file has exactly protocol, prompt, reads, reviewer, per_note, input_budget_bytes,
    /// note_types and note_paths. Any other key is an error, because hippo would ignore it: a
    /// misspelt filter such as note_type would silently let every note through.
    ///
    /// How to fix: Delete the key, or correct its spelling (note_types, note_paths).
    pub static PASS_UNKNOWN_KEY = "pass-unknown-key", Error, VeryHigh;

    /// A pass file lacks a required key
    ///
    /// protocol, prompt, reads, reviewer and per_note are required in every pass file;
    /// input_budget_bytes, note_types and note_paths are optional.
    ///
    /// How to fix: Add the key; the example pass file on hippo's page "Writing a pack" shows every
    /// one.
    pub static PASS_MISSING_KEY = "pass-missing-key", Error, VeryHigh;

    /// A pass file value that breaks its rule
    ///
    /// protocol is HIPPO_V1; prompt is prompts/<name>.md and reviewer personas/<name>.md, both
    /// files of this pack; reads is a non-empty list, without repeats, of sessions, notes, turns
    /// and human_confirmed; per_note is true or false; input_budget_bytes is a positive integer
    /// (default 200000); note_types is one to five of policy, decision, log, evidence and topic;
    /// note_paths is one to twenty glob patterns (**, *, ?, [...], {a,b}) of at most 200 bytes, not
    /// starting with / and with no .. component, matched against a note's workspace path such as
    /// notes/Decision log.md.
    ///
    /// How to fix: Change the value as the message says.
    pub static PASS_VALUE = "pass-value", Error, VeryHigh;

    /// A pass named verify or consolidate
    ///
    /// A pass's name is its file name. verify and consolidate are the names of core's passes; a
    /// pack's pass of that name would collide with them.
    ///
    /// How to fix: Rename the pass file (and every case.toml that names it).
    pub static RESERVED_PASS_NAME = "reserved-pass-name", Error, VeryHigh;
}

/// Unknown keys before value rules: the page's broken example prints `unknown key note_type`
/// before `note_types: unknown type diary` for the same file.
/// The inputs a pass may read, which are also the only placeholders a prompt may hold.
pub const INPUTS: &[&str] = &["sessions", "notes", "turns", "human_confirmed"];
/// The note types `note_types` may list.
pub const NOTE_TYPES: &[&str] = &["policy", "decision", "log", "evidence", "topic"];
/// Pass names core keeps for itself.
pub const RESERVED: &[&str] = &["verify", "consolidate"];
use crate::model::pass::{DEFAULT_INPUT_BUDGET, PassDef, one_glob};

const REQUIRED: &[&str] = &["protocol", "prompt", "reads", "reviewer", "per_note"];
const OPTIONAL: &[&str] = &["input_budget_bytes", "note_types", "note_paths"];

/// Parses and checks every pass file; the flag says whether every one parsed.
pub fn check(pack: &Pack, out: &mut Vec<Diagnostic>) -> (Vec<PassDef>, bool) {
    let mut passes = Vec::new();
    let mut all_parsed = true;
    for f in &pack.files {
        let Some((Place::Pass, Some(name))) = place(Kind::Pass, &f.path) else {
            continue;
        };
        if RESERVED.contains(&name) {
            out.push(Diagnostic::file(
                &RESERVED_PASS_NAME,
                &f.path,
                format!("{name} is reserved for core"),
            ));
        }
        // Not UTF-8 or over the size limit: the text and size rules report it.
        let Some(text) = f.text() else {
            all_parsed = false;
            continue;
        };
        match tomlx::parse(text) {
            Ok(doc) => passes.push(check_one(pack, name, &f.path, doc.get_ref(), out)),
            Err(e) => {
                all_parsed = false;
                out.push(Diagnostic::at(&PASS_SYNTAX, &f.path, e.span, e.message));
            }
        }
    }
    (passes, all_parsed)
}

fn check_one(
    pack: &Pack,
    name: &str,
    path: &str,
    table: &DeTable<'_>,
    out: &mut Vec<Diagnostic>,
) -> PassDef {
    let mut def = PassDef {
        name: name.to_string(),
        path: path.to_string(),
        input_budget_bytes: DEFAULT_INPUT_BUDGET,
        ..PassDef::default()
    };
    for (k, _) in tomlx::entries(table) {
        let key = k.get_ref().as_ref();
        if !REQUIRED.contains(&key) && !OPTIONAL.contains(&key) {
            out.push(
                Diagnostic::key(
                    &PASS_UNKNOWN_KEY,
                    path,
                    tomlx::span_of(k),
                    format!("unknown key {key}"),
                )
                .with_hint(crate::core::suggest::help(
                    key,
                    &[REQUIRED, OPTIONAL].concat(),
                    "the keys of a pass file",
                )),
            );
        }
    }
    for &key in REQUIRED {
        if tomlx::get(table, key).is_none() {
            out.push(Diagnostic::file(
                &PASS_MISSING_KEY,
                path,
                format!("missing key {key}"),
            ));
        }
    }
    let mut values = Values { pack, path, out };
    for (k, v) in tomlx::entries(table) {
        values.read(&mut def, k.get_ref().as_ref(), v);
    }
    def
}

/// Reads a pass file's values into a [`PassDef`], reporting each bad value where it is.
struct Values<'a> {
    pack: &'a Pack,
    path: &'a str,
    out: &'a mut Vec<Diagnostic>,
}

impl Values<'_> {
    /// A `pass-value` finding on the value (or on `span`, a member of a list).
    fn err(&mut self, v: &Spanned<DeValue<'_>>, span: Option<Span>, key: &str, why: String) {
        self.out.push(Diagnostic::key(
            &PASS_VALUE,
            self.path,
            span.unwrap_or_else(|| tomlx::span_of(v)),
            format!("{key}: {why}"),
        ))
    }

    fn read(&mut self, def: &mut PassDef, key: &str, v: &Spanned<DeValue<'_>>) {
        let value = v.get_ref();
        match key {
            "protocol" if value.as_str() != Some("HIPPO_V1") => {
                self.err(v, None, key, "must be \"HIPPO_V1\"".into());
            }
            "prompt" | "reviewer" => self.file(def, key, v),
            "reads" => self.reads(def, v),
            "per_note" => match value.as_bool() {
                Some(b) => def.per_note = b,
                None => self.err(v, None, key, expected("true or false", value)),
            },
            "input_budget_bytes" => match value {
                DeValue::Integer(_) => match tomlx::integer(value) {
                    Some(n) if n > 0 => def.input_budget_bytes = n as u64,
                    _ => self.err(v, None, key, "must be a positive integer".into()),
                },
                other => self.err(v, None, key, expected("a positive integer", other)),
            },
            "note_types" => self.note_types(def, v),
            "note_paths" => self.note_paths(def, v),
            _ => {}
        }
    }

    /// `prompt` or `reviewer`: a file of `prompts/` or `personas/`.
    fn file(&mut self, def: &mut PassDef, key: &str, v: &Spanned<DeValue<'_>>) {
        let (folder, name, span) = if key == "prompt" {
            ("prompts", &mut def.prompt, &mut def.prompt_span)
        } else {
            ("personas", &mut def.reviewer, &mut def.reviewer_span)
        };
        let Some(s) = v.get_ref().as_str() else {
            return self.err(v, None, key, expected("a string", v.get_ref()));
        };
        if let Some(why) = file_problem(self.pack, folder, s) {
            self.err(v, None, key, why);
        }
        *name = s.to_string();
        *span = Some(tomlx::span_of(v));
    }

    fn reads(&mut self, def: &mut PassDef, v: &Spanned<DeValue<'_>>) {
        let list = match tomlx::string_list(v.get_ref()) {
            Err(e) => return self.err(v, None, "reads", e),
            Ok(list) => list,
        };
        def.reads_span = Some(tomlx::span_of(v));
        def.reads = list.iter().map(|(s, _)| s.to_string()).collect();
        if list.is_empty() {
            self.err(v, None, "reads", "must not be empty".into());
        }
        for (why, span) in members(&list, INPUTS, "input") {
            self.err(v, Some(span), "reads", why);
        }
    }

    fn note_types(&mut self, def: &mut PassDef, v: &Spanned<DeValue<'_>>) {
        let key = "note_types";
        let list = match tomlx::string_list(v.get_ref()) {
            Err(e) => return self.err(v, None, key, e),
            Ok(list) => list,
        };
        def.note_types = list.iter().map(|(s, _)| s.to_string()).collect();
        if !(1..=5).contains(&list.len()) {
            let why = format!("{} types, must be one to five", list.len());
            self.err(v, None, key, why);
        }
        for (why, span) in members(&list, NOTE_TYPES, "type") {
            self.err(v, Some(span), key, why);
        }
    }

    fn note_paths(&mut self, def: &mut PassDef, v: &Spanned<DeValue<'_>>) {
        let key = "note_paths";
        let list = match tomlx::string_list(v.get_ref()) {
            Err(e) => return self.err(v, None, key, e),
            Ok(list) => list,
        };
        def.note_paths = list.iter().map(|(s, _)| s.to_string()).collect();
        if !(1..=20).contains(&list.len()) {
            let why = format!("{} patterns, must be one to twenty", list.len());
            self.err(v, None, key, why);
        }
        for (pattern, span) in &list {
            if let Some(why) = pattern_problem(pattern) {
                self.err(v, Some(*span), key, why);
            }
        }
    }
}

fn expected(what: &str, found: &DeValue<'_>) -> String {
    format!("expected {what}, found {}", tomlx::type_name(found))
}

/// `prompts/<name>.md` (or `personas/`), present in the pack.
fn file_problem(pack: &Pack, folder: &str, value: &str) -> Option<String> {
    let well_formed = value
        .strip_prefix(folder)
        .and_then(|r| r.strip_prefix('/'))
        .and_then(|r| r.strip_suffix(".md"))
        .is_some_and(is_name);
    if !well_formed {
        Some(format!("{value} is not of the form {folder}/<name>.md"))
    } else if pack.file(value).is_none() {
        Some(format!("{value} is not in this pack"))
    } else {
        None
    }
}

/// Items not in `allowed`, and repeats: `unknown type diary`, `notes is listed twice`.
fn members(list: &[(&str, Span)], allowed: &[&str], noun: &str) -> Vec<(String, Span)> {
    let mut problems = Vec::new();
    for (i, (item, span)) in list.iter().enumerate() {
        if !allowed.contains(item) {
            problems.push((format!("unknown {noun} {item}"), *span));
        } else if list[..i].iter().any(|(earlier, _)| earlier == item) {
            problems.push((format!("{item} is listed twice"), *span));
        }
    }
    problems
}

/// One `note_paths` pattern: at most 200 bytes, not absolute, no `..`, a valid glob.
pub fn pattern_problem(pattern: &str) -> Option<String> {
    if pattern.is_empty() {
        Some("an empty pattern".into())
    } else if pattern.len() > 200 {
        Some(format!(
            "a pattern of {} bytes, over the 200-byte limit",
            pattern.len()
        ))
    } else if pattern.starts_with('/') {
        Some(format!("{pattern} starts with /"))
    } else if pattern.split('/').any(|c| c == "..") {
        Some(format!("{pattern} has a .. component"))
    } else {
        one_glob(pattern).err()
    }
}

/// A pack held in memory, of the given kind, for the unit tests of the rule families (built by
/// the one in-memory builder, [`Pack::from_files`]).
#[cfg(test)]
pub(crate) fn test_pack(kind: Kind, files: &[(&str, &str)]) -> Pack {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    let mut pack = Pack::from_files(&files);
    pack.kind = kind;
    pack
}

#[cfg(test)]
mod tests;
