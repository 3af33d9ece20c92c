//! One finding drawn: its title, ` --> path:line:col`, the snippet, `note:` and `help:` lines.
//!
//! The ` --> ` column is the finding's own (the code-point column JSON and the text output
//! give), not the one annotate-snippets counts on the printable text, where a `U+XXXX` or a
//! masked secret before the span has a different length than the source.

use annotate_snippets::{AnnotationKind, Element, Level, Origin, Renderer, Snippet};

use super::excerpt::{self, Excerpt};
use crate::core::{Diagnostic, Severity, Span, charname, escape};
use crate::outcome::PackReport;
use crate::report::located;

/// Draws the findings of a run; says once per file that it has CRLF line endings.
pub(super) struct Draw {
    pub(crate) renderer: Renderer,
    /// The files (as shown) already looked at for CRLF line endings (each file's text is
    /// searched once, and the note given once).
    crlf_noted: Vec<String>,
    /// What the last file drawn never shows as written (its folder, its path, the spans and the
    /// texts drawn instead, [`masks`]):
    /// a file's findings follow each other, so they are gathered once for all of them.
    masks: Option<(String, String, Masks)>,
}

/// A file's spans never drawn as written, each with the text drawn instead, in file order.
type Masks = Vec<(Span, String)>;

impl Draw {
    pub(crate) fn new() -> Draw {
        Draw {
            renderer: Renderer::styled(),
            crlf_noted: Vec::new(),
            masks: None,
        }
    }

    /// One finding as a report group: title, location, snippet, `note:` and `help:` lines;
    /// `reasons` become `note: because ...` lines.
    pub(crate) fn finding(
        &mut self,
        r: &PackReport,
        d: &Diagnostic,
        source: Option<&str>,
        reasons: &[String],
    ) -> String {
        let level = match d.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let (elements, columns) = self.location(r, d, source);
        let mut group = level
            .primary_title(format!("{}{}", located::marker(d), located::message(d)))
            .id(d.rule.id)
            .elements(elements);
        if let Some(h) = &d.hint {
            group = group.element(Level::HELP.message(escape::line(h).into_owned()));
        }
        for why in reasons {
            group = group.element(Level::NOTE.message(format!("because {}", escape::line(why))));
        }
        if !d.rule.help().is_empty() && !d.own_help {
            group = group.element(Level::HELP.message(d.rule.help()));
        }
        if let Some(f) = &d.fix {
            group = group.element(Level::HELP.message(located::fix_line(f)));
        }
        let drawn = self.renderer.render(&[group]);
        set_columns(&drawn, &columns)
    }

