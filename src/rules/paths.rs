//! Paths: component count, bytes, characters, names, and case collisions.

use super::declare::declare_rules;
use crate::core::Diagnostic;
use crate::pack::place::{Place, is_name, place};
use crate::pack::{EntryKind, Pack};

declare_rules! {
    /// A path with too many components or too many bytes
    ///
    /// A path has one to six components and at most 200 bytes, so it fits every file system and
    /// archive format a pack travels through.
    ///
    /// How to fix: Shorten the path: fewer folders, shorter names.
    pub(crate) static PATH_SHAPE = "path-shape", Error, VeryHigh;

    /// A path component with a character or shape the rules do not allow
    ///
    /// Each component is 1 to 100 characters, starts with a letter or digit, holds only letters,
    /// digits, space, '.', '_' and '-', and does not end in a space or a dot. Such names survive
    /// every operating system and cannot smuggle a control character, a slash look-alike or a
    /// hidden file.
    ///
    /// How to fix: Rename the file or folder.
    pub(crate) static PATH_COMPONENT = "path-component", Error, VeryHigh;

    /// A pass, prompt, persona, case or transcript name that breaks the name rule
    ///
    /// Names of passes, prompts, personas, fixture cases and transcripts are lowercase ASCII
    /// letters and digits joined by single dashes, because hippo uses them as identifiers.
    ///
    /// How to fix: Rename it in lowercase letters, digits and single dashes, such as decision-log.
    pub(crate) static NAME_RULE = "name-rule", Error, VeryHigh;

    /// A file or folder name that is not UTF-8
    ///
    /// A name that is not UTF-8 means something else on every machine and cannot be shown
    /// faithfully. It is shown with U+FFFD where its bytes are invalid.
    ///
    /// How to fix: Rename it with a UTF-8 name.
    pub(crate) static NAME_NOT_UTF8 = "name-not-utf8", Error, VeryHigh;

    /// Two paths that differ only in case
    ///
    /// On a case-insensitive disk (macOS, Windows) two such paths are one file, so the pack would
    /// lose one of them when installed.
    ///
    /// How to fix: Rename or delete one of the two.
    pub(crate) static CASE_COLLISION = "case-collision", Error, VeryHigh;
}

/// Why a path component breaks the rule, if it does.
pub(crate) fn component_problem(c: &str) -> Option<String> {
    // The usual name: ASCII letters and digits first, then those, space, `.`, `_` and `-`, not
    // ending in a space or a dot, at most 100 bytes. Anything else takes the full look below,
    // which says what is wrong.
    let ok = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b' ' | b'.' | b'_' | b'-');
    if let (Some(first), Some(last)) = (c.bytes().next(), c.bytes().last())
        && c.len() <= 100
        && first.is_ascii_alphanumeric()
        && !matches!(last, b' ' | b'.')
        && c.bytes().all(|b| ok(&b))
    {
        return None;
    }
    full_problem(c)
}

/// [`component_problem`] without its fast path for the usual names.
fn full_problem(c: &str) -> Option<String> {
    let n = c.chars().count();
    if n == 0 {
        return Some("is empty".into());
    }
    if n > 100 {
        return Some(format!("is {n} characters, over the limit of 100"));
    }
    let first = c.chars().next().unwrap_or(' ');
    if !first.is_alphanumeric() {
        return Some(format!("starts with {}", shown(first)));
    }
    if let Some(bad) = c
        .chars()
        .find(|&ch| !(ch.is_alphanumeric() || matches!(ch, ' ' | '.' | '_' | '-')))
    {
        return Some(format!("contains {}", shown(bad)));
    }
    if c.ends_with(' ') {
        return Some("ends in a space".into());
    }
    if c.ends_with('.') {
        return Some("ends in a dot".into());
    }
    None
}

