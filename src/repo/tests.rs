use std::path::Path;
use std::process::Command;

use super::*;
use crate::pack::ONE_FILE_LIMIT;
use crate::repo::testing::git;

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A repository with three commits on `main`: `a`, `b` (changes `packs/p/x.md`), `c` (adds
/// `packs/q`); returns their names.
fn three_commits(dir: &Path) -> [String; 3] {
    git(dir, &["init", "-q", "."]);
    write(dir, "packs/p/pack.toml", "name = \"p\"\n");
    write(dir, "packs/p/x.md", "one\n");
    git(dir, &["add", "."]);
    git(dir, &["commit", "-qm", "a"]);
    let a = git(dir, &["rev-parse", "HEAD"]);
    write(dir, "packs/p/x.md", "two\n");
    git(dir, &["commit", "-qam", "b"]);
    let b = git(dir, &["rev-parse", "HEAD"]);
    write(dir, "packs/q/pack.toml", "name = \"q\"\n");
    git(dir, &["add", "."]);
    git(dir, &["commit", "-qm", "c"]);
    let c = git(dir, &["rev-parse", "HEAD"]);
    [a, b, c]
}

fn id(hex: &str) -> ObjectId {
    Repo::id(hex).unwrap()
}

#[test]
fn reads_a_file_as_a_commit_holds_it() {
    let t = tempfile::tempdir().unwrap();
    let [a, b, c] = three_commits(t.path());
    let repo = Repo::open(t.path()).unwrap();
    assert_eq!(repo.head(), Some(id(&c)));
    assert_eq!(
        repo.read(&id(&a), "packs/p/x.md", 100).as_deref(),
        Some(&b"one\n"[..])
    );
    assert_eq!(
        repo.read(&id(&b), "packs/p/x.md", 100).as_deref(),
        Some(&b"two\n"[..])
    );
    assert_eq!(repo.read(&id(&b), "packs/q/pack.toml", 100), None);
    assert_eq!(repo.read(&id(&c), "packs/p", 100), None, "a folder");
    assert_eq!(repo.read(&id(&c), "packs/p/x.md", 3), None, "over max");
    assert_eq!(repo.parents(&id(&b)), Some(vec![id(&a)]));
    assert_eq!(repo.merge_base(&id(&b), &id(&c)), Some(id(&b)));
}

#[test]
fn a_shallow_clone_holds_the_parents_names_but_not_the_parents() {
    let t = tempfile::tempdir().unwrap();
    let origin = t.path().join("origin");
    std::fs::create_dir(&origin).unwrap();
    let [a, b, c] = three_commits(&origin);
    let url = format!("file://{}", origin.display());
    for (depth, held) in [("1", false), ("2", true)] {
        let dir = t.path().join(depth);
        git(t.path(), &["clone", "-q", "--depth", depth, &url, depth]);
        let repo = Repo::open(&dir).unwrap();
        assert_eq!(repo.parents(&id(&c)), Some(vec![id(&b)]));
        assert_eq!(repo.has_commit(&id(&b)), held, "depth {depth}");
        assert_eq!(repo.read(&id(&b), "packs/p/x.md", 100).is_some(), held);
        assert!(!repo.has_commit(&id(&a)));
        assert_eq!(repo.merge_base(&id(&c), &id(&a)), None);
    }
}

#[test]
fn opens_a_repository_another_user_owns() {
    let t = tempfile::tempdir().unwrap();
    three_commits(t.path());
    let chown = Command::new("chown")
        .args(["-R", "54321:54321"])
        .arg(t.path())
        .status();
    if !chown.is_ok_and(|s| s.success()) {
        eprintln!("SKIP: cannot chown here (not root)");
        return;
    }
    // Control: git itself refuses this folder.
    let refused = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .current_dir(t.path())
        .output()
        .unwrap();
    assert!(!refused.status.success(), "git should refuse: {refused:?}");
    let repo = Repo::open(t.path()).unwrap();
    assert!(repo.head().is_some());
}

#[test]
fn extracts_folders_as_the_commit_holds_them() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    git(dir, &["init", "-q", "."]);
    write(dir, "packs/p/pack.toml", "name = \"p\"\n");
    write(dir, "packs/p/prompts/a.md", "hello\n");
    let big = "x".repeat(ONE_FILE_LIMIT as usize + 10);
    write(dir, "packs/p/big.md", &big);
    std::os::unix::fs::symlink("/etc/passwd", dir.join("packs/p/link")).unwrap();
    let deep = "packs/p/1/2/3/4/5/6/7/8.md";
    write(dir, deep, "deep\n");
    git(dir, &["add", "."]);
    git(dir, &["commit", "-qm", "a"]);
    let repo = Repo::open(dir).unwrap();
    let head = repo.head().unwrap();
    let rels = vec!["packs/p".to_string(), "packs/gone".to_string()];
    let x = repo.extract(&head, &rels).unwrap();
    assert_eq!(x.present, [true, false]);
    let p = x.path("packs/p");
    assert_eq!(std::fs::read(p.join("prompts/a.md")).unwrap(), b"hello\n");
    let meta = std::fs::symlink_metadata(p.join("link")).unwrap();
    assert!(meta.file_type().is_symlink());
    assert_eq!(
        std::fs::read_link(p.join("link")).unwrap(),
        Path::new("/etc/passwd")
    );
    let big_meta = std::fs::metadata(p.join("big.md")).unwrap();
    assert_eq!(big_meta.len(), big.len() as u64, "the size is the blob's");
    let head_bytes = std::fs::read(p.join("big.md")).unwrap();
    assert!(
        head_bytes[..ONE_FILE_LIMIT as usize + 1]
            .iter()
            .all(|b| *b == b'x')
    );
    assert!(
        p.join("1/2/3/4/5/6").is_dir(),
        "six folders down is written"
    );
    assert!(
        !p.join("1/2/3/4/5/6/7/8.md").exists(),
        "past the walk's depth"
    );
    assert!(!x.path("packs/gone").exists());
    // Control: a commit the repository lacks is an error, not an empty folder.
    let missing = Repo::id("1111111111111111111111111111111111111111").unwrap();
    assert!(repo.extract(&missing, &rels).is_err());
}

