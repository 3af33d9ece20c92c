//! Packs the gate must find and names it must refuse where they hide (docs/action.md, "Finds
//! the packs"): a link from the searched root to a folder above a pack outside it, or behind a
//! second link, a pack inside another pack's dot-folder or its `origin.json` folder, a manifest
//! named `Pack.toml`, a submodule that is not checked out (in every spelling of `.gitmodules`),
//! a folder name holding a bidi control. Each beside a control that shows the same workspace
//! without the trick.

use crate::common;

use common::ci_run::{Ci, CiRun};
use std::path::Path;

fn decision_log() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log")
}

fn good_pack(at: &Path) {
    common::copy_tree(&decision_log(), at);
}

/// A copy of the page's good pack with an unknown manifest key: an error whoever checks it.
fn broken_pack(at: &Path) {
    good_pack(at);
    let m = at.join("pack.toml");
    let text = std::fs::read_to_string(&m).unwrap() + "homepage = \"x\"\n";
    std::fs::write(m, text).unwrap();
}

/// `ci` over `path` in `ws`, with `scope: all`, no upload and no case run.
fn ci(ws: &Path, path: &str) -> CiRun {
    let mut ci = Ci::new();
    ci.set_all(&[("INPUT_SCOPE", "all"), ("INPUT_PATH", path)])
        .args(&["--upload", "false", "--test", "false"]);
    ci.run(ws)
}

fn failing(r: &CiRun, dir: &str) -> bool {
    r.stdout
        .lines()
        .any(|l| l.starts_with("hippo-packs: failing: ") && l.contains(dir))
}

/// `packs/good`, and `vendor/evil/inner` (a broken pack) outside `packs/`, reached by the link
/// `packs/more -> ../vendor/evil`: the link names a folder above the pack, not the pack.
fn linked_above_a_pack() -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    let w = ws.path();
    good_pack(&w.join("packs/good"));
    broken_pack(&w.join("vendor/evil/inner"));
    std::os::unix::fs::symlink("../vendor/evil", w.join("packs/more")).unwrap();
    ws
}

#[test]
fn a_link_to_a_folder_above_a_pack_outside_the_root_is_an_error() {
    let ws = linked_above_a_pack();
    let r = ci(ws.path(), "packs");
    assert_eq!(r.code, 1, "{r}");
    let errors = r.errors();
    assert!(
        errors.iter().any(|e| e.contains(
            "packs/more: a symbolic link to a folder outside the searched root that holds a pack.toml"
        )),
        "{r}"
    );
    // Control: the same link to a folder without a pack costs nothing.
    std::fs::remove_dir_all(ws.path().join("vendor/evil/inner")).unwrap();
    std::fs::create_dir_all(ws.path().join("vendor/evil/inner")).unwrap();
    let r = ci(ws.path(), "packs");
    assert_eq!(r.code, 0, "{r}");
    assert!(!r.all_text().contains("packs/more"), "{r}");
}

#[test]
fn a_link_inside_the_searched_root_is_fine_and_its_target_is_checked_where_it_is() {
    let ws = linked_above_a_pack();
    // Searching the whole workspace, vendor/evil/inner is found (and fails) where it stands;
    // the link that also reaches it is not an error.
    let r = ci(ws.path(), ".");
    assert_eq!(r.code, 1, "{r}");
    assert!(failing(&r, "vendor/evil/inner"), "{r}");
    assert!(!r.all_text().contains("packs/more"), "{r}");
    // docs/packs -> ../packs inside the root: still two packs, no error.
    let ws = tempfile::tempdir().unwrap();
    good_pack(&ws.path().join("packs/good"));
    std::fs::create_dir_all(ws.path().join("docs")).unwrap();
    std::os::unix::fs::symlink("../packs", ws.path().join("docs/packs")).unwrap();
    let r = ci(ws.path(), ".");
    assert_eq!((r.code, r.out("packs")), (0, Some("1")), "{r}");
}

#[test]
fn a_pack_inside_a_packs_dot_folder_is_found_and_checked() {
    let ws = tempfile::tempdir().unwrap();
    let w = ws.path();
    good_pack(&w.join("packs/good"));
    broken_pack(&w.join("packs/good/.evil/evil"));
    let r = ci(w, ".");
    assert_eq!((r.code, r.out("packs")), (1, Some("2")), "{r}");
    assert!(failing(&r, "packs/good/.evil/evil"), "{r}");
    assert!(
        r.stdout.contains("skipped packs/good/.evil"),
        "the outer pack still skips its dot-folder: {r}"
    );
    // Control: a pack.toml elsewhere inside a pack is that pack's unexpected file, not a pack.
    std::fs::rename(
        w.join("packs/good/.evil/evil"),
        w.join("packs/good/templates/evil"),
    )
    .unwrap();
    let r = ci(w, ".");
    assert_eq!((r.code, r.out("packs")), (1, Some("1")), "{r}");
    assert!(
        r.stdout
            .contains("unexpected file templates/evil/pack.toml"),
        "{r}"
    );
}

