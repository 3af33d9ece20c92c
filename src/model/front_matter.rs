//! The YAML front matter of a note or a template, as a YAML parser reads it (`yaml-rust2`):
//! a block that opens the file with a line `---` and closes with a line `---` or `...`.
//!
//! Only the top-level `type` is read (what `note_types` filters on); the rest is parsed so that
//! a block YAML cannot read is told apart from one it can. Nothing is expanded: an alias is
//! followed only when it is the value of `type` and names a scalar, and the parse stops with an
//! error past [`MAX_DEPTH`] nested collections, [`MAX_ALIASES`] aliases or [`MAX_EVENTS`]
//! events, so a hostile block costs no more than its length.

use crate::core::Span;
use yaml_rust2::parser::{Event, Parser};

/// The deepest nesting of mappings and sequences read.
pub(crate) const MAX_DEPTH: usize = 32;
/// The most aliases a block may hold.
pub(crate) const MAX_ALIASES: usize = 64;
/// The most parser events a block may yield.
pub(crate) const MAX_EVENTS: usize = 10_000;

/// A file's front matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FrontMatter {
    /// The file does not open with a closed `---` block.
    Absent,
    /// YAML read the block; its top-level `type`, when it is a scalar that is not null.
    Read { note_type: Option<String> },
    /// YAML cannot read the block: where (the start of the line it stopped at) and why.
    Unreadable { at: Span, why: String },
}

impl FrontMatter {
    /// The note's type (none when the block is absent or unreadable).
    pub(crate) fn note_type(&self) -> Option<&str> {
        match self {
            FrontMatter::Read { note_type } => note_type.as_deref(),
            _ => None,
        }
    }
}

/// Reads the front matter of a file.
pub(crate) fn read(text: &str) -> FrontMatter {
    let Some((body, body_start)) = block(text) else {
        return FrontMatter::Absent;
    };
    match parse(body) {
        Ok(note_type) => FrontMatter::Read { note_type },
        Err((line, why)) => {
            let at = line_start(text, body_start, line);
            FrontMatter::Unreadable {
                at: Span::new(at, at),
                why,
            }
        }
    }
}

/// The block's YAML and where it starts, when the file opens with `---` and the block closes.
fn block(text: &str) -> Option<(&str, usize)> {
    let first = text.split_inclusive('\n').next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let start = first.len();
    let mut at = start;
    for line in text[start..].split_inclusive('\n') {
        let bare = line.trim_end();
        if bare == "---" || bare == "..." {
            return Some((&text[start..at], start));
        }
        at += line.len();
    }
    None // an unclosed block is not front matter
}

/// The byte offset of line `line` (1 = the block's first) of the block starting at `start`.
fn line_start(text: &str, start: usize, line: usize) -> usize {
    let mut at = start;
    for _ in 1..line {
        match text[at..].find('\n') {
            Some(i) => at += i + 1,
            None => break,
        }
    }
    at.min(text.len())
}

/// What is being read at the top of the block.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Top {
    Key,
    Value,
}

/// The top-level `type` of a block, or the line YAML stopped at and why.
fn parse(body: &str) -> Result<Option<String>, (usize, String)> {
    let mut parser = Parser::new_from_str(body);
    let mut scalars: Vec<(usize, String)> = Vec::new();
    let (mut depth, mut aliases, mut events) = (0usize, 0usize, 0usize);
    let mut top = Top::Key;
    let mut key_is_type = false;
    let mut found: Option<Option<String>> = None;
    // Whether the block is a mapping (a scalar or a sequence has no `type`).
    let mut mapping = false;
    loop {
        let (event, mark) = parser.next_token().map_err(|e| {
            let line = e.marker().line().max(1);
            (line, e.info().to_string())
        })?;
        events += 1;
        if events > MAX_EVENTS {
            return Err((mark.line().max(1), format!("more than {MAX_EVENTS} values")));
        }
        let at_top = depth == 1 && mapping;
        match event {
            Event::StreamEnd => break,
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                if depth == 0 {
                    mapping = matches!(event, Event::MappingStart(..));
                }
                if at_top && top == Top::Value && key_is_type {
                    found.get_or_insert(None);
                }
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err((
                        mark.line().max(1),
                        format!("nested deeper than {MAX_DEPTH}"),
                    ));
                }
            }
            Event::MappingEnd | Event::SequenceEnd => {
                depth = depth.saturating_sub(1);
                continue;
            }
            Event::Alias(id) => {
                aliases += 1;
                if aliases > MAX_ALIASES {
                    return Err((
                        mark.line().max(1),
                        format!("more than {MAX_ALIASES} aliases"),
                    ));
                }
                if at_top && top == Top::Value && key_is_type {
                    let value = scalars.iter().find(|s| s.0 == id).map(|s| s.1.clone());
                    found.get_or_insert(value);
                }
            }
            Event::Scalar(value, style, anchor, _) => {
                if anchor > 0 {
                    scalars.push((anchor, value.clone()));
                }
                if at_top && top == Top::Key {
                    key_is_type = value == "type";
                    if key_is_type && found.is_some() {
                        return Err((mark.line().max(1), "key type twice".to_string()));
                    }
                } else if at_top && key_is_type {
                    let null = style == yaml_rust2::scanner::TScalarStyle::Plain
                        && matches!(value.as_str(), "" | "~" | "null" | "Null" | "NULL");
                    found.get_or_insert((!null).then_some(value));
                }
            }
            _ => continue,
        }
        if at_top {
            top = if top == Top::Key {
                Top::Value
            } else {
                Top::Key
            };
        }
    }
    Ok(found.flatten())
}

#[cfg(test)]
mod tests;
