//! "Did you mean": the nearest of a list of known words (Jaro-Winkler, as clap suggests
//! subcommands), for `--format full` and `rules`.

/// The candidate nearest `word` when it is near enough (similarity over 0.8), else `None`.
pub fn nearest<'a, S: AsRef<str>>(word: &str, candidates: &'a [S]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (strsim::jaro_winkler(word, c.as_ref()), c.as_ref()))
        .filter(|(score, c)| *score > 0.8 && *c != word)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// `did you mean `x`? ` or nothing, then `valid: `a`, `b`` — a help line.
pub fn help(word: &str, candidates: &[&str], what: &str) -> String {
    let list = candidates
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ");
    match nearest(word, candidates) {
        Some(n) => format!("did you mean `{n}`? {what}: {list}"),
        None => format!("{what}: {list}"),
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
}
