//! Packs held in memory for unit tests: the few builders the tests of the rule families share,
//! all over the one in-memory builder, [`Pack::from_files`] (or [`Pack::new`] for a pack known
//! by its sizes alone).

use super::{Pack, PackFile, PackKind};

/// A pack of text files, of the given kind whatever its `pack.toml` says.
pub(crate) fn text_pack(kind: PackKind, files: &[(&str, &str)]) -> Pack {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    let mut pack = Pack::from_files(&files);
    pack.kind = kind;
    pack
}

/// A pack of the files named, each holding `x`: for the rules that read paths only.
pub(crate) fn paths_pack(paths: &[&str]) -> Pack {
    let list: Vec<(&str, &[u8])> = paths.iter().map(|p| (*p, b"x".as_slice())).collect();
    Pack::from_files(&list)
}

/// A pack of files given as `(path, bytes, complete)`: a file not complete was cut at its size
/// limit (sized, a prefix read, not scanned).
pub(crate) fn bytes_pack<B: AsRef<[u8]>>(files: &[(&str, B, bool)]) -> Pack {
    let list: Vec<(&str, &[u8])> = files.iter().map(|(p, b, _)| (*p, b.as_ref())).collect();
    let mut pack = Pack::from_files(&list);
    for (path, _, complete) in files {
        if let Some(f) = pack.file_mut(path) {
            f.complete = *complete;
        }
    }
    pack
}

/// A pass pack of files known by their sizes alone: none read, none complete.
pub(crate) fn sized_pack(sizes: &[(&str, u64)]) -> Pack {
    let mut pack = Pack::new(".".into(), PackKind::Pass);
    for (p, s) in sizes {
        pack.push_file(PackFile {
            path: p.to_string(),
            size: *s,
            bytes: vec![],
            complete: false,
        });
    }
    pack
}

mod tests {
    use super::*;

    #[test]
    fn the_builders_make_what_they_say() {
        let p = text_pack(PackKind::Theme, &[("pack.toml", "name = \"p\"\n")]);
        assert_eq!(
            p.kind,
            PackKind::Theme,
            "the kind given, not the manifest's"
        );
        assert!(p.file("pack.toml").is_some_and(|f| f.complete));
        let p = paths_pack(&["b.md", "a.md"]);
        assert_eq!(
            p.file("a.md").map(|f| f.bytes.as_slice()),
            Some(b"x".as_slice())
        );
        let p = bytes_pack(&[
            ("a.md", b"k".to_vec(), true),
            ("b.md", b"k".to_vec(), false),
        ]);
        assert!(p.file("a.md").is_some_and(|f| f.complete));
        assert!(
            p.file("b.md").is_some_and(|f| !f.complete),
            "control: b.md was cut"
        );
        let p = sized_pack(&[("a.md", 70_000)]);
        assert!(
            p.file("a.md")
                .is_some_and(|f| f.size == 70_000 && f.bytes.is_empty())
        );
    }
}
