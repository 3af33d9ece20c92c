//! Output hygiene: text that comes from a pack never reaches a terminal or a CI log raw.

use std::borrow::Cow;

/// Whether a character may be printed as it is: not a control character, not invisible
/// (docs/checks.md, "Paths and text"), not a line or paragraph separator.
fn printable(c: char) -> bool {
    !(c.is_control() || crate::core::is_hidden(c) || matches!(c, '\u{2028}' | '\u{2029}'))
}

/// A line for a terminal or a log: every control or invisible character (newlines, escapes,
/// direction marks) shown as `U+XXXX`, so a pack can neither break a line nor hide text.
pub fn line(s: &str) -> Cow<'_, str> {
    if s.chars().all(printable) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if printable(c) {
            out.push(c);
        } else {
            out.push_str(&format!("U+{:04X}", c as u32));
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_invisibles() {
        assert_eq!(line("a\nb\x1b[31m"), "aU+000AbU+001B[31m");
        assert_eq!(line("x\u{202E}y"), "xU+202Ey");
        assert!(
            matches!(line("plain é"), Cow::Borrowed(_)),
            "clean text is not copied"
        );
    }
}
