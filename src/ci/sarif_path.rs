//! Where the SARIF file goes (docs/action.md, "Where the report goes"): by default under
//! `$HOME` (the runner's `/github/home`, never the workspace a later step commits or diffs);
//! a `sarif-file` under the workspace or under `$HOME` is written, anywhere else or through a
//! link it is refused before any work (docs/security.md, "Writes"): a pull request controls the
//! workspace's tree, so a link it plants must never steer where `ci` writes as root.

use std::path::{Path, PathBuf};

use crate::core::paths::lexical;

/// `$HOME` in a container action: the runner mounts `$RUNNER_TEMP/_github_home` there.
pub(crate) const CONTAINER_HOME: &str = "/github/home";

/// The working folder under `$HOME` and the SARIF file in it, named by the category (a shard's
/// `/` as `-`), so two steps of one job never share a file; without `$HOME`, the old place in
/// the working folder, `.hippo-packs/`.
pub(crate) fn default_file(home: Option<&str>, category: &str) -> String {
    let name: String = category
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '_' | '-' => c,
            _ => '-',
        })
        .collect();
    let name = name.trim_start_matches('.');
    let name = if name.is_empty() { "hippo-packs" } else { name };
    match home.map(str::trim).filter(|h| Path::new(h).is_absolute()) {
        Some(h) => format!("{}/.hippo-packs/{name}.sarif", h.trim_end_matches('/')),
        None => format!(".hippo-packs/{name}.sarif"),
    }
}

/// The JSON report's file: beside the SARIF file, its name with `.json` for `.sarif`.
pub(crate) fn json_file(sarif_file: &str) -> String {
    let p = Path::new(sarif_file);
    let json = p.with_extension("json");
    if json == p {
        format!("{sarif_file}.report.json")
    } else {
        json.display().to_string()
    }
}

/// The path a later step of the job sees for `file`: under the container's `$HOME`, the
/// runner's `$RUNNER_TEMP/_github_home/…` (the runner translates no output back); anything
/// else as written.
pub(crate) fn host_path(file: &str, home: Option<&Path>, runner_temp: Option<&Path>) -> String {
    let (Some(home), Some(temp)) = (home, runner_temp) else {
        return file.to_string();
    };
    let under = lexical(Path::new(file));
    match under.strip_prefix(home) {
        Ok(rest) if home == Path::new(CONTAINER_HOME) && temp.is_absolute() => {
            temp.join("_github_home").join(rest).display().to_string()
        }
        _ => file.to_string(),
    }
}

/// A folder `ci` may write under, as written and as the file system resolves it.
struct Root {
    name: &'static str,
    shown: PathBuf,
    forms: Vec<PathBuf>,
}

impl Root {
    fn new(name: &'static str, dir: &Path, cwd: &Path) -> Root {
        let abs = if dir.is_absolute() {
            dir.to_path_buf()
        } else {
            cwd.join(dir)
        };
        let mut forms = vec![lexical(&abs)];
        if let Ok(c) = std::fs::canonicalize(&abs) {
            forms.push(c);
        }
        Root {
            name,
            shown: abs,
            forms,
        }
    }
}

/// `None` when `ci` may write `file` (relative to the working folder); else why not, one line.
/// `workspace` is `$GITHUB_WORKSPACE`, else the working folder; `home` is `$HOME`.
pub(crate) fn refusal(file: &str, workspace: Option<&Path>, home: Option<&Path>) -> Option<String> {
    let cwd = std::env::current_dir().ok()?;
    let mut roots = vec![Root::new("the workspace", workspace.unwrap_or(&cwd), &cwd)];
    if let Some(h) = home.filter(|h| h.is_absolute()) {
        roots.push(Root::new("$HOME", h, &cwd));
    }
    let raw = Path::new(file);
    let abs = if raw.is_absolute() {
        raw.to_path_buf()
    } else {
        cwd.join(raw)
    };
    let target = lexical(&abs);
    // The deepest root holding the target (`$HOME` inside the workspace, or the other way).
    let found = roots
        .iter()
        .flat_map(|r| r.forms.iter().map(move |f| (r, f)))
        .filter(|(_, f)| target.starts_with(f) && target != **f)
        .max_by_key(|(_, f)| f.components().count());
    let Some((root, form)) = found else {
        let shown: Vec<String> = roots
            .iter()
            .map(|r| r.shown.display().to_string())
            .collect();
        let names: Vec<&str> = roots.iter().map(|r| r.name).collect();
        return Some(format!(
            "sarif-file {file}: resolves outside {} ({}); name a file under {}",
            names.join(" and "),
            shown.join(", "),
            if roots.len() == 1 { "it" } else { "either" }
        ));
    };
    links_below(file, &abs, form, root.name)
}

