//! CLI tests as data (trycmd): every `tests/cmd/*.trycmd` file is a terminal session — the
//! commands a pack author types and the exact output — run against the real binary. A case
//! with a `<name>.in/` folder runs there; one with a `<name>.out/` folder runs its commands in
//! one sandbox (a copy), so commands that write (`init`) can be followed by `check` and `test`.
//! `TRYCMD=overwrite cargo test --test cli` rewrites the expected output.

#[test]
fn cli_sessions() {
    trycmd::TestCases::new()
        .default_bin_name("hippo-packs")
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
