//! The keys of a TOML document, declared once, and the one reading of a table against them.
//!
//! pack.toml, a pass file and case.toml (each of its tables) declare their keys as a [`Table`]:
//! each key's name, the type its value must have, whether it must be present, and the check of
//! its value (`C`, a function of the rules layer that this module only carries). [`read`] walks a
//! parsed table once and returns every key it holds, typed, and what is wrong with the keys: an
//! unknown key, a missing one, a value of the wrong type ([`Problem`]). It knows nothing of rules
//! or of how each document words a problem; the rules layer does (`rules/keys.rs`).

use super::toml_spans::{self, DeTable, DeValue, Spanned};
use crate::core::Span;

/// The type a key's value must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Type {
    String,
    /// A list of strings.
    Strings,
    Bool,
    Integer,
    Table,
    /// An array of tables (`[[session]]`).
    Tables,
}

/// Whether a key must be present, and what the finding adds when it is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need {
    Optional,
    Required,
    /// Required; the reason follows the key in the finding (`missing key session: a case needs
    /// at least one [[session]]`).
    RequiredBecause(&'static str),
}

/// What is said of a value of the wrong type, after `<key>: `.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mistyped {
    /// The type's own words: `expected a string, found an integer`.
    TypeWords,
    /// `expected <noun>, found <type>`: `expected true or false, found a string`.
    Expected(&'static str),
    /// The same words as a wrong value of the right type: `must be "HIPPO_V1"`.
    Says(&'static str),
}

/// One key of a table: declared once, with its type, its need and its check.
#[derive(Debug)]
pub(crate) struct Key<C> {
    pub(crate) name: &'static str,
    pub(crate) ty: Type,
    pub(crate) need: Need,
    pub(crate) mistyped: Mistyped,
    /// The check of the value, run by the document's reader on every entry of this key.
    pub(crate) check: C,
}

impl<C> Key<C> {
    pub(crate) const fn optional(name: &'static str, ty: Type, check: C) -> Self {
        Key {
            name,
            ty,
            need: Need::Optional,
            mistyped: Mistyped::TypeWords,
            check,
        }
    }

    pub(crate) const fn required(name: &'static str, ty: Type, check: C) -> Self {
        Key {
            name,
            ty,
            need: Need::Required,
            mistyped: Mistyped::TypeWords,
            check,
        }
    }

    /// Required, with the reason the finding gives.
    pub(crate) const fn because(mut self, why: &'static str) -> Self {
        self.need = Need::RequiredBecause(why);
        self
    }

    /// A wrong type is reported as `expected <noun>, found <type>`.
    pub(crate) const fn expects(mut self, noun: &'static str) -> Self {
        self.mistyped = Mistyped::Expected(noun);
        self
    }

    /// A wrong type is reported in these words, as a wrong value is.
    pub(crate) const fn says(mut self, words: &'static str) -> Self {
        self.mistyped = Mistyped::Says(words);
        self
    }
}

/// The keys of one table of a document, in the order the document lists them.
#[derive(Debug)]
pub(crate) struct Table<C: 'static> {
    /// The table's dotted name (`expect.note`); empty for the document's top level.
    pub(crate) name: &'static str,
    pub(crate) keys: &'static [Key<C>],
}

impl<C> Table<C> {
    /// The names of its keys, in order.
    pub(crate) fn names(&self) -> Vec<&'static str> {
        self.keys.iter().map(|k| k.name).collect()
    }

    /// `<table>.<key>`, or the key alone at the top level.
    pub(crate) fn dotted(&self, key: &str) -> String {
        if self.name.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.name)
        }
    }
}

