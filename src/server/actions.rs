//! Code actions: each fix `check --fix` would make in the file as a quick fix (where the
//! request's range meets it), and "Fix all safe fixes in this file": every round of `--fix` on
//! the file, as one edit. Both are edits for the editor to make; the server writes nothing.

use std::collections::HashMap;
use std::sync::Mutex;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, TextEdit, Uri, WorkspaceEdit,
};

use super::position::{Encoding, Lines};
use super::state::{Checked, Server};
use crate::fix::{Fix, plan_one_file, plan_pack};

/// The kind of "Fix all safe fixes in this file".
pub(crate) fn fix_all_kind() -> CodeActionKind {
    CodeActionKind::new("source.fixAll.hippo-packs")
}

/// The title of the file's fix-all action.
pub(crate) const FIX_ALL: &str = "Fix all safe fixes in this file (hippo-packs)";

pub(crate) fn actions(server: &Server, p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let uri = &p.text_document.uri;
    let Some((checked, rel, doc)) = server.locate(uri) else {
        return Vec::new();
    };
    // The fixes read the checked bytes; a document too large to be read whole has none.
    if checked.pack.file(&rel).and_then(|f| f.text()) != Some(doc.text.as_str()) {
        return Vec::new();
    }
    let lines = Lines::new(&doc.text, server.encoding);
    let wanted = |kind: &CodeActionKind| match &p.context.only {
        None => true,
        Some(only) => only.iter().any(|o| {
            kind.as_str() == o.as_str() || kind.as_str().starts_with(&format!("{}.", o.as_str()))
        }),
    };
    let mut out = Vec::new();
    let fixes = plan_one_file(&checked.pack, &rel, &checked.findings);
    if wanted(&CodeActionKind::QUICKFIX) {
        let (start, end) = (lines.offset(p.range.start), lines.offset(p.range.end));
        for fix in fixes.iter().filter(|f| meets(f, start, end)) {
            let edits = fix
                .edits
                .iter()
                .map(|e| text_edit(&doc.text, &lines, e.span.start, e.span.end, &e.with))
                .collect();
            let diagnostics: Vec<lsp_types::Diagnostic> = p
                .context
                .diagnostics
                .iter()
                .filter(|d| d.source.as_deref() == Some(super::convert::SOURCE))
                .filter(|d| meets(fix, lines.offset(d.range.start), lines.offset(d.range.end)))
                .cloned()
                .collect();
            out.push(action(
                title(&fix.message()),
                CodeActionKind::QUICKFIX,
                uri,
                edits,
                diagnostics,
            ));
        }
    }
    if !fixes.is_empty()
        && wanted(&fix_all_kind())
        && let Some(edit) = fix_all(checked, &rel, &doc.text, server.encoding)
    {
        out.push(action(
            FIX_ALL.to_string(),
            fix_all_kind(),
            uri,
            vec![edit],
            Vec::new(),
        ));
    }
    out
}

/// Whether a fix's edits meet the byte range `start..=end`.
fn meets(fix: &Fix, start: usize, end: usize) -> bool {
    fix.edits
        .iter()
        .any(|e| e.span.start <= end && start <= e.span.end)
}

/// Every round of `--fix` on the pack, the file's result as one edit (the bytes between the
/// text's unchanged start and end); `None` when nothing changes.
fn fix_all(checked: &Checked, rel: &str, text: &str, encoding: Encoding) -> Option<TextEdit> {
    // The later rounds' findings, too, are the ones no allowance takes.
    let config = Mutex::new(checked.config.clone());
    let planned = plan_pack(
        &checked.dir,
        checked.pack.clone(),
        &checked.findings,
        &config,
    );
    let after = planned.files.into_iter().find(|f| f.path == rel)?.after;
    let after = String::from_utf8(after).ok()?;
    let (start, end_before, end_after) = differing(text, &after);
    let lines = Lines::new(text, encoding);
    Some(text_edit(
        text,
        &lines,
        start,
        end_before,
        &after[start..end_after],
    ))
}

