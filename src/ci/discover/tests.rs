use super::*;

fn mk(root: &Path, dirs: &[&str], files: &[&str]) {
    for d in dirs {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    for f in files {
        std::fs::write(root.join(f), "").unwrap();
    }
}

#[test]
fn discovery_enters_packs_only_through_their_dot_folders_and_never_git() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    mk(
        root,
        &[
            "packs/b",
            "packs/a/tests/x/.inner/q",
            "packs/a/.evil/evil",
            "packs/a/assets/.x/p",
            ".hidden/p",
            "target/p",
            "node_modules/p",
            "other/deep/er",
            "empty",
            ".git/p",
        ],
        &[
            "packs/b/pack.toml",
            "packs/a/pack.toml",
            "packs/a/tests/x/pack.toml",
            "packs/a/tests/x/.inner/q/pack.toml",
            "packs/a/.evil/evil/pack.toml",
            "packs/a/assets/.x/p/pack.toml",
            ".hidden/p/pack.toml",
            "target/p/pack.toml",
            "node_modules/p/pack.toml",
            "other/deep/er/pack.toml",
            ".git/p/pack.toml",
        ],
    );
    let r = root.to_str().unwrap();
    let found = discover(r).unwrap();
    let want: Vec<String> = [
        ".hidden/p",
        "node_modules/p",
        "other/deep/er",
        "packs/a",
        "packs/a/.evil/evil",
        "packs/a/tests/x/.inner/q",
        "packs/b",
        "target/p",
    ]
    .iter()
    .map(|p| format!("{r}/{p}"))
    .collect();
    assert_eq!(
        found.packs, want,
        "every folder but .git; inside a pack only its dot-folders (tests/x/pack.toml is the \
         pack's unexpected file, assets/ a folder its walk never enters)"
    );
    assert!(found.blocked.is_empty());
    assert_eq!(
        discover(&format!("{r}/packs/b")).unwrap().packs,
        vec![format!("{r}/packs/b")]
    );
    assert_eq!(discover(&format!("{r}/empty")).unwrap(), Found::default());
    assert!(discover(&format!("{r}/nowhere")).is_err());
    assert_eq!(join_rel(".", &["a".into()]), "a");
    assert_eq!(join_rel("./", &["a".into()]), "a");
    assert_eq!(join_rel("x/", &["a".into()]), "x/a");
}

#[test]
fn folders_it_cannot_enter_are_named() {
    use std::os::unix::ffi::OsStrExt;
    let t = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let root = t.path();
    mk(root, &["real/p", "real/plain"], &["real/p/pack.toml"]);
    mk(outside.path(), &["far/p", "plain"], &["far/p/pack.toml"]);
    let link = |to: &Path, name: &str| std::os::unix::fs::symlink(to, root.join(name)).unwrap();
    link(&root.join("real/p"), "linked-inside");
    link(&root.join("real/plain"), "linked-plain");
    link(outside.path(), "linked-outside");
    link(&outside.path().join("plain"), "linked-outside-plain");
    let odd = root.join(std::ffi::OsStr::from_bytes(b"bad\xff"));
    std::fs::create_dir_all(odd.join("p")).unwrap();
    let deep: String = (0..MAX_DEPTH + 1).map(|i| format!("d{i}/")).collect();
    mk(
        root,
        &[&format!("{deep}p")],
        &[&format!("{deep}p/pack.toml")],
    );
    let r = root.to_str().unwrap();
    let found = discover(r).unwrap();
    assert_eq!(found.packs, vec![format!("{r}/real/p")]);
    let blocked: Vec<(String, Blocked)> = found
        .blocked
        .iter()
        .map(|(s, _, b)| (s.clone(), b.clone()))
        .collect();
    let too_deep: String = (0..=MAX_DEPTH)
        .map(|i| format!("d{i}"))
        .collect::<Vec<_>>()
        .join("/");
    assert_eq!(
        blocked,
        vec![
            (format!("{r}/bad\u{FFFD}"), Blocked::NotUtf8),
            (format!("{r}/{too_deep}"), Blocked::TooDeep),
            (format!("{r}/linked-outside"), Blocked::Link),
        ],
        "a link inside the root, or to a folder without a pack, costs nothing"
    );
    let link = &found.blocked[2].1;
    assert_eq!(
        entry_uri_base(link, Some(root)),
        "linked-outside",
        "the link, not its target"
    );
}
