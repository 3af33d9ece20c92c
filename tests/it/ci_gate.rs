//! `hippo-packs ci`: which packs a pull request gates (scope), runs without GitHub, bad inputs,
//! hostile pack text and failing cases. The helpers are in tests/common/ci_env.rs and
//! ci_run.rs.

use crate::common;

use common::ci_env::*;
use common::github_api::*;
use common::standin::{Reply, Request, Server};
use std::process::Command;

#[test]
fn scope_changed_gates_only_the_packs_the_pull_request_touches() {
    let server = Server::start(github(&["packs/good/prompts/decision-log.md", "README.md"]));
    let ws = workspace();
    let r = pull_request(&server.url, false, 2).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 0, "only packs/good is gated:\n{r}");
    assert!(
        r.stdout.contains("error packs/broken/pack.toml"),
        "every pack is still reported:\n{r}"
    );
    assert_eq!(r.out("errors"), Some("1"), "and counted");
    let files: Vec<Request> = server
        .requests()
        .into_iter()
        .filter(|q| q.path() == "/repos/octo/packs/pulls/7/files")
        .collect();
    assert_eq!(files.len(), 1, "{r}");
    assert!(files[0].target.contains("per_page=100"));
    assert_eq!(server.uploads()[0].json()["ref"], "refs/pull/7/merge");
    assert!(
        r.summary.contains("| no |"),
        "the broken pack is not gated:\n{}",
        r.summary
    );
    assert!(r.summary.contains("✅ **Passed**"), "{}", r.summary);

    // scope: all on the same pull request gates the broken pack too.
    let mut env = pull_request(&server.url, false, 2);
    env.set("INPUT_SCOPE", "all");
    assert_eq!(env.run(ws.path()).code, 1, "a control: scope all fails");
}

#[test]
fn the_files_of_a_pull_request_are_read_page_by_page() {
    let server = Server::start(|req: &Request, _| {
        match (req.method.as_str(), req.path()) {
        ("GET", p) if p.ends_with("/files") && !req.target.contains("page=2") => Reply::JsonWith(
            200,
            files_json(&["packs/good/README.md"]),
            vec![(
                "link".into(),
                "<{base}/repos/octo/packs/pulls/7/files?per_page=100&page=2>; rel=\"next\", <{base}/repos/octo/packs/pulls/7/files?per_page=100&page=2>; rel=\"last\"".into(),
            )],
        ),
        ("GET", p) if p.ends_with("/files") => Reply::Json(200, files_json(&["packs/broken/README.md"])),
        ("POST", p) if p.ends_with("/sarifs") => accepted(),
        ("GET", p) if p.contains("/sarifs/") => Reply::Json(200, processing("complete")),
        _ => Reply::Json(404, "{}".into()),
    }
    });
    let ws = workspace();
    let r = pull_request(&server.url, false, 2).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "page 2 touches the broken pack:\n{r}");
    assert!(r.stdout.contains("changes 2 files, in 2 of 2 packs"), "{r}");
}

#[test]
fn a_fork_pull_request_works_with_a_read_only_token() {
    let server = Server::start(|req: &Request, _| match (req.method.as_str(), req.path()) {
        ("GET", p) if p.ends_with("/files") => {
            Reply::Json(200, files_json(&["packs/broken/pack.toml"]))
        }
        ("POST", _) => forbidden(),
        _ => Reply::Json(404, "{}".into()),
    });
    let ws = workspace();
    let r = pull_request(&server.url, true, 1).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "the fork touches the broken pack:\n{r}");
    let notices = r.upload_notices();
    assert_eq!(notices.len(), 1, "{r}");
    assert!(notices[0].starts_with("::notice "), "{r}");
    assert!(
        notices[0].contains("fork") && notices[0].contains("read-only"),
        "{r}"
    );
    assert!(
        notices[0].contains("`upload: false`")
            && notices[0].contains("`github/codeql-action/upload-sarif` in the same job"),
        "the notice names the route: {r}"
    );
    assert_eq!(server.uploads().len(), 1, "the upload is tried: {r}");
    assert_eq!(r.out("uploaded"), Some("false"));
    assert!(
        r.summary.contains("fork"),
        "the summary says why:\n{}",
        r.summary
    );
}

#[test]
fn an_unlistable_pull_request_gates_every_pack() {
    let server = Server::start(|req: &Request, _| match req.method.as_str() {
        "GET" => Reply::Json(401, r#"{"message": "Bad credentials"}"#.into()),
        _ => Reply::Json(403, "{}".into()),
    });
    let ws = workspace();
    let mut env = pull_request(&server.url, false, 1);
    env.set("INPUT_UPLOAD", "false");
    let r = env.run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "unknown changes gate everything:\n{r}");
    assert!(r.stdout.contains("::notice title=hippo-packs (scope)::cannot list the files of pull request #7: HTTP 401: Bad credentials; every pack gates"), "{r}");
    assert!(server.uploads().is_empty(), "upload: false uploads nothing");
    assert_eq!(r.out("uploaded"), Some("false"));
}

