//! Pass files: every `passes/<name>.toml` has the keys of hippo's page "Writing a pack", each with its rule.
//!
//! The passes read from their parses ([`crate::model::pass::PassDef`], in `model::Documents`)
//! are what the prompt, unreferenced and case rules and the dreaming pass of `test` read; this
//! family judges the same parses. [`crate::model::pass::note_glob`] is the one place `note_paths` patterns become a
//! matcher, so `check` and `test` agree on what a pattern means.

use super::declare::declare_rules;
use super::keys::{self, Document, Reader, Wording};
use crate::core::{Diagnostic, Span, suggest};
use crate::model::Documents;
use crate::model::glob_reach::{self, Reach};
use crate::model::pass::{INPUT_BUDGET_CAP, one_glob};
use crate::model::schema::{Entry, Key, Table, Type, Value};
use crate::model::toml_spans::DeTable;
use crate::pack::Pack;
use crate::pack::place::is_name;

mod help;

declare_rules! {
    /// A pass file is not valid TOML
    ///
    /// A passes/<name>.toml file must parse as TOML; the finding gives the parser's message at the
    /// place it stopped (a curly quote where a TOML quote goes is named instead, at the quote:
    /// U+201C LEFT DOUBLE QUOTATION MARK: use a straight quote "). While a pass file does not
    /// parse, no prompt or persona can be called unused, so the not-referenced warning is held
    /// back.
    ///
    /// How to fix: Fix the TOML at the line and column given.
    pub(crate) static PASS_SYNTAX = "pass-syntax", Error, VeryHigh, rank = 250;

    /// A pass file has a key the pass file does not define
    ///
    /// A pass file has exactly protocol, prompt, reads, reviewer, per_note, input_budget_bytes,
    /// note_types and note_paths. Any other key is an error, because hippo would ignore it: a
    /// misspelt filter such as note_type would silently let every note through.
    ///
    /// How to fix: Delete the key, or correct its spelling (note_types, note_paths).
    pub(crate) static PASS_UNKNOWN_KEY = "pass-unknown-key", Error, VeryHigh, rank = 260;

    /// A pass file lacks a required key
    ///
    /// protocol, prompt, reads, reviewer and per_note are required in every pass file;
    /// input_budget_bytes, note_types and note_paths are optional.
    ///
    /// How to fix: Add the key; the example pass file on hippo's page "Writing a pack" shows every
    /// one.
    pub(crate) static PASS_MISSING_KEY = "pass-missing-key", Error, VeryHigh, rank = 270;

    /// A pass file value that breaks its rule
    ///
    /// protocol is HIPPO_V1; prompt is prompts/<name>.md and reviewer personas/<name>.md, both
    /// files of this pack; reads is a non-empty list, without repeats, of sessions, notes, turns
    /// and human_confirmed; per_note is true or false; input_budget_bytes is a positive integer
    /// (default 200000); note_types is one to five of policy, decision, log, evidence and topic;
    /// note_paths is one to twenty glob patterns (**, *, ?, [...], {a,b}) of at most 200 bytes, not
    /// starting with / and with no .. component, matched against a note's workspace path such as
    /// notes/Decision log.md. A pattern is judged as the glob matcher parses it, so no spelling
    /// names a .. component or an absolute path either: [.][.]/, {..,a}/, \.\./, {/etc,a} and
    /// [/]etc are the same error (a wildcard that happens to match .. is not).
    ///
    /// How to fix: Write a value its rule allows; `--format full` names the valid choices, or the
    /// nearest one (`did you mean `prompts/decision-log.md`?`, `did you mean `decision`?`).
    pub(crate) static PASS_VALUE = "pass-value", Error, VeryHigh, rank = 280;

    /// A pass named verify or consolidate
    ///
    /// A pass's name is its file name. verify and consolidate are the names of core's passes; a
    /// pack's pass of that name would collide with them.
    ///
    /// How to fix: Rename the pass file (and every case.toml that names it).
    pub(crate) static RESERVED_PASS_NAME = "reserved-pass-name", Error, VeryHigh, rank = 290;

    /// A pass file's input_budget_bytes over 10,000,000
    ///
    /// hippo accepts any positive input_budget_bytes; test sends at most 10,000,000 bytes of input
    /// in a call, so a larger budget does not run as written (and a pack cannot make every test
    /// run of the registry build prompts of any size).
    ///
    /// How to fix: Set input_budget_bytes to 10,000,000 or less.
    pub(crate) static INPUT_BUDGET = "input-budget", Warning, VeryHigh, rank = 300;
}

