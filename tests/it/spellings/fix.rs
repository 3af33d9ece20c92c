//! `check --fix` over every spelling of every payload (docs/fixes.md): nothing under `tests/`
//! changes, no finding appears that was not there before, a second run has nothing to fix, and
//! the raw zero-width spaces outside `tests/` are gone while the direction controls stay.

use super::*;

/// Every file under `root`, by path, with its bytes.
fn files(root: &Path) -> BTreeMap<std::path::PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            let t = e.file_type().unwrap();
            if t.is_dir() {
                stack.push(e.path());
            } else if t.is_file() {
                out.insert(e.path(), std::fs::read(e.path()).unwrap());
            }
        }
    }
    out
}

/// The cases whose payload's finding in their file is still reported after the fix.
fn still_reported<'c>(
    after: &BTreeMap<String, BTreeSet<(String, String, String)>>,
    cases: &'c [Case],
    payload: &str,
) -> Vec<&'c Case> {
    cases
        .iter()
        .filter(|c| c.payload == payload && c.want.is_some() && !c.target.starts_with("tests/"))
        .filter(|c| {
            after[&c.dir]
                .iter()
                .any(|(f, r, _)| f == c.target && r == c.rule)
        })
        .collect()
}

#[test]
fn fix_keeps_tests_adds_no_finding_and_has_nothing_left_to_do() {
    let d = tempfile::tempdir().unwrap();
    let cases = write_cases(d.path(), false);
    let mut dirs: Vec<&str> = cases.iter().map(|c| c.dir.as_str()).collect();
    dirs.dedup();
    let before_files = files(d.path());
    let before = findings(d.path(), &dirs);
    let mut args = vec!["check", "--fix"];
    args.extend(&dirs);
    let (code, _, err) = common::run(d.path(), &args);
    assert!(code == 0 || code == 1, "check --fix exited {code}: {err}");
    let fixed_lines = err.lines().filter(|l| l.starts_with("fixed ")).count();
    let after_files = files(d.path());
    let after = findings(d.path(), &dirs);
    let changed: Vec<_> = before_files
        .iter()
        .filter(|(p, b)| after_files.get(*p) != Some(*b))
        .map(|(p, _)| p.strip_prefix(d.path()).unwrap().display().to_string())
        .collect();
    assert!(
        !changed.is_empty() && fixed_lines >= changed.len(),
        "{fixed_lines} fixed lines, {} files changed",
        changed.len()
    );
    let in_tests: Vec<_> = changed.iter().filter(|p| p.contains("/tests/")).collect();
    assert!(in_tests.is_empty(), "fixed under tests/: {in_tests:?}");
    for (pack, set) in &after {
        let new: Vec<_> = set.difference(&before[pack]).collect();
        assert!(new.is_empty(), "{pack}: a fix made {new:?}");
    }
    // A raw zero-width space is fixed wherever it stands outside tests/; an escape or a
    // character reference of one, and every direction control, are left.
    let zwsp = still_reported(&after, &cases, "U+200B");
    eprintln!(
        "{fixed_lines} fixes in {} files; U+200B still reported in {} of {} cases",
        changed.len(),
        zwsp.len(),
        cases.iter().filter(|c| c.payload == "U+200B").count()
    );
    assert!(
        zwsp.iter()
            .all(|c| c.spelling.contains("escape") || c.spelling.contains("character reference")),
        "{:?}",
        zwsp.iter()
            .map(|c| (c.target, &c.spelling))
            .collect::<Vec<_>>()
    );
    assert!(zwsp.len() < cases.iter().filter(|c| c.payload == "U+200B").count());
    let rlo = still_reported(&after, &cases, "U+202E");
    let rlo_all = cases
        .iter()
        .filter(|c| c.payload == "U+202E" && c.want.is_some() && !c.target.starts_with("tests/"));
    assert_eq!(rlo.len(), rlo_all.count(), "control: U+202E is never fixed");
    let mut again = vec!["check", "--diff"];
    again.extend(&dirs);
    let (code, out, err) = common::run(d.path(), &again);
    assert_eq!(
        (code, out.as_str()),
        (0, ""),
        "a second run would fix: {err}"
    );
}
