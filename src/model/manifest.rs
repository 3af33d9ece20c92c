//! pack.toml as the other layers read it: the kind of pack it declares, and its name and version.
//! The rules of its keys and values live in the rules layer (`rules/manifest.rs`), which judges
//! the parse `model::Documents` made.

use super::schema;
use super::toml_spans::{self, DeTable, DeValue};

/// The two kinds of pack of hippo's page "Writing a pack".
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PackKind {
    /// A pack of passes, prompts, personas and fixture cases.
    Pass,
    /// A theme pack.
    Theme,
}

impl PackKind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            PackKind::Pass => "pass",
            PackKind::Theme => "theme",
        }
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Manifest {
    /// Present when the key held a string (valid or not).
    pub(crate) name: Option<String>,
    pub(crate) version: Option<String>,
}

/// The name and version of a parsed pack.toml, each when the key holds a string.
pub(crate) fn read(table: &DeTable<'_>) -> Manifest {
    let mut m = Manifest::default();
    for (key, _, v) in schema::fields(table) {
        let DeValue::String(s) = v.get_ref() else {
            continue;
        };
        match key {
            "name" => m.name = Some(s.to_string()),
            "version" => m.version = Some(s.to_string()),
            _ => {}
        }
    }
    m
}

/// The kind a manifest declares, for the walk; anything but `kind = "theme"` is a pass pack.
pub(crate) fn kind_of(bytes: &[u8]) -> PackKind {
    // Without the word `theme` written out, and without an escape that could spell it, no
    // value can be "theme": the manifest need not be parsed for its kind.
    if memchr::memmem::find(bytes, b"theme").is_none() && memchr::memchr(b'\\', bytes).is_none() {
        return PackKind::Pass;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return PackKind::Pass;
    };
    match toml_spans::parse(text) {
        Ok(t) => match toml_spans::get(t.get_ref(), "kind").and_then(|(_, v)| v.get_ref().as_str())
        {
            Some("theme") => PackKind::Theme,
            _ => PackKind::Pass,
        },
        Err(_) => PackKind::Pass,
    }
}

#[cfg(test)]
mod kind_tests {
    use super::*;

    #[test]
    fn kind_of_sees_theme_however_it_is_written() {
        assert_eq!(kind_of(b"kind = \"theme\"\n"), PackKind::Theme);
        assert_eq!(kind_of(b"kind = \"\\u0074heme\"\n"), PackKind::Theme);
        assert_eq!(kind_of(b"\"\\u006Bind\" = \"theme\"\n"), PackKind::Theme);
        // control: no theme, no escape: a pass pack, without a parse
        assert_eq!(kind_of(b"name = \"p\"\n"), PackKind::Pass);
        assert_eq!(kind_of(b"kind = \"pass\" # theme\n"), PackKind::Pass);
    }
}
