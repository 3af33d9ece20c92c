//! The manifest: pack.toml has exactly the keys of hippo's page "Writing a pack", each with its rule.

use super::declare::declare_rules;
use super::layout::is_name;
use crate::core::{Diagnostic, Span};
use crate::model::manifest::Manifest;
use crate::model::tomlx::{self, DeTable, DeValue};
use crate::pack::Pack;

declare_rules! {
    /// pack.toml is not valid TOML
    ///
    /// The manifest must parse as TOML; the finding gives the parser's message at the place it
    /// stopped.
    ///
    /// How to fix: Fix the TOML at the line and column given.
    pub static MANIFEST_SYNTAX = "manifest-syntax", Error, VeryHigh;

    /// pack.toml has a key the manifest does not define
    ///
    /// pack.toml has exactly protocol, kind (theme packs), name, version, description, authors and
    /// license. An unknown key is an error because hippo would ignore it silently; it is reported
    /// in serde's wording, listing the keys read after protocol and kind.
    ///
    /// How to fix: Delete the key, or correct its spelling.
    pub static MANIFEST_UNKNOWN_KEY = "manifest-unknown-key", Error, VeryHigh;

    /// pack.toml lacks a required key
    ///
    /// protocol, name, version, description, authors and license are all required.
    ///
    /// How to fix: Add the key; the example manifest on hippo's page "Writing a pack" shows every
    /// one.
    pub static MANIFEST_MISSING_KEY = "manifest-missing-key", Error, VeryHigh;

    /// A pack.toml value that breaks its rule
    ///
    /// protocol is HIPPO_V1; kind is absent or "theme"; name is 2 to 40 bytes of lowercase letters,
    /// digits and single dashes starting with a letter, and not reserved (core, hippo, builtin,
    /// local, registry, official, test, tests); version is MAJOR.MINOR.PATCH with numbers of at
    /// most four digits and no leading zero; description is one line of 1 to 160 characters with no
    /// space at either end; authors is one to five names of one line and 1 to 80 characters;
    /// license is 1 to 64 of letters, digits, '.', '+' and '-'.
    ///
    /// How to fix: Change the value as the message says.
    pub static MANIFEST_VALUE = "manifest-value", Error, VeryHigh;
}

pub const RESERVED: &[&str] = &[
    "core", "hippo", "builtin", "local", "registry", "official", "test", "tests",
];

const KEYS: &[&str] = &["name", "version", "description", "authors", "license"];

const PATH: &str = "pack.toml";

pub fn check(pack: &Pack, out: &mut Vec<Diagnostic>) -> Option<Manifest> {
    let text = pack.file(PATH)?.text()?;
    let doc = match tomlx::parse(text) {
        Ok(d) => d,
        Err(e) => {
            out.push(Diagnostic::at(&MANIFEST_SYNTAX, PATH, e.span, e.message));
            return None;
        }
    };
    let table = doc.get_ref();
    let mut m = Manifest::default();
    let value_err = |span: Span, msg: String| Diagnostic::key(&MANIFEST_VALUE, PATH, span, msg);
    // protocol and kind are read first.
    match tomlx::get(table, "protocol") {
        None => out.push(missing("protocol")),
        Some((_, v)) => {
            if v.get_ref().as_str() != Some("HIPPO_V1") {
                out.push(value_err(
                    tomlx::span_of(v),
                    "protocol: must be \"HIPPO_V1\"".into(),
                ));
            }
        }
    }
    if let Some((_, v)) = tomlx::get(table, "kind")
        && v.get_ref().as_str() != Some("theme")
    {
        out.push(value_err(
            tomlx::span_of(v),
            "kind: must be \"theme\" for a theme pack, or absent for a pass pack".into(),
        ));
    }
    unknown_keys(table, out);
    for &key in KEYS {
        let Some((_, v)) = tomlx::get(table, key) else {
            out.push(missing(key));
            continue;
        };
        let span = tomlx::span_of(v);
        let problem = match key {
            "authors" => authors_problem(v.get_ref()),
            _ => match v.get_ref() {
                DeValue::String(s) => {
                    let s = s.as_ref();
                    match key {
                        "name" => m.name = Some(s.to_string()),
                        "version" => m.version = Some(s.to_string()),
                        _ => {}
                    }
                    match key {
                        "name" => name_problem(s),
                        "version" => version_problem(s),
                        "description" => description_problem(s),
                        _ => license_problem(s),
                    }
                }
                other => Some(format!(
                    "expected a string, found {}",
                    tomlx::type_name(other)
                )),
            },
        };
        if let Some(p) = problem {
            out.push(value_err(span, format!("{key}: {p}")));
        }
    }
    Some(m)
}

