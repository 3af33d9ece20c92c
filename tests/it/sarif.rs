//! SARIF output: schema-valid, one located result per text line, UTF-16 columns, GitHub's line
//! hashes, GitHub's limits, identical bytes on re-run.

use crate::common;

use common::{copy_pack, run, sarif_model_error, sarif_schema_errors, valid_sarif};
use hippo_packs::core::fingerprint::line_hashes;
use hippo_packs::core::{Diagnostic, Severity, Span};
use hippo_packs::outcome::{CaseResult, PackReport};
use hippo_packs::report::sarif;
use hippo_packs::rules::{self, layout};
use serde_json::Value;
use std::path::Path;

fn results(log: &Value) -> &Vec<Value> {
    log["runs"][0]["results"].as_array().unwrap()
}

/// The location every result must have: exactly one, with uri, uriBaseId and a full region.
fn location(r: &Value) -> (String, u64, u64, u64, u64) {
    let locs = r["locations"].as_array().expect("locations");
    assert_eq!(locs.len(), 1, "exactly one location: {r}");
    let p = &locs[0]["physicalLocation"];
    assert_eq!(p["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    let uri = p["artifactLocation"]["uri"].as_str().unwrap().to_string();
    assert!(!uri.starts_with("./") && !uri.contains('\\'), "{uri}");
    let g = &p["region"];
    let n = |k: &str| g[k].as_u64().unwrap_or_else(|| panic!("region.{k} in {r}"));
    (
        uri,
        n("startLine"),
        n("startColumn"),
        n("endLine"),
        n("endColumn"),
    )
}

fn decode(uri: &str) -> String {
    let b = uri.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(u8::from_str_radix(&uri[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// Checks a result's fingerprint against the hash of its start line in the file on disk. A
/// result about a file that is not there (a missing file) carries no line hash.
fn assert_fingerprint(cwd: &Path, r: &Value) {
    let (uri, line, ..) = location(r);
    let path = cwd.join(decode(&uri));
    if !path.is_file() {
        assert!(
            r["partialFingerprints"]["primaryLocationLineHash"].is_null(),
            "{uri} is not a file, yet its result has a line hash"
        );
        return;
    }
    let hashes = line_hashes(&std::fs::read(&path).unwrap());
    assert_eq!(
        r["partialFingerprints"]["primaryLocationLineHash"].as_str(),
        Some(hashes[line as usize - 1].as_str()),
        "fingerprint of {uri}:{line}"
    );
}

#[test]
fn broken_pack_one_result_per_text_line_located_and_stable() {
    let tmp = tempfile::tempdir().unwrap();
    copy_pack("broken", tmp.path(), "broken");
    let (code, text, _) = run(tmp.path(), &["check", "broken"]);
    assert_eq!(code, 1);
    let (code, sarif_text, _) = run(tmp.path(), &["check", "broken", "--format", "sarif"]);
    assert_eq!(code, 1, "the format does not change the verdict");
    let log = valid_sarif(&sarif_text);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("error ") || l.starts_with("warning "))
        .collect();
    let res = results(&log);
    assert!(!lines.is_empty());
    assert_eq!(res.len(), lines.len(), "one result per text line");
    let located = regex::Regex::new(r"^(\S+):(\d+):(\d+): ").unwrap();
    for (line, r) in lines.iter().zip(res) {
        let (sev, rest) = line.split_once(' ').unwrap();
        assert_eq!(r["level"], sev);
        // The message, then the finding's own help after a blank line when it has one.
        let text = r["message"]["text"].as_str().unwrap();
        let msg = text.split_once("\n\nhelp: ").map_or(text, |(m, _)| m);
        assert!(rest.ends_with(msg), "{line:?} vs {msg:?}");
        let (uri, start, col, end, end_col) = location(r);
        assert!(uri.starts_with("broken/"), "{uri}");
        assert!(end > start || (end == start && end_col >= col));
        if let Some(c) = located.captures(rest) {
            // `path:line:col:` — the same file and line; the column in UTF-16 units.
            assert_eq!(decode(&uri), format!("broken/{}", &c[1]));
            assert_eq!(start.to_string(), &c[2]);
            let file = std::fs::read_to_string(tmp.path().join("broken").join(&c[1])).unwrap();
            let src_line = file.split('\n').nth(start as usize - 1).unwrap();
            let cp: usize = c[3].parse().unwrap();
            let utf16: usize = src_line.chars().take(cp - 1).map(char::len_utf16).sum();
            assert_eq!(col as usize, utf16 + 1, "{line}");
        } else if let Some((path, _)) = rest.split_once(": ")
            && tmp.path().join("broken").join(path).is_file()
        {
            assert_eq!(decode(&uri), format!("broken/{path}"), "{line}");
        }
        assert_fingerprint(tmp.path(), r);
    }
    let (_, again, _) = run(tmp.path(), &["check", "broken", "--format", "sarif"]);
    assert_eq!(sarif_text, again, "identical bytes on re-run");
    // --sarif FILE writes the same log beside the text output.
    let (_, text_again, _) = run(tmp.path(), &["check", "broken", "--sarif", "out.sarif"]);
    assert_eq!(text_again, text);
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("out.sarif")).unwrap(),
        sarif_text
    );
    assert!(
        !sarif_text.contains(&*tmp.path().to_string_lossy()),
        "no machine path"
    );
}

#[test]
fn utf16_columns_and_line_hash_of_a_located_finding() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = copy_pack("decision-log", tmp.path(), "packs/decision log");
    let readme = pack.join("README.md");
    let mut text = std::fs::read_to_string(&readme).unwrap();
    let line = text.lines().count() + 1;
    text.push_str("emoji 😀😀\u{202E}here\n");
    std::fs::write(&readme, &text).unwrap();
    let (_, out, _) = run(tmp.path(), &["check", "packs/decision log"]);
    assert!(
        out.contains(&format!("error README.md:{line}:9: U+202E")),
        "code points in the text output: {out}"
    );
    let (_, s, _) = run(
        tmp.path(),
        &[
            "check",
            "./packs/decision log/",
            "--format",
            "sarif",
            "--category",
            "packs",
        ],
    );
    let log = valid_sarif(&s);
    assert_eq!(log["runs"][0]["automationDetails"]["id"], "packs/");
    let r = results(&log)
        .iter()
        .find(|r| r["ruleId"] == "invisible-character")
        .expect("the invisible character is reported");
    let (uri, start, col, end, end_col) = location(r);
    assert_eq!(uri, "packs/decision%20log/README.md");
    // "emoji " is 6 units, each emoji 2: U+202E starts at unit 11 and ends before 12.
    assert_eq!(
        (start, col, end, end_col),
        (line as u64, 11, line as u64, 12)
    );
    assert_eq!(r["message"]["text"], "U+202E RIGHT-TO-LEFT OVERRIDE");
    assert_eq!(r["properties"]["pack"], "decision-log");
    assert_fingerprint(tmp.path(), r);
    // Control: the hash of a neighbouring line is a different value.
    let hashes = line_hashes(text.as_bytes());
    assert_ne!(
        r["partialFingerprints"]["primaryLocationLineHash"].as_str(),
        Some(hashes[line - 2].as_str())
    );
}

#[test]
fn unreadable_folder_is_located_at_the_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, s, _) = run(tmp.path(), &["check", "nowhere", "--format", "sarif"]);
    assert_eq!(code, 1);
    let log = valid_sarif(&s);
    let res = results(&log);
    assert_eq!(res.len(), 1);
    assert_eq!(res[0]["ruleId"], "unreadable");
    assert_eq!(
        res[0]["message"]["text"],
        "No such file or directory (os error 2)"
    );
    let (uri, start, ..) = location(&res[0]);
    assert_eq!((uri.as_str(), start), ("nowhere", 1));
}

