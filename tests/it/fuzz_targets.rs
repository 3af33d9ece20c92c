//! Every fuzz target under `fuzz/fuzz_targets/` is declared in `fuzz/Cargo.toml`, so
//! `cargo fuzz list` (and `scripts/fuzz.sh`) builds and runs it: a target written but never
//! declared is never compiled. The fuzzing itself
//! needs a nightly toolchain and cargo-fuzz; `scripts/fuzz.sh` runs it (docs/security.md,
//! "Fuzzing").

use std::collections::BTreeSet;
use std::path::Path;

fn fuzz_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz"))
}

/// The target files (`common.rs` is a shared module, not a target) that no `[[bin]]` declares,
/// and the declared paths with no file.
fn undeclared(manifest: &str, files: &BTreeSet<String>) -> (Vec<String>, Vec<String>) {
    let doc: toml::Table = manifest.parse().expect("fuzz/Cargo.toml parses");
    let declared: BTreeSet<String> = doc
        .get("bin")
        .and_then(|b| b.as_array())
        .map(|bins| {
            bins.iter()
                .filter_map(|b| b.get("path")?.as_str())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let targets: BTreeSet<String> = files
        .iter()
        .filter(|f| !f.ends_with("/common.rs"))
        .cloned()
        .collect();
    (
        targets.difference(&declared).cloned().collect(),
        declared.difference(&targets).cloned().collect(),
    )
}

fn target_files() -> BTreeSet<String> {
    std::fs::read_dir(fuzz_dir().join("fuzz_targets"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rs"))
        .map(|n| format!("fuzz_targets/{n}"))
        .collect()
}

#[test]
fn every_fuzz_target_is_declared_and_the_string_decoders_are_fuzzed() {
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    let files = target_files();
    assert_eq!(
        undeclared(&manifest, &files),
        (vec![], vec![]),
        "fuzz/Cargo.toml and fuzz/fuzz_targets/ disagree"
    );
    let read = |t: &str| std::fs::read_to_string(fuzz_dir().join(t)).unwrap();
    let decode = read("fuzz_targets/decode.rs");
    for call in [
        "decode::view(\"pack.toml\"",
        "decode::view(\"theme.json\"",
        "basic_toml::from_str",
        "tinyjson::JsonValue",
    ] {
        assert!(
            decode.contains(call),
            "the differential target calls {call}"
        );
    }
    assert!(read("fuzz_targets/css.rs").contains("decode::css_escapes"));
    for f in &files {
        let text = std::fs::read_to_string(fuzz_dir().join(f)).unwrap();
        assert!(
            f.ends_with("/common.rs") || text.contains("fuzz_target!"),
            "{f} is a fuzz target"
        );
    }
}

#[test]
fn control_a_target_left_out_of_the_manifest_is_caught() {
    let manifest = "[[bin]]\nname = \"a\"\npath = \"fuzz_targets/a.rs\"\n\n[[bin]]\nname = \"gone\"\npath = \"fuzz_targets/gone.rs\"\n";
    let files: BTreeSet<String> = [
        "fuzz_targets/a.rs",
        "fuzz_targets/b.rs",
        "fuzz_targets/common.rs",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(
        undeclared(manifest, &files),
        (
            vec!["fuzz_targets/b.rs".to_string()],
            vec!["fuzz_targets/gone.rs".to_string()]
        )
    );
}
