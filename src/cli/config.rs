//! Which configuration file `check` and `test` read (docs/configuration.md, "Which file is
//! read"): `--config FILE` reads that file; `--config auto` reads the `.hippo-packs.toml` at
//! the root of the git repository holding the packs, the file `ci` reads at its repository root,
//! so a pre-commit hook and CI judge the same warnings alike, and reads nothing when there is
//! none; without `--config` nothing is read, as hippo's page "Writing a pack" says. `-v` names
//! the file read (or says none was) on standard error.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use super::args::OutputArgs;
use crate::allow::{CI_FILE, Config};
use crate::core::{escape, paths};

/// The `--config` value that finds the file (`--config ./auto` reads a file named `auto`).
pub(crate) const AUTO: &str = "auto";

/// The configuration the flags ask for, read and checked before any work; `Err` is the usage
/// error's line.
pub(crate) fn load(out: &OutputArgs, dirs: &[String]) -> Result<Option<Config>, String> {
    let Some(given) = &out.config else {
        return Ok(None);
    };
    let path = if given.as_os_str() == AUTO {
        match auto(dirs)? {
            Some(p) => p,
            None => {
                if out.verbose {
                    eprintln!(
                        "hippo-packs: --config auto: no {CI_FILE} at the root of the git repository holding the packs; no configuration read"
                    );
                }
                return Ok(None);
            }
        }
    } else {
        given.clone()
    };
    let shown = escape::line(&path.display().to_string()).into_owned();
    let config =
        Config::load(&path, &shown).map_err(|why| format!("hippo-packs: --config {why}"))?;
    if out.verbose {
        eprintln!(
            "hippo-packs: configuration: {shown} ({} [[allow]] entries)",
            config.allow.len()
        );
    }
    Ok(Some(config))
}

/// The `.hippo-packs.toml` at the root of the git repository holding the packs, named from the
/// working folder when it lies inside it; `None` when no root has one. Packs in several
/// repositories whose roots each have one are a usage error: there is no one file to read.
fn auto(dirs: &[String]) -> Result<Option<PathBuf>, String> {
    let mut roots = BTreeSet::new();
    // A registry names thousands of packs under a few parents: each parent is looked up once.
    let mut by_parent: HashMap<PathBuf, Option<PathBuf>> = HashMap::new();
    for dir in dirs {
        let Ok(abs) = std::fs::canonicalize(dir) else {
            continue;
        };
        let root = if abs.join(".git").symlink_metadata().is_ok() {
            Some(abs)
        } else {
            let parent = abs.parent().unwrap_or(&abs).to_path_buf();
            by_parent
                .entry(parent)
                .or_insert_with_key(|p| paths::repository_root(p))
                .clone()
        };
        roots.extend(root);
    }
    let found: Vec<PathBuf> = roots
        .into_iter()
        .map(|root| root.join(CI_FILE))
        .filter(|file| file.is_file())
        .collect();
    match found.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(shown_from_here(one))),
        [a, b, ..] => Err(format!(
            "hippo-packs: --config auto: the packs are in several git repositories with a {CI_FILE} ({}, {}); check each repository's packs apart, or name one file with --config FILE",
            escape::line(&a.display().to_string()),
            escape::line(&b.display().to_string())
        )),
    }
}

/// `file` relative to the working folder when it lies inside it (`.hippo-packs.toml` when the
/// command runs at the repository's root, as a pre-commit hook does), else as it is.
fn shown_from_here(file: &Path) -> PathBuf {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| std::fs::canonicalize(cwd).ok())
        .and_then(|cwd| file.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| file.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_at_the_repository_root_is_found() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let pack = root.join("packs/a");
        std::fs::create_dir_all(&pack).unwrap();
        let dirs = vec![pack.display().to_string()];
        assert_eq!(
            auto(&dirs).unwrap(),
            None,
            "control: no repository, nothing"
        );
        std::fs::create_dir(root.join(".git")).unwrap();
        assert_eq!(auto(&dirs).unwrap(), None, "a repository without the file");
        std::fs::write(root.join(CI_FILE), "").unwrap();
        std::fs::write(pack.join(CI_FILE), "").unwrap();
        assert_eq!(
            auto(&dirs).unwrap(),
            Some(root.join(CI_FILE)),
            "the root's file, never one inside the pack"
        );
    }

    #[test]
    fn packs_of_two_repositories_with_a_file_each_are_refused() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        for r in ["one", "two"] {
            std::fs::create_dir_all(root.join(r).join(".git")).unwrap();
            std::fs::write(root.join(r).join(CI_FILE), "").unwrap();
        }
        let one = vec![root.join("one").display().to_string()];
        assert!(auto(&one).is_ok(), "control: one repository");
        let both = vec![
            root.join("one").display().to_string(),
            root.join("two").display().to_string(),
        ];
        assert!(
            auto(&both)
                .unwrap_err()
                .contains("several git repositories")
        );
    }
}
