//! JSON as serde_json reads it, for the documents the model parses: whether a document is JSON
//! at all (what the decoder trusts), serde_json's own value of one string token (what the
//! decoder's debug assertions compare with), and the first key an object gives twice (which
//! JSON readers disagree on: serde_json keeps the last value, others the first).

/// Whether serde_json accepts `doc` as one JSON document, skipping its values (a skipped value
/// has no recursion limit, and a lone surrogate in a skipped string is accepted).
pub(crate) fn accepted(doc: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(doc).is_ok()
}

/// serde_json's decoding of one string token, quotes included (`None`: a lone surrogate, which
/// serde_json refuses in a string it reads).
pub(crate) fn string_value(token: &str) -> Option<String> {
    serde_json::from_str::<String>(token).ok()
}

/// The first key that an object of `doc` (a document serde_json accepts) gives twice, decoded,
/// with the byte offset of its second occurrence's opening quote. One pass over the bytes with
/// an explicit stack, so no nesting is too deep for it; string contents are skipped by
/// `memchr`, so the cost is about that of finding the document's quotes. The keys of every open
/// object share one list (each object's start in it on the stack): two allocations a document,
/// not one per object.
pub(crate) fn duplicate_key(doc: &str) -> Option<(String, usize)> {
    scan(doc, 0, false).ok().flatten()
}

/// [`duplicate_key`] of the one object or list that starts at `start` (its `{` or `[`), read to
/// its end and no further. `Err` where [`duplicate_key`] of a whole document would stop looking
/// at that point: a key that does not decode, a string not closed.
pub(crate) fn duplicate_key_in_value(
    doc: &str,
    start: usize,
) -> Result<Option<(String, usize)>, Stopped> {
    scan(doc, start, true)
}

/// A scan stopped before the end of what it was asked to read (a key that does not decode, a
/// string not closed): what came after was not looked at.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Stopped;

