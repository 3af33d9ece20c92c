//! Fixture cases: `tests/<case>/case.toml` has exactly the keys of hippo's page
//! "Writing a pack" (docs/checks.md, "Fixture cases and transcripts").
//!
//! [`check`] judges each case.toml's parse; the cases `test` runs are read from the same parses
//! in the model (`model::case::read`, in `model::Documents`), which asks what this family asks of
//! a note and a session id (`model::case::note_problem`, `model::case::is_session_id`).

use super::declare::declare_rules;
use super::keys::{self, Document, Reader, Wording};
use crate::core::{Diagnostic, Span, suggest};
use crate::model::Documents;
use crate::model::case::COUNT_KEYS;
use crate::model::schema::{Entry, Key, Table, Type, Value};
use crate::model::toml_spans::DeTable;
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
    pub(crate) static CASE_SYNTAX = "case-syntax", Error, VeryHigh, rank = 400;

    /// A case.toml key the table of hippo's page "Writing a pack" does not define
    ///
    /// case.toml has protocol, pass and about; [[session]] id, tool, notes and handoff; [model]
    /// reply and verdict; [expect] calls, proposals, validation_failures, confirmed, rejected,
    /// applied, prompt_contains, prompt_excludes and [[expect.note]] path, contains and excludes.
    /// An unknown key in any table is an error, named with its table (model.temperature), because
    /// the test would silently ignore it.
    ///
    /// How to fix: Delete the key, or correct its spelling.
    pub(crate) static CASE_UNKNOWN_KEY = "case-unknown-key", Error, VeryHigh, rank = 410;

    /// A case.toml without a key it needs
    ///
    /// A case needs protocol, pass and at least one [[session]]; each [[session]] needs an id and
    /// each [[expect.note]] a path.
    ///
    /// How to fix: Add the key; the example case on hippo's page "Writing a pack" shows every one.
    pub(crate) static CASE_MISSING_KEY = "case-missing-key", Error, VeryHigh, rank = 420;

    /// A case.toml value that breaks its rule
    ///
    /// protocol is HIPPO_V1; pass names a pass of this pack (passes/<pass>.toml); about, handoff
    /// and reply are strings; a session id is a non-empty line, declared once; tool is claude-code
    /// or codex; verdict is confirm or reject; the expect counts are non-negative integers;
    /// prompt_contains, prompt_excludes, contains and excludes are lists of strings.
    ///
    /// How to fix: Write a value its rule allows; `--format full` names the valid choices, or the
    /// nearest one (`did you mean `decision-log`?` for a pass, `did you mean `reject`?`).
    pub(crate) static CASE_VALUE = "case-value", Error, VeryHigh, rank = 430;

    /// A note a case names that is not one of its notes
    ///
    /// Every note a [[session]] or an [[expect.note]] names is a notes/... path, with no ..
    /// component, of a Markdown file that exists in tests/<case>/notes/. Otherwise the session
    /// would declare a note the test never writes, or the expectation would look at nothing.
    ///
    /// How to fix: Write the path as notes/<path>.md and add the note under tests/<case>/notes/, or
    /// fix the name.
    pub(crate) static CASE_NOTE = "case-note", Error, VeryHigh, rank = 440;
}

static DOCUMENT: Document = Document {
    what: "case.toml",
    wording: Wording::Plain,
    unknown: &CASE_UNKNOWN_KEY,
    missing: &CASE_MISSING_KEY,
    value: &CASE_VALUE,
};

