//! From a rule id to every part of it: its code, its section of docs/rules.md (which the unit
//! test `report::rule_reference::tests::docs_rules_md_is_current` holds equal to the generator's text),
//! its fixtures, and the file that reports it.

use std::path::Path;

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
            // A fixture folder, or the test file a rule's declaration names (`cases = ...`).
            "fixtures" => {
                root.join(path).is_dir() || (path.ends_with(".rs") && root.join(path).is_file())
            }
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
        let hops = hippo_packs::report::rule_reference::hops(r);
        assert_eq!(
            hops.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            ["code", "docs", "fixtures"]
        );
        assert_eq!(missing_hops(root, &hops), Vec::<String>::new(), "{}", r.id);
        // `hippo-packs rules <id>` prints each of them on its own line.
        let text = hippo_packs::report::rule_reference::render(Some(r.id)).unwrap();
        for (label, path) in &hops {
            assert!(text.contains(&format!("\n{label}: {path}\n")), "{}", r.id);
        }
        assert!(hops[0].1.starts_with("src/"), "{}", hops[0].1);
    }
}

/// Whether `c` can be part of a Rust identifier.
fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The identifiers of a line, in order: the whole words a name is matched against, so
/// `PERSONA_REPLY` is not found inside `PERSONA_REPLY_CONTRACT`.
fn identifiers(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !is_ident(c)).filter(|w| !w.is_empty())
}

/// The lines of `text` that use the identifier `name` other than the line declaring the static
/// itself (`static NAME =`).
fn uses_beyond_declaration(text: &str, name: &str) -> usize {
    text.lines()
        .filter(|l| {
            let words: Vec<&str> = identifiers(l).collect();
            let declares = words.windows(2).any(|w| w == ["static", name]);
            words.contains(&name) && !declares
        })
        .count()
}

/// What a rule is made of (docs/architecture.md, "Adding a warning to an existing family"),
/// as the catalogue gives it.
struct Parts<'a> {
    id: &'a str,
    summary: &'a str,
    description: &'a str,
    help: &'a str,
    static_name: &'a str,
    reporting_file: &'a str,
    /// `tests/fixtures/<id>/`, or the test file holding the rule's cases.
    cases: String,
}

impl<'a> Parts<'a> {
    fn of(r: &'a hippo_packs::core::Rule) -> Self {
        Parts {
            id: r.id,
            summary: r.summary(),
            description: r.description(),
            help: r.help(),
            static_name: r.static_name(),
            reporting_file: r.reporting_file(),
            cases: r.cases(),
        }
    }
}

/// The variant folders of `tests/fixtures/<id>/` whose name starts with `prefix` and that hold
/// both reviewed snapshots (tests/fixtures.rs).
fn variants(root: &Path, id: &str, prefix: &str) -> usize {
    let Ok(entries) = std::fs::read_dir(root.join("tests/fixtures").join(id)) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
        .filter(|e| {
            ["text.snap", "json.snap"]
                .iter()
                .all(|s| e.path().join(s).is_file())
        })
        .count()
}

/// The rule ids a test named `test` is a `<prefix>` case of: each `<prefix>_<id>` (dashes as
/// underscores) its name holds as whole words (`_`-separated), the longest id of `ids` where
/// several start there, so `bad_persona_reply_contract` is a case of `persona-reply-contract`,
/// not of `persona-reply`, and `bad_version_unchanged_and_bad_version_lowered` of both.
fn cases_of<'a>(test: &str, prefix: &str, ids: &[&'a str]) -> Vec<&'a str> {
    let words: Vec<&str> = test.split('_').collect();
    (0..words.len())
        .filter(|&i| words[i] == prefix)
        .filter_map(|i| {
            let after = &words[i + 1..];
            ids.iter()
                .copied()
                .filter(|id| {
                    let id_words: Vec<&str> = id.split('-').collect();
                    after.starts_with(&id_words)
                })
                .max_by_key(|id| id.len())
        })
        .collect()
}

