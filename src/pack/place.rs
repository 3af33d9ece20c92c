//! What a path in a pack means: the places hippo's page "Writing a pack" gives each kind of
//! pack, and the name rule the names at those places follow. Facts only: the rule families
//! read them and do the judging.

use super::PackKind;

/// The name rule: lowercase ASCII letters and digits in runs joined by single dashes.
pub(crate) fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// What an allowed path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    Manifest,
    Readme,
    License,
    Pass,
    Prompt,
    Persona,
    Template,
    Case,
    Note,
    Transcript,
    ThemeCss,
    ThemeJson,
}

/// Where a file may stand, ignoring the name rule: `Some(place, name)` where `name` is the part
/// the name rule applies to (a pass, prompt, persona or transcript name), if any.
pub(crate) fn place(kind: PackKind, path: &str) -> Option<(Place, Option<&str>)> {
    // Up to eight components on the stack (every allowed place has fewer: a path has at most
    // six), split at each `/` found by `memchr`; a longer path is split into a list.
    let mut small = [""; 8];
    let (mut n, mut start) = (0, 0);
    loop {
        let end = memchr::memchr(b'/', &path.as_bytes()[start..]).map_or(path.len(), |i| start + i);
        if n == small.len() {
            let parts: Vec<&str> = path.split('/').collect();
            return place_parts(kind, &parts);
        }
        // `/` is ASCII: both ends are character boundaries.
        small[n] = path.get(start..end).unwrap_or("");
        n += 1;
        if end == path.len() {
            break;
        }
        start = end + 1;
    }
    place_parts(kind, &small[..n])
}

/// [`place`] of a path split into its components.
fn place_parts<'a>(kind: PackKind, parts: &[&'a str]) -> Option<(Place, Option<&'a str>)> {
    let top = |p| Some((p, None));
    match kind {
        PackKind::Theme => match parts {
            ["pack.toml"] => top(Place::Manifest),
            ["README.md"] => top(Place::Readme),
            ["LICENSE"] | ["LICENSE.md"] => top(Place::License),
            ["theme.css"] => top(Place::ThemeCss),
            ["theme.json"] => top(Place::ThemeJson),
            _ => None,
        },
        PackKind::Pass => match parts {
            ["pack.toml"] => top(Place::Manifest),
            ["README.md"] => top(Place::Readme),
            ["LICENSE"] | ["LICENSE.md"] => top(Place::License),
            ["passes", f] => f.strip_suffix(".toml").map(|n| (Place::Pass, Some(n))),
            ["prompts", f] => f.strip_suffix(".md").map(|n| (Place::Prompt, Some(n))),
            ["personas", f] => f.strip_suffix(".md").map(|n| (Place::Persona, Some(n))),
            ["templates", .., f] if f.ends_with(".md") => top(Place::Template),
            ["tests", case, "case.toml"] => Some((Place::Case, Some(*case))),
            ["tests", _, "notes", .., f] if f.ends_with(".md") => top(Place::Note),
            ["tests", _, "transcripts", f] => f
                .strip_suffix(".jsonl")
                .map(|n| (Place::Transcript, Some(n))),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_splits_as_str_split_does() {
        for p in [
            "",
            "/",
            "a//b",
            "/passes/a.toml",
            "passes/a.toml/",
            "tests/c/notes/a/b/c/d/e/f/g/h.md",
            "templates/1/2/3/4/5/6/7/8/9/x.md",
            "passes/é.toml",
            "tests/c/case.toml",
        ] {
            for kind in [PackKind::Pass, PackKind::Theme] {
                let parts: Vec<&str> = p.split('/').collect();
                assert_eq!(place(kind, p), place_parts(kind, &parts), "{p}");
            }
        }
        // control: the long path is a template, found through the list
        assert!(place(PackKind::Pass, "templates/1/2/3/4/5/6/7/8/9/x.md").is_some());
    }

    #[test]
    fn places_follow_the_page_layout() {
        assert_eq!(
            place(PackKind::Pass, "passes/a-b.toml"),
            Some((Place::Pass, Some("a-b")))
        );
        assert_eq!(
            place(PackKind::Pass, "templates/x/y/Any Name.md").map(|p| p.0),
            Some(Place::Template)
        );
        assert_eq!(
            place(PackKind::Pass, "tests/c/notes/a/b.md").map(|p| p.0),
            Some(Place::Note)
        );
        assert_eq!(
            place(PackKind::Pass, "extra.txt"),
            None,
            "control: extra.txt is not allowed"
        );
        assert_eq!(place(PackKind::Pass, "theme.css"), None);
        assert_eq!(
            place(PackKind::Theme, "theme.css").map(|p| p.0),
            Some(Place::ThemeCss)
        );
        assert_eq!(place(PackKind::Pass, "tests/c/transcripts/x.json"), None);
    }

    #[test]
    fn name_rule() {
        assert!(is_name("decision-log"));
        assert!(is_name("a1"));
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", "é"] {
            assert!(!is_name(bad), "{bad:?} must break the name rule");
        }
    }
}