/// A value of its declared type, or of another type (already a [`Problem`]).
#[derive(Debug)]
pub(crate) enum Value<'t, 'i> {
    String(&'t str),
    /// Each string with its span.
    Strings(Vec<(&'t str, Span)>),
    /// A boolean: any is valid (the model reads its value: `model::pass::read`).
    Bool,
    /// `None` when the integer does not fit in 64 bits.
    Integer(Option<i64>),
    Table(&'t DeTable<'i>),
    /// Each table with its span.
    Tables(Vec<(Span, &'t DeTable<'i>)>),
    Mistyped,
}

/// One key present in a table.
#[derive(Debug)]
pub(crate) struct Entry<'t, 'i> {
    /// The key's name, as declared.
    pub(crate) key: &'static str,
    /// The dotted name of the key's table (empty at the top level).
    pub(crate) table: &'static str,
    /// Where the key stands.
    pub(crate) key_span: Span,
    /// Where its value stands.
    pub(crate) span: Span,
    pub(crate) value: Value<'t, 'i>,
}

impl Entry<'_, '_> {
    /// `<table>.<key>`, or the key alone at the top level, as findings name it.
    pub(crate) fn name(&self) -> String {
        if self.table.is_empty() {
            self.key.to_string()
        } else {
            format!("{}.{}", self.table, self.key)
        }
    }
}

/// What is wrong with a table's keys, each with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Problem {
    /// A key the table does not declare, at its span.
    Unknown { key: String, span: Span },
    /// A required key that is absent; `at` is the table's span (`None` at the top level).
    Missing {
        key: &'static str,
        why: Option<&'static str>,
        at: Option<Span>,
    },
    /// A value of another type than its key's, at the value's span; `words` say it.
    Mistyped {
        key: &'static str,
        words: String,
        span: Span,
    },
}

/// A table read against its declaration: the keys present, each with its declaration, in file
/// order, and the problems (unknown and mistyped keys in file order, then the missing ones in
/// declaration order).
pub(crate) struct Reading<'d, 't, 'i, C: 'static> {
    pub(crate) entries: Vec<(&'d Key<C>, Entry<'t, 'i>)>,
    pub(crate) problems: Vec<Problem>,
}

/// Reads `table` against `decl`: every key once, in file order. `at` is the table's span, where
/// a missing key of a nested table is reported.
pub(crate) fn read<'d, 't, 'i, C>(
    table: &'t DeTable<'i>,
    at: Option<Span>,
    decl: &'d Table<C>,
) -> Reading<'d, 't, 'i, C> {
    let mut reading = Reading {
        entries: Vec::new(),
        problems: Vec::new(),
    };
    for (k, v) in toml_spans::entries(table) {
        let name = k.get_ref().as_ref();
        let key_span = toml_spans::span_of(k);
        let Some(key) = decl.keys.iter().find(|key| key.name == name) else {
            reading.problems.push(Problem::Unknown {
                key: name.to_string(),
                span: key_span,
            });
            continue;
        };
        let span = toml_spans::span_of(v);
        let value = match typed(key.ty, v, || decl.dotted(key.name)) {
            Ok(value) => value,
            Err(type_words) => {
                let words = match key.mistyped {
                    Mistyped::TypeWords => type_words,
                    Mistyped::Expected(noun) => {
                        format!(
                            "expected {noun}, found {}",
                            toml_spans::type_name(v.get_ref())
                        )
                    }
                    Mistyped::Says(words) => words.to_string(),
                };
                reading.problems.push(Problem::Mistyped {
                    key: key.name,
                    words,
                    span,
                });
                Value::Mistyped
            }
        };
        let entry = Entry {
            key: key.name,
            table: decl.name,
            key_span,
            span,
            value,
        };
        reading.entries.push((key, entry));
    }
    for key in decl.keys {
        let why = match key.need {
            Need::Optional => continue,
            Need::Required => None,
            Need::RequiredBecause(why) => Some(why),
        };
        if toml_spans::get(table, key.name).is_none() {
            reading.problems.push(Problem::Missing {
                key: key.name,
                why,
                at,
            });
        }
    }
    reading
}

/// A table's keys in one pass, for the model's readings of values (`model::pass`,
/// `model::case`, `model::manifest`): each key's name and span and its value, in the table's
/// order (not the file's). Each value is taken as its key's type as [`read`] types it, with
/// [`strings`] and [`tables`] for the lists.
pub(crate) fn fields<'t, 'i>(
    table: &'t DeTable<'i>,
) -> impl Iterator<Item = (&'t str, Span, &'t Spanned<DeValue<'i>>)> {
    table
        .iter()
        .map(|(k, v)| (k.get_ref().as_ref(), toml_spans::span_of(k), v))
}

/// A list of strings (`Type::Strings`), each as written; `None` for a value of another type.
pub(crate) fn strings(v: &DeValue<'_>) -> Option<Vec<String>> {
    (v.as_array()?.iter())
        .map(|i| i.get_ref().as_str().map(str::to_string))
        .collect()
}

/// [`strings`], each with its span.
pub(crate) fn located_strings(v: &DeValue<'_>) -> Option<Vec<(String, Span)>> {
    (v.as_array()?.iter())
        .map(|i| Some((i.get_ref().as_str()?.to_string(), toml_spans::span_of(i))))
        .collect()
}

/// An array of tables (`Type::Tables`); `None` for a value of another type.
pub(crate) fn tables<'t, 'i>(v: &'t DeValue<'i>) -> Option<Vec<&'t DeTable<'i>>> {
    (v.as_array()?.iter())
        .map(|i| i.get_ref().as_table())
        .collect()
}

/// The value as its type, or the type's words for another type (`dotted` names the key, which
/// an array of tables' words repeat: `[[expect.note]]`).
fn typed<'t, 'i>(
    ty: Type,
    v: &'t Spanned<DeValue<'i>>,
    dotted: impl Fn() -> String,
) -> Result<Value<'t, 'i>, String> {
    let value = v.get_ref();
    let found = || format!("found {}", toml_spans::type_name(value));
    let tables = || {
        format!(
            "expected an array of tables ([[{}]]), {}",
            dotted(),
            found()
        )
    };
    Ok(match (ty, value) {
        (Type::String, DeValue::String(s)) => Value::String(s.as_ref()),
        (Type::String, _) => return Err(format!("expected a string, {}", found())),
        (Type::Strings, _) => Value::Strings(toml_spans::string_list(value)?),
        (Type::Bool, DeValue::Boolean(_)) => Value::Bool,
        (Type::Bool, _) => return Err(format!("expected a boolean, {}", found())),
        (Type::Integer, DeValue::Integer(_)) => Value::Integer(toml_spans::integer(value)),
        (Type::Integer, _) => return Err(format!("expected an integer, {}", found())),
        (Type::Table, DeValue::Table(t)) => Value::Table(t),
        (Type::Table, _) => return Err(format!("expected a table, {}", found())),
        (Type::Tables, DeValue::Array(items)) => Value::Tables(
            items
                .iter()
                .map(|i| i.get_ref().as_table().map(|t| (toml_spans::span_of(i), t)))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(tables)?,
        ),
        (Type::Tables, _) => return Err(tables()),
    })
}

#[cfg(test)]
mod tests;

/// One key as a schema states it: its name, its type, whether it is required.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyShape {
    pub(crate) name: &'static str,
    pub(crate) ty: Type,
    pub(crate) required: bool,
}

impl<C> Table<C> {
    /// The table's keys without their checks: what a JSON Schema of the document says
    /// (`report::schemas`).
    pub(crate) fn shape(&'static self) -> (&'static str, Vec<KeyShape>) {
        let keys = self.keys.iter().map(|k| KeyShape {
            name: k.name,
            ty: k.ty,
            required: k.need != Need::Optional,
        });
        (self.name, keys.collect())
    }
}