/// The tests of a test file that are a `<prefix>` case of the rule `id` among the rules `ids`
/// ([`cases_of`]): a rule whose cases need what the fixture harness cannot give (a pull
/// request's base, its changed files) has its `bad` and `good` cases there, named so.
fn tests_named(text: &str, prefix: &str, id: &str, ids: &[&str]) -> usize {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|w| w[0] == "#[test]")
        .filter_map(|w| w[1].strip_prefix("fn ").and_then(|f| identifiers(f).next()))
        .filter(|name| cases_of(name, prefix, ids).contains(&id))
        .count()
}

/// Every rule id of the catalogue.
fn rule_ids() -> Vec<&'static str> {
    hippo_packs::rules::catalogue()
        .iter()
        .map(|r| r.id)
        .collect()
}

/// Every part of a rule that is missing in the repository at `root`: the doc comment's three
/// texts, a `bad` and a `good` fixture with their snapshots, the section of docs/rules.md, and
/// the reporting file using the rule's static beyond its declaration.
fn missing_parts(root: &Path, p: &Parts) -> Vec<String> {
    let mut missing = Vec::new();
    for (part, text) in [
        ("summary", p.summary),
        ("what it checks", p.description),
        ("how to fix", p.help),
    ] {
        if text.trim().is_empty() {
            missing.push(format!("{}: the doc comment's {part}", p.id));
        }
    }
    let case_file = p
        .cases
        .ends_with(".rs")
        .then(|| std::fs::read_to_string(root.join(&p.cases)).unwrap_or_default());
    for prefix in ["bad", "good"] {
        if let Some(text) = &case_file {
            if tests_named(text, prefix, p.id, &rule_ids()) == 0 {
                missing.push(format!("{}: a {prefix}_ test in {}", p.id, p.cases));
            }
        } else if variants(root, p.id, prefix) == 0 {
            missing.push(format!(
                "{}: a tests/fixtures/{}/{prefix}* variant with text.snap and json.snap",
                p.id, p.id
            ));
        }
    }
    let rules_md = std::fs::read_to_string(root.join("docs/rules.md")).unwrap_or_default();
    if !rules_md.contains(&format!("\n## {}\n", p.id)) {
        missing.push(format!("{}: its section of docs/rules.md", p.id));
    }
    let code = std::fs::read_to_string(root.join(p.reporting_file)).unwrap_or_default();
    if uses_beyond_declaration(&code, p.static_name) == 0 {
        missing.push(format!(
            "{}: {} using {} beyond its declaration",
            p.id, p.reporting_file, p.static_name
        ));
    }
    missing
}

/// Every rule has every part; no rule is excepted.
#[test]
fn every_rule_has_every_part() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let missing: Vec<String> = hippo_packs::rules::catalogue()
        .iter()
        .flat_map(|r| missing_parts(root, &Parts::of(r)))
        .collect();
    assert_eq!(missing, Vec::<String>::new());
}

/// Control: a rule with no help text, no fixtures, no section and a reporting file that does not
/// use it misses each part; the same rule with its own parts misses none.
#[test]
fn control_a_rule_missing_any_part_is_caught() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let real = hippo_packs::rules::catalogue()[0];
    assert_eq!(missing_parts(root, &Parts::of(real)), Vec::<String>::new());
    let broken = Parts {
        id: "no-such-rule",
        help: " ",
        reporting_file: "src/rules/declare.rs",
        ..Parts::of(real)
    };
    let missing = missing_parts(root, &broken);
    assert_eq!(missing.len(), 5, "{missing:#?}");
    let no_summary = Parts {
        summary: "",
        description: "",
        ..Parts::of(real)
    };
    assert_eq!(missing_parts(root, &no_summary).len(), 2);
}