#[test]
fn the_driver_carries_the_whole_catalogue() {
    let s = sarif::render(&[], "hippo-packs");
    let log = valid_sarif(&s);
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "utf16CodeUnits");
    assert_eq!(run["automationDetails"]["id"], "hippo-packs/");
    assert_eq!(log["runs"].as_array().unwrap().len(), 1);
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "hippo-packs");
    assert_eq!(driver["semanticVersion"], env!("CARGO_PKG_VERSION"));
    let list = driver["rules"].as_array().unwrap();
    let cat = rules::catalogue();
    assert_eq!(list.len(), cat.len());
    for (d, r) in list.iter().zip(cat) {
        assert_eq!(d["id"], r.id);
        for k in ["shortDescription", "fullDescription", "help"] {
            let t = d[k]["text"].as_str().unwrap();
            assert!(
                !t.is_empty() && t.chars().count() <= 1024 || k == "help",
                "{k}"
            );
        }
        assert!(!d["help"]["markdown"].as_str().unwrap().is_empty());
        match d.get("name") {
            Some(n) => {
                let n = n.as_str().unwrap();
                assert!(
                    n.chars().count() <= 255 && !n.eq_ignore_ascii_case(r.id),
                    "{n}"
                );
            }
            None => assert!(!r.id.contains('-'), "{} has a name", r.id),
        }
        let tags = d["properties"]["tags"].as_array().unwrap();
        assert!(tags.len() <= 20 && tags[0] == r.family());
        match r.security_severity {
            Some(s) => {
                assert!(tags.iter().any(|t| t == "security"), "{}", r.id);
                assert_eq!(d["properties"]["security-severity"], s);
                let v: f64 = s.parse().unwrap();
                assert!((0.1..=10.0).contains(&v));
            }
            None => assert!(d["properties"].get("security-severity").is_none()),
        }
    }
}

