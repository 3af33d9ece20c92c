//! SARIF URIs from any command line (docs/output-formats.md): relative to the root of the
//! repository that holds the pack (found by walking up to `.git`), else to the working folder,
//! never with `..`; a pack outside both gets an absolute `file://` URI without a base id.
//! Results come errors first.

use crate::common;

use common::{copy_pack, run, valid_sarif};
use std::path::Path;

/// Every result's (uri, uriBaseId, level).
fn locations(sarif: &str) -> Vec<(String, Option<String>, String)> {
    let log = valid_sarif(sarif);
    log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let a = &r["locations"][0]["physicalLocation"]["artifactLocation"];
            (
                a["uri"].as_str().unwrap().to_string(),
                a["uriBaseId"].as_str().map(str::to_string),
                r["level"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// `T/repo` (with a `.git` folder) holding `packs/broken`, and `T/elsewhere`.
fn layout() -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(t.path()).unwrap();
    std::fs::create_dir_all(root.join("repo/.git")).unwrap();
    std::fs::create_dir_all(root.join("repo/packs")).unwrap();
    std::fs::create_dir_all(root.join("elsewhere")).unwrap();
    copy_pack("broken", &root.join("repo/packs"), "broken");
    (t, root)
}

fn sarif_of(cwd: &Path, dir: &str) -> Vec<(String, Option<String>, String)> {
    let (code, out, err) = run(cwd, &["check", dir, "--format", "sarif"]);
    assert_eq!(code, 1, "the broken pack has errors: {err}");
    locations(&out)
}

#[test]
fn an_absolute_path_from_another_folder_is_relative_to_the_repository() {
    let (_t, root) = layout();
    let abs = root.join("repo/packs/broken");
    let locs = sarif_of(&root.join("elsewhere"), abs.to_str().unwrap());
    assert!(!locs.is_empty());
    for (uri, base, _) in &locs {
        assert!(uri.starts_with("packs/broken/"), "{uri}");
        assert_eq!(base.as_deref(), Some("%SRCROOT%"));
    }
}

#[test]
fn dot_dot_from_inside_the_pack_never_writes_dot_dot() {
    let (_t, root) = layout();
    let locs = sarif_of(&root.join("repo/packs/broken/tests"), "..");
    for (uri, base, _) in &locs {
        assert!(
            uri.starts_with("packs/broken/") && !uri.contains(".."),
            "{uri}"
        );
        assert_eq!(base.as_deref(), Some("%SRCROOT%"));
    }
}

#[test]
fn a_pack_outside_any_repository_and_the_working_folder_is_a_file_uri() {
    let (_t, root) = layout();
    std::fs::remove_dir(root.join("repo/.git")).unwrap();
    let abs = root.join("repo/packs/broken");
    let locs = sarif_of(&root.join("elsewhere"), abs.to_str().unwrap());
    let prefix = format!("file://{}/", abs.to_str().unwrap());
    for (uri, base, _) in &locs {
        assert!(uri.starts_with(&prefix), "{uri}");
        assert_eq!(base, &None, "no base id beside an absolute URI");
    }
    // Control: from the repository folder, the same pack is relative again.
    let locs = sarif_of(&root.join("repo"), abs.to_str().unwrap());
    assert!(locs.iter().all(|(u, ..)| u.starts_with("packs/broken/")));
}

#[test]
fn results_come_errors_first() {
    let (_t, root) = layout();
    // A pack with warnings only, walked before the broken one (`a-warned` < `broken`): its
    // warnings would come first in walk order.
    copy_pack("decision-log", &root.join("repo/packs"), "a-warned");
    let prompt = root.join("repo/packs/a-warned/prompts/decision-log.md");
    let mut text = std::fs::read_to_string(&prompt).unwrap();
    text.push_str("\nhttp://example.com/x\n");
    std::fs::write(&prompt, text).unwrap();
    let (_, out, _) = run(
        &root.join("repo"),
        &[
            "check",
            "packs/a-warned",
            "packs/broken",
            "--format",
            "sarif",
        ],
    );
    let levels: Vec<String> = locations(&out).into_iter().map(|(.., l)| l).collect();
    assert!(levels.contains(&"error".to_string()), "{levels:?}");
    let first_warning = levels.iter().position(|l| l == "warning");
    let last_error = levels.iter().rposition(|l| l == "error").unwrap();
    let w = first_warning.expect("the walk-first pack has warnings");
    assert!(w > last_error, "a warning before an error: {levels:?}");
    // Control: the text output keeps walk order, so its first finding is a warning.
    let (_, text, _) = run(
        &root.join("repo"),
        &["check", "packs/a-warned", "packs/broken"],
    );
    assert!(text.starts_with("warning "), "{text}");
    let sorted = {
        let mut s = levels.clone();
        s.sort_by_key(|l| l != "error");
        s
    };
    assert_eq!(levels, sorted);
}
