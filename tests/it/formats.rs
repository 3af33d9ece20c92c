//! JSON report, GitHub annotations, JUnit XML and the `rules` command.

use crate::common;

use common::{copy_pack, run};
use hippo_packs::core::{Diagnostic, Severity, Span};
use hippo_packs::dream::Counts;
use hippo_packs::outcome::{CaseResult, Mode, PackReport};
use hippo_packs::report::{annotations, json, junit};
use hippo_packs::rules::{self, layout};
use serde_json::Value;

fn text_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("error ") || l.starts_with("warning "))
        .collect()
}

/// A copy of the good pack, checked, with one passing and one failing case attached (what the
/// fixture runner hands the renderers).
fn tested(tmp: &std::path::Path) -> PackReport {
    let dir = copy_pack("decision-log", tmp, "decision-log");
    let (mut report, loaded) = hippo_packs::check::check_dir(dir.to_str().unwrap(), String::new());
    let loaded = loaded.unwrap();
    report.uri_base = "decision-log".into();
    let case_toml = "tests/cache-store/case.toml";
    let text = std::str::from_utf8(&loaded.pack.file(case_toml).unwrap().bytes)
        .unwrap()
        .to_string();
    let at = |needle: &str| {
        let s = text.find(needle).unwrap();
        Span::new(s, s + needle.len())
    };
    let mut failures = vec![
        Diagnostic::key(
            &hippo_packs::rules::test::TEST_EXPECTATION,
            case_toml,
            at("applied = 1"),
            "applied: expected 0, got 1",
        ),
        Diagnostic::key(
            &hippo_packs::rules::test::TEST_EXPECTATION,
            case_toml,
            at("contains = [\"SQLite file\"]"),
            "note notes/Decision log.md: \"postgres\" <not> found\u{7}",
        ),
    ];
    rules::resolve(&loaded.pack, &mut failures);
    report.cases = vec![
        CaseResult {
            name: "a-passing-case".into(),
            counts: Counts {
                calls: 1,
                applied: 1,
                ..Counts::default()
            },
            ..CaseResult::default()
        },
        CaseResult {
            name: "cache-store".into(),
            counts: Counts {
                calls: 1,
                proposals: 1,
                confirmed: 1,
                applied: 1,
                ..Counts::default()
            },
            failures,
            ..CaseResult::default()
        },
    ];
    report
}

// ---- JSON ----

#[test]
fn json_carries_every_text_line_with_its_location() {
    let tmp = tempfile::tempdir().unwrap();
    copy_pack("broken", tmp.path(), "broken");
    copy_pack("decision-log", tmp.path(), "good");
    let args = ["check", "broken", "good", "nowhere"];
    let (code, text, _) = run(tmp.path(), &args);
    let (jcode, out, _) = run(tmp.path(), &[&args[..], &["--format", "json"]].concat());
    assert_eq!((code, jcode), (1, 1));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "hippo-packs/v1");
    assert_eq!(v["command"], "check");
    let packs = v["packs"].as_array().unwrap();
    assert_eq!(packs.len(), 3);
    let all: Vec<&str> = packs
        .iter()
        .flat_map(|p| p["diagnostics"].as_array().unwrap())
        .map(|d| d["text"].as_str().unwrap())
        .collect();
    // Per pack the text output's order is errors then warnings; the JSON keeps each pack's list.
    let mut want = text_lines(&text);
    let mut got = all.clone();
    want.sort();
    got.sort();
    assert_eq!(
        got, want,
        "one diagnostic per text line, with the same text"
    );
    let broken = &packs[0];
    assert_eq!(broken["path"], "broken");
    assert_eq!(broken["name"], "decision-log");
    assert_eq!(broken["kind"], "pass");
    assert_eq!(broken["verdict"], "failed");
    assert!(broken.get("cases").is_none(), "check has no cases");
    let d = &broken["diagnostics"][0];
    assert_eq!(d["rule"], "manifest-unknown-key");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["path"], "pack.toml");
    assert_eq!(d["location"], "broken/pack.toml");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(7), Some(1))
    );
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .starts_with("unknown field `homepage`")
    );
    assert_eq!(packs[1]["verdict"], "ok");
    assert_eq!(packs[1]["name"], "decision-log");
    assert_eq!(packs[2]["verdict"], "failed");
    assert_eq!(packs[2]["diagnostics"][0]["rule"], "unreadable");
    assert_eq!(packs[2]["diagnostics"][0]["file"], Value::Null);
    assert_eq!(packs[2]["diagnostics"][0]["location"], "nowhere");
    assert_eq!(v["summary"]["packs"], 3);
    assert_eq!(v["summary"]["failed_packs"], 2);
    let (_, again, _) = run(tmp.path(), &[&args[..], &["--format", "json"]].concat());
    assert_eq!(out, again, "identical bytes on re-run");
}