#[test]
fn a_name_that_leaves_its_folder_is_never_written() {
    assert!(extract::plain_name(b"a.md"));
    for bad in [&b""[..], b".", b"..", b"a/b", b"a\0"] {
        assert!(!extract::plain_name(bad), "{bad:?}");
    }
    let t = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/tmp", t.path().join("out")).unwrap();
    assert!(
        extract::make_dirs(t.path(), "out/x").is_none(),
        "a link is not entered"
    );
    assert!(extract::make_dirs(t.path(), "a/../b").is_none());
    assert!(extract::make_dirs(t.path(), "a/b").is_some());
}

#[test]
fn the_history_holds_the_versions_neither_end_holds() {
    let t = tempfile::tempdir().unwrap();
    let origin = t.path().join("origin");
    std::fs::create_dir(&origin).unwrap();
    let [a, _, _] = three_commits(&origin);
    // b wrote "two", c added packs/q: from a to c, "two" is a version neither end holds
    // only if c changed it again.
    write(&origin, "packs/p/x.md", "three\n");
    git(&origin, &["commit", "-qam", "d"]);
    let d = git(&origin, &["rev-parse", "HEAD"]);
    let repo = Repo::open(&origin).unwrap();
    let dirs = ["packs/p".to_string()];
    let History::Complete(added) = repo.history(&id(&a), &id(&d), &dirs) else {
        panic!("the full history is held");
    };
    let found: Vec<(String, Vec<u8>)> = added.into_iter().map(|x| (x.path, x.bytes)).collect();
    assert_eq!(found, [("packs/p/x.md".to_string(), b"two\n".to_vec())]);
    // Control: a clone of depth 2 holds d and c, not b: incomplete.
    let url = format!("file://{}", origin.display());
    git(t.path(), &["clone", "-q", "--depth", "2", &url, "two"]);
    let two = Repo::open(&t.path().join("two")).unwrap();
    match two.history(&id(&a), &id(&d), &dirs) {
        History::Incomplete(why) => assert!(why.contains("does not hold commit"), "{why}"),
        History::Complete(_) => panic!("b is not held"),
    }
}
