//! White space at either end of pack.toml's `description` removed: the page allows none, and a
//! space at an end says nothing.

use super::edit::{Edit, Fix, What};
use crate::model::toml_spans::{self, DeTable, Spanned};

/// A fix for each end of the description that starts or ends with white space written as is (a
/// one-line basic or literal string; white space written as an escape is left alone). A
/// description of white space only is not fixed: nothing would be left to describe the pack.
/// `doc` is pack.toml's parse (`model::Documents`).
pub(crate) fn description(path: &str, text: &str, doc: &Spanned<DeTable<'_>>) -> Vec<Fix> {
    if path != "pack.toml" {
        return Vec::new();
    }
    let Some((_, value)) = toml_spans::get(doc.get_ref(), "description") else {
        return Vec::new();
    };
    let span = toml_spans::span_of(value);
    let raw = text.get(span.start..span.end).unwrap_or("");
    let one_line = (raw.starts_with('"') && !raw.starts_with("\"\"\""))
        || (raw.starts_with('\'') && !raw.starts_with("'''"));
    if !matches!(value.get_ref(), toml_spans::DeValue::String(_)) || !one_line || raw.len() < 2 {
        return Vec::new();
    }
    let (open, close) = (span.start + 1, span.end - 1);
    let inner = &raw[1..raw.len() - 1];
    let body = inner.trim_matches(char::is_whitespace);
    if body.is_empty() {
        return Vec::new();
    }
    let lead = inner.len() - inner.trim_start().len();
    let trail = inner.len() - inner.trim_end().len();
    let mut out = Vec::new();
    if lead > 0 {
        out.push(Fix::one(
            Edit::remove(open, open + lead),
            What::Description { start: true },
        ));
    }
    if trail > 0 {
        out.push(Fix::one(
            Edit::remove(close - trail, close),
            What::Description { start: false },
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::edit::apply;

    /// The fixes of pack.toml's text, parsed as the pack's documents parse it.
    fn fixes(path: &str, text: &str) -> Vec<Fix> {
        match toml_spans::parse(text) {
            Ok(doc) => description(path, text, &doc),
            Err(_) => Vec::new(),
        }
    }

    fn fixed(text: &str) -> String {
        let fixes = fixes("pack.toml", text);
        String::from_utf8(apply(text.as_bytes(), &fixes)).unwrap()
    }

    #[test]
    fn both_ends_are_trimmed_as_written() {
        assert_eq!(
            fixed("name = \"x\"\ndescription = \"  Logs. \t\"\n"),
            "name = \"x\"\ndescription = \"Logs.\"\n"
        );
        assert_eq!(fixed("description = 'Logs. '\n"), "description = 'Logs.'\n");
        assert_eq!(
            fixes("pack.toml", "description = \" Logs.\"")[0].message(),
            "removed the white space at the start of the description"
        );
    }

    #[test]
    fn what_is_not_plain_white_space_stays() {
        for text in [
            "description = \"Logs.\\t\"\n",
            "description = \"   \"\n",
            "description = \"\"\" Logs. \"\"\"\n",
            "description = [\" x \"]\n",
            "description = \" x \n",
        ] {
            assert_eq!(fixed(text), text);
        }
        // Control: another file is not pack.toml.
        assert!(fixes("passes/a.toml", "description = \" x \"").is_empty());
    }
}