#[test]
fn json_test_report_has_cases_counts_and_failures() {
    let tmp = tempfile::tempdir().unwrap();
    let report = tested(tmp.path());
    let v: Value = serde_json::from_str(&json::render(&[report], Mode::Test)).unwrap();
    assert_eq!(v["command"], "test");
    let p = &v["packs"][0];
    assert_eq!(p["verdict"], "failed");
    let cases = p["cases"].as_array().unwrap();
    assert_eq!(cases[0]["name"], "a-passing-case");
    assert_eq!(cases[0]["verdict"], "ok");
    assert_eq!(cases[0]["counts"]["calls"], 1);
    assert_eq!(cases[1]["verdict"], "failed");
    assert_eq!(cases[1]["counts"]["proposals"], 1);
    let f = &cases[1]["failures"][0];
    assert_eq!(f["rule"], "test-expectation");
    assert_eq!(f["message"], "applied: expected 0, got 1");
    assert_eq!(
        f["text"],
        "FAIL decision-log/cache-store: applied: expected 0, got 1"
    );
    assert_eq!(f["location"], "decision-log/tests/cache-store/case.toml");
    assert!(f["line"].as_u64().unwrap() > 1);
    // Pack text is escaped as the text output escapes it.
    let f2 = &cases[1]["failures"][1];
    assert!(
        f2["message"]
            .as_str()
            .unwrap()
            .ends_with("<not> foundU+0007")
    );
    assert_eq!(v["summary"]["failed_cases"], 1);
    assert_eq!(v["summary"]["cases"], 2);
}

// ---- GitHub annotations ----

fn is_command(line: &str) -> bool {
    regex::Regex::new(r"^::(error|warning) (file=[^,:]*(,line=\d+(,endLine=\d+(,col=\d+,endColumn=\d+)?)?)?,)?title=hippo-packs( \([a-z0-9-]+\))?::")
        .unwrap()
        .is_match(line)
}

#[test]
fn annotations_one_per_text_line_errors_first() {
    let tmp = tempfile::tempdir().unwrap();
    copy_pack("broken", tmp.path(), "broken");
    let pack = copy_pack("decision-log", tmp.path(), "good");
    // A file name with the property separators, and an invisible character after two emoji.
    std::fs::write(pack.join("notes, v2: draft.txt"), "x").unwrap();
    let mut readme = std::fs::read_to_string(pack.join("README.md")).unwrap();
    let line = readme.lines().count() + 1;
    readme.push_str("emoji 😀😀\u{202E}here\n");
    std::fs::write(pack.join("README.md"), readme).unwrap();
    let (_, text, _) = run(tmp.path(), &["check", "broken", "good"]);
    let (code, out, _) = run(
        tmp.path(),
        &["check", "broken", "good", "--format", "github"],
    );
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), text_lines(&text).len());
    for l in &lines {
        assert!(is_command(l), "not one well-formed command: {l}");
    }
    let first_warning = lines.iter().position(|l| l.starts_with("::warning"));
    let last_error = lines.iter().rposition(|l| l.starts_with("::error"));
    assert!(first_warning.is_some() && last_error.is_some());
    assert!(
        last_error < first_warning,
        "errors of every pack before warnings"
    );
    assert!(lines.contains(&format!(
        "::error file=good/README.md,line={line},endLine={line},col=9,endColumn=10,title=hippo-packs (invisible-character)::U+202E"
    ).as_str()), "code-point columns: {out}");
    assert!(
        lines.contains(&"::error file=good/notes%2C v2%3A draft.txt,line=1,title=hippo-packs (unexpected-file)::unexpected file notes, v2: draft.txt"),
        "{out}"
    );
}