    /// The ` --> ` line and, when the finding has a span and the file is at hand, the snippet
    /// and one per related place, labelled (a redaction finding: one snippet per secret of its
    /// file, labelled with the masked secret); then a `note:` naming the character the message
    /// begins with and each one the snippets show as `U+XXXX`, and the file's CRLF note. Every
    /// place of the file never shown whole (a secret) is drawn masked in any snippet of it.
    /// Also the column of each snippet's origin line, in order.
    fn location(
        &mut self,
        r: &PackReport,
        d: &Diagnostic,
        source: Option<&str>,
    ) -> (Vec<Element<'static>>, Vec<usize>) {
        let Some(file) = &d.file else {
            // A folder that cannot be read: named as given, so the run says which.
            let unreadable = d.rule.id == crate::rules::layout::UNREADABLE.id;
            let folder = d.subject.as_deref().filter(|_| unreadable);
            let origin = folder.map(|f| Origin::path(escape::line(f).into_owned()).into());
            return (origin.into_iter().collect(), Vec::new());
        };
        let path = escape::line(&located::typed_path(r, file)).into_owned();
        let (Some(span), Some(src)) = (d.span, source) else {
            let origin = Origin::path(path);
            let origin = match d.span {
                Some(_) => origin.line(d.region.line).char_column(d.region.col),
                None => origin,
            };
            return (vec![origin.into()], Vec::new());
        };
        let fresh = !matches!(&self.masks, Some((dir, f, _)) if *dir == r.dir && f == file);
        if fresh {
            self.masks = Some((r.dir.clone(), file.clone(), masks(r, file)));
        }
        let masks: Vec<(Span, &str)> = match &self.masks {
            Some((_, _, m)) => m.iter().map(|(s, t)| (*s, t.as_str())).collect(),
            None => Vec::new(),
        };
        // The finding's own place, unless each related place is a finding of its own (a
        // secret): then those alone, as they hold it.
        let own = (!d.related_are_findings()).then_some((span, d.region, None));
        let related = d.related.iter();
        let places: Vec<(Span, crate::core::Region, Option<String>)> = own
            .into_iter()
            .chain(related.map(|p| (p.span, p.region, Some(p.label.clone()))))
            .collect();
        let mut out: Vec<Element<'static>> = Vec::new();
        let mut named: Vec<char> = located::unnamed_char(d).map(|u| u.0).into_iter().collect();
        let mut columns = Vec::new();
        for (span, region, label) in places {
            let (start, end) = (span.start.min(src.len()), span.end.min(src.len()));
            let excerpt = Excerpt::new(src, start, end, &masks);
            let mut mark = AnnotationKind::Primary.span(excerpt.start..excerpt.end);
            if let Some(label) = label {
                mark = mark.label(label);
            }
            let snippet = Snippet::source(excerpt.text).line_start(region.line);
            out.push(snippet.path(path.clone()).annotation(mark).into());
            columns.push(region.col);
            for c in excerpt.hidden {
                if !named.contains(&c) {
                    named.push(c);
                }
            }
        }
        for c in named {
            let name = charname::name(c).unwrap_or_else(|| "an unnamed character".to_string());
            out.push(
                Level::NOTE
                    .message(format!("U+{:04X} {name}", c as u32))
                    .into(),
            );
        }
        if !self.crlf_noted.contains(&path) {
            if excerpt::has_crlf(src) {
                out.push(Level::NOTE.message(CRLF_NOTE).into());
            }
            self.crlf_noted.push(path);
        }
        (out, columns)
    }
}

/// The note on the first finding shown of a file with CRLF line endings.
pub(super) const CRLF_NOTE: &str = "this file has CRLF line endings (not a finding); its lines are shown without the carriage return";

/// `drawn` with the column of its n-th origin line (` --> path:line:col`, ` ::: path:line:col`)
/// set to `columns[n]`; origin lines past `columns` are left as drawn.
fn set_columns(drawn: &str, columns: &[usize]) -> String {
    let mut columns = columns.iter();
    let mut out = String::with_capacity(drawn.len() + 8);
    for line in drawn.split_inclusive('\n') {
        let plain = anstream::adapter::strip_str(line).to_string();
        let plain = plain.trim_start();
        let origin = plain.starts_with("--> ") || plain.starts_with("::: ");
        let body = line.trim_end_matches('\n');
        let digits = body.len() - body.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let at = body.len() - digits;
        let column = match origin && digits > 0 && body[..at].ends_with(':') {
            true => columns.next(),
            false => None,
        };
        match column {
            Some(col) => {
                out.push_str(&body[..at]);
                out.push_str(&col.to_string());
                out.push_str(&line[body.len()..]);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// What `file`'s findings say is never drawn as written (its secrets and the runs beside them
/// on their lines, [`crate::core::Related::masks`]), each span with the text drawn instead.
fn masks(r: &PackReport, file: &str) -> Masks {
    let mut out: Vec<(Span, String)> = r
        .diagnostics
        .iter()
        .filter(|d| d.file.as_deref() == Some(file))
        .flat_map(|d| &d.related)
        .flat_map(|p| p.masks.iter().cloned())
        .collect();
    out.sort_by_key(|m| m.0.start);
    out.dedup_by_key(|m| m.0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_columns_are_set_in_order_and_nothing_else_changes() {
        let drawn = "error[x]: U+2060\n  \u{1b}[1m--> \u{1b}[0ma.md:19:15\n   |\n19 | a:1\n \
                     ::: a.md:20:9\n";
        let set = set_columns(drawn, &[10, 3]);
        assert_eq!(
            set,
            "error[x]: U+2060\n  \u{1b}[1m--> \u{1b}[0ma.md:19:10\n   |\n19 | a:1\n ::: a.md:20:3\n"
        );
        assert_eq!(
            set_columns(drawn, &[]),
            drawn,
            "control: no columns, as drawn"
        );
    }
}
