//! theme.json as serde_json reads it: a theme's settings are the keys of one JSON object. What
//! the theme rules judge (`rules/theme.rs`), read once with the pack's documents.

/// Why a theme.json is not a theme: a syntax error (message, byte offset) or another top value.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    Syntax { message: String, offset: usize },
    NotObject(&'static str),
}

/// theme.json read once: what is wrong with it as a theme, and whether serde_json accepts it
/// as JSON when it skips its values (what the decoder trusts; `model::json::accepted`).
#[derive(Debug)]
pub(crate) struct ThemeJson {
    pub(crate) problem: Option<Problem>,
    pub(crate) accepted: bool,
}

/// Reads theme.json's text. The decoder's acceptance is asked of serde_json apart only when
/// the value does not read and the text holds a backslash (the only text the decoder decodes):
/// a document whose value reads is accepted.
pub(crate) fn read(text: &str) -> ThemeJson {
    let problem = problem(text.as_bytes());
    let accepted = match &problem {
        None | Some(Problem::NotObject(_)) => true,
        Some(Problem::Syntax { .. }) => {
            memchr::memchr(b'\\', text.as_bytes()).is_some() && super::json::accepted(text)
        }
    };
    ThemeJson { problem, accepted }
}

/// What is wrong with theme.json's bytes as a theme, if anything.
pub(crate) fn problem(bytes: &[u8]) -> Option<Problem> {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(serde_json::Value::Object(_)) => None,
        Ok(other) => Some(Problem::NotObject(match other {
            serde_json::Value::Null => "null",
            serde_json::Value::Bool(_) => "a boolean",
            serde_json::Value::Number(_) => "a number",
            serde_json::Value::String(_) => "a string",
            serde_json::Value::Array(_) => "an array",
            serde_json::Value::Object(_) => "an object",
        })),
        Err(e) => Some(Problem::Syntax {
            message: strip_position(&e.to_string(), e.line(), e.column()),
            offset: offset_of(bytes, e.line(), e.column()),
        }),
    }
}

/// serde_json ends its message with ` at line L column C`; the diagnostic prints the position
/// itself, as `theme.json:L:C: `.
fn strip_position(message: &str, line: usize, column: usize) -> String {
    let suffix = format!(" at line {line} column {column}");
    message.strip_suffix(&suffix).unwrap_or(message).to_string()
}

/// The byte offset of serde_json's 1-based line and byte column (column 0: the line's start).
fn offset_of(bytes: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match bytes[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start += i + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(bytes.len())
}
