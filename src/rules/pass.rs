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
    let mut value_err = |v: &Spanned<DeValue<'_>>, span: Option<Span>, key: &str, why: String| {
        out.push(Diagnostic::key(
            &PASS_VALUE,
            path,
            span.unwrap_or_else(|| tomlx::span_of(v)),
            format!("{key}: {why}"),
        ))
    };
    for (k, v) in tomlx::entries(table) {
        let key = k.get_ref().as_ref();
        let value = v.get_ref();
        match key {
            "protocol" if value.as_str() != Some("HIPPO_V1") => {
                value_err(v, None, key, "must be \"HIPPO_V1\"".into());
            }
            "prompt" | "reviewer" => {
                let folder = if key == "prompt" {
                    "prompts"
                } else {
                    "personas"
                };
                match value.as_str() {
                    None => value_err(v, None, key, expected("a string", value)),
                    Some(s) => {
                        if let Some(why) = file_problem(pack, folder, s) {
                            value_err(v, None, key, why);
                        }
                        if key == "prompt" {
                            def.prompt = s.to_string();
                            def.prompt_span = Some(tomlx::span_of(v));
                        } else {
                            def.reviewer = s.to_string();
                            def.reviewer_span = Some(tomlx::span_of(v));
                        }
                    }
                }
            }
            "reads" => match tomlx::string_list(value) {
                Err(e) => value_err(v, None, key, e),
                Ok(list) => {
                    def.reads_span = Some(tomlx::span_of(v));
                    def.reads = list.iter().map(|(s, _)| s.to_string()).collect();
                    if list.is_empty() {
                        value_err(v, None, key, "must not be empty".into());
                    }
                    for (why, span) in members(&list, INPUTS, "input") {
                        value_err(v, Some(span), key, why);
                    }
                }
            },
            "per_note" => match value.as_bool() {
                Some(b) => def.per_note = b,
                None => value_err(v, None, key, expected("true or false", value)),
            },
            "input_budget_bytes" => match value {
                DeValue::Integer(_) => match tomlx::integer(value) {
                    Some(n) if n > 0 => def.input_budget_bytes = n as u64,
                    _ => value_err(v, None, key, "must be a positive integer".into()),
                },
                other => value_err(v, None, key, expected("a positive integer", other)),
            },
            "note_types" => match tomlx::string_list(value) {
                Err(e) => value_err(v, None, key, e),
                Ok(list) => {
                    def.note_types = list.iter().map(|(s, _)| s.to_string()).collect();
                    if !(1..=5).contains(&list.len()) {
                        value_err(
                            v,
                            None,
                            key,
                            format!("{} types, must be one to five", list.len()),
                        );
                    }
                    for (why, span) in members(&list, NOTE_TYPES, "type") {
                        value_err(v, Some(span), key, why);
                    }
                }
            },
            "note_paths" => match tomlx::string_list(value) {
                Err(e) => value_err(v, None, key, e),
                Ok(list) => {
                    def.note_paths = list.iter().map(|(s, _)| s.to_string()).collect();
                    if !(1..=20).contains(&list.len()) {
                        value_err(
                            v,
                            None,
                            key,
                            format!("{} patterns, must be one to twenty", list.len()),
                        );
                    }
                    for (pattern, span) in &list {
                        if let Some(why) = pattern_problem(pattern) {
                            value_err(v, Some(*span), key, why);
                        }
                    }
                }
            },
            _ => {}
        }
    }
    def
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

/// A pack held in memory, for the unit tests of the rule families.
#[cfg(test)]
pub(crate) fn test_pack(kind: Kind, files: &[(&str, &str)]) -> Pack {
    let files: Vec<crate::pack::PackFile> = files
        .iter()
        .map(|(p, t)| crate::pack::PackFile {
            path: p.to_string(),
            size: t.len() as u64,
            bytes: t.as_bytes().to_vec(),
            complete: true,
        })
        .collect();
    Pack {
        dir: Default::default(),
        kind,
        entries: Vec::new(),
        index: files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.clone(), i))
            .collect(),
        files,
        skipped: Vec::new(),
        walk_problems: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::pass::note_glob;

    fn pack(files: &[(&str, &str)]) -> Pack {
        test_pack(Kind::Pass, files)
    }

    const GOOD: &str = r#"protocol = "HIPPO_V1"
