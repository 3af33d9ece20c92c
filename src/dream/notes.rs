//! The workspace's notes (docs/testing-packs.md, "Candidate notes"): a note's id is its workspace path (`notes/Decision log.md`),
//! its type the top-level `type` of a leading YAML front-matter block (`model::front_matter`).

use std::collections::{BTreeMap, HashMap};

use crate::system::folder::Folder;

/// Where the notes live. The engine reads a note only when it needs its type or its text, so a
/// note the filters leave out is never read whole.
pub trait Notes {
    /// Whether the note exists.
    fn exists(&self, id: &str) -> bool;
    /// The note's text, when it exists and can be read.
    fn read(&mut self, id: &str) -> Option<String>;
    /// Writes the note's text; `Err` says why it could not.
    fn write(&mut self, id: &str, text: &str) -> Result<(), String>;
}

/// Notes held in memory (for tests of the engine).
#[derive(Debug, Clone, Default)]
pub struct MemoryNotes {
    pub(crate) notes: BTreeMap<String, String>,
    /// Every note read, in order.
    pub(crate) reads: Vec<String>,
}

impl MemoryNotes {
    /// Notes from `(id, text)` pairs.
    pub fn new<I: IntoIterator<Item = (S, S)>, S: Into<String>>(notes: I) -> Self {
        MemoryNotes {
            notes: notes
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
            reads: Vec::new(),
        }
    }
}

impl Notes for MemoryNotes {
    fn exists(&self, id: &str) -> bool {
        self.notes.contains_key(id)
    }
    fn read(&mut self, id: &str) -> Option<String> {
        self.reads.push(id.to_string());
        self.notes.get(id).cloned()
    }
    fn write(&mut self, id: &str, text: &str) -> Result<(), String> {
        self.notes.insert(id.to_string(), text.to_string());
        Ok(())
    }
}

/// Notes in a workspace's `notes/` folder, held open: note `notes/a/b.md` is the file `a/b.md`
/// of that folder. Each note is read from the folder once and then kept as the pass changes it
/// (every change is written through), so a pass that reads a note for its type, its call, each
/// proposal and its review reads the file once.
#[derive(Debug, Clone)]
pub(crate) struct DirNotes<'f> {
    pub(crate) dir: &'f Folder,
    /// The notes the folder holds, each with the length it was written with, when the caller
    /// just wrote them (`None`: ask the file system).
    known: Option<HashMap<String, usize>>,
    read: HashMap<String, Option<String>>,
}

impl<'f> DirNotes<'f> {
    /// The notes of a workspace's `notes/` folder, whatever it holds.
    pub(crate) fn new(dir: &'f Folder) -> Self {
        DirNotes {
            dir,
            known: None,
            read: Default::default(),
        }
    }

    /// The notes of a workspace's `notes/` folder that holds exactly `written` (ids, each with
    /// the length the caller just wrote it with), so whether a note exists is known without
    /// asking the file system, and a note is read without looking for its end.
    pub(crate) fn written(
        dir: &'f Folder,
        written: impl IntoIterator<Item = (String, usize)>,
    ) -> Self {
        DirNotes {
            known: Some(written.into_iter().collect()),
            ..DirNotes::new(dir)
        }
    }

    /// The note's path in the `notes/` folder.
    fn rel(id: &str) -> Option<&str> {
        // Ids come from a checked case.toml (`notes/...`, no `..`); refuse anything else anyway.
        let rel = id.strip_prefix("notes/")?;
        let ok = rel
            .split('/')
            .all(|c| !c.is_empty() && c != ".." && c != ".");
        ok.then_some(rel)
    }
}

impl Notes for DirNotes<'_> {
    fn exists(&self, id: &str) -> bool {
        match &self.known {
            Some(known) => known.contains_key(id) && Self::rel(id).is_some(),
            None => Self::rel(id).is_some_and(|rel| self.dir.is_file(rel)),
        }
    }
    fn read(&mut self, id: &str) -> Option<String> {
        if let Some(text) = self.read.get(id) {
            return text.clone();
        }
        let written = self.known.as_ref().and_then(|k| k.get(id).copied());
        let text = self.dir.read_text(Self::rel(id)?, written).ok();
        self.read.insert(id.to_string(), text.clone());
        text
    }
    fn write(&mut self, id: &str, text: &str) -> Result<(), String> {
        let rel = Self::rel(id).ok_or_else(|| format!("{id} is not a note path"))?;
        // The kept text is the file's (read from it, or written to it, here): a text that only
        // adds to it (a confirmed append) is written as what it adds, so the file is not
        // emptied and filled again.
        let added = match self.read.get(id) {
            Some(Some(old)) if text.len() > old.len() && text.starts_with(old.as_str()) => {
                text.get(old.len()..)
            }
            _ => None,
        };
        let appended = added.is_some_and(|added| self.dir.append(rel, added.as_bytes()).is_ok());
        if !appended {
            self.dir
                .write(rel, text.as_bytes())
                .map_err(|e| format!("cannot write {id}: {e}"))?;
        }
        self.read.insert(id.to_string(), Some(text.to_string()));
        if let Some(known) = &mut self.known {
            known.insert(id.to_string(), text.len());
        }
        Ok(())
    }
}

