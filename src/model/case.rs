//! A fixture case (`tests/<name>/case.toml`) as `test` runs it, read from its parse ([`read`],
//! with the pack's documents). The rules of its keys and values live in the rules layer
//! (`rules/case.rs`), which judges the same parse; what both ask of a note or a session id is
//! answered here once ([`note_problem`], [`is_session_id`]).

use super::schema;
use super::toml_spans::{self, DeTable, DeValue, Spanned};
use super::transcript::Tool;
use crate::core::Span;
use crate::pack::Pack;

/// A piece of text a case names, with where it stands in case.toml.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Located {
    pub(crate) text: String,
    pub(crate) span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SessionDef {
    pub(crate) id: String,
    /// The `id` key in case.toml.
    pub(crate) span: Span,
    pub(crate) tool: Tool,
    /// `notes/...` paths, as written.
    pub(crate) notes: Vec<String>,
    pub(crate) handoff: String,
}

/// The six counts `[expect]` may name, in the order of hippo's page "Writing a pack".
pub(crate) const COUNT_KEYS: &[&str] = &[
    "calls",
    "proposals",
    "validation_failures",
    "confirmed",
    "rejected",
    "applied",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExpectCount {
    /// One of [`COUNT_KEYS`].
    pub(crate) key: &'static str,
    pub(crate) value: u64,
    /// The key in case.toml.
    pub(crate) span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExpectNote {
    /// `notes/...`.
    pub(crate) path: String,
    /// The `path` key.
    pub(crate) span: Span,
    pub(crate) contains: Vec<Located>,
    pub(crate) excludes: Vec<Located>,
}

/// `[expect]`: only the keys present are checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Expect {
    /// In file order.
    pub(crate) counts: Vec<ExpectCount>,
    pub(crate) prompt_contains: Vec<Located>,
    pub(crate) prompt_excludes: Vec<Located>,
    pub(crate) notes: Vec<ExpectNote>,
}

/// One case as `test` runs it.
#[derive(Debug, Clone, Default)]
pub(crate) struct CaseDef {
    /// The folder name: `tests/<name>/`.
    pub(crate) name: String,
    /// `tests/<name>/case.toml`.
    pub(crate) path: String,
    /// Whether case.toml parsed as TOML and its sessions could be read (the transcript rules
    /// check session ids only then).
    pub(crate) parsed: bool,
    /// The pass under test, when it names a pass file of this pack.
    pub(crate) pass: Option<String>,
    pub(crate) about: Option<String>,
    pub(crate) sessions: Vec<SessionDef>,
    /// `[model] reply`; `[]` when absent.
    pub(crate) reply: String,
    /// `[model] verdict`: `confirm` (default) or `reject`.
    pub(crate) verdict: String,
    pub(crate) expect: Expect,
}

impl CaseDef {
    /// `tests/<name>/`.
    pub(crate) fn dir(&self) -> String {
        format!("tests/{}/", self.name)
    }
}

/// A case's default model: it proposes nothing and its reviewer confirms.
fn unread(name: &str, path: &str) -> CaseDef {
    CaseDef {
        name: name.to_string(),
        path: path.to_string(),
        reply: "[]".to_string(),
        verdict: "confirm".to_string(),
        ..CaseDef::default()
    }
}

/// Why a note path a case names is not a note of the case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoteProblem {
    /// Not `notes/<path>.md`, or with a `.`, `..` or empty component.
    Shape,
    /// Well formed, but no such file in `tests/<case>/notes/`.
    Missing,
}

/// Whether `note` names a Markdown note of the case whose folder is `case_dir`
/// (`tests/<case>/`): `None` when it does.
pub(crate) fn note_problem(pack: &Pack, case_dir: &str, note: &str) -> Option<NoteProblem> {
    let shape_ok = note.starts_with("notes/")
        && note.ends_with(".md")
        && note
            .split('/')
            .all(|c| !c.is_empty() && c != ".." && c != ".");
    if !shape_ok {
        return Some(NoteProblem::Shape);
    }
    let mut path = String::with_capacity(case_dir.len() + note.len());
    path.push_str(case_dir);
    path.push_str(note);
    if pack.file(&path).is_none() {
        Some(NoteProblem::Missing)
    } else {
        None
    }
}

/// A session id: a non-empty line.
pub(crate) fn is_session_id(id: &str) -> bool {
    !(id.trim().is_empty() || id.contains(['\n', '\r']))
}

