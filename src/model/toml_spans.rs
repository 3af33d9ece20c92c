//! TOML with spans: the manifest, pass and case rules report keys and values where they stand.

use crate::core::{Diagnostic, Rule, Span};
pub(crate) use curly::curly_quotes;
pub(crate) use toml::Spanned;
pub(crate) use toml::de::{DeTable, DeValue};

mod curly;

/// A parse error: the message, where it is, and a help line beyond the rule's.
pub struct SyntaxError {
    pub(crate) message: String,
    pub(crate) span: Span,
    pub(crate) hint: Option<String>,
}

impl SyntaxError {
    /// The syntax rule's finding for the document at `path`.
    pub(crate) fn diagnostic(&self, rule: &'static Rule, path: &str) -> Diagnostic {
        let d = Diagnostic::at(rule, path, self.span, self.message.clone());
        match &self.hint {
            Some(h) => d.with_hint(h.clone()),
            None => d,
        }
    }
}

/// Parses a TOML document, keeping every key's and value's span. A document that does not parse
/// because of a curly quote where a TOML quote goes gets an error naming the quote
/// ([`curly_error`]); any other, the parser's message at the place it stopped.
pub fn parse(text: &str) -> Result<Spanned<DeTable<'_>>, SyntaxError> {
    DeTable::parse(text).map_err(|e| {
        let span = e.span().map(Span::from_range).unwrap_or(Span::new(0, 0));
        curly_error(text, span).unwrap_or_else(|| SyntaxError {
            message: first_line(e.message()),
            span,
            hint: None,
        })
    })
}

/// `U+201C LEFT DOUBLE QUOTATION MARK: use a straight quote "`, at the first curly quote used as
/// a TOML quote, when it is on the line where the parser stopped or before it (a curly quote
/// after that line did not stop it): the parser's own words, "string values must be quoted",
/// do not say what is wrong. The hint counts the file's curly quotes used so.
fn curly_error(text: &str, stop: Span) -> Option<SyntaxError> {
    let quotes = curly_quotes(text.as_bytes());
    let first = quotes.first()?;
    let stop_line_end = text
        .get(stop.start..)
        .and_then(|rest| rest.find('\n'))
        .map_or(text.len(), |n| stop.start + n);
    if first.span.start > stop_line_end {
        return None;
    }
    let name = unicode_names2::name(first.curly).map_or(String::new(), |n| format!(" {n}"));
    let hint = match quotes.len() {
        1 => "1 curly quote in this file stands where TOML's straight quotes go".to_string(),
        n => format!("{n} curly quotes in this file stand where TOML's straight quotes go"),
    };
    Some(SyntaxError {
        message: format!(
            "U+{:04X}{name}: use a straight quote {}",
            first.curly as u32, first.straight
        ),
        span: Span::from_range(first.span.clone()),
        hint: Some(hint),
    })
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").trim().to_string()
}

/// The entries of a table sorted by where they stand in the file.
pub(crate) fn entries<'a, 'i>(
    table: &'a DeTable<'i>,
) -> Vec<(
    &'a Spanned<std::borrow::Cow<'i, str>>,
    &'a Spanned<DeValue<'i>>,
)> {
    let mut v: Vec<_> = table.iter().collect();
    v.sort_by_key(|(k, _)| k.span().start);
    v
}

/// Finds a key: its span and its value.
pub(crate) fn get<'a, 'i>(
    table: &'a DeTable<'i>,
    key: &str,
) -> Option<(Span, &'a Spanned<DeValue<'i>>)> {
    table
        .iter()
        .find(|(k, _)| k.get_ref().as_ref() == key)
        .map(|(k, v)| (Span::from_range(k.span()), v))
}

pub(crate) fn span_of<T>(v: &Spanned<T>) -> Span {
    Span::from_range(v.span())
}

/// The name of a value's type, for messages (`expected a string, found an integer`).
pub(crate) fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

/// A value as a list of strings, or why not.
pub(crate) fn string_list<'a>(v: &'a DeValue<'_>) -> Result<Vec<(&'a str, Span)>, String> {
    let arr = v
        .as_array()
        .ok_or_else(|| format!("expected a list of strings, found {}", type_name(v)))?;
    arr.iter()
        .map(|item| match item.get_ref() {
            DeValue::String(s) => Ok((s.as_ref(), span_of(item))),
            other => Err(format!(
                "expected a list of strings, found {} in it",
                type_name(other)
            )),
        })
        .collect()
}

/// An integer value (decimal, hex, octal or binary as TOML writes it).
pub(crate) fn integer(v: &DeValue<'_>) -> Option<i64> {
    let i = v.as_integer()?;
    // `as_str` is already `from_str_radix`-ready: no `0x` prefix, no underscores.
    i64::from_str_radix(&i.as_str().replace('_', ""), i.radix()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_spans() {
        let text = "a = 1\nname = \"x\"\n";
        let t = parse(text).ok().unwrap();
        let (span, v) = get(t.get_ref(), "name").unwrap();
        assert_eq!(&text[span.start..span.end], "name");
        assert_eq!(v.get_ref().as_str(), Some("x"));
        assert_eq!(integer(get(t.get_ref(), "a").unwrap().1.get_ref()), Some(1));
        let t = parse("h = 0x1_0000\no = 0o17\nd = 1_000\nn = -5\n")
            .ok()
            .unwrap();
        let int = |k| integer(get(t.get_ref(), k).unwrap().1.get_ref());
        assert_eq!(
            (int("h"), int("o"), int("d"), int("n")),
            (Some(65536), Some(15), Some(1000), Some(-5))
        );
    }

    #[test]
    fn syntax_errors_are_located() {
        let text = "a = 1\nb = [\n";
        let Err(e) = parse(text) else {
            panic!("broken TOML must not parse")
        };
        assert!(e.span.start >= 6, "{}", e.span.start);
        assert!(!e.message.is_empty());
        assert_eq!(e.hint, None);
    }

    #[test]
    fn a_curly_quote_where_a_toml_quote_goes_is_named() {
        let text = "a = 1\nname = \u{201c}x\u{201d}\n";
        let Err(e) = parse(text) else {
            panic!("curly quotes are not TOML's")
        };
        assert_eq!(
            e.message,
            "U+201C LEFT DOUBLE QUOTATION MARK: use a straight quote \""
        );
        assert_eq!(&text[e.span.start..e.span.end], "\u{201c}");
        assert_eq!(
            e.hint.as_deref(),
            Some("2 curly quotes in this file stand where TOML's straight quotes go")
        );
        let Err(e) = parse("a = \u{2018}x\u{2019}\n") else {
            panic!("curly quotes are not TOML's")
        };
        assert_eq!(
            e.message,
            "U+2018 LEFT SINGLE QUOTATION MARK: use a straight quote '"
        );
        // Control: an error before the curly quote's line is the parser's.
        let Err(e) = parse("a = [\nb = \"x\"\nc = \u{201c}x\u{201d}\n") else {
            panic!("an unclosed array does not parse")
        };
        assert!(!e.message.starts_with("U+"), "{}", e.message);
        assert!(
            parse("a = \"\u{201c}x\u{201d}\"\n").is_ok(),
            "quoted, they are text"
        );
    }
}
