//! Reading case.toml's keys and values, each problem reported once where it is met.

use crate::core::{Diagnostic, Rule, Span};
use crate::model::case::Located;
use crate::model::tomlx::{self, DeTable, DeValue, Spanned};
use crate::pack::Pack;

/// What the readers of one case.toml share: the pack (for the notes a case names), the file and
/// where its findings go.
pub(super) struct Ctx<'a> {
    pub pack: &'a Pack,
    pub path: &'a str,
    pub case_dir: String,
    pub out: &'a mut Vec<Diagnostic>,
    /// The case family's rules these readers report (declared in `rules/case.rs`).
    pub rules: KeyRules,
}

/// The rules a key reader reports.
pub(super) struct KeyRules {
    pub value: &'static Rule,
    pub missing: &'static Rule,
    pub unknown: &'static Rule,
    pub note: &'static Rule,
}

impl Ctx<'_> {
    pub fn value(&mut self, span: Span, msg: String) {
        self.out
            .push(Diagnostic::key(self.rules.value, self.path, span, msg));
    }
    pub fn missing(&mut self, span: Option<Span>, key: &str, why: &str) {
        let msg = if why.is_empty() {
            format!("missing key {key}")
        } else {
            format!("missing key {key}: {why}")
        };
        let d = match span {
            Some(s) => Diagnostic::key(self.rules.missing, self.path, s, msg),
            None => Diagnostic::file(self.rules.missing, self.path, msg),
        };
        self.out.push(d);
    }
    /// Reports unknown keys of a table; `table` is its dotted name (empty at the top).
    pub fn unknown_keys(&mut self, t: &DeTable<'_>, table: &str, known: &[&str]) {
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
                        self.rules.unknown,
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
    pub fn string(&mut self, v: &Spanned<DeValue<'_>>, key: &str) -> Option<String> {
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
    pub fn strings(&mut self, v: &Spanned<DeValue<'_>>, key: &str) -> Vec<Located> {
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
    pub fn note(&mut self, key: &str, note: &str, span: Span) -> bool {
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
            .push(Diagnostic::key(self.rules.note, self.path, span, msg));
        false
    }
    pub fn table<'t, 'i>(
        &mut self,
        v: &'t Spanned<DeValue<'i>>,
        key: &str,
    ) -> Option<&'t DeTable<'i>> {
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
    pub fn tables<'t, 'i>(
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
