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
//! and redaction is asked once (`crate::secrets` owns its detectors). The three families
//! keep their own rules and messages; only the reading is shared (docs/performance.md).

use super::{content, persona, redaction, rendered, text};
use crate::core::Diagnostic;
use crate::model::Documents;
use crate::model::markdown::Markdown;
use crate::pack::place::Place;
use crate::pack::{Pack, PackFile, PackKind};

/// Runs the text, content and redaction rules over every file of the pack (its decoded strings
/// from `docs`).
pub(crate) fn check(pack: &Pack, docs: &Documents<'_>, out: &mut Vec<Diagnostic>) {
    for (i, (f, at)) in pack.files_placed().enumerate() {
        // Where the file stands in a pass pack.
        let at = at.map(|(place, _)| place);
        // A file cut at its size limit is not judged by the text rules (its end is missing),
        // but the content rules scan what was read.
        let scan = f.complete.then(|| text::scan_bytes(&f.bytes));
        if let Some(scan) = &scan {
            text::report(&f.path, scan, out);
        }
        // The strings of a TOML, JSON or CSS file read whole as UTF-8, decoded (none: no
        // backslash, or a document that does not parse).
        let view = docs.view(i);
        if let Some(view) = view
            && !f.in_tests()
        {
            text::report_escapes(&f.path, view, out);
        }
        if let Some(scan) = &scan {
            text::report_unusual_spaces(&f.path, scan, view, out);
        }
        let md = docs.markdown(i);
        markdown_rules(pack, f, at, md, out);
        let from = out.len();
        content::check_file(f, at, scan.as_ref(), view, md, out);
        let masks = redaction::check_file(f, view, out);
        redaction::mask_messages(&masks, &mut out[from..]);
    }
}

/// The rules that read a file as Markdown, given its reading (`model::Documents`): padding
/// (every file outside `tests/`, a table row excepted), hidden text, character references, the
/// persona sections.
/// `at`: where the file stands in a pass pack.
fn markdown_rules(
    pack: &Pack,
    f: &PackFile,
    at: Option<Place>,
    md: Option<&Markdown>,
    out: &mut Vec<Diagnostic>,
) {
    // A file under `tests/` has no reading and no padding rule: its bytes are not validated
    // again (its transcripts are most of a pack's bytes).
    if md.is_none() && !rendered::padding_applies_to(&f.path) {
        return;
    }
    let Some(text) = f.text() else { return };
    rendered::check_file(pack.kind, &f.path, text, md, out);
    let Some(md) = md else { return };
    rendered::report_char_refs(&f.path, md, out);
    if pack.kind == PackKind::Pass && at == Some(Place::Persona) {
        persona::check_persona(&f.path, text, md, out);
    }
}

#[cfg(test)]
mod tests;
