//! "Did you mean": the nearest of a set of known words, for every help that names one (an
//! unknown key, a value off its list, a misnamed file or folder, a rule id, a case name).
//!
//! A word is [`close`] to another when it is equal but for case, a singular or plural of it, or
//! one or two edits away (one for a word of four characters or fewer): the slips an author makes.
//! [`nearest`] prefers the closest such candidate, and otherwise the most similar one by
//! Jaro-Winkler over 0.8 (as clap suggests subcommands), which also catches a longer word with
//! a shared start (`consolidate` for `consolidation`).

/// How close `word` is to `want` when [`close`]: 0 equal but for case, 1 a singular or plural,
/// else 1 + the number of edits.
fn closeness(word: &str, want: &str) -> Option<usize> {
    let (a, b) = (word.to_lowercase(), want.to_lowercase());
    if a == b {
        return Some(0);
    }
    let plural = |x: &str, y: &str| y.strip_prefix(x).is_some_and(|s| s == "s" || s == "es");
    if plural(&a, &b) || plural(&b, &a) {
        return Some(1);
    }
    let most = if b.chars().count() <= 4 { 1 } else { 2 };
    let edits = strsim::levenshtein(&a, &b);
    (edits <= most).then_some(1 + edits)
}

/// Whether `word` is a near miss of `want` (and not `want` itself): equal but for case, a
/// singular or plural of it, or at most two edits away (one for a word of four characters or
/// fewer).
pub(crate) fn close(word: &str, want: &str) -> bool {
    word != want && closeness(word, want).is_some()
}

/// The candidate nearest `word` when one is near enough, else `None`; never `word` itself.
pub(crate) fn nearest<'a, S: AsRef<str>>(word: &str, candidates: &'a [S]) -> Option<&'a str> {
    let others = || candidates.iter().map(AsRef::as_ref).filter(|c| *c != word);
    let by_edits = others()
        .filter_map(|c| Some((closeness(word, c)?, c)))
        .min_by_key(|(n, _)| *n);
    if let Some((_, c)) = by_edits {
        return Some(c);
    }
    others()
        .map(|c| (strsim::jaro_winkler(word, c), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// `did you mean `x`? ` or nothing, then `<what>: `a`, `b`` — a help line naming every
/// candidate.
pub(crate) fn help(word: &str, candidates: &[&str], what: &str) -> String {
    choose(word, candidates, what, usize::MAX)
}

/// As [`help`], for a list that may be long: more than `limit` candidates are not all named
/// (`did you mean `x`? <what>: 12 in all`, or without a near one the first `limit` and `and N
/// more`).
pub(crate) fn choose(word: &str, candidates: &[&str], what: &str, limit: usize) -> String {
    choose_near(nearest(word, candidates), candidates, what, limit)
}

/// As [`choose`], with the near candidate already found (`None`: none is near).
pub(crate) fn choose_near(
    near: Option<&str>,
    candidates: &[&str],
    what: &str,
    limit: usize,
) -> String {
    let quoted = |list: &[&str]| {
        list.iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match near {
        Some(n) if candidates.len() > limit => {
            format!("did you mean `{n}`? {what}: {} in all", candidates.len())
        }
        Some(n) => format!("did you mean `{n}`? {what}: {}", quoted(candidates)),
        None if candidates.len() > limit => format!(
            "{what}: {} and {} more",
            quoted(&candidates[..limit]),
            candidates.len() - limit
        ),
        None => format!("{what}: {}", quoted(candidates)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_words_are_suggested_and_far_ones_not() {
        let keys = ["name", "version", "license"];
        assert_eq!(nearest("licence", &keys), Some("license"));
        assert_eq!(nearest("verison", &keys), Some("version"));
        assert_eq!(nearest("homepage", &keys), None, "control: nothing near");
        assert_eq!(
            help("licence", &keys, "valid keys"),
            "did you mean `license`? valid keys: `name`, `version`, `license`"
        );
    }

    #[test]
    fn case_plurals_and_edits_come_before_likeness() {
        let types = ["policy", "decision", "log", "evidence", "topic"];
        assert_eq!(nearest("Decision", &types), Some("decision"));
        assert_eq!(nearest("decisions", &types), Some("decision"));
        assert_eq!(nearest("logs", &types), Some("log"));
        assert_eq!(nearest("topik", &types), Some("topic"));
        assert_eq!(nearest("diary", &types), None, "control: nothing near");
        assert_eq!(
            nearest("consolidate", &["consolidation", "verify"]),
            Some("consolidation"),
            "a shared start"
        );
        assert!(close("prompt", "prompts") && close("Pack.toml", "pack.toml"));
        assert!(!close("pas", "passes") && !close("x", "x"), "control");
    }

    #[test]
    fn a_long_list_is_not_named_whole() {
        let many = ["a1", "b2", "c3", "d4"];
        assert_eq!(
            choose("a2", &many, "the files", 3),
            "did you mean `a1`? the files: 4 in all"
        );
        assert_eq!(
            choose("zzz", &many, "the files", 3),
            "the files: `a1`, `b2`, `c3` and 1 more"
        );
        assert_eq!(
            choose("zzz", &many, "the files", 4),
            help("zzz", &many, "the files")
        );
    }
}
