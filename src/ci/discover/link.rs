//! Symbolic links met by discovery. A link is never followed as a place to find packs in; it is
//! an error when its target lies outside the searched tree (outside the root, or under a
//! `.git`) and a `pack.toml` lies in or below it — a pack that would otherwise go unchecked. A
//! link to a folder inside the tree (`docs/packs -> ../packs`) costs nothing: the search finds
//! the target's packs where they are.
//!
//! A chain of links is followed to its last target however many hops it takes, and the search
//! of a target follows the links it meets there too (a pack behind two links is still behind a
//! link). Each folder is searched at most once per run, whichever link reaches it (keyed by
//! device and inode), and one budget of [`SEARCH_LIMIT`] entries covers every link search of
//! the run: 1,900 links into one deep folder cost one search of it.

use std::collections::{HashMap, HashSet};
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use super::Blocked;

/// How many entries all the searches of a run's link targets look at together; reaching it is
/// itself the error ([`Blocked::LinkTooLarge`]). The hops of a chain of links are not counted
/// (a link that ends inside the root costs nothing), but each link is resolved once.
pub(crate) const SEARCH_LIMIT: usize = crate::pack::MAX_ENTRIES;

/// A folder's device and inode.
type Id = (u64, u64);

/// What lies in or below a folder searched behind a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// A `pack.toml` (any case), through subfolders and links.
    Pack,
    /// Nothing: every folder it reaches was searched.
    Nothing,
    /// The run's budget ran out before the search could tell.
    TooLarge,
}

/// The searched root, and what each folder searched behind a link reaches.
pub(crate) struct Links {
    /// The root through links.
    root: PathBuf,
    /// The root's device and inode: a target's search does not look into the root itself
    /// again (its packs are found where they are).
    root_id: Id,
    /// Every folder searched behind a link this run, with what it reaches.
    known: HashMap<Id, Reach>,
    /// Entries looked at by every link search of the run.
    spent: usize,
    /// Where each link met this run ends (by the link's own device and inode).
    resolved: HashMap<Id, Option<PathBuf>>,
    /// Folders listed by link searches (each at most once).
    listed: usize,
}

impl Links {
    pub(crate) fn new(root: &Path) -> std::io::Result<Links> {
        let root = std::fs::canonicalize(root)?;
        let meta = std::fs::metadata(&root)?;
        Ok(Links {
            root,
            root_id: (meta.dev(), meta.ino()),
            known: HashMap::new(),
            spent: 0,
            resolved: HashMap::new(),
            listed: 0,
        })
    }

    /// The root through links.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// How many folders the link searches of this run listed.
    #[cfg(test)]
    pub(crate) fn listed(&self) -> usize {
        self.listed
    }

    /// What a link at `link` is: `None` when it costs nothing (dangling, a loop, not a folder,
    /// inside the searched tree, or outside with no `pack.toml` in or below it).
    pub(crate) fn judge(&mut self, link: &Path) -> Option<Blocked> {
        let target = self.resolve(link)?;
        let id = self.outside(&target)?;
        match self.reach(target, id) {
            Reach::Pack => Some(Blocked::Link),
            Reach::TooLarge => Some(Blocked::LinkTooLarge),
            Reach::Nothing => None,
        }
    }

    /// The folder a link's chain ends at, through links: `None` when the chain dangles or
    /// loops. Each link's answer is kept, so a chain is walked once however many links lead
    /// into it.
    fn resolve(&mut self, link: &Path) -> Option<PathBuf> {
        let mut at = link.to_path_buf();
        let mut chain: Vec<Id> = Vec::new();
        let mut on_chain: HashSet<Id> = HashSet::new();
        let end = loop {
            let Ok(meta) = std::fs::symlink_metadata(&at) else {
                break None;
            };
            if !meta.file_type().is_symlink() {
                break real_path(&at).filter(|t| t.is_dir());
            }
            let id = (meta.dev(), meta.ino());
            if let Some(known) = self.resolved.get(&id) {
                break known.clone();
            }
            if !on_chain.insert(id) {
                break None;
            }
            chain.push(id);
            let (Ok(to), Some(parent)) = (std::fs::read_link(&at), at.parent()) else {
                break None;
            };
            // The folder holding the link, through links, keeps each hop's path short.
            let Some(parent) = real_path(parent) else {
                break None;
            };
            at = parent.join(to);
        };
        for id in chain {
            self.resolved.insert(id, end.clone());
        }
        end
    }

    /// One more entry looked at: `Err` once the run's budget is spent.
    fn spend(&mut self) -> Result<(), Budget> {
        self.spent += 1;
        if self.spent >= SEARCH_LIMIT {
            return Err(Budget);
        }
        Ok(())
    }

    /// The folder's device and inode when discovery does not search it itself: outside the
    /// root or under a `.git`, and not the root.
    fn outside(&self, target: &Path) -> Option<Id> {
        let covered = target.strip_prefix(&self.root).is_ok_and(|rel| {
            !rel.components()
                .any(|c| c == Component::Normal(".git".as_ref()))
        });
        if covered {
            return None;
        }
        let meta = std::fs::metadata(target).ok()?;
        let id = (meta.dev(), meta.ino());
        (id != self.root_id).then_some(id)
    }

