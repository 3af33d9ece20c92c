//! The repository root (docs/action.md, "The repository root"): with the repository checked out
//! in a subfolder of the workspace (`actions/checkout` with `path: repo`), the pull request's
//! files, the SARIF URIs, the upload's commit and `.hippo-packs.toml` are taken from the folder
//! holding `.git`, or from `checkout-path`; a changed file the checkout lacks gates every pack.

use crate::common;

use common::ci_env::*;
use common::ci_run::{Ci, CiRun};
use common::github_api::{accepted, entries_json, processing};
use common::standin::{Reply, Request, Server};

/// The commit `repo/.git` has checked out.
const HEAD: &str = "89abcdef0123456789abcdef0123456789abcdef";

/// A workspace holding the repository in `repo/` (with a `.git` whose HEAD is [`HEAD`]): the
/// usual good and broken packs under `repo/packs`, and a README.
fn checkout_in_repo() -> tempfile::TempDir {
    let scene = workspace();
    let ws = tempfile::tempdir().unwrap();
    let repo = ws.path().join("repo");
    common::copy_tree(scene.path(), &repo);
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::write(repo.join(".git/HEAD"), format!("{HEAD}\n")).unwrap();
    ws
}

/// GitHub listing `files` (name, status, old name) for pull request #7 and taking the upload.
fn github(files: Vec<(&'static str, &'static str, Option<&'static str>)>) -> Server {
    Server::start(
        move |req: &Request, _| match (req.method.as_str(), req.path()) {
            ("GET", p) if p.ends_with("/pulls/7/files") => Reply::Json(200, entries_json(&files)),
            ("POST", p) if p.ends_with("/code-scanning/sarifs") => accepted(),
            ("GET", p) if p.contains("/code-scanning/sarifs/") => {
                Reply::Json(200, processing("complete"))
            }
            _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
        },
    )
}

/// A pull request changing `files` (every one a file of its own), looking under `repo/packs`.
fn pr_changing(server: &Server, files: usize) -> Ci {
    let mut ci = pull_request(&server.url, false, files as u64);
    ci.set("INPUT_PATH", "repo/packs")
        .set("INPUT_UPLOAD", "false");
    ci
}

fn modified(f: &'static str) -> Vec<(&'static str, &'static str, Option<&'static str>)> {
    vec![(f, "modified", None)]
}

#[test]
fn a_checkout_in_a_subfolder_gates_the_pack_the_pull_request_changes() {
    let ws = checkout_in_repo();
    let server = github(modified("packs/broken/pack.toml"));
    let r = pr_changing(&server, 1).run(ws.path());
    hygiene_in_repo(&r);
    assert_eq!(r.code, 1, "the changed broken pack gates: {r}");
    assert!(
        r.stdout
            .contains("hippo-packs: repository root: repo (the folder holding .git"),
        "{r}"
    );
    assert!(r.stdout.contains("changes 1 file, in 1 of 2 packs"), "{r}");
    // Control: a pull request changing only the good pack passes; not every pack gates.
    let server = github(modified("packs/good/README.md"));
    let r = pr_changing(&server, 1).run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert!(r.stdout.contains("changes 1 file, in 1 of 2 packs"), "{r}");
}

/// The usual checks of a run, with annotation paths named from the repository root.
fn hygiene_in_repo(r: &CiRun) {
    assert!(!r.all_text().contains(TOKEN), "the token leaked:\n{r}");
    for a in r.annotations() {
        if !a.contains("title=hippo-packs (") {
            assert!(a.contains(" file=packs/"), "{a}\n{r}");
        }
    }
}

/// Every `%SRCROOT%` URI of a SARIF file's results and artifacts.
fn uris(sarif: &[u8]) -> Vec<String> {
    let v = common::valid_sarif(sarif);
    let mut out = Vec::new();
    let run = &v["runs"][0];
    for r in run["results"].as_array().unwrap() {
        for l in r["locations"].as_array().into_iter().flatten() {
            let a = &l["physicalLocation"]["artifactLocation"];
            assert_eq!(a["uriBaseId"], "%SRCROOT%", "{a}");
            out.push(a["uri"].as_str().unwrap().to_string());
        }
    }
    assert!(!out.is_empty(), "the broken pack has findings");
    out
}

#[test]
fn sarif_uris_and_the_upload_start_at_the_repository_root() {
    let ws = checkout_in_repo();
    let server = github(Vec::new());
    let mut ci = push(&server.url);
    ci.set("INPUT_PATH", "repo/packs");
    let r = ci.run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    let repo = std::fs::canonicalize(ws.path().join("repo")).unwrap();
    for uri in uris(r.sarif.as_deref().expect("a SARIF file")) {
        assert!(uri.starts_with("packs/broken/"), "{uri}");
        assert!(repo.join(&uri).exists(), "{uri} resolves from the root");
        // Control: the same URI does not resolve from the workspace.
        assert!(!ws.path().join(&uri).exists(), "{uri}");
    }
    let uploads = server.uploads();
    assert_eq!(uploads.len(), 1, "{r}");
    let body = uploads[0].json();
    assert_eq!(
        body["checkout_uri"],
        format!("file://{}", repo.display()),
        "{r}"
    );
    assert_eq!(
        body["commit_sha"], HEAD,
        "the commit is the root's checkout"
    );
    let sent = common::github_api::decode_upload(&uploads[0]);
    assert_eq!(uris(&sent), uris(r.sarif.as_deref().unwrap()));
}

/// An allowance that matches no finding: the run warns about it when it reads the file.
const UNUSED: &str = r#"[[allow]]
rule = "injection-phrase"
path = "packs/none/*.md"
reason = "Nothing matches this."
"#;

#[test]
fn hippo_packs_toml_is_read_at_the_repository_root() {
    let ws = checkout_in_repo();
    let run = || {
        let mut ci = Ci::new();
        ci.args(&["--upload", "false", "--test", "false", "repo/packs"]);
        ci.run(ws.path())
    };
    std::fs::write(ws.path().join(".hippo-packs.toml"), UNUSED).unwrap();
    let r = run();
    assert!(
        !r.stdout.contains("matches nothing"),
        "control: the workspace's copy is not the repository's: {r}"
    );
    std::fs::write(ws.path().join("repo/.hippo-packs.toml"), UNUSED).unwrap();
    let r = run();
    assert!(
        r.stdout
            .contains(".hippo-packs.toml:1: [[allow]] matches nothing"),
        "{r}"
    );
}

/// The repository in `repo/` without a `.git` (a checkout made without git), and a pull request
/// changing the broken pack.
fn without_git() -> (tempfile::TempDir, Server) {
    let ws = checkout_in_repo();
    std::fs::remove_dir_all(ws.path().join("repo/.git")).unwrap();
    (ws, github(modified("packs/broken/pack.toml")))
}

#[test]
fn checkout_path_names_the_root_when_no_git_does() {
    let (ws, server) = without_git();
    let r = pr_changing(&server, 1).run(ws.path());
    assert_eq!(
        r.code, 0,
        "control: without a root the change matches no pack: {r}"
    );
    assert!(
        r.stdout
            .contains("no .git at or above repo/packs in the workspace")
            && r.stdout.contains("set checkout-path"),
        "the log says so: {r}"
    );
    let mut ci = pr_changing(&server, 1);
    ci.set("INPUT_CHECKOUT-PATH", "repo");
    let r = ci.run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    assert!(
        r.stdout.contains("repository root: repo (checkout-path)"),
        "{r}"
    );
    let mut ci = pr_changing(&server, 1);
    ci.args(&["--checkout-path", "repo"]);
    assert_eq!(ci.run(ws.path()).code, 1, "the flag too");
    // A checkout-path that does not hold the packs is a usage error.
    let mut ci = pr_changing(&server, 1);
    ci.set("INPUT_CHECKOUT-PATH", "repo/packs/good");
    let r = ci.run(ws.path());
    assert_eq!(r.code, 2, "{r}");
    assert!(r.stderr.contains("does not hold path"), "{r}");
}

#[test]
fn a_changed_file_the_checkout_lacks_gates_every_pack() {
    let ws = checkout_in_repo();
    let added = github(vec![("packs/good/prompts/new.md", "added", None)]);
    let r = pr_changing(&added, 1).run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    assert!(
        r.stdout.contains("::notice title=hippo-packs (scope)::pull request #7 changes packs/good/prompts/new.md, which the checkout lacks")
            && r.stdout.contains("; every pack gates"),
        "{r}"
    );
    assert!(
        r.summary.contains("which the checkout lacks"),
        "{}",
        r.summary
    );
    // Controls: a removed file, a rename's old name and a file outside `path` are not the
    // checkout's to hold.
    let gone = github(vec![
        ("packs/good/prompts/old.md", "removed", None),
        (
            "packs/good/README.md",
            "renamed",
            Some("packs/good/README.txt"),
        ),
        ("docs/elsewhere.md", "added", None),
    ]);
    let r = pr_changing(&gone, 3).run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert!(r.stdout.contains("changes 3 files, in 1 of 2 packs"), "{r}");
}

#[test]
fn a_submodule_s_new_commit_gates_the_packs_in_it() {
    // The packs are a checked-out submodule of the repository (actions/checkout with
    // `submodules: true`): its `.git` is a file naming the superproject's .git/modules/.
    let ws = workspace();
    std::fs::create_dir_all(ws.path().join(".git/modules/packs")).unwrap();
    std::fs::write(ws.path().join(".git/HEAD"), format!("{HEAD}\n")).unwrap();
    std::fs::write(
        ws.path().join("packs/.git"),
        "gitdir: ../.git/modules/packs\n",
    )
    .unwrap();
    let bump = github(modified("packs"));
    let mut ci = pr_changing(&bump, 1);
    ci.set("INPUT_PATH", "packs");
    let r = ci.run(ws.path());
    assert_eq!(
        r.code, 1,
        "the new commit of the submodule gates its packs: {r}"
    );
    assert!(r.stdout.contains("changes 1 file, in 2 of 2 packs"), "{r}");
    // Control: a pull request changing only the superproject's README gates no pack.
    let readme = github(modified("README.md"));
    let mut ci = pr_changing(&readme, 1);
    ci.set("INPUT_PATH", "packs");
    let r = ci.run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert!(r.stdout.contains("changes 1 file, in 0 of 2 packs"), "{r}");
}
