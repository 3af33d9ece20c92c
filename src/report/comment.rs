//! The pull-request comment `ci` keeps up to date (docs/action.md, "One pull-request comment"):
//! a hidden marker line naming the category, the job summary's title and totals, and the new
//! findings of the gated packs (the packs the pull request touches; new against the review's
//! base, every finding without one), escaped as the summary escapes them and capped under
//! GitHub's limit on a comment's body.

use super::summary::{self, Context};
use crate::outcome::PackReport;

/// GitHub refuses a comment body over 65,536 characters.
#[cfg(test)]
const GITHUB_LIMIT: usize = 65_536;
/// What the comment stays under (in bytes, so in characters too), leaving room for the note.
const BUDGET: usize = 60_000;

/// The hidden line that marks the comment of `category` (an HTML comment GitHub does not show).
/// The category is a user's input: every character but an ASCII letter, a digit, `.`, `_`,
/// `/` and a `-` that neither follows a `-` nor ends it is written `%XX`, so no value can close
/// the HTML comment or look like another category's marker.
pub(crate) fn marker(category: &str) -> String {
    let mut enc = String::new();
    let chars: Vec<char> = category.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let dash_ok = c == '-' && i + 1 < chars.len() && (i == 0 || chars[i - 1] != '-');
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/') || dash_ok {
            enc.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                enc.push_str(&format!("%{b:02X}"));
            }
        }
    }
    format!("<!-- hippo-packs comment: category {enc} -->")
}

/// Whether `body` is a comment marked by `marker` (a line of its own).
pub(crate) fn is_marked(body: &str, marker: &str) -> bool {
    body.lines().any(|l| l.trim() == marker)
}

/// The comment's body: the marker, the title and totals, then each gated pack's new findings,
/// under [`BUDGET`] bytes with a note of what was left out.
pub(crate) fn render(reports: &[PackReport], cx: &Context, marker: &str) -> String {
    let mut out = format!("{marker}\n");
    out.push_str(&summary::title(reports, cx));
    let gated = |i: usize| cx.gated.get(i).copied().unwrap_or(true);
    let lines: Vec<String> = (0..reports.len())
        .filter(|&i| gated(i))
        .flat_map(|i| summary::new_findings(&reports[i]))
        .collect();
    if lines.is_empty() {
        out.push_str("No new finding in the gated packs.\n");
        return out;
    }
    out.push_str("### New findings of the gated packs\n\n");
    let mut left = 0usize;
    for l in &lines {
        if left == 0 && out.len() + l.len() <= BUDGET {
            out.push_str(l);
        } else {
            left += 1;
        }
    }
    if left > 0 {
        out.push_str(&format!(
            "\n> [!NOTE]\n> {left} more {} not shown, to stay under GitHub's limit on a comment: the job summary and code scanning hold every finding.\n",
            if left == 1 { "finding is" } else { "findings are" }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Diagnostic;
    use crate::rules::content::INJECTION_PHRASE;

    fn report(base: &str, findings: usize) -> PackReport {
        PackReport {
            uri_base: base.into(),
            diagnostics: (0..findings)
                .map(|i| Diagnostic::file(&INJECTION_PHRASE, &format!("prompts/p{i}.md"), "x"))
                .collect(),
            ..PackReport::default()
        }
    }

    fn cx(gated: Vec<bool>) -> Context {
        Context {
            gated,
            scope: "changed".into(),
            fail_on: "error".into(),
            ..Context::default()
        }
    }

    #[test]
    fn the_comment_holds_the_marker_the_totals_and_the_gated_findings() {
        let reports = [report("packs/a", 1), report("packs/b", 2)];
        let body = render(&reports, &cx(vec![true, false]), &marker("hippo-packs"));
        assert!(
            body.starts_with(
                "<!-- hippo-packs comment: category hippo-packs -->\n## hippo-packs\n"
            )
        );
        assert!(is_marked(&body, &marker("hippo-packs")));
        assert!(
            !is_marked(&body, &marker("hippo-packs/shard-1-of-2")),
            "control: another category"
        );
        assert!(body.contains("| 2 | 0 | 3 | 0 |"), "{body}");
        assert!(body.contains("packs/a/prompts/p0.md"), "{body}");
        assert!(
            !body.contains("packs/b/"),
            "an ungated pack's findings stay out:\n{body}"
        );
        let none = render(&reports, &cx(vec![false, false]), "m");
        assert!(
            none.ends_with("No new finding in the gated packs.\n"),
            "{none}"
        );
        let mut old = report("packs/a", 2);
        old.diagnostics[0].baseline = Some(crate::core::baseline::Baseline::Existing);
        let labelled = render(&[old], &cx(vec![true]), "m");
        assert!(
            labelled.contains("p1.md") && !labelled.contains("p0.md"),
            "a finding the base has too stays out:\n{labelled}"
        );
    }

    #[test]
    fn a_category_cannot_close_the_marker() {
        assert_eq!(
            marker("a-->b <!--"),
            "<!-- hippo-packs comment: category a-%2D%3Eb%20%3C%21-%2D -->"
        );
        assert_eq!(
            marker("x/shard-1-of-2"),
            "<!-- hippo-packs comment: category x/shard-1-of-2 -->"
        );
    }

    #[test]
    fn a_long_comment_stays_under_githubs_limit() {
        let reports = [report("packs/a", 3000)];
        let body = render(&reports, &cx(vec![true]), &marker("hippo-packs"));
        assert!(body.chars().count() < GITHUB_LIMIT, "{}", body.len());
        assert!(body.contains("more findings are not shown"), "{body}");
        let short = render(&[report("packs/a", 3)], &cx(vec![true]), "m");
        assert!(
            !short.contains("not shown"),
            "control: a short one is whole"
        );
    }
}
