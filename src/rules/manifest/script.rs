//! `mixed-script`: a word of pack.toml's description or of an author's name in which Latin
//! letters stand beside Cyrillic or Greek letters that look like Latin ones (`Vаnitas` with a
//! Cyrillic `а`), the shape of an impersonated name. A word is a run of letters and their
//! marks; apostrophes, punctuation, digits and spaces split words. Cyrillic or Greek words of
//! their own (`Иван Петров`), and Japanese, Chinese or Korean beside Latin (`Git으로`), are
//! never this warning.

use unicode_normalization::char::is_combining_mark;

use crate::core::fold::fold_char;
use crate::core::{Script, charname, script};

/// The message for the first word of `text` that mixes scripts so:
/// `"Vаnitas": U+0430 CYRILLIC SMALL LETTER A among Latin letters`.
pub(super) fn mixed(text: &str) -> Option<String> {
    let in_word = |c: char| c.is_alphabetic() || is_combining_mark(c);
    text.split(|c: char| !in_word(c))
        .filter(|w| !w.is_empty())
        .find_map(|word| {
            let latin = word.chars().any(|c| script(c) == Some(Script::Latin));
            let look_alike = word.chars().find(|&c| look_alike(c))?;
            latin.then(|| {
                let name = charname::name(look_alike).unwrap_or_default();
                format!(
                    "\"{word}\": U+{:04X} {name} among Latin letters",
                    look_alike as u32
                )
            })
        })
}

/// A Cyrillic or Greek letter whose look-alike is a Latin letter (its confusable prototype, as
/// the content rules fold it: `а` is `a`, `ο` is `o`).
fn look_alike(c: char) -> bool {
    matches!(script(c), Some(Script::Cyrillic | Script::Greek))
        && fold_char(c).is_some_and(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_alphabetic()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_beside_a_look_alike_is_found() {
        assert_eq!(
            mixed("V\u{430}nitas").as_deref(),
            Some("\"V\u{430}nitas\": U+0430 CYRILLIC SMALL LETTER A among Latin letters")
        );
        assert_eq!(
            mixed("Notes for G\u{3BF}ogle teams").as_deref(),
            Some("\"G\u{3BF}ogle\": U+03BF GREEK SMALL LETTER OMICRON among Latin letters")
        );
        // A Latin letter in a Cyrillic word is the same shape.
        assert!(mixed("\u{41F}e\u{442}\u{440}\u{43E}\u{432}").is_some());
    }

    #[test]
    fn names_in_one_script_or_beside_cjk_are_not() {
        for fine in [
            "Jos\u{E9} M\u{FC}ller",
            "\u{418}\u{432}\u{430}\u{43D} \u{41F}\u{435}\u{442}\u{440}\u{43E}\u{432}",
            "\u{5C71}\u{7530}\u{3055}\u{304F}\u{3089}",
            "Git\u{C73C}\u{B85C}",
            "\u{3BB}\u{3CC}\u{3B3}\u{3BF}\u{3C2}",
            "O'Brien d'\u{430}",
            "\u{3BC}-law decoding, 2\u{3C0} radians",
            "Zo\u{eb} Ren\u{e9}e-\u{C5}sa",
        ] {
            assert_eq!(mixed(fine), None, "{fine}");
        }
    }
}
