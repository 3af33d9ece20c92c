//! What `check`'s paths name (docs/checks.md, "What check checks"): a folder holding a
//! `pack.toml` is a pack, as hippo's page says; a folder without one that holds packs is the
//! packs it holds, found as `ci` finds them (`ci::discover`), each printed with the multi-pack
//! lines; a file is the pack holding it, of which only that file's findings are printed. A
//! folder with neither, or a path that is none of these, is checked as given, so it gets the
//! page's `missing file pack.toml` or the folder's read error.

use std::path::Path;

use crate::outcome::PackReport;

/// The pack folders to check, in the order given, and for each the files whose findings are
/// printed (`None`: every finding).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Targets {
    pub(crate) dirs: Vec<String>,
    pub(crate) only: Vec<Option<Vec<String>>>,
}

/// The targets of the command line's paths.
pub(crate) fn expand(args: &[String]) -> Targets {
    let mut out = Targets::default();
    for arg in args {
        let path = Path::new(arg);
        if path.is_file() {
            if let Some((dir, file)) = pack_of_file(arg) {
                out.add(dir, Some(file));
                continue;
            }
        } else if path.is_dir() && !path.join("pack.toml").exists() {
            let root = arg.trim_end_matches('/');
            let root = if root.is_empty() { "/" } else { root };
            if let Ok(found) = crate::ci::discover(root)
                && !found.packs.is_empty()
            {
                found.packs.into_iter().for_each(|p| out.add(p, None));
                continue;
            }
        }
        out.add(arg.clone(), None);
    }
    out
}

impl Targets {
    /// Adds a pack folder; a file of a folder already listed joins its files.
    fn add(&mut self, dir: String, file: Option<String>) {
        if let Some(i) = self.dirs.iter().position(|d| *d == dir) {
            match (&mut self.only[i], file) {
                (Some(files), Some(f)) => files.push(f),
                (slot, None) => *slot = None,
                (None, Some(_)) => {}
            }
            return;
        }
        self.dirs.push(dir);
        self.only.push(file.map(|f| vec![f]));
    }

    /// Leaves in report `i` only the findings of the files its path named.
    pub(crate) fn keep_named(&self, i: usize, r: &mut PackReport) {
        if let Some(Some(files)) = self.only.get(i) {
            let named = |d: &crate::core::Diagnostic| {
                let at = d.subject.as_deref().or(d.file.as_deref());
                at.is_some_and(|p| files.iter().any(|f| f == p))
            };
            r.diagnostics.retain(named);
            r.skipped.clear();
        }
    }
}

/// The pack holding a file (the nearest folder above it with a `pack.toml`), as typed, and the
/// file's pack-relative, `/`-separated path.
fn pack_of_file(arg: &str) -> Option<(String, String)> {
    let path = Path::new(arg);
    let mut rel: Vec<String> = vec![path.file_name()?.to_string_lossy().into_owned()];
    let mut dir = path.parent()?;
    loop {
        let shown = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if shown.join("pack.toml").is_file() {
            rel.reverse();
            let typed = match dir.to_string_lossy().into_owned() {
                s if s.is_empty() => ".".to_string(),
                s => s,
            };
            return Some((typed, rel.join("/")));
        }
        rel.push(dir.file_name()?.to_string_lossy().into_owned());
        dir = dir.parent()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(root: &Path, name: &str) {
        std::fs::create_dir_all(root.join(name).join("prompts")).unwrap();
        std::fs::write(root.join(name).join("pack.toml"), "").unwrap();
        std::fs::write(root.join(name).join("prompts/a.md"), "").unwrap();
    }

    #[test]
    fn a_folder_of_packs_is_its_packs_and_a_file_is_its_pack() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("packs");
        pack(&root, "b");
        pack(&root, "a");
        let shown = root.display().to_string();
        let got = expand(&[format!("{shown}/")]);
        assert_eq!(got.dirs, [format!("{shown}/a"), format!("{shown}/b")]);
        assert_eq!(got.only, [None, None]);
        let file = format!("{shown}/a/prompts/a.md");
        let got = expand(&[file]);
        assert_eq!(got.dirs, [format!("{shown}/a")]);
        assert_eq!(got.only, [Some(vec!["prompts/a.md".to_string()])]);
        // Controls: a pack is itself, a folder with neither is checked as given.
        let a = format!("{shown}/a");
        assert_eq!(
            expand(std::slice::from_ref(&a)).dirs,
            std::slice::from_ref(&a)
        );
        let empty = t.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let e = empty.display().to_string();
        assert_eq!(expand(std::slice::from_ref(&e)).dirs, [e]);
    }
}