#[test]
fn a_pack_folder_named_with_a_bidi_control_is_an_error() {
    let ws = tempfile::tempdir().unwrap();
    let w = ws.path();
    good_pack(&w.join("packs/go\u{202E}od"));
    let r = ci(w, ".");
    assert_eq!(r.code, 1, "{r}");
    assert!(
        r.errors()
            .iter()
            .any(|e| e.contains("packs/goU+202Eod: the folder's name holds U+202E")),
        "{r}"
    );
    assert!(
        !r.all_text().contains('\u{202E}'),
        "the character itself is never printed: {r}"
    );
    // Control: names a pack's own rules would refuse are fine above a pack.
    let ws = tempfile::tempdir().unwrap();
    good_pack(&ws.path().join("_drafts/@team/good"));
    let r = ci(ws.path(), ".");
    assert_eq!((r.code, r.out("packs")), (0, Some("1")), "{r}");
}

/// A repository (`.git`) whose `.gitmodules` names `packs/sub`, beside `packs/good`.
fn with_submodule() -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    let w = ws.path();
    std::fs::create_dir_all(w.join(".git")).unwrap();
    good_pack(&w.join("packs/good"));
    std::fs::create_dir_all(w.join("packs/sub")).unwrap();
    std::fs::write(
        w.join(".gitmodules"),
        "[submodule \"sub\"]\n\tpath = packs/sub\n\turl = https://example.com/sub.git\n",
    )
    .unwrap();
    ws
}

#[test]
fn an_empty_submodule_folder_is_an_error_naming_it() {
    let ws = with_submodule();
    let r = ci(ws.path(), "packs");
    assert_eq!(r.code, 1, "{r}");
    assert!(
        r.errors()
            .iter()
            .any(|e| e.contains("packs/sub: a submodule (.gitmodules) that is not checked out")),
        "{r}"
    );
    // Control: checked out, its packs are found and checked like any other.
    let sub = ws.path().join("packs/sub");
    std::fs::write(sub.join(".git"), "gitdir: ../../.git/modules/sub\n").unwrap();
    broken_pack(&sub.join("p"));
    let r = ci(ws.path(), "packs");
    assert_eq!((r.code, r.out("packs")), (1, Some("2")), "{r}");
    assert!(failing(&r, "packs/sub/p"), "{r}");
    assert!(!r.all_text().contains("not checked out"), "{r}");
}

