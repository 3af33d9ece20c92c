//! Each rule's examples, taken from its fixtures: the first `bad*` variant (a pack that fires
//! the rule) and the first `good*` one (the nearest pack that does not), each as what it
//! changes in the page's good pack (its `setup` lines, or the lines its `changes/` or `pack/`
//! folder changes) and the text output it gives. The binary carries them in `examples.txt`, generated from
//! tests/fixtures/ by the unit test below and reviewed as docs/rules.md is
//! (docs/architecture.md, "Expected outputs are reviewed").

/// The generated examples: `@@@ <rule> <variant>` lines, each followed by the variant's text.
const EXAMPLES: &str = include_str!("examples.txt");

/// The most lines of a change or of an output an example shows.
#[cfg(test)]
const MAX_LINES: usize = 12;

/// One example: the fixture variant it comes from and its text.
pub(crate) struct Example {
    /// `bad`, `good-placeholders`, ...
    pub(crate) variant: &'static str,
    /// What the variant changes, then `--- check` and the output (indented by the caller).
    pub(crate) text: &'static str,
}

/// The rule's examples: its bad one, then its good one (either may be missing).
pub(crate) fn of(rule: &str) -> Vec<Example> {
    let mut out = Vec::new();
    for block in EXAMPLES.split("@@@ ").skip(1) {
        let (head, text) = block.split_once('\n').unwrap_or((block, ""));
        let Some((id, variant)) = head.split_once(' ') else {
            continue;
        };
        if id == rule {
            out.push(Example { variant, text });
        }
    }
    out
}

#[cfg(test)]
mod generate {
    use super::MAX_LINES;
    use std::path::Path;

    /// `examples.txt` as tests/fixtures/ gives it.
    pub(super) fn examples(root: &Path) -> String {
        let fixtures = root.join("tests/fixtures");
        let base = root.join("tests/packs/decision-log");
        let mut out = String::from(
            "Generated from tests/fixtures/ by `cargo test --lib report::rule_reference`; do not edit.\n",
        );
        for r in crate::rules::catalogue() {
            let Ok(entries) = std::fs::read_dir(fixtures.join(r.id)) else {
                continue;
            };
            let mut variants: Vec<String> = entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            variants.sort();
            for kind in ["bad", "good"] {
                let Some(v) = variants.iter().find(|v| v.starts_with(kind)) else {
                    continue;
                };
                let dir = fixtures.join(r.id).join(v);
                out.push_str(&format!("@@@ {} {v}\n", r.id));
                out.push_str(&change(&dir, &base));
                out.push_str(&command(&dir));
                let snap = std::fs::read_to_string(dir.join("text.snap")).unwrap_or_default();
                let body = snap.splitn(3, "---\n").nth(2).unwrap_or("");
                out.push_str(&cut(body.lines().map(str::to_string).collect()));
            }
        }
        out
    }

    /// The line before the output: the command, `check pack` for every variant but one that
    /// runs `ci` over a folder of packs (the registry's rules), which shows its own.
    fn command(dir: &Path) -> String {
        let args = std::fs::read_to_string(dir.join("args")).unwrap_or_default();
        match args.trim() {
            ci if ci.starts_with("ci ") => format!("--- hippo-packs {ci}\n"),
            _ => "--- hippo-packs check pack\n".to_string(),
        }
    }

    /// What the variant does to the page's good pack: its setup's lines (but the copy of the
    /// pack; a copy into a folder of packs is shown), or the lines of its `changes/` (the files
    /// its `setup.toml` lays over the good pack) or of its `pack/` that differ from the good
    /// pack's. A removed file is one its case does not need, not its change.
    fn change(dir: &Path, base: &Path) -> String {
        if let Ok(setup) = std::fs::read_to_string(dir.join("setup")) {
            let lines = setup
                .lines()
                .filter(|l| !l.starts_with("cp -r \"$BASE/") || l.contains(" packs/"))
                .filter(|l| !l.trim().is_empty())
                .map(|l| format!("$ {l}"))
                .collect();
            return cut(lines);
        }
        let mut lines = Vec::new();
        let pack = match dir.join("changes") {
            changes if changes.is_dir() => changes,
            _ => dir.join("pack"),
        };
        let mut files = Vec::new();
        walk(&pack, &pack, &mut files);
        files.sort();
        files.dedup();
        for f in files {
            // A file the variant's pack lacks is one its case does not need, not its change.
            if !pack.join(&f).is_file() {
                continue;
            }
            let (now, was) = (read(&pack.join(&f)), read(&base.join(&f)));
            if now == was {
                continue;
            }
            let d = similar::TextDiff::from_lines(&was, &now);
            lines.push(format!("{f}:"));
            for change in d.iter_all_changes() {
                let sign = match change.tag() {
                    similar::ChangeTag::Delete => "-",
                    similar::ChangeTag::Insert => "+",
                    similar::ChangeTag::Equal => continue,
                };
                let text = crate::core::escape::line(change.value().trim_end_matches('\n'));
                lines.push(format!("{sign} {text}"));
            }
        }
        cut(lines)
    }

    fn read(p: &Path) -> String {
        std::fs::read(p)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    }

    /// The files under `dir`, relative to `root`, without following links.
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.filter_map(Result::ok) {
            let p = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() => walk(root, &p, out),
                Ok(t) if t.is_file() => {
                    let rel = p.strip_prefix(root).unwrap_or(&p);
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
                _ => {}
            }
        }
    }

    /// At most [`MAX_LINES`] lines, each at most 100 characters, escaped, then `...`.
    fn cut(lines: Vec<String>) -> String {
        let mut out = String::new();
        for l in lines.iter().take(MAX_LINES) {
            let l = crate::core::escape::line(l);
            let short: String = l.chars().take(100).collect();
            out.push_str(&short);
            if short.len() < l.len() {
                out.push_str("...");
            }
            out.push('\n');
        }
        if lines.len() > MAX_LINES {
            out.push_str("...\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// examples.txt is what the fixtures give: a stale file fails, with the new text beside it.
    #[test]
    fn examples_txt_is_current() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let text = generate::examples(root);
        let rel = "src/report/rule_reference/examples.txt";
        if let Err(stale) = crate::core::reviewed::compare(rel, &text) {
            panic!("{stale}");
        }
    }

    #[test]
    fn a_rule_has_a_bad_and_a_good_example() {
        let shell = of("shell-text");
        assert_eq!(shell.len(), 2);
        assert!(shell[0].variant.starts_with("bad"));
        assert!(
            shell[0].text.contains("shell-shaped text"),
            "{}",
            shell[0].text
        );
        assert!(shell[1].variant.starts_with("good"));
        assert!(
            of("no-such-rule").is_empty(),
            "control: an unknown id has none"
        );
    }

    use std::path::Path;
}
