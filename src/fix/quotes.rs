//! Curly quotes pasted where TOML's quotes go (`name = “x”`, `‘key’ = 1`) made straight, in a
//! TOML file that does not parse, and only when the straightened file parses: then each quote was
//! the quote the author meant, and the values read are the ones typed. A curly quote inside a
//! string or a comment is text and stays (`model::toml_spans::curly_quotes` never returns one).

use super::edit::{Edit, Fix, What, apply};
use crate::core::Span;
use crate::model::documents::Toml;
use crate::model::toml_spans::{self, curly_quotes};

/// One fix per curly quote of the file, or none. `parsed` is the file's parse when it is one of
/// the pack's documents (`model::Documents::toml`); another TOML file is parsed here. The
/// straightened text is a document no one has parsed: it is parsed here, to know it would.
pub(crate) fn curly(path: &str, text: &str, parsed: Option<&Toml<'_>>) -> Vec<Fix> {
    if !path.ends_with(".toml") {
        return Vec::new();
    }
    let parses = match parsed {
        Some(doc) => doc.is_ok(),
        None => toml_spans::parse(text).is_ok(),
    };
    if parses {
        return Vec::new();
    }
    let fixes: Vec<Fix> = curly_quotes(text.as_bytes())
        .into_iter()
        .map(|q| {
            let edit = Edit {
                span: Span::new(q.span.start, q.span.end),
                with: q.straight.to_string(),
            };
            Fix::one(
                edit,
                What::Quote {
                    curly: q.curly,
                    straight: q.straight,
                },
            )
        })
        .collect();
    let straight = apply(text.as_bytes(), &fixes);
    let parses = std::str::from_utf8(&straight).is_ok_and(|t| toml_spans::parse(t).is_ok());
    if fixes.is_empty() || !parses {
        return Vec::new();
    }
    fixes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(text: &str) -> String {
        String::from_utf8(apply(text.as_bytes(), &curly("pack.toml", text, None))).unwrap()
    }

    #[test]
    fn quotes_where_toml_wants_them_are_straightened() {
        assert_eq!(
            fixed("name = \u{201C}x\u{201D}\nauthors = [\u{2018}A\u{2019}]\n"),
            "name = \"x\"\nauthors = ['A']\n"
        );
        let fixes = curly("passes/a.toml", "a = \u{201C}x\u{201D}\n", None);
        assert_eq!(
            fixes[0].message(),
            "replaced U+201C LEFT DOUBLE QUOTATION MARK with \""
        );
    }

    #[test]
    fn what_would_not_parse_or_already_parses_stays() {
        // Straightened, `'it's'` is still not TOML: nothing is changed.
        let text = "name = \u{2018}it's\u{2019}\n";
        assert_eq!(fixed(text), text);
        // A curly quote inside a string is text.
        let text = "description = \"the \u{201C}best\u{201D} log\"\n";
        assert_eq!(fixed(text), text);
        // Control: not a TOML file.
        assert!(curly("prompts/a.md", "a = \u{201C}x\u{201D}\n", None).is_empty());
    }
}
