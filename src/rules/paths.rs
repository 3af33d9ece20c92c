//! Paths: component count, bytes, characters, names, and case collisions.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_segmentation::UnicodeSegmentation;

use super::declare::declare_rules;
use super::text::IGNORABLE_CHARACTER;
use crate::core::{Diagnostic, is_ignorable, is_invisible};
use crate::pack::place::{Place, is_name, place};
use crate::pack::{EntryKind, Pack};

declare_rules! {
    /// A path with too many components or too many bytes
    ///
    /// A path has one to six components and at most 200 bytes, so it fits every file system and
    /// archive format a pack travels through.
    ///
    /// How to fix: Shorten the path: fewer folders, shorter names.
    pub(crate) static PATH_SHAPE = "path-shape", Error, VeryHigh, rank = 80;

    /// A path component with a character or shape the rules do not allow
    ///
    /// Each component is 1 to 100 characters, starts with a letter or digit, holds only letters,
    /// digits, space, '.', '_' and '-', and does not end in a space or a dot. Such names survive
    /// every operating system and cannot smuggle a control character, a line break, a slash
    /// look-alike or a hidden file. A letter is counted as a reader counts it, with the
    /// combining marks that follow it (Hindi कार्य, a decomposed é); a mark of the page's
    /// invisible set is still an error, and a character of ignorable-character's set (a Hangul
    /// filler) is that warning instead.
    ///
    /// How to fix: Rename the file or folder.
    pub(crate) static PATH_COMPONENT = "path-component", Error, VeryHigh, rank = 90;

    /// A pass, prompt, persona, case or transcript name that breaks the name rule
    ///
    /// Names of passes, prompts, personas, fixture cases and transcripts are lowercase ASCII
    /// letters and digits joined by single dashes, because hippo uses them as identifiers.
    ///
    /// How to fix: Rename it in lowercase letters, digits and single dashes, such as decision-log.
    pub(crate) static NAME_RULE = "name-rule", Error, VeryHigh, rank = 100;

    /// A file or folder name that is not UTF-8
    ///
    /// A name that is not UTF-8 means something else on every machine and cannot be shown
    /// faithfully. It is shown with U+FFFD where its bytes are invalid.
    ///
    /// How to fix: Rename it with a UTF-8 name.
    pub(crate) static NAME_NOT_UTF8 = "name-not-utf8", Error, VeryHigh, rank = 110;

    /// Two paths that differ only in case
    ///
    /// On a case-insensitive disk (macOS, Windows) two such paths are one file, so the pack would
    /// lose one of them when installed. The names compare as such a disk compares them: in NFC
    /// (an é composed and one decomposed are one name) and after Unicode's simple case folding
    /// (the long s and s, a final sigma and a sigma, the micro sign and mu are one letter); not
    /// the full folding, so Straße and Strasse stay two names.
    ///
    /// How to fix: Rename or delete one of the two.
    pub(crate) static CASE_COLLISION = "case-collision", Error, VeryHigh, rank = 120;
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

/// [`component_problem`] without its fast path for the usual names. Letters are counted as a
/// reader counts them: a letter followed by its combining marks (a grapheme cluster: Hindi
/// `कार्य`, a decomposed `é`) is one letter. The characters of `ignorable-character`'s set are
/// that warning ([`ignorable_in_name`]), not this error; the page's invisible ones stay errors.
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
    if let Some(bad) = c.graphemes(true).find_map(cluster_problem) {
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

/// The first character of a grapheme cluster that a name may not hold: its base is a letter, a
/// digit, space, `.`, `_` or `-`; what follows a letter or digit may be letters, digits and
/// combining marks (general category M) outside the page's invisible set.
fn cluster_problem(g: &str) -> Option<char> {
    let allowed = |ch: char| ch.is_alphanumeric() || matches!(ch, ' ' | '.' | '_' | '-');
    let mut chars = g.chars().filter(|&ch| !is_ignorable(ch));
    let base = chars.next()?;
    if !allowed(base) {
        return Some(base);
    }
    let letter = base.is_alphanumeric();
    chars.find(|&ch| !(allowed(ch) || letter && is_combining_mark(ch) && !is_invisible(ch)))
}

/// The `ignorable-character` warning of a name holding characters of that set (the Hangul
/// fillers, a soft hyphen): `the name holds U+3164, an invisible character hippo accepts`.
fn ignorable_in_name(path: &str, name: &str) -> Option<Diagnostic> {
    let mut found = name.chars().filter(|&ch| is_ignorable(ch));
    let first = found.next()?;
    let more = match found.count() {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    Some(Diagnostic::file(
        &IGNORABLE_CHARACTER,
        path,
        format!(
            "the name holds U+{:04X}{more}, an invisible character hippo accepts",
            first as u32
        ),
    ))
}

/// The form two names share when a case-insensitive disk takes them for one: NFC (a decomposed
/// `é` is the composed one, as on macOS), then Unicode's simple case folding (CaseFolding.txt's
/// statuses C and S: `ſ` is `s`, `ς` is `σ`, `µ` is `μ`), not the full folding, which would make
/// `Straße` and `Strasse` one name where no disk does.
fn collision_key(path: &str) -> String {
    if path.is_ascii() {
        return path.to_ascii_uppercase();
    }
    path.nfc().map(simple_fold).collect()
}

/// `differs only in case from <other>`, or `differs only in Unicode normalization from <other>`
/// when the two are the same text composed and decomposed (they look the same).
fn collision_message(path: &str, other: &str) -> String {
    if !path.is_ascii() && path.nfc().eq(other.nfc()) {
        format!("differs only in Unicode normalization from {other}")
    } else {
        format!("differs only in case from {other}")
    }
}

/// A character's simple case folding, as the class of characters Unicode's simple folding
/// makes equal to it: the smallest of them stands for all (the class `regex-syntax` builds from
/// CaseFolding.txt; for an ASCII letter, its capital).
fn simple_fold(c: char) -> char {
    use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
    if c.is_ascii() {
        return c.to_ascii_uppercase();
    }
    let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
    if class.try_case_fold_simple().is_err() {
        // regex-syntax is built with its case tables (Cargo.toml); without them, only the
        // character itself, which a unit test below catches.
        return c;
    }
    class.ranges().first().map_or(c, |r| r.start())
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
    // Room for every entry's key at once: the map never grows while it is filled.
    let mut seen: std::collections::HashMap<String, &str> =
        std::collections::HashMap::with_capacity(pack.entries.len());
    for e in &pack.entries {
        if !e.utf8 {
            out.push(Diagnostic::file(
                &NAME_NOT_UTF8,
                &e.path,
                "the name is not UTF-8",
            ));
            continue;
        }
        let components = memchr::memchr_iter(b'/', e.path.as_bytes()).count() + 1;
        if components > 6 {
            out.push(Diagnostic::file(
                &PATH_SHAPE,
                &e.path,
                format!("{components} components, over the limit of 6"),
            ));
        } else if e.path.len() > 200 {
            out.push(Diagnostic::file(
                &PATH_SHAPE,
                &e.path,
                format!("{} bytes, over the 200-byte limit", e.path.len()),
            ));
        }
        // Only the entry's own (last) component: its parents were checked as entries.
        let last = e.path.rsplit('/').next().unwrap_or("");
        if let Some(why) = component_problem(last) {
            out.push(Diagnostic::file(
                &PATH_COMPONENT,
                &e.path,
                format!("the name {why}"),
            ));
        } else {
            name_rule(pack, e, out);
        }
        if !last.is_ascii() {
            out.extend(ignorable_in_name(&e.path, last));
        }
        match seen.entry(collision_key(&e.path)) {
            std::collections::hash_map::Entry::Occupied(other) => out.push(
                Diagnostic::file(
                    &CASE_COLLISION,
                    &e.path,
                    collision_message(&e.path, other.get()),
                )
                .pointing_at(None, None),
            ),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(&e.path);
            }
        }
    }
}

fn name_rule(pack: &Pack, e: &crate::pack::Entry, out: &mut Vec<Diagnostic>) {
    let name = match &e.kind {
        // A case folder: `tests/<case>`.
        EntryKind::Dir { .. } => e
            .path
            .strip_prefix("tests/")
            .filter(|case| !case.contains('/')),
        EntryKind::File => match place(pack.kind, &e.path) {
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
    fn no_ascii_character_is_ignorable() {
        // `check` asks a name for ignorable characters only when it is not all ASCII.
        assert!((0..128u8).all(|b| !is_ignorable(char::from(b))));
        // Control: a Hangul filler is one.
        assert!(is_ignorable('\u{3164}'));
    }

    #[test]
    fn letters_are_counted_with_their_marks() {
        for fine in [
            "कार्य.md",
            "பணி.md",
            "cafe\u{301}.md",
            "Noël 2026.md",
            "日本語.md",
        ] {
            assert_eq!(component_problem(fine), None, "{fine}");
        }
        // Controls: a mark with no letter before it, a mark after a dot, a variation selector
        // (a mark of the page's invisible set), a joiner between letters.
        assert_eq!(
            component_problem("\u{94D}a.md"),
            Some("starts with \"\u{94D}\"".into())
        );
        assert_eq!(
            component_problem("a.\u{301}md"),
            Some("contains \"\u{301}\"".into())
        );
        assert_eq!(
            component_problem("a\u{FE0F}.md"),
            Some("contains U+FE0F".into())
        );
        assert_eq!(
            component_problem("क\u{200D}ष.md"),
            Some("contains U+200D".into())
        );
    }

    #[test]
    fn fillers_in_a_name_are_the_ignorable_warning() {
        assert_eq!(component_problem("\u{3164}.md"), None);
        assert_eq!(component_problem("a\u{AD}b.md"), None);
        let d = ignorable_in_name("templates/a\u{3164}\u{3164}.md", "a\u{3164}\u{3164}.md");
        let d = d.expect("a warning");
        assert_eq!(d.rule.id, "ignorable-character");
        assert_eq!(
            d.message,
            "the name holds U+3164 and 1 more, an invisible character hippo accepts"
        );
        assert!(ignorable_in_name("a.md", "a.md").is_none(), "control");
        // control: a soft hyphen cannot start a name
        assert!(component_problem("\u{AD}a.md").is_some());
    }

    #[test]
    fn collisions_fold_case_simply_on_nfc_forms() {
        let same = [
            ("templates/seed.md", "templates/\u{17F}eed.md"),
            ("templates/\u{3C3}.md", "templates/\u{3C2}.md"),
            ("templates/\u{B5}.md", "templates/\u{3BC}.md"),
            ("templates/\u{E9}.md", "templates/e\u{301}.md"),
            ("templates/\u{C9}.md", "templates/e\u{301}.md"),
            ("templates/Kelvin.md", "templates/\u{212A}elvin.md"),
            ("templates/\u{DF}.md", "templates/\u{1E9E}.md"),
        ];
        for (a, b) in same {
            assert_eq!(collision_key(a), collision_key(b), "{a} {b}");
        }
        // Controls: the full folding's ß = ss is no disk's, and different letters differ.
        for (a, b) in [
            ("templates/Stra\u{DF}e.md", "templates/Strasse.md"),
            ("templates/a.md", "templates/b.md"),
            ("templates/e.md", "templates/\u{E9}.md"),
        ] {
            assert_ne!(collision_key(a), collision_key(b), "{a} {b}");
        }
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
