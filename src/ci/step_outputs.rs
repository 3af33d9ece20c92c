//! The step's outputs (docs/action.md, "Inputs and outputs"): the verdict, the gated packs that
//! fail, the check run's page, the SARIF file as a later step sees it, and the counts, written
//! to `$GITHUB_OUTPUT` in the runner's delimiter form.

use std::path::Path;

use super::context::RunContext;
use super::sarif_path;
use crate::github::outputs;
use crate::outcome::PackReport;

/// What a run hands its outputs.
pub(crate) struct Written<'a> {
    pub(crate) reports: &'a [PackReport],
    /// The gated packs that fail.
    pub(crate) failing: &'a [&'a PackReport],
    pub(crate) failed: bool,
    pub(crate) uploaded: bool,
    pub(crate) sarif_id: Option<&'a str>,
    pub(crate) check_run_url: Option<&'a str>,
}

/// `pass` or `fail`.
fn verdict(failed: bool) -> &'static str {
    if failed { "fail" } else { "pass" }
}

/// The failing packs as a JSON list of their paths from the repository root (`.` for a pack
/// at the root). A control, invisible or bidi character of a path is written as a JSON
/// `\uXXXX` escape: the value reads back as the path, and never shows the character raw.
fn failing_json(failing: &[&PackReport]) -> String {
    let paths: Vec<&str> = failing
        .iter()
        .map(|r| match r.uri_base.trim_end_matches('/') {
            "" => ".",
            p => p,
        })
        .collect();
    let mut out = String::new();
    for c in serde_json::Value::from(paths).to_string().chars() {
        if c.is_control() || crate::core::is_hidden(c) || matches!(c, '\u{2028}' | '\u{2029}') {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{:04x}", u));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Writes every output of a run that found packs.
pub(crate) fn write(w: &Written<'_>, cx: &RunContext<'_>) -> anyhow::Result<()> {
    let count = |f: fn(&PackReport) -> usize| w.reports.iter().map(f).sum::<usize>().to_string();
    let mut values = vec![
        ("verdict", verdict(w.failed).to_string()),
        ("failing-packs", failing_json(w.failing)),
        (
            "check-run-url",
            w.check_run_url.unwrap_or_default().to_string(),
        ),
        ("sarif-file", later_step_path(cx)),
        (
            "json-file",
            later_step_path_of(&sarif_path::json_file(&cx.settings.sarif_file), cx),
        ),
        ("packs", w.reports.len().to_string()),
        ("errors", count(PackReport::errors)),
        ("warnings", count(PackReport::warnings)),
        ("failed-cases", count(PackReport::failed_cases)),
        ("uploaded", w.uploaded.to_string()),
    ];
    if let Some(id) = w.sarif_id {
        values.push(("sarif-id", id.to_string()));
    }
    put(&values, cx)
}

/// The outputs of a run that found no pack: it fails, and wrote no file.
pub(crate) fn write_none(cx: &RunContext<'_>) -> anyhow::Result<()> {
    let values: Vec<(&str, String)> = [
        ("verdict", "fail"),
        ("failing-packs", "[]"),
        ("check-run-url", ""),
        ("sarif-file", ""),
        ("json-file", ""),
        ("packs", "0"),
        ("errors", "0"),
        ("warnings", "0"),
        ("failed-cases", "0"),
        ("uploaded", "false"),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.to_string()))
    .collect();
    put(&values, cx)
}

/// The SARIF file as a later step of the job sees it: the runner's path of a file under the
/// container's `$HOME`, else the path as written.
fn later_step_path(cx: &RunContext<'_>) -> String {
    later_step_path_of(&cx.settings.sarif_file, cx)
}

/// [`later_step_path`] of any file `ci` writes.
fn later_step_path_of(file: &str, cx: &RunContext<'_>) -> String {
    let gh = cx.gh;
    sarif_path::host_path(file, gh.home.as_deref(), gh.runner_temp.as_deref())
}

fn put(values: &[(&str, String)], cx: &RunContext<'_>) -> anyhow::Result<()> {
    let Some(p) = &cx.gh.output else {
        return Ok(());
    };
    outputs::write(p, values).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))
}

/// The folder whose owner what `ci` writes at `file` gets: `$HOME` for a file under it, else
/// the workspace (the container runs as root; the runner's user must be able to remove it).
pub(crate) fn owner_of<'a>(file: &str, cx: &'a RunContext<'_>) -> Option<&'a Path> {
    let under = crate::core::paths::lexical(Path::new(file));
    match cx.gh.home.as_deref() {
        Some(h) if h.is_absolute() && under.starts_with(h) => Some(h),
        _ => cx.gh.workspace.as_deref(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failing_packs_are_a_json_list_of_paths() {
        let r = |base: &str| PackReport {
            uri_base: base.to_string(),
            ..PackReport::default()
        };
        let (a, root) = (r("packs/a\"b"), r(""));
        assert_eq!(failing_json(&[&a, &root]), r#"["packs/a\"b","."]"#);
        let bidi = r("packs/go\u{202E}od");
        let json = failing_json(&[&bidi]);
        assert_eq!(json, r#"["packs/go\u202eod"]"#);
        let back: Vec<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(
            back,
            vec!["packs/go\u{202E}od".to_string()],
            "reads back as the path"
        );
        assert_eq!(failing_json(&[]), "[]", "control: none");
        assert_eq!((verdict(true), verdict(false)), ("fail", "pass"));
    }
}
