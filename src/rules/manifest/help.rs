//! What to write instead of a pack.toml value that breaks its rule: the nearest valid value
//! when one follows from what was written (`did you mean `decision-log`?`), else the rule in
//! a few words with an example. `--format full` shows it as the finding's help.

use super::values::{RESERVED, license_problem, name_problem, version_problem};

/// A pack name: the slug of what was written (`Decision Log` → `decision-log`), or the rule.
pub(crate) fn name(s: &str) -> String {
    const RULE: &str =
        "lowercase letters, digits and single dashes, starting with a letter, 2 to 40 bytes";
    if RESERVED.contains(&s) {
        return format!(
            "choose a name of your own; reserved: {}",
            RESERVED.join(", ")
        );
    }
    let mut slug = dashed(&s.to_lowercase(), |c| {
        c.is_ascii_lowercase() || c.is_ascii_digit()
    });
    slug.truncate(40);
    let slug = slug.trim_end_matches('-');
    match name_problem(slug) {
        None => format!("did you mean `{slug}`? {RULE}"),
        Some(_) => format!("{RULE}, such as `decision-log`"),
    }
}

/// `s` with every run of characters that `keep` refuses made one dash, and no dash at either
/// end.
fn dashed(s: &str, keep: impl Fn(char) -> bool) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if keep(c) {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// A version: the three numbers read from what was written (`v1.2` → `1.2.0`, `01.0.0` →
/// `1.0.0`), or the rule.
pub(crate) fn version(s: &str) -> String {
    const RULE: &str =
        "MAJOR.MINOR.PATCH, each a number of at most four digits with no leading zero";
    let s = s.trim().trim_start_matches(['v', 'V']);
    let mut parts: Vec<String> = Vec::new();
    for part in s.split('.').take(3) {
        let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
        let number = digits.trim_start_matches('0');
        parts.push(if number.is_empty() { "0" } else { number }.to_string());
        if digits.is_empty() {
            parts.clear();
            break;
        }
    }
    if !parts.is_empty() {
        parts.resize(3, "0".to_string());
    }
    let guess = parts.join(".");
    match !guess.is_empty() && version_problem(&guess).is_none() {
        true => format!("did you mean `{guess}`? {RULE}"),
        false => format!("{RULE}, such as `1.0.0`"),
    }
}

/// A description: one line of 1 to 160 characters with no space at either end.
pub(crate) fn description(s: &str) -> String {
    let n = s.chars().count();
    if s.contains(crate::core::breaks_line) {
        "write it on one line; the README holds the rest".into()
    } else if n == 0 {
        "say what the pack does in one line of 1 to 160 characters".into()
    } else if n > 160 {
        format!(
            "shorten it by {} characters, to 160 at most; the README holds the rest",
            n - 160
        )
    } else {
        "delete the space at its start or end".into()
    }
}

/// Authors: one to five names.
pub(crate) fn authors(count: usize) -> String {
    match count {
        0 => "name one author at least: authors = [\"Your Name\"]".into(),
        n if n > 5 => format!("keep five names at most ({n} are listed)"),
        _ => "write each name on one line, 1 to 80 characters".into(),
    }
}

/// A licence: one SPDX-style identifier. An expression names its choices (`MIT OR
/// Apache-2.0`); spaces made dashes give the nearest one (`Apache 2.0` → `Apache-2.0`).
pub(crate) fn license(s: &str) -> String {
    const RULE: &str = "one SPDX-style identifier, such as `MIT` or `Apache-2.0`: 1 to 64 of letters, digits, ., + and -";
    let words: Vec<&str> = s.split_whitespace().collect();
    let operator = |w: &&str| matches!(*w, "OR" | "AND" | "WITH" | "or" | "and");
    if words.iter().any(operator) {
        let ids: Vec<String> = (words.iter())
            .filter(|w| !operator(w))
            .map(|w| w.trim_matches(['(', ')']))
            .filter(|w| license_problem(w).is_none())
            .map(|w| format!("`{w}`"))
            .collect();
        if !ids.is_empty() {
            return format!(
                "one identifier, not an expression: choose {}",
                ids.join(" or ")
            );
        }
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-');
    let guess = dashed(s.trim(), allowed);
    match !guess.is_empty() && guess != s && license_problem(&guess).is_none() {
        true => format!("did you mean `{guess}`? {RULE}"),
        false => RULE.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_valid_value_is_named() {
        assert!(name("Decision Log").starts_with("did you mean `decision-log`?"));
        assert!(name("my_pack!").starts_with("did you mean `my-pack`?"));
        assert!(name("core").starts_with("choose a name of your own; reserved: core, hippo"));
        assert!(version("v1.2").starts_with("did you mean `1.2.0`?"));
        assert!(version("01.0.0").starts_with("did you mean `1.0.0`?"));
        assert!(version("1.0.0-beta").starts_with("did you mean `1.0.0`?"));
        assert!(license("Apache 2.0").starts_with("did you mean `Apache-2.0`?"));
        assert_eq!(
            license("MIT OR Apache-2.0"),
            "one identifier, not an expression: choose `MIT` or `Apache-2.0`"
        );
        assert_eq!(authors(7), "keep five names at most (7 are listed)");
        assert!(description(&"x".repeat(170)).starts_with("shorten it by 10 characters"));
    }

    #[test]
    fn control_nothing_near_gives_the_rule() {
        assert!(
            name("1234").starts_with("lowercase letters"),
            "{}",
            name("1234")
        );
        assert!(version("latest").starts_with("MAJOR.MINOR.PATCH"));
        assert!(license("©").starts_with("one SPDX-style identifier"));
    }
}