#[test]
fn annotation_messages_cannot_start_a_line() {
    let mut r = PackReport {
        dir: "p".into(),
        uri_base: "p".into(),
        ..PackReport::default()
    };
    r.diagnostics.push(Diagnostic::file(
        &layout::SYMBOLIC_LINK,
        "a\n::error::b.md",
        "100% bad\r\n::warning file=x::owned\u{202E}",
    ));
    let out = annotations::render(&[r], Mode::Check);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert_eq!(
        out,
        "::error file=p/a%0A%3A%3Aerror%3A%3Ab.md,line=1,title=hippo-packs (symbolic-link)::100%25 bad%0D%0A::warning file=x::ownedU+202E\n"
    );
    // Control: without the escaping the message would have opened a second command line.
    assert!(
        "100% bad\r\n::warning file=x::owned"
            .lines()
            .any(|l| l.starts_with("::"))
    );
}

#[test]
fn test_annotations_cover_failed_cases_and_leave_warnings_out() {
    let tmp = tempfile::tempdir().unwrap();
    let mut report = tested(tmp.path());
    report.diagnostics.push(
        Diagnostic::file(&layout::SPECIAL_FILE, "README.md", "a warning")
            .with_severity(Severity::Warning),
    );
    let out = annotations::render(std::slice::from_ref(&report), Mode::Test);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("::error file=decision-log/tests/cache-store/case.toml,line="));
    assert!(lines[0].ends_with("title=hippo-packs (test-expectation)::applied: expected 0, got 1"));
    assert!(lines[1].ends_with("\"postgres\" <not> foundU+0007"));
    let check = annotations::render(&[report], Mode::Check);
    assert!(
        check.lines().last().unwrap().starts_with("::warning "),
        "check keeps warnings"
    );
}

// ---- JUnit ----

/// Parses the whole document (well-formed, entities valid) and returns
/// (testsuites, testcases, failures).
fn parse_junit(xml: &str) -> (usize, usize, usize) {
    use quick_xml::events::Event;
    for c in xml.chars() {
        assert!(
            matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..),
            "a character XML 1.0 forbids: U+{:04X}",
            c as u32
        );
    }
    let mut reader = quick_xml::Reader::from_str(xml);
    let (mut suites, mut cases, mut failures) = (0, 0, 0);
    let mut depth = 0i32;
    loop {
        let event = reader.read_event().expect("well-formed XML");
        if let Event::Start(e) | Event::Empty(e) = &event {
            for a in e.attributes() {
                a.unwrap()
                    .normalized_value(quick_xml::XmlVersion::Explicit1_0)
                    .expect("valid entities");
            }
            match e.name().0 {
                "testsuite" => suites += 1,
                "testcase" => cases += 1,
                "failure" => failures += 1,
                _ => {}
            }
        }
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => depth -= 1,
            Event::GeneralRef(r) => {
                let known = matches!(&*r.xml10_content(), "amp" | "lt" | "gt" | "quot" | "apos");
                assert!(
                    known || r.resolve_char_ref().unwrap().is_some(),
                    "entity {r:?}"
                );
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0);
    (suites, cases, failures)
}

