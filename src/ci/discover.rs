//! Discovery: every folder of the workspace that holds a pack, each pack's path relative to the
//! repository for SARIF and the pull request's files, and discovery's own findings (folders it
//! cannot enter, links and submodules that would hide a pack, hidden characters in the folder
//! names leading to a pack) — docs/action.md, "Finds the packs".

mod link;
mod names;
mod submodules;
#[cfg(test)]
mod tests;

pub(crate) use submodules::changed_entries;

use std::path::{Path, PathBuf};

use crate::outcome::PackReport;

/// How deep the search for packs goes: a folder at this depth is looked at, its subfolders are
/// not (each is an error, [`Blocked::TooDeep`]).
pub(crate) const MAX_DEPTH: usize = 64;

/// A finding of discovery's own, about one folder or link: a pack in it or behind it would go
/// unseen, or its name hides characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Blocked {
    /// Its name is not UTF-8.
    NotUtf8,
    /// Deeper than [`MAX_DEPTH`] levels.
    TooDeep,
    /// A symbolic link whose target lies outside the searched root and holds a `pack.toml` in or
    /// below it (through further links too).
    Link,
    /// A symbolic link whose target lies outside the searched root and could not be searched to
    /// the end within the run's budget for link searches.
    LinkTooLarge,
    /// It could not be read (the reason).
    Unreadable(String),
    /// A submodule `.gitmodules` names whose folder is empty: not checked out.
    Submodule,
    /// A folder on the way to a pack whose name holds hidden characters: the first, how many
    /// more, and whether any is of the page's invisible set (else all are ignorable).
    HiddenName {
        first: char,
        more: usize,
        invisible: bool,
    },
}

impl Blocked {
    /// The message after the folder's path.
    pub(crate) fn message(&self) -> String {
        match self {
            Blocked::NotUtf8 => {
                "a folder whose name is not UTF-8; discovery cannot search it for packs".into()
            }
            Blocked::TooDeep => {
                format!("deeper than {MAX_DEPTH} levels; discovery does not search it for packs")
            }
            Blocked::Link => "a symbolic link to a folder outside the searched root that holds a pack.toml, in it or behind further links; discovery checks no pack through a link, so that pack would go unchecked".into(),
            Blocked::LinkTooLarge => format!(
                "a symbolic link to a folder outside the searched root that discovery could not search to the end: the searches behind this run's links look at {} entries at most, so it cannot tell whether a pack there would go unchecked",
                link::SEARCH_LIMIT
            ),
            Blocked::Unreadable(why) => format!("cannot be searched for packs: {why}"),
            Blocked::Submodule => "a submodule (.gitmodules) that is not checked out: its folder is empty, so its packs go unchecked; check out submodules (actions/checkout: `submodules: true`)".into(),
            Blocked::HiddenName { .. } => names::message(self),
        }
    }

    /// The rule a report of it carries (its severity: a name holding only ignorable
    /// characters is a warning, as in a file).
    fn rule(&self) -> &'static crate::core::Rule {
        use crate::rules::{layout, paths, text};
        match self {
            Blocked::NotUtf8 => &paths::NAME_NOT_UTF8,
            Blocked::Link | Blocked::LinkTooLarge => &layout::SYMBOLIC_LINK,
            Blocked::TooDeep | Blocked::Unreadable(_) | Blocked::Submodule => &layout::UNREADABLE,
            Blocked::HiddenName {
                invisible: true, ..
            } => &text::INVISIBLE_CHARACTER,
            Blocked::HiddenName { .. } => &text::IGNORABLE_CHARACTER,
        }
    }
}

/// What discovery found: the packs, and its own findings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) packs: Vec<String>,
    /// Each finding's folder (`root` joined, a non-UTF-8 name shown with U+FFFD), the path
    /// itself, and what it is, in byte order of the paths.
    pub(crate) blocked: Vec<(String, PathBuf, Blocked)>,
}

