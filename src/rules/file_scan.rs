//! The byte scans of `check`, file by file: the text family (UTF-8, invisible and ignorable
//! characters, escapes), the content warnings and redaction, run over each file while it is in
//! cache.
//!
//! The content warnings and redaction judge the file's decoded text when it has one (a TOML,
//! JSON or CSS file with a backslash: `crate::model::decode`), each finding mapped back to the
//! bytes as written; the UTF-8 and hidden-character walk reads the bytes as written, and the
//! escapes that decode to hidden characters are reported outside `tests/`.
//!
//! One walk over a file's bytes ([`text::scan_bytes`]) validates UTF-8 and finds every hidden
//! character and unusual space. The content rules reuse what it found: a file of plain ASCII in
//! which it found no hidden character (the usual case) is searched as it is; any other is folded
//! first (`core::fold`), and copied only when folding changes it. The content
//! regex then searches the file once, the encoded-run search reads about one byte in a hundred,
//! and redaction is asked once (`crate::model::redact` owns its detectors). The three families
//! keep their own rules and messages; only the reading is shared (docs/performance.md).

use super::{content, persona, redaction, rendered, text};
use crate::core::Diagnostic;
use crate::model::decode;
use crate::model::markdown::{self, Markdown};
use crate::pack::place::{Place, place};
use crate::pack::{Pack, PackFile, PackKind};

/// Runs the text, content and redaction rules over every file of the pack.
pub(crate) fn check(pack: &Pack, out: &mut Vec<Diagnostic>) {
    for f in pack.files() {
        // A file cut at its size limit is not judged by the text rules (its end is missing),
        // but the content rules scan what was read.
        let scan = f.complete.then(|| text::scan_bytes(&f.bytes));
        if let Some(scan) = &scan {
            text::report(&f.path, scan, out);
        }
        // The strings of a TOML, JSON or CSS file read whole, decoded (none: no backslash).
        let view = scan
            .as_ref()
            .filter(|s| s.not_utf8.is_none())
            .and_then(|_| decode::view_bytes(&f.path, &f.bytes));
        if let Some(view) = &view
            && !f.in_tests()
        {
            text::report_escapes(&f.path, view, out);
        }
        if let Some(scan) = &scan {
            text::report_unusual_spaces(&f.path, scan, view.as_ref(), out);
        }
        let md = markdown_rules(pack, f, out);
        content::check_file(f, scan.as_ref(), view.as_ref(), md.as_ref(), out);
        redaction::check_file(f, view.as_ref(), out);
    }
}

/// A Markdown file outside `tests/` read whole as UTF-8, as CommonMark reads it (a persona
/// always; any other only when its reading can differ from its text, `may_render_apart`), and
/// the rules that read it: padding (every file), hidden text, character references, the persona
/// sections. Returns the reading for the content rules.
fn markdown_rules(pack: &Pack, f: &PackFile, out: &mut Vec<Diagnostic>) -> Option<Markdown> {
    let text = f.text()?;
    let persona = pack.kind == PackKind::Pass
        && matches!(place(pack.kind, &f.path), Some((Place::Persona, _)));
    let md = (f.path.ends_with(".md") && !f.in_tests())
        .then_some(text)
        .filter(|t| persona || markdown::may_render_apart(t))
        .map(markdown::read);
    rendered::check_file(pack.kind, &f.path, text, md.as_ref(), out);
    let md = md?;
    rendered::report_char_refs(&f.path, &md, out);
    if persona {
        persona::check_persona(&f.path, text, &md, out);
    }
    Some(md)
}

#[cfg(test)]
mod tests;
