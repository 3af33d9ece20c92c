//! Packs the Action must not miss. Every folder holding a `pack.toml` is a pack,
//! at any depth down to 64 levels, except inside `.git`; a folder discovery cannot enter is an
//! error naming it, which under `scope: changed` gates when the pull request touches it; a
//! pull request that changes `.gitmodules` touches every folder it names.

use crate::common;

use common::ci_env::pull_request_event;
use common::ci_run::Ci;
use common::github_api::entries_json;
use common::standin::{Reply, Server};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// A broken copy of the page's good pack (an unknown manifest key).
fn broken_pack(at: &Path) {
    common::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log"),
        at,
    );
    let m = at.join("pack.toml");
    let text = std::fs::read_to_string(&m).unwrap() + "homepage = \"x\"\n";
    std::fs::write(m, text).unwrap();
}

fn good_pack(at: &Path) {
    common::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log"),
        at,
    );
}

/// A run with `scope: all` that uploads nothing and runs no case.
fn scope_all() -> Ci {
    let mut ci = Ci::new();
    ci.set("INPUT_SCOPE", "all")
        .args(&["--upload", "false", "--test", "false"]);
    ci
}

#[test]
fn scope_all_sees_the_packs_it_used_to_skip() {
    let ws = tempfile::tempdir().unwrap();
    let w = ws.path();
    good_pack(&w.join("packs/good"));
    for hidden in ["packs/target", "node_modules/x", ".config/p"] {
        broken_pack(&w.join(hidden));
    }
    let deep: String = (0..40).map(|i| format!("d{i}/")).collect();
    broken_pack(&w.join(format!("{deep}p")));
    // Inside .git nothing is a pack.
    broken_pack(&w.join(".git/p"));
    let r = scope_all().run(w);
    assert_eq!(r.code, 1, "{r}");
    assert_eq!(r.out("packs"), Some("5"), "{r}");
    for dir in ["packs/target", "node_modules/x", ".config/p", "d39/p"] {
        assert!(
            r.stdout
                .lines()
                .any(|l| l.starts_with("hippo-packs: failing: ") && l.contains(dir)),
            "{dir} fails the gate: {r}"
        );
    }
    assert!(!r.stdout.contains(".git/p"), "{r}");
}

/// A workspace with a good pack and three folders discovery cannot enter.
fn blocked_workspace() -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    let w = ws.path();
    good_pack(&w.join("packs/good"));
    let elsewhere = w.join("vendor/real");
    broken_pack(&elsewhere);
    std::fs::create_dir_all(w.join("packs")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, w.join("packs/linked")).unwrap();
    // Not a pack's link: costs nothing (a package manager's node_modules).
    std::fs::create_dir_all(w.join("lib")).unwrap();
    std::os::unix::fs::symlink(w.join("lib"), w.join("packs/lib-link")).unwrap();
    let odd = w
        .join("packs")
        .join(std::ffi::OsStr::from_bytes(b"odd\xff"));
    broken_pack(&odd.join("p"));
    let deep: String = (0..70).map(|i| format!("e{i}/")).collect();
    broken_pack(&w.join(format!("{deep}p")));
    // vendor/real is itself a pack; remove it from the search by hiding it under .git.
    std::fs::create_dir_all(w.join(".git")).unwrap();
    std::fs::rename(w.join("vendor"), w.join(".git/vendor")).unwrap();
    std::fs::remove_file(w.join("packs/linked")).unwrap();
    std::os::unix::fs::symlink(w.join(".git/vendor/real"), w.join("packs/linked")).unwrap();
    // What else a repository holds (a pull request may change it).
    std::fs::write(w.join("README.md"), "# packs\n").unwrap();
    ws
}

#[test]
fn folders_discovery_cannot_enter_are_errors_naming_them() {
    let ws = blocked_workspace();
    let r = scope_all().run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    let errors = r.errors();
    let want = [
        "packs/linked: a symbolic link to a folder outside the searched root that holds a pack.toml",
        "packs/odd\u{FFFD}: a folder whose name is not UTF-8",
        "/e63/e64: deeper than 64 levels",
    ];
    for w in want {
        assert!(errors.iter().any(|e| e.contains(w)), "{w}: {r}");
    }
    assert!(
        !r.stdout.contains("lib-link"),
        "a link to no pack is not reported: {r}"
    );
}

fn pr_event() -> String {
    pull_request_event("octo/packs", false, Some(1)).to_string()
}

fn files_server(file: &'static str) -> Server {
    Server::start(move |req, _| {
        if req.path().ends_with("/pulls/7/files") {
            Reply::Json(200, entries_json(&[(file, "added", None)]))
        } else {
            Reply::Json(404, "{}".into())
        }
    })
}

#[test]
fn under_scope_changed_a_blocked_folder_gates_when_touched() {
    let ws = blocked_workspace();
    let event = pr_event();
    for (file, code) in [
        ("packs/linked", 1),
        ("README.md", 0),
        ("packs/good/README.md", 0),
    ] {
        let server = files_server(file);
        let r = Ci::new()
            .set_all(&[
                ("GITHUB_EVENT_NAME", "pull_request"),
                ("GITHUB_REPOSITORY", "octo/packs"),
                ("INPUT_TOKEN", "ghs_test"),
            ])
            .api(&server.url)
            .event(&event)
            .args(&["--upload", "false", "--test", "false"])
            .run(ws.path());
        assert_eq!(r.code, code, "{file}: {r}");
    }
}

/// A repository whose `.gitmodules` names `packs/sub`, beside a good pack: the submodule not
/// checked out (an empty folder), or checked out holding a broken pack.
fn with_submodule(checked_out: bool) -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    let w = ws.path();
    std::fs::create_dir_all(w.join(".git")).unwrap();
    good_pack(&w.join("packs/good"));
    std::fs::create_dir_all(w.join("packs/sub")).unwrap();
    if checked_out {
        std::fs::write(w.join("packs/sub/.git"), "gitdir: ../../.git/modules/sub\n").unwrap();
        broken_pack(&w.join("packs/sub/p"));
    }
    std::fs::write(
        w.join(".gitmodules"),
        "[submodule.sub]\n\tpath = packs/sub\n\turl = https://example.com/sub.git\n",
    )
    .unwrap();
    std::fs::write(w.join("README.md"), "# packs\n").unwrap();
    ws
}

#[test]
fn a_pull_request_changing_gitmodules_gates_the_folders_it_names() {
    let event = pr_event();
    for (checked_out, file, code) in [
        (false, ".gitmodules", 1),
        (true, ".gitmodules", 1),
        // Controls: the same workspaces, the pull request touching only the README.
        (false, "README.md", 0),
        (true, "README.md", 0),
    ] {
        let ws = with_submodule(checked_out);
        let server = files_server(file);
        let r = Ci::new()
            .set_all(&[
                ("GITHUB_EVENT_NAME", "pull_request"),
                ("GITHUB_REPOSITORY", "octo/packs"),
                ("INPUT_TOKEN", "ghs_test"),
            ])
            .api(&server.url)
            .event(&event)
            .args(&["--upload", "false", "--test", "false"])
            .run(ws.path());
        assert_eq!(r.code, code, "checked out {checked_out}, {file}: {r}");
        if file == ".gitmodules" {
            assert!(
                r.stdout.contains(
                    "changes .gitmodules, so the 1 folder it names count as changed: packs/sub"
                ),
                "{r}"
            );
        }
    }
}
