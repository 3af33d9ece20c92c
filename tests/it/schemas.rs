//! The JSON Schemas of the TOML documents (`hippo-packs schema <document>`): the committed
//! copies under docs/schemas/ are the command's output, and a real consumer (the `jsonschema`
//! crate) holds every TOML document of the repository's packs to them, each turned into JSON as
//! an editor's TOML support does. A file `check` finds nothing wrong with is valid; a file the
//! schema refuses is one `check` reports a key of (unknown, missing or of the wrong type).

use std::path::{Path, PathBuf};
use std::process::Command;

const DOCUMENTS: [(&str, &str); 4] = [
    ("pack", "pack.schema.json"),
    ("pass", "pass.schema.json"),
    ("case", "case.schema.json"),
    ("hippo-packs", "hippo-packs.schema.json"),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn schema(document: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .args(["schema", document])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_committed_schemas_are_the_commands() {
    for (document, file) in DOCUMENTS {
        let path = root().join("docs/schemas").join(file);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        let made = schema(document);
        if committed != made && std::env::var_os("CI").is_none() {
            std::fs::write(path.with_extension("json.new"), &made).unwrap();
        }
        assert_eq!(
            committed, made,
            "docs/schemas/{file} is stale: `hippo-packs schema {document}` wrote {file}.new beside it (review, then mv)"
        );
    }
}

/// Every file under `dir` named `name` (or, for `*.toml`, in a `passes/` folder).
fn tomls(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() {
            tomls(&p, out);
        } else if t.is_file() && p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

/// The schema a file answers to, from its place in its pack.
fn document_of(p: &Path) -> Option<&'static str> {
    let name = p.file_name()?.to_str()?;
    let parent = p.parent()?.file_name()?.to_str()?;
    let grand = p.parent()?.parent()?.file_name()?.to_str()?;
    match (name, parent, grand) {
        ("pack.toml", _, _) => Some("pack"),
        ("case.toml", _, "tests") => Some("case"),
        (_, "passes", _) => Some("pass"),
        (".hippo-packs.toml", _, _) => Some("hippo-packs"),
        _ => None,
    }
}

/// The rule ids of `check`'s findings on `file` (pack-relative) in the pack at `pack`.
fn findings(pack: &Path, file: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .args(["check", &pack.display().to_string(), "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["packs"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"] == file)
        .map(|d| d["rule"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_toml_of_the_packs_answers_to_its_schema_as_check_does() {
    let validators: Vec<(&str, jsonschema::Validator)> = DOCUMENTS
        .iter()
        .map(|(d, _)| {
            let v: serde_json::Value = serde_json::from_str(&schema(d)).unwrap();
            (*d, jsonschema::validator_for(&v).unwrap())
        })
        .collect();
    let mut files = Vec::new();
    for dir in ["examples", "tests/packs", "tests/fixtures", "tests/cmd"] {
        tomls(&root().join(dir), &mut files);
    }
    files.sort();
    let (mut valid, mut refused, mut built) = (0, 0, 0);
    for p in files {
        let Some(document) = document_of(&p) else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        // A file TOML cannot read is no document for a schema (check says why).
        let Ok(toml) = text.parse::<toml::Table>() else {
            continue;
        };
        let json = serde_json::to_value(&toml).unwrap();
        let validator = &validators.iter().find(|(d, _)| *d == document).unwrap().1;
        let ok = validator.is_valid(&json);
        if document == "hippo-packs" {
            assert!(ok, "{}", p.display());
            valid += 1;
            continue;
        }
        // A document in no pack (a fixture that lacks its pack.toml) has no check to agree with.
        let tmp = tempfile::tempdir().unwrap();
        let Some((pack, rel)) = place_of(&p, tmp.path()) else {
            continue;
        };
        let ids = findings(&pack, &rel);
        built += usize::from(pack.starts_with(tmp.path()));
        let key_finding = ids.iter().any(|id| {
            id.ends_with("-unknown-key") || id.ends_with("-missing-key") || id.ends_with("-value")
        });
        if ids.is_empty() {
            assert!(
                ok,
                "{}: check finds nothing, the schema refuses it",
                p.display()
            );
        }
        if !ok {
            assert!(
                key_finding,
                "{}: the schema refuses it, check reports {ids:?}",
                p.display()
            );
            refused += 1;
        } else {
            valid += 1;
        }
    }
    assert!(valid > 50, "{valid} files held to a schema");
    assert!(
        built > 5,
        "control: the documents of fixtures written as the good pack plus changes are held ({built})"
    );
    assert!(
        refused > 3,
        "control: files with a wrong key are refused ({refused})"
    );
}

/// The pack a document is checked in, and the document's path there: for a file of a fixture
/// variant's `changes/` (the good pack plus its changes, tests/fixture_setup), the variant's pack
/// built in `tmp`; otherwise the folder of the pack.toml above it, if any.
fn place_of(p: &Path, tmp: &Path) -> Option<(PathBuf, String)> {
    let changes = p.ancestors().find(|a| {
        a.file_name()
            .is_some_and(|n| n == crate::fixture_setup::CHANGES)
            && a.with_file_name(crate::fixture_setup::FILE).is_file()
    });
    if let Some(changes) = changes {
        let variant = changes.parent()?;
        crate::fixture_setup::build(variant, &root().join("tests/packs"), tmp)
            .unwrap_or_else(|e| panic!("{}: {e}", variant.display()));
        let rel = p.strip_prefix(changes).ok()?.display().to_string();
        return Some((tmp.join("pack"), rel));
    }
    let pack = pack_of(p)?;
    let rel = p.strip_prefix(&pack).ok()?.display().to_string();
    Some((pack, rel))
}

/// The pack folder holding a document: the folder of its pack.toml above it, if any.
fn pack_of(p: &Path) -> Option<PathBuf> {
    let mut d = p.parent()?;
    while !d.join("pack.toml").is_file() {
        d = d.parent()?;
    }
    Some(d.to_path_buf())
}
