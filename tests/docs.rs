//! docs/rules.md is generated from the catalogue: this test fails when the file is stale, and
//! `UPDATE_DOCS=1 cargo test --test docs` rewrites it.

use hippo_packs::report::rules::markdown;

fn path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md")
}

/// The lines where `file` differs from the generator's output (empty: current).
fn stale_lines(file: &str, generated: &str) -> Vec<usize> {
    let (a, b): (Vec<_>, Vec<_>) = (file.lines().collect(), generated.lines().collect());
    let mut out: Vec<usize> = (0..a.len().max(b.len()))
        .filter(|&i| a.get(i) != b.get(i))
        .map(|i| i + 1)
        .collect();
    if out.is_empty() && file != generated {
        out.push(a.len()); // line endings or the final newline
    }
    out
}

#[test]
fn rules_md_is_current() {
    let generated = markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path(), &generated).unwrap();
    }
    let file = std::fs::read_to_string(path()).unwrap_or_default();
    let stale = stale_lines(&file, &generated);
    assert!(
        stale.is_empty(),
        "docs/rules.md is stale (first differing lines {:?}); run `UPDATE_DOCS=1 cargo test --test docs`",
        &stale[..stale.len().min(5)]
    );
}

#[test]
fn control_a_stale_file_is_caught() {
    let generated = markdown();
    let edited = generated.replacen("## ", "## x", 1);
    assert!(!stale_lines(&edited, &generated).is_empty());
    assert!(!stale_lines(generated.trim_end(), &generated).is_empty());
    assert!(stale_lines(&generated, &generated).is_empty());
}

/// What is missing of a rule's hops (`hippo-packs rules <id>`: code, docs anchor, fixture
/// folder) in the repository at `root`. The anchor is looked up in the generated text, which
/// `rules_md_is_current` holds equal to the file (so `UPDATE_DOCS=1` cannot race this test).
fn missing_hops(root: &std::path::Path, hops: &[(&str, String)]) -> Vec<String> {
    let generated = markdown();
    let mut missing = Vec::new();
    for (label, path) in hops {
        let found = match *label {
            "code" => root.join(path).is_file(),
            "docs" => path.split_once('#').is_some_and(|(file, anchor)| {
                root.join(file).is_file() && generated.contains(&format!("\n## {anchor}\n"))
            }),
            "fixtures" => root.join(path).is_dir(),
            _ => false,
        };
        if !found {
            missing.push(format!("{label}: {path}"));
        }
    }
    missing
}

#[test]
fn every_rule_leads_to_its_code_docs_and_fixtures() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for r in hippo_packs::rules::catalogue() {
        let hops = hippo_packs::report::rules::hops(r);
        assert_eq!(
            hops.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            ["code", "docs", "fixtures"]
        );
        assert_eq!(missing_hops(root, &hops), Vec::<String>::new(), "{}", r.id);
        // `hippo-packs rules <id>` prints each of them on its own line.
        let text = hippo_packs::report::rules::render(Some(r.id)).unwrap();
        for (label, path) in &hops {
            assert!(text.contains(&format!("\n{label}: {path}\n")), "{}", r.id);
        }
        assert!(hops[0].1.starts_with("src/"), "{}", hops[0].1);
    }
}

/// The lines of `text` that use `name` other than the line declaring the static itself.
fn uses_beyond_declaration(text: &str, name: &str) -> usize {
    let declaration = format!("static {name} ");
    text.lines()
        .filter(|l| l.contains(name) && !l.contains(&declaration))
        .count()
}

/// The file `hippo-packs rules <id>` names as the rule's code reports it: it uses the rule's
/// static beyond the declaration (a rule reported elsewhere says where with `reported_in`).
#[test]
fn every_rules_code_file_reports_it() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut wrong = Vec::new();
    for r in hippo_packs::rules::catalogue() {
        let text = std::fs::read_to_string(root.join(r.reporting_file())).unwrap_or_default();
        if uses_beyond_declaration(&text, r.static_name()) == 0 {
            wrong.push(format!(
                "{} ({}): {}",
                r.id,
                r.static_name(),
                r.reporting_file()
            ));
        }
    }
    assert_eq!(wrong, Vec::<String>::new());
}

/// Control: a file that only declares the static is caught, and one that uses it passes.
#[test]
fn control_a_file_that_only_declares_the_rule_is_caught() {
    let declared = "    pub static ENTRY_LIMIT = \"entry-limit\", Error, VeryHigh;\n";
    assert_eq!(uses_beyond_declaration(declared, "ENTRY_LIMIT"), 0);
    let used = format!("{declared}    Diagnostic::file(&ENTRY_LIMIT, path, msg)\n");
    assert_eq!(uses_beyond_declaration(&used, "ENTRY_LIMIT"), 1);
}

#[test]
fn control_a_rule_without_code_docs_or_fixtures_is_caught() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let r = hippo_packs::rules::catalogue()[0];
    let broken: Vec<(&str, String)> = hippo_packs::report::rules::hops(r)
        .into_iter()
        .map(|(l, p)| (l, p.replace(r.id, "no-such-rule").replace(".rs", ".rx")))
        .collect();
    assert_eq!(missing_hops(root, &broken).len(), 3, "{broken:?}");
}