/// Every folder under `root` holding a `pack.toml`, in byte order of their paths, never under
/// `.git` and never through a symbolic link. Dot-folders, `target/` and `node_modules/` are
/// searched like any other; inside a pack only the folders its walk skips (dot-folders, an
/// `origin.json` folder at its top), found by the walk itself ([`crate::pack::walk::hidden_folders`]). Paths are `root` joined with the relative path
/// (`root` itself when it is a pack); with `root` `.`, just the relative path.
pub(crate) fn discover(root: &str) -> std::io::Result<Found> {
    let mut search = Search::new(root)?;
    loop {
        let packs = search.step();
        if packs.is_empty() {
            return Ok(search.finish());
        }
        for p in &packs {
            search.enter(p, &crate::pack::walk::hidden_folders(&p.path));
        }
    }
}

/// A pack discovery found, whose inside it has not searched yet.
#[derive(Debug, Clone)]
pub(crate) struct FoundPack {
    /// Its folder as discovery names it (`root` joined).
    pub(crate) dir: String,
    path: PathBuf,
    rel: Vec<String>,
}

/// Discovery in steps: [`Search::step`] finds the packs under the folders still to search
/// without entering them, [`Search::enter`] enters a pack through the folders its walk
/// skipped, until a step finds nothing. Whoever walks the packs anyway (`ci` checking every
/// pack) hands the walk's skipped folders to `enter`, so a pack's folders are listed once.
pub(crate) struct Search {
    root: String,
    links: link::Links,
    found: Found,
    /// The packs found, by their components below the root (sorted at the end: depth first in
    /// byte order, the order of the search).
    packs: Vec<(Vec<String>, String)>,
    /// The folders still to search, in reverse order.
    stack: Vec<(PathBuf, Vec<String>)>,
}

impl Search {
    /// A search of `root`: an error when it is not a folder that can be read.
    pub(crate) fn new(root: &str) -> std::io::Result<Search> {
        let meta = std::fs::metadata(root)?;
        if !meta.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                "not a folder",
            ));
        }
        std::fs::read_dir(root)?;
        Ok(Search {
            root: root.to_string(),
            links: link::Links::new(Path::new(root))?,
            found: Found::default(),
            packs: Vec::new(),
            stack: vec![(PathBuf::from(root), Vec::new())],
        })
    }

    /// Searches the folders still to search (depth first, in byte order), stopping at each pack:
    /// the packs found, in that order.
    pub(crate) fn step(&mut self) -> Vec<FoundPack> {
        let mut new = Vec::new();
        while let Some((dir, rel)) = self.stack.pop() {
            // `pack.toml` itself costs one look; another spelling shows in the listing.
            let is_pack = dir.join("pack.toml").symlink_metadata().is_ok();
            if is_pack || self.folder(&dir, &rel) {
                let shown = join_rel(&self.root, &rel);
                self.packs.push((rel.clone(), shown.clone()));
                new.push(FoundPack {
                    dir: shown,
                    path: dir,
                    rel,
                });
            }
        }
        new
    }

    /// One folder without `pack.toml`: `true` when it holds the manifest in another case
    /// (`Pack.toml`, a pack on a case-insensitive disk), else its subfolders are searched, or
    /// are findings.
    fn folder(&mut self, dir: &Path, rel: &[String]) -> bool {
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) => {
                let why = Blocked::Unreadable(e.to_string());
                self.found
                    .blocked
                    .push((join_rel(&self.root, rel), dir.to_path_buf(), why));
                return false;
            }
        };
        let mut children: Vec<(Vec<u8>, PathBuf, String, Option<Blocked>)> = Vec::new();
        let entries: Vec<std::fs::DirEntry> = entries.flatten().collect();
        if entries.iter().any(|e| is_manifest(&e.file_name())) {
            return true;
        }
        for e in entries {
            let name = e.file_name();
            if name == ".git" {
                continue;
            }
            let Some(step) = classify(&e, rel.len(), &mut self.links) else {
                continue;
            };
            let shown = name.to_string_lossy().into_owned();
            children.push((name.as_encoded_bytes().to_vec(), e.path(), shown, step));
        }
        children.sort_by(|a, b| a.0.cmp(&b.0));
        // Depth first, in byte order: the stack holds children in reverse.
        for (_, path, name, step) in children.into_iter().rev() {
            let mut r = rel.to_vec();
            r.push(name);
            match step {
                Some(why) => self
                    .found
                    .blocked
                    .push((join_rel(&self.root, &r), path, why)),
                None => self.stack.push((path, r)),
            }
        }
        false
    }

    /// Enters the pack `p` through `hidden`, the folders its walk skipped ([`crate::pack::Pack::hidden_folders`]):
    /// each but `.git` is searched like any folder by the next step, or is a finding.
    pub(crate) fn enter(&mut self, p: &FoundPack, hidden: &[(String, bool)]) {
        for (sub, utf8) in hidden.iter().rev() {
            let parts: Vec<&str> = sub.split('/').collect();
            if parts.last() == Some(&".git") {
                continue;
            }
            let path = parts.iter().fold(p.path.clone(), |d, s| d.join(s));
            let mut r = p.rel.clone();
            r.extend(parts.iter().map(|s| s.to_string()));
            let why = if !utf8 {
                Some(Blocked::NotUtf8)
            } else {
                (r.len() > MAX_DEPTH).then_some(Blocked::TooDeep)
            };
            match why {
                Some(why) => self
                    .found
                    .blocked
                    .push((join_rel(&self.root, &r), path, why)),
                None => self.stack.push((path, r)),
            }
        }
    }

    /// What the search found: the packs in byte order of their paths, then discovery's own
    /// findings (hidden characters in the folder names leading to a pack, submodules not
    /// checked out), all sorted by path.
    pub(crate) fn finish(mut self) -> Found {
        self.packs.sort_by(|a, b| a.0.cmp(&b.0));
        self.found.packs = self.packs.into_iter().map(|(_, d)| d).collect();
        let root = self.root.as_str();
        let mut found = self.found;
        found.blocked.extend(names::of_packs(root, &found.packs));
        found
            .blocked
            .extend(submodules::unchecked(root, self.links.root()));
        // The findings were gathered in reverse order per folder: sort all by path.
        found
            .blocked
            .sort_by(|a, b| a.1.as_os_str().cmp(b.1.as_os_str()));
        found
    }
}

