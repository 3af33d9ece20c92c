//! Report files never follow a link a pull request planted. `check --sarif`,
//! `test --sarif`, `test --junit` replace a link at the destination; `ci` refuses a `sarif-file`
//! outside the workspace or through a link, before any work, with one `::error` and exit 2.

use crate::common;

use common::ci_run::{Ci, CiRun};
use std::os::unix::fs::symlink;
use std::path::Path;

fn victim(dir: &Path) -> std::path::PathBuf {
    let v = dir.join("victim");
    std::fs::write(&v, "precious\n").unwrap();
    v
}

#[test]
fn check_and_test_reports_replace_a_link_and_leave_its_target_alone() {
    let d = tempfile::tempdir().unwrap();
    let pack = common::copy_pack("decision-log", d.path(), "decision-log");
    let v = victim(d.path());
    let runs: [(&str, &[&str]); 3] = [
        ("check.sarif", &["check", "--sarif"]),
        ("test.sarif", &["test", "--sarif"]),
        ("test.xml", &["test", "--junit"]),
    ];
    for (name, args) in runs {
        let link = d.path().join(name);
        symlink(&v, &link).unwrap();
        let mut all: Vec<&str> = args.to_vec();
        let link_s = link.to_str().unwrap();
        all.push(link_s);
        all.push(pack.to_str().unwrap());
        let (code, out, err) = common::run(d.path(), &all);
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert_eq!(std::fs::read_to_string(&v).unwrap(), "precious\n", "{name}");
        let meta = std::fs::symlink_metadata(&link).unwrap();
        assert!(
            meta.is_file(),
            "{name}: the link was replaced by the report"
        );
        let report = std::fs::read_to_string(&link).unwrap();
        assert!(report.starts_with(['{', '<']));
        if name.ends_with(".sarif") {
            common::valid_sarif(&report);
        }
    }
    // Control: a writer that follows links would have changed the victim; this one reads it.
    std::fs::write(d.path().join("victim"), "changed").unwrap();
    assert_eq!(std::fs::read_to_string(&v).unwrap(), "changed");
}

/// `ci` in `ws` as the container runs it, writing `sarif_file`, uploading nothing.
fn ci(ws: &Path, sarif_file: &str) -> CiRun {
    Ci::new()
        .set("INPUT_SARIF-FILE", sarif_file)
        .args(&["--upload", "false", "--test", "false"])
        .run(ws)
}

#[test]
fn ci_refuses_a_sarif_file_through_a_link_or_outside_before_any_work() {
    let outside = tempfile::tempdir().unwrap();
    let v = victim(outside.path());
    let ws = tempfile::tempdir().unwrap();
    common::copy_pack("decision-log", ws.path(), "packs/good");
    symlink(&v, ws.path().join("hippo-packs.sarif")).unwrap();
    symlink(outside.path(), ws.path().join("reports")).unwrap();
    let outside_file = outside.path().join("x.sarif");
    for (file, says) in [
        ("hippo-packs.sarif", "symbolic link hippo-packs.sarif"),
        ("reports/victim", "symbolic link reports"),
        ("../escape.sarif", "outside the workspace"),
        (outside_file.to_str().unwrap(), "outside the workspace"),
    ] {
        let r = ci(ws.path(), file);
        assert_eq!(r.code, 2, "{file}: {r}");
        let errors = r.errors();
        assert_eq!(errors.len(), 1, "{file}: {r}");
        assert!(errors[0].contains(says), "{file}: {}", errors[0]);
        assert!(
            !r.stdout.contains("::group::"),
            "{file}: no pack was checked: {r}"
        );
        assert_eq!(std::fs::read_to_string(&v).unwrap(), "precious\n", "{file}");
    }
    assert!(!outside_file.exists());
    // Control: a plain path inside the workspace is written and the run passes.
    let r = ci(ws.path(), ".hippo-packs/out.sarif");
    assert_eq!(r.code, 0, "{r}");
    assert!(ws.path().join(".hippo-packs/out.sarif").is_file());
}

#[test]
fn ci_refuses_a_file_or_link_named_like_the_report_folder_by_name() {
    // A pull request adds a regular file `.hippo-packs` where a workflow's `sarif-file` puts its
    // folder: the folder cannot be made. Named as a usage error (exit 2), never "internal
    // error ... File exists".
    let outside = tempfile::tempdir().unwrap();
    for plant in ["file", "link"] {
        let ws = tempfile::tempdir().unwrap();
        common::copy_pack("decision-log", ws.path(), "packs/good");
        let at = ws.path().join(".hippo-packs");
        match plant {
            "file" => std::fs::write(&at, "not a folder").unwrap(),
            _ => symlink(outside.path(), &at).unwrap(),
        }
        let r = Ci::new()
            .args(&["--upload", "false", "--test", "false"])
            .args(&["--sarif-file", ".hippo-packs/hippo-packs.sarif"])
            .run(ws.path());
        assert_eq!(r.code, 2, "{plant}: {r}");
        let errors = r.errors();
        assert_eq!(errors.len(), 1, "{plant}: {r}");
        assert!(errors[0].contains(".hippo-packs"), "{plant}: {}", errors[0]);
        assert!(!r.stderr.contains("internal error"), "{plant}: {r}");
        assert!(
            !r.stdout.contains("::group::"),
            "{plant}: nothing checked: {r}"
        );
    }
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    // Control: the same workspace without the plant writes the default report.
    let ws = tempfile::tempdir().unwrap();
    common::copy_pack("decision-log", ws.path(), "packs/good");
    let r = Ci::new()
        .args(&["--upload", "false", "--test", "false"])
        .args(&["--sarif-file", ".hippo-packs/hippo-packs.sarif"])
        .run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert!(ws.path().join(".hippo-packs/hippo-packs.sarif").is_file());
}
