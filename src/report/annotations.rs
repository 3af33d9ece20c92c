//! GitHub workflow-command annotations (`--format github`):
//! `::error file=<path>,line=<l>,endLine=<l2>,col=<c>,endColumn=<c2>,title=hippo-packs (<rule>)::<message>`.
//!
//! Errors of every pack first, then warnings (GitHub shows only the first few of each per step).
//! Escaping as the Actions toolkit does it — in the message `%`, `\r`, `\n`; in property values
//! also `:` and `,` — and every other control or invisible character shown as `U+XXXX` as the
//! text output shows it, so nothing a pack contains can start a log line with `::`.

use std::fmt::Write;

use super::located::{location_path, message_with_related};
use super::rendering::{Render, Rendering, to_string};
use crate::core::escape;
use crate::core::{Diagnostic, Severity};
use crate::outcome::{Mode, PackReport};

/// The annotations of `reports` (the tests' call of [`GithubRenderer`]).
pub fn render(reports: &[PackReport], mode: Mode) -> String {
    to_string(&GithubRenderer, &Rendering::new(reports, mode))
}

/// `--format github`: the errors of every pack, then (`check`) the warnings; `test` leaves
/// warnings out, as its text output does. Unused allowances are not annotated here: `ci`
/// annotates them itself.
pub(crate) struct GithubRenderer;

impl Render for GithubRenderer {
    fn render(&self, run: &Rendering<'_>, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut out = String::new();
        let errors = |d: &&Diagnostic| d.severity == Severity::Error;
        for r in run.reports {
            for d in r.diagnostics.iter().filter(errors) {
                hinted(&mut out, r, d);
            }
            if let Some(name) = &r.no_case {
                let _ = writeln!(
                    out,
                    "::error title={}::{}",
                    property("hippo-packs"),
                    data(&format!("no case named {name}"))
                );
            }
            for c in &r.cases {
                for f in &c.failures {
                    annotate(&mut out, r, f);
                }
            }
            w.write_all(out.as_bytes())?;
            out.clear();
        }
        if run.mode == Mode::Check {
            for r in run.reports {
                for d in r.diagnostics.iter().filter(|d| !errors(d)) {
                    hinted(&mut out, r, d);
                }
                w.write_all(out.as_bytes())?;
                out.clear();
            }
        }
        Ok(())
    }
}

/// [`annotate`] with the finding's own help (a "did you mean", a rename) ending the message, on
/// its own line: `unknown key per-note` / `help: did you mean `per_note`? ...`.
fn hinted(out: &mut String, r: &PackReport, d: &Diagnostic) {
    let mut message = message_with_related(d);
    if let Some(h) = &d.hint {
        message.push_str("\nhelp: ");
        message.push_str(h);
    }
    annotate_saying(out, r, d, &message)
}

/// One annotation line. Columns count code points (GitHub counts characters), and only a span
/// on one line gets them; a whole-file finding is line 1; a finding with no file (an unreadable
/// pack folder) names the folder and no line.
pub(crate) fn annotate(out: &mut String, r: &PackReport, d: &Diagnostic) {
    annotate_saying(out, r, d, &message_with_related(d))
}

/// [`annotate`] with `message` as the annotation's message.
fn annotate_saying(out: &mut String, r: &PackReport, d: &Diagnostic, message: &str) {
    let g = &d.region;
    let mut props = format!("file={}", property(&location_path(r, d)));
    if d.file.is_none() {
        // The pack folder itself: no line to point at.
    } else if d.span.is_some() {
        let _ = write!(props, ",line={},endLine={}", g.line, g.end_line.max(g.line));
        if g.end_line == g.line {
            let _ = write!(props, ",col={},endColumn={}", g.col, g.end_col.max(g.col));
        }
    } else {
        props.push_str(",line=1");
    }
    let _ = write!(
        props,
        ",title={}",
        property(&format!("hippo-packs ({})", d.rule.id))
    );
    let _ = writeln!(
        out,
        "::{} {}::{}",
        d.severity.as_str(),
        props,
        data(message)
    );
}

/// A message: `%`, `\r`, `\n` as the toolkit escapes them, other hidden characters as `U+XXXX`.
pub(crate) fn data(s: &str) -> String {
    let toolkit = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    escape::line(&toolkit).into_owned()
}

/// A property value: as [`data`], and `:` and `,` too.
pub(crate) fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toolkit_escaping() {
        assert_eq!(data("50% done\r\n::error::x"), "50%25 done%0D%0A::error::x");
        assert_eq!(property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(data("x\u{202E}y\u{1b}"), "xU+202EyU+001B");
        // Control: an unescaped newline would start a new log line.
        assert!(!data("a\n::warning::b").contains('\n'));
    }
}
