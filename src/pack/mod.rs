//! The pack model: what the walk found, with every file's bytes read once.
//!
//! No rule logic lives here beyond what keeps a hostile tree cheap: links are never followed,
//! FIFOs and devices are never opened, no file is read past its size limit plus one byte, and a
//! walk stops after [`MAX_ENTRIES`] entries.

pub(crate) mod place;
#[cfg(test)]
pub(crate) mod testing;
pub mod walk;

pub use crate::model::manifest::PackKind;

/// One file, at most [`ONE_FILE_LIMIT`]` + 1` bytes of it read.
pub(crate) const ONE_FILE_LIMIT: u64 = 65_536;
/// The walk stops after this many entries (docs/checks.md, "Walking").
pub(crate) const MAX_ENTRIES: usize = 10_000;
/// Content is read until this many bytes in all; past it, files are sized but not read (the
/// pack is then far over its 524,288-byte limit anyway).
pub(crate) const READ_BUDGET: u64 = 1 << 20;

/// The first line of a Git LFS pointer file (the LFS specification, "The pointer").
pub(crate) const LFS_POINTER_LINE: &str = "version https://git-lfs.github.com/spec/v1";

/// Something the walk could not do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WalkProblem {
    /// An entry (or the folder itself, `.`) could not be read: the OS's message. `in_pack` is
    /// false for an entry the walk could not list (it then points at no file of the pack).
    Unreadable {
        path: String,
        message: String,
        in_pack: bool,
    },
    /// The walk stopped after [`MAX_ENTRIES`] entries.
    EntryLimit,
}

/// Whether the walk descends into a folder: only the folders the layout of hippo's page "Writing
/// a pack" allows for the pack's kind (a theme pack allows none).
pub(crate) fn allowed_folder(kind: PackKind, path: &str) -> bool {
    if kind == PackKind::Theme {
        return false;
    }
    let parts: Vec<&str> = path.split('/').collect();
    matches!(
        parts.as_slice(),
        ["passes"]
            | ["prompts"]
            | ["personas"]
            | ["templates", ..]
            | ["tests"]
            | ["tests", _]
            | ["tests", _, "notes", ..]
            | ["tests", _, "transcripts"]
    )
}

/// What a walk entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EntryKind {
    File,
    /// A folder; `descended` is false for a folder the layout does not allow.
    Dir {
        descended: bool,
    },
    Symlink,
    /// FIFO, socket, device: never opened.
    Special,
}

#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// Pack-relative, `/`-separated (lossy where a name is not UTF-8).
    pub(crate) path: String,
    pub(crate) kind: EntryKind,
    /// Whether every component of the name is valid UTF-8.
    pub(crate) utf8: bool,
    /// For a folder not descended into: its first regular file in walk order, if a short look
    /// finds one (where a SARIF location for the folder points).
    pub(crate) first_file: Option<String>,
}

/// One regular file of a pack, read once.
#[derive(Debug, Clone)]
pub struct PackFile {
    pub(crate) path: String,
    /// The size the file system reports.
    pub(crate) size: u64,
    /// The bytes read: the whole file when `complete`, else a prefix (or nothing).
    pub bytes: Vec<u8>,
    pub(crate) complete: bool,
}

impl PackFile {
    /// The file as text, when it was read whole and is UTF-8.
    pub fn text(&self) -> Option<&str> {
        if self.complete {
            std::str::from_utf8(&self.bytes).ok()
        } else {
            None
        }
    }

    /// Whether the file is a Git LFS pointer: its first line is
    /// `version https://git-lfs.github.com/spec/v1` (the pointer format's first key; the content
    /// it stands for was never fetched).
    pub(crate) fn is_lfs_pointer(&self) -> bool {
        let rest = self.bytes.strip_prefix(LFS_POINTER_LINE.as_bytes());
        matches!(rest, Some(r) if r.is_empty() || r.starts_with(b"\n") || r.starts_with(b"\r\n"))
    }

    pub(crate) fn in_tests(&self) -> bool {
        self.path.starts_with("tests/")
    }
}

