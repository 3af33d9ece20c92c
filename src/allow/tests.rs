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
