//! One position per finding: for findings after an invisible character, a tab, a CJK character
//! and an emoji, the text output (where its line has a position), `full`'s ` --> ` line,
//! `concise`, JSON and GitHub annotations give the same line and code-point column, and SARIF
//! the same place in UTF-16 code units (docs/output-formats.md, "Positions").

use crate::common;

use common::run;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cmd/positions.in")
}

/// A finding's place: rule, pack-relative file, line, column.
type Place = (String, String, usize, usize);

/// The findings of `tests/cmd/positions.in/pack`, each at the text it points at, with its line
/// and its columns in code points and in UTF-16 units, counted here from the file's text.
fn expected() -> Vec<(Place, usize)> {
    let want = [
        (
            "invisible-character",
            "prompts/decision-log.md",
            "\u{2060}B then",
        ),
        ("shell-text", "prompts/decision-log.md", "curl it"),
        ("injection-phrase", "prompts/decision-log.md", "Ignore all"),
        ("url-outside-readme", "prompts/decision-log.md", "https://"),
        ("shell-text", "personas/decision-log-reviewer.md", "curl it"),
    ];
    let mut out = Vec::new();
    for (rule, file, needle) in want {
        let text = std::fs::read_to_string(cases().join("pack").join(file)).unwrap();
        let at = text.find(needle).unwrap();
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let before = &text[line_start..at];
        let line = text[..at].matches('\n').count() + 1;
        let col = before.chars().count() + 1;
        let col16 = before.encode_utf16().count() + 1;
        out.push(((rule.into(), file.into(), line, col), col16));
    }
    out.sort();
    out
}

fn output(format: &str) -> String {
    let (code, out, err) = run(&cases(), &["check", "pack", "--format", format]);
    assert_eq!(code, 1, "{err}");
    out
}

/// `pack/<file>:<line>:<col>` → (file, line, col).
fn split_place(s: &str) -> (String, usize, usize) {
    let mut parts = s.rsplitn(3, ':');
    let col = parts.next().unwrap().parse().unwrap();
    let line = parts.next().unwrap().parse().unwrap();
    let file = parts.next().unwrap().trim_start_matches("pack/");
    (file.to_string(), line, col)
}

/// The places `full` gives: the rule of each `error[rule]:` title and its ` --> ` line.
fn full_places(out: &str) -> Vec<Place> {
    let mut places = Vec::new();
    let mut rule = None;
    for line in out.lines() {
        if let Some(head) = line.split_once("]: ").map(|h| h.0) {
            rule = head.split_once('[').map(|(_, r)| r.to_string());
        } else if let Some(place) = line.trim_start().strip_prefix("--> ") {
            let (file, l, c) = split_place(place);
            places.push((rule.take().unwrap(), file, l, c));
        }
    }
    places.sort();
    places
}

fn concise_places(out: &str) -> Vec<Place> {
    let mut places: Vec<Place> = out
        .lines()
        // The last line counts what `--fix` mends (`[*] 1 fixable with `--fix``): no place.
        .filter(|line| !line.starts_with("[*] "))
        .map(|line| {
            let (place, rest) = line.split_once(": ").unwrap();
            let rule = rest.split_once('[').unwrap().1.split_once(']').unwrap().0;
            let (file, l, c) = split_place(place);
            (rule.to_string(), file, l, c)
        })
        .collect();
    places.sort();
    places
}

fn json_places(out: &str) -> Vec<Place> {
    let doc: Value = serde_json::from_str(out).unwrap();
    let diags = doc["packs"][0]["diagnostics"].as_array().unwrap();
    let mut places: Vec<Place> = diags
        .iter()
        .map(|d| {
            let n = |k: &str| d[k].as_u64().unwrap() as usize;
            let rule = d["rule"].as_str().unwrap().to_string();
            (
                rule,
                d["file"].as_str().unwrap().into(),
                n("line"),
                n("column"),
            )
        })
        .collect();
    places.sort();
    places
}

/// SARIF's places, the column in UTF-16 code units.
fn sarif_places(out: &str) -> Vec<Place> {
    let doc = common::valid_sarif(out);
    let results = doc["runs"][0]["results"].as_array().unwrap();
    let mut places: Vec<Place> = results
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
            let n = |k: &str| loc["region"][k].as_u64().unwrap() as usize;
            let file = uri.trim_start_matches("tests/cmd/positions.in/pack/");
            let rule = r["ruleId"].as_str().unwrap().to_string();
            (rule, file.to_string(), n("startLine"), n("startColumn"))
        })
        .collect();
    places.sort();
    places
}

fn github_places(out: &str) -> Vec<Place> {
    let mut places: Vec<Place> = out
        .lines()
        .map(|line| {
            let props = line.split_once(' ').unwrap().1.split_once("::").unwrap().0;
            let get = |k: &str| {
                let p = props.split(',').find_map(|p| p.strip_prefix(k)).unwrap();
                p.to_string()
            };
            let rule = get("title=hippo-packs (");
            let file = get("file=");
            let file = file.trim_start_matches("tests/cmd/positions.in/pack/");
            let rule = rule.trim_end_matches(')').to_string();
            (
                rule,
                file.into(),
                get("line=").parse().unwrap(),
                get("col=").parse().unwrap(),
            )
        })
        .collect();
    places.sort();
    places
}

#[test]
fn every_format_gives_one_position() {
    let expected = expected();
    let code_points: Vec<Place> = expected.iter().map(|e| e.0.clone()).collect();
    let utf16: Vec<Place> = expected
        .iter()
        .map(|((r, f, l, _), c16)| (r.clone(), f.clone(), *l, *c16))
        .collect();
    // The emoji before the persona's `curl` counts 1 code point and 2 UTF-16 units.
    assert_ne!(code_points, utf16);
    assert_eq!(full_places(&output("full")), code_points, "full");
    assert_eq!(concise_places(&output("concise")), code_points, "concise");
    assert_eq!(json_places(&output("json")), code_points, "json");
    assert_eq!(github_places(&output("github")), code_points, "github");
    assert_eq!(sarif_places(&output("sarif")), utf16, "sarif");
    // The text output: its lines with a position (the page gives one to some rules) agree.
    let text = output("text");
    let located: Vec<(String, usize, usize)> = text
        .lines()
        .filter_map(|l| l.split_once(' ')?.1.split_once(": "))
        .filter(|(place, _)| place.matches(':').count() == 2)
        .map(|(place, _)| split_place(place))
        .collect();
    assert_eq!(located.len(), 1, "{text}");
    for (file, l, c) in located {
        let same = |p: &&Place| p.1 == file && p.2 == l && p.3 == c;
        assert!(code_points.iter().any(|p| same(&p)), "{text}");
    }
}

/// Control: the comparison catches a ` --> ` column counted on the printable text (`curl`
/// after `AU+2060B then ` is column 15 there, column 10 in the file).
#[test]
fn control_a_column_counted_on_the_shown_text_is_caught() {
    let full = output("full").replace("decision-log.md:19:10", "decision-log.md:19:15");
    let code_points: Vec<Place> = expected().into_iter().map(|e| e.0).collect();
    assert_ne!(full_places(&full), code_points);
}
