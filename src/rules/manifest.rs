//! The manifest: pack.toml has exactly the keys of hippo's page "Writing a pack", each with its rule.

use super::declare::declare_rules;
use super::keys::{self, Document, Reader, Wording};
use crate::core::Diagnostic;
use crate::model::Documents;
use crate::model::schema::{Entry, Key, Table, Type, Value};

mod help;
mod script;
pub(crate) mod values;

use values::{
    authors_problem, description_problem, license_problem, name_problem, version_problem,
};

declare_rules! {
    /// pack.toml is not valid TOML
    ///
    /// The manifest must parse as TOML; the finding gives the parser's message at the place it
    /// stopped (a curly quote where a TOML quote goes is named instead, at the quote: U+201C LEFT
    /// DOUBLE QUOTATION MARK: use a straight quote ").
    ///
    /// How to fix: Fix the TOML at the line and column given.
    pub(crate) static MANIFEST_SYNTAX = "manifest-syntax", Error, VeryHigh, rank = 200;

    /// pack.toml has a key the manifest does not define
    ///
    /// pack.toml has exactly protocol, kind (theme packs), name, version, description, authors and
    /// license. An unknown key is an error because hippo would ignore it silently; it is reported
    /// in serde's wording, listing the keys read after protocol and kind.
    ///
    /// How to fix: Delete the key, or correct its spelling.
    pub(crate) static MANIFEST_UNKNOWN_KEY = "manifest-unknown-key", Error, VeryHigh, rank = 210;

    /// pack.toml lacks a required key
    ///
    /// protocol, name, version, description, authors and license are all required.
    ///
    /// How to fix: Add the key; the example manifest on hippo's page "Writing a pack" shows every
    /// one.
    pub(crate) static MANIFEST_MISSING_KEY = "manifest-missing-key", Error, VeryHigh, rank = 220;

    /// A pack.toml value that breaks its rule
    ///
    /// protocol is HIPPO_V1; kind is absent or "theme"; name is 2 to 40 bytes of lowercase letters,
    /// digits and single dashes starting with a letter, and not reserved (core, hippo, builtin,
    /// local, registry, official, test, tests); version is MAJOR.MINOR.PATCH with numbers of at
    /// most four digits and no leading zero; description is one line of 1 to 160 characters with no
    /// space at either end; authors is one to five names of one line and 1 to 80 characters;
    /// license is 1 to 64 of letters, digits, '.', '+' and '-'. One line means no line
    /// terminator of any kind: LF, CR, VT, FF, U+0085, U+2028 or U+2029.
    ///
    /// How to fix: Write a value its rule allows; `--format full` names the valid choices, or the
    /// nearest valid value (`did you mean `1.0.0`?`).
    pub(crate) static MANIFEST_VALUE = "manifest-value", Error, VeryHigh, rank = 230;

    /// A name or description that mixes Latin letters with Cyrillic or Greek look-alikes
    ///
    /// A word of description or of an authors entry (a run of letters and marks; apostrophes,
    /// punctuation and digits split words) in which Latin letters stand beside Cyrillic or Greek
    /// letters that look like Latin ones, such as Vаnitas written with a Cyrillic а: the shape of
    /// an impersonated author or project, which a registry's reviewer reads as the Latin name.
    /// The message names the first look-alike. Names in one script (José Müller, Иван Петров),
    /// and Japanese, Chinese or Korean beside Latin (山田さくら, Git으로), are not this warning.
    ///
    /// How to fix: Write the word in one script: retype the look-alike letter as the Latin one.
    pub(crate) static MIXED_SCRIPT = "mixed-script", Warning, High, rank = 240, security_severity = "5.0";
}

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

/// A key's check: what is wrong with its value and what to write instead (a value of another
/// type is reported already).
type Check = fn(&Entry<'_, '_>) -> Option<(String, String)>;

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
const KIND_HELP: &str = "write kind = \"theme\" for a theme pack; delete the line for a pass pack";

/// Judges pack.toml's parse (none: the file is missing, or not read whole as UTF-8).
pub(crate) fn check(docs: &Documents<'_>, out: &mut Vec<Diagnostic>) {
    let doc = match &docs.manifest_toml {
        None => return,
        Some(Ok(d)) => d,
        Some(Err(e)) => {
            out.push(e.diagnostic(&MANIFEST_SYNTAX, PATH));
            return;
        }
    };
    let mut reader = Reader {
        doc: &DOCUMENT,
        path: PATH,
        out,
    };
    for (key, entry) in reader.read(doc.get_ref(), None, &KEYS) {
        if let Some((why, help)) = (key.check)(&entry) {
            reader.wrong(&entry, why, help);
        }
        mixed_scripts(&entry, reader.out);
    }
}

/// The `mixed-script` warnings of description and of each authors entry, at the value.
fn mixed_scripts(e: &Entry<'_, '_>, out: &mut Vec<Diagnostic>) {
    let values = match &e.value {
        Value::String(s) if e.key == "description" => vec![(*s, e.span)],
        Value::Strings(list) if e.key == "authors" => list.clone(),
        _ => return,
    };
    for (text, span) in values {
        if let Some(why) = script::mixed(text) {
            let m = format!("{}: {why}", e.key);
            out.push(Diagnostic::key(&MIXED_SCRIPT, PATH, span, m));
        }
    }
}

fn protocol(e: &Entry<'_, '_>) -> Option<(String, String)> {
    matches!(e.value, Value::String(s) if s != "HIPPO_V1")
        .then(|| (keys::PROTOCOL.into(), keys::PROTOCOL_HELP.into()))
}

fn kind(e: &Entry<'_, '_>) -> Option<(String, String)> {
    matches!(e.value, Value::String(s) if s != "theme").then(|| (KIND.into(), KIND_HELP.into()))
}

fn name(e: &Entry<'_, '_>) -> Option<(String, String)> {
    let Value::String(s) = e.value else {
        return None;
    };
    Some((name_problem(s)?, help::name(s)))
}

fn version(e: &Entry<'_, '_>) -> Option<(String, String)> {
    let Value::String(s) = e.value else {
        return None;
    };
    Some((version_problem(s)?, help::version(s)))
}

fn description(e: &Entry<'_, '_>) -> Option<(String, String)> {
    let Value::String(s) = e.value else {
        return None;
    };
    Some((description_problem(s)?, help::description(s)))
}

fn license(e: &Entry<'_, '_>) -> Option<(String, String)> {
    let Value::String(s) = e.value else {
        return None;
    };
    Some((license_problem(s)?, help::license(s)))
}

fn authors(e: &Entry<'_, '_>) -> Option<(String, String)> {
    let Value::Strings(list) = &e.value else {
        return None;
    };
    Some((authors_problem(list)?, help::authors(list.len())))
}

/// pack.toml's one table, for its JSON Schema (`report::schemas`).
pub(crate) fn key_shapes() -> Vec<(&'static str, Vec<crate::model::schema::KeyShape>)> {
    vec![KEYS.shape()]
}
