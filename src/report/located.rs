//! What the machine formats (SARIF, JSON, annotations, JUnit) share: the message a diagnostic
//! carries without its path, and the path of the file it points at.

use std::borrow::Cow;

use crate::core::{Diagnostic, Style};
use crate::core::{charname, escape};
use crate::outcome::PackReport;

/// The text output's line after `<path>: `, escaped as the text output escapes it: the message
/// of a located finding, the whole line of a lead one (`unexpected file extra.txt`, relative to
/// the pack), the message of a pack-wide one. A failed expectation's message is the `FAIL`
/// line's text after `<pack>/<case>: `.
pub(crate) fn message(d: &Diagnostic) -> String {
    escape::line(&raw_message(d)).into_owned()
}

/// [`message`] before escaping, for a renderer with its own escaping (annotations).
pub(crate) fn raw_message(d: &Diagnostic) -> String {
    match &d.style {
        Style::Located { .. } | Style::AtLine | Style::Bare => d.message.clone(),
        Style::Lead(_) => d.text(""),
    }
}

/// The `help:` lines of a finding, escaped, in the order `--format full` shows them: its own
/// hint, its rule's help (unless the hint takes its place), and what `check --fix` does about
/// it when it does something (`check --fix` will remove U+200B ZERO WIDTH SPACE).
pub(crate) fn help_lines(d: &Diagnostic) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(h) = &d.hint {
        out.push(escape::line(h).into_owned());
    }
    if !d.own_help && !d.rule.help().is_empty() {
        out.push(d.rule.help().to_string());
    }
    if let Some(f) = &d.fix {
        out.push(fix_line(f));
    }
    out
}

/// `check --fix` will (what the fix does).
pub(crate) fn fix_line(f: &crate::core::Suggestion) -> String {
    escape::line(&format!("`check --fix` will {}", f.message)).into_owned()
}

/// `[*] ` before the message of a finding `check --fix` mends (ruff's marker), else nothing.
pub(crate) fn marker(d: &Diagnostic) -> &'static str {
    if d.fix.is_some() { "[*] " } else { "" }
}

/// `[*] N fixable with `--fix``, when N findings of the reports are (`check` only).
pub(crate) fn fixable_line(reports: &[PackReport]) -> Option<String> {
    let n = reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .filter(|d| d.fix.is_some())
        .count();
    (n > 0).then(|| format!("[*] {n} fixable with `--fix`"))
}

/// The character a finding is about, when its message begins with it (`U+2060`, `U+200B and 2
/// more`, `U+202E in an escape`, `U+2800, an unusual space`: the character rules name the first
/// character of a run this way); `None` for any other message.
pub(crate) fn named_char(d: &Diagnostic) -> Option<char> {
    head(&d.message).map(|h| h.0)
}

/// The character a message begins with and the length of its `U+XXXX`.
fn head(message: &str) -> Option<(char, usize)> {
    let rest = message.strip_prefix("U+")?;
    let hex = rest
        .find(|c: char| !c.is_ascii_hexdigit())
        .unwrap_or(rest.len());
    let after = rest[hex..].chars().next();
    if !(4..=6).contains(&hex) || !matches!(after, None | Some(' ' | ',')) {
        return None;
    }
    let c = char::from_u32(u32::from_str_radix(&rest[..hex], 16).ok()?)?;
    Some((c, 2 + hex))
}

/// [`named_char`] with its name, when the message does not give the name itself after the code
/// (`U+201C LEFT DOUBLE QUOTATION MARK: use a straight quote "` does).
pub(crate) fn unnamed_char(d: &Diagnostic) -> Option<(char, String)> {
    let (c, len) = head(&d.message)?;
    let name = charname::name(c)?;
    let said = d.message[len..].starts_with(&format!(" {name}"));
    (!said).then_some((c, name))
}

/// [`message`] with the character it begins with named (`U+2060 WORD JOINER`, `U+200B ZERO
/// WIDTH SPACE and 2 more`), for SARIF; any other message, or one that names its character
/// already, as [`message`] gives it.
pub(crate) fn message_named(d: &Diagnostic) -> String {
    let plain = message(d);
    let (Some((_, name)), Some((_, len))) = (unnamed_char(d), head(&plain)) else {
        return plain;
    };
    format!("{} {name}{}", &plain[..len], &plain[len..])
}

/// The findings a diagnostic is where each is placed: one per related place when each is a
/// finding of its own (a redaction finding: one per secret of its file, at the secret, its
/// message the place's followed by its label, `redaction would change it (github-pat):
/// ghp_…[github-pat]`), the first carrying the other places as its related ones; any other,
/// itself. The formats that place findings (`concise`, SARIF) render these; counts stay counts
/// of diagnostics.
pub(crate) fn placed(d: &Diagnostic) -> Vec<Cow<'_, Diagnostic>> {
    if !d.related_are_findings() {
        return vec![Cow::Borrowed(d)];
    }
    let mut bare = d.clone();
    bare.related = Vec::new();
    d.related
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut one = bare.clone();
            if i == 0 {
                one.related = d.related[1..].to_vec();
            }
            one.span = Some(r.span);
            one.region = r.region;
            one.fingerprint = r.fingerprint.clone();
            one.evidence = r.evidence;
            let finding = r.finding.as_deref().unwrap_or_default();
            one.message = format!("{finding}: {}", r.label);
            Cow::Owned(one)
        })
        .collect()
}

/// How many findings [`placed`] makes of `d`, without making them.
pub(crate) fn placed_count(d: &Diagnostic) -> usize {
    match d.related_are_findings() {
        true => d.related.len(),
        false => 1,
    }
}