/// A key's check: reports what breaks its rule (a value of another type is reported already);
/// `T` is what the checks of one table remember while they judge it (a session's id and tool).
type Check<T> = fn(&mut Ctx<'_>, &mut T, &Entry<'_, '_>);

const NEED_SESSION: &str = "a case needs at least one [[session]]";

/// The tables of case.toml and their keys, in the order of the page's table.
static TOP: Table<Check<()>> = Table {
    name: "",
    keys: &[
        Key::<Check<()>>::required("protocol", Type::String, protocol).says(keys::PROTOCOL),
        Key::required("pass", Type::String, pass),
        Key::optional("about", Type::String, about),
        Key::<Check<()>>::required("session", Type::Tables, sessions).because(NEED_SESSION),
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

static MODEL: Table<Check<()>> = Table {
    name: "model",
    keys: &[
        Key::optional("reply", Type::String, reply),
        Key::optional("verdict", Type::String, verdict),
    ],
};

static EXPECT: Table<Check<()>> = Table {
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

const fn count(name: &'static str) -> Key<Check<()>> {
    Key::<Check<()>>::optional(name, Type::Integer, expect_count)
        .says("must be a non-negative integer")
}

static NOTE: Table<Check<()>> = Table {
    name: "expect.note",
    keys: &[
        Key::required("path", Type::String, note_path),
        Key::optional("contains", Type::Strings, note_texts),
        Key::optional("excludes", Type::Strings, note_texts),
    ],
};

/// Judges every `tests/<case>/case.toml` read whole as UTF-8 (a file that is not, or is over
/// its size limit, is reported by the text and size rules).
pub(crate) fn check(pack: &Pack, docs: &Documents<'_>, out: &mut Vec<Diagnostic>) {
    for f in &docs.case_files {
        let doc = match &f.doc {
            Ok(d) => d,
            Err(e) => {
                out.push(e.diagnostic(&CASE_SYNTAX, f.path));
                continue;
            }
        };
        let mut cx = Ctx {
            pack,
            reader: Reader {
                doc: &DOCUMENT,
                path: f.path,
                out,
            },
            note_rule: &CASE_NOTE,
            case_dir: format!("tests/{}/", f.name),
        };
        read(&mut cx, doc.get_ref(), None, &TOP, &mut ());
    }
}

/// Judges a table: its key problems reported, then each key's check.
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

fn protocol(cx: &mut Ctx<'_>, _: &mut (), e: &Entry<'_, '_>) {
    if matches!(e.value, Value::String(s) if s != "HIPPO_V1") {
        cx.reader.wrong(e, keys::PROTOCOL, keys::PROTOCOL_HELP);
    }
}

/// `pass`: the name of a pass of this pack.
fn pass(cx: &mut Ctx<'_>, _: &mut (), e: &Entry<'_, '_>) {
    let Value::String(p) = e.value else { return };
    if cx.pack.file(&format!("passes/{p}.toml")).is_some() {
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

/// `about`: any string (a value of another type is reported already).
fn about(_: &mut Ctx<'_>, _: &mut (), _: &Entry<'_, '_>) {}

/// `[[session]]`: at least one, each id once.
fn sessions(cx: &mut Ctx<'_>, _: &mut (), e: &Entry<'_, '_>) {
    let Value::Tables(tables) = &e.value else {
        return;
    };
    // The ids of the sessions read so far (with an id and a tool).
    let mut ids: Vec<String> = Vec::new();
    if tables.is_empty() {
        cx.reader
            .missing(Some(e.key_span), "session", Some(NEED_SESSION));
    }
    for (span, t) in tables {
        let mut draft = SessionDraft::default();
        read(cx, t, Some(*span), &SESSION, &mut draft);
        match draft.finish() {
            Some((id, span)) if ids.contains(&id) => {
                let help = "give each [[session]] the id its transcript's sessionId holds, once";
                cx.reader
                    .value(span, format!("session.id: {id} is declared twice"), help);
            }
            Some((id, _)) => ids.push(id),
            None => {}
        }
    }
}

/// `[model]`: the stand-in model's reply and verdict.
fn model(cx: &mut Ctx<'_>, _: &mut (), e: &Entry<'_, '_>) {
    if let Value::Table(t) = e.value {
        read(cx, t, Some(e.span), &MODEL, &mut ());
    }
}

/// `reply`: any string (a value of another type is reported already).
fn reply(_: &mut Ctx<'_>, _: &mut (), _: &Entry<'_, '_>) {}

fn verdict(cx: &mut Ctx<'_>, _: &mut (), e: &Entry<'_, '_>) {
    match e.value {
        Value::String("confirm" | "reject") => {}
        Value::String(s) => cx.reader.wrong(
            e,
            format_args!("{s} is not confirm or reject"),
            suggest::help(s, &["confirm", "reject"], "the verdicts"),
        ),
        _ => {}
    }
}

fn expect(cx: &mut Ctx<'_>, _: &mut (), e: &Entry<'_, '_>) {
    if let Value::Table(t) = e.value {
        read(cx, t, Some(e.span), &EXPECT, &mut ());
    }
}

/// One of the counts: 0 or more.
fn expect_count(cx: &mut Ctx<'_>, _: &mut (), e: &Entry<'_, '_>) {
    match e.value {
        Value::Integer(Some(n)) if n >= 0 => {}
        Value::Integer(_) => cx.reader.wrong(
            e,
            "must be a non-negative integer",
            "write a whole number, 0 or more",
        ),
        _ => {}
    }
}

/// `prompt_contains` or `prompt_excludes`: any list of strings (a value of another type is
/// reported already).
fn prompt_texts(_: &mut Ctx<'_>, _: &mut (), _: &Entry<'_, '_>) {}

/// `[[expect.note]]`: each note's keys, its path a note of the case.
fn expect_notes(cx: &mut Ctx<'_>, _: &mut (), e: &Entry<'_, '_>) {
    let Value::Tables(tables) = &e.value else {
        return;
    };
    for (span, t) in tables {
        read(cx, t, Some(*span), &NOTE, &mut ());
    }
}

fn note_path(cx: &mut Ctx<'_>, _: &mut (), e: &Entry<'_, '_>) {
    if let Value::String(p) = e.value {
        cx.note("expect.note.path", p, e.span);
    }
}

/// `contains` or `excludes`: any list of strings (a value of another type is reported already).
fn note_texts(_: &mut Ctx<'_>, _: &mut (), _: &Entry<'_, '_>) {}

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
