//! Theme packs (docs/checks.md, "Theme packs"): `theme.json` is a JSON object; `theme.css` is any text (the text,
//! size, redaction and content rules look at it as at any file). The theme layout (allowed and
//! required files) is checked by the layout rules.

use super::declare::declare_rules;
use crate::core::{Diagnostic, Span};
use crate::model::Documents;
use crate::model::theme::Problem;

declare_rules! {
    /// theme.json is not valid JSON
    ///
    /// A theme pack's theme.json must parse as JSON; the finding gives the parser's message at the
    /// place it stopped. Nesting deeper than 128 levels is refused as the JSON parser's recursion
    /// limit, so a hostile file cannot exhaust the stack. A key given twice in one object is
    /// refused too (key accent twice, at the second): JSON readers disagree on which value counts.
    ///
    /// How to fix: Fix the JSON at the line and column given.
    pub(crate) static THEME_JSON_SYNTAX = "theme-json-syntax", Error, VeryHigh, rank = 520;

    /// theme.json is valid JSON but not an object
    ///
    /// hippo reads a theme's settings as the keys of one JSON object; an array, a string, a number,
    /// a boolean or null at the top is not a theme.
    ///
    /// How to fix: Make theme.json one object: { ... }.
    pub(crate) static THEME_JSON_OBJECT = "theme-json-object", Error, VeryHigh, rank = 530;
}

const JSON: &str = "theme.json";

/// Judges theme.json's reading (none: the file is missing, or not read whole as UTF-8, which
/// the text and size rules report).
pub(crate) fn check(docs: &Documents<'_>, out: &mut Vec<Diagnostic>) {
    let Some(theme) = &docs.theme_json else {
        return;
    };
    match &theme.problem {
        None => {}
        Some(Problem::Syntax { message, offset }) => out.push(Diagnostic::at(
            &THEME_JSON_SYNTAX,
            JSON,
            Span::new(*offset, *offset),
            message.clone(),
        )),
        Some(Problem::Twice { key, offset }) => out.push(Diagnostic::at(
            &THEME_JSON_SYNTAX,
            JSON,
            Span::new(*offset, *offset),
            format!("key {key} twice"),
        )),
        Some(Problem::NotObject(found)) => out.push(Diagnostic::file(
            &THEME_JSON_OBJECT,
            JSON,
            format!("must be a JSON object, found {found}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::PackKind;
    use crate::pack::testing::text_pack;

    fn run(json: &str) -> Vec<String> {
        let p = text_pack(
            PackKind::Theme,
            &[("theme.json", json), ("theme.css", "a{}")],
        );
        let mut out = Vec::new();
        check(&Documents::read(&p), &mut out);
        crate::rules::finish(&p, &mut out);
        out.iter().map(|d| d.text("")).collect()
    }

    #[test]
    fn an_object_is_a_theme() {
        assert_eq!(run("{\"accent\": \"#336699\"}\n"), Vec::<String>::new());
        assert_eq!(
            run("[1]"),
            ["theme.json: must be a JSON object, found an array"]
        );
        assert_eq!(
            run("null"),
            ["theme.json: must be a JSON object, found null"]
        );
    }

    #[test]
    fn syntax_errors_are_located() {
        assert_eq!(
            run("{\n  \"a\": 1,\n  \"b\" 2\n}"),
            ["theme.json:3:7: expected `:`"]
        );
        assert_eq!(run("{\"e\": tru}"), ["theme.json:1:10: expected ident"]);
        assert_eq!(
            run("{\"é\": tru}"),
            ["theme.json:1:10: expected ident"],
            "columns count characters, not bytes"
        );
        assert_eq!(run(""), ["theme.json:1:1: EOF while parsing a value"]);
    }

    #[test]
    fn a_key_given_twice_is_an_error_at_the_second() {
        assert_eq!(
            run("{\n  \"accent\": \"#336699\",\n  \"accent\": \"#ff0000\"\n}\n"),
            ["theme.json:3:3: key accent twice"]
        );
        // control: the same key in two objects
        assert!(run("{\"a\": {\"k\": 1}, \"b\": {\"k\": 2}}").is_empty());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        // Under the 65,536-byte limit of one file, far past serde_json's nesting limit.
        let deep = "[".repeat(60_000);
        let got = run(&deep);
        assert_eq!(got.len(), 1);
        assert!(got[0].ends_with("recursion limit exceeded"), "{}", got[0]);
        let deep_obj = format!("{}{}", "{\"a\":".repeat(12_000), "1");
        assert!(run(&deep_obj)[0].ends_with("recursion limit exceeded"));
    }
}