/// A child of a searched folder: `None` when it is not a folder to look into, `Some(None)` a
/// folder to search, `Some(Some(why))` a finding.
fn classify(
    e: &std::fs::DirEntry,
    depth: usize,
    links: &mut link::Links,
) -> Option<Option<Blocked>> {
    let ft = e.file_type().ok()?;
    if ft.is_symlink() {
        return links.judge(&e.path()).map(Some);
    }
    if !ft.is_dir() {
        return None;
    }
    if e.file_name().to_str().is_none() {
        return Some(Some(Blocked::NotUtf8));
    }
    if depth >= MAX_DEPTH {
        return Some(Some(Blocked::TooDeep));
    }
    Some(None)
}

/// Whether an entry's name is the manifest's without regard to case (`Pack.toml`,
/// `PACK.TOML`, a Kelvin sign for the `k`): the one file a case-insensitive disk (macOS,
/// Windows) opens as `pack.toml`. The pack's own check then names the file.
pub(crate) fn is_manifest(name: &std::ffi::OsStr) -> bool {
    name.len() <= "pack.toml".len() * 3
        && name.to_str().is_some_and(|n| {
            n.chars()
                .flat_map(char::to_lowercase)
                .eq("pack.toml".chars())
        })
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

/// A blocked entry's path relative to the repository root, like `core::paths::uri_base` but without resolving
/// the entry itself (a link names where it is, not where it points).
pub(crate) fn entry_uri_base(path: &Path, root: Option<&Path>) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let base = crate::core::paths::uri_base(&parent.to_string_lossy(), root);
    match base.trim_end_matches('/') {
        "" | "." => name,
        b => format!("{b}/{name}"),
    }
}

/// Each of discovery's findings as a report of its own holding one diagnostic: it is counted,
/// annotated, in the SARIF and the summary, and under `scope: changed` it gates when the pull
/// request touches a file under it (docs/action.md, "Finds the packs").
pub(crate) fn reports(found: &Found, root: Option<&Path>) -> Vec<PackReport> {
    found
        .blocked
        .iter()
        .map(|(dir, path, why)| {
            let msg = format!("{dir}: {}", why.message());
            PackReport {
                dir: dir.clone(),
                uri_base: entry_uri_base(path, root),
                diagnostics: vec![crate::core::Diagnostic::pack(why.rule(), msg)],
                ..PackReport::default()
            }
        })
        .collect()
}
