//! Transcripts: `tests/<case>/transcripts/<name>.jsonl` (docs/checks.md, "Fixture cases and
//! transcripts").
//!
//! Every file is read once, with the pack's documents (`model::Documents`, by
//! [`crate::model::transcript::parse`]), for `test` too, and its problems are reported here; then the case-wide rules: at least one timestamp, all of them
//! within 23 hours, every session declared (with the right tool) and every declared session with
//! turns.

use super::declare::declare_rules;
use crate::core::Diagnostic;
use crate::model::Documents;
use crate::model::case::CaseDef;
use crate::model::time::hours_minutes;
use crate::model::transcript::{ProblemKind, Tool, Transcript};
use crate::pack::Pack;

declare_rules! {
    /// A transcript whose first line is not {"synthetic": true}
    ///
    /// The first line of every transcript must be exactly {"synthetic": true}, to mark it as
    /// invented. A pack must never carry a real transcript: it may hold what people said and what
    /// their tools printed.
    ///
    /// How to fix: Make sure the transcript is invented, then put {"synthetic": true} on its first
    /// line.
    pub(crate) static TRANSCRIPT_MARKER = "transcript-marker", Error, VeryHigh, rank = 460, security_severity = "5.0";

    /// A transcript line that is not a JSON object
    ///
    /// A transcript is JSON lines: every non-blank line after the marker is one JSON object (a
    /// record). The finding names the line and serde_json's reason, including a line nested deeper
    /// than its recursion limit.
    ///
    /// How to fix: Write the record as one JSON object on one line.
    pub(crate) static TRANSCRIPT_JSON = "transcript-json", Error, VeryHigh, rank = 470;

    /// A transcript record of the wrong shape
    ///
    /// Claude Code records of type user or assistant carry a sessionId and message.content, a
    /// string or a list of content blocks, each an object with a string type: every type of
    /// Anthropic's API (text, tool_use, tool_result, thinking, image, document, a server tool's
    /// blocks) and any later one is accepted, and only text, tool_use and tool_result give the
    /// turn its text. Codex rollouts start
    /// with a session_meta record whose payload.id is the session id; response_item payloads of
    /// type message have a role and a list of content blocks, function_call a name. Other record
    /// types are kept but are not turns.
    ///
    /// How to fix: Fix the record as the message says; the example transcript on hippo's page
    /// "Writing a pack" shows the Claude Code shape.
    pub(crate) static TRANSCRIPT_RECORD = "transcript-record", Error, VeryHigh, rank = 480;

    /// A transcript timestamp that is not RFC 3339, or a case without one
    ///
    /// Every timestamp is RFC 3339 (2026-11-01T10:00:00.000Z), and at least one record of a case
    /// has one, so the test can pick a dreaming window that holds the case.
    ///
    /// How to fix: Write the timestamp as YYYY-MM-DDTHH:MM:SS with a Z or an offset.
    pub(crate) static TRANSCRIPT_TIMESTAMP = "transcript-timestamp", Error, VeryHigh, rank = 490;

    /// A case whose timestamps span more than 23 hours
    ///
    /// All the timestamps of a case's transcripts together fall within 23 hours, so one dreaming
    /// window holds the case.
    ///
    /// How to fix: Move the timestamps closer together, or split the case in two.
    pub(crate) static TRANSCRIPT_WINDOW = "transcript-window", Error, VeryHigh, rank = 500;

    /// A transcript session case.toml does not declare, or a declared session without turns
    ///
    /// A record's sessionId (a Codex session_meta's payload.id) is the id of a [[session]] of
    /// case.toml, declared with the tool whose format the record has (claude-code or codex), and
    /// every declared session has at least one turn in the case's transcripts.
    ///
    /// How to fix: Declare the session in case.toml with its tool, or fix the id in the transcript.
    pub(crate) static TRANSCRIPT_SESSION = "transcript-session", Error, VeryHigh, rank = 510;
}

/// The 23-hour window, in nanoseconds.
pub(crate) const WINDOW_NANOS: i128 = 23 * 3600 * 1_000_000_000;

/// Judges every case's transcripts, case after case (every case folder with a transcript or a
/// case.toml, in walk order).
pub(crate) fn check(pack: &Pack, docs: &Documents<'_>, out: &mut Vec<Diagnostic>) {
    for folder in &docs.case_folders {
        let case = docs.cases.iter().find(|c| c.name == folder.name);
        let transcripts = docs.transcripts_of(folder);
        // A transcript the text or size rules refuse (not UTF-8, over its limit), or a line
        // that is not JSON, may hold what the case-wide rules look for: their errors say enough.
        let unreadable =
            folder.unreadable || transcripts.iter().any(Transcript::has_unreadable_lines);
        check_case(pack, &folder.name, case, transcripts, unreadable, out);
    }
}