#[test]
fn junit_one_suite_per_pack_one_case_per_case_one_failure_per_failed_case() {
    let tmp = tempfile::tempdir().unwrap();
    let reports = || {
        let invalid = PackReport {
            dir: "bad & <worse>".into(),
            diagnostics: vec![Diagnostic::file(
                &layout::SYMBOLIC_LINK,
                "x\u{FFFF}.md",
                "symbolic link \u{1}",
            )],
            ..PackReport::default()
        };
        let unmatched = PackReport {
            dir: "p".into(),
            no_case: Some("nope".into()),
            ..PackReport::default()
        };
        vec![tested(tmp.path()), invalid, unmatched]
    };
    let xml = junit::render(&reports());
    let (suites, cases, failures) = parse_junit(&xml);
    // One `<failure>` per failed testcase (several in one are rejected by some readers), with
    // every failed expectation in its text.
    assert_eq!((suites, cases, failures), (3, 4, 3), "{xml}");
    assert!(
        xml.contains("<testsuites name=\"hippo-packs\" tests=\"4\" failures=\"3\" errors=\"0\">")
    );
    assert!(xml.contains("<testcase name=\"a-passing-case\" classname=\"decision-log\"/>"));
    assert!(xml.contains("message=\"applied: expected 0, got 1 (and 1 more)\""));
    assert!(xml.contains("FAIL decision-log/cache-store: applied: expected 0, got 1&#10;at "));
    assert!(xml.contains("&quot;postgres&quot; &lt;not&gt; foundU+0007"));
    assert!(xml.contains("<testsuite name=\"bad &amp; &lt;worse&gt;\""));
    assert!(xml.contains("<testcase name=\"check\" classname=\"bad &amp; &lt;worse&gt;\">"));
    assert!(xml.contains("error x.md: symbolic link U+0001"), "{xml}");
    assert!(xml.contains("<testcase name=\"nope\" classname=\"p\">"));
    assert_eq!(
        xml,
        junit::render(&reports()),
        "identical bytes for the same results"
    );
}

#[test]
fn control_the_junit_check_catches_broken_xml() {
    let bad =
        "<testsuites><testsuite name=\"a\"><testcase name=\"x & y\"/></testsuite></testsuites>";
    assert!(std::panic::catch_unwind(|| parse_junit(bad)).is_err());
    let forbidden = "<testsuites name=\"\u{1}\"></testsuites>";
    assert!(std::panic::catch_unwind(|| parse_junit(forbidden)).is_err());
}

#[test]
fn test_junit_flag_writes_a_failing_check_case_for_an_invalid_pack() {
    let tmp = tempfile::tempdir().unwrap();
    copy_pack("broken", tmp.path(), "broken");
    let (code, _, _) = run(tmp.path(), &["test", "broken", "--junit", "out.xml"]);
    assert_eq!(code, 1);
    let xml = std::fs::read_to_string(tmp.path().join("out.xml")).unwrap();
    let (suites, cases, failures) = parse_junit(&xml);
    assert_eq!((suites, cases, failures), (1, 1, 1), "{xml}");
    assert!(xml.contains("<testcase name=\"check\" classname=\"decision-log\">"));
    assert!(xml.contains("error pack.toml: unknown field `homepage`"));
}

// ---- rules ----

#[test]
fn rules_command_lists_explains_and_rejects() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, out, err) = run(tmp.path(), &["rules"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let ids: Vec<&str> = out
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let want: Vec<&str> = rules::catalogue().iter().map(|r| r.id).collect();
    assert_eq!(ids, want);
    assert!(out.lines().all(|l| l.contains("  error  ")
        || l.contains("  warning  ")
        || l.starts_with("redaction ") && l.contains("  error/warning  ")));
    let (code, out, _) = run(tmp.path(), &["rules", "invisible-character"]);
    assert_eq!(code, 0);
    let r = rules::find("invisible-character").unwrap();
    assert!(
        out.contains(r.description()) && out.contains(r.help()) && out.contains("severity: error")
    );
    let (code, out, err) = run(tmp.path(), &["rules", "no-such-rule"]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error no rule named no-such-rule; `hippo-packs rules` lists them\n"
    );
}

#[test]
fn json_names_the_character_a_finding_begins_with() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cmd/positions.in");
    let (_, out, _) = run(&dir, &["check", "pack", "--format", "json"]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let diags = doc["packs"][0]["diagnostics"].as_array().unwrap();
    let inv = diags.iter().find(|d| d["rule"] == "invisible-character");
    let inv = inv.unwrap();
    assert_eq!(inv["char_name"], "WORD JOINER");
    assert_eq!(inv["message"], "U+2060", "the message is as the text line");
    // Control: a finding about no one character has no `char_name`.
    let shell = diags.iter().find(|d| d["rule"] == "shell-text").unwrap();
    assert_eq!(shell.get("char_name"), None, "{shell}");
}