/// The top-level `type` of a leading YAML front-matter block (`model::front_matter`); `None`
/// without one, or when YAML cannot read it (`check` warns of that: `front-matter`).
pub(crate) fn note_type(text: &str) -> Option<String> {
    crate::model::front_matter::read(text)
        .note_type()
        .map(str::to_string)
}

/// The text after a confirmed append: a final newline if the note lacks one, then `new` and a
/// newline (an empty note gets no blank line first).
pub(crate) fn append(note: &str, new: &str) -> String {
    let mut s = note.to_string();
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    s.push_str(new);
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_types() {
        assert_eq!(
            note_type("---\ntitle: x\ntype: decision\n---\n# x\n").as_deref(),
            Some("decision")
        );
        assert_eq!(
            note_type("---\r\ntype: 'log'\r\n---\r\n").as_deref(),
            Some("log")
        );
        assert_eq!(note_type("# x\ntype: decision\n"), None, "not at the top");
        assert_eq!(note_type("---\ntype: decision\n"), None, "unclosed");
        assert_eq!(
            note_type("---\ntitle: x\n---\ntype: log\n"),
            None,
            "after the block"
        );
        assert_eq!(
            note_type("---\ntype: decision  # ADR\n---\n").as_deref(),
            Some("decision"),
            "a YAML comment"
        );
        assert_eq!(
            note_type("---\ntype: [x\n---\n"),
            None,
            "YAML cannot read it"
        );
    }

    #[test]
    fn appends() {
        assert_eq!(append("a", "b"), "a\nb\n");
        assert_eq!(append("a\n", "b"), "a\nb\n");
        assert_eq!(append("", "b"), "b\n");
    }

    /// A workspace's `notes/` folder, held open.
    fn notes_folder() -> (tempfile::TempDir, Folder) {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("notes")).unwrap();
        let dir = Folder::open(&tmp.path().join("notes")).unwrap();
        (tmp, dir)
    }

    #[test]
    fn dir_notes_refuse_paths_outside_notes() {
        let (tmp, dir) = notes_folder();
        let mut n = DirNotes::new(&dir);
        n.write("notes/a.md", "x").unwrap();
        assert_eq!(n.read("notes/a.md").as_deref(), Some("x"));
        assert!(n.exists("notes/a.md"));
        assert!(!n.exists("notes/b.md"));
        assert!(n.write("notes/../escape.md", "x").is_err());
        assert!(n.write("other/a.md", "x").is_err());
        assert!(!tmp.path().join("escape.md").exists());
        assert!(!tmp.path().join("notes/other").exists());
        // Control: a note in a folder of notes/ is written there.
        std::fs::create_dir(tmp.path().join("notes/sub")).unwrap();
        n.write("notes/sub/c.md", "y").unwrap();
        assert!(tmp.path().join("notes/sub/c.md").is_file());
    }

    #[test]
    fn dir_notes_read_each_file_once_and_write_through() {
        let (tmp, dir) = notes_folder();
        std::fs::write(tmp.path().join("notes/a.md"), "one").unwrap();
        let mut n = DirNotes::written(&dir, [("notes/a.md".to_string(), 3)]);
        assert!(n.exists("notes/a.md"));
        assert!(!n.exists("notes/b.md"), "only the notes written");
        assert_eq!(n.read("notes/a.md").as_deref(), Some("one"));
        // A second read is the kept text, not the file's (which nobody else may change).
        std::fs::write(tmp.path().join("notes/a.md"), "changed behind").unwrap();
        assert_eq!(n.read("notes/a.md").as_deref(), Some("one"));
        n.write("notes/a.md", "two").unwrap();
        assert_eq!(n.read("notes/a.md").as_deref(), Some("two"));
        let on_disk = || std::fs::read_to_string(tmp.path().join("notes/a.md")).unwrap();
        assert_eq!(on_disk(), "two", "control: a write reaches the file");
        n.write("notes/a.md", "two\nthree\n").unwrap();
        assert_eq!(on_disk(), "two\nthree\n", "an append adds to the file");
        n.write("notes/a.md", "tw").unwrap();
        assert_eq!(on_disk(), "tw", "a shorter text replaces it");
        n.write("notes/a.md", "TW and more").unwrap();
        assert_eq!(
            on_disk(),
            "TW and more",
            "so does a longer text that is no append"
        );
        std::fs::remove_file(tmp.path().join("notes/a.md")).unwrap();
        n.write("notes/a.md", "TW and more, again").unwrap();
        assert_eq!(
            on_disk(),
            "TW and more, again",
            "a file gone is written whole"
        );
    }

    #[test]
    fn a_note_of_another_length_than_written_is_read_whole() {
        let (tmp, dir) = notes_folder();
        std::fs::write(tmp.path().join("notes/a.md"), "longer than said").unwrap();
        std::fs::write(tmp.path().join("notes/b.md"), "").unwrap();
        let written = [("notes/a.md".to_string(), 3), ("notes/b.md".to_string(), 9)];
        let mut n = DirNotes::written(&dir, written);
        assert_eq!(n.read("notes/a.md").as_deref(), Some("longer than said"));
        assert_eq!(n.read("notes/b.md").as_deref(), Some(""));
        std::fs::write(tmp.path().join("notes/c.md"), [0xff]).unwrap();
        let mut n = DirNotes::written(&dir, [("notes/c.md".to_string(), 1)]);
        assert_eq!(n.read("notes/c.md"), None, "control: not UTF-8 is no note");
    }
}