/// The case `name` (`tests/<name>/case.toml` at `path`) read from its parse (`None`: it does
/// not parse). Each value is read as the case rules allow it: a pass that names a pass file of
/// the pack, sessions with an id and a tool (each id once), a verdict that is `confirm` or
/// `reject`, counts of 0 or more, notes that are notes of the case; a value the rules refuse is
/// left out, and `parsed` says whether the sessions could be read.
pub(crate) fn read(
    pack: &Pack,
    name: &str,
    path: &str,
    doc: Option<&Spanned<DeTable<'_>>>,
) -> CaseDef {
    let mut case = unread(name, path);
    let Some(doc) = doc else { return case };
    case.parsed = true;
    let dir = case.dir();
    for (key, _, v) in schema::fields(doc.get_ref()) {
        match (key, v.get_ref()) {
            ("pass", DeValue::String(p)) if pack.file(&format!("passes/{p}.toml")).is_some() => {
                case.pass = Some(p.to_string());
            }
            ("about", DeValue::String(s)) => case.about = Some(s.to_string()),
            ("session", value) => read_sessions(pack, &dir, value, &mut case),
            ("model", DeValue::Table(t)) => {
                for (key, _, v) in schema::fields(t) {
                    match (key, v.get_ref()) {
                        ("reply", DeValue::String(s)) => case.reply = s.to_string(),
                        ("verdict", DeValue::String(s)) if s == "confirm" || s == "reject" => {
                            case.verdict = s.to_string();
                        }
                        _ => {}
                    }
                }
            }
            ("expect", DeValue::Table(t)) => case.expect = read_expect(pack, &dir, t),
            _ => {}
        }
    }
    case
}

/// `[[session]]`: each session with an id and a tool, its id not declared before; a value of
/// another type, none, or a session that cannot be read clears `parsed`.
fn read_sessions(pack: &Pack, dir: &str, sessions: &DeValue<'_>, case: &mut CaseDef) {
    let Some(tables) = schema::tables(sessions) else {
        case.parsed = false;
        return;
    };
    if tables.is_empty() {
        case.parsed = false;
    }
    for t in tables {
        let mut id = None;
        let mut tool = Some(Tool::ClaudeCode);
        let (mut notes, mut handoff) = (Vec::new(), String::new());
        for (key, key_span, v) in schema::fields(t) {
            match (key, v.get_ref()) {
                ("id", DeValue::String(s)) if is_session_id(s) => id = Some((s, key_span)),
                ("tool", DeValue::String(s)) => tool = Tool::parse(s),
                ("tool", _) => tool = None,
                ("notes", value) => notes = schema::strings(value).unwrap_or_default(),
                ("handoff", DeValue::String(h)) => handoff = h.to_string(),
                _ => {}
            }
        }
        let (Some((id, span)), Some(tool)) = (id, tool) else {
            case.parsed = false;
            continue;
        };
        if case.sessions.iter().any(|o| o.id == **id) {
            continue;
        }
        let mut kept: Vec<String> = Vec::with_capacity(notes.len());
        for note in notes {
            if note_problem(pack, dir, &note).is_none() && !kept.contains(&note) {
                kept.push(note);
            }
        }
        case.sessions.push(SessionDef {
            id: id.to_string(),
            span,
            tool,
            notes: kept,
            handoff,
        });
    }
}

/// `[expect]`: the counts in file order, the prompt's texts and the notes that name a note of
/// the case.
fn read_expect(pack: &Pack, dir: &str, t: &DeTable<'_>) -> Expect {
    let mut expect = Expect::default();
    for (key, key_span, v) in schema::fields(t) {
        let value = v.get_ref();
        if let Some(&count) = COUNT_KEYS.iter().find(|c| **c == key) {
            if let Some(n) = toml_spans::integer(value).filter(|n| *n >= 0) {
                expect.counts.push(ExpectCount {
                    key: count,
                    value: n as u64,
                    span: key_span,
                });
            }
            continue;
        }
        match key {
            "prompt_contains" => expect.prompt_contains = located(value),
            "prompt_excludes" => expect.prompt_excludes = located(value),
            "note" => {
                for n in schema::tables(value).unwrap_or_default() {
                    if let Some(note) = read_note(pack, dir, n) {
                        expect.notes.push(note);
                    }
                }
            }
            _ => {}
        }
    }
    // In file order, as the counts are compared and reported.
    expect.counts.sort_by_key(|c| c.span.start);
    expect
}

/// An `[[expect.note]]` whose path names a note of the case.
fn read_note(pack: &Pack, dir: &str, n: &DeTable<'_>) -> Option<ExpectNote> {
    let mut note = ExpectNote {
        path: String::new(),
        span: Span::new(0, 0),
        contains: Vec::new(),
        excludes: Vec::new(),
    };
    let mut named = false;
    for (key, key_span, v) in schema::fields(n) {
        match (key, v.get_ref()) {
            ("path", DeValue::String(p)) if note_problem(pack, dir, p).is_none() => {
                (note.path, note.span, named) = (p.to_string(), key_span, true);
            }
            ("contains", value) => note.contains = located(value),
            ("excludes", value) => note.excludes = located(value),
            _ => {}
        }
    }
    named.then_some(note)
}

/// A list of strings with their spans (nothing for a value of another type).
fn located(v: &DeValue<'_>) -> Vec<Located> {
    schema::located_strings(v)
        .unwrap_or_default()
        .into_iter()
        .map(|(text, span)| Located { text, span })
        .collect()
}