/// The inputs a pass may read, which are also the only placeholders a prompt may hold.
pub(crate) const INPUTS: &[&str] = &["sessions", "notes", "turns", "human_confirmed"];
/// The note types `note_types` may list.
pub(crate) const NOTE_TYPES: &[&str] = &["policy", "decision", "log", "evidence", "topic"];
/// Pass names core keeps for itself.
pub(crate) const RESERVED: &[&str] = &["verify", "consolidate"];

static DOCUMENT: Document = Document {
    what: "a pass file",
    wording: Wording::Plain,
    unknown: &PASS_UNKNOWN_KEY,
    missing: &PASS_MISSING_KEY,
    value: &PASS_VALUE,
};

/// A key's check: reports what breaks its rule (a value of another type is reported already).
type Check = fn(&mut Values<'_>, &Entry<'_, '_>);

/// The keys of a pass file, in the order of the page's example.
static KEYS: Table<Check> = Table {
    name: "",
    keys: &[
        Key::<Check>::required("protocol", Type::String, protocol).says(keys::PROTOCOL),
        Key::required("prompt", Type::String, file),
        Key::required("reads", Type::Strings, reads),
        Key::required("reviewer", Type::String, file),
        Key::<Check>::required("per_note", Type::Bool, per_note).expects("true or false"),
        Key::<Check>::optional("input_budget_bytes", Type::Integer, input_budget)
            .expects("a positive integer"),
        Key::optional("note_types", Type::Strings, note_types),
        Key::optional("note_paths", Type::Strings, note_paths),
    ],
};

/// Judges every pass file: its name, then its parse (none: the file is not read whole as UTF-8,
/// which the text and size rules report).
pub(crate) fn check(pack: &Pack, docs: &Documents<'_>, out: &mut Vec<Diagnostic>) {
    for f in &docs.pass_files {
        let name = f.name;
        if RESERVED.contains(&name) {
            out.push(Diagnostic::file(
                &RESERVED_PASS_NAME,
                f.path,
                format!("{name} is reserved for core"),
            ));
        }
        match &f.doc {
            None => {}
            Some(Ok(doc)) => check_one(pack, f.path, doc.get_ref(), out),
            Some(Err(e)) => out.push(e.diagnostic(&PASS_SYNTAX, f.path)),
        }
    }
}

fn check_one(pack: &Pack, path: &str, table: &DeTable<'_>, out: &mut Vec<Diagnostic>) {
    let reader = Reader {
        doc: &DOCUMENT,
        path,
        out,
    };
    let mut values = Values { pack, reader };
    for (key, entry) in values.reader.read(table, None, &KEYS) {
        (key.check)(&mut values, &entry);
    }
}

/// Judges a pass file's values, reporting each bad value where it is.
struct Values<'a> {
    pack: &'a Pack,
    reader: Reader<'a>,
}

fn protocol(v: &mut Values<'_>, e: &Entry<'_, '_>) {
    if matches!(e.value, Value::String(s) if s != "HIPPO_V1") {
        v.reader.wrong(e, keys::PROTOCOL, keys::PROTOCOL_HELP);
    }
}

/// `prompt` or `reviewer`: a file of `prompts/` or `personas/`.
fn file(v: &mut Values<'_>, e: &Entry<'_, '_>) {
    let Value::String(s) = e.value else { return };
    let folder = if e.key == "prompt" {
        "prompts"
    } else {
        "personas"
    };
    if let Some(why) = file_problem(v.pack, folder, s) {
        v.reader.wrong(e, why, help::file(v.pack, folder, s));
    }
}

