//! `hippo-packs ci` over a registry as a whole (docs/action.md, "The registry as a whole"): the
//! duplicate name on the pack a pull request touches, every name read under a shard, a
//! look-alike name allowed in `.hippo-packs.toml`, and the cases of the version rules, which
//! need what the fixture harness cannot give (a pull request's merge checkout, its base and its
//! changed files): `bad_version_*` and `good_version_*` (tests/it/docs.rs finds them by name, as
//! the rules' declarations say: `cases = "tests/it/ci_registry.rs"`). The name rules' own cases
//! are their fixtures (tests/fixtures/duplicate-name/, lookalike-name/).

use crate::common;

use common::ci_env::*;
use common::git_repo::git;
use common::github_api::*;
use common::standin::Server;
use std::path::Path;

/// A workspace of two copies of the page's good pack, `packs/a` and `packs/b`, with `packs/b`
/// named `b_name`.
fn registry(b_name: &str) -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    for p in ["packs/a", "packs/b"] {
        common::copy_tree(&good_pack(), &ws.path().join(p));
    }
    rename(ws.path(), "packs/b", b_name);
    std::fs::write(ws.path().join("README.md"), "# packs\n").unwrap();
    ws
}

fn rename(ws: &Path, pack: &str, name: &str) {
    let manifest = ws.join(pack).join("pack.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let text = text.replace("name = \"decision-log\"", &format!("name = \"{name}\""));
    std::fs::write(&manifest, text).unwrap();
}

#[test]
fn a_pull_request_adding_a_copy_at_an_earlier_path_fails_on_it() {
    // packs/a is the pull request's (touched), packs/b had the name first.
    let server = Server::start(github(&["packs/a/pack.toml"]));
    let ws = registry("decision-log");
    let r = pull_request(&server.url, false, 1).run(ws.path());
    hygiene(&r);
    assert_eq!(r.code, 1, "the touched copy is gated and fails:\n{r}");
    assert!(
        r.stdout
            .contains("packs/a/pack.toml: name decision-log is packs/b's too"),
        "{r}"
    );

    // Control: a pull request touching neither: the later by path is reported, and gates
    // nothing.
    let server = Server::start(github(&["README.md"]));
    let r = pull_request(&server.url, false, 1).run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert!(
        r.stdout
            .contains("packs/b/pack.toml: name decision-log is packs/a's too"),
        "{r}"
    );
}

#[test]
fn a_shard_reads_every_name() {
    // packs/a falls in shard 2 of 2, packs/b in shard 1 (the partition is a hash of the path).
    let server = Server::start(github(&[]));
    let ws = registry("decision-log");
    let shard = |i: &str| {
        let mut ci = push(&server.url);
        ci.set("INPUT_SHARD", i);
        ci.run(ws.path())
    };
    let (one, two) = (shard("1/2"), shard("2/2"));
    assert!(
        !one.stdout.contains("== packs/a"),
        "packs/a is not shard 1's:\n{one}"
    );
    assert_eq!(one.code, 1, "{one}");
    // The shard's one pack is shown as a run over one pack: its paths without a prefix.
    assert!(one.stdout.contains("::group::packs/b: 1 error"), "{one}");
    assert!(
        one.stdout
            .contains("error pack.toml: name decision-log is packs/a's too"),
        "{one}"
    );
    assert_eq!(
        two.code, 0,
        "control: the first holder's shard passes:\n{two}"
    );
    assert!(
        !two.stdout.contains("duplicate") && !two.stdout.contains("'s too"),
        "{two}"
    );
}

#[test]
fn a_lookalike_name_can_be_allowed() {
    let server = Server::start(github(&[]));
    let ws = registry("decisi0n-log");
    let mut ci = push(&server.url);
    ci.set("INPUT_FAIL-ON", "warning");
    let r = ci.run(ws.path());
    assert_eq!(
        r.code, 1,
        "control: the warning fails `fail-on: warning`:\n{r}"
    );
    assert!(
        r.stdout.contains(
            "name decisi0n-log looks like decision-log, the name of packs/a: the same name with look-alike characters"
        ),
        "{r}"
    );
    let allow = "[[allow]]\nrule = \"lookalike-name\"\npath = \"packs/b/pack.toml\"\nreason = \"The zero is the team's own spelling.\"\n";
    std::fs::write(ws.path().join(".hippo-packs.toml"), allow).unwrap();
    let r = ci.run(ws.path());
    assert_eq!(r.code, 0, "allowed:\n{r}");
    assert!(
        r.summary
            .contains(".hippo-packs.toml&#58; lookalike-name in packs/b/pack.toml"),
        "{}",
        r.summary
    );
}