/// Every prefix of the path as written that lies below `root` must be a real folder (or, for
/// the last, a regular file or nothing yet).
fn links_below(file: &str, abs: &Path, root: &Path, name: &str) -> Option<String> {
    let mut prefix = PathBuf::new();
    for c in abs.components() {
        prefix.push(c);
        let norm = lexical(&prefix);
        if !norm.starts_with(root) || norm == *root {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(&prefix) else {
            continue;
        };
        let shown = norm.strip_prefix(root).unwrap_or(&norm).display();
        let place = if name == "$HOME" {
            "under $HOME"
        } else {
            "in the workspace"
        };
        if meta.file_type().is_symlink() {
            return Some(format!(
                "sarif-file {file}: passes through the symbolic link {shown} {place}; a link is never written through"
            ));
        }
        if prefix == abs && meta.is_dir() {
            return Some(format!("sarif-file {file}: is a folder"));
        }
        if prefix != abs && !meta.is_dir() {
            return Some(format!(
                "sarif-file {file}: {shown} {place} is a file, not a folder; remove it or name another sarif-file"
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_report_sits_beside_the_sarif_file() {
        assert_eq!(
            json_file("/github/home/.hippo-packs/hippo-packs.sarif"),
            "/github/home/.hippo-packs/hippo-packs.json"
        );
        assert_eq!(json_file("out/report"), "out/report.json");
        assert_eq!(
            json_file("r.json"),
            "r.json.report.json",
            "never the SARIF's own"
        );
    }

    #[test]
    fn inside_the_workspace_and_through_no_link_is_allowed() {
        let ws = tempfile::tempdir().unwrap();
        let w = ws.path();
        std::fs::create_dir_all(w.join("real")).unwrap();
        let at = |f: &str| refusal(&w.join(f).display().to_string(), Some(w), None);
        assert_eq!(at("hippo-packs.sarif"), None);
        assert_eq!(at(".hippo-packs/out.sarif"), None, "a folder not made yet");
        assert_eq!(at("real/../out.sarif"), None);
        // Controls: each way out is refused.
        assert!(
            at("../out.sarif")
                .unwrap()
                .contains("outside the workspace")
        );
        assert!(
            refusal("/etc/passwd", Some(w), None)
                .unwrap()
                .contains("outside")
        );
        assert!(at("real").unwrap().contains("is a folder"));
        assert!(at("").unwrap().contains("outside"), "the workspace itself");
    }

    #[test]
    fn a_link_inside_the_workspace_is_refused() {
        let ws = tempfile::tempdir().unwrap();
        let w = ws.path();
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), w.join("out")).unwrap();
        std::os::unix::fs::symlink(elsewhere.path().join("f"), w.join("hippo-packs.sarif"))
            .unwrap();
        std::fs::create_dir(w.join("d")).unwrap();
        std::os::unix::fs::symlink(w.join("d"), w.join("inside")).unwrap();
        let at = |f: &str| refusal(&w.join(f).display().to_string(), Some(w), None);
        assert!(at("out/x.sarif").unwrap().contains("symbolic link out "));
        assert!(at("hippo-packs.sarif").unwrap().contains("symbolic link"));
        assert!(
            at("inside/x.sarif").is_some(),
            "even a link that stays inside"
        );
        assert!(at("inside/../x.sarif").is_some(), "a link before a `..`");
        assert_eq!(at("d/x.sarif"), None, "control: the real folder");
    }

    #[test]
    fn a_file_where_the_report_folder_goes_is_refused_by_name() {
        let ws = tempfile::tempdir().unwrap();
        let w = ws.path();
        let at = |f: &str| refusal(&w.join(f).display().to_string(), Some(w), None);
        assert_eq!(
            at(".hippo-packs/hippo-packs.sarif"),
            None,
            "control: nothing there yet"
        );
        std::fs::write(w.join(".hippo-packs"), "x").unwrap();
        let why = at(".hippo-packs/hippo-packs.sarif").unwrap();
        assert!(
            why.contains(".hippo-packs in the workspace is a file, not a folder"),
            "{why}"
        );
        assert_eq!(
            at(".hippo-packs"),
            None,
            "control: the file itself may be the report"
        );
    }
    #[test]
    fn home_is_a_place_to_write_too_and_links_under_it_are_refused() {
        let ws = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let (w, h) = (ws.path(), home.path());
        let at = |f: &Path| refusal(&f.display().to_string(), Some(w), Some(h));
        assert_eq!(at(&h.join(".hippo-packs/hippo-packs.sarif")), None);
        assert_eq!(at(&w.join("out.sarif")), None, "the workspace still");
        let elsewhere = tempfile::tempdir().unwrap();
        let why = at(&elsewhere.path().join("x.sarif")).unwrap();
        assert!(why.contains("outside the workspace and $HOME"), "{why}");
        assert!(at(h).unwrap().contains("outside"), "$HOME itself");
        std::os::unix::fs::symlink(elsewhere.path(), h.join("out")).unwrap();
        let why = at(&h.join("out/x.sarif")).unwrap();
        assert!(why.contains("symbolic link out under $HOME"), "{why}");
        // Control: without $HOME, a file there is outside.
        let why = refusal(&h.join("x.sarif").display().to_string(), Some(w), None).unwrap();
        assert!(why.contains("outside the workspace ("), "{why}");
    }

    #[test]
    fn the_default_goes_under_home_named_by_the_category() {
        assert_eq!(
            default_file(Some("/github/home"), "hippo-packs"),
            "/github/home/.hippo-packs/hippo-packs.sarif"
        );
        assert_eq!(
            default_file(Some("/root/"), "hippo-packs/shard-1-of-4"),
            "/root/.hippo-packs/hippo-packs-shard-1-of-4.sarif"
        );
        assert_eq!(default_file(Some("/h"), "../x"), "/h/.hippo-packs/-x.sarif");
        // Controls: no $HOME, or a relative one, keeps the working folder's `.hippo-packs`.
        assert_eq!(default_file(None, "c"), ".hippo-packs/c.sarif");
        assert_eq!(default_file(Some("home"), "c"), ".hippo-packs/c.sarif");
    }

    #[test]
    fn a_later_step_sees_the_runners_path_of_the_containers_home() {
        let (home, temp) = (
            Path::new(CONTAINER_HOME),
            Path::new("/home/runner/work/_temp"),
        );
        assert_eq!(
            host_path(
                "/github/home/.hippo-packs/hippo-packs.sarif",
                Some(home),
                Some(temp)
            ),
            "/home/runner/work/_temp/_github_home/.hippo-packs/hippo-packs.sarif"
        );
        // Controls: a workspace path, another HOME (a laptop), no RUNNER_TEMP stay as written.
        assert_eq!(
            host_path("out/x.sarif", Some(home), Some(temp)),
            "out/x.sarif"
        );
        assert_eq!(
            host_path(
                "/root/.hippo-packs/h.sarif",
                Some(Path::new("/root")),
                Some(temp)
            ),
            "/root/.hippo-packs/h.sarif"
        );
        assert_eq!(
            host_path("/github/home/h.sarif", Some(home), None),
            "/github/home/h.sarif"
        );
    }
}