/// Control: a rule whose cases live in a test file needs a `bad_` and a `good_` test named
/// after it there; a test file without them, or a name that only comes close, is caught.
#[test]
fn control_a_rule_whose_cases_are_a_test_file_needs_both_tests() {
    let text = "#[test]\nfn bad_version_lowered_below_the_base() {}\n#[test]\nfn good_version_lowered_when_raised() {}\nfn bad_version_unchanged_helper() {}\n#[test]\nfn bad_version_lowereds() {}\n";
    let ids = ["version-lowered", "version-unchanged"];
    assert_eq!(tests_named(text, "bad", "version-lowered", &ids), 1);
    assert_eq!(tests_named(text, "good", "version-lowered", &ids), 1);
    assert_eq!(
        tests_named(text, "bad", "version-unchanged", &ids),
        0,
        "not a #[test]"
    );
    // A longer id's test is that rule's case, not the shorter id's; one test may be the case
    // of two rules; a prefix inside a word is no case.
    let text = "#[test]\nfn bad_persona_reply_contract_missing() {}\n#[test]\nfn notbad_persona_reply() {}\n";
    let ids = ["persona-reply", "persona-reply-contract"];
    assert_eq!(tests_named(text, "bad", "persona-reply", &ids), 0);
    assert_eq!(tests_named(text, "bad", "persona-reply-contract", &ids), 1);
    let both = "bad_version_unchanged_and_bad_version_lowered_against_the_base";
    let ids = ["version-unchanged", "version-lowered"];
    assert_eq!(cases_of(both, "bad", &ids), ids);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let real = hippo_packs::rules::catalogue()[0];
    let elsewhere = Parts {
        cases: "tests/it/docs.rs".to_string(),
        ..Parts::of(real)
    };
    assert_eq!(
        missing_parts(root, &elsewhere).len(),
        2,
        "no bad_ or good_ test in tests/it/docs.rs"
    );
}

/// Control: a file that only declares the static is caught, and one that uses it passes; a
/// longer name that starts with the static's is not a use of it.
#[test]
fn control_a_file_that_only_declares_the_rule_is_caught() {
    let declared = "    pub static ENTRY_LIMIT = \"entry-limit\", Error, VeryHigh;\n";
    assert_eq!(uses_beyond_declaration(declared, "ENTRY_LIMIT"), 0);
    let used = format!("{declared}    Diagnostic::file(&ENTRY_LIMIT, path, msg)\n");
    assert_eq!(uses_beyond_declaration(&used, "ENTRY_LIMIT"), 1);
    let longer = "    pub(crate) static PERSONA_REPLY = \"persona-reply\", Warning, High;\n    pub(crate) static PERSONA_REPLY_CONTRACT = \"persona-reply-contract\", Warning, High;\n    Diagnostic::file(&PERSONA_REPLY_CONTRACT, path, msg)\n    // PERSONA_REPLY_X and XPERSONA_REPLY\n";
    assert_eq!(uses_beyond_declaration(longer, "PERSONA_REPLY"), 0);
    assert_eq!(uses_beyond_declaration(longer, "PERSONA_REPLY_CONTRACT"), 1);
}

#[test]
fn control_a_rule_without_code_docs_or_fixtures_is_caught() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let r = hippo_packs::rules::catalogue()[0];
    let broken: Vec<(&str, String)> = hippo_packs::report::rule_reference::hops(r)
        .into_iter()
        .map(|(l, p)| (l, p.replace(r.id, "no-such-rule").replace(".rs", ".rx")))
        .collect();
    assert_eq!(missing_hops(root, &broken).len(), 3, "{broken:?}");
}

/// The shape of a rule's declaration, `static NAME = "id", Severity, Precision, rank = N` then
/// the optional `key = value`s, as `(id, rank)`; `None` when it has another shape.
fn declaration(line: &str) -> Option<(&str, u32)> {
    let (_, rest) = line.trim().split_once(" static ")?;
    let (_, fields) = rest.strip_suffix(';')?.split_once(" = ")?;
    let mut fields = fields_of(fields).into_iter();
    let id = fields.next()?.strip_prefix('"')?.strip_suffix('"')?;
    for _severity_and_precision in 0..2 {
        let word = fields.next()?;
        word.chars()
            .all(|c| c.is_ascii_alphanumeric())
            .then_some(())?;
    }
    let rank = fields.next()?.strip_prefix("rank = ")?.parse().ok()?;
    let optional = [
        "error_rank",
        "security_severity",
        "reported_in",
        "cases",
        "severity_by_place",
        "appendix",
    ];
    fields
        .all(|f| {
            f.split_once(" = ")
                .is_some_and(|(k, _)| optional.contains(&k))
        })
        .then_some((id, rank))
}

