//! A finding as the protocol's diagnostic: the rule id as its code, the rule's page as its code
//! description, its severity, its range in the negotiated encoding, its message as the machine
//! formats carry it (the character it begins with named), its help as related information.

use std::str::FromStr;

use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Range, Uri,
};

use super::position::{Encoding, Lines};
use crate::core::{Diagnostic, Region, Severity, escape};
use crate::report::located;

/// What a diagnostic's `source` says.
pub(crate) const SOURCE: &str = "hippo-packs";

/// The protocol's diagnostics of one finding (a redaction finding: one per secret of its file,
/// as SARIF places them); `lines` are the file's when it was read whole as UTF-8.
pub(crate) fn diagnostics(
    d: &Diagnostic,
    lines: Option<&Lines<'_>>,
    uri: &Uri,
    encoding: Encoding,
) -> Vec<lsp_types::Diagnostic> {
    located::placed(d)
        .iter()
        .map(|one| {
            let range = range(one, lines, encoding);
            lsp_types::Diagnostic {
                range,
                severity: Some(match one.severity {
                    Severity::Error => DiagnosticSeverity::ERROR,
                    Severity::Warning => DiagnosticSeverity::WARNING,
                }),
                code: Some(NumberOrString::String(one.rule.id.to_string())),
                code_description: Uri::from_str(&crate::report::sarif::help_uri(one.rule))
                    .ok()
                    .map(|href| CodeDescription { href }),
                source: Some(SOURCE.to_string()),
                message: located::message_named(one),
                related_information: related(one, uri, range),
                tags: None,
                data: None,
            }
        })
        .collect()
}

/// Where a finding is: its span in the file's text; without the text (a file not UTF-8 or not
/// read whole), its resolved region (UTF-16 columns, or code points for UTF-8, the nearest the
/// region holds); a whole-file finding, the file's start.
pub(crate) fn range(d: &Diagnostic, lines: Option<&Lines<'_>>, encoding: Encoding) -> Range {
    match (d.span, lines) {
        (Some(s), Some(lines)) => lines.range(s.start, s.end),
        (Some(_), None) => region_range(&d.region, encoding),
        (None, _) => Range::default(),
    }
}

fn region_range(g: &Region, encoding: Encoding) -> Range {
    let (col, end_col) = match encoding {
        Encoding::Utf16 => (g.col16, g.end_col16),
        Encoding::Utf8 => (g.col, g.end_col),
    };
    let at = |line: usize, col: usize| {
        Position::new(
            u32::try_from(line.saturating_sub(1)).unwrap_or(u32::MAX),
            u32::try_from(col.saturating_sub(1)).unwrap_or(u32::MAX),
        )
    };
    Range::new(at(g.line, col), at(g.end_line.max(g.line), end_col))
}

/// The help `--format full` prints under a finding, each line as related information at the
/// finding's place: its own hint (a "did you mean"), then the rule's help unless the hint
/// replaces it.
fn related(d: &Diagnostic, uri: &Uri, range: Range) -> Option<Vec<DiagnosticRelatedInformation>> {
    let mut help = Vec::new();
    if let Some(h) = &d.hint {
        help.push(escape::line(h).into_owned());
    }
    if !d.rule.help().is_empty() && !d.own_help {
        help.push(d.rule.help().to_string());
    }
    let info: Vec<DiagnosticRelatedInformation> = help
        .into_iter()
        .map(|message| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), range),
            message,
        })
        .collect();
    (!info.is_empty()).then_some(info)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::Pack;

    fn uri() -> Uri {
        Uri::from_str("file:///p/prompts/a.md").unwrap()
    }

    #[test]
    fn a_hidden_character_is_placed_in_either_encoding_with_its_rule() {
        let text = "# A \u{1F600}\n\nx\u{200B}y\n\nEnd your reply with a JSON object.\n";
        let pack = Pack::from_files(&[("prompts/a.md", text.as_bytes())]);
        let checked = crate::rules::run(&pack);
        let d = checked
            .diagnostics
            .iter()
            .find(|d| d.rule.id == "invisible-character")
            .expect("the rule fires");
        let (l16, l8) = (
            Lines::new(text, Encoding::Utf16),
            Lines::new(text, Encoding::Utf8),
        );
        let u16 = diagnostics(d, Some(&l16), &uri(), Encoding::Utf16);
        let u8 = diagnostics(d, Some(&l8), &uri(), Encoding::Utf8);
        assert_eq!(
            u16[0].range,
            Range::new(Position::new(2, 1), Position::new(2, 2))
        );
        assert_eq!(
            u8[0].range,
            Range::new(Position::new(2, 1), Position::new(2, 4))
        );
        assert_eq!(
            u16[0].code,
            Some(NumberOrString::String("invisible-character".into()))
        );
        let href = u16[0].code_description.as_ref().unwrap().href.as_str();
        assert!(href.starts_with("https://") && href.ends_with("rules.md#invisible-character"));
        assert!(
            u16[0].message.contains("ZERO WIDTH SPACE"),
            "{}",
            u16[0].message
        );
        let help = u16[0].related_information.as_ref().expect("the help");
        assert_eq!(help[0].message, d.rule.help());
        // Control: without the text, the region's columns (code points) stand in.
        let bare = diagnostics(d, None, &uri(), Encoding::Utf8);
        assert_eq!(bare[0].range.start, Position::new(2, 1));
    }

    #[test]
    fn a_whole_file_finding_is_at_the_start() {
        let d = Diagnostic::file(
            &crate::rules::layout::SYMBOLIC_LINK,
            "a.md",
            "symbolic link",
        );
        let lines = Lines::new("abc\n", Encoding::Utf16);
        let got = diagnostics(&d, Some(&lines), &uri(), Encoding::Utf16);
        assert_eq!(got[0].range, Range::default());
        assert_eq!(got[0].severity, Some(DiagnosticSeverity::ERROR));
    }
}
