//! `check --select` and `--ignore`: which warnings a run reports, by rule id (any case). Only
//! warnings can be chosen: an error always counts, so naming one is a usage error, as is an id
//! that names no rule. The choice is made before `--deny-warnings` counts the warnings.

use crate::core::{Rule, Severity, escape};
use crate::outcome::PackReport;

/// The warnings a run keeps: all of `select` (every warning when it is empty) but `ignore`.
#[derive(Debug, Default)]
pub(crate) struct Selection {
    select: Vec<&'static Rule>,
    ignore: Vec<&'static Rule>,
}

impl Selection {
    /// The selection the flags give, or the usage error's line.
    pub(crate) fn parse(select: &[String], ignore: &[String]) -> Result<Selection, String> {
        Ok(Selection {
            select: rules("--select", select)?,
            ignore: rules("--ignore", ignore)?,
        })
    }

    /// Whether the selection chooses nothing (every finding is reported).
    pub(crate) fn is_all(&self) -> bool {
        self.select.is_empty() && self.ignore.is_empty()
    }

    /// Whether a finding is reported: every error; a warning the selection keeps.
    pub(crate) fn keeps(&self, d: &crate::core::Diagnostic) -> bool {
        d.severity == Severity::Error
            || ((self.select.is_empty() || self.select.contains(&d.rule))
                && !self.ignore.contains(&d.rule))
    }

    /// Drops from the report the warnings the selection leaves out.
    pub(crate) fn apply(&self, r: &mut PackReport) {
        if !self.is_all() {
            r.diagnostics.retain(|d| self.keeps(d));
        }
    }
}

/// The warnings `ids` name, or the line saying why one cannot be chosen.
fn rules(flag: &str, ids: &[String]) -> Result<Vec<&'static Rule>, String> {
    let mut out = Vec::new();
    for id in ids.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
        let Some(rule) = crate::rules::find(&id.to_ascii_lowercase()) else {
            let all: Vec<&str> = crate::rules::catalogue().iter().map(|r| r.id).collect();
            let near = match crate::core::suggest::nearest(&id.to_ascii_lowercase(), &all) {
                Some(n) => format!("; did you mean `{n}`?"),
                None => String::new(),
            };
            return Err(format!(
                "hippo-packs: {flag} {}: no rule has this id{near} (`hippo-packs rules` lists them)",
                escape::line(id)
            ));
        };
        if rule.severity == Severity::Error && !also_warning(rule) {
            return Err(format!(
                "hippo-packs: {flag} {}: an error cannot be {}; only warnings can (an error is what hippo refuses)",
                rule.id,
                if flag == "--select" {
                    "selected, errors are always reported"
                } else {
                    "ignored"
                }
            ));
        }
        if !out.contains(&rule) {
            out.push(rule);
        }
    }
    Ok(out)
}

/// A rule declared an error whose findings are warnings in part of a pack (`redaction`: an
/// error under tests/, a warning elsewhere): its warnings can be chosen, its errors still count.
fn also_warning(rule: &Rule) -> bool {
    rule.id == crate::rules::redaction::REDACTION.id
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Diagnostic;
    use crate::rules::{content, text};

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn warnings_are_chosen_and_errors_are_kept() {
        let s = Selection::parse(&[], &ids(&["SHELL-TEXT"])).unwrap();
        let shell = Diagnostic::file(&content::SHELL_TEXT, "a.md", "x");
        let error = Diagnostic::file(&text::INVISIBLE_CHARACTER, "a.md", "U+200B");
        assert!(!s.keeps(&shell), "ignored, in any case");
        assert!(s.keeps(&error));
        let s = Selection::parse(&ids(&["ignorable-character"]), &[]).unwrap();
        assert!(!s.keeps(&shell), "not selected");
        assert!(s.keeps(&error), "an error is always reported");
        assert!(Selection::parse(&[], &[]).unwrap().keeps(&shell));
    }

    #[test]
    fn an_error_or_an_unknown_id_is_a_usage_error() {
        let e = Selection::parse(&[], &ids(&["invisible-character"])).unwrap_err();
        assert!(e.contains("an error cannot be ignored"), "{e}");
        let e = Selection::parse(&[], &ids(&["shel-text"])).unwrap_err();
        assert!(e.contains("did you mean `shell-text`"), "{e}");
        assert!(Selection::parse(&[], &ids(&["redaction"])).is_ok());
    }
}
