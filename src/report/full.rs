//! `--format full` (ruff's name for the same thing): every finding as `error[rule-id]: message`,
//! ` --> path:line:col`, the source line(s) with a caret under the span, `help:` lines, and a
//! summary line at the end. Drawn by annotate-snippets (the renderer rustc and ruff use), always
//! with ANSI styles; the command line strips them when colour is off.
//!
//! Before the source reaches the renderer, the lines shown are made safe and exact: every
//! control or invisible character becomes `U+XXXX` (its name on a `note:` line), and the span
//! is widened to whole grapheme clusters, so a caret never splits one; annotate-snippets lines
//! carets up under wide characters by their display width.

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use unicode_segmentation::UnicodeSegmentation;

use super::machine;
use crate::core::{Diagnostic, Severity, Span, escape};
use crate::outcome::{Mode, PackReport};

/// Where the renderer gets a file's text: `(report, pack-relative path)` → its text.
pub type Sources<'a> = dyn Fn(&PackReport, &str) -> Option<String> + 'a;

/// The whole run in the full format, with ANSI styles.
/// `extra`: findings of the run beside the packs' (an `unused-allowance` warning).
pub fn render(
    reports: &[PackReport],
    mode: Mode,
    sources: &Sources<'_>,
    extra: &[Diagnostic],
) -> String {
    let renderer = Renderer::styled();
    let mut out = String::new();
    let (mut errors, mut warnings, mut passed, mut failed) = (0, 0, 0, 0);
    for r in reports {
        if mode == Mode::Check {
            for s in &r.skipped {
                out.push_str(&format!(
                    "skipped {}\n",
                    escape::line(&format!("{}{s}", r.prefix))
                ));
            }
        }
        for d in &r.diagnostics {
            if mode == Mode::Test && d.severity == Severity::Warning {
                continue;
            }
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            let src = d.file.as_deref().and_then(|f| sources(r, f));
            out.push_str(&renderer.render(&finding(r, d, src.as_deref(), &[])));
            out.push_str("\n\n");
        }
        if r.errors() > 0 {
            continue;
        }
        if mode == Mode::Check {
            out.push_str(&super::text::ok_line(r));
            out.push('\n');
            continue;
        }
        if let Some(name) = &r.no_case {
            errors += 1;
            out.push_str(
                &renderer.render(&[Level::ERROR
                    .primary_title(format!("no case named {}", escape::line(name)))
                    .element(Level::HELP.message(case_help(r, name)))]),
            );
            out.push_str("\n\n");
        }
        for c in &r.cases {
            if c.failures.is_empty() {
                passed += 1;
            } else {
                failed += 1;
            }
            out.push_str(&case(&renderer, r, c, sources));
        }
    }
    let none = PackReport::default();
    for d in extra {
        warnings += 1;
        let src = d.file.as_deref().and_then(|f| sources(&none, f));
        out.push_str(&renderer.render(&finding(&none, d, src.as_deref(), &[])));
        out.push_str("\n\n");
    }
    out.push_str(&summary(
        reports.len(),
        errors,
        warnings,
        mode,
        passed,
        failed,
    ));
    out
}

/// One case: `ok <pack>/<case>`, or `FAIL <pack>/<case>`, its cause (`cause: ...`, when one
/// event explains its failures), and each failure at its line, the other reasons under the
/// last one.
fn case(
    renderer: &Renderer,
    r: &PackReport,
    c: &crate::outcome::CaseResult,
    sources: &Sources<'_>,
) -> String {
    let label = escape::line(&r.case_label(&c.name)).into_owned();
    if c.failures.is_empty() {
        return format!("ok {label}\n");
    }
    let mut out = format!("FAIL {label}\n");
    let cause = c.cause.as_ref().map(|k| k.why.as_str());
    if let Some(why) = cause {
        let bold = anstyle::Style::new().bold();
        out.push_str(&format!("{bold}cause:{bold:#} {}\n\n", escape::line(why)));
    }
    let src = c.failures.first().and_then(|d| d.file.as_deref());
    let src = src.and_then(|f| sources(r, f));
    // The cause is said once, at the head: not again among the reasons.
    let reasons: Vec<String> = c
        .reasons
        .iter()
        .filter(|w| Some(w.as_str()) != cause)
        .cloned()
        .collect();
    for (i, d) in c.failures.iter().enumerate() {
        let reasons: &[String] = if i + 1 == c.failures.len() {
            &reasons
        } else {
            &[]
        };
        out.push_str(&renderer.render(&finding(r, d, src.as_deref(), reasons)));
        out.push_str("\n\n");
    }
    out
}