    /// What the folder `top` reaches: a depth-first search of the folders below it and behind
    /// the links it meets, each listed at most once per run. Strongly connected folders (links
    /// back up) share their answer, as in Tarjan's algorithm: a search that finds a pack stops,
    /// and every folder still open on its way reaches that pack; a finished component reaches
    /// nothing. When the budget runs out, the open folders stay unknown.
    fn reach(&mut self, top: PathBuf, id: Id) -> Reach {
        if let Some(&r) = self.known.get(&id) {
            return r;
        }
        let mut search = Tarjan::default();
        match self.open(&mut search, top, id) {
            Ok(false) => {}
            Ok(true) => return self.settle_open(&search),
            Err(Budget) => return Reach::TooLarge,
        }
        while let Some(frame) = search.frames.last_mut() {
            let Some((path, child)) = frame.children.pop() else {
                self.close(&mut search);
                continue;
            };
            match self.known.get(&child) {
                Some(Reach::Pack) => return self.settle_open(&search),
                Some(_) => continue,
                None => {}
            }
            if let Some(&(index, on_stack)) = search.index.get(&child) {
                if on_stack {
                    frame.low = frame.low.min(index);
                }
                continue;
            }
            match self.open(&mut search, path, child) {
                Ok(false) => {}
                Ok(true) => return self.settle_open(&search),
                Err(Budget) => return Reach::TooLarge,
            }
        }
        Reach::Nothing
    }

    /// Lists the folder `path` (`id`) into a new frame of `search`: `Ok(true)` when it holds a
    /// `pack.toml`.
    fn open(&mut self, search: &mut Tarjan, path: PathBuf, id: Id) -> Result<bool, Budget> {
        let index = search.index.len();
        search.index.insert(id, (index, true));
        search.stack.push(id);
        self.listed += 1;
        let mut children = Vec::new();
        let Ok(entries) = std::fs::read_dir(&path) else {
            search.frames.push(Frame::new(id, index, children));
            return Ok(false);
        };
        for e in entries.flatten() {
            self.spend()?;
            let name = e.file_name();
            if super::is_manifest(&name) {
                return Ok(true);
            }
            if name == ".git" {
                continue;
            }
            let Ok(ft) = e.file_type() else { continue };
            let next = if ft.is_symlink() {
                self.resolve(&e.path())
            } else {
                ft.is_dir().then(|| e.path())
            };
            if let Some(child) = next.and_then(|p| self.outside(&p).map(|i| (p, i))) {
                children.push(child);
            }
        }
        // Popped from the end: searched in listing order reversed, which changes nothing of
        // the answer.
        search.frames.push(Frame::new(id, index, children));
        Ok(false)
    }

    /// The top frame is done: its folder's lowest reachable index passes to its parent, and a
    /// component's root settles the component as reaching nothing.
    fn close(&mut self, search: &mut Tarjan) {
        let Some(frame) = search.frames.pop() else {
            return;
        };
        if frame.low == frame.index {
            while let Some(id) = search.stack.pop() {
                if let Some(entry) = search.index.get_mut(&id) {
                    entry.1 = false;
                }
                self.known.insert(id, Reach::Nothing);
                if id == frame.id {
                    break;
                }
            }
        }
        if let Some(parent) = search.frames.last_mut() {
            parent.low = parent.low.min(frame.low);
        }
    }

    /// A pack was found: every folder still on the search's stack reaches it.
    fn settle_open(&mut self, search: &Tarjan) -> Reach {
        for id in &search.stack {
            self.known.insert(*id, Reach::Pack);
        }
        Reach::Pack
    }
}

/// The run's budget of entries is spent.
struct Budget;

/// The path `p` resolves to through every link, as `realpath` gives it: the kernel's own name
/// for an `O_PATH` descriptor of it (`/proc/self/fd/<n>`, checked to name that very folder or
/// file), which costs one walk of the path, where `realpath` (`canonicalize`) looks up every
/// prefix of it in turn (a folder 1,000 levels deep: 500,000 lookups for each link to it).
/// Without `/proc`, `canonicalize`.
fn real_path(p: &Path) -> Option<PathBuf> {
    use rustix::fs::{Mode, OFlags};
    use std::os::fd::AsRawFd;
    if let Ok(fd) = rustix::fs::open(p, OFlags::PATH | OFlags::CLOEXEC, Mode::empty())
        && let Ok(stat) = rustix::fs::fstat(&fd)
        && let Ok(named) = std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd()))
        && named.is_absolute()
        && std::fs::symlink_metadata(&named)
            .is_ok_and(|m| (m.dev(), m.ino()) == (stat.st_dev, stat.st_ino))
    {
        return Some(named);
    }
    std::fs::canonicalize(p).ok()
}

/// One search's state: each folder's index and whether it is still on the stack, the stack of
/// folders whose component is not settled, and the open folders.
#[derive(Default)]
struct Tarjan {
    index: HashMap<Id, (usize, bool)>,
    stack: Vec<Id>,
    frames: Vec<Frame>,
}

/// An open folder: its subfolders and link targets still to visit.
struct Frame {
    id: Id,
    index: usize,
    low: usize,
    children: Vec<(PathBuf, Id)>,
}

impl Frame {
    fn new(id: Id, index: usize, children: Vec<(PathBuf, Id)>) -> Frame {
        Frame {
            id,
            index,
            low: index,
            children,
        }
    }
}

#[cfg(test)]
mod tests;
