//! `check --statistics`: how many findings each rule has, in place of the findings (ruff's
//! `--statistics`): the most frequent first, then in catalogue order; `[*]` when `check --fix`
//! mends every one of them, `[-]` when it mends some. As text, one rule a line
//! (`   3  invisible-character  [*] A character a person cannot see but a model reads`), or
//! with `--format json` a list of `{rule, severity, count, fixable}`.

use serde::Serialize;

use crate::core::Rule;
use crate::outcome::PackReport;
use crate::rules;

/// One rule's findings: how many, and how many `check --fix` mends.
struct Row {
    rule: &'static Rule,
    count: usize,
    fixable: usize,
}

fn rows(reports: &[PackReport]) -> Vec<Row> {
    let all = rules::catalogue();
    let mut rows: Vec<Row> = Vec::new();
    for d in reports.iter().flat_map(|r| &r.diagnostics) {
        match rows.iter_mut().find(|r| r.rule == d.rule) {
            Some(r) => {
                r.count += 1;
                r.fixable += usize::from(d.fix.is_some());
            }
            None => rows.push(Row {
                rule: d.rule,
                count: 1,
                fixable: usize::from(d.fix.is_some()),
            }),
        }
    }
    let rank = |r: &Rule| all.iter().position(|c| *c == r).unwrap_or(usize::MAX);
    rows.sort_by_key(|r| (std::cmp::Reverse(r.count), rank(r.rule)));
    rows
}

/// The statistics as text, one rule a line; nothing when there is no finding.
pub(crate) fn text(reports: &[PackReport]) -> String {
    let rows = rows(reports);
    let count = rows
        .iter()
        .map(|r| r.count.to_string().len())
        .max()
        .unwrap_or(0);
    let id = rows.iter().map(|r| r.rule.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for r in &rows {
        let mark = match r.fixable {
            0 => "   ",
            n if n == r.count => "[*]",
            _ => "[-]",
        };
        out.push_str(&format!(
            "{:>count$}  {:id$}  {mark} {}\n",
            r.count,
            r.rule.id,
            r.rule.summary()
        ));
    }
    out
}

/// The statistics as a JSON list.
pub(crate) fn json(reports: &[PackReport]) -> String {
    #[derive(Serialize)]
    struct Entry {
        rule: &'static str,
        severity: &'static str,
        count: usize,
        fixable: usize,
    }
    let entries: Vec<Entry> = rows(reports)
        .iter()
        .map(|r| Entry {
            rule: r.rule.id,
            severity: r.rule.severity.as_str(),
            count: r.count,
            fixable: r.fixable,
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&entries).unwrap_or_default();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Diagnostic, Suggestion};
    use crate::rules::{content, text as text_rules};

    #[test]
    fn the_most_frequent_first_with_what_fix_mends() {
        let mut fixed = Diagnostic::file(&text_rules::INVISIBLE_CHARACTER, "a.md", "U+200B");
        fixed.fix = Some(Suggestion {
            message: "remove U+200B".into(),
            edits: Vec::new(),
        });
        let shell = Diagnostic::file(&content::SHELL_TEXT, "a.md", "x");
        let r = PackReport {
            diagnostics: vec![shell.clone(), fixed.clone(), fixed, shell.clone(), shell],
            ..PackReport::default()
        };
        let out = text(std::slice::from_ref(&r));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("3  shell-text           "), "{out}");
        assert!(
            lines[1].starts_with("2  invisible-character  [*] "),
            "{out}"
        );
        assert_eq!(text(&[]), "", "control: no finding, no line");
        assert!(json(std::slice::from_ref(&r)).contains("\"fixable\": 2"));
    }
}
