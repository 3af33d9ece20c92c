//! The spellings a reader undoes that are not a payload in a string: a name a case-insensitive
//! disk folds into another, a filler or a line break in a name, a line terminator in a
//! one-line value, a glob spelling of `..` or `/`, a JSON key written twice (in a transcript
//! record, at any depth, in any spelling, and in theme.json). One row a spelling, each
//! with the finding it must draw and a near miss that must draw nothing of that rule in that
//! file, so the next spelling is a row (docs/security.md, "Spellings").

use super::*;

/// One change to a fresh copy of the page's good pack.
enum Edit {
    /// A file written (its folders made).
    Write(&'static str, &'static str),
    /// The line of a file that starts with the prefix, replaced.
    Line(&'static str, &'static str, &'static str),
}

struct Row {
    spelling: &'static str,
    edits: &'static [Edit],
    /// The file, rule and severity the spelling must draw.
    file: &'static str,
    rule: &'static str,
    severity: &'static str,
    /// A near miss: the same file draws nothing of that rule.
    near: &'static [Edit],
    near_file: &'static str,
    /// The row's pack is a theme pack (else the page's good pass pack).
    theme: bool,
}

use Edit::{Line, Write};

const DESCRIPTION: &str = "description = ";
const AUTHORS: &str = "authors = ";
const NOTE_PATHS: &str = "note_paths = ";
const PASS: &str = "passes/decision-log.toml";
const TRANSCRIPT: &str = "tests/cache-store/transcripts/decision-1.jsonl";

/// A one-line value and its near miss (a no-break space, which is on the line).
macro_rules! one_line {
    ($name:literal, $escape:literal) => {
        [
            Row {
                spelling: concat!("description holding ", $name),
                edits: &[Line(
                    "pack.toml",
                    DESCRIPTION,
                    concat!("description = \"A pass", $escape, "that logs.\""),
                )],
                file: "pack.toml",
                rule: "manifest-value",
                severity: "error",
                near: &[Line(
                    "pack.toml",
                    DESCRIPTION,
                    "description = \"A pass\\u00A0that logs.\"",
                )],
                near_file: "pack.toml",
                theme: false,
            },
            Row {
                spelling: concat!("an authors entry holding ", $name),
                edits: &[Line(
                    "pack.toml",
                    AUTHORS,
                    concat!("authors = [\"Ann", $escape, "Lee\"]"),
                )],
                file: "pack.toml",
                rule: "manifest-value",
                severity: "error",
                near: &[Line("pack.toml", AUTHORS, "authors = [\"Ann\\u00A0Lee\"]")],
                near_file: "pack.toml",
                theme: false,
            },
        ]
    };
}

/// A `note_paths` glob and its near miss (a glob that stays in the workspace).
macro_rules! glob {
    ($name:literal, $glob:literal) => {
        Row {
            spelling: concat!("note_paths ", $name),
            edits: &[Line(
                PASS,
                NOTE_PATHS,
                concat!("note_paths = ['", $glob, "']"),
            )],
            file: PASS,
            rule: "pass-value",
            severity: "error",
            near: &[Line(
                PASS,
                NOTE_PATHS,
                "note_paths = ['notes/[.]drafts/*.md', '{notes,x}/*.md', '**/*.md']",
            )],
            near_file: PASS,
            theme: false,
        }
    };
}

/// Two names one disk takes for one; the near miss, two names only the full folding joins.
macro_rules! fold {
    ($name:literal, $a:literal, $b:literal, $later:literal) => {
        Row {
            spelling: $name,
            edits: &[Write($a, "# x\n"), Write($b, "# x\n")],
            file: $later,
            rule: "case-collision",
            severity: "error",
            near: &[
                Write("templates/Stra\u{DF}e.md", "# x\n"),
                Write("templates/Strasse.md", "# x\n"),
            ],
            near_file: "templates/Strasse.md",
            theme: false,
        }
    };
}

fn rows() -> Vec<Row> {
    let mut v = names();
    v.extend(json_keys());
    for pair in [
        one_line!("LF", "\\n"),
        one_line!("CR", "\\r"),
        one_line!("VT", "\\u000B"),
        one_line!("FF", "\\f"),
        one_line!("U+0085", "\\u0085"),
        one_line!("U+2028", "\u{2028}"),
        one_line!("U+2029", "\\u2029"),
    ] {
        v.extend(pair);
    }
    v
}

/// Names a disk folds together, fillers and line breaks in names, and glob spellings.
fn names() -> Vec<Row> {
    vec![
        fold!(
            "a long s beside an s",
            "templates/seed.md",
            "templates/\u{17F}eed.md",
            "templates/\u{17F}eed.md"
        ),
        fold!(
            "a final sigma beside a sigma",
            "templates/\u{3C3}.md",
            "templates/\u{3C2}.md",
            "templates/\u{3C3}.md"
        ),
        fold!(
            "a micro sign beside a mu",
            "templates/\u{B5}.md",
            "templates/\u{3BC}.md",
            "templates/\u{3BC}.md"
        ),
        fold!(
            "an é composed beside one decomposed",
            "templates/caf\u{E9}.md",
            "templates/cafe\u{301}.md",
            "templates/caf\u{E9}.md"
        ),
        Row {
            spelling: "a Hangul filler as a name",
            edits: &[Write("templates/\u{3164}.md", "# x\n")],
            file: "templates/\u{3164}.md",
            rule: "ignorable-character",
            severity: "warning",
            near: &[Write("templates/\u{314E}.md", "# x\n")],
            near_file: "templates/\u{314E}.md",
            theme: false,
        },
        Row {
            spelling: "a carriage return in a name",
            edits: &[Write("templates/a\rb.md", "# x\n")],
            file: "templates/a\rb.md",
            rule: "path-component",
            severity: "error",
            near: &[Write("templates/a b.md", "# x\n")],
            near_file: "templates/a b.md",
            theme: false,
        },
        Row {
            spelling: "a line feed in a name",
            edits: &[Write("templates/a\nb.md", "# x\n")],
            file: "templates/a\nb.md",
            rule: "path-component",
            severity: "error",
            near: &[Write("templates/a_b.md", "# x\n")],
            near_file: "templates/a_b.md",
            theme: false,
        },
        glob!("with a class of dots", "[.][.]/x/*.md"),
        glob!("with an alternation of ..", "{..,a}/x.md"),
        glob!("with escaped dots", "\\.\\./x.md"),
        glob!("with an alternation of a root", "{/etc,a}/x.md"),
        glob!("with a class of the slash", "[/]etc/x.md"),
    ]
}

/// A JSON key given twice: in a transcript record, nested and escaped, in theme.json.
fn json_keys() -> Vec<Row> {
    vec![
        Row {
            spelling: "a transcript record giving timestamp twice",
            edits: &[Write(
                TRANSCRIPT,
                concat!(
                    "{\"synthetic\": true}\n",
                    "{\"type\": \"user\", \"sessionId\": \"decision-1\", \"timestamp\": \"2026-11-01T10:00:00.000Z\", \"timestamp\": \"2026-11-03T10:00:00.000Z\", \"message\": {\"role\": \"user\", \"content\": \"Where does the cache go?\"}}\n",
                ),
            )],
            file: TRANSCRIPT,
            rule: "transcript-record",
            severity: "error",
            near: &[Write(
                TRANSCRIPT,
                concat!(
                    "{\"synthetic\": true}\n",
                    "{\"type\": \"user\", \"sessionId\": \"decision-1\", \"timestamp\": \"2026-11-01T10:00:00.000Z\", \"message\": {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"timestamp\"}], \"timestamp\": \"x\"}}\n",
                ),
            )],
            near_file: TRANSCRIPT,
            theme: false,
        },
        Row {
            spelling: "a nested key twice, one spelled with an escape",
            edits: &[Write(
                TRANSCRIPT,
                concat!(
                    "{\"synthetic\": true}\n",
                    "{\"type\": \"user\", \"sessionId\": \"decision-1\", \"timestamp\": \"2026-11-01T10:00:00.000Z\", \"message\": {\"role\": \"user\", \"content\": \"a\", \"cont\\u0065nt\": \"b\"}}\n",
                ),
            )],
            file: TRANSCRIPT,
            rule: "transcript-record",
            severity: "error",
            near: &[Write(
                TRANSCRIPT,
                concat!(
                    "{\"synthetic\": true}\n",
                    "{\"type\": \"user\", \"sessionId\": \"decision-1\", \"timestamp\": \"2026-11-01T10:00:00.000Z\", \"message\": {\"role\": \"user\", \"content\": \"a\", \"cont\\u0065nts\": \"b\"}}\n",
                ),
            )],
            near_file: TRANSCRIPT,
            theme: false,
        },
        Row {
            spelling: "theme.json giving a key twice",
            edits: &[Write(
                "theme.json",
                "{\n  \"accent\": \"#336699\",\n  \"accent\": \"#ff0000\"\n}\n",
            )],
            file: "theme.json",
            rule: "theme-json-syntax",
            severity: "error",
            near: &[Write(
                "theme.json",
                "{\n  \"accent\": \"#336699\",\n  \"dark\": {\"accent\": \"#ff0000\"}\n}\n",
            )],
            near_file: "theme.json",
            theme: true,
        },
    ]
}

fn apply(dir: &Path, edits: &[Edit]) {
    for e in edits {
        match *e {
            Write(path, text) => {
                let file = dir.join(path);
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(file, text).unwrap();
            }
            Line(path, start, with) => {
                let file = dir.join(path);
                let text = std::fs::read_to_string(&file).unwrap();
                assert!(text.contains(start), "{path} has no line {start}");
                std::fs::write(&file, replace_line(&text, start, with)).unwrap();
            }
        }
    }
}

/// A path as the reports show it: controls and hidden characters as `U+XXXX`.
fn shown(path: &str) -> String {
    path.chars()
        .map(
            |c| match c.is_control() || hippo_packs::core::is_hidden(c) {
                true => format!("U+{:04X}", c as u32),
                false => c.to_string(),
            },
        )
        .collect()
}

/// [`findings`], each under the path it names (a name's finding points at pack.toml) as well
/// as the file it points at.
fn named_findings(
    root: &Path,
    dirs: &[&str],
) -> BTreeMap<String, BTreeSet<(String, String, String)>> {
    let mut args = vec!["check", "--format", "json"];
    args.extend(dirs);
    let (code, out, err) = common::run(root, &args);
    assert!(code == 0 || code == 1, "check exited {code}: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let mut by_pack = BTreeMap::new();
    for p in v["packs"].as_array().unwrap() {
        let mut set = BTreeSet::new();
        for d in p["diagnostics"].as_array().unwrap() {
            let s = |k: &str| d[k].as_str().unwrap_or("").to_string();
            for at in [s("path"), s("file")] {
                set.insert((at, s("rule"), s("severity")));
            }
        }
        by_pack.insert(p["path"].as_str().unwrap().to_string(), set);
    }
    by_pack
}

/// Each row and its near miss in packs of their own; returns what went wrong.
fn wrong(rows: &[Row]) -> Vec<String> {
    let d = tempfile::tempdir().unwrap();
    let mut dirs = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        for (kind, edits) in [("bad", r.edits), ("near", r.near)] {
            let dir = format!("{kind}{i}");
            fresh(d.path(), &dir, r.theme);
            apply(&d.path().join(&dir), edits);
            dirs.push(dir);
        }
    }
    let refs: Vec<&str> = dirs.iter().map(String::as_str).collect();
    let found = named_findings(d.path(), &refs);
    let mut out = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let has = |dir: String, file: &str| -> BTreeSet<String> {
            let file = shown(file);
            found[&dir]
                .iter()
                .filter(|(f, rule, _)| *f == file && rule == r.rule)
                .map(|(_, _, s)| s.clone())
                .collect()
        };
        let bad = has(format!("bad{i}"), r.file);
        if !bad.contains(r.severity) {
            out.push(format!(
                "{}: want {} {} in {:?}, got {bad:?}",
                r.spelling, r.severity, r.rule, r.file
            ));
        }
        let near = has(format!("near{i}"), r.near_file);
        if !near.is_empty() {
            out.push(format!(
                "{} (near miss): {} in {:?}: {near:?}",
                r.spelling, r.rule, r.near_file
            ));
        }
    }
    out
}

#[test]
fn every_spelling_a_reader_undoes_is_reported_and_its_near_miss_is_not() {
    let rows = rows();
    assert!(rows.len() >= 25, "the rows were lost: {}", rows.len());
    let w = wrong(&rows);
    assert!(
        w.is_empty(),
        "{} of {} rows:\n{}",
        w.len(),
        rows.len(),
        w.join("\n")
    );
}

#[test]
fn control_a_row_the_gate_does_not_report_is_caught() {
    // A spelling the gate has no reason to report, and a near miss that is the spelling itself.
    let rows = [Row {
        spelling: "a plain template",
        edits: &[Write("templates/plain.md", "# x\n")],
        file: "templates/plain.md",
        rule: "case-collision",
        severity: "error",
        near: &[
            Write("templates/seed.md", "# x\n"),
            Write("templates/Seed.md", "# x\n"),
        ],
        near_file: "templates/seed.md",
        theme: false,
    }];
    assert_eq!(wrong(&rows).len(), 2);
}