fn check_case(
    pack: &Pack,
    name: &str,
    case: Option<&CaseDef>,
    transcripts: &[Transcript],
    unreadable: bool,
    out: &mut Vec<Diagnostic>,
) {
    let dir = format!("tests/{name}");
    for t in transcripts {
        for p in &t.problems {
            let rule = match p.kind {
                ProblemKind::Marker => &TRANSCRIPT_MARKER,
                ProblemKind::Json => &TRANSCRIPT_JSON,
                ProblemKind::Timestamp => &TRANSCRIPT_TIMESTAMP,
                ProblemKind::Record => &TRANSCRIPT_RECORD,
            };
            out.push(if p.line == 0 {
                Diagnostic::key(rule, &t.path, p.span, p.message.clone())
            } else {
                Diagnostic::line(rule, &t.path, p.span, p.message.clone())
            });
        }
    }
    window(transcripts, &dir, unreadable, out);
    // Sessions: only when case.toml could be read.
    if let Some(case) = case.filter(|c| c.parsed) {
        let case_file = format!("{dir}/case.toml");
        let anchored = pack.file(&case_file).is_some();
        let sessions = Sessions {
            case,
            case_file: &case_file,
            anchored,
            transcripts,
        };
        sessions.declared(out);
        // A file or a line that could not be read may hold the missing turns: its error says
        // enough.
        if !unreadable {
            sessions.with_turns(&dir, out);
        }
    }
}

/// Timestamps: at least one, all within 23 hours.
fn window(transcripts: &[Transcript], dir: &str, unreadable: bool, out: &mut Vec<Diagnostic>) {
    let stamps = transcripts.iter().flat_map(|t| {
        t.timestamps
            .iter()
            .map(move |(n, _, span)| (*n, t.path.as_str(), *span))
    });
    let earliest = stamps.clone().min_by_key(|s| s.0);
    let latest = stamps.clone().max_by_key(|s| s.0);
    let any_bad_stamp = transcripts
        .iter()
        .any(|t| t.problems.iter().any(|p| p.kind == ProblemKind::Timestamp));
    match (earliest, latest) {
        (Some(first), Some(last)) => {
            let span = last.0 - first.0;
            if span > WINDOW_NANOS {
                out.push(
                    Diagnostic::file(
                        &TRANSCRIPT_WINDOW,
                        dir,
                        format!(
                            "timestamps span {}, over the 23-hour window",
                            hours_minutes(span)
                        ),
                    )
                    .pointing_at(Some(last.1.to_string()), Some(last.2)),
                );
            }
        }
        _ if !transcripts.is_empty() && !any_bad_stamp && !unreadable => out.push(
            Diagnostic::file(
                &TRANSCRIPT_TIMESTAMP,
                dir,
                "no record of the case's transcripts has a timestamp",
            )
            .pointing_at(transcripts.first().map(|t| t.path.clone()), None),
        ),
        _ => {}
    }
}

/// The sessions of a case that case.toml declares, against those its transcripts hold.
struct Sessions<'a> {
    case: &'a CaseDef,
    case_file: &'a str,
    /// Whether case.toml is in the pack (a finding on it points at it).
    anchored: bool,
    transcripts: &'a [Transcript],
}