/// A pack as the walk read it: its entries, its files and what the walk ran into.
#[derive(Debug, Clone)]
pub struct Pack {
    /// The folder on disk.
    pub(crate) dir: std::path::PathBuf,
    pub(crate) kind: PackKind,
    /// Every entry in walk order (skipped ones excluded).
    pub(crate) entries: Vec<Entry>,
    /// Regular files, in walk order.
    files: Vec<PackFile>,
    /// `skipped <path>` lines, in walk order.
    pub(crate) skipped: Vec<String>,
    /// The skipped entries that are folders (a name starting with `.`, `.git` too, and a folder
    /// named `origin.json` at the top), in walk order: their paths (lossy where a name is not
    /// UTF-8) and whether the name is UTF-8. Discovery (`ci`) searches them for packs.
    pub(crate) hidden_folders: Vec<(String, bool)>,
    /// What the walk itself ran into (unreadable entries, the entry limit), in walk order; the
    /// rules layer reports them.
    pub(crate) walk_problems: Vec<WalkProblem>,
    /// Path → index in `files`; [`Pack::push_file`] keeps the two in step.
    index: std::collections::HashMap<String, usize>,
    /// Each file's place in a pass pack (`place::place`), beside `files`: the name as a span of
    /// the path. Found once per file, where several rules ask.
    pass_places: Vec<PassPlace>,
}

/// A file's place in a pass pack, its name as a span of the path.
type PassPlace = Option<(place::Place, Option<(usize, usize)>)>;

impl Pack {
    /// A pack with no entry yet, read from `dir` as a pack of `kind`.
    pub(crate) fn new(dir: std::path::PathBuf, kind: PackKind) -> Pack {
        Pack {
            dir,
            kind,
            entries: Vec::new(),
            files: Vec::new(),
            skipped: Vec::new(),
            hidden_folders: Vec::new(),
            walk_problems: Vec::new(),
            index: Default::default(),
            pass_places: Vec::new(),
        }
    }

    /// Regular files, in walk order.
    pub fn files(&self) -> &[PackFile] {
        &self.files
    }

    /// The file at a pack-relative path.
    pub fn file(&self, path: &str) -> Option<&PackFile> {
        self.index.get(path).map(|&i| &self.files[i])
    }

    /// Adds a file after the others (a later file of the same path is the one [`Pack::file`]
    /// finds).
    pub(crate) fn push_file(&mut self, file: PackFile) {
        self.index.insert(file.path.clone(), self.files.len());
        let base = file.path.as_ptr() as usize;
        let at = place::place(PackKind::Pass, &file.path).map(|(p, name)| {
            // The name is a part of the path: its span, from its address.
            let span = name.map(|n| {
                let start = (n.as_ptr() as usize).wrapping_sub(base);
                (start, start.wrapping_add(n.len()))
            });
            (p, span)
        });
        self.pass_places.push(at);
        self.files.push(file);
    }

    /// Replaces the content of the file at `path` with `bytes`, read whole (what `check --fix`
    /// wrote); false when the pack has no such file.
    pub(crate) fn set_bytes(&mut self, path: &str, bytes: Vec<u8>) -> bool {
        let Some(&i) = self.index.get(path) else {
            return false;
        };
        let f = &mut self.files[i];
        f.size = bytes.len() as u64;
        f.bytes = bytes;
        f.complete = true;
        true
    }

    /// Puts `bytes` (an editor's unsaved text) in place of what the walk read of the file at
    /// `path`, kept as the walk keeps a file: whole within [`ONE_FILE_LIMIT`], else sized
    /// only. False when the walk found no such file.
    pub(crate) fn overlay(&mut self, path: &str, bytes: &[u8]) -> bool {
        let Some(&i) = self.index.get(path) else {
            return false;
        };
        let f = &mut self.files[i];
        f.size = bytes.len() as u64;
        f.complete = f.size <= ONE_FILE_LIMIT;
        f.bytes = if f.complete {
            bytes.to_vec()
        } else {
            Vec::new()
        };
        true
    }

    /// The file at `path`, to change in a test (its path stays as it is).
    #[cfg(test)]
    pub(crate) fn file_mut(&mut self, path: &str) -> Option<&mut PackFile> {
        self.index.get(path).map(|&i| &mut self.files[i])
    }

    /// Each file with its place in a pass pack: `place::place(PackKind::Pass, &f.path)`, found
    /// once when the file was added.
    pub(crate) fn files_placed(
        &self,
    ) -> impl Iterator<Item = (&PackFile, Option<(place::Place, Option<&str>)>)> {
        self.files.iter().zip(&self.pass_places).map(|(f, at)| {
            let at = at.map(|(p, name)| (p, name.and_then(|(a, b)| f.path.get(a..b))));
            (f, at)
        })
    }

