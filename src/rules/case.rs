//! Fixture cases: tests/<case>/case.toml has exactly the keys of hippo's page
//! "Writing a pack" (docs/checks.md, "Fixture cases and transcripts").
//!
//! [`check`] reports what is wrong and returns every case it could read as a [`CaseDef`], with
//! each expectation's span, so `test` runs the cases from these values and never re-reads a file.

use super::declare::declare_rules;
use crate::core::{Diagnostic, Span};
use crate::model::case::*;
use crate::model::pass::PassDef;
use crate::model::tomlx::{self, DeTable, DeValue, Spanned};
use crate::model::transcript::Tool;
use crate::pack::Pack;

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
pub fn check(pack: &Pack, _passes: &[PassDef], out: &mut Vec<Diagnostic>) -> Vec<CaseDef> {
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

struct Ctx<'a> {
    pack: &'a Pack,
    path: &'a str,
    case_dir: String,
    out: &'a mut Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn value(&mut self, span: Span, msg: String) {
        self.out
            .push(Diagnostic::key(&CASE_VALUE, self.path, span, msg));
    }
    fn missing(&mut self, span: Option<Span>, key: &str, why: &str) {
        let msg = if why.is_empty() {
            format!("missing key {key}")
        } else {
            format!("missing key {key}: {why}")
        };
        let d = match span {
            Some(s) => Diagnostic::key(&CASE_MISSING_KEY, self.path, s, msg),
            None => Diagnostic::file(&CASE_MISSING_KEY, self.path, msg),
        };
        self.out.push(d);
    }
    /// Reports unknown keys of a table; `table` is its dotted name (empty at the top).
    fn unknown_keys(&mut self, t: &DeTable<'_>, table: &str, known: &[&str]) {
        for (k, _) in tomlx::entries(t) {
            let key = k.get_ref().as_ref();
            if !known.contains(&key) {
                let dotted = if table.is_empty() {
                    key.to_string()
                } else {
                    format!("{table}.{key}")
                };
                self.out.push(
                    Diagnostic::key(
                        &CASE_UNKNOWN_KEY,
                        self.path,
                        tomlx::span_of(k),
                        format!("unknown key {dotted}"),
                    )
                    .with_hint(crate::core::suggest::help(
                        key,
                        known,
                        &if table.is_empty() {
                            "the keys of case.toml".to_string()
                        } else {
                            format!("the keys of [{table}]")
                        },
                    )),
                );
            }
        }
    }
    fn string(&mut self, v: &Spanned<DeValue<'_>>, key: &str) -> Option<String> {
        match v.get_ref() {
            DeValue::String(s) => Some(s.to_string()),
            other => {
                self.value(
                    tomlx::span_of(v),
                    format!(
                        "{key}: expected a string, found {}",
                        tomlx::type_name(other)
                    ),
                );
                None
            }
        }
    }
    fn strings(&mut self, v: &Spanned<DeValue<'_>>, key: &str) -> Vec<Located> {
        match tomlx::string_list(v.get_ref()) {
            Ok(list) => list
                .into_iter()
                .map(|(s, span)| Located {
                    text: s.to_string(),
                    span,
                })
                .collect(),
            Err(e) => {
                self.value(tomlx::span_of(v), format!("{key}: {e}"));
                Vec::new()
            }
        }
    }
    /// A note path a case names: `notes/...`, no `..`, an existing Markdown note of the case.
    fn note(&mut self, key: &str, note: &str, span: Span) -> bool {
        let shape_ok = note.starts_with("notes/")
            && note.ends_with(".md")
            && note
                .split('/')
                .all(|c| !c.is_empty() && c != ".." && c != ".");
        let msg = if !shape_ok {
            format!("{key}: {note} is not a notes/<path>.md path without ..")
        } else if self
            .pack
            .file(&format!("{}{note}", self.case_dir))
            .is_none()
        {
            format!("{key}: {note} does not exist in {}notes/", self.case_dir)
        } else {
            return true;
        };
        self.out
            .push(Diagnostic::key(&CASE_NOTE, self.path, span, msg));
        false
    }
    fn table<'t, 'i>(&mut self, v: &'t Spanned<DeValue<'i>>, key: &str) -> Option<&'t DeTable<'i>> {
        match v.get_ref() {
            DeValue::Table(t) => Some(t),
            other => {
                self.value(
                    tomlx::span_of(v),
                    format!("{key}: expected a table, found {}", tomlx::type_name(other)),
                );
                None
            }
        }
    }
    /// An array of tables (`[[session]]`), or an error.
    fn tables<'t, 'i>(
        &mut self,
        v: &'t Spanned<DeValue<'i>>,
        key: &str,
    ) -> Vec<(Span, &'t DeTable<'i>)> {
        let ok = match v.get_ref() {
            DeValue::Array(items) => items
                .iter()
                .map(|i| i.get_ref().as_table().map(|t| (tomlx::span_of(i), t)))
                .collect::<Option<Vec<_>>>(),
            _ => None,
        };
        match ok {
            Some(list) => list,
            None => {
                self.value(
                    tomlx::span_of(v),
                    format!(
                        "{key}: expected an array of tables ([[{key}]]), found {}",
                        tomlx::type_name(v.get_ref())
                    ),
                );
                Vec::new()
            }
        }
    }
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
        Some((_, v)) => {
            if let Some(p) = cx.string(v, "pass") {
                let has_passes = pack
                    .files_under("passes/")
                    .any(|f| f.path.ends_with(".toml"));
                if pack.file(&format!("passes/{p}.toml")).is_some() {
                    case.pass = Some(p);
                } else if has_passes {
                    // With no pass file at all, `missing file passes/<name>.toml` says it.
                    cx.value(
                        tomlx::span_of(v),
                        format!("pass: no pass named {p} in this pack"),
                    );
                }
            }
        }
    }
    if let Some((_, v)) = tomlx::get(top, "about") {
        case.about = cx.string(v, "about");
    }
    let mut sessions_ok = true;
    match tomlx::get(top, "session") {
        None => cx.missing(None, "session", "a case needs at least one [[session]]"),
        Some((key_span, v)) => {
            let tables = cx.tables(v, "session");
            if tables.is_empty() {
                sessions_ok = false;
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
                match session(&mut cx, span, t) {
                    Some(s) => {
                        if case.sessions.iter().any(|o| o.id == s.id) {
                            cx.value(s.span, format!("session.id: {} is declared twice", s.id));
                        } else {
                            case.sessions.push(s);
                        }
                    }
                    None => sessions_ok = false,
                }
            }
        }
    }
    if let Some((_, v)) = tomlx::get(top, "model")
        && let Some(t) = cx.table(v, "model")
    {
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
    if let Some((_, v)) = tomlx::get(top, "expect")
        && let Some(t) = cx.table(v, "expect")
    {
        case.expect = expect(&mut cx, t);
    }
    case.parsed = sessions_ok;
    case
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
pub(crate) mod tests {
    use super::*;
    use crate::pack::{Kind, PackFile};

    pub(crate) fn pack_of(files: &[(&str, &str)]) -> Pack {
        let files: Vec<PackFile> = files
            .iter()
            .map(|(p, t)| PackFile {
                path: p.to_string(),
                size: t.len() as u64,
                bytes: t.as_bytes().to_vec(),
                complete: true,
            })
            .collect();
        let index = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.clone(), i))
            .collect();
        Pack {
            dir: "p".into(),
            kind: Kind::Pass,
            entries: Vec::new(),
            files,
            skipped: Vec::new(),
            walk_problems: Vec::new(),
            index,
        }
    }

    const GOOD: &str = r#"protocol = "HIPPO_V1"