impl Sessions<'_> {
    /// Every session a transcript names is declared, with the transcript's tool.
    fn declared(&self, out: &mut Vec<Diagnostic>) {
        for t in self.transcripts {
            for r in &t.sessions {
                let message = match self.case.sessions.iter().find(|s| s.id == r.id) {
                    None => format!("session {} is not declared in {}", r.id, self.case_file),
                    // The page: "a transcript is JSON lines in the Claude Code format", so a
                    // session declared codex accepts those records too (docs/checks.md).
                    Some(s)
                        if s.tool != r.tool
                            && !(s.tool == Tool::Codex && r.tool == Tool::ClaudeCode) =>
                    {
                        format!(
                            "session {} is declared with tool = \"{}\" but this is {}",
                            r.id,
                            s.tool.as_str(),
                            r.tool.format_name()
                        )
                    }
                    Some(_) => continue,
                };
                out.push(Diagnostic::line(
                    &TRANSCRIPT_SESSION,
                    &t.path,
                    r.span,
                    message,
                ));
            }
        }
    }

    /// Every declared session has turns.
    fn with_turns(&self, dir: &str, out: &mut Vec<Diagnostic>) {
        for s in &self.case.sessions {
            let has_turns = self
                .transcripts
                .iter()
                .flat_map(|t| &t.turns)
                .any(|turn| *turn.session == *s.id);
            if !has_turns {
                let d = Diagnostic::key(
                    &TRANSCRIPT_SESSION,
                    self.case_file,
                    s.span,
                    format!("session {} has no turns in {dir}/transcripts/", s.id),
                );
                out.push(if self.anchored {
                    d
                } else {
                    d.pointing_at(None, None)
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::case;

    const CASE: &str = r#"protocol = "HIPPO_V1"
pass = "p"

[[session]]
id = "s1"
notes = ["notes/N.md"]

[[session]]
id = "cx"
tool = "codex"
"#;

    const CLAUDE: &str = r#"{"synthetic": true}
{"type": "user", "sessionId": "s1", "timestamp": "2026-11-01T10:00:00.000Z", "message": {"content": "hi"}}
"#;
    const CODEX: &str = r#"{"synthetic": true}
{"timestamp": "2026-11-01T11:00:00Z", "type": "session_meta", "payload": {"id": "cx"}}
{"timestamp": "2026-11-01T11:00:01Z", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]}}
"#;

    fn run(files: &[(&str, &str)]) -> Vec<String> {
        let mut all = vec![
            ("passes/p.toml", ""),
            ("tests/c/case.toml", CASE),
            ("tests/c/notes/N.md", "n"),
        ];
        all.extend_from_slice(files);
        let pack = crate::pack::testing::text_pack(crate::pack::PackKind::Pass, &all);
        let mut out = Vec::new();
        let docs = Documents::read(&pack);
        case::check(&pack, &docs, &mut out);
        assert!(out.is_empty());
        check(&pack, &docs, &mut out);
        crate::rules::finish(&pack, &mut out);
        out.iter()
            .map(|d| format!("{} {}", d.rule.id, d.text("")))
            .collect()
    }

    #[test]
    fn good_transcripts_pass() {
        let msgs = run(&[
            ("tests/c/transcripts/a.jsonl", CLAUDE),
            ("tests/c/transcripts/b.jsonl", CODEX),
        ]);
        assert!(msgs.is_empty(), "{msgs:?}");
    }

    #[test]
    fn the_marker_alone_is_reported() {
        let msgs = run(&[
            (
                "tests/c/transcripts/a.jsonl",
                CLAUDE.split_once('\n').unwrap().1,
            ),
            ("tests/c/transcripts/b.jsonl", CODEX),
        ]);
        assert_eq!(
            msgs,
            vec![
                "transcript-marker tests/c/transcripts/a.jsonl: the first line is not {\"synthetic\": true}"
            ]
        );
    }

    #[test]
    fn the_window_and_the_sessions() {
        let late = CODEX.replace("2026-11-01T11:00:0", "2026-11-02T11:03:0");
        let msgs = run(&[
            ("tests/c/transcripts/a.jsonl", CLAUDE),
            ("tests/c/transcripts/b.jsonl", &late),
        ]);
        assert_eq!(
            msgs,
            vec!["transcript-window tests/c: timestamps span 25h 04m, over the 23-hour window"]
        );
        let msgs = run(&[(
            "tests/c/transcripts/a.jsonl",
            &CLAUDE.replace("\"s1\"", "\"s2\""),
        )]);
        assert_eq!(
            msgs,
            vec![
                "transcript-session tests/c/case.toml: session s1 has no turns in tests/c/transcripts/",
                "transcript-session tests/c/case.toml: session cx has no turns in tests/c/transcripts/",
                "transcript-session tests/c/transcripts/a.jsonl:2: session s2 is not declared in tests/c/case.toml",
            ]
        );
        let msgs = run(&[
            ("tests/c/transcripts/a.jsonl", CLAUDE),
            (
                "tests/c/transcripts/b.jsonl",
                &CODEX.replace("\"cx\"", "\"s1\""),
            ),
        ]);
        assert_eq!(
            msgs,
            vec![
                "transcript-session tests/c/case.toml: session cx has no turns in tests/c/transcripts/",
                "transcript-session tests/c/transcripts/b.jsonl:2: session s1 is declared with tool = \"claude-code\" but this is a Codex rollout record",
            ]
        );
    }

    #[test]
    fn lines_timestamps_and_no_cascade() {
        let text = format!(
            "{CLAUDE}not json\n{}\n",
            r#"{"type": "assistant", "sessionId": "s1", "timestamp": "2026-11-01 10:00", "message": {"content": "x"}}"#
        );
        let msgs = run(&[("tests/c/transcripts/a.jsonl", &text)]);
        assert_eq!(
            msgs,
            vec![
                "transcript-json tests/c/transcripts/a.jsonl:3: not JSON: expected ident at column 2",
                "transcript-timestamp tests/c/transcripts/a.jsonl:4: timestamp \"2026-11-01 10:00\" is not RFC 3339",
            ],
            "no 'cx has no turns' after an unreadable line"
        );
        let none = "{\"synthetic\": true}\n{\"type\": \"user\", \"sessionId\": \"s1\", \"message\": {\"content\": \"x\"}}\n";
        let codex_plain = CODEX
            .lines()
            .map(|l| match l.find("\"type\"") {
                Some(i) if l.starts_with("{\"timestamp\"") => format!("{{{}", &l[i..]),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n");
        let msgs = run(&[
            ("tests/c/transcripts/a.jsonl", none),
            ("tests/c/transcripts/b.jsonl", &codex_plain),
        ]);
        assert_eq!(
            msgs,
            vec![
                "transcript-timestamp tests/c: no record of the case's transcripts has a timestamp"
            ]
        );
    }
}