/// `--case NAME` matched nothing: the case names of the pack, the nearest first.
fn case_help(r: &PackReport, name: &str) -> String {
    let names: Vec<&str> = r.case_names.iter().map(String::as_str).collect();
    if names.is_empty() {
        return "this pack has no cases (tests/<case>/case.toml)".to_string();
    }
    escape::line(&crate::core::suggest::help(name, &names, "its cases")).into_owned()
}

/// `2 errors, 3 warnings in 1 pack` (`test`: `, 1 of 2 cases failed`), bold.
fn summary(
    packs: usize,
    errors: usize,
    warnings: usize,
    mode: Mode,
    passed: usize,
    failed: usize,
) -> String {
    let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    let mut s = format!(
        "{}, {}",
        n(errors, "error", "errors"),
        n(warnings, "warning", "warnings")
    );
    if mode == Mode::Test {
        s.push_str(&format!(
            ", {} passed, {} failed",
            n(passed, "case", "cases"),
            failed
        ));
    }
    s.push_str(&format!(" in {}", n(packs, "pack", "packs")));
    let bold = anstyle::Style::new().bold();
    format!("{bold}{s}{bold:#}\n")
}

/// One finding as a report group: title, location, snippet, `note:` and `help:` lines.
fn finding<'a>(
    r: &PackReport,
    d: &'a Diagnostic,
    source: Option<&str>,
    reasons: &'a [String],
) -> Vec<Group<'a>> {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let mut group = level
        .primary_title(machine::message(d))
        .id(d.rule.id)
        .elements(location(r, d, source));
    if let Some(h) = &d.hint {
        group = group.element(Level::HELP.message(escape::line(h).into_owned()));
    }
    for why in reasons {
        group = group.element(Level::NOTE.message(format!("because {}", escape::line(why))));
    }
    if !d.rule.help().is_empty() {
        group = group.element(Level::HELP.message(d.rule.help()));
    }
    vec![group]
}

/// The ` --> ` line and, when the finding has a span and the file is at hand, the snippet (a
/// redaction finding: one snippet per secret of its file, labelled with the masked secret);
/// then a `note:` naming each invisible character the snippets show as `U+XXXX`. Every secret
/// the file holds is shown masked in any snippet of it, never whole.
fn location(
    r: &PackReport,
    d: &Diagnostic,
    source: Option<&str>,
) -> Vec<annotate_snippets::Element<'static>> {
    let Some(file) = &d.file else {
        return Vec::new();
    };
    let path = escape::line(&machine::typed_path(r, file)).into_owned();
    let (Some(span), Some(src)) = (d.span, source) else {
        let origin = Origin::path(path);
        return vec![match d.span {
            Some(_) => origin.line(d.region.line).char_column(d.region.col).into(),
            None => origin.into(),
        }];
    };
    let masks = masks(r, file);
    let places: Vec<(Span, usize, Option<String>)> = if d.secrets.is_empty() {
        vec![(span, d.region.line, None)]
    } else {
        let each = d.secrets.iter();
        each.map(|s| (s.span, s.region.line, Some(s.masked.clone())))
            .collect()
    };
    let mut out: Vec<annotate_snippets::Element<'static>> = Vec::new();
    let mut hidden: Vec<char> = Vec::new();
    for (span, line, label) in places {
        let (start, end) = (span.start.min(src.len()), span.end.min(src.len()));
        let excerpt = Excerpt::new(src, start, end, &masks);
        let mut mark = AnnotationKind::Primary.span(excerpt.start..excerpt.end);
        if let Some(label) = label {
            mark = mark.label(label);
        }
        let snippet = Snippet::source(excerpt.text).line_start(line);
        out.push(snippet.path(path.clone()).annotation(mark).into());
        for c in excerpt.hidden {
            if !hidden.contains(&c) {
                hidden.push(c);
            }
        }
    }
    for c in hidden {
        let name = unicode_names2::name(c)
            .map(|n| n.to_string())
            .unwrap_or_else(|| "an unnamed character".to_string());
        out.push(
            Level::NOTE
                .message(format!("U+{:04X} {name}", c as u32))
                .into(),
        );
    }
    out
}