    /// Files under a folder prefix such as `passes/`.
    pub(crate) fn files_under<'a>(
        &'a self,
        prefix: &'a str,
    ) -> impl Iterator<Item = &'a PackFile> + 'a {
        self.files
            .iter()
            .filter(move |f| f.path.starts_with(prefix))
    }

    /// Where a pack-wide finding points: `pack.toml`, or the first file in walk order.
    pub(crate) fn anchor_file(&self) -> Option<String> {
        if self.file("pack.toml").is_some() {
            Some("pack.toml".to_string())
        } else {
            self.files.first().map(|f| f.path.clone())
        }
    }
}

impl Pack {
    /// A pack held in memory (for fuzzing and property tests): the files given, in byte order
    /// of their paths, with their folders; the kind read from `pack.toml` as the walk reads it.
    pub fn from_files(files: &[(&str, &[u8])]) -> Pack {
        let mut sorted: Vec<(&str, &[u8])> = files.to_vec();
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        let kind = sorted
            .iter()
            .find(|(p, _)| *p == "pack.toml")
            .map(|(_, b)| crate::model::manifest::kind_of(b))
            .unwrap_or(PackKind::Pass);
        let mut pack = Pack::new(std::path::PathBuf::from("."), kind);
        let mut dirs = std::collections::BTreeSet::new();
        for (path, bytes) in sorted {
            let parts: Vec<&str> = path.split('/').collect();
            for i in 1..parts.len() {
                let d = parts[..i].join("/");
                if dirs.insert(d.clone()) {
                    pack.entries.push(Entry {
                        path: d,
                        kind: EntryKind::Dir { descended: true },
                        utf8: true,
                        first_file: None,
                    });
                }
            }
            let complete = bytes.len() as u64 <= ONE_FILE_LIMIT;
            pack.push_file(PackFile {
                path: path.to_string(),
                size: bytes.len() as u64,
                bytes: if complete { bytes.to_vec() } else { Vec::new() },
                complete,
            });
            pack.entries.push(Entry {
                path: path.to_string(),
                kind: EntryKind::File,
                utf8: true,
                first_file: None,
            });
        }
        pack
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(bytes: &[u8]) -> PackFile {
        PackFile {
            path: "prompts/p.md".into(),
            size: bytes.len() as u64,
            bytes: bytes.to_vec(),
            complete: true,
        }
    }

    #[test]
    fn each_file_keeps_its_place_in_a_pass_pack() {
        let paths = [
            "passes/a-b.toml",
            "prompts/p.md",
            "personas/r.md",
            "tests/c/case.toml",
            "tests/c/transcripts/s.jsonl",
            "tests/c/notes/n.md",
            "templates/1/2/3/4/5/6/7/8/9/x.md",
            "theme.css",
            "extra.txt",
        ];
        for kind in [PackKind::Pass, PackKind::Theme] {
            let pack = testing::text_pack(kind, &paths.map(|p| (p, "x")));
            assert_eq!(pack.files().len(), paths.len());
            for (f, at) in pack.files_placed() {
                assert_eq!(at, place::place(PackKind::Pass, &f.path), "{}", f.path);
            }
        }
        // Control: a name is kept as its part of the path.
        let pack = testing::paths_pack(&["passes/a-b.toml"]);
        let at = pack.files_placed().next().and_then(|(_, at)| at);
        assert_eq!(at, Some((place::Place::Pass, Some("a-b"))));
    }

    #[test]
    fn an_lfs_pointer_is_known_by_its_first_line() {
        for yes in [
            "version https://git-lfs.github.com/spec/v1\noid sha256:ab\nsize 3\n",
            "version https://git-lfs.github.com/spec/v1\r\noid sha256:ab\r\n",
            "version https://git-lfs.github.com/spec/v1",
        ] {
            assert!(file(yes.as_bytes()).is_lfs_pointer(), "{yes:?}");
        }
        // Controls: the line elsewhere, longer, or indented is not a pointer.
        for no in [
            "# P\nversion https://git-lfs.github.com/spec/v1\n",
            "version https://git-lfs.github.com/spec/v10\n",
            " version https://git-lfs.github.com/spec/v1\n",
            "",
        ] {
            assert!(!file(no.as_bytes()).is_lfs_pointer(), "{no:?}");
        }
    }
}
