//! Fixture cases: `tests/<case>/case.toml` has exactly the keys of hippo's page
//! "Writing a pack" (docs/checks.md, "Fixture cases and transcripts").
//!
//! [`check`] reports what is wrong and returns every case it could read as a [`CaseDef`], with
//! each expectation's span, so `test` runs the cases from these values and never re-reads a file.

use super::declare::declare_rules;
use super::keys::{self, Document, Reader, Wording};
use crate::core::{Diagnostic, Span, suggest};
use crate::model::case::*;
use crate::model::schema::{Entry, Key, Table, Type, Value};
use crate::model::toml_spans::{self, DeTable};
use crate::pack::Pack;
use read::Ctx;
use session::{SessionDraft, session_handoff, session_id, session_notes, session_tool};

mod read;
mod session;

declare_rules! {
    /// A case.toml that is not valid TOML
    ///
    /// Each tests/<case>/case.toml must parse as TOML; the finding gives the parser's message at
    /// the place it stopped (a curly quote where a TOML quote goes is named instead, at the quote:
    /// U+201C LEFT DOUBLE QUOTATION MARK: use a straight quote ").
    ///
    /// How to fix: Fix the TOML at the line and column given.
    pub(crate) static CASE_SYNTAX = "case-syntax", Error, VeryHigh;

    /// A case.toml key the table of hippo's page "Writing a pack" does not define
    ///
    /// case.toml has protocol, pass and about; [[session]] id, tool, notes and handoff; [model]
    /// reply and verdict; [expect] calls, proposals, validation_failures, confirmed, rejected,
    /// applied, prompt_contains, prompt_excludes and [[expect.note]] path, contains and excludes.
    /// An unknown key in any table is an error, named with its table (model.temperature), because
    /// the test would silently ignore it.
    ///
    /// How to fix: Delete the key, or correct its spelling.
    pub(crate) static CASE_UNKNOWN_KEY = "case-unknown-key", Error, VeryHigh;

    /// A case.toml without a key it needs
    ///
    /// A case needs protocol, pass and at least one [[session]]; each [[session]] needs an id and
    /// each [[expect.note]] a path.
    ///
    /// How to fix: Add the key; the example case on hippo's page "Writing a pack" shows every one.
    pub(crate) static CASE_MISSING_KEY = "case-missing-key", Error, VeryHigh;

    /// A case.toml value that breaks its rule
    ///
    /// protocol is HIPPO_V1; pass names a pass of this pack (passes/<pass>.toml); about, handoff
    /// and reply are strings; a session id is a non-empty line, declared once; tool is claude-code
    /// or codex; verdict is confirm or reject; the expect counts are non-negative integers;
    /// prompt_contains, prompt_excludes, contains and excludes are lists of strings.
    ///
    /// How to fix: Write a value its rule allows; `--format full` names the valid choices, or the
    /// nearest one (`did you mean `decision-log`?` for a pass, `did you mean `reject`?`).
    pub(crate) static CASE_VALUE = "case-value", Error, VeryHigh;

    /// A note a case names that is not one of its notes
    ///
    /// Every note a [[session]] or an [[expect.note]] names is a notes/... path, with no ..
    /// component, of a Markdown file that exists in tests/<case>/notes/. Otherwise the session
    /// would declare a note the test never writes, or the expectation would look at nothing.
    ///
    /// How to fix: Write the path as notes/<path>.md and add the note under tests/<case>/notes/, or
    /// fix the name.
    pub(crate) static CASE_NOTE = "case-note", Error, VeryHigh;
}

static DOCUMENT: Document = Document {
    what: "case.toml",
    wording: Wording::Plain,
    unknown: &CASE_UNKNOWN_KEY,
    missing: &CASE_MISSING_KEY,
    value: &CASE_VALUE,
};