/// The scan behind [`duplicate_key`], from `start`, to the end of the document or, `one_value`,
/// to the end of the container that opens at `start`.
fn scan(doc: &str, start: usize, one_value: bool) -> Result<Option<(String, usize)>, Stopped> {
    let b = doc.as_bytes();
    // Per open container: `Some(where its keys start in keys)` for an object, `None` for an
    // array.
    let mut stack: Vec<Option<usize>> = Vec::with_capacity(8);
    // The keys of the open objects, the innermost's last.
    let mut keys: Vec<std::borrow::Cow<'_, str>> = Vec::with_capacity(16);
    // Whether the next string of the innermost object is a key.
    let mut key_next = false;
    let mut i = start;
    while i < b.len() {
        match b[i] {
            b'{' => {
                stack.push(Some(keys.len()));
                key_next = true;
            }
            b'[' => {
                stack.push(None);
                key_next = false;
            }
            b'}' | b']' => {
                if let Some(Some(from)) = stack.pop() {
                    keys.truncate(from);
                }
                if one_value && stack.is_empty() {
                    return Ok(None);
                }
                key_next = false;
            }
            b',' => key_next = matches!(stack.last(), Some(Some(_))),
            b'"' => {
                let (end, escaped) = string_end(b, i).ok_or(Stopped)?;
                if key_next {
                    let token = &doc[i..end];
                    let key = if escaped {
                        std::borrow::Cow::Owned(string_value(token).ok_or(Stopped)?)
                    } else {
                        std::borrow::Cow::Borrowed(&token[1..token.len() - 1])
                    };
                    if let Some(&Some(from)) = stack.last() {
                        if keys.get(from..).is_some_and(|own| own.contains(&key)) {
                            return Ok(Some((key.into_owned(), i)));
                        }
                        keys.push(key);
                    }
                    key_next = false;
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if one_value { Err(Stopped) } else { Ok(None) }
}

/// The end (one past the closing quote) of the string whose opening quote is at `start`, and
/// whether it holds an escape.
fn string_end(b: &[u8], start: usize) -> Option<(usize, bool)> {
    let mut i = start + 1;
    let mut escaped = false;
    loop {
        i += memchr::memchr2(b'"', b'\\', b.get(i..)?)?;
        if b[i] == b'\\' {
            escaped = true;
            i += 2;
        } else {
            return Some((i + 1, escaped));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skipped_value_is_accepted_where_a_read_one_is_not() {
        assert!(accepted("{\"a\": [1, \"\\ud800\"]}"));
        assert_eq!(string_value("\"\\u0041\"").as_deref(), Some("A"));
        assert_eq!(string_value("\"\\ud800\""), None);
        // control: a document that is not JSON
        assert!(!accepted("{\"a\": 1,}"));
    }

    #[test]
    fn strings_of_every_length_are_skipped_whole() {
        // Strings short and long, with an escaped quote before, at and after their middle: a
        // quote inside a string is never a key's end.
        for len in [0, 1, 22, 23, 24, 25, 26, 47, 48, 49, 200] {
            for at in [0, len / 2, len] {
                let mut v = "v".repeat(len);
                v.insert_str(at, "\\\"k\\\": ");
                let doc = format!(r#"{{"k": "{v}", "j": 1, "k": 2}}"#);
                let second = doc.rfind("\"k\"").expect("key");
                assert_eq!(
                    duplicate_key(&doc),
                    Some(("k".to_string(), second)),
                    "{doc}"
                );
                // Control: the same string without the repeated key.
                let fine = format!(r#"{{"k": "{v}", "j": 1}}"#);
                assert_eq!(duplicate_key(&fine), None, "{fine}");
            }
        }
        // An unterminated string (never in a document serde_json accepts) ends the look.
        assert_eq!(duplicate_key("{\"k\": \"abc\\"), None);
    }

    #[test]
    fn one_value_is_read_to_its_end_and_no_further() {
        let doc = r#"{"a": [{"k": 1}, {"k": 2, "k": 3}], "b": {"j": 1}, "b": 2}"#;
        let list = doc.find('[').expect("list");
        let second = doc.rfind("\"k\"").expect("key");
        assert_eq!(
            duplicate_key_in_value(doc, list),
            Ok(Some(("k".to_string(), second)))
        );
        // The object after the list holds no key twice; the `b` given twice around it is
        // outside it.
        let object = doc.find("{\"j\"").expect("object");
        assert_eq!(duplicate_key_in_value(doc, object), Ok(None));
        assert_eq!(duplicate_key(doc).map(|p| p.0), Some("k".to_string()));
        // Controls: a key that does not decode stops the look, as does a value not closed.
        assert_eq!(
            duplicate_key_in_value(r#"{"\ud800": 1, "a": 1, "a": 2}"#, 0),
            Err(Stopped)
        );
        assert_eq!(duplicate_key_in_value(r#"{"a": [1, 2"#, 0), Err(Stopped));
    }

    #[test]
    fn a_key_given_twice_is_found_at_any_depth_and_in_any_spelling() {
        let twice = duplicate_key;
        assert_eq!(
            twice(r#"{"timestamp": "a", "x": 1, "timestamp": "b"}"#),
            Some(("timestamp".to_string(), 27))
        );
        assert_eq!(
            twice(r#"{"m": {"c": [{"t": 1, "t": 2}]}}"#).map(|p| p.0),
            Some("t".to_string())
        );
        assert_eq!(
            twice(r#"{"ab": 1, "a\u0062": 2}"#).map(|p| p.0),
            Some("ab".to_string()),
            "an escape spells the same key"
        );
        let deep = format!(
            "{}{{\"k\": 1, \"k\": 2}}{}",
            "[".repeat(500),
            "]".repeat(500)
        );
        assert_eq!(twice(&deep).map(|p| p.0), Some("k".to_string()));
        // Controls: the same key in two objects, a key's text as a value, a quote escaped in
        // a string, and the same text in an array.
        for fine in [
            r#"{"a": {"k": 1}, "b": {"k": 2}}"#,
            r#"{"k": "k", "v": "k"}"#,
            r#"{"k": "say \"k\":", "j": ["k", "k"]}"#,
            r#"[{"k": 1}, {"k": 2}]"#,
            r#"{"k\\": 1, "k": 2}"#,
        ] {
            assert_eq!(twice(fine), None, "{fine}");
        }
    }
}