/// `per_note`: any boolean (a value of another type is reported already).
fn per_note(_: &mut Values<'_>, _: &Entry<'_, '_>) {}

/// A positive integer; over [`INPUT_BUDGET_CAP`] a warning, as `test` uses the cap.
fn input_budget(v: &mut Values<'_>, e: &Entry<'_, '_>) {
    match e.value {
        Value::Integer(Some(n)) if n > 0 && n as u64 > INPUT_BUDGET_CAP => {
            let cap = grouped(INPUT_BUDGET_CAP);
            let message = format!("{} over {cap}; test uses {cap}", e.key);
            let d = Diagnostic::key(&INPUT_BUDGET, v.reader.path, e.span, message);
            v.reader.out.push(d);
        }
        Value::Integer(Some(n)) if n > 0 => {}
        Value::Integer(_) => v.reader.wrong(
            e,
            "must be a positive integer",
            "write a whole number of bytes over 0; without the key the budget is 200000",
        ),
        _ => {}
    }
}

fn reads(v: &mut Values<'_>, e: &Entry<'_, '_>) {
    let Value::Strings(list) = &e.value else {
        return;
    };
    if list.is_empty() {
        let help = format!(
            "list what the pass reads: one or more of {}",
            listed(INPUTS)
        );
        v.reader.wrong(e, "must not be empty", help);
    }
    for (why, help, span) in members(list, INPUTS, "input", "the inputs") {
        v.reader.value(span, format!("{}: {why}", e.key), help);
    }
}

fn note_types(v: &mut Values<'_>, e: &Entry<'_, '_>) {
    let Value::Strings(list) = &e.value else {
        return;
    };
    if !(1..=5).contains(&list.len()) {
        let why = format!("{} types, must be one to five", list.len());
        let help = format!("list one to five of {}", listed(NOTE_TYPES));
        v.reader.wrong(e, why, help);
    }
    for (why, help, span) in members(list, NOTE_TYPES, "type", "the note types") {
        v.reader.value(span, format!("{}: {why}", e.key), help);
    }
}

fn note_paths(v: &mut Values<'_>, e: &Entry<'_, '_>) {
    let Value::Strings(list) = &e.value else {
        return;
    };
    if !(1..=20).contains(&list.len()) {
        let why = format!("{} patterns, must be one to twenty", list.len());
        let help =
            "list one to twenty patterns; one such as `**/Decision log*.md` matches many notes";
        v.reader.wrong(e, why, help);
    }
    for (pattern, span) in list {
        if let Some(why) = pattern_problem(pattern) {
            let help = help::pattern(pattern);
            v.reader.value(*span, format!("{}: {why}", e.key), help);
        }
    }
}

/// A number with its thousands grouped, as the messages write them: `10,000,000`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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

/// Items not in `allowed`, and repeats: `unknown type diary`, `notes is listed twice`, each with
/// its help: the nearest allowed item and the list (`what`: `the note types`).
fn members(
    list: &[(&str, Span)],
    allowed: &[&str],
    noun: &str,
    what: &str,
) -> Vec<(String, String, Span)> {
    let mut problems = Vec::new();
    for (i, (item, span)) in list.iter().enumerate() {
        if !allowed.contains(item) {
            let help = suggest::help(item, allowed, what);
            problems.push((format!("unknown {noun} {item}"), help, *span));
        } else if list[..i].iter().any(|(earlier, _)| earlier == item) {
            let help = "delete the second one".to_string();
            problems.push((format!("{item} is listed twice"), help, *span));
        }
    }
    problems
}

/// `a`, `b` and `c`: an allowed list in a help.
fn listed(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("`{i}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}

/// One `note_paths` pattern: at most 200 bytes, not absolute, no `..`, a valid glob.
pub(crate) fn pattern_problem(pattern: &str) -> Option<String> {
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
    } else if let Err(why) = one_glob(pattern) {
        Some(why)
    } else {
        // The glob as the matcher parses it: `[.][.]/`, `{..,a}/`, `\.\./`, `{/etc,a}`, `[/]etc`.
        glob_reach::reach(pattern).map(|r| match r {
            Reach::Parent => format!("{pattern} can match a .. component"),
            Reach::Absolute => format!("{pattern} can match an absolute path"),
            Reach::TooComplex => {
                format!("{pattern} is too complex to check for a .. component or an absolute path")
            }
        })
    }
}

#[cfg(test)]
mod tests;

/// A pass file's one table, for its JSON Schema (`report::schemas`).
pub(crate) fn key_shapes() -> Vec<(&'static str, Vec<crate::model::schema::KeyShape>)> {
    vec![KEYS.shape()]
}
