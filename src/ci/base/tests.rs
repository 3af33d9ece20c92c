use std::path::Path;

use super::*;
use crate::repo::testing::git;

fn commit(dir: &Path, file: &str, text: &str) -> String {
    std::fs::write(dir.join(file), text).unwrap();
    git(dir, &["add", "."]);
    git(dir, &["commit", "-qm", file]);
    git(dir, &["rev-parse", "HEAD"])
}

/// The commits of a pull request: `a` on main, the pull request's `head` on `feature`, `b` on
/// main after it, and GitHub's test merge of `head` into `b` on `merge`.
struct Shas {
    a: String,
    head: String,
    b: String,
    merge: String,
}

fn origin(dir: &Path) -> Shas {
    git(dir, &["init", "-q", "."]);
    let a = commit(dir, "a.md", "a\n");
    git(dir, &["checkout", "-qb", "feature"]);
    let head = commit(dir, "p.md", "p\n");
    git(dir, &["checkout", "-q", "main"]);
    let b = commit(dir, "b.md", "b\n");
    git(dir, &["checkout", "-qb", "merge"]);
    git(dir, &["merge", "-q", "--no-ff", "-m", "merge", "feature"]);
    let merge = git(dir, &["rev-parse", "HEAD"]);
    git(dir, &["checkout", "-q", "main"]);
    Shas { a, head, b, merge }
}

/// A clone of `branch` at `depth` (`None`: full) under `t`, as `name`.
fn clone(t: &Path, branch: &str, depth: Option<&str>, name: &str) -> std::path::PathBuf {
    let url = format!("file://{}", t.join("origin").display());
    let mut args = vec!["clone", "-q", "--branch", branch];
    if let Some(d) = depth {
        args.extend(["--depth", d]);
    }
    args.extend([url.as_str(), name]);
    git(t, &args);
    t.join(name)
}

fn review(dir: &Path, name: &str, payload: &serde_json::Value) -> Review {
    let event = WorkflowEvent::parse(Some(name), Some(&payload.to_string()));
    find(&Given::default(), dir, &GithubEnv::default(), &event)
}

fn pr_payload(s: &Shas) -> serde_json::Value {
    serde_json::json!({"number": 7, "pull_request": {"number": 7,
        "head": {"sha": s.head}, "base": {"sha": s.b}, "merge_commit_sha": s.merge}})
}

fn base_of(r: Review) -> String {
    match r {
        Review::Base(b) => b.commit.to_string(),
        Review::NoBase(why) => format!("no base: {why}"),
        Review::Off => "off".to_string(),
    }
}

fn setup() -> (tempfile::TempDir, Shas) {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir(t.path().join("origin")).unwrap();
    let s = origin(&t.path().join("origin"));
    (t, s)
}

#[test]
fn a_merge_checkout_at_depth_2_has_its_first_parent_as_base() {
    let (t, s) = setup();
    let payload = pr_payload(&s);
    let two = clone(t.path(), "merge", Some("2"), "two");
    assert_eq!(base_of(review(&two, "pull_request", &payload)), s.b);
    let one = clone(t.path(), "merge", Some("1"), "one");
    let got = base_of(review(&one, "pull_request", &payload));
    assert!(got.contains("not its first parent"), "{got}");
    let why = super::no_base_notice("x");
    assert!(why.contains("fetch-depth: 2"), "{why}");
}

#[test]
fn a_head_checkout_uses_the_merge_base_when_the_history_holds_it() {
    let (t, s) = setup();
    let payload = pr_payload(&s);
    let full = clone(t.path(), "feature", None, "full");
    assert_eq!(base_of(review(&full, "pull_request", &payload)), s.a);
    let one = clone(t.path(), "feature", Some("1"), "one");
    let got = base_of(review(&one, "pull_request", &payload));
    assert!(got.contains("does not hold the history"), "{got}");
    // Control: a checkout of another commit is not taken for the pull request's head.
    let main = clone(t.path(), "main", None, "main");
    let got = base_of(review(&main, "pull_request", &payload));
    assert!(got.starts_with("no base: the checked-out commit"), "{got}");
}

#[test]
fn a_merge_group_has_its_base_sha_when_held() {
    let (t, s) = setup();
    let payload = serde_json::json!({"merge_group": {"base_sha": s.b, "head_sha": s.merge}});
    let two = clone(t.path(), "merge", Some("2"), "two");
    assert_eq!(base_of(review(&two, "merge_group", &payload)), s.b);
    let one = clone(t.path(), "merge", Some("1"), "one");
    let got = base_of(review(&one, "merge_group", &payload));
    assert!(
        got.contains("does not hold the merge group's base"),
        "{got}"
    );
}

#[test]
fn a_push_makes_no_review_and_a_base_reads_its_files() {
    let (t, s) = setup();
    let full = clone(t.path(), "merge", None, "full");
    let push = serde_json::json!({"ref": "refs/heads/main"});
    assert_eq!(base_of(review(&full, "push", &push)), "off");
    let Review::Base(base) = review(&full, "pull_request", &pr_payload(&s)) else {
        panic!("a base");
    };
    assert_eq!(base.read("b.md").as_deref(), Some(&b"b\n"[..]));
    assert_eq!(
        base.read("p.md"),
        None,
        "the pull request's file is not the base's"
    );
    assert_eq!(base.short().len(), 7);
    let x = base.extract(&[".".to_string()]).unwrap();
    assert!(x.path(".").join("a.md").is_file());
    assert!(!x.path(".").join("p.md").exists());
    let _ = s.a;
}