#[test]
fn no_pack_found_is_an_error() {
    let server = Server::start(github(&[]));
    let ws = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(ws.path().join("docs")).unwrap();
    std::fs::create_dir_all(ws.path().join(".git/x")).unwrap();
    std::fs::write(ws.path().join(".git/x/pack.toml"), "").unwrap();
    let r = push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "{r}");
    assert!(
        r.stdout
            .contains("::error title=hippo-packs (ci)::no pack found under ."),
        "{r}"
    );
    assert_eq!(r.out("packs"), Some("0"));
    assert!(
        server.requests().is_empty(),
        "nothing uploaded over existing alerts"
    );
    assert!(r.summary.contains("no pack found"), "{}", r.summary);
}

#[test]
fn without_github_it_runs_like_any_ci() {
    let ws = workspace();
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .env_clear()
        .current_dir(ws.path())
        .args([
            "ci",
            "packs",
            "--sarif-file",
            "x.sarif",
            "--fail-on",
            "never",
            "--test",
            "false",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        !stdout.contains("::"),
        "no workflow commands off GitHub:\n{stdout}"
    );
    assert!(stdout.contains("== packs/broken: 1 error =="), "{stdout}");
    common::valid_sarif(std::fs::read(ws.path().join("x.sarif")).unwrap());
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .env_clear()
        .current_dir(ws.path())
        .args(["ci", "packs", "--test", "false"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "a control: fail-on error fails");
}

#[test]
fn bad_inputs_and_unwritable_outputs() {
    let ws = workspace();
    let mut env = push("http://127.0.0.1:9");
    env.set("INPUT_FAIL-ON", "sometimes");
    let r = env.run(ws.path());
    assert_eq!(r.code, 2, "{r}");
    assert!(r.stderr.contains("INPUT_FAIL-ON"), "{r}");

    // An output file that cannot be written is an internal error.
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .env_clear()
        .current_dir(ws.path())
        .env("GITHUB_OUTPUT", ws.path().join("packs"))
        .args(["ci", "--upload", "false", "--test", "false"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn hostile_pack_text_cannot_forge_workflow_commands() {
    let server = Server::start(github(&[]));
    let ws = workspace();
    std::fs::write(ws.path().join("packs/broken/%0A::error::forged"), "x").unwrap();
    std::fs::write(ws.path().join("packs/broken/a\n::warning::forged"), "x").unwrap();
    let r = push(&server.url).run(ws.path());
    hygiene(&r);
    for l in r.stdout.lines() {
        assert!(
            !l.starts_with("::error::forged") && !l.starts_with("::warning::forged"),
            "{r}"
        );
    }
    assert!(!r.summary.contains("::error::forged"), "{}", r.summary);
}

#[test]
fn a_failing_case_fails_the_gate_and_is_reported_everywhere() {
    let server = Server::start(github(&[]));
    let ws = workspace();
    std::fs::remove_dir_all(ws.path().join("packs/broken")).unwrap();
    let case = ws.path().join("packs/good/tests/cache-store/case.toml");
    let text = std::fs::read_to_string(&case).unwrap();
    assert!(
        text.contains("\napplied = 1\n"),
        "the page's case expects one change"
    );
    std::fs::write(&case, text.replace("\napplied = 1\n", "\napplied = 0\n")).unwrap();
    let r = push(&server.url).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "{r}");
    assert!(
        r.stdout
            .contains("FAIL decision-log/cache-store: applied: expected 0, got 1"),
        "{r}"
    );
    assert_eq!(r.out("failed-cases"), Some("1"));
    assert_eq!(r.out("errors"), Some("0"));
    assert!(
        r.annotations().iter().any(|a| a
            .starts_with("::error file=packs/good/tests/cache-store/case.toml,line=")
            && a.contains("(test-expectation)::")),
        "{r}"
    );
    assert!(
        r.summary.contains("FAIL decision&#45;log/cache&#45;store")
            || r.summary.contains("FAIL decision-log/cache-store"),
        "{}",
        r.summary
    );
    let sarif = String::from_utf8(r.sarif.clone().unwrap()).unwrap();
    assert!(
        sarif.contains("\"test-expectation\""),
        "the failure is in the SARIF"
    );

    // test: false runs no case, so the same packs pass.
    let mut env = push(&server.url);
    env.set("INPUT_TEST", "false");
    let r = env.run(ws.path());
    assert_eq!(r.code, 0, "a control: without the cases nothing fails\n{r}");
    assert!(!r.stdout.contains("cache-store"), "{r}");
}