/// A finding's message followed by the labels of its related places (`...: ghp_…[github-pat],
/// AKIA…[aws-access-token]`), for the formats with one entry per finding (annotations).
pub(crate) fn message_with_related(d: &Diagnostic) -> String {
    let mut m = raw_message(d);
    for (i, r) in d.related.iter().enumerate() {
        m.push_str(if i == 0 { ": " } else { ", " });
        m.push_str(&r.label);
    }
    m
}

/// The `/`-separated path, relative to the working folder, of the file a diagnostic points at;
/// with no file (an unreadable pack folder, a pack without files), the pack folder itself.
pub(crate) fn location_path(r: &PackReport, d: &Diagnostic) -> String {
    match &d.file {
        Some(f) => join(&r.uri_base, f),
        None if r.uri_base.is_empty() => ".".to_string(),
        None => r.uri_base.clone(),
    }
}

/// A pack file's path as the person typed the pack folder, so it opens from where they stand
/// (`--format full` and `concise`); `file` is pack-relative.
pub(crate) fn typed_path(r: &PackReport, file: &str) -> String {
    match r.dir.trim_end_matches('/') {
        "" | "." => file.to_string(),
        dir => join(dir, file),
    }
}

/// `<base>/<file>`, or `<file>` for a pack at the working folder.
pub(crate) fn join(base: &str, file: &str) -> String {
    if base.is_empty() {
        file.to_string()
    } else {
        format!("{}/{}", base.trim_end_matches('/'), file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::layout;

    #[test]
    fn messages_drop_the_path_and_keep_leads() {
        let d = Diagnostic::lead(&layout::UNEXPECTED_FILE, "unexpected file", "a\nb.txt", "");
        assert_eq!(message(&d), "unexpected file aU+000Ab.txt");
        let d = Diagnostic::file(&layout::SYMBOLIC_LINK, "x.md", "symbolic link");
        assert_eq!(message(&d), "symbolic link");
        assert_ne!(
            message(&d),
            d.text(""),
            "control: the path is not in the message"
        );
    }

    #[test]
    fn a_message_that_begins_with_a_character_names_it() {
        let inv = &crate::rules::text::INVISIBLE_CHARACTER;
        let named = |m: &str| message_named(&Diagnostic::file(inv, "a.md", m));
        assert_eq!(named("U+2060"), "U+2060 WORD JOINER");
        assert_eq!(
            named("U+200B and 2 more"),
            "U+200B ZERO WIDTH SPACE and 2 more"
        );
        assert_eq!(
            named("U+2800, an unusual space"),
            "U+2800 BRAILLE PATTERN BLANK, an unusual space"
        );
        assert_eq!(
            named("U+E0041 in an escape"),
            "U+E0041 TAG LATIN CAPITAL LETTER A in an escape"
        );
        // Controls: no character at the head, or a code that is not one, leaves the message.
        assert_eq!(named("U+E000"), "U+E000", "no name, nothing added");
        assert_eq!(named("U+20"), "U+20");
        assert_eq!(named("U+2060x"), "U+2060x");
        assert_eq!(named("U+D800"), "U+D800", "a surrogate is no character");
        assert_eq!(named("contains U+0007"), "contains U+0007");
        let said = "U+201C LEFT DOUBLE QUOTATION MARK: use a straight quote \"";
        assert_eq!(named(said), said, "a message that names it is kept");
        assert_eq!(
            named_char(&Diagnostic::file(inv, "a.md", "U+2060 in an escape")),
            Some('\u{2060}')
        );
    }

    #[test]
    fn paths_join_the_pack_folder() {
        let mut r = PackReport::default();
        let d = Diagnostic::file(&layout::SYMBOLIC_LINK, "x.md", "symbolic link");
        assert_eq!(location_path(&r, &d), "x.md");
        r.uri_base = "packs/a".into();
        assert_eq!(location_path(&r, &d), "packs/a/x.md");
        let d = d.pointing_at(None, None);
        assert_eq!(location_path(&r, &d), "packs/a");
    }

    #[test]
    fn related_places_are_placed_apart_only_when_each_is_a_finding() {
        let span = |a: usize| crate::core::Span::new(a, a + 3);
        let key = |a: usize| crate::rules::redaction::secret("github-pat", span(a), "ghp_x");
        let red = &crate::rules::redaction::REDACTION;
        let d = Diagnostic::key(red, "a.md", span(4), "r").with_related(vec![key(4), key(40)]);
        let each = placed(&d);
        assert_eq!(each.len(), 2);
        assert_eq!(placed_count(&d), 2);
        assert_eq!(
            each[1].message,
            "redaction would change it (github-pat): ghp_\u{2026}[github-pat]"
        );
        assert_eq!(each[1].span, Some(span(40)));
        // The first result carries the other place; every place is listed once.
        assert_eq!(each[0].related, [key(40)]);
        assert!(each[1].related.is_empty());
        let said = message_with_related(&d);
        assert_eq!(
            said,
            "r: ghp_\u{2026}[github-pat], ghp_\u{2026}[github-pat]"
        );
        // Control: a place that only explains its finding leaves it one finding, labelled in
        // the one-entry formats.
        let mut context = key(40);
        context.finding = None;
        context.label = "first here".into();
        let rule = &layout::SYMBOLIC_LINK;
        let d = Diagnostic::key(rule, "a.md", span(4), "twice").with_related(vec![context]);
        assert_eq!(placed(&d).len(), 1);
        assert_eq!(placed_count(&d), 1);
        assert_eq!(message_with_related(&d), "twice: first here");
    }
}
