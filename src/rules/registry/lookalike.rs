//! When one pack name looks like another: the same name with one character swapped for a
//! confusable one, two neighbouring characters transposed, or a dash and a random-looking tail
//! added. A plural `s`, a language and a version suffix are names of their own.

use crate::core::fold::fold_char;

/// The shortest name (in characters) that is compared: shorter names collide by chance.
pub(crate) const SHORTEST: usize = 8;

/// How a name looks like another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Likeness {
    /// Read the same once confusable characters are folded (`0` and `o`, `1` and `l`, a
    /// Cyrillic `о` and a Latin `o`): `decision-l0g` and `decision-log`.
    Confusable,
    /// The same characters with two neighbours swapped: `decision-lgo` and `decision-log`.
    Transposed,
    /// The other name, a dash and this random-looking tail: `decision-log-x7k2`.
    Tail(String),
}

impl Likeness {
    /// How the message says it.
    pub(crate) fn describe(&self) -> String {
        match self {
            Likeness::Confusable => "the same name with look-alike characters".to_string(),
            Likeness::Transposed => "the same name with two letters swapped".to_string(),
            Likeness::Tail(t) => format!("the same name with the random-looking tail -{t}"),
        }
    }
}

/// How `name` looks like `other`, if it does: both at least [`SHORTEST`] characters, not equal.
/// A tail is `name`'s (the name that adds it is the look-alike); the other two are symmetric.
/// `a` and `b` are the two names' [`skeleton`]s, made once per name for a registry's pairs.
pub(crate) fn likeness(name: &str, a: &str, other: &str, b: &str) -> Option<Likeness> {
    let long = |s: &str| s.chars().count() >= SHORTEST;
    if name == other || !long(name) || !long(other) {
        return None;
    }
    if a == b {
        return Some(Likeness::Confusable);
    }
    if transposed(a, b) {
        return Some(Likeness::Transposed);
    }
    if a.len() <= b.len() + 1 || !a.starts_with(b) {
        return None;
    }
    let tail = tail_after(name, &format!("{b}-"))?;
    random_looking(&tail).then_some(Likeness::Tail(tail))
}

/// One character as a comparison reads it: lower-cased, folded to its ASCII look-alike (an
/// invisible character is dropped), `0` read as `o` and `1` as `l`.
fn skeleton_of(c: char) -> String {
    let folded = match fold_char(c) {
        Some(s) if c != '-' => s.to_string(),
        _ => c.to_string(),
    };
    folded
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            '0' => 'o',
            '1' => 'l',
            c => c,
        })
        .collect()
}

/// A name as the comparison reads it: each character's [`skeleton_of`].
pub(crate) fn skeleton(name: &str) -> String {
    name.chars().map(skeleton_of).collect()
}

/// Whether `a` and `b` differ only in two neighbouring characters, swapped.
fn transposed(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() != b.len() {
        return false;
    }
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    matches!(differ[..], [i, j] if j == i + 1 && a[i] == b[j] && a[j] == b[i])
}

/// What follows `prefix` (a skeleton ending in `-`) in `name`, as written and lower-cased, when
/// `name`'s skeleton starts with it.
fn tail_after(name: &str, prefix: &str) -> Option<String> {
    let mut read = String::new();
    for (at, c) in name.char_indices() {
        if read == prefix {
            return Some(name[at..].to_lowercase());
        }
        if !prefix.starts_with(&read) {
            return None;
        }
        read.push_str(&skeleton_of(c));
    }
    None
}

/// A tail no author would choose as a word, a version or a language: its dash-separated parts
/// are ASCII letters and digits, at least four of them in all, and they either mix letters and
/// digits or are letters without a vowel (`x7k2`, `a8f3c1`, `qzxv`). `v2`, `2024`, `1-0`, `en`,
/// `pt-br`, `extra` and `beta` are not random.
fn random_looking(tail: &str) -> bool {
    let parts: Vec<&str> = tail.split('-').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_alphanumeric()))
    {
        return false;
    }
    let joined: String = parts.concat();
    let version = |p: &str| {
        let digits = p.strip_prefix('v').unwrap_or(p);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    let language =
        |p: &str| (2..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphabetic());
    if joined.len() < 4 || parts.iter().all(|p| version(p)) || parts.iter().all(|p| language(p)) {
        return false;
    }
    let letters = joined.bytes().filter(u8::is_ascii_alphabetic).count();
    let vowels = joined.bytes().filter(|b| b"aeiouy".contains(b)).count();
    (letters > 0 && letters < joined.len()) || (letters == joined.len() && vowels == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_confusable_a_transposition_and_a_random_tail_look_alike() {
        let like = |a, b| likeness(a, &skeleton(a), b, &skeleton(b));
        assert_eq!(
            like("decision-l0g", "decision-log"),
            Some(Likeness::Confusable)
        );
        assert_eq!(
            like("decisi1n-log", "decisiln-log"),
            Some(Likeness::Confusable)
        );
        assert_eq!(
            like("decision-l\u{43E}g", "decision-log"),
            Some(Likeness::Confusable),
            "a Cyrillic o"
        );
        assert_eq!(
            like("decision-lo\u{200B}g", "decision-log"),
            Some(Likeness::Confusable),
            "an invisible character"
        );
        assert_eq!(
            like("decision-lgo", "decision-log"),
            Some(Likeness::Transposed)
        );
        assert_eq!(
            like("decision-log", "decision-lgo"),
            Some(Likeness::Transposed)
        );
        assert_eq!(
            like("decision-log-x7k2", "decision-log"),
            Some(Likeness::Tail("x7k2".into()))
        );
        assert_eq!(
            like("decision-log-qzxv", "decision-log"),
            Some(Likeness::Tail("qzxv".into()))
        );
        assert_eq!(
            like("decision-l0g-a8f3c1", "decision-log"),
            Some(Likeness::Tail("a8f3c1".into()))
        );
    }

    #[test]
    fn control_a_plural_a_language_a_version_and_a_short_name_do_not() {
        for (a, b) in [
            ("decision-logs", "decision-log"),
            ("bug-logs", "bug-log"),
            ("decision-log-en", "decision-log"),
            ("decision-log-pt-br", "decision-log"),
            ("decision-log-v2", "decision-log"),
            ("decision-log-v10", "decision-log"),
            ("decision-log-2024", "decision-log"),
            ("decision-log-1-0", "decision-log"),
            ("decision-log-extra", "decision-log"),
            ("decision-log-beta", "decision-log"),
            ("decision-log", "decision-log-x7k2"),
            ("decision-log", "decision-log"),
            ("bug-l0g", "bug-log"),
            ("release-notes", "decision-log"),
            ("decision-lgoo", "decision-log"),
        ] {
            let like = likeness(a, &skeleton(a), b, &skeleton(b));
            assert_eq!(like, None, "{a} beside {b}");
        }
    }
}
