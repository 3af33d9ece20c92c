//! A prompt's placeholders and its closing instruction, as the rules and the dreaming engine
//! both read them.

use crate::core::Span;
use std::sync::LazyLock;

/// The last line of every first-party prompt, word for word; hippo appends it (after one blank
/// line) to a prompt that does not end with it.
pub(crate) const CLOSING_INSTRUCTION: &str = "Respond with only a JSON array of objects `{note, kind, old, new, evidence: [{session, ordinal}], reason}` as your final message; an empty array means no proposals.";

/// One `{{...}}` in a prompt: its inside and where the whole placeholder stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Placeholder<'a> {
    pub(crate) name: &'a str,
    pub(crate) span: Span,
}

/// Every `{{...}}` of a text, in order: two opening braces, then anything but braces and line
/// ends, then two closing braces. In `{{{notes}}}` the placeholder is the inner `{{notes}}`.
pub(crate) fn placeholders(text: &str) -> Vec<Placeholder<'_>> {
    static RE: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"\{\{([^{}\n]*)\}\}").expect("placeholder regex"));
    RE.captures_iter(text)
        .map(|c| {
            let whole = c.get(0).expect("group 0");
            Placeholder {
                name: c.get(1).map_or("", |m| m.as_str()),
                span: Span::new(whole.start(), whole.end()),
            }
        })
        .collect()
}

/// Whether the last non-blank line is the closing instruction, trailing white space aside.
pub(crate) fn ends_with_closing_instruction(text: &str) -> bool {
    last_nonblank_line(text).is_some_and(|(line, _)| line.trim_end() == CLOSING_INSTRUCTION)
}

/// The last line holding more than white space, and its span.
pub(crate) fn last_nonblank_line(text: &str) -> Option<(&str, Span)> {
    let mut end = text.len();
    loop {
        let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[start..end];
        if !line.trim().is_empty() {
            return Some((line, Span::new(start, start + line.trim_end().len())));
        }
        if start == 0 {
            return None;
        }
        end = start - 1;
    }
}
