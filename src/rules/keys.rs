//! The one code path that reports the keys of a TOML document: pack.toml, pass files and
//! case.toml declare their keys as `model::schema` tables, [`Reader::read`] reads a table against
//! its declaration and reports every unknown, missing and mistyped key, each document in its own
//! words and under its own rules ([`Document`]). This module declares no rule; the families
//! whose documents it reads do (`manifest`, `pass`, `case`).

use crate::core::{Diagnostic, Rule, Span, suggest};
use crate::model::schema::{self, Entry, Key, Problem, Table, Type};
use crate::model::toml_spans::DeTable;

/// What is said of a `protocol` that is not `HIPPO_V1`, in every document, and its help.
pub(crate) const PROTOCOL: &str = "must be \"HIPPO_V1\"";
pub(crate) const PROTOCOL_HELP: &str =
    "write protocol = \"HIPPO_V1\", the one protocol hippo reads";

/// What to write for a value of the wrong type: the type, as TOML spells it.
fn type_help(name: &str, dotted: &str, ty: Type) -> String {
    match ty {
        _ if name == "protocol" => PROTOCOL_HELP.to_string(),
        Type::String => format!("write it as a string, in double quotes: {name} = \"...\""),
        Type::Strings => format!("write a list of strings: {name} = [\"...\", \"...\"]"),
        Type::Bool => format!("write true or false, without quotes: {name} = true"),
        Type::Integer => "write a whole number, without quotes".to_string(),
        Type::Table => format!("write a table: a line [{dotted}], then its keys"),
        Type::Tables => format!("write each one as a line [[{dotted}]], then its keys"),
    }
}

/// How a document words an unknown or a missing key.
pub(crate) enum Wording {
    /// serde's words, which hippo's page prints for pack.toml: ``unknown field `homepage`,
    /// expected one of `name`, ...`` listing the keys but `unlisted` (read before the others),
    /// and ``missing field `name` ``.
    Serde { unlisted: &'static [&'static str] },
    /// `unknown key note_type`, `missing key per_note`, a nested table's key dotted with the
    /// table's name (`unknown key model.temperature`).
    Plain,
}

/// A document: its words and the rules its key findings belong to.
pub(crate) struct Document {
    /// What the top level is called in `--format full`'s help: `the keys of <what>`.
    pub(crate) what: &'static str,
    pub(crate) wording: Wording,
    pub(crate) unknown: &'static Rule,
    pub(crate) missing: &'static Rule,
    /// A value that breaks its key's rule, of the wrong type or not.
    pub(crate) value: &'static Rule,
}

/// Reads one document's tables and reports into `out`.
pub(crate) struct Reader<'a> {
    pub(crate) doc: &'static Document,
    /// The document's path in the pack.
    pub(crate) path: &'a str,
    pub(crate) out: &'a mut Vec<Diagnostic>,
}

impl Reader<'_> {
    /// Reads `table` against `decl`, reports its key problems and returns every key present,
    /// in file order, for the document's checks (a mistyped one as `Value::Mistyped`). `at` is
    /// the table's span, where a missing key of a nested table is reported.
    pub(crate) fn read<'d, 't, 'i, C>(
        &mut self,
        table: &'t DeTable<'i>,
        at: Option<Span>,
        decl: &'d Table<C>,
    ) -> Vec<(&'d Key<C>, Entry<'t, 'i>)> {
        let reading = schema::read(table, at, decl);
        for problem in reading.problems {
            self.report(decl, problem);
        }
        reading.entries
    }

    fn report<C>(&mut self, decl: &Table<C>, problem: Problem) {
        match problem {
            Problem::Unknown { key, span } => {
                let message = match self.doc.wording {
                    Wording::Serde { unlisted } => {
                        let listed: Vec<String> = (decl.keys.iter())
                            .filter(|k| !unlisted.contains(&k.name))
                            .map(|k| format!("`{}`", k.name))
                            .collect();
                        format!(
                            "unknown field `{key}`, expected one of {}",
                            listed.join(", ")
                        )
                    }
                    Wording::Plain => format!("unknown key {}", decl.dotted(&key)),
                };
                let what = if decl.name.is_empty() {
                    format!("the keys of {}", self.doc.what)
                } else {
                    format!("the keys of [{}]", decl.name)
                };
                // The message is the document's line; `--format full` names every valid key.
                let hint = suggest::help(&key, &decl.names(), &what);
                let d = Diagnostic::key(self.doc.unknown, self.path, span, message);
                self.out.push(d.with_hint(hint));
            }
            Problem::Missing { key, why, at } => self.missing(at, &decl.dotted(key), why),
            Problem::Mistyped { key, words, span } => {
                let ty = decl.keys.iter().find(|k| k.name == key).map(|k| k.ty);
                let help = ty.map_or(String::new(), |ty| type_help(key, &decl.dotted(key), ty));
                self.value(span, format!("{}: {words}", decl.dotted(key)), help)
            }
        }
    }

    /// A missing key (dotted with its table), on the file or at its table's span; `why` follows
    /// it in the plain wording.
    pub(crate) fn missing(&mut self, at: Option<Span>, key: &str, why: Option<&str>) {
        let message = match (&self.doc.wording, why) {
            (Wording::Serde { .. }, _) => format!("missing field `{key}`"),
            (Wording::Plain, None) => format!("missing key {key}"),
            (Wording::Plain, Some(why)) => format!("missing key {key}: {why}"),
        };
        let d = match at {
            Some(span) => Diagnostic::key(self.doc.missing, self.path, span, message),
            None => Diagnostic::file(self.doc.missing, self.path, message),
        };
        self.out.push(d);
    }

    /// A value that breaks its rule, at `span`: the message names the key (`name: core is
    /// reserved`); `help` says what to write instead, the valid choices or the nearest one, in
    /// place of the rule's help (none when empty).
    pub(crate) fn value(&mut self, span: Span, message: String, help: impl Into<String>) {
        let help = help.into();
        let d = Diagnostic::key(self.doc.value, self.path, span, message);
        self.out.push(match help.is_empty() {
            true => d,
            false => d.with_own_help(help),
        });
    }

    /// `<key>: <why>` on an entry's value, with its help (see [`Reader::value`]).
    pub(crate) fn wrong(
        &mut self,
        entry: &Entry<'_, '_>,
        why: impl std::fmt::Display,
        help: impl Into<String>,
    ) {
        self.value(entry.span, format!("{}: {why}", entry.name()), help);
    }
}

#[cfg(test)]
mod tests;