pass = "decision-log"
about = "x"

[[session]]
id = "decision-1"
notes = ["notes/Decision log.md"]
handoff = "see [[Decision log]]"

[model]
reply = '''[]'''
verdict = "reject"

[expect]
calls = 1
applied = 0
prompt_contains = ["Decision log"]

[[expect.note]]
path = "notes/Decision log.md"
contains = ["SQLite"]
"#;

    fn run(case: &str) -> (Vec<CaseDef>, Vec<String>) {
        let pack = pack_of(&[
            ("passes/decision-log.toml", ""),
            ("tests/c/case.toml", case),
            ("tests/c/notes/Decision log.md", "# Decision log\n"),
        ]);
        let mut out = Vec::new();
        let cases = check(&pack, &[], &mut out);
        let msgs = out
            .iter()
            .map(|d| format!("{} {}", d.rule.id, d.text("")))
            .collect();
        (cases, msgs)
    }

    #[test]
    fn a_good_case_is_read_with_its_spans() {
        let (cases, msgs) = run(GOOD);
        assert!(msgs.is_empty(), "{msgs:?}");
        let c = &cases[0];
        assert!(c.parsed);
        assert_eq!(c.pass.as_deref(), Some("decision-log"));
        assert_eq!(c.verdict, "reject");
        assert_eq!(c.sessions[0].notes, vec!["notes/Decision log.md"]);
        assert_eq!(c.sessions[0].tool, Tool::ClaudeCode);
        let keys: Vec<_> = c.expect.counts.iter().map(|e| (e.key, e.value)).collect();
        assert_eq!(keys, vec![("calls", 1), ("applied", 0)]);
        let applied = &c.expect.counts[1];
        assert_eq!(&GOOD[applied.span.start..applied.span.end], "applied");
        let item = &c.expect.prompt_contains[0];
        assert_eq!(&GOOD[item.span.start..item.span.end], "\"Decision log\"");
        assert_eq!(c.expect.notes[0].contains[0].text, "SQLite");
    }

    #[test]
    fn defaults() {
        let (cases, msgs) =
            run(&GOOD.replace("[model]\nreply = '''[]'''\nverdict = \"reject\"\n", ""));
        assert!(msgs.is_empty(), "{msgs:?}");
        assert_eq!(cases[0].reply, "[]");
        assert_eq!(cases[0].verdict, "confirm");
    }

    #[test]
    fn every_bad_value_is_reported() {
        let bad = GOOD
            .replace(
                "verdict = \"reject\"",
                "verdict = \"maybe\"\ntemperature = 0.2",
            )
            .replace("pass = \"decision-log\"", "pass = \"nope\"\ncolour = 1")
            .replace("calls = 1", "calls = -1\nproposals = \"2\"")
            .replace("handoff =", "tool = \"cursor\"\nnotes2 = []\nhandoff =")
            .replace("contains = [\"SQLite\"]", "contains = \"SQLite\"\nsize = 1");
        let (cases, msgs) = run(&bad);
        assert_eq!(
            msgs,
            vec![
                "case-unknown-key tests/c/case.toml: unknown key colour",
                "case-value tests/c/case.toml: pass: no pass named nope in this pack",
                "case-unknown-key tests/c/case.toml: unknown key session.notes2",
                "case-value tests/c/case.toml: session.tool: cursor is not claude-code or codex",
                "case-unknown-key tests/c/case.toml: unknown key model.temperature",
                "case-value tests/c/case.toml: model.verdict: maybe is not confirm or reject",
                "case-value tests/c/case.toml: expect.calls: must be a non-negative integer",
                "case-value tests/c/case.toml: expect.proposals: must be a non-negative integer",
                "case-unknown-key tests/c/case.toml: unknown key expect.note.size",
                "case-value tests/c/case.toml: expect.note.contains: expected a list of strings, found a string",
            ]
        );
        assert!(!cases[0].parsed, "a session with a bad tool is not usable");
    }

    #[test]
    fn notes_must_be_existing_notes_paths() {
        let bad = GOOD
            .replace(
                "notes = [\"notes/Decision log.md\"]",
                "notes = [\"notes/../pack.toml\", \"Decision log.md\", \"notes/Gone.md\"]",
            )
            .replace(
                "path = \"notes/Decision log.md\"",
                "path = \"notes/Other.md\"",
            );
        let (_, msgs) = run(&bad);
        assert_eq!(
            msgs,
            vec![
                "case-note tests/c/case.toml: session.notes: notes/../pack.toml is not a notes/<path>.md path without ..",
                "case-note tests/c/case.toml: session.notes: Decision log.md is not a notes/<path>.md path without ..",
                "case-note tests/c/case.toml: session.notes: notes/Gone.md does not exist in tests/c/notes/",
                "case-note tests/c/case.toml: expect.note.path: notes/Other.md does not exist in tests/c/notes/",
            ]
        );
    }

    #[test]
    fn missing_keys_and_syntax() {
        let (_, msgs) = run("about = \"x\"\n");
        assert_eq!(
            msgs,
            vec![
                "case-missing-key tests/c/case.toml: missing key protocol",
                "case-missing-key tests/c/case.toml: missing key pass",
                "case-missing-key tests/c/case.toml: missing key session: a case needs at least one [[session]]",
            ]
        );
        let (cases, msgs) = run("protocol = \n");
        assert_eq!(msgs.len(), 1);
        assert!(
            msgs[0].starts_with("case-syntax tests/c/case.toml:1:"),
            "{msgs:?}"
        );
        assert!(!cases[0].parsed);
        let (_, msgs) = run(&GOOD.replace(
            "id = \"decision-1\"\n",
            "id = \"decision-1\"\n[[session]]\nid = \"decision-1\"\n",
        ));
        assert_eq!(
            msgs,
            vec!["case-value tests/c/case.toml: session.id: decision-1 is declared twice"]
        );
    }
}
