//! What `ci` leaves in the workspace: files and folders with the workspace's owner (the
//! container runs as root; a self-hosted runner's next checkout must remove them), and the
//! notice when a run holds more results than code scanning stores.

use crate::common;

use common::ci_env::{good_workspace, workspace};
use common::ci_run::Ci;
use std::os::unix::fs::MetadataExt;

/// Whether this process is root (the container's user), read from a file it creates.
fn root() -> bool {
    let probe = tempfile::NamedTempFile::new().unwrap();
    probe.as_file().metadata().unwrap().uid() == 0
}

#[test]
#[ignore = "needs root (only root gives files another owner)"]
fn what_ci_creates_gets_the_workspace_owner_as_root() {
    assert!(root(), "needs root: only root gives files another owner");
    let ws = good_workspace();
    std::os::unix::fs::chown(ws.path(), Some(1001), Some(1001)).unwrap();
    let r = Ci::new()
        .set("INPUT_SARIF-FILE", ".hippo-packs/reports/hippo-packs.sarif")
        .run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    for made in [
        ".hippo-packs",
        ".hippo-packs/reports",
        ".hippo-packs/reports/hippo-packs.sarif",
    ] {
        let m = std::fs::symlink_metadata(ws.path().join(made)).unwrap();
        assert_eq!((m.uid(), m.gid()), (1001, 1001), "{made}\n{r}");
    }
    // Control: what was there before keeps its owner (root's pack folder).
    let m = std::fs::metadata(ws.path().join("packs/good")).unwrap();
    assert_eq!(m.uid(), 0, "only what ci creates changes owner");
}

/// `n` copies of the broken example (4 errors, 8 warnings) with a prompt of `lines` more
/// lines, each with an invisible character (one finding each).
fn noisy(ws: &std::path::Path, n: usize, lines: usize) {
    for i in 0..n {
        let pack = common::copy_pack("broken", &ws.join("packs"), &format!("b{i}"));
        common::name_pack(&pack, &format!("b{i}"));
        let prompt = pack.join("prompts/decision-log.md");
        let mut text = std::fs::read_to_string(&prompt).unwrap();
        let body = text.split_off(text.find("\n").unwrap() + 1);
        text.push_str(&"A word\u{2060}joiner.\n".repeat(lines));
        text.push_str(&body);
        std::fs::write(&prompt, text).unwrap();
    }
}

#[test]
fn above_five_thousand_results_a_notice_says_what_code_scanning_keeps() {
    let ws = tempfile::tempdir().unwrap();
    noisy(ws.path(), 3, 1700);
    let r = Ci::new().set("INPUT_TEST", "false").run(ws.path());
    let results = common::valid_sarif(r.sarif.as_ref().expect("a SARIF file"));
    let n = results["runs"][0]["results"].as_array().unwrap().len();
    assert!(n > 5_000, "{n} results");
    let notice = r
        .annotations()
        .into_iter()
        .find(|l| l.contains("title=hippo-packs (results)"))
        .unwrap_or_else(|| panic!("a notice:\n{}", r.stdout));
    assert!(
        notice.starts_with("::notice")
            && notice.contains(&format!("{n} results"))
            && notice.contains("top 5000")
            && notice.contains("shard"),
        "{notice}"
    );
    assert!(r.summary.contains("top 5000"), "the summary says it too");
    // Control: a run under 5,000 results says nothing of it.
    let r = Ci::new().set("INPUT_TEST", "false").run(workspace().path());
    assert!(!r.all_text().contains("top 5000"), "{r}");
}