/// A job checking every pack finds the packs inside packs through each pack's own walk; a
/// shard's job lists the packs' folders first. Both find, check and print the same (the shard's
/// own line apart), down to the paths' prefixes when the run's only outer pack holds packs.
#[test]
fn a_shard_and_a_whole_job_find_the_same_packs_inside_packs() {
    let ws = tempfile::tempdir().unwrap();
    let w = ws.path();
    good_pack(&w.join("packs/good"));
    broken_pack(&w.join("packs/good/.evil/evil"));
    broken_pack(&w.join("packs/good/.evil/evil/.deeper/x"));
    std::fs::create_dir_all(w.join("packs/good/prompts/.empty")).unwrap();
    std::fs::create_dir_all(w.join("packs/good/.git/hooks/p")).unwrap();
    std::fs::write(w.join("packs/good/.git/hooks/p/pack.toml"), "").unwrap();
    let whole = ci(w, "packs");
    let mut sharded = Ci::new();
    sharded
        .set_all(&[
            ("INPUT_SCOPE", "all"),
            ("INPUT_PATH", "packs"),
            ("INPUT_SHARD", "1/1"),
        ])
        .args(&["--upload", "false", "--test", "false"]);
    let shard = sharded.run(w);
    assert!(shard.stdout.contains("hippo-packs: shard 1/1: "), "{shard}");
    assert_eq!((whole.code, whole.out("packs")), (1, Some("3")), "{whole}");
    assert!(
        failing(&whole, "packs/good/.evil/evil/.deeper/x"),
        "{whole}"
    );
    assert!(
        whole.stdout.contains("skipped packs/good/.evil\n"),
        "the outer pack's paths carry its folder, as in any run of several packs: {whole}"
    );
    let lines = |r: &CiRun| -> Vec<String> {
        r.stdout
            .lines()
            .filter(|l| !l.starts_with("hippo-packs: shard "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(lines(&whole), lines(&shard), "{whole}\n{shard}");
    assert_eq!(whole.out("errors"), shard.out("errors"));
}

#[test]
fn a_pack_in_a_folder_named_origin_json_at_a_packs_top_is_found() {
    let ws = tempfile::tempdir().unwrap();
    let w = ws.path();
    good_pack(&w.join("packs/good"));
    broken_pack(&w.join("packs/good/origin.json/evil"));
    let r = ci(w, ".");
    assert_eq!((r.code, r.out("packs")), (1, Some("2")), "{r}");
    assert!(failing(&r, "packs/good/origin.json/evil"), "{r}");
    // Control: the page's file by that name is skipped and holds no pack.
    std::fs::remove_dir_all(w.join("packs/good/origin.json")).unwrap();
    std::fs::write(w.join("packs/good/origin.json"), "{}\n").unwrap();
    let r = ci(w, ".");
    assert_eq!((r.code, r.out("packs")), (0, Some("1")), "{r}");
}

#[test]
fn a_manifest_named_in_another_case_is_a_pack_whose_check_names_the_file() {
    let ws = tempfile::tempdir().unwrap();
    let w = ws.path();
    good_pack(&w.join("packs/good"));
    good_pack(&w.join("packs/cased"));
    std::fs::rename(
        w.join("packs/cased/pack.toml"),
        w.join("packs/cased/Pack.toml"),
    )
    .unwrap();
    let r = ci(w, ".");
    assert_eq!((r.code, r.out("packs")), (1, Some("2")), "{r}");
    assert!(failing(&r, "packs/cased"), "{r}");
    assert!(
        r.errors()
            .iter()
            .any(|e| e.contains("unexpected file Pack.toml")),
        "{r}"
    );
    // Control: the same folder under any other name is no pack.
    std::fs::rename(
        w.join("packs/cased/Pack.toml"),
        w.join("packs/cased/Pack.toml.bak"),
    )
    .unwrap();
    let r = ci(w, ".");
    assert_eq!((r.code, r.out("packs")), (0, Some("1")), "{r}");
}

#[test]
fn a_pack_behind_two_links_is_an_error_at_the_first() {
    let ws = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let (w, o) = (ws.path(), outside.path());
    good_pack(&w.join("packs/good"));
    std::fs::create_dir_all(o.join("first")).unwrap();
    broken_pack(&o.join("second/evil"));
    std::os::unix::fs::symlink(o.join("second"), o.join("first/next")).unwrap();
    std::os::unix::fs::symlink(o.join("first"), w.join("packs/more")).unwrap();
    let r = ci(w, "packs");
    assert_eq!(r.code, 1, "{r}");
    assert!(
        r.errors().iter().any(|e| e.contains(
            "packs/more: a symbolic link to a folder outside the searched root that holds a pack.toml"
        )),
        "{r}"
    );
    // Control: the second link leads to no pack.
    std::fs::remove_dir_all(o.join("second/evil")).unwrap();
    let r = ci(w, "packs");
    assert_eq!((r.code, r.out("packs")), (0, Some("1")), "{r}");
}

/// 1,900 links into one deep folder outside the root: each of its folders is searched once,
/// so the run's one budget of 10,000 entries for link searches is not reached (searched once
/// per link, the 50 levels would cost it many times over).
#[test]
fn links_into_one_deep_folder_cost_one_search_of_it() {
    let ws = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let w = ws.path();
    good_pack(&w.join("packs/good"));
    let mut levels = vec![outside.path().join("deep")];
    for i in 1..50 {
        levels.push(levels[i - 1].join(format!("d{i}")));
    }
    std::fs::create_dir_all(levels.last().unwrap()).unwrap();
    for i in 0..200 {
        std::fs::write(levels[i % 50].join(format!("f{i}")), "").unwrap();
    }
    std::fs::create_dir_all(w.join("packs/links")).unwrap();
    for i in 0..1_900 {
        std::os::unix::fs::symlink(&levels[i % 50], w.join(format!("packs/links/l{i}"))).unwrap();
    }
    let r = ci(w, "packs");
    assert_eq!((r.code, r.out("packs")), (0, Some("1")), "{r}");
    assert!(!r.all_text().contains("symbolic link"), "{r}");
    // Control: a pack at the bottom makes every link that reaches it an error.
    broken_pack(&levels[49].join("evil"));
    let r = ci(w, "packs");
    assert_eq!(r.code, 1, "{r}");
    let linked = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("error packs/links/l") && l.contains("holds a pack.toml"))
        .count();
    assert_eq!(linked, 1_900, "{r}");
}

#[test]
fn gitmodules_is_read_in_every_spelling_git_accepts() {
    for (spelling, modules) in [
        (
            "a dotted subsection",
            "[submodule.evil]\n\tpath = packs/sub\n",
        ),
        (
            "the value on the header line",
            "[submodule \"evil\"] path = packs/sub\n",
        ),
        (
            "a continued value",
            "[submodule \"evil\"]\n\tpath = packs/\\\nsub\n",
        ),
    ] {
        let ws = with_submodule();
        std::fs::write(ws.path().join(".gitmodules"), modules).unwrap();
        let r = ci(ws.path(), "packs");
        assert_eq!(r.code, 1, "{spelling}: {r}");
        assert!(
            r.errors()
                .iter()
                .any(|e| e.contains("packs/sub: a submodule (.gitmodules) that is not checked out")),
            "{spelling}: {r}"
        );
    }
    // Control: an entry naming another folder leaves packs/sub a plain empty folder.
    let ws = with_submodule();
    std::fs::write(
        ws.path().join(".gitmodules"),
        "[submodule.evil]\n\tpath = packs/other\n",
    )
    .unwrap();
    let r = ci(ws.path(), "packs");
    assert_eq!(r.code, 0, "{r}");
}
