//! Fixture cases: tests/<case>/case.toml has exactly the keys of hippo's page
//! "Writing a pack" (docs/checks.md, "Fixture cases and transcripts").
//!
//! [`check`] reports what is wrong and returns every case it could read as a [`CaseDef`], with
//! each expectation's span, so `test` runs the cases from these values and never re-reads a file.

use super::declare::declare_rules;
use crate::core::{Diagnostic, Span};
use crate::model::case::*;
use crate::model::tomlx::{self, DeTable, DeValue};
use crate::model::transcript::Tool;
use crate::pack::Pack;
use read::{Ctx, KeyRules};

mod read;

declare_rules! {
    /// A case.toml that is not valid TOML
    ///
    /// Each tests/<case>/case.toml must parse as TOML; the finding gives the parser's message at
    /// the place it stopped.
    ///
    /// How to fix: Fix the TOML at the line and column given.
    pub static CASE_SYNTAX = "case-syntax", Error, VeryHigh;

    /// A case.toml key the table of hippo's page "Writing a pack" does not define
    ///
    /// case.toml has protocol, pass and about; [[session]] id, tool, notes and handoff; [model]
    /// reply and verdict; [expect] calls, proposals, validation_failures, confirmed, rejected,
    /// applied, prompt_contains, prompt_excludes and [[expect.note]] path, contains and excludes.
    /// An unknown key in any table is an error, named with its table (model.temperature), because
    /// the test would silently ignore it.
    ///
    /// How to fix: Delete the key, or correct its spelling.
    pub static CASE_UNKNOWN_KEY = "case-unknown-key", Error, VeryHigh;

    /// A case.toml without a key it needs
    ///
    /// A case needs protocol, pass and at least one [[session]]; each [[session]] needs an id and
    /// each [[expect.note]] a path.
    ///
    /// How to fix: Add the key; the example case on hippo's page "Writing a pack" shows every one.
    pub static CASE_MISSING_KEY = "case-missing-key", Error, VeryHigh;

    /// A case.toml value that breaks its rule
    ///
    /// protocol is HIPPO_V1; pass names a pass of this pack (passes/<pass>.toml); about, handoff
    /// and reply are strings; a session id is a non-empty line, declared once; tool is claude-code
    /// or codex; verdict is confirm or reject; the expect counts are non-negative integers;
    /// prompt_contains, prompt_excludes, contains and excludes are lists of strings.
    ///
    /// How to fix: Change the value as the message says.
    pub static CASE_VALUE = "case-value", Error, VeryHigh;

    /// A note a case names that is not one of its notes
    ///
    /// Every note a [[session]] or an [[expect.note]] names is a notes/... path, with no ..
    /// component, of a Markdown file that exists in tests/<case>/notes/. Otherwise the session
    /// would declare a note the test never writes, or the expectation would look at nothing.
    ///
    /// How to fix: Write the path as notes/<path>.md and add the note under tests/<case>/notes/, or
    /// fix the name.
    pub static CASE_NOTE = "case-note", Error, VeryHigh;
}

const TOP_KEYS: &[&str] = &["protocol", "pass", "about", "session", "model", "expect"];
const SESSION_KEYS: &[&str] = &["id", "tool", "notes", "handoff"];
const MODEL_KEYS: &[&str] = &["reply", "verdict"];
const EXPECT_KEYS: &[&str] = &[
    "calls",
    "proposals",
    "validation_failures",
    "confirmed",
    "rejected",
    "applied",
    "prompt_contains",
    "prompt_excludes",
    "note",
];
const NOTE_KEYS: &[&str] = &["path", "contains", "excludes"];

