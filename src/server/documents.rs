//! The documents the editor holds open (their unsaved text and version), where a document's
//! pack is, and `file:` URIs to paths and back.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::Uri;

/// One open document: as the client named it, its text now and the version the client gave it.
#[derive(Debug, Clone)]
pub(crate) struct Document {
    pub(crate) uri: Uri,
    pub(crate) text: String,
    pub(crate) version: i32,
}

/// The open documents by path.
#[derive(Debug, Default)]
pub(crate) struct Documents {
    by_path: HashMap<PathBuf, Document>,
}

impl Documents {
    pub(crate) fn insert(&mut self, path: PathBuf, doc: Document) {
        self.by_path.insert(path, doc);
    }

    pub(crate) fn remove(&mut self, path: &Path) {
        self.by_path.remove(path);
    }

    pub(crate) fn get(&self, path: &Path) -> Option<&Document> {
        self.by_path.get(path)
    }

    pub(crate) fn get_mut(&mut self, path: &Path) -> Option<&mut Document> {
        self.by_path.get_mut(path)
    }

    /// The open documents of the pack folder `dir` (not those of a pack inside it), by
    /// pack-relative `/`-separated path.
    pub(crate) fn in_pack<'a>(
        &'a self,
        dir: &'a Path,
    ) -> impl Iterator<Item = (String, &'a Document)> + 'a {
        self.by_path.iter().filter_map(move |(path, doc)| {
            let rel = path.strip_prefix(dir).ok()?;
            if pack_of(path).as_deref() != Some(dir) {
                return None;
            }
            let parts: Option<Vec<&str>> =
                rel.components().map(|c| c.as_os_str().to_str()).collect();
            Some((parts?.join("/"), doc))
        })
    }
}

/// The path a `file:` URI names; `None` for any other scheme.
pub(crate) fn path_of(uri: &Uri) -> Option<PathBuf> {
    url::Url::parse(uri.as_str()).ok()?.to_file_path().ok()
}

/// The `file:` URI of an absolute path.
pub(crate) fn uri_of(path: &Path) -> Option<Uri> {
    let url = url::Url::from_file_path(path).ok()?;
    Uri::from_str(url.as_str()).ok()
}

/// The pack holding a file: the nearest folder above it with a `pack.toml` (the file's own
/// folder first).
pub(crate) fn pack_of(file: &Path) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .find(|dir| dir.join("pack.toml").is_file())
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_belongs_to_the_nearest_pack_above_it() {
        let t = tempfile::tempdir().unwrap();
        let pack = t.path().join("a");
        std::fs::create_dir_all(pack.join("prompts")).unwrap();
        let prompt = pack.join("prompts/p.md");
        assert_eq!(pack_of(&prompt), None, "control: no pack.toml");
        std::fs::write(pack.join("pack.toml"), "").unwrap();
        assert_eq!(pack_of(&prompt), Some(pack.clone()));
        assert_eq!(pack_of(&pack.join("pack.toml")), Some(pack));
    }

    #[test]
    fn uris_and_paths_round_trip() {
        let p = Path::new("/tmp/a pack/prompts/p\u{e9}.md");
        let uri = uri_of(p).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20pack/prompts/p%C3%A9.md");
        assert_eq!(path_of(&uri).as_deref(), Some(p));
        let web = Uri::from_str("https://example.com/p.md").unwrap();
        assert_eq!(path_of(&web), None, "control: not a file");
    }

    #[test]
    fn open_documents_are_found_by_their_pack() {
        let t = tempfile::tempdir().unwrap();
        let (a, inner) = (t.path().join("a"), t.path().join("a/prompts/inner"));
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(a.join("pack.toml"), "").unwrap();
        std::fs::write(inner.join("pack.toml"), "").unwrap();
        let mut docs = Documents::default();
        for p in [
            a.join("prompts/x.md"),
            inner.join("pack.toml"),
            t.path().join("b/y.md"),
        ] {
            let doc = Document {
                uri: uri_of(&p).unwrap(),
                text: String::new(),
                version: 1,
            };
            docs.insert(p, doc);
        }
        let rels: Vec<String> = docs.in_pack(&a).map(|(r, _)| r).collect();
        assert_eq!(
            rels,
            ["prompts/x.md"],
            "not the inner pack's, nor another folder's"
        );
        let rels: Vec<String> = docs.in_pack(&inner).map(|(r, _)| r).collect();
        assert_eq!(rels, ["pack.toml"]);
    }
}
