//! CLI tests as data (trycmd): every `tests/cmd/*.trycmd` file is a terminal session — the
//! commands a pack author types and the exact output — run against the real binary. A case
//! with a `<name>.in/` folder runs there; one with a `<name>.out/` folder runs its commands in
//! one sandbox (a copy), so commands that write (`init`) can be followed by `check` and `test`.
//! `TRYCMD=overwrite cargo test --test it cli::` rewrites the expected output of tests/cmd (reviewed in
//! git's diff); docs/authoring.md is never rewritten (`the_authoring_walk_is_real`).

/// docs/authoring.md is a session too: its `console` blocks run in one sandbox (a copy of the
/// page beside an empty `.out/`), with `sed` for the edits an author makes by hand. The page is
/// never written: a differing output fails with trycmd's diff; with `TRYCMD=overwrite` trycmd
/// rewrites the copy, and a copy that differs from the page is written beside it as
/// `docs/authoring.md.new` and fails with the diff, to read and accept with `mv`
/// (docs/architecture.md, "Expected outputs are reviewed").
#[test]
fn the_authoring_walk_is_real() {
    let doc = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/authoring.md");
    let t = tempfile::tempdir().unwrap();
    let copy = t.path().join("authoring.md");
    std::fs::copy(&doc, &copy).unwrap();
    std::fs::create_dir_all(t.path().join("authoring.out")).unwrap();
    std::fs::write(t.path().join("authoring.out/.keep"), "").unwrap();
    std::fs::create_dir_all(t.path().join("authoring.in")).unwrap();
    std::fs::write(t.path().join("authoring.in/.keep"), "").unwrap();
    trycmd::TestCases::new()
        .default_bin_name("hippo-packs")
        .register_bin("sed", which("sed"))
        .register_bin("mv", which("mv"))
        .register_bin("git", which("git"))
        .env("NO_COLOR", "1")
        .case(&copy)
        .run();
    let rewritten = std::fs::read_to_string(&copy).unwrap();
    if let Err(e) = compare_with_page(&doc, &rewritten) {
        panic!("{e}");
    }
}

/// Compares the page at `doc` with `rewritten`, the text trycmd made of it; when they differ,
/// writes `rewritten` beside the page as `<page>.new` (never over the page) and returns the
/// unified diff with the command that accepts it.
fn compare_with_page(doc: &std::path::Path, rewritten: &str) -> Result<(), String> {
    let page = std::fs::read_to_string(doc).unwrap_or_default();
    if page == rewritten {
        return Ok(());
    }
    let name = doc.file_name().unwrap_or_default().to_string_lossy();
    let new = doc.with_file_name(format!("{name}.new"));
    std::fs::write(&new, rewritten).map_err(|e| format!("{}: {e}", new.display()))?;
    let diff = similar::TextDiff::from_lines(&page, rewritten)
        .unified_diff()
        .header(&name, &format!("{name}.new"))
        .to_string();
    Err(format!(
        "{} differs from the session's output:\n{diff}\nread it, then accept it: mv {} {}",
        doc.display(),
        new.display(),
        doc.display()
    ))
}

/// Control: a page that differs from its session's output fails with the diff and the new text
/// beside it, the page itself untouched; a page equal to it passes and writes nothing.
#[test]
fn control_a_stale_page_fails_with_a_diff_and_is_not_rewritten() {
    let d = tempfile::tempdir().unwrap();
    let doc = d.path().join("authoring.md");
    std::fs::write(&doc, "$ hippo-packs check pack\nok pack 1.0.0\n").unwrap();
    let stale = compare_with_page(&doc, "$ hippo-packs check pack\nok pack 1.0.1\n");
    let e = stale.expect_err("a differing page passed");
    assert!(e.contains("-ok pack 1.0.0\n+ok pack 1.0.1"), "{e}");
    assert_eq!(
        std::fs::read_to_string(&doc).unwrap(),
        "$ hippo-packs check pack\nok pack 1.0.0\n"
    );
    let new = d.path().join("authoring.md.new");
    assert_eq!(
        std::fs::read_to_string(&new).unwrap(),
        "$ hippo-packs check pack\nok pack 1.0.1\n"
    );
    std::fs::remove_file(&new).unwrap();
    let same = std::fs::read_to_string(&doc).unwrap();
    assert_eq!(compare_with_page(&doc, &same), Ok(()));
    assert!(!new.exists());
}