/// Keys other than the five and `protocol`/`kind`.
fn unknown_keys(table: &DeTable<'_>, out: &mut Vec<Diagnostic>) {
    for (k, _) in tomlx::entries(table) {
        let key = k.get_ref().as_ref();
        if matches!(key, "protocol" | "kind") || KEYS.contains(&key) {
            continue;
        }
        let expected: Vec<String> = KEYS.iter().map(|k| format!("`{k}`")).collect();
        out.push(
            Diagnostic::key(
                &MANIFEST_UNKNOWN_KEY,
                PATH,
                tomlx::span_of(k),
                format!(
                    "unknown field `{key}`, expected one of {}",
                    expected.join(", ")
                ),
            )
            // The page's line lists five keys; `--format full` names every valid one.
            .with_hint(crate::core::suggest::help(
                key,
                &[
                    "protocol",
                    "kind",
                    "name",
                    "version",
                    "description",
                    "authors",
                    "license",
                ],
                "the keys of pack.toml",
            )),
        );
    }
}

fn missing(key: &str) -> Diagnostic {
    Diagnostic::file(
        &MANIFEST_MISSING_KEY,
        PATH,
        format!("missing field `{key}`"),
    )
}

pub fn name_problem(s: &str) -> Option<String> {
    if RESERVED.contains(&s) {
        return Some(format!("{s} is reserved"));
    }
    if !(2..=40).contains(&s.len()) {
        return Some(format!("{} bytes, must be 2 to 40", s.len()));
    }
    if !is_name(s) || !s.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Some(
            "must be lowercase letters, digits and single dashes, starting with a letter".into(),
        );
    }
    None
}

pub fn version_problem(s: &str) -> Option<String> {
    let parts: Vec<&str> = s.split('.').collect();
    let ok = parts.len() == 3
        && parts.iter().all(|p| {
            (1..=4).contains(&p.len())
                && p.bytes().all(|b| b.is_ascii_digit())
                && !(p.len() > 1 && p.starts_with('0'))
        });
    (!ok).then(|| {
        "must be MAJOR.MINOR.PATCH, each a number of at most four digits with no leading zero"
            .to_string()
    })
}

fn one_line(s: &str) -> bool {
    !s.contains(['\n', '\r'])
}

pub fn description_problem(s: &str) -> Option<String> {
    let n = s.chars().count();
    if !one_line(s) {
        Some("must be one line".into())
    } else if !(1..=160).contains(&n) {
        Some(format!("{n} characters, must be 1 to 160"))
    } else if s.starts_with(char::is_whitespace) || s.ends_with(char::is_whitespace) {
        // "No space at either end": a tab or a no-break space is a space too.
        Some("must not start or end with a space".into())
    } else {
        None
    }
}

pub fn license_problem(s: &str) -> Option<String> {
    let ok = (1..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-'));
    (!ok).then(|| "must be an SPDX-style identifier: 1 to 64 of letters, digits, ., + and -".into())
}

fn authors_problem(v: &DeValue<'_>) -> Option<String> {
    let list = match tomlx::string_list(v) {
        Ok(l) => l,
        Err(e) => return Some(e),
    };
    if !(1..=5).contains(&list.len()) {
        return Some(format!("{} names, must be one to five", list.len()));
    }
    for (name, _) in list {
        let n = name.chars().count();
        if !one_line(name) || !(1..=80).contains(&n) {
            return Some("each name must be one line of 1 to 80 characters".into());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        assert_eq!(name_problem("decision-log"), None);
        assert_eq!(name_problem("core"), Some("core is reserved".into()));
        assert!(name_problem("1abc").is_some());
        assert!(name_problem("a").is_some());
        assert_eq!(version_problem("1.0.0"), None);
        assert_eq!(version_problem("9999.0.10"), None);
        assert!(version_problem("01.0.0").is_some());
        assert!(version_problem("1.0").is_some());
        assert!(version_problem("10000.0.0").is_some());
        assert_eq!(description_problem("x"), None);
        assert!(description_problem(" x").is_some());
        assert!(description_problem(&"x".repeat(161)).is_some());
        assert_eq!(license_problem("Apache-2.0"), None);
        assert!(license_problem("MIT OR Apache").is_some());
    }
}
