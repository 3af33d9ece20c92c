//! The Unicode sets the rules and the output hygiene share.

use std::sync::LazyLock;

/// The invisible characters of hippo's page "Writing a pack" (docs/rules.md, `invisible-character`).
pub fn is_invisible(c: char) -> bool {
    let u = c as u32;
    matches!(u,
        0x00..=0x08 | 0x0B | 0x0C | 0x0E..=0x1F | 0x7F | 0x80..=0x9F
        | 0x200B..=0x200D | 0x2060..=0x2064 | 0xFEFF | 0x180E
        | 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069 | 0x206A..=0x206F
        | 0x180B..=0x180D | 0x180F | 0xFE00..=0xFE0F | 0xE0100..=0xE01EF
        | 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD
        | 0xE0000..=0xE007F)
}

/// The interlinear annotation characters, which Unicode does not mark Default_Ignorable but
/// which hide the text between them in most renderers (docs/security.md).
const ANNOTATION: std::ops::RangeInclusive<u32> = 0xFFF9..=0xFFFB;

/// The ranges of a Unicode property class (`\p{...}`), read from the Unicode data the
/// `regex-syntax` crate carries, sorted. regex-syntax is built with the tables the classes
/// below need (Cargo.toml); without them a class is empty, which the unit tests below catch.
fn property(class: &str) -> Vec<(u32, u32)> {
    use regex_syntax::hir::{Class, HirKind};
    let hir = regex_syntax::ParserBuilder::new().build().parse(class);
    match hir.as_ref().map(|h| h.kind()) {
        Ok(HirKind::Class(Class::Unicode(cls))) => cls
            .ranges()
            .iter()
            .map(|r| (r.start() as u32, r.end() as u32))
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether `c` is in sorted ranges.
fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let u = c as u32;
    let i = table.partition_point(|&(_, end)| end < u);
    table.get(i).is_some_and(|&(start, _)| start <= u)
}

/// Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt).
static DEFAULT_IGNORABLE: LazyLock<Vec<(u32, u32)>> =
    LazyLock::new(|| property(r"\p{Default_Ignorable_Code_Point}"));

/// Whether a character is default-ignorable in Unicode's data.
pub(crate) fn is_default_ignorable(c: char) -> bool {
    (c as u32) >= 0xAD && in_ranges(&DEFAULT_IGNORABLE, c)
}

/// The scripts `mixed-script` tells apart (Unicode's Script property, Scripts.txt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Script {
    Latin,
    Cyrillic,
    Greek,
}

/// Sorted ranges of code points.
type Ranges = Vec<(u32, u32)>;

static SCRIPTS: LazyLock<[(Script, Ranges); 3]> = LazyLock::new(|| {
    [
        (Script::Latin, property(r"\p{Script=Latin}")),
        (Script::Cyrillic, property(r"\p{Script=Cyrillic}")),
        (Script::Greek, property(r"\p{Script=Greek}")),
    ]
});

/// The script of a character, when it is Latin, Cyrillic or Greek.
pub(crate) fn script(c: char) -> Option<Script> {
    if c.is_ascii() {
        return c.is_ascii_alphabetic().then_some(Script::Latin);
    }
    SCRIPTS
        .iter()
        .find(|(_, table)| in_ranges(table, c))
        .map(|(s, _)| *s)
}

/// The characters beyond the page's list that hide text all the same (docs/checks.md, "Paths and
/// text"; docs/rules.md, `ignorable-character`): Default_Ignorable_Code_Point minus the page's set,
/// plus U+FFF9–U+FFFB. hippo accepts them, so they are a warning, not an error.
pub(crate) fn is_ignorable(c: char) -> bool {
    // The two range tests first: they refuse most characters (all of ASCII) at once.
    (ANNOTATION.contains(&(c as u32)) || is_default_ignorable(c)) && !is_invisible(c)
}

/// Whether a character is of either set: the page's invisible ones or the ignorable ones.
pub fn is_hidden(c: char) -> bool {
    is_invisible(c) || is_ignorable(c)
}

/// Whether a character ends a line for some reader: line feed, vertical tab, form feed, carriage
/// return, next line (U+0085), line separator (U+2028) and paragraph separator (U+2029), the
/// line breaks of Unicode's UAX #14 mandatory-break classes. "One line" means none of them.
pub(crate) fn breaks_line(c: char) -> bool {
    matches!(
        c,
        '\n' | '\u{0B}' | '\u{0C}' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Unicode's space separators (general category Zs; a unit test holds the list equal to the
/// Unicode data the `regex` crate carries): what the fold table reads as a space.
#[cfg(test)]
pub(crate) fn is_space_separator(c: char) -> bool {
    matches!(
        c as u32,
        0x20 | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x3000
    )
}

/// The space a person takes for an ordinary one but a search for a phrase does not: U+2800
/// BRAILLE PATTERN BLANK, which renders as a space but is a symbol (docs/rules.md,
/// `unusual-space`). The space separators are typography (a French digit group's U+2009): the
/// matchers read them as spaces (the fold table) and no rule reports them.
pub(crate) fn is_unusual_space(c: char) -> bool {
    c == '\u{2800}'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ignorable_set_comes_from_unicode_data() {
        let listed = [
            0x00AD, 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, 0x1BCA0, 0x1BCA3,
            0x1D173, 0x1D17A, 0xFFF9, 0xFFFB, 0x2065, 0xE0080, 0xE0FFF,
        ];
        for u in listed {
            let c = char::from_u32(u).unwrap();
            assert!(is_ignorable(c), "U+{u:04X}");
        }
        assert!(DEFAULT_IGNORABLE.len() > 10, "the table is loaded");
        // Controls: the page's own characters are errors, not warnings; visible text is neither.
        for c in ['\u{200B}', '\u{202E}', '\u{E0041}', '\u{FE0F}'] {
            assert!(is_invisible(c) && !is_ignorable(c) && is_default_ignorable(c));
        }
        for c in ['a', 'é', '\u{00A0}', '\u{FFFC}', '\u{1D17B}', '\u{2028}'] {
            assert!(!is_ignorable(c), "{c:?}");
        }
    }

    #[test]
    fn scripts_come_from_unicode_data() {
        assert_eq!(script('V'), Some(Script::Latin));
        assert_eq!(script('\u{E9}'), Some(Script::Latin));
        assert_eq!(script('\u{430}'), Some(Script::Cyrillic));
        assert_eq!(script('\u{3BF}'), Some(Script::Greek));
        // controls: Japanese, Korean, a digit and punctuation have none of the three
        for c in ['\u{5C71}', '\u{3055}', '\u{C73C}', '1', '\''] {
            assert_eq!(script(c), None, "{c:?}");
        }
    }

    #[test]
    fn the_space_separators_are_unicode_zs() {
        let zs = regex::Regex::new(r"^\p{Zs}$").unwrap();
        let mut buf = [0; 4];
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let listed = is_space_separator(c);
            assert_eq!(
                listed,
                zs.is_match(c.encode_utf8(&mut buf)),
                "U+{:04X}",
                c as u32
            );
        }
        // The unusual one: U+2800 is not Zs but renders as a space; the space separators are
        // typography.
        assert!(is_unusual_space('\u{2800}') && !is_space_separator('\u{2800}'));
        for c in [
            ' ', '\u{A0}', '\u{202F}', '\u{3000}', '\u{2009}', '\u{2002}', '\u{1680}', '\t',
            '\u{2028}', '\u{200B}',
        ] {
            assert!(!is_unusual_space(c), "control: {c:?}");
        }
    }
}