/// Checks every tests/<case>/case.toml and returns the cases it could read, in walk order.
pub fn check(pack: &Pack, out: &mut Vec<Diagnostic>) -> Vec<CaseDef> {
    let mut cases = Vec::new();
    for f in &pack.files {
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
    let doc = match tomlx::parse(text) {
        Ok(d) => d,
        Err(e) => {
            out.push(Diagnostic::at(&CASE_SYNTAX, path, e.span, e.message));
            return case;
        }
    };
    let top = doc.get_ref();
    let mut cx = Ctx {
        pack,
        path,
        rules: KeyRules {
            value: &CASE_VALUE,
            missing: &CASE_MISSING_KEY,
            unknown: &CASE_UNKNOWN_KEY,
            note: &CASE_NOTE,
        },
        case_dir: format!("tests/{name}/"),
        out,
    };
    cx.unknown_keys(top, "", TOP_KEYS);
    match tomlx::get(top, "protocol") {
        None => cx.missing(None, "protocol", ""),
        Some((_, v)) => {
            if v.get_ref().as_str() != Some("HIPPO_V1") {
                cx.value(tomlx::span_of(v), "protocol: must be \"HIPPO_V1\"".into());
            }
        }
    }
    match tomlx::get(top, "pass") {
        None => cx.missing(None, "pass", ""),
        Some((_, v)) => case.pass = pass(&mut cx, v),
    }
    if let Some((_, v)) = tomlx::get(top, "about") {
        case.about = cx.string(v, "about");
    }
    case.parsed = sessions(&mut cx, top, &mut case.sessions);
    if let Some((_, v)) = tomlx::get(top, "model")
        && let Some(t) = cx.table(v, "model")
    {
        model(&mut cx, t, &mut case);
    }
    if let Some((_, v)) = tomlx::get(top, "expect")
        && let Some(t) = cx.table(v, "expect")
    {
        case.expect = expect(&mut cx, t);
    }
    case
}

/// `pass`: the name of a pass of this pack.
fn pass(cx: &mut Ctx<'_>, v: &tomlx::Spanned<DeValue<'_>>) -> Option<String> {
    let p = cx.string(v, "pass")?;
    if cx.pack.file(&format!("passes/{p}.toml")).is_some() {
        return Some(p);
    }
    let has_passes = cx
        .pack
        .files_under("passes/")
        .any(|f| f.path.ends_with(".toml"));
    // With no pass file at all, `missing file passes/<name>.toml` says it.
    if has_passes {
        cx.value(
            tomlx::span_of(v),
            format!("pass: no pass named {p} in this pack"),
        );
    }
    None
}

/// `[[session]]`: at least one, each id once. False when a session could not be read.
fn sessions(cx: &mut Ctx<'_>, top: &DeTable<'_>, out: &mut Vec<SessionDef>) -> bool {
    let Some((key_span, v)) = tomlx::get(top, "session") else {
        cx.missing(None, "session", "a case needs at least one [[session]]");
        return true;
    };
    let mut ok = true;
    let tables = cx.tables(v, "session");
    if tables.is_empty() {
        ok = false;
        if matches!(v.get_ref(), DeValue::Array(a) if a.is_empty()) {
            cx.missing(
                Some(key_span),
                "session",
                "a case needs at least one [[session]]",
            );
        }
    }
    for (span, t) in tables {
        cx.unknown_keys(t, "session", SESSION_KEYS);
        match session(cx, span, t) {
            Some(s) if out.iter().any(|o| o.id == s.id) => {
                cx.value(s.span, format!("session.id: {} is declared twice", s.id));
            }
            Some(s) => out.push(s),
            None => ok = false,
        }
    }
    ok
}

/// `[model]`: the stand-in model's reply and verdict.
fn model(cx: &mut Ctx<'_>, t: &DeTable<'_>, case: &mut CaseDef) {
    cx.unknown_keys(t, "model", MODEL_KEYS);
    if let Some((_, r)) = tomlx::get(t, "reply")
        && let Some(r) = cx.string(r, "model.reply")
    {
        case.reply = r;
    }
    if let Some((_, r)) = tomlx::get(t, "verdict")
        && let Some(s) = cx.string(r, "model.verdict")
    {
        if matches!(s.as_str(), "confirm" | "reject") {
            case.verdict = s;
        } else {
            cx.value(
                tomlx::span_of(r),
                format!("model.verdict: {s} is not confirm or reject"),
            );
        }
    }
}

fn session(cx: &mut Ctx<'_>, table_span: Span, t: &DeTable<'_>) -> Option<SessionDef> {
    let mut ok = true;
    let (id, span) = match tomlx::get(t, "id") {
        None => {
            cx.missing(Some(table_span), "session.id", "");
            return None;
        }
        Some((span, v)) => match cx.string(v, "session.id") {
            Some(id) if !id.trim().is_empty() && !id.contains(['\n', '\r']) => (id, span),
            Some(_) => {
                cx.value(
                    tomlx::span_of(v),
                    "session.id: must be a non-empty line".into(),
                );
                return None;
            }
            None => return None,
        },
    };
    let mut s = SessionDef {
        id,
        span,
        tool: Tool::ClaudeCode,
        notes: Vec::new(),
        handoff: String::new(),
    };
    if let Some((_, v)) = tomlx::get(t, "tool") {
        if let Some(tool) = cx.string(v, "session.tool") {
            match Tool::parse(&tool) {
                Some(tool) => s.tool = tool,
                None => {
                    ok = false;
                    cx.value(
                        tomlx::span_of(v),
                        format!("session.tool: {tool} is not claude-code or codex"),
                    );
                }
            }
        } else {
            ok = false;
        }
    }
    if let Some((_, v)) = tomlx::get(t, "notes") {
        for n in cx.strings(v, "session.notes") {
            if cx.note("session.notes", &n.text, n.span) && !s.notes.contains(&n.text) {
                s.notes.push(n.text);
            }
        }
    }
    if let Some((_, v)) = tomlx::get(t, "handoff")
        && let Some(h) = cx.string(v, "session.handoff")
    {
        s.handoff = h;
    }
    ok.then_some(s)
}

fn expect(cx: &mut Ctx<'_>, t: &DeTable<'_>) -> Expect {
    let mut e = Expect::default();
    cx.unknown_keys(t, "expect", EXPECT_KEYS);
    for (k, v) in tomlx::entries(t) {
        let key = k.get_ref().as_ref();
        if let Some(&count_key) = COUNT_KEYS.iter().find(|c| **c == key) {
            match tomlx::integer(v.get_ref()).filter(|n| *n >= 0) {
                Some(n) => e.counts.push(ExpectCount {
                    key: count_key,
                    value: n as u64,
                    span: tomlx::span_of(k),
                }),
                None => cx.value(
                    tomlx::span_of(v),
                    format!("expect.{key}: must be a non-negative integer"),
                ),
            }
        }
    }
    if let Some((_, v)) = tomlx::get(t, "prompt_contains") {
        e.prompt_contains = cx.strings(v, "expect.prompt_contains");
    }
    if let Some((_, v)) = tomlx::get(t, "prompt_excludes") {
        e.prompt_excludes = cx.strings(v, "expect.prompt_excludes");
    }
    if let Some((_, v)) = tomlx::get(t, "note") {
        for (span, nt) in cx.tables(v, "expect.note") {
            cx.unknown_keys(nt, "expect.note", NOTE_KEYS);
            let Some((key_span, pv)) = tomlx::get(nt, "path") else {
                cx.missing(Some(span), "expect.note.path", "");
                continue;
            };
            let Some(path) = cx.string(pv, "expect.note.path") else {
                continue;
            };
            let path_ok = cx.note("expect.note.path", &path, tomlx::span_of(pv));
            let contains = match tomlx::get(nt, "contains") {
                Some((_, v)) => cx.strings(v, "expect.note.contains"),
                None => Vec::new(),
            };
            let excludes = match tomlx::get(nt, "excludes") {
                Some((_, v)) => cx.strings(v, "expect.note.excludes"),
                None => Vec::new(),
            };
            if path_ok {
                e.notes.push(ExpectNote {
                    path,
                    span: key_span,
                    contains,
                    excludes,
                });
            }
        }
    }
    e
}

#[cfg(test)]
pub(crate) mod tests;