/// The secrets of `file` (its redaction finding's), each span with its masked text.
fn masks<'r>(r: &'r PackReport, file: &str) -> Vec<(Span, &'r str)> {
    let mut out: Vec<(Span, &str)> = r
        .diagnostics
        .iter()
        .filter(|d| d.file.as_deref() == Some(file))
        .flat_map(|d| d.secrets.iter().map(|s| (s.span, s.masked.as_str())))
        .collect();
    out.sort_by_key(|m| m.0.start);
    out
}

/// The lines a span covers, made printable, with the span moved onto the new text and
/// widened to whole grapheme clusters.
struct Excerpt {
    text: String,
    start: usize,
    end: usize,
    /// The characters shown as `U+XXXX`, each once, in order of appearance.
    hidden: Vec<char>,
}

impl Excerpt {
    /// `masks`: spans of `src` shown as their masked text (secrets), in order, not overlapping.
    fn new(src: &str, start: usize, end: usize, masks: &[(Span, &str)]) -> Excerpt {
        let floor = |mut i: usize| {
            while !src.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let (start, end) = (floor(start), floor(end.max(start)));
        let first = src[..start].rfind('\n').map_or(0, |i| i + 1);
        let stop = if end > start && src[..end].ends_with('\n') {
            end - 1
        } else {
            end
        };
        let last = src[stop..].find('\n').map_or(src.len(), |i| stop + i);
        let mut text = String::with_capacity(last - first + 8);
        let (mut new_start, mut new_end) = (0, 0);
        let mut hidden = Vec::new();
        // The mask the previous character was in: a mask's text is written once, at its first
        // character shown.
        let mut in_mask: Option<usize> = None;
        for (i, c) in src[first..last].char_indices() {
            let at = first + i;
            if at == start {
                new_start = text.len();
            }
            if at == end {
                new_end = text.len();
            }
            let mask = masks.iter().position(|(m, _)| m.start <= at && at < m.end);
            if let Some(k) = mask {
                let (m, shown) = masks[k];
                if in_mask != Some(k) {
                    let before = text.len();
                    text.push_str(shown);
                    if (m.start..m.end).contains(&start) {
                        new_start = before;
                    }
                    if m.start < end && end <= m.end {
                        new_end = text.len();
                    }
                }
                in_mask = Some(k);
                continue;
            }
            in_mask = None;
            let shown = escape::line(c.encode_utf8(&mut [0; 4])).into_owned();
            if c != '\t' && shown.len() != c.len_utf8() {
                text.push_str(&shown);
                if !hidden.contains(&c) {
                    hidden.push(c);
                }
            } else {
                text.push(c);
            }
        }
        if start >= last {
            new_start = text.len();
        }
        if end >= last {
            new_end = text.len();
        }
        let (start, end) = widen(&text, new_start, new_end.max(new_start));
        Excerpt {
            text,
            start,
            end,
            hidden,
        }
    }
}

/// `start..end` widened to the grapheme clusters it touches.
fn widen(text: &str, start: usize, end: usize) -> (usize, usize) {
    let (mut s, mut e) = (start, end);
    for (i, g) in text.grapheme_indices(true) {
        let stop = i + g.len();
        if i < start && start < stop {
            s = i;
        }
        if i < end && end < stop {
            e = stop;
        }
    }
    (s, e)
}

#[cfg(test)]
mod tests;
