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
        return defuse(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if printable(c) {
            out.push(c);
        } else {
            out.push_str(&format!("U+{:04X}", c as u32));
        }
    }
    Cow::Owned(defuse(&out).into_owned())
}

/// A block of pack text for standard error or a CI log (`--print-prompts`): tab and line feed
/// kept, every other control, invisible or ignorable character shown as `U+XXXX` (a carriage
/// return too, so nothing can overwrite a line), and no line a runner would read as a workflow
/// command (docs/security.md, "Output hygiene"): GitHub's runner trims leading white space before
/// it looks for `::`, and reads the legacy `##[` anywhere in a line, so a line whose text starts
/// with `::` after white space has its first `:` shown as `U+003A`, and every `##[` reads
/// `U+0023#[`.
pub(crate) fn block(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for (i, l) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut shown = String::with_capacity(l.len());
        for c in l.chars() {
            if c == '\t' || printable(c) {
                shown.push(c);
            } else {
                shown.push_str(&format!("U+{:04X}", c as u32));
            }
        }
        out.push_str(&defuse(&shown));
    }
    out
}

/// `::` at the start of a line (after white space) and `##[` anywhere made inert.
fn defuse(line: &str) -> Cow<'_, str> {
    let lead = line.len() - line.trim_start().len();
    let command = line[lead..].starts_with("::");
    if !command && !line.contains("##[") {
        return Cow::Borrowed(line);
    }
    let mut l = line.to_string();
    if command {
        l.replace_range(lead..lead + 1, "U+003A");
    }
    Cow::Owned(l.replace("##[", "U+0023#["))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_keeps_tabs_and_lines_and_defuses_workflow_commands() {
        let text =
            "a\tb\n::error::x\n  ::add-mask::y\r\nsay ##[error]z\nfine :: here\n\u{202E}\u{00AD}";
        assert_eq!(
            block(text),
            "a\tb\nU+003A:error::x\n  U+003A:add-mask::yU+000D\nsay U+0023#[error]z\nfine :: here\nU+202EU+00AD"
        );
        // Control: plain text passes unchanged.
        assert_eq!(block("plain\ttext\n\nmore"), "plain\ttext\n\nmore");
    }

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
