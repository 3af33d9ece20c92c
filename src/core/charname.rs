//! A character's Unicode name for the reports (`U+2060 WORD JOINER`): the Name property from
//! `unicode_names2`, and for the controls, which have no Name, their alias in Unicode's
//! NameAliases.txt (`U+000D CARRIAGE RETURN`).

/// The name of `c`, or `None` for a code point without one (private use, unassigned, a
/// noncharacter).
pub(crate) fn name(c: char) -> Option<String> {
    if let Some(n) = unicode_names2::name(c) {
        return Some(n.to_string());
    }
    let u = c as u32;
    let alias = match u {
        0x00..=0x1F => CONTROLS.get(u as usize),
        0x7F => CONTROLS.get(32),
        0x80..=0x9F => CONTROLS.get(u as usize - 0x80 + 33),
        _ => None,
    };
    alias.map(|a| a.to_string())
}

/// `U+2060 WORD JOINER`; `U+E000` alone for a code point without a name.
#[cfg(test)]
fn label(c: char) -> String {
    match name(c) {
        Some(n) => format!("U+{:04X} {n}", c as u32),
        None => format!("U+{:04X}", c as u32),
    }
}

/// The aliases of U+0000..=U+001F, U+007F and U+0080..=U+009F, in that order (the preferred
/// alias of each in NameAliases.txt, as Perl's `charnames::viacode` gives it).
const CONTROLS: [&str; 65] = [
    "NULL",
    "START OF HEADING",
    "START OF TEXT",
    "END OF TEXT",
    "END OF TRANSMISSION",
    "ENQUIRY",
    "ACKNOWLEDGE",
    "ALERT",
    "BACKSPACE",
    "CHARACTER TABULATION",
    "LINE FEED",
    "LINE TABULATION",
    "FORM FEED",
    "CARRIAGE RETURN",
    "SHIFT OUT",
    "SHIFT IN",
    "DATA LINK ESCAPE",
    "DEVICE CONTROL ONE",
    "DEVICE CONTROL TWO",
    "DEVICE CONTROL THREE",
    "DEVICE CONTROL FOUR",
    "NEGATIVE ACKNOWLEDGE",
    "SYNCHRONOUS IDLE",
    "END OF TRANSMISSION BLOCK",
    "CANCEL",
    "END OF MEDIUM",
    "SUBSTITUTE",
    "ESCAPE",
    "INFORMATION SEPARATOR FOUR",
    "INFORMATION SEPARATOR THREE",
    "INFORMATION SEPARATOR TWO",
    "INFORMATION SEPARATOR ONE",
    "DELETE",
    "PADDING CHARACTER",
    "HIGH OCTET PRESET",
    "BREAK PERMITTED HERE",
    "NO BREAK HERE",
    "INDEX",
    "NEXT LINE",
    "START OF SELECTED AREA",
    "END OF SELECTED AREA",
    "CHARACTER TABULATION SET",
    "CHARACTER TABULATION WITH JUSTIFICATION",
    "LINE TABULATION SET",
    "PARTIAL LINE FORWARD",
    "PARTIAL LINE BACKWARD",
    "REVERSE LINE FEED",
    "SINGLE SHIFT TWO",
    "SINGLE SHIFT THREE",
    "DEVICE CONTROL STRING",
    "PRIVATE USE ONE",
    "PRIVATE USE TWO",
    "SET TRANSMIT STATE",
    "CANCEL CHARACTER",
    "MESSAGE WAITING",
    "START OF GUARDED AREA",
    "END OF GUARDED AREA",
    "START OF STRING",
    "SINGLE GRAPHIC CHARACTER INTRODUCER",
    "SINGLE CHARACTER INTRODUCER",
    "CONTROL SEQUENCE INTRODUCER",
    "STRING TERMINATOR",
    "OPERATING SYSTEM COMMAND",
    "PRIVACY MESSAGE",
    "APPLICATION PROGRAM COMMAND",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_are_named_and_controls_by_their_alias() {
        assert_eq!(label('\u{2060}'), "U+2060 WORD JOINER");
        assert_eq!(label('\u{1F600}'), "U+1F600 GRINNING FACE");
        assert_eq!(label('\u{FEFF}'), "U+FEFF ZERO WIDTH NO-BREAK SPACE");
        assert_eq!(label('\r'), "U+000D CARRIAGE RETURN");
        assert_eq!(label('\u{0}'), "U+0000 NULL");
        assert_eq!(label('\u{1F}'), "U+001F INFORMATION SEPARATOR ONE");
        assert_eq!(label('\u{7F}'), "U+007F DELETE");
        assert_eq!(label('\u{85}'), "U+0085 NEXT LINE");
        assert_eq!(label('\u{9F}'), "U+009F APPLICATION PROGRAM COMMAND");
        // Control: a private-use character has no name, and none is made up.
        assert_eq!(label('\u{E000}'), "U+E000");
        assert_eq!(name('\u{E000}'), None);
    }
}
