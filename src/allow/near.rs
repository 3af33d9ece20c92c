//! An allowance that matches nothing may nearly match a finding: same rule, same file, and a
//! `text` that differs from the quoted text only in spaces or quotes (`curl` for the quoted
//! `curl `, `"you are now"` with its quotes). The `unused-allowance` warning then names that
//! finding, so the author sees what to write instead of only "matches nothing".

/// The text a message quotes: between its first and last `"` (`shell-shaped text "curl "`).
pub(super) fn quote(message: &str) -> Option<&str> {
    match (message.find('"'), message.rfind('"')) {
        (Some(a), Some(b)) if b > a => Some(&message[a + 1..b]),
        _ => None,
    }
}

/// Whether `text` is the quoted text of `message` but for spaces, quotes and case, and is not
/// it exactly (an exact match, case aside, is an allowance that matches).
pub(super) fn nearly(message: &str, text: &str) -> bool {
    quote(message).is_some_and(|q| {
        q.to_lowercase() != text.to_lowercase() && loose(q) == loose(text) && !loose(q).is_empty()
    })
}

/// Lower case, quotes (straight, curly, backtick) removed, runs of white space made one space,
/// none at either end.
fn loose(s: &str) -> String {
    let kept: String = s
        .chars()
        .filter(|c| {
            !matches!(
                c,
                '"' | '\'' | '`' | '\u{2018}' | '\u{2019}' | '\u{201C}' | '\u{201D}'
            )
        })
        .collect();
    kept.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_and_quotes_are_a_near_miss() {
        assert_eq!(quote("shell-shaped text \"curl \""), Some("curl "));
        assert!(nearly("shell-shaped text \"curl \"", "curl"));
        assert!(nearly(
            "injection-shaped phrase \"you are now\"",
            "'You  are now'"
        ));
        assert!(
            !nearly("shell-shaped text \"curl \"", "curl "),
            "control: an exact match is not a near miss"
        );
        assert!(
            !nearly("shell-shaped text \"curl \"", "wget"),
            "control: other text is no near miss"
        );
        assert!(!nearly("lacks ## Rules", "x"), "control: nothing quoted");
    }
}
