//! The manifest: pack.toml has exactly the keys of hippo's page "Writing a pack", each with its rule.

use super::declare::declare_rules;
use super::keys::{self, Document, Reader, Wording};
use super::layout::is_name;
use crate::core::{Diagnostic, Span};
use crate::model::manifest::Manifest;
use crate::model::schema::{Entry, Key, Table, Type, Value};
use crate::model::tomlx;
use crate::pack::Pack;

declare_rules! {
    /// pack.toml is not valid TOML
    ///
    /// The manifest must parse as TOML; the finding gives the parser's message at the place it
    /// stopped (a curly quote where a TOML quote goes is named instead, at the quote: U+201C LEFT
    /// DOUBLE QUOTATION MARK: use a straight quote ").
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

const PATH: &str = "pack.toml";

static DOCUMENT: Document = Document {
    what: "pack.toml",
    // protocol and kind are read first; the others are then checked against the five that
    // serde's message lists, as the page prints it.
    wording: Wording::Serde {
        unlisted: &["protocol", "kind"],
    },
    unknown: &MANIFEST_UNKNOWN_KEY,
    missing: &MANIFEST_MISSING_KEY,
    value: &MANIFEST_VALUE,
};

/// A key's check: what is wrong with its value (a value of another type is reported already).
type Check = fn(&mut Manifest, &Entry<'_, '_>) -> Option<String>;

/// The keys of pack.toml, in the order of the page's example.
static KEYS: Table<Check> = Table {
    name: "",
    keys: &[
        Key::<Check>::required("protocol", Type::String, protocol).says(keys::PROTOCOL),
        Key::<Check>::optional("kind", Type::String, kind).says(KIND),
        Key::required("name", Type::String, name),
        Key::required("version", Type::String, version),
        Key::required("description", Type::String, description),
        Key::required("authors", Type::Strings, authors),
        Key::required("license", Type::String, license),
    ],
};

const KIND: &str = "must be \"theme\" for a theme pack, or absent for a pass pack";

pub fn check(pack: &Pack, out: &mut Vec<Diagnostic>) -> Option<Manifest> {
    let text = pack.file(PATH)?.text()?;
    let doc = match tomlx::parse(text) {
        Ok(d) => d,
        Err(e) => {
            out.push(e.diagnostic(&MANIFEST_SYNTAX, PATH));
            return None;
        }
    };
    let mut m = Manifest::default();
    let mut reader = Reader {
        doc: &DOCUMENT,
        path: PATH,
        out,
    };
    for (key, entry) in reader.read(doc.get_ref(), None, &KEYS) {
        if let Some(why) = (key.check)(&mut m, &entry) {
            reader.wrong(&entry, why);
        }
    }
    Some(m)
}

fn protocol(_: &mut Manifest, e: &Entry<'_, '_>) -> Option<String> {
    matches!(e.value, Value::String(s) if s != "HIPPO_V1").then(|| keys::PROTOCOL.into())
}

fn kind(_: &mut Manifest, e: &Entry<'_, '_>) -> Option<String> {
    matches!(e.value, Value::String(s) if s != "theme").then(|| KIND.into())
}

fn name(m: &mut Manifest, e: &Entry<'_, '_>) -> Option<String> {
    let Value::String(s) = e.value else {
        return None;
    };
    m.name = Some(s.to_string());
    name_problem(s)
}

fn version(m: &mut Manifest, e: &Entry<'_, '_>) -> Option<String> {
    let Value::String(s) = e.value else {
        return None;
    };
    m.version = Some(s.to_string());
    version_problem(s)
}

fn description(_: &mut Manifest, e: &Entry<'_, '_>) -> Option<String> {
    match e.value {
        Value::String(s) => description_problem(s),
        _ => None,
    }
}

fn license(_: &mut Manifest, e: &Entry<'_, '_>) -> Option<String> {
    match e.value {
        Value::String(s) => license_problem(s),
        _ => None,
    }
}

fn authors(_: &mut Manifest, e: &Entry<'_, '_>) -> Option<String> {
    match &e.value {
        Value::Strings(list) => authors_problem(list),
        _ => None,
    }
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

fn authors_problem(list: &[(&str, Span)]) -> Option<String> {
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