fn synthetic(dir: &str, n_err: usize, n_warn: usize) -> PackReport {
    let mut diagnostics = Vec::new();
    for i in 0..n_err.max(n_warn) {
        if i < n_err {
            diagnostics.push(Diagnostic::file(
                &layout::SYMBOLIC_LINK,
                &format!("e{i}.md"),
                "symbolic link",
            ));
        }
        if i < n_warn {
            diagnostics.push(
                Diagnostic::file(&layout::SPECIAL_FILE, &format!("w{i}.md"), "odd")
                    .with_severity(Severity::Warning),
            );
        }
    }
    PackReport {
        dir: dir.into(),
        uri_base: dir.into(),
        diagnostics,
        ..PackReport::default()
    }
}

#[test]
fn over_the_limit_errors_are_kept_first_and_the_drop_is_said() {
    let reports = [synthetic("a", 2, 3), synthetic("b", 2, 1)];
    let s = sarif::render_limited(&reports, "hippo-packs", 5);
    let log = valid_sarif(&s);
    let res = results(&log);
    assert_eq!(res.len(), 5);
    let levels: Vec<&str> = res.iter().map(|r| r["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["error", "error", "error", "error", "warning"]);
    let uris: Vec<String> = res.iter().map(|r| location(r).0).collect();
    assert_eq!(
        uris,
        ["a/e0.md", "a/e1.md", "b/e0.md", "b/e1.md", "a/w0.md"]
    );
    let notes = &log["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    let note = notes[0]["message"]["text"].as_str().unwrap();
    assert!(note.starts_with("3 of 8 results were left out"), "{note}");
    // Under the limit: nothing dropped, nothing said, errors first as over it.
    let s = sarif::render_limited(&reports, "hippo-packs", 8);
    let log = valid_sarif(&s);
    let levels: Vec<&str> = results(&log)
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    assert_eq!(
        levels,
        ["error"; 4]
            .into_iter()
            .chain(["warning"; 4])
            .collect::<Vec<_>>()
    );
    assert!(
        log["runs"][0]["invocations"][0]
            .get("toolExecutionNotifications")
            .is_none()
    );
}

#[test]
fn a_failed_expectation_points_at_its_line_in_case_toml() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = copy_pack("decision-log", tmp.path(), "decision-log");
    let (mut report, loaded) = hippo_packs::check::check_dir(dir.to_str().unwrap(), String::new());
    let loaded = loaded.unwrap();
    report.uri_base = "decision-log".into();
    let case_toml = "tests/cache-store/case.toml";
    let bytes = &loaded.pack.file(case_toml).unwrap().bytes;
    let text = std::str::from_utf8(bytes).unwrap();
    let at = text.find("applied = 1").unwrap();
    let mut failures = vec![Diagnostic::key(
        &hippo_packs::rules::test::TEST_EXPECTATION,
        case_toml,
        Span::new(at, at + "applied = 1".len()),
        "applied: expected 0, got 1",
    )];
    rules::resolve(&loaded.pack, &mut failures);
    report.cases.push(CaseResult {
        name: "cache-store".into(),
        failures,
        ..CaseResult::default()
    });
    let s = sarif::render(&[report], "hippo-packs");
    let log = valid_sarif(&s);
    let r = results(&log).last().unwrap();
    assert_eq!(r["ruleId"], "test-expectation");
    assert_eq!(r["message"]["text"], "applied: expected 0, got 1");
    let line = text[..at].matches('\n').count() as u64 + 1;
    let (uri, start, col, end, end_col) = location(r);
    assert_eq!(uri, "decision-log/tests/cache-store/case.toml");
    assert_eq!((start, col, end, end_col), (line, 1, line, 12));
    assert_fingerprint(tmp.path(), r);
}

#[test]
fn control_the_schema_check_catches_a_broken_log() {
    let good = sarif::render(&[synthetic("a", 1, 0)], "hippo-packs");
    assert!(sarif_schema_errors(&good).is_empty());
    let bad = good.replacen("\"level\": \"error\"", "\"level\": \"fatal\"", 1);
    assert_ne!(bad, good);
    assert!(
        !sarif_schema_errors(&bad).is_empty(),
        "a wrong level is caught"
    );
    let mut v: Value = serde_json::from_str(&good).unwrap();
    v["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(
        !sarif_schema_errors(v.to_string()).is_empty(),
        "a result without message is caught"
    );
    assert!(!sarif_schema_errors("{").is_empty());
}

#[test]
fn control_a_log_the_typed_model_refuses_is_caught() {
    let good = sarif::render(&[synthetic("a", 1, 0)], "hippo-packs");
    assert_eq!(sarif_model_error(&good), None);
    // An integer past i64: the schema's `integer` takes it, a typed reader cannot.
    let mut v: Value = serde_json::from_str(&good).unwrap();
    let region = &mut v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    region["startLine"] = serde_json::from_str("100000000000000000000000").unwrap();
    let bad = v.to_string();
    assert!(sarif_model_error(&bad).is_some(), "{bad}");
    assert!(!sarif_schema_errors(&bad).is_empty());
    // A result's level SARIF does not name, and `runs` not a list: the typed model refuses them
    // itself. (A rule's default level it reads as any JSON value: the schema catches that one.)
    let mut v: Value = serde_json::from_str(&good).unwrap();
    v["runs"][0]["results"][0]["level"] = "fatal".into();
    let why = sarif_model_error(&v.to_string()).unwrap_or_default();
    assert!(why.contains("unknown variant `fatal`"), "{why}");
    assert!(sarif_model_error(&runs_not_a_list(&good)).is_some());
}

fn runs_not_a_list(log: &str) -> String {
    let mut v: Value = serde_json::from_str(log).unwrap();
    v["runs"] = serde_json::json!({});
    v.to_string()
}

#[test]
#[should_panic(expected = "serde-sarif: invalid type: map, expected a sequence")]
fn control_valid_sarif_fails_on_a_log_the_typed_model_refuses() {
    let good = sarif::render(&[synthetic("a", 1, 0)], "hippo-packs");
    valid_sarif(runs_not_a_list(&good));
}

#[test]
fn a_message_that_begins_with_a_character_names_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cmd/positions.in");
    let (_, out, _) = run(&dir, &["check", "pack", "--format", "sarif"]);
    let log = valid_sarif(&out);
    let text = |rule: &str| {
        let r = results(&log).iter().find(|r| r["ruleId"] == rule).unwrap();
        r["message"]["text"].as_str().unwrap().to_string()
    };
    assert_eq!(text("invisible-character"), "U+2060 WORD JOINER");
    // Control: another finding's message is the text line's.
    assert_eq!(text("shell-text"), "shell-shaped text \"curl \"");
    let (_, plain, _) = run(&dir, &["check", "pack"]);
    assert!(plain.contains(": U+2060\n"), "the text line stays: {plain}");
}

#[test]
fn a_file_s_other_secrets_are_related_locations_of_its_first_result() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cmd/secrets.in");
    let (_, out, _) = run(&dir, &["check", "pack", "--format", "sarif"]);
    let log = valid_sarif(&out);
    let res = results(&log);
    assert_eq!(res.len(), 2, "a result per secret");
    let related = res[0]["relatedLocations"].as_array().expect("related");
    assert_eq!(related.len(), 1, "the file's other secret");
    let (uri, ..) = location(&res[0]);
    let place = &related[0]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uri"], uri.as_str());
    assert_eq!(place["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    // It is the second result's own place, named by its masked text.
    assert_eq!(
        place["region"],
        res[1]["locations"][0]["physicalLocation"]["region"]
    );
    assert_eq!(related[0]["id"], 1);
    assert_eq!(related[0]["message"]["text"], "ghp_\u{2026}[github-pat]");
    assert!(res[1].get("relatedLocations").is_none(), "each listed once");
    assert!(!out.contains("ghp_R8mW"), "never a secret whole");
    // Control: a related location the schema refuses (an id that is no integer) is caught.
    let mut v = log.clone();
    v["runs"][0]["results"][0]["relatedLocations"][0]["id"] = "one".into();
    assert!(!sarif_schema_errors(v.to_string()).is_empty());
}
