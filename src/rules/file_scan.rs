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

use super::{content, redaction, text};
use crate::core::Diagnostic;
use crate::model::Documents;
use crate::pack::Pack;

/// Runs the text, content and redaction rules over every file of the pack (its decoded strings
/// from `docs`).
pub(crate) fn check(pack: &Pack, docs: &Documents<'_>, out: &mut Vec<Diagnostic>) {
    for (i, f) in pack.files().iter().enumerate() {
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
        content::check_file(f, scan.as_ref(), view, out);
        redaction::check_file(f, view, out);
    }
}

#[cfg(test)]
mod tests;
