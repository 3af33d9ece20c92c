use super::*;

use std::os::unix::fs::symlink;

/// A searched root `ws/packs` and a folder `out` outside it, in one temporary folder.
fn layout() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(t.path()).unwrap();
    let (root, out) = (base.join("ws/packs"), base.join("out"));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    (t, root, out)
}

fn touch(p: &Path) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, "").unwrap();
}

#[test]
fn a_pack_at_any_depth_or_in_any_case_is_found_and_git_is_not_searched() {
    let (_t, root, out) = layout();
    std::fs::create_dir_all(out.join("a/b/c")).unwrap();
    symlink(&out, root.join("l")).unwrap();
    assert_eq!(Links::new(&root).unwrap().judge(&root.join("l")), None);
    touch(&out.join(".git/x/pack.toml"));
    assert_eq!(
        Links::new(&root).unwrap().judge(&root.join("l")),
        None,
        "control: .git is not searched"
    );
    touch(&out.join("a/b/c/Pack.toml"));
    assert_eq!(
        Links::new(&root).unwrap().judge(&root.join("l")),
        Some(Blocked::Link),
        "Pack.toml is pack.toml on a case-insensitive disk"
    );
    // A link inside the root, or to an ancestor of the root (the root itself is not searched
    // again), costs nothing.
    std::fs::create_dir_all(root.join("real")).unwrap();
    symlink(root.join("real"), root.join("in")).unwrap();
    symlink(root.parent().unwrap(), root.join("up")).unwrap();
    touch(&root.join("p/pack.toml"));
    let mut links = Links::new(&root).unwrap();
    assert_eq!(links.judge(&root.join("in")), None);
    assert_eq!(links.judge(&root.join("up")), None);
}

#[test]
fn a_pack_behind_two_links_or_a_long_chain_is_found() {
    let (_t, root, out) = layout();
    std::fs::create_dir_all(out.join("first")).unwrap();
    touch(&out.join("second/p/pack.toml"));
    symlink(out.join("second"), out.join("first/next")).unwrap();
    symlink(out.join("first"), root.join("l")).unwrap();
    assert_eq!(
        Links::new(&root).unwrap().judge(&root.join("l")),
        Some(Blocked::Link),
        "the search of first/ follows the link it meets there"
    );
    // 60 hops, past the 40 the kernel follows in one lookup.
    let mut to = out.join("second");
    for i in 0..60 {
        let hop = out.join(format!("hop{i}"));
        symlink(&to, &hop).unwrap();
        to = hop;
    }
    symlink(&to, root.join("chain")).unwrap();
    assert!(
        std::fs::canonicalize(root.join("chain")).is_err(),
        "control: one lookup gives up on the chain"
    );
    assert_eq!(
        Links::new(&root).unwrap().judge(&root.join("chain")),
        Some(Blocked::Link)
    );
    // A loop of links dangles.
    symlink(out.join("loop-b"), out.join("loop-a")).unwrap();
    symlink(out.join("loop-a"), out.join("loop-b")).unwrap();
    symlink(out.join("loop-a"), root.join("loop")).unwrap();
    assert_eq!(Links::new(&root).unwrap().judge(&root.join("loop")), None);
}

#[test]
fn folders_that_reach_each_other_share_the_answer() {
    let (_t, root, out) = layout();
    // a/ holds a link back up to out/, listed before the pack in out/z/: whichever link is
    // judged first, each reaches the pack.
    std::fs::create_dir_all(out.join("a")).unwrap();
    symlink(&out, out.join("a/up")).unwrap();
    touch(&out.join("z/pack.toml"));
    symlink(out.join("a"), root.join("to-a")).unwrap();
    symlink(&out, root.join("to-out")).unwrap();
    let mut links = Links::new(&root).unwrap();
    assert_eq!(links.judge(&root.join("to-out")), Some(Blocked::Link));
    assert_eq!(links.judge(&root.join("to-a")), Some(Blocked::Link));
    let mut links = Links::new(&root).unwrap();
    assert_eq!(links.judge(&root.join("to-a")), Some(Blocked::Link));
    assert_eq!(links.judge(&root.join("to-out")), Some(Blocked::Link));
    // Control: without the pack, neither reaches one.
    std::fs::remove_file(out.join("z/pack.toml")).unwrap();
    let mut links = Links::new(&root).unwrap();
    assert_eq!(links.judge(&root.join("to-a")), None);
    assert_eq!(links.judge(&root.join("to-out")), None);
}

#[test]
fn links_into_one_deep_folder_search_each_folder_once() {
    let (_t, root, out) = layout();
    // One deep folder, 50 levels, and 1,900 links to its levels from the root.
    let mut levels = vec![out.join("deep")];
    for i in 1..50 {
        levels.push(levels[i - 1].join("d"));
    }
    std::fs::create_dir_all(levels.last().unwrap()).unwrap();
    for i in 0..1_900 {
        symlink(&levels[i % levels.len()], root.join(format!("l{i}"))).unwrap();
    }
    let mut links = Links::new(&root).unwrap();
    for i in (0..1_900).rev() {
        assert_eq!(links.judge(&root.join(format!("l{i}"))), None, "l{i}");
    }
    assert_eq!(
        links.listed(),
        levels.len(),
        "each of the 50 folders is listed once, not once per link that reaches it"
    );
    assert!(links.spent < SEARCH_LIMIT);
}

#[test]
fn one_budget_covers_every_link_search_of_the_run() {
    let (_t, root, out) = layout();
    for side in ["a", "b"] {
        std::fs::create_dir_all(out.join(side)).unwrap();
        for i in 0..SEARCH_LIMIT * 2 / 3 {
            std::fs::write(out.join(format!("{side}/f{i}")), "").unwrap();
        }
        symlink(out.join(side), root.join(side)).unwrap();
    }
    let mut links = Links::new(&root).unwrap();
    assert_eq!(links.judge(&root.join("a")), None, "control: one fits");
    assert_eq!(
        links.judge(&root.join("b")),
        Some(Blocked::LinkTooLarge),
        "the second search spends what the first left"
    );
    assert_eq!(
        links.judge(&root.join("a")),
        None,
        "a folder already searched keeps its answer"
    );
}
