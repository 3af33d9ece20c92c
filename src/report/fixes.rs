//! What `check --fix` did and what `check --diff` would do: `fixed <path>:<line>:<col>:
//! <message>` lines for standard error, and a unified diff (docs/fixes.md).

use crate::core::escape;
use crate::fix::PackFixes;

/// One line per fix made, `fixed prompts/a.md:5:4: removed U+200B ZERO WIDTH SPACE` (the place
/// in the file before the fix; the path as the text output names it), and for a file that was
/// not written `hippo-packs: not fixed <path>: <why>`.
pub(crate) fn fixed(packs: &[PackFixes]) -> String {
    let mut out = String::new();
    for p in packs {
        for f in &p.files {
            let path = format!("{}{}", p.prefix, f.path);
            if let Some(why) = &f.refused {
                let line = format!("hippo-packs: not fixed {path}: {why}");
                out.push_str(&escape::line(&line));
                out.push('\n');
                continue;
            }
            for x in &f.fixed {
                let line = format!("fixed {path}:{}:{}: {}", x.line, x.col, x.message);
                out.push_str(&escape::line(&line));
                out.push('\n');
            }
        }
    }
    out
}

/// The unified diff of every file the fixes change (`--- a/<dir>/<path>`, `+++ b/<dir>/<path>`,
/// hunks with three lines of context). As written, it is the files' bytes, so `git apply` and
/// `patch -p1` take it as it is. `escaped` (standard output is a terminal): text from the pack
/// is shown as every output shows it, a character that would not show (a carriage return, a
/// hidden character) as `U+XXXX`, for reading and not for applying.
pub(crate) fn diff(packs: &[PackFixes], escaped: bool) -> String {
    let shown = |s: &str| -> String {
        match escaped {
            true => escape::line(s).into_owned(),
            false => s.to_string(),
        }
    };
    let mut out = String::new();
    for p in packs {
        for f in &p.files {
            let path = shown_path(&p.dir, &f.path);
            let before = String::from_utf8_lossy(&f.before);
            let after = String::from_utf8_lossy(&f.after);
            let diff = similar::TextDiff::from_lines(before.as_ref(), after.as_ref());
            out.push_str(&shown(&format!("--- a/{path}")));
            out.push('\n');
            out.push_str(&shown(&format!("+++ b/{path}")));
            out.push('\n');
            for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
                out.push_str(&format!("{}\n", hunk.header()));
                for change in hunk.iter_changes() {
                    push_change(&mut out, change.tag(), change.value(), escaped);
                }
            }
        }
    }
    out
}

/// One line of a hunk: its sign and its text, as written or escaped (without its line feed; a
/// carriage return shows).
fn push_change(out: &mut String, tag: similar::ChangeTag, value: &str, escaped: bool) {
    out.push(match tag {
        similar::ChangeTag::Delete => '-',
        similar::ChangeTag::Insert => '+',
        similar::ChangeTag::Equal => ' ',
    });
    let body = value.strip_suffix('\n').unwrap_or(value);
    if escaped {
        out.push_str(&escape::line(body));
    } else {
        out.push_str(body);
    }
    out.push('\n');
    if !value.ends_with('\n') && (!escaped || !value.ends_with('\r')) {
        out.push_str("\\ No newline at end of file\n");
    }
}

/// `<dir>/<path>`, the folder as given without a leading `./` or a trailing `/` (`.`: the path
/// alone).
fn shown_path(dir: &str, path: &str) -> String {
    let dir = dir.trim_end_matches('/');
    let dir = dir.strip_prefix("./").unwrap_or(dir);
    if dir.is_empty() || dir == "." {
        path.to_string()
    } else {
        format!("{dir}/{path}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::{FileFix, Fixed};

    fn one(before: &str, after: &str) -> Vec<PackFixes> {
        vec![PackFixes {
            dir: "./pack/".into(),
            prefix: String::new(),
            files: vec![FileFix {
                path: "prompts/a.md".into(),
                before: before.into(),
                after: after.into(),
                fixed: vec![Fixed {
                    line: 2,
                    col: 3,
                    message: "removed U+200B ZERO WIDTH SPACE".into(),
                }],
                refused: None,
            }],
        }]
    }

    #[test]
    fn the_diff_is_the_bytes_and_escaped_only_for_a_terminal() {
        let d = diff(&one("\u{FEFF}a\r\nb\u{200B}c\nd", "a\nbc\nd"), false);
        assert_eq!(
            d,
            "--- a/pack/prompts/a.md\n+++ b/pack/prompts/a.md\n@@ -1,3 +1,3 @@\n-\u{FEFF}a\r\n-b\u{200B}c\n+a\n+bc\n d\n\\ No newline at end of file\n"
        );
        assert!(!d.contains("U+"), "control: nothing escaped");
    }

    #[test]
    fn the_diff_shows_what_would_not_show() {
        let d = diff(&one("a\r\nb\u{200B}c\nd", "a\nbc\nd"), true);
        assert_eq!(
            d,
            "--- a/pack/prompts/a.md\n+++ b/pack/prompts/a.md\n@@ -1,3 +1,3 @@\n-aU+000D\n-bU+200Bc\n+a\n+bc\n d\n\\ No newline at end of file\n"
        );
        // Control: no change, no hunk.
        assert_eq!(
            diff(&one("same\n", "same\n"), true),
            "--- a/pack/prompts/a.md\n+++ b/pack/prompts/a.md\n"
        );
    }

    #[test]
    fn fixed_lines_or_the_refusal() {
        let mut packs = one("", "");
        assert_eq!(
            fixed(&packs),
            "fixed prompts/a.md:2:3: removed U+200B ZERO WIDTH SPACE\n"
        );
        packs[0].files[0].refused = Some("it changed since it was read".into());
        assert_eq!(
            fixed(&packs),
            "hippo-packs: not fixed prompts/a.md: it changed since it was read\n"
        );
    }
}
