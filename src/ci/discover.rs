//! Discovery: every folder of the workspace that holds a pack, and each pack's path relative to
//! the repository for SARIF and the pull request's files.

use std::path::{Path, PathBuf};

/// Folders skipped while looking for packs, besides names starting with `.`.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];
/// How deep the search for packs goes.
const MAX_DEPTH: usize = 32;

/// Every folder under `root` holding a `pack.toml`, in byte order of their paths; the search
/// does not descend into a pack, skips dot-folders, `target/` and `node_modules/`, and never
/// follows a symbolic link. Paths are `root` joined with the relative path (`root` itself when
/// it is a pack); with `root` `.`, just the relative path.
pub fn discover(root: &str) -> std::io::Result<Vec<String>> {
    let meta = std::fs::metadata(root)?;
    if !meta.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            "not a folder",
        ));
    }
    let mut found = Vec::new();
    let mut stack: Vec<(PathBuf, Vec<String>)> = vec![(PathBuf::from(root), Vec::new())];
    // Depth first, in byte order: the stack holds children in reverse.
    let mut first = true;
    while let Some((dir, rel)) = stack.pop() {
        if dir.join("pack.toml").symlink_metadata().is_ok() {
            found.push(join_rel(root, &rel));
            continue;
        }
        if rel.len() >= MAX_DEPTH {
            continue;
        }
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if first => return Err(e),
            Err(_) => continue,
        };
        first = false;
        let mut children: Vec<(Vec<u8>, PathBuf, String)> = Vec::new();
        for e in entries.flatten() {
            let Ok(ft) = e.file_type() else { continue };
            if !ft.is_dir() {
                continue;
            }
            let name = e.file_name();
            let Some(n) = name.to_str() else { continue };
            if n.starts_with('.') || SKIPPED_DIRS.contains(&n) {
                continue;
            }
            children.push((n.as_bytes().to_vec(), e.path(), n.to_string()));
        }
        children.sort();
        for (_, path, name) in children.into_iter().rev() {
            let mut r = rel.clone();
            r.push(name);
            stack.push((path, r));
        }
    }
    Ok(found)
}

fn join_rel(root: &str, rel: &[String]) -> String {
    if rel.is_empty() {
        return root.to_string();
    }
    let r = rel.join("/");
    let root_trimmed = root.trim_end_matches('/');
    if root_trimmed == "." || root_trimmed.is_empty() && !root.starts_with('/') {
        r
    } else if root_trimmed.is_empty() {
        format!("/{r}")
    } else {
        format!("{root_trimmed}/{r}")
    }
}

/// A path relative to `base`, `/`-separated, no `./`; `None` when it is not under `base`.
fn relative_to(path: &Path, base: &Path) -> Option<String> {
    let abs = |p: &Path| -> Option<PathBuf> {
        std::fs::canonicalize(p)
            .ok()
            .or_else(|| std::env::current_dir().ok().map(|cwd| cwd.join(p)))
    };
    let (p, b) = (abs(path)?, abs(base)?);
    let rel = p.strip_prefix(&b).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// The pack folder relative to `$GITHUB_WORKSPACE` (the repository root on GitHub), else
/// relative to the working folder.
pub fn uri_base(dir: &str, workspace: Option<&Path>) -> String {
    workspace
        .and_then(|w| relative_to(Path::new(dir), w))
        .unwrap_or_else(|| crate::check::uri_base(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_stops_at_packs_and_skips_the_usual_folders() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        for d in [
            "packs/b",
            "packs/a/tests/x",
            ".hidden/p",
            "target/p",
            "node_modules/p",
            "other/deep/er",
            "empty",
        ] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        for p in [
            "packs/b/pack.toml",
            "packs/a/pack.toml",
            "packs/a/tests/x/pack.toml",
            ".hidden/p/pack.toml",
            "target/p/pack.toml",
            "node_modules/p/pack.toml",
            "other/deep/er/pack.toml",
        ] {
            std::fs::write(root.join(p), "").unwrap();
        }
        let r = root.to_str().unwrap();
        assert_eq!(
            discover(r).unwrap(),
            vec![
                format!("{r}/other/deep/er"),
                format!("{r}/packs/a"),
                format!("{r}/packs/b")
            ]
        );
        assert_eq!(
            discover(&format!("{r}/packs/a")).unwrap(),
            vec![format!("{r}/packs/a")]
        );
        assert_eq!(
            discover(&format!("{r}/empty")).unwrap(),
            Vec::<String>::new()
        );
        assert!(discover(&format!("{r}/nowhere")).is_err());
        assert_eq!(join_rel(".", &["a".into()]), "a");
        assert_eq!(join_rel("./", &["a".into()]), "a");
        assert_eq!(join_rel("x/", &["a".into()]), "x/a");
    }
}
