//! From a rule id to every part of it: its code, its section of docs/rules.md (which the unit
//! test `report::rules::tests::docs_rules_md_is_current` holds equal to the generator's text),
//! its fixtures, and the file that reports it.

/// What is missing of a rule's hops (`hippo-packs rules <id>`: code, docs anchor, fixture
/// folder) in the repository at `root`.
fn missing_hops(root: &std::path::Path, hops: &[(&str, String)]) -> Vec<String> {
    let mut missing = Vec::new();
    for (label, path) in hops {
        let found = match *label {
            "code" => root.join(path).is_file(),
            "docs" => path.split_once('#').is_some_and(|(file, anchor)| {
                std::fs::read_to_string(root.join(file))
                    .is_ok_and(|text| text.contains(&format!("\n## {anchor}\n")))
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