prompt = "prompts/decision-log.md"
reads = ["sessions", "notes", "turns"]
reviewer = "personas/decision-log-reviewer.md"
input_budget_bytes = 200000
per_note = true
note_paths = ["**/Decision log*.md", "**/Decisions.md"]
"#;

    fn run(pass: &str) -> (Vec<PassDef>, bool, Vec<String>) {
        let p = pack(&[
            ("passes/decision-log.toml", pass),
            ("prompts/decision-log.md", "x"),
            ("personas/decision-log-reviewer.md", "x"),
        ]);
        let mut out = Vec::new();
        let (defs, ok) = check(&p, &mut out);
        super::super::finish(&p, &mut out);
        (defs, ok, out.iter().map(|d| d.text("")).collect())
    }

    #[test]
    fn the_page_pass_file_is_clean_and_parsed() {
        let (defs, ok, msgs) = run(GOOD);
        assert!(ok);
        assert_eq!(msgs, Vec::<String>::new());
        let d = &defs[0];
        assert_eq!(d.name, "decision-log");
        assert_eq!(d.prompt, "prompts/decision-log.md");
        assert_eq!(d.reviewer, "personas/decision-log-reviewer.md");
        assert_eq!(d.reads, ["sessions", "notes", "turns"]);
        assert!(d.per_note);
        assert_eq!(d.input_budget_bytes, 200_000);
        assert_eq!(d.note_paths.len(), 2);
        let span = d.prompt_span.unwrap();
        assert_eq!(&GOOD[span.start..span.end], "\"prompts/decision-log.md\"");
    }

    #[test]
    fn the_page_broken_pass_file() {
        let broken = GOOD.replace(
            "per_note = true\n",
            "per_note = true\nnote_type = \"decision\"\nnote_types = [\"diary\"]\n",
        );
        let (_, ok, msgs) = run(&broken);
        assert!(ok, "a pass with bad values still parsed");
        assert_eq!(
            msgs,
            [
                "passes/decision-log.toml: unknown key note_type",
                "passes/decision-log.toml: note_types: unknown type diary",
            ]
        );
    }

    #[test]
    fn missing_keys_and_bad_values() {
        let (defs, _, msgs) = run(
            "protocol = \"HIPPO_V2\"\nprompt = \"prompts/nope.md\"\nreviewer = \"x.md\"\nreads = [\"notes\", \"notes\", \"diff\"]\ninput_budget_bytes = 0\nnote_types = []\nnote_paths = [\"/abs\", \"a/../b\", \"a[\", \"\"]\n",
        );
        for want in [
            "passes/decision-log.toml: missing key per_note",
            "passes/decision-log.toml: protocol: must be \"HIPPO_V1\"",
            "passes/decision-log.toml: prompt: prompts/nope.md is not in this pack",
            "passes/decision-log.toml: reviewer: x.md is not of the form personas/<name>.md",
            "passes/decision-log.toml: reads: notes is listed twice",
            "passes/decision-log.toml: reads: unknown input diff",
            "passes/decision-log.toml: input_budget_bytes: must be a positive integer",
            "passes/decision-log.toml: note_types: 0 types, must be one to five",
            "passes/decision-log.toml: note_paths: /abs starts with /",
            "passes/decision-log.toml: note_paths: a/../b has a .. component",
            "passes/decision-log.toml: note_paths: an empty pattern",
        ] {
            assert!(msgs.iter().any(|m| m == want), "{want} not in {msgs:#?}");
        }
        assert!(
            msgs.iter()
                .any(|m| m
                    .starts_with("passes/decision-log.toml: note_paths: a[ is not a valid glob: ")),
            "{msgs:#?}"
        );
        assert!(
            !msgs.iter().any(|m| m.contains("missing key reads")),
            "reads is present"
        );
        // values are kept as written
        assert_eq!(defs[0].prompt, "prompts/nope.md");
        assert_eq!(defs[0].input_budget_bytes, DEFAULT_INPUT_BUDGET);
    }

    #[test]
    fn wrong_types() {
        let (_, _, msgs) = run(
            "protocol = \"HIPPO_V1\"\nprompt = 1\nreviewer = true\nreads = \"notes\"\nper_note = \"yes\"\ninput_budget_bytes = \"big\"\nnote_types = [1]\n",
        );
        for want in [
            "prompt: expected a string, found an integer",
            "reviewer: expected a string, found a boolean",
            "reads: expected a list of strings, found a string",
            "per_note: expected true or false, found a string",
            "input_budget_bytes: expected a positive integer, found a string",
            "note_types: expected a list of strings, found an integer in it",
        ] {
            let want = format!("passes/decision-log.toml: {want}");
            assert!(msgs.contains(&want), "{want} not in {msgs:#?}");
        }
    }

    #[test]
    fn syntax_errors_are_located_and_clear_the_flag() {
        let (defs, ok, msgs) = run("protocol = \"HIPPO_V1\"\nreads = [\n");
        assert!(!ok);
        assert!(defs.is_empty());
        assert_eq!(msgs.len(), 1);
        assert!(
            msgs[0] == "passes/decision-log.toml:2:10: unclosed array, expected `]`",
            "{}",
            msgs[0]
        );
    }

    #[test]
    fn reserved_names() {
        let p = pack(&[("passes/verify.toml", GOOD)]);
        let mut out = Vec::new();
        check(&p, &mut out);
        assert!(
            out.iter()
                .any(|d| d.text("") == "passes/verify.toml: verify is reserved for core")
        );
        let p = pack(&[("passes/verify-more.toml", GOOD)]);
        let mut out = Vec::new();
        check(&p, &mut out);
        assert!(
            !out.iter().any(|d| d.rule == &RESERVED_PASS_NAME),
            "control: verify-more is not reserved"
        );
    }

    #[test]
    fn note_glob_semantics() {
        let g = note_glob(&["**/Decision log*.md", "**/Decisions.md"]).unwrap();
        assert!(g.is_match("notes/Decision log.md"));
        assert!(g.is_match("notes/a/b/Decision log 2026.md"));
        assert!(g.is_match("notes/Decisions.md"));
        assert!(!g.is_match("notes/Meeting notes.md"), "control");
        let star = note_glob(&["notes/*.md"]).unwrap();
        assert!(star.is_match("notes/x.md"));
        assert!(!star.is_match("notes/a/x.md"), "* does not cross a /");
        let alt = note_glob(&["notes/{a,b}.md", "notes/[xy]?.md"]).unwrap();
        assert!(alt.is_match("notes/b.md") && alt.is_match("notes/y1.md"));
        assert!(!alt.is_match("notes/c.md"));
        let e = note_glob(&["ok/*.md", "a["]).unwrap_err();
        assert!(e.starts_with("a[ is not a valid glob: "), "{e}");
    }

    #[test]
    fn unreadable_pass_clears_the_flag() {
        let mut p = pack(&[("passes/a.toml", GOOD)]);
        p.files[0].bytes = vec![0xff, 0xfe];
        let mut out = Vec::new();
        let (defs, ok) = check(&p, &mut out);
        assert!(!ok && defs.is_empty());
        assert!(
            out.is_empty(),
            "the text rule reports a file that is not UTF-8"
        );
    }
}