/// A declaration's fields: split at `, ` outside quoted strings.
fn fields_of(text: &str) -> Vec<&str> {
    let (mut fields, mut start, mut quoted) = (Vec::new(), 0, false);
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted && text[i..].starts_with(", ") => {
                fields.push(&text[start..i]);
                start = i + 2;
            }
            _ => {}
        }
    }
    fields.push(&text[start..]);
    fields
}

/// The declarations of `text` (a `static` whose value starts with a quoted id), each joined into
/// one line when it goes on over several, up to its `;`.
fn declaration_lines(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if !(l.trim_start().starts_with("pub") && l.contains(" static ") && l.contains(" = \"")) {
            continue;
        }
        let mut joined = l.trim_end().to_string();
        while !joined.ends_with(';') {
            match lines.next() {
                Some(more) => joined = format!("{joined} {}", more.trim()),
                None => break,
            }
        }
        found.push(joined);
    }
    found
}

/// The example declaration of docs/architecture.md's "Adding a warning to an existing family".
fn documented_declaration(architecture: &str) -> Option<String> {
    let section = architecture
        .split("## Adding a warning to an existing family")
        .nth(1)?;
    declaration_lines(section.split("\n## ").next()?)
        .into_iter()
        .next()
}

/// Every rule declaration of `src/rules/` has the shape the documented example has, and the
/// example's rank is one no rule holds.
#[test]
fn the_documented_declaration_is_the_one_the_rules_use() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let architecture = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let example = documented_declaration(&architecture).expect("the section's example");
    let (_, example_rank) = declaration(&example).expect("the example's shape");
    let mut ranks = Vec::new();
    for entry in std::fs::read_dir(root.join("src/rules")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if path.file_name().is_some_and(|n| n == "declare.rs") {
            continue; // the macro's own documentation and tests
        }
        for line in declaration_lines(&text) {
            let (id, rank) = declaration(&line)
                .unwrap_or_else(|| panic!("{}: {line} has another shape", path.display()));
            ranks.push((rank, id.to_string()));
        }
    }
    assert_eq!(ranks.len(), rule_ids().len(), "{ranks:?}");
    assert!(
        ranks.iter().all(|(r, _)| *r != example_rank),
        "rank {example_rank} is taken"
    );
}

/// Control: a declaration without its rank, or with a key the macro does not take, has another
/// shape; the documented one is found and read.
#[test]
fn control_a_declaration_of_another_shape_is_caught() {
    let ok = r#"    pub(crate) static X = "x-rule", Warning, High, rank = 385, cases = "t.rs";"#;
    assert_eq!(declaration(ok), Some(("x-rule", 385)));
    assert_eq!(
        declaration(r#"pub static X = "x-rule", Warning, High;"#),
        None
    );
    assert_eq!(
        declaration(r#"pub static X = "x-rule", Warning, High, rank = 1, colour = "red";"#),
        None
    );
    let doc = "## Adding a warning to an existing family\n\n   pub(crate) static P = \"p\", \
               Warning, High;\n\n## Next\n   pub static Q = \"q\", Error, High, rank = 1;\n";
    let found = documented_declaration(doc).unwrap();
    assert!(found.contains("\"p\""), "{found}");
    assert_eq!(declaration(&found), None);
    // A declaration over two lines is read whole; a comma inside a quoted value splits nothing.
    let two = "    pub(crate) static R = \"r\", Error, High, rank = 2,\n        \
               severity_by_place = \"error here, warning there\", appendix = f;\n";
    let joined = declaration_lines(two);
    assert_eq!(declaration(&joined[0]), Some(("r", 2)), "{joined:?}");
}