/// The edit replacing `start..end` of `text` with `with`. The protocol has no position between
/// the `\r` and the `\n` of a line end, so an end there takes the `\n` in (and puts it back
/// after `with`), and a start there takes the `\r` in (and puts it back before).
fn text_edit(text: &str, lines: &Lines<'_>, start: usize, end: usize, with: &str) -> TextEdit {
    let inside = |at: usize| at > 0 && text[..at].ends_with('\r') && text[at..].starts_with('\n');
    let mut with = with.to_string();
    let (mut start, mut end) = (start, end);
    if inside(start) {
        start -= 1;
        with.insert(0, '\r');
    }
    if inside(end) {
        end += 1;
        with.push('\n');
    }
    TextEdit::new(lines.range(start, end), with)
}

/// The differing middle of two texts: its start, and its end in each (on character bounds).
fn differing(a: &str, b: &str) -> (usize, usize, usize) {
    let mut start = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    while !a.is_char_boundary(start) || !b.is_char_boundary(start) {
        start -= 1;
    }
    let max = a.len().min(b.len()) - start;
    let mut tail = a
        .bytes()
        .rev()
        .zip(b.bytes().rev())
        .take(max)
        .take_while(|(x, y)| x == y)
        .count();
    while !a.is_char_boundary(a.len() - tail) || !b.is_char_boundary(b.len() - tail) {
        tail -= 1;
    }
    (start, a.len() - tail, b.len() - tail)
}

/// A fix's message as an action's title: `removed U+200B ZERO WIDTH SPACE` →
/// `Remove U+200B ZERO WIDTH SPACE`.
fn title(message: &str) -> String {
    let (verb, rest) = message.split_once(' ').unwrap_or((message, ""));
    let verb = match verb {
        "removed" => "Remove",
        "changed" => "Change",
        "appended" => "Append",
        "replaced" => "Replace",
        other => other,
    };
    format!("{verb} {rest}").trim_end().to_string()
}

fn action(
    title: String,
    kind: CodeActionKind,
    uri: &Uri,
    edits: Vec<TextEdit>,
    diagnostics: Vec<lsp_types::Diagnostic>,
) -> CodeActionOrCommand {
    // lsp-types keys `WorkspaceEdit::changes` by `Uri`, whose parsed form caches in a cell: the
    // key is never changed here, only built and serialized.
    #[allow(clippy::mutable_key_type)]
    let changes = HashMap::from([(uri.clone(), edits)]);
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(kind),
        diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
        edit: Some(WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        }),
        is_preferred: None,
        ..CodeAction::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_differing_middle_keeps_whole_characters() {
        assert_eq!(differing("a\u{200B}b", "ab"), (1, 4, 1));
        assert_eq!(differing("abc", "abc"), (3, 3, 3));
        assert_eq!(differing("x\r\ny\r\n", "x\ny\n"), (1, 5, 3));
        // U+00E9 and U+00E8 share their first byte: the middle starts before it.
        assert_eq!(differing("\u{e9}", "\u{e8}"), (0, 2, 2));
        // Control: a text whose start differs differs from its first byte.
        assert_eq!(differing("ab", "b").0, 0);
    }

    #[test]
    fn no_edit_ends_inside_a_crlf() {
        use lsp_types::{Position, Range};
        let text = "a\r\nb\r\n";
        let lines = Lines::new(text, Encoding::Utf16);
        // Removing the \r of the first line end: the line end is replaced whole.
        let e = text_edit(text, &lines, 1, 2, "");
        assert_eq!(
            e.range,
            Range::new(Position::new(0, 1), Position::new(1, 0))
        );
        assert_eq!(e.new_text, "\n");
        let e = text_edit(text, &lines, 2, 4, "");
        assert_eq!(e.range.start, Position::new(0, 1));
        assert_eq!(e.new_text, "\r");
        // Control: an edit off the line ends is as asked.
        let e = text_edit(text, &lines, 0, 1, "x");
        assert_eq!(
            e.range,
            Range::new(Position::new(0, 0), Position::new(0, 1))
        );
        assert_eq!(e.new_text, "x");
    }

    #[test]
    fn titles_say_what_the_fix_will_do() {
        assert_eq!(
            title("removed U+200B ZERO WIDTH SPACE"),
            "Remove U+200B ZERO WIDTH SPACE"
        );
        assert_eq!(
            title("appended the closing instruction"),
            "Append the closing instruction"
        );
        assert_eq!(
            title("changed 1 CRLF line end to LF"),
            "Change 1 CRLF line end to LF"
        );
    }
}