/// A key's check: reads its value into what its table builds and reports what breaks its rule (a
/// value of another type is reported already).
type Check<T> = fn(&mut Ctx<'_>, &mut T, &Entry<'_, '_>);

const NEED_SESSION: &str = "a case needs at least one [[session]]";

/// The tables of case.toml and their keys, in the order of the page's table.
static TOP: Table<Check<CaseDef>> = Table {
    name: "",
    keys: &[
        Key::<Check<CaseDef>>::required("protocol", Type::String, protocol).says(keys::PROTOCOL),
        Key::required("pass", Type::String, pass),
        Key::optional("about", Type::String, about),
        Key::<Check<CaseDef>>::required("session", Type::Tables, sessions).because(NEED_SESSION),
        Key::optional("model", Type::Table, model),
        Key::optional("expect", Type::Table, expect),
    ],
};

static SESSION: Table<Check<SessionDraft>> = Table {
    name: "session",
    keys: &[
        Key::required("id", Type::String, session_id),
        Key::optional("tool", Type::String, session_tool),
        Key::optional("notes", Type::Strings, session_notes),
        Key::optional("handoff", Type::String, session_handoff),
    ],
};

static MODEL: Table<Check<CaseDef>> = Table {
    name: "model",
    keys: &[
        Key::optional("reply", Type::String, reply),
        Key::optional("verdict", Type::String, verdict),
    ],
};

static EXPECT: Table<Check<Expect>> = Table {
    name: "expect",
    keys: &[
        count(COUNT_KEYS[0]),
        count(COUNT_KEYS[1]),
        count(COUNT_KEYS[2]),
        count(COUNT_KEYS[3]),
        count(COUNT_KEYS[4]),
        count(COUNT_KEYS[5]),
        Key::optional("prompt_contains", Type::Strings, prompt_texts),
        Key::optional("prompt_excludes", Type::Strings, prompt_texts),
        Key::optional("note", Type::Tables, expect_notes),
    ],
};

const fn count(name: &'static str) -> Key<Check<Expect>> {
    Key::<Check<Expect>>::optional(name, Type::Integer, expect_count)
        .says("must be a non-negative integer")
}

static NOTE: Table<Check<NoteDraft>> = Table {
    name: "expect.note",
    keys: &[
        Key::required("path", Type::String, note_path),
        Key::optional("contains", Type::Strings, note_texts),
        Key::optional("excludes", Type::Strings, note_texts),
    ],
};

/// Checks every `tests/<case>/case.toml` and returns the cases it could read, in walk order.
pub(crate) fn check(pack: &Pack, out: &mut Vec<Diagnostic>) -> Vec<CaseDef> {
    let mut cases = Vec::new();
    for f in pack.files() {
        let parts: Vec<&str> = f.path.split('/').collect();
        let ["tests", name, "case.toml"] = parts.as_slice() else {
            continue;
        };
        // A file that is not UTF-8 or over its size limit is reported by the text and size rules.
        let Some(text) = f.text() else { continue };
        cases.push(check_case(pack, name, &f.path, text, out));
    }
    cases
}

fn check_case(
    pack: &Pack,
    name: &str,
    path: &str,
    text: &str,
    out: &mut Vec<Diagnostic>,
) -> CaseDef {
    let mut case = CaseDef {
        name: name.to_string(),
        path: path.to_string(),
        reply: "[]".to_string(),
        verdict: "confirm".to_string(),
        ..CaseDef::default()
    };
    let doc = match toml_spans::parse(text) {
        Ok(d) => d,
        Err(e) => {
            out.push(e.diagnostic(&CASE_SYNTAX, path));
            return case;
        }
    };
    // Sessions that are there and cannot be read clear it (`sessions`).
    case.parsed = true;
    let mut cx = Ctx {
        pack,
        reader: Reader {
            doc: &DOCUMENT,
            path,
            out,
        },
        note_rule: &CASE_NOTE,
        case_dir: format!("tests/{name}/"),
    };
    read(&mut cx, doc.get_ref(), None, &TOP, &mut case);
    case
}

/// Reads a table into `into`: its key problems reported, then each key's check.
fn read<T>(
    cx: &mut Ctx<'_>,
    table: &DeTable<'_>,
    at: Option<Span>,
    decl: &Table<Check<T>>,
    into: &mut T,
) {
    for (key, entry) in cx.reader.read(table, at, decl) {
        (key.check)(cx, into, &entry);
    }
}

fn protocol(cx: &mut Ctx<'_>, _: &mut CaseDef, e: &Entry<'_, '_>) {
    if matches!(e.value, Value::String(s) if s != "HIPPO_V1") {
        cx.reader.wrong(e, keys::PROTOCOL, keys::PROTOCOL_HELP);
    }
}

/// `pass`: the name of a pass of this pack.
fn pass(cx: &mut Ctx<'_>, case: &mut CaseDef, e: &Entry<'_, '_>) {
    let Value::String(p) = e.value else { return };
    if cx.pack.file(&format!("passes/{p}.toml")).is_some() {
        case.pass = Some(p.to_string());
        return;
    }
    let passes: Vec<&str> = (cx.pack.files_under("passes/"))
        .filter_map(|f| f.path.strip_prefix("passes/")?.strip_suffix(".toml"))
        .filter(|name| !name.contains('/'))
        .collect();
    // With no pass file at all, `missing file passes/<name>.toml` says it.
    if !passes.is_empty() {
        let help = suggest::choose(p, &passes, "the passes of this pack", 8);
        cx.reader
            .wrong(e, format_args!("no pass named {p} in this pack"), help);
    }
}

fn about(_: &mut Ctx<'_>, case: &mut CaseDef, e: &Entry<'_, '_>) {
    if let Value::String(s) = e.value {
        case.about = Some(s.to_string());
    }
}

/// `[[session]]`: at least one, each id once; a session that cannot be read clears `parsed`.
fn sessions(cx: &mut Ctx<'_>, case: &mut CaseDef, e: &Entry<'_, '_>) {
    let Value::Tables(tables) = &e.value else {
        case.parsed = false;
        return;
    };
    if tables.is_empty() {
        case.parsed = false;
        cx.reader
            .missing(Some(e.key_span), "session", Some(NEED_SESSION));
    }
    for (span, t) in tables {
        let mut draft = SessionDraft::default();
        read(cx, t, Some(*span), &SESSION, &mut draft);
        match draft.finish() {
            Some(s) if case.sessions.iter().any(|o| o.id == s.id) => {
                let help = "give each [[session]] the id its transcript's sessionId holds, once";
                cx.reader.value(
                    s.span,
                    format!("session.id: {} is declared twice", s.id),
                    help,
                );
            }
            Some(s) => case.sessions.push(s),
            None => case.parsed = false,
        }
    }
}

/// `[model]`: the stand-in model's reply and verdict.
fn model(cx: &mut Ctx<'_>, case: &mut CaseDef, e: &Entry<'_, '_>) {
    if let Value::Table(t) = e.value {
        read(cx, t, Some(e.span), &MODEL, case);
    }
}

fn reply(_: &mut Ctx<'_>, case: &mut CaseDef, e: &Entry<'_, '_>) {
    if let Value::String(s) = e.value {
        case.reply = s.to_string();
    }
}

fn verdict(cx: &mut Ctx<'_>, case: &mut CaseDef, e: &Entry<'_, '_>) {
    match e.value {
        Value::String(s @ ("confirm" | "reject")) => case.verdict = s.to_string(),
        Value::String(s) => cx.reader.wrong(
            e,
            format_args!("{s} is not confirm or reject"),
            suggest::help(s, &["confirm", "reject"], "the verdicts"),
        ),
        _ => {}
    }
}

fn expect(cx: &mut Ctx<'_>, case: &mut CaseDef, e: &Entry<'_, '_>) {
    if let Value::Table(t) = e.value {
        read(cx, t, Some(e.span), &EXPECT, &mut case.expect);
    }
}

/// One of the counts, in file order.
fn expect_count(cx: &mut Ctx<'_>, expect: &mut Expect, e: &Entry<'_, '_>) {
    match e.value {
        Value::Integer(Some(n)) if n >= 0 => expect.counts.push(ExpectCount {
            key: e.key,
            value: n as u64,
            span: e.key_span,
        }),
        Value::Integer(_) => cx.reader.wrong(
            e,
            "must be a non-negative integer",
            "write a whole number, 0 or more",
        ),
        _ => {}
    }
}

/// `prompt_contains` or `prompt_excludes`.
fn prompt_texts(_: &mut Ctx<'_>, expect: &mut Expect, e: &Entry<'_, '_>) {
    let texts = located(&e.value);
    match e.key {
        "prompt_contains" => expect.prompt_contains = texts,
        _ => expect.prompt_excludes = texts,
    }
}

/// `[[expect.note]]`: each note whose path names a note of the case.
fn expect_notes(cx: &mut Ctx<'_>, expect: &mut Expect, e: &Entry<'_, '_>) {
    let Value::Tables(tables) = &e.value else {
        return;
    };
    for (span, t) in tables {
        let mut draft = NoteDraft::default();
        read(cx, t, Some(*span), &NOTE, &mut draft);
        if let Some((path, span)) = draft.path {
            expect.notes.push(ExpectNote {
                path,
                span,
                contains: draft.contains,
                excludes: draft.excludes,
            });
        }
    }
}

/// An `[[expect.note]]` as read: its path when it names a note of the case.
#[derive(Default)]
struct NoteDraft {
    /// The path and the span of its key.
    path: Option<(String, Span)>,
    contains: Vec<Located>,
    excludes: Vec<Located>,
}

fn note_path(cx: &mut Ctx<'_>, note: &mut NoteDraft, e: &Entry<'_, '_>) {
    if let Value::String(p) = e.value
        && cx.note("expect.note.path", p, e.span)
    {
        note.path = Some((p.to_string(), e.key_span));
    }
}

/// `contains` or `excludes`.
fn note_texts(_: &mut Ctx<'_>, note: &mut NoteDraft, e: &Entry<'_, '_>) {
    let texts = located(&e.value);
    match e.key {
        "contains" => note.contains = texts,
        _ => note.excludes = texts,
    }
}

/// A list of strings with their spans (nothing for a value of another type).
fn located(v: &Value<'_, '_>) -> Vec<Located> {
    match v {
        Value::Strings(list) => list
            .iter()
            .map(|(s, span)| Located {
                text: s.to_string(),
                span: *span,
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
pub(crate) mod tests;

/// case.toml's tables, the top level first, each by its dotted name, for its JSON Schema
/// (`report::schemas`).
pub(crate) fn key_shapes() -> Vec<(&'static str, Vec<crate::model::schema::KeyShape>)> {
    vec![
        TOP.shape(),
        SESSION.shape(),
        MODEL.shape(),
        EXPECT.shape(),
        NOTE.shape(),
    ]
}
