//! The workspace's notes (docs/testing-packs.md, "Candidate notes"): a note's id is its workspace path (`notes/Decision log.md`),
//! its type the `type:` key of a leading YAML front-matter block.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// Where the notes live. The engine reads a note only when it needs its type or its text, so a
/// note the filters leave out is never read whole.
pub trait Notes {
    /// Whether the note exists.
    fn exists(&self, id: &str) -> bool;
    fn read(&mut self, id: &str) -> Option<String>;
    fn write(&mut self, id: &str, text: &str) -> Result<(), String>;
}

/// Notes held in memory (for tests of the engine).
#[derive(Debug, Clone, Default)]
pub struct MemoryNotes {
    pub notes: BTreeMap<String, String>,
    /// Every note read, in order.
    pub reads: Vec<String>,
}

impl MemoryNotes {
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

/// Notes in a workspace folder: note `notes/a/b.md` is the file `<root>/notes/a/b.md`. Each note
/// is read from the folder once and then kept as the pass changes it (every change is written
/// through), so a pass that reads a note for its type, its call, each proposal and its review
/// reads the file once.
#[derive(Debug, Clone)]
pub struct DirNotes {
    pub root: PathBuf,
    /// The notes the folder holds, when the caller just wrote them (`None`: ask the file system).
    known: Option<std::collections::HashSet<String>>,
    read: std::collections::HashMap<String, Option<String>>,
}

impl DirNotes {
    /// The notes of a workspace folder, whatever it holds.
    pub fn new(root: PathBuf) -> Self {
        DirNotes {
            root,
            known: None,
            read: Default::default(),
        }
    }

    /// The notes of a workspace folder that holds exactly `ids` (just written there), so
    /// whether a note exists is known without asking the file system.
    pub fn written(root: PathBuf, ids: impl IntoIterator<Item = String>) -> Self {
        DirNotes {
            known: Some(ids.into_iter().collect()),
            ..DirNotes::new(root)
        }
    }

    fn path(&self, id: &str) -> Option<PathBuf> {
        // Ids come from a checked case.toml (`notes/...`, no `..`); refuse anything else anyway.
        let ok = id.starts_with("notes/")
            && id
                .split('/')
                .all(|c| !c.is_empty() && c != ".." && c != ".");
        ok.then(|| self.root.join(id))
    }
}

impl Notes for DirNotes {
    fn exists(&self, id: &str) -> bool {
        match &self.known {
            Some(known) => known.contains(id) && self.path(id).is_some(),
            None => self.path(id).is_some_and(|p| p.is_file()),
        }
    }
    fn read(&mut self, id: &str) -> Option<String> {
        if let Some(text) = self.read.get(id) {
            return text.clone();
        }
        let text = read_text(&self.path(id)?, 0).ok();
        self.read.insert(id.to_string(), text.clone());
        text
    }
    fn write(&mut self, id: &str, text: &str) -> Result<(), String> {
        let p = self
            .path(id)
            .ok_or_else(|| format!("{id} is not a note path"))?;
        std::fs::write(&p, text).map_err(|e| format!("cannot write {id}: {e}"))?;
        self.read.insert(id.to_string(), Some(text.to_string()));
        if let Some(known) = &mut self.known {
            known.insert(id.to_string());
        }
        Ok(())
    }
}

/// A file's text, read without asking its size first (`len` is what the caller expects; a file
/// of another size is read whole all the same): an open, two reads (the text, then the end), a
/// close. `std::fs::read_to_string` and `File::read_to_string` also ask the file's size and
/// position (`statx`, `lseek`) for their size hint.
pub fn read_text(path: &std::path::Path, len: usize) -> std::io::Result<String> {
    use std::io::Read;
    /// Only `read`: the generic `read_to_string`, which asks nothing but reads.
    struct Plain(std::fs::File);
    impl Read for Plain {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.0.read(buf)
        }
    }
    let mut text = String::with_capacity(if len > 0 { len + 1 } else { 8 * 1024 });
    Plain(std::fs::File::open(path)?).read_to_string(&mut text)?;
    if text.capacity() > text.len() + 4096 {
        text.shrink_to_fit();
    }
    Ok(text)
}

/// The `type:` of a leading front-matter block (`---` ... `---`), unquoted; `None` without one.
pub fn note_type(text: &str) -> Option<String> {
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    let mut found = None;
    for line in lines {
        if line.trim_end() == "---" || line.trim_end() == "..." {
            return found;
        }
        if let Some(v) = line.strip_prefix("type:") {
            let v = v.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .or_else(|| v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
                .unwrap_or(v);
            if found.is_none() {
                found = Some(v.to_string());
            }
        }
    }
    None // an unclosed block is not front matter
}

/// The text after a confirmed append: a final newline if the note lacks one, then `new` and a
/// newline (an empty note gets no blank line first).
pub fn append(note: &str, new: &str) -> String {
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
    }

    #[test]
    fn appends() {
        assert_eq!(append("a", "b"), "a\nb\n");
        assert_eq!(append("a\n", "b"), "a\nb\n");
        assert_eq!(append("", "b"), "b\n");
    }

    #[test]
    fn dir_notes_refuse_paths_outside_notes() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("notes")).unwrap();
        let mut n = DirNotes::new(tmp.path().to_path_buf());
        n.write("notes/a.md", "x").unwrap();
        assert_eq!(n.read("notes/a.md").as_deref(), Some("x"));
        assert!(n.exists("notes/a.md"));
        assert!(n.write("notes/../escape.md", "x").is_err());
        assert!(!tmp.path().join("escape.md").exists());
    }

    #[test]
    fn read_text_reads_whole_files_of_any_size() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("a.md");
        for text in [String::new(), "é".repeat(10), "x".repeat(100_000)] {
            std::fs::write(&p, &text).unwrap();
            for len in [0, 1, text.len(), text.len() + 1] {
                assert_eq!(read_text(&p, len).unwrap(), text, "expected {len}");
            }
        }
        std::fs::write(&p, [0xff, 0xfe]).unwrap();
        assert!(read_text(&p, 2).is_err(), "control: not UTF-8 is an error");
    }

    #[test]
    fn dir_notes_read_each_file_once_and_write_through() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("notes")).unwrap();
        std::fs::write(tmp.path().join("notes/a.md"), "one").unwrap();
        let mut n = DirNotes::written(tmp.path().to_path_buf(), ["notes/a.md".to_string()]);
        assert!(n.exists("notes/a.md"));
        assert!(!n.exists("notes/b.md"), "only the notes written");
        assert_eq!(n.read("notes/a.md").as_deref(), Some("one"));
        // A second read is the kept text, not the file's (which nobody else may change).
        std::fs::write(tmp.path().join("notes/a.md"), "changed behind").unwrap();
        assert_eq!(n.read("notes/a.md").as_deref(), Some("one"));
        n.write("notes/a.md", "two").unwrap();
        assert_eq!(n.read("notes/a.md").as_deref(), Some("two"));
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("notes/a.md")).unwrap(),
            "two",
            "control: a write reaches the file"
        );
    }
}