fn which(name: &str) -> std::path::PathBuf {
    ["/usr/bin", "/bin", "/usr/local/bin"]
        .iter()
        .map(|d| std::path::Path::new(d).join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| name.into())
}

#[test]
fn cli_sessions() {
    trycmd::TestCases::new()
        .default_bin_name("hippo-packs")
        .register_bin("git", which("git"))
        .register_bin("ln", which("ln"))
        .env("NO_COLOR", "1")
        .case("tests/cmd/*.trycmd");
}

/// Control: a session whose expected output is wrong fails.
#[test]
fn control_a_wrong_session_fails() {
    if std::env::var_os("TRYCMD").is_some() {
        println!(
            "SKIPPED control_a_wrong_session_fails: TRYCMD is set (overwrite mode passes all)"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("wrong.trycmd");
    std::fs::write(
        &case,
        "```console\n$ hippo-packs rules no-such-rule\n? 0\nnothing like this\n```\n",
    )
    .unwrap();
    let caught = std::panic::catch_unwind(|| {
        trycmd::TestCases::new()
            .default_bin_name("hippo-packs")
            .case(&case)
            .run();
    });
    assert!(caught.is_err(), "a wrong expected output must fail");
}

/// Colour in `--format full`: off when standard output is not a terminal, forced by
/// `CLICOLOR_FORCE` or `--color always`; `NO_COLOR` wins over `CLICOLOR_FORCE` (the NO_COLOR
/// convention), `--color` over both.
#[test]
fn colour_follows_the_environment_and_the_flag() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = |env: &[(&str, &str)], extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
            .args(["check", "examples/packs/broken", "--format", "full"])
            .args(extra)
            .current_dir(root)
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("CLICOLOR")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().contains("\u{1b}[")
    };
    assert!(!run(&[], &[]), "not a terminal: no colour");
    assert!(
        run(&[("CLICOLOR_FORCE", "1")], &[]),
        "CLICOLOR_FORCE forces it"
    );
    assert!(
        !run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], &[]),
        "NO_COLOR wins"
    );
    assert!(
        run(&[("NO_COLOR", "1")], &["--color", "always"]),
        "--color always"
    );
    assert!(
        !run(&[("CLICOLOR_FORCE", "1")], &["--color", "never"]),
        "--color never"
    );
}

/// The SARIF of the CLI sessions (`tests/cmd/*.trycmd`): trycmd compares it as text, with `...`
/// where it is long, so each session's `--format sarif` output and `--sarif` file is made again
/// in a copy of the session's folder and read by both readers.
#[test]
fn the_sarif_of_the_cli_sessions_is_read_by_both_readers() {
    let sessions = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cmd");
    let mut read = Vec::new();
    for entry in std::fs::read_dir(&sessions).unwrap() {
        let session = entry.unwrap().path();
        if session.extension() != Some("trycmd".as_ref()) {
            continue;
        }
        let text = std::fs::read_to_string(&session).unwrap();
        for line in text
            .lines()
            .filter_map(|l| l.strip_prefix("$ hippo-packs "))
        {
            let args: Vec<&str> = line.split_whitespace().collect();
            let printed = args.windows(2).any(|w| w == ["--format", "sarif"]);
            let file = args.windows(2).find(|w| w[0] == "--sarif").map(|w| w[1]);
            if !printed && file.is_none() {
                continue;
            }
            let tmp = tempfile::tempdir().unwrap();
            if session.with_extension("in").is_dir() {
                crate::common::copy_tree(&session.with_extension("in"), tmp.path());
            }
            let (_, out, _) = crate::common::run(tmp.path(), &args);
            let written = file.and_then(|f| std::fs::read(tmp.path().join(f)).ok());
            let logs = [printed.then(|| out.into_bytes()), written];
            for log in logs.into_iter().flatten() {
                let errors = crate::common::sarif_schema_errors(&log);
                assert!(
                    errors.is_empty(),
                    "{}: {line}: {errors:#?}",
                    session.display()
                );
                read.push(line.to_string());
            }
        }
    }
    // Control: the sessions known to print and to write one were found and read.
    for known in [
        "check pack --format sarif",
        "check pack --sarif new/folder/out.sarif",
    ] {
        assert!(
            read.iter().any(|l| l == known),
            "{known} not read: {read:?}"
        );
    }
}
