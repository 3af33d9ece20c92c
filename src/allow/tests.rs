use super::*;
use crate::rules::content::{INJECTION_PHRASE, SHELL_TEXT};

fn report(dir: &Path, diags: Vec<Diagnostic>) -> PackReport {
    PackReport {
        dir: dir.to_string_lossy().into_owned(),
        diagnostics: diags,
        ..PackReport::default()
    }
}

fn warning(rule: &'static crate::core::Rule, file: &str, msg: &str) -> Diagnostic {
    Diagnostic::file(rule, file, msg)
}

fn setup() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(t.path()).unwrap();
    std::fs::create_dir_all(base.join("packs/a/prompts")).unwrap();
    (t, base)
}

const FILE: &str = r#"
[[allow]]
rule = "injection-phrase"
path = "packs/*/prompts/*.md"
text = "ignore previous instructions"
reason = "the prompt quotes it as a thing to reject"

[[allow]]
rule = "url-outside-readme"
path = "packs/b/**"
reason = "stale"
"#;

#[test]
fn a_matching_warning_is_allowed_and_others_stay() {
    let (_t, base) = setup();
    let mut c = Config::parse(FILE, ".hippo-packs.toml", base.clone()).unwrap();
    let mut r = report(
        &base.join("packs/a"),
        vec![
            warning(
                &INJECTION_PHRASE,
                "prompts/x.md",
                "injection-shaped phrase \"Ignore previous instructions\"",
            ),
            warning(
                &INJECTION_PHRASE,
                "prompts/x.md",
                "injection-shaped phrase \"you are now\"",
            ),
            warning(&SHELL_TEXT, "prompts/x.md", "shell-shaped text \"curl \""),
        ],
    );
    c.apply(&mut r);
    assert_eq!(r.allowed.len(), 1);
    assert_eq!(
        r.allowed[0].reason,
        "the prompt quotes it as a thing to reject"
    );
    assert_eq!(r.warnings(), 2, "control: other text and rules stay");
    let unused = c.unused();
    assert_eq!(unused.len(), 1);
    assert_eq!(
        unused[0].text(""),
        ".hippo-packs.toml:8: [[allow]] matches nothing: rule url-outside-readme, path \"packs/b/**\""
    );
}

#[test]
fn errors_cannot_be_allowed_and_mistakes_are_named() {
    let base = PathBuf::from("/");
    let e = Config::parse(
        "[[allow]]\nrule = \"invisible-character\"\npath = \"*\"\nreason = \"x\"\n",
        "c.toml",
        base.clone(),
    )
    .unwrap_err();
    assert!(
        e.starts_with("c.toml:1: rule invisible-character is an error"),
        "{e}"
    );
    let e = Config::parse(
        "[[allow]]\nrule = \"injection-phrases\"\npath = \"*\"\nreason = \"x\"\n",
        "c.toml",
        base.clone(),
    )
    .unwrap_err();
    assert!(e.contains("did you mean `injection-phrase`?"), "{e}");
    let e = Config::parse(
        "[[allow]]\nrule = \"injection-phrase\"\npath = \"*\"\n",
        "c.toml",
        base.clone(),
    )
    .unwrap_err();
    assert!(e.contains("missing field `reason`"), "{e}");
    let e = Config::parse(
        "[[allow]]\nrule = \"injection-phrase\"\npath = \"*\"\nreason = \"x\"\nresaon = 1\n",
        "c.toml",
        base,
    )
    .unwrap_err();
    assert!(e.contains("unknown field `resaon`"), "{e}");
}

#[test]
fn an_error_finding_is_never_taken() {
    let (_t, base) = setup();
    let text = "[[allow]]\nrule = \"shell-text\"\npath = \"**\"\nreason = \"x\"\n";
    let mut c = Config::parse(text, "c.toml", base.clone()).unwrap();
    let d = warning(&SHELL_TEXT, "prompts/x.md", "shell-shaped text \"curl \"")
        .with_severity(Severity::Error);
    let mut r = report(&base.join("packs/a"), vec![d]);
    c.apply(&mut r);
    assert!(r.allowed.is_empty());
    assert_eq!(r.errors(), 1);
}

/// One `[[allow]]` entry of `shell-text` with the given path and text.
fn entry(path: &str, text: &str) -> String {
    format!("[[allow]]\nrule = \"shell-text\"\npath = '{path}'\ntext = '{text}'\nreason = \"x\"\n")
}

#[test]
fn a_glob_past_its_limit_is_a_one_line_error_not_a_panic() {
    let base = PathBuf::from("/");
    // 160,000 `?` once made globset panic while compiling the glob.
    let e = Config::parse(
        &entry(&"?".repeat(160_000), "curl "),
        "c.toml",
        base.clone(),
    )
    .unwrap_err();
    assert_eq!(e, "c.toml:1: path is 160000 bytes long; at most 1024");
    let e = Config::parse(&entry("*", &"x".repeat(5_000)), "c.toml", base.clone()).unwrap_err();
    assert_eq!(e, "c.toml:1: text is 5000 bytes long; at most 4096");
    // Control: the longest glob and text allowed are read, and the glob matches.
    let longest = "?".repeat(MAX_GLOB_BYTES);
    let c = Config::parse(
        &entry(&longest, &"x".repeat(MAX_TEXT_BYTES)),
        "c.toml",
        base,
    )
    .unwrap();
    assert!(c.allow[0].glob.is_match("a".repeat(MAX_GLOB_BYTES)));
    assert!(!c.allow[0].glob.is_match("a"));
}

#[test]
fn a_glob_that_does_not_compile_is_named_without_repeating_it() {
    let base = PathBuf::from("/");
    let e = Config::parse(&entry("a[\u{2028}", "curl "), "c.toml", base.clone()).unwrap_err();
    assert!(e.starts_with("c.toml:1: path: not a valid glob: "), "{e}");
    assert!(!e.contains('\u{2028}') && !e.contains('\n'), "{e:?}");
    let e = Config::parse(
        "[[allow]]\nrule = \"a\\nb\"\npath = \"*\"\nreason = \"x\"\n",
        "c.toml",
        base.clone(),
    )
    .unwrap_err();
    assert!(e.starts_with("c.toml:1: no rule named aU+000Ab;"), "{e}");
    // Control: a valid glob with the same text is read.
    assert!(Config::parse(&entry("a[b]", "curl "), "c.toml", base).is_ok());
}

#[test]
fn a_file_past_its_limits_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let big = t.path().join("big.toml");
    let mut text = entry("*", "curl ");
    text.push_str(&"#".repeat(MAX_FILE_BYTES as usize));
    std::fs::write(&big, text).unwrap();
    let e = Config::load(&big, "big.toml").unwrap_err();
    assert_eq!(
        e,
        format!("big.toml: over {MAX_FILE_BYTES} bytes; a configuration file is smaller")
    );
    let many = entry("*", "curl ").repeat(MAX_ENTRIES + 1);
    let e = Config::parse(&many, "c.toml", PathBuf::from("/")).unwrap_err();
    assert_eq!(
        e,
        format!(
            "c.toml: {} [[allow]] entries; at most {MAX_ENTRIES}",
            MAX_ENTRIES + 1
        )
    );
    // Control: a small file is read.
    let small = t.path().join("small.toml");
    std::fs::write(&small, entry("*", "curl ")).unwrap();
    assert_eq!(Config::load(&small, "small.toml").unwrap().allow.len(), 1);
}
