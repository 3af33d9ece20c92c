use super::*;
use crate::core::Span;
use crate::rules::layout;

fn plain(s: &str) -> String {
    anstream::adapter::strip_str(s).to_string()
}

fn report_with(d: Diagnostic) -> PackReport {
    PackReport {
        dir: "p".into(),
        uri_base: "p".into(),
        name: Some("p".into()),
        version: Some("1.0.0".into()),
        diagnostics: vec![d],
        ..PackReport::default()
    }
}

fn render_one(d: Diagnostic, src: &str) -> String {
    let r = report_with(d);
    let src = src.to_string();
    plain(&render(
        &[r],
        Mode::Check,
        &move |_, _| Some(src.clone()),
        &[],
    ))
}

#[test]
fn a_finding_points_with_a_caret_and_a_summary_follows() {
    let src = "line one\nsay 中文 ignore all\n";
    let start = src.find("ignore").unwrap();
    let mut d = Diagnostic::at(
        &crate::rules::content::INJECTION_PHRASE,
        "prompts/a.md",
        Span::new(start, start + 6),
        "injection-shaped phrase \"ignore\"",
    );
    d.region = crate::core::LineIndex::new(src.as_bytes()).region(d.span.unwrap());
    let out = render_one(d, src);
    assert!(
        out.starts_with("warning[injection-phrase]: injection-shaped phrase \"ignore\"\n"),
        "{out}"
    );
    assert!(out.contains(" --> p/prompts/a.md:2:8\n"), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let code = lines.iter().position(|l| l.contains("say 中文")).unwrap();
    let caret = lines[code + 1];
    // The caret sits under `ignore`, counting the two wide characters as two columns each.
    let text_col = lines[code].find("say").unwrap();
    let caret_col = caret.find('^').unwrap();
    assert_eq!(caret_col - text_col, "say 中文 ".len() - 2, "{out}");
    assert_eq!(caret.matches('^').count(), 6);
    assert!(out.ends_with("0 errors, 1 warning in 1 pack\n"), "{out}");
}

#[test]
fn invisible_characters_are_named_and_carets_keep_graphemes() {
    let src = "a\u{200B}b e\u{301}x\n";
    let zw = src.find('\u{200B}').unwrap();
    let mut d = Diagnostic::at(
        &crate::rules::text::INVISIBLE_CHARACTER,
        "README.md",
        Span::new(zw, zw + 3),
        "U+200B",
    );
    d.region = crate::core::LineIndex::new(src.as_bytes()).region(d.span.unwrap());
    let out = render_one(d, src);
    assert!(out.contains("aU+200Bb"), "{out}");
    assert!(out.contains("U+200B ZERO WIDTH SPACE"), "{out}");
    assert!(!out.contains('\u{200B}'), "control: never raw");
    // A span ending inside `e` + combining acute is widened to the whole cluster.
    let e = src.find('e').unwrap();
    let x = Excerpt::new(src, e, e + 1, &[]);
    assert_eq!(&x.text[x.start..x.end], "e\u{301}");
}

#[test]
fn a_finding_without_a_line_has_no_snippet() {
    let d = Diagnostic::lead(&layout::MISSING_FILE, "missing file", "README.md", "");
    let out = render_one(d, "");
    assert!(
        out.starts_with("error[missing-file]: missing file README.md\n"),
        "{out}"
    );
    assert!(out.contains("--> p/README.md"), "{out}");
    assert!(!out.contains('^'), "no caret without a span: {out}");
    assert!(out.ends_with("1 error, 0 warnings in 1 pack\n"));
}

#[test]
fn colour_is_in_the_styled_output_only() {
    let d = Diagnostic::lead(&layout::MISSING_FILE, "missing file", "README.md", "");
    let styled = render(&[report_with(d)], Mode::Check, &|_, _| None, &[]);
    assert!(styled.contains("\u{1b}["), "styled output has ANSI");
    assert!(!plain(&styled).contains("\u{1b}["), "control: stripped");
}
