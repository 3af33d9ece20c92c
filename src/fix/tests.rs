//! `fix` over packs on disk: the bytes written, a second run, the controls (tests/, a secret, a
//! link, a file changed meanwhile, an allowed warning).

use super::*;

const TOKEN: &str = "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";

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy(&e.path(), &dst);
        } else {
            std::fs::copy(e.path(), dst).unwrap();
        }
    }
}

/// The page's good pack with a broken prompt, a secret in the README, and the prompt's broken
/// lines again under tests/.
fn broken_pack() -> (tempfile::TempDir, String) {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("pack");
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log"),
        &dir,
    );
    let prompt = dir.join("prompts/decision-log.md");
    let text = std::fs::read_to_string(&prompt).unwrap();
    let cut = text.rfind("Respond with").unwrap();
    let body = text[..cut].replace("## Note\n", "## \u{200B}Note\n");
    std::fs::write(&prompt, format!("\u{FEFF}{}", body.replace('\n', "\r\n"))).unwrap();
    let readme = dir.join("README.md");
    let mut text = std::fs::read_to_string(&readme).unwrap();
    text.push_str(&format!("Token \u{200B}{TOKEN}\r\nnext\r\n"));
    std::fs::write(&readme, text).unwrap();
    std::fs::create_dir_all(dir.join("tests/cache-store/notes")).unwrap();
    std::fs::write(
        dir.join("tests/cache-store/notes/Decision log.md"),
        "\u{FEFF}# Decision log\r\n\r\n## \u{200B}Note\r\n",
    )
    .unwrap();
    (t, dir.display().to_string())
}

fn plan(dir: &str, config: Option<Config>) -> PackFixes {
    plan_dir(dir, String::new(), &Mutex::new(config))
}

#[test]
fn the_files_written_and_a_second_run_finds_nothing() {
    let (_t, dir) = broken_pack();
    let note = Path::new(&dir).join("tests/cache-store/notes/Decision log.md");
    let note_before = std::fs::read(&note).unwrap();
    let mut p = plan(&dir, None);
    let paths: Vec<&str> = p.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["README.md", "prompts/decision-log.md"]);
    write(&mut p);
    assert!(p.files.iter().all(|f| f.refused.is_none()));
    let prompt = std::fs::read_to_string(Path::new(&dir).join("prompts/decision-log.md")).unwrap();
    assert!(
        !prompt.contains(['\r', '\u{FEFF}', '\u{200B}']),
        "{prompt:?}"
    );
    assert!(crate::model::prompt::ends_with_closing_instruction(&prompt));
    // The secret's neighbours stay: the zero-width space before it, the CR after it. The next
    // line's CRLF is fixed.
    let readme = std::fs::read_to_string(Path::new(&dir).join("README.md")).unwrap();
    assert!(
        readme.ends_with(&format!("Token \u{200B}{TOKEN}\r\nnext\n")),
        "{readme:?}"
    );
    assert_eq!(
        std::fs::read(&note).unwrap(),
        note_before,
        "tests/ is never fixed"
    );
    assert!(
        plan(&dir, None).files.is_empty(),
        "a second run fixes nothing"
    );
}

#[test]
fn a_link_or_a_change_since_the_plan_is_refused() {
    let (t, dir) = broken_pack();
    let mut p = plan(&dir, None);
    let prompt = Path::new(&dir).join("prompts/decision-log.md");
    let outside = t.path().join("outside.md");
    std::fs::write(&outside, "precious\r\n").unwrap();
    std::fs::remove_file(&prompt).unwrap();
    std::os::unix::fs::symlink(&outside, &prompt).unwrap();
    let readme = Path::new(&dir).join("README.md");
    std::fs::write(&readme, "changed meanwhile\r\n").unwrap();
    write(&mut p);
    let refused: Vec<(&str, &str)> = p
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.refused.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(
        refused,
        [
            ("README.md", "it changed since it was read"),
            (
                "prompts/decision-log.md",
                "prompts/decision-log.md is a symbolic link; a link is never written through"
            )
        ]
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious\r\n");
    assert_eq!(
        std::fs::read_to_string(&readme).unwrap(),
        "changed meanwhile\r\n"
    );
}

#[test]
fn an_allowed_warning_is_not_fixed() {
    let (_t, dir) = broken_pack();
    let persona = Path::new(&dir).join("personas/decision-log-reviewer.md");
    let text = std::fs::read_to_string(&persona).unwrap();
    std::fs::write(&persona, text.replacen("reviewer", "re\u{AD}viewer", 1)).unwrap();
    let allowed = |p: &PackFixes| p.files.iter().any(|f| f.path.starts_with("personas/"));
    assert!(
        allowed(&plan(&dir, None)),
        "control: the soft hyphen is fixed"
    );
    let config = Config::parse(
        "[[allow]]\nrule = \"ignorable-character\"\npath = \"personas/*.md\"\nreason = \"German hyphenation.\"\n",
        "config.toml",
        std::fs::canonicalize(&dir).unwrap(),
    )
    .unwrap();
    assert!(!allowed(&plan(&dir, Some(config))));
}

#[test]
fn a_later_round_names_its_place_in_the_file_before_any_fix() {
    let (_t, dir) = broken_pack();
    let manifest = Path::new(&dir).join("pack.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let description = text.lines().find(|l| l.starts_with("description")).unwrap();
    // A byte-order mark, then curly quotes around a description with a space at its start: the
    // file parses only once the quotes are straight, so the description is a second round's.
    let broken = format!(
        "\u{FEFF}description = \u{201C} Logs.\u{201D}\n{}",
        text.replace(&format!("{description}\n"), "")
    );
    std::fs::write(&manifest, broken).unwrap();
    let p = plan(&dir, None);
    let file = p.files.iter().find(|f| f.path == "pack.toml").unwrap();
    let fixed: Vec<String> = file
        .fixed
        .iter()
        .map(|f| format!("{}:{}: {}", f.line, f.col, f.message))
        .collect();
    assert_eq!(
        fixed,
        [
            "1:1: removed the byte-order mark U+FEFF",
            "1:16: replaced U+201C LEFT DOUBLE QUOTATION MARK with \"",
            "1:23: replaced U+201D RIGHT DOUBLE QUOTATION MARK with \"",
            "1:17: removed the white space at the start of the description",
        ]
    );
    assert!(
        String::from_utf8(file.after.clone())
            .unwrap()
            .starts_with("description = \"Logs.\"\n")
    );
}
