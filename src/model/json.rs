//! JSON as serde_json reads it, for the documents the model parses: whether a document is JSON
//! at all (what the decoder trusts), and serde_json's own value of one string token (what the
//! decoder's debug assertions compare with).

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
}
