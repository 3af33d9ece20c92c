//! Nothing lands in the workspace by default (docs/action.md, "Where the report goes"): the
//! working folder and the default SARIF file are under `$HOME` (the runner's `/github/home`),
//! which a later step reads through the `sarif-file` output; a `sarif-file` under the workspace
//! or under `$HOME` is written, anywhere else or through a link it is refused before any work.
//! The container test (scripts/container-test.sh) runs the same in the image, where `HOME` is
//! `/github/home` and the output names the runner's path of it.

use crate::common;

use common::ci_env::{good_workspace, push};
use common::github_api::{accepted, processing};
use common::standin::{Reply, Request, Server};
use std::collections::BTreeSet;
use std::path::Path;

/// Every path under `dir`, links not followed.
fn tree(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            out.insert(p.strip_prefix(dir).unwrap().display().to_string());
            if e.file_type().unwrap().is_dir() {
                todo.push(p);
            }
        }
    }
    out
}

fn github() -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    |req, _| match (req.method.as_str(), req.path()) {
        ("POST", p) if p.ends_with("/code-scanning/sarifs") => accepted(),
        ("GET", p) if p.contains("/code-scanning/sarifs/") => {
            Reply::Json(200, processing("complete"))
        }
        ("GET", p) if p.ends_with("/code-scanning/alerts") => Reply::Json(200, "[]".into()),
        _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
    }
}

#[test]
fn by_default_the_workspace_is_left_as_it_was() {
    let gh = Server::start(github());
    let ws = good_workspace();
    let home = tempfile::tempdir().unwrap();
    let before = tree(ws.path());
    let mut ci = push(&gh.url);
    ci.set("INPUT_SARIF-FILE", "")
        .set("HOME", &home.path().display().to_string());
    let r = ci.run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(
        tree(ws.path()),
        before,
        "nothing added to the workspace: {r}"
    );
    let expected = home.path().join(".hippo-packs/hippo-packs.sarif");
    assert_eq!(
        r.out("sarif-file"),
        Some(expected.display().to_string().as_str()),
        "{r}"
    );
    let sarif = std::fs::read(&expected).expect("the SARIF under $HOME");
    assert_eq!(
        common::github_api::decode_upload(&gh.uploads()[0]),
        sarif,
        "the file is what went up"
    );
    // Control: a sarif-file in the workspace, as a workflow may still ask, lands there.
    let mut ci = push(&gh.url);
    ci.set("INPUT_SARIF-FILE", "reports/packs.sarif")
        .set("HOME", &home.path().display().to_string());
    let r = ci.run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert!(ws.path().join("reports/packs.sarif").is_file(), "{r}");
    assert_eq!(r.out("sarif-file"), Some("reports/packs.sarif"));
}

#[test]
fn a_sarif_file_under_home_is_written_and_elsewhere_refused() {
    let ws = good_workspace();
    let home = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let run = |file: &Path| {
        let mut ci = common::ci_run::Ci::new();
        ci.set("HOME", &home.path().display().to_string())
            .set("INPUT_SARIF-FILE", &file.display().to_string());
        ci.run(ws.path())
    };
    let under_home = home.path().join("reports/packs.sarif");
    let r = run(&under_home);
    assert_eq!(r.code, 0, "{r}");
    assert!(under_home.is_file(), "{r}");

    // Controls: outside both, and through a link under $HOME, are refused before any work.
    let r = run(&elsewhere.path().join("packs.sarif"));
    assert_eq!(r.code, 2, "{r}");
    assert!(
        r.errors()
            .concat()
            .contains("outside the workspace and $HOME"),
        "{r}"
    );
    std::os::unix::fs::symlink(elsewhere.path(), home.path().join("out")).unwrap();
    let r = run(&home.path().join("out/packs.sarif"));
    assert_eq!(r.code, 2, "{r}");
    assert!(r.errors().concat().contains("symbolic link"), "{r}");
    assert!(
        std::fs::read_dir(elsewhere.path())
            .unwrap()
            .next()
            .is_none(),
        "nothing written through the link"
    );
}
