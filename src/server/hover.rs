//! Hover on a finding: the rule's explanation, headed by its id and summary (`hippo-packs rules
//! <id>`'s text as Markdown), one section a rule of the findings under the cursor.

use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind, Position, Range};

use super::convert;
use super::position::Lines;
use super::state::Server;
use crate::core::Rule;
use crate::report::sarif::{help_uri, markdown_text};

pub(crate) fn hover(server: &Server, p: &HoverParams) -> Option<Hover> {
    let at = &p.text_document_position_params;
    let (checked, rel, doc) = server.locate(&at.text_document.uri)?;
    let lines = Lines::new(&doc.text, server.encoding);
    let text = checked.pack.file(&rel).and_then(|f| f.text());
    let mut rules: Vec<&'static Rule> = Vec::new();
    for d in checked
        .findings
        .iter()
        .filter(|d| d.file.as_deref() == Some(rel.as_str()))
    {
        let range = convert::range(d, text.map(|_| &lines), server.encoding);
        if covers(range, at.position) && !rules.iter().any(|r| r.id == d.rule.id) {
            rules.push(d.rule);
        }
    }
    if rules.is_empty() {
        return None;
    }
    let value = rules
        .iter()
        .map(|r| explain(r))
        .collect::<Vec<_>>()
        .join("\n---\n\n");
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: None,
    })
}

/// Whether the cursor is on a range: inside it or at either end; an empty range (a whole-file
/// finding) covers its line.
fn covers(r: Range, p: Position) -> bool {
    if r.start == r.end {
        return p.line == r.start.line;
    }
    r.start <= p && p <= r.end
}

/// One rule, as Markdown: `**id**: summary`, what it checks, how to fix, and its page.
pub(crate) fn explain(r: &Rule) -> String {
    format!(
        "**{}**: {}\n\n{}\n\n**How to fix:** {}\n\n[docs/rules.md#{}]({})\n",
        markdown_text(r.id),
        markdown_text(r.summary()),
        markdown_text(r.description()),
        markdown_text(r.help()),
        r.id,
        help_uri(r)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_is_headed_by_its_id_and_summary() {
        let r = &crate::rules::text::INVISIBLE_CHARACTER;
        let md = explain(r);
        let head = md.lines().next().unwrap();
        assert!(head.starts_with("**invisible-character**: "), "{head}");
        assert!(head.ends_with(&markdown_text(r.summary())));
        assert!(md.contains(&markdown_text(r.help())));
        assert!(md.contains("/docs/rules.md#invisible-character)"));
    }

    #[test]
    fn the_cursor_is_on_a_finding_inside_or_at_its_ends() {
        let r = Range::new(Position::new(2, 1), Position::new(2, 2));
        assert!(covers(r, Position::new(2, 1)));
        assert!(covers(r, Position::new(2, 2)));
        assert!(!covers(r, Position::new(2, 3)), "control: past it");
        assert!(!covers(r, Position::new(1, 1)));
        assert!(
            covers(Range::default(), Position::new(0, 7)),
            "a whole-file finding"
        );
    }
}
