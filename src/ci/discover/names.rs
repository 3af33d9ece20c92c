//! The names of the folders from the searched root down to each pack: one holding an invisible
//! character (bidi controls included) or a line break (CR, LF: it would split every line that
//! names the pack) is an error, one holding only ignorable characters a
//! warning, as in a file (docs/checks.md, "Paths and text"). Nothing else about such a name is
//! judged: `_drafts` and `@team` are fine above a pack; inside it the pack's path rules apply.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::Blocked;
use crate::core::{is_hidden, is_invisible};

/// Whether a character in a folder's name is an error: the page's invisible ones, and CR and LF.
fn breaks(c: char) -> bool {
    is_invisible(c) || matches!(c, '\n' | '\r')
}

/// What a folder name hides, if anything.
pub(crate) fn hidden(name: &str) -> Option<Blocked> {
    let mut chars = name.chars().filter(|&c| is_hidden(c) || breaks(c));
    let first = chars.next()?;
    let more = chars.count();
    Some(Blocked::HiddenName {
        first,
        more,
        invisible: name.chars().any(breaks),
    })
}

/// The message of a [`Blocked::HiddenName`]: the first hidden character, as the file rules
/// name them.
pub(crate) fn message(b: &Blocked) -> String {
    let Blocked::HiddenName {
        first,
        more,
        invisible,
    } = b
    else {
        return String::new();
    };
    let more = match more {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let hippo = if *invisible {
        ""
    } else {
        ", an invisible character hippo accepts"
    };
    format!(
        "the folder's name holds U+{:04X}{more}{hippo}",
        *first as u32
    )
}

/// Each folder on the way from `root` down to one of `packs` (paths as discovery gives them,
/// `root` joined) whose name hides characters, once.
pub(crate) fn of_packs(root: &str, packs: &[String]) -> Vec<(String, PathBuf, Blocked)> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for pack in packs {
        let rel = relative(root, pack);
        let mut end = 0;
        for part in rel.split('/') {
            end += part.len();
            if let Some(why) = hidden(part) {
                let folder = super::join_rel(root, &[rel[..end].to_string()]);
                if seen.insert(folder.clone()) {
                    out.push((folder, Path::new(root).join(&rel[..end]), why));
                }
            }
            end += 1;
        }
    }
    out
}

/// A pack's path below `root` (empty for the root itself).
fn relative<'a>(root: &str, pack: &'a str) -> &'a str {
    if pack == root {
        return "";
    }
    let trimmed = root.trim_end_matches('/');
    if trimmed == "." || trimmed.is_empty() && !root.starts_with('/') {
        return pack;
    }
    pack.strip_prefix(trimmed)
        .map(|r| r.trim_start_matches('/'))
        .unwrap_or(pack)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hidden_characters_count_in_a_name() {
        for fine in ["_drafts", "@team", "packs", "café", "日本語", ".evil"] {
            assert_eq!(hidden(fine), None, "{fine}");
        }
        assert_eq!(
            hidden("go\u{202E}od"),
            Some(Blocked::HiddenName {
                first: '\u{202E}',
                more: 0,
                invisible: true
            })
        );
        let soft = hidden("a\u{AD}b\u{AD}").unwrap();
        assert_eq!(
            message(&soft),
            "the folder's name holds U+00AD and 1 more, an invisible character hippo accepts"
        );
        // A line break is an error, as an invisible character is.
        for name in ["a\nb", "a\r"] {
            let b = hidden(name).expect("a finding");
            assert!(matches!(
                b,
                Blocked::HiddenName {
                    invisible: true,
                    ..
                }
            ));
            assert!(
                message(&b).starts_with("the folder's name holds U+000"),
                "{name:?}"
            );
        }
        // control: a tab is no line break
        assert_eq!(hidden("a\tb"), None);
        // An ignorable before an invisible: the name is an error all the same.
        assert!(matches!(
            hidden("\u{AD}\u{200B}"),
            Some(Blocked::HiddenName {
                invisible: true,
                ..
            })
        ));
    }

    #[test]
    fn each_folder_on_the_way_is_named_once() {
        let packs = [
            "ws/p\u{200B}/a".to_string(),
            "ws/p\u{200B}/b".to_string(),
            "ws/ok/go\u{202E}od".to_string(),
            "ws/_drafts/@team".to_string(),
        ];
        let got: Vec<String> = of_packs("ws/", &packs).into_iter().map(|f| f.0).collect();
        assert_eq!(got, ["ws/p\u{200B}", "ws/ok/go\u{202E}od"]);
        assert_eq!(relative(".", "a/b"), "a/b");
        assert_eq!(relative("ws", "ws"), "");
        assert_eq!(relative("/", "/a"), "a");
    }
}
