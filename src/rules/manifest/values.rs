//! The rules of pack.toml's values, as hippo's page "Writing a pack" states them: each check
//! says what is wrong with a value, or nothing.

use crate::core::Span;
use crate::pack::place::is_name;

pub(crate) const RESERVED: &[&str] = &[
    "core", "hippo", "builtin", "local", "registry", "official", "test", "tests",
];

pub(crate) fn name_problem(s: &str) -> Option<String> {
    if RESERVED.contains(&s) {
        return Some(format!("{s} is reserved"));
    }
    if !(2..=40).contains(&s.len()) {
        return Some(format!("{} bytes, must be 2 to 40", s.len()));
    }
    if !is_name(s) || !s.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Some(
            "must be lowercase letters, digits and single dashes, starting with a letter".into(),
        );
    }
    None
}

pub(crate) fn version_problem(s: &str) -> Option<String> {
    let parts: Vec<&str> = s.split('.').collect();
    let ok = parts.len() == 3
        && parts.iter().all(|p| {
            (1..=4).contains(&p.len())
                && p.bytes().all(|b| b.is_ascii_digit())
                && !(p.len() > 1 && p.starts_with('0'))
        });
    (!ok).then(|| {
        "must be MAJOR.MINOR.PATCH, each a number of at most four digits with no leading zero"
            .to_string()
    })
}

/// No line terminator of any kind (LF, CR, VT, FF, U+0085, U+2028, U+2029).
fn one_line(s: &str) -> bool {
    !s.contains(crate::core::breaks_line)
}

pub(crate) fn description_problem(s: &str) -> Option<String> {
    let n = s.chars().count();
    if !one_line(s) {
        Some("must be one line".into())
    } else if !(1..=160).contains(&n) {
        Some(format!("{n} characters, must be 1 to 160"))
    } else if s.starts_with(char::is_whitespace) || s.ends_with(char::is_whitespace) {
        // "No space at either end": a tab or a no-break space is a space too.
        Some("must not start or end with a space".into())
    } else {
        None
    }
}

pub(crate) fn license_problem(s: &str) -> Option<String> {
    let ok = (1..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-'));
    (!ok).then(|| "must be an SPDX-style identifier: 1 to 64 of letters, digits, ., + and -".into())
}

pub(crate) fn authors_problem(list: &[(&str, Span)]) -> Option<String> {
    if !(1..=5).contains(&list.len()) {
        return Some(format!("{} names, must be one to five", list.len()));
    }
    for (name, _) in list {
        let n = name.chars().count();
        if !one_line(name) || !(1..=80).contains(&n) {
            return Some("each name must be one line of 1 to 80 characters".into());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        assert_eq!(name_problem("decision-log"), None);
        assert_eq!(name_problem("core"), Some("core is reserved".into()));
        assert!(name_problem("1abc").is_some());
        assert!(name_problem("a").is_some());
        assert_eq!(version_problem("1.0.0"), None);
        assert_eq!(version_problem("9999.0.10"), None);
        assert!(version_problem("01.0.0").is_some());
        assert!(version_problem("1.0").is_some());
        assert!(version_problem("10000.0.0").is_some());
        assert_eq!(description_problem("x"), None);
        assert!(description_problem(" x").is_some());
        assert!(description_problem(&"x".repeat(161)).is_some());
        assert_eq!(license_problem("Apache-2.0"), None);
        assert!(license_problem("MIT OR Apache").is_some());
    }

    #[test]
    fn every_line_terminator_breaks_one_line() {
        let span = Span::new(0, 0);
        for t in [
            '\n', '\r', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}',
        ] {
            let s = format!("a{t}b");
            assert_eq!(
                description_problem(&s),
                Some("must be one line".into()),
                "{t:?}"
            );
            assert!(authors_problem(&[(s.as_str(), span)]).is_some(), "{t:?}");
        }
        // control: a tab and a no-break space are on the line
        assert_eq!(description_problem("a\tb\u{A0}c"), None);
        assert_eq!(authors_problem(&[("Ann\u{A0}Lee", span)]), None);
    }
}