/// A character for a message: printable ones quoted, others as U+XXXX.
fn shown(c: char) -> String {
    if c.is_control() || c.is_whitespace() || crate::core::is_invisible(c) {
        format!("U+{:04X}", c as u32)
    } else {
        format!("\"{c}\"")
    }
}

pub(crate) fn check(pack: &Pack, out: &mut Vec<Diagnostic>) {
    let mut seen: std::collections::HashMap<String, &str> = Default::default();
    for e in &pack.entries {
        if !e.utf8 {
            out.push(Diagnostic::file(
                &NAME_NOT_UTF8,
                &e.path,
                "the name is not UTF-8",
            ));
            continue;
        }
        let parts: Vec<&str> = e.path.split('/').collect();
        if parts.len() > 6 {
            out.push(Diagnostic::file(
                &PATH_SHAPE,
                &e.path,
                format!("{} components, over the limit of 6", parts.len()),
            ));
        } else if e.path.len() > 200 {
            out.push(Diagnostic::file(
                &PATH_SHAPE,
                &e.path,
                format!("{} bytes, over the 200-byte limit", e.path.len()),
            ));
        }
        // Only the entry's own (last) component: its parents were checked as entries.
        let last = parts.last().copied().unwrap_or("");
        if let Some(why) = component_problem(last) {
            out.push(Diagnostic::file(
                &PATH_COMPONENT,
                &e.path,
                format!("the name {why}"),
            ));
        } else {
            name_rule(pack, e, &parts, out);
        }
        // The same lower case either way; the ASCII one skips Unicode's tables.
        let lower = if e.path.is_ascii() {
            e.path.to_ascii_lowercase()
        } else {
            e.path.to_lowercase()
        };
        match seen.get(&lower) {
            Some(other) => out.push(
                Diagnostic::file(
                    &CASE_COLLISION,
                    &e.path,
                    format!("differs only in case from {other}"),
                )
                .pointing_at(None, None),
            ),
            None => {
                seen.insert(lower, &e.path);
            }
        }
    }
}

fn name_rule(pack: &Pack, e: &crate::pack::Entry, parts: &[&str], out: &mut Vec<Diagnostic>) {
    let name = match (&e.kind, parts) {
        (EntryKind::Dir { .. }, ["tests", case]) => Some(*case),
        (EntryKind::File, _) => match place(pack.kind, &e.path) {
            Some((Place::Case, _)) => None, // the case folder is checked as a folder
            Some((_, Some(n))) => Some(n),
            _ => None,
        },
        _ => None,
    };
    if let Some(n) = name
        && !is_name(n)
    {
        out.push(Diagnostic::file(
            &NAME_RULE,
            &e.path,
            format!("{n} breaks the name rule: lowercase letters, digits and single dashes"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_path_agrees_with_the_full_look() {
        let alphabet = [
            b'a', b'Z', b'0', b' ', b'.', b'_', b'-', b':', b'/', 0x7F, b'\t',
        ];
        let mut names = vec![String::new(), "a".repeat(100), "a".repeat(101)];
        for x in alphabet {
            for y in alphabet {
                for z in alphabet {
                    names.push(String::from_utf8(vec![x, y, z]).unwrap());
                }
            }
        }
        for n in &names {
            assert_eq!(component_problem(n), full_problem(n), "{n:?}");
        }
        // control: the full look does find problems among them
        assert!(names.iter().filter(|n| full_problem(n).is_some()).count() > 100);
    }

    #[test]
    fn components() {
        assert_eq!(component_problem("Decision log.md"), None);
        assert_eq!(
            component_problem("é1.md"),
            None,
            "Unicode letters are letters"
        );
        assert!(component_problem("a.").is_some());
        assert!(component_problem("a ").is_some());
        assert!(component_problem("_a").is_some());
        assert!(component_problem("a:b").is_some());
        assert!(component_problem(&"a".repeat(101)).is_some());
        assert_eq!(
            component_problem("a\u{202E}b"),
            Some("contains U+202E".into())
        );
    }
}