fn set_version(ws: &Path, pack: &str, version: &str) {
    let manifest = ws.join(pack).join("pack.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let text = text.replace("version = \"1.0.0\"", &format!("version = \"{version}\""));
    std::fs::write(&manifest, text).unwrap();
}

/// A merge checkout of pull request #7, as `actions/checkout` with `fetch-depth: 2` leaves it:
/// the base holds `packs/a` and `packs/b` at 1.0.0; the pull request's head changes
/// `packs/a`'s prompt and `packs/b`'s tests, and gives them the versions `a` and `b`; `HEAD` is
/// GitHub's test merge of the head into the base. Returns the workspace and the run.
fn merge_checkout(a: &str, b: &str) -> (tempfile::TempDir, common::ci_run::Ci, Server) {
    let ws = registry("meeting-notes");
    let dir = ws.path();
    git(dir, &["init", "-q", "."]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "-qm", "base"]);
    git(dir, &["checkout", "-qb", "feature"]);
    let prompt = dir.join("packs/a/prompts/decision-log.md");
    let text = std::fs::read_to_string(&prompt).unwrap();
    std::fs::write(
        &prompt,
        text.replacen("\n", "\nSay when a decision is reversed.\n", 1),
    )
    .unwrap();
    std::fs::write(
        dir.join("packs/b/tests/cache-store/notes/Meeting notes.md"),
        "- more\n",
    )
    .unwrap();
    set_version(dir, "packs/a", a);
    set_version(dir, "packs/b", b);
    git(dir, &["commit", "-qam", "head"]);
    let head = git(dir, &["rev-parse", "HEAD"]);
    git(dir, &["checkout", "-q", "main"]);
    git(dir, &["checkout", "-qb", "merge"]);
    git(dir, &["merge", "-q", "--no-ff", "-m", "merge", "feature"]);
    let merge = git(dir, &["rev-parse", "HEAD"]);
    // The pull request's files, as GitHub lists them: what the merge changes of its base.
    let changed = git(dir, &["diff", "--name-only", "HEAD^1", "HEAD"]);
    let files: Vec<&'static str> = changed
        .lines()
        .map(|l| &*Box::leak(l.to_string().into_boxed_str()))
        .collect();
    let n = files.len() as u64;
    let server = Server::start(github(Box::leak(files.into_boxed_slice())));
    let mut event = pull_request_event("octo/packs", false, Some(n));
    event["pull_request"]["head"]["sha"] = head.as_str().into();
    event["pull_request"]["merge_commit_sha"] = merge.as_str().into();
    let mut ci = pull_request(&server.url, false, n);
    ci.set("GITHUB_SHA", &merge).event(&event.to_string());
    (ws, ci, server)
}

#[test]
fn bad_version_unchanged_and_bad_version_lowered_against_the_base() {
    let (ws, ci, _server) = merge_checkout("1.0.0", "0.9.0");
    let r = ci.run(ws.path());
    hygiene(&r);
    assert!(r.stdout.contains("hippo-packs: review: base "), "{r}");
    assert!(
        r.stdout.contains(
            "warning packs/a/pack.toml: version 1.0.0 is the base's, but prompts/decision-log.md changed"
        ),
        "{r}"
    );
    assert!(
        r.stdout
            .contains("error packs/b/pack.toml: version 0.9.0 is lower than the base's 1.0.0"),
        "{r}"
    );
    assert_eq!(r.code, 1, "{r}");
}

#[test]
fn good_version_unchanged_and_good_version_lowered_when_raised_or_tests_alone() {
    // packs/a raises its version; packs/b keeps its own, having changed only under tests/.
    let (ws, ci, _server) = merge_checkout("1.0.1", "1.0.0");
    let r = ci.run(ws.path());
    hygiene(&r);
    assert!(r.stdout.contains("hippo-packs: review: base "), "{r}");
    assert!(!r.stdout.contains("version 1."), "{r}");
    assert_eq!(r.code, 0, "{r}");
}
