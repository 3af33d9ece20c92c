//! A fixture variant written as the good pack plus its changes: `setup.toml` names the base pack
//! (a folder of `tests/packs/`) and the paths removed from it, and the folder `changes/` holds
//! the files added or replaced, at their paths inside the pack. The fixture binary builds the
//! variant's `pack/` in its temporary folder from the two (docs/architecture.md, "Adding a
//! warning to an existing family"), and tests/it/schemas.rs does to hold the changed TOML
//! documents to their schemas in their pack.
//!
//! ```toml
//! base = "decision-log"
//! remove = ["templates", "tests"]
//! ```
//!
//! A setup that names what is not there, or that changes nothing, is an error: a removed path
//! the base does not hold, a changed file identical to the base's, a change where the base has
//! a folder, or no removal and no change at all.

use std::path::{Component, Path};

/// The name of the file that describes a variant as the good pack plus changes.
pub(crate) const FILE: &str = "setup.toml";
/// The folder of a variant's added and replaced files.
pub(crate) const CHANGES: &str = "changes";

/// What `setup.toml` holds.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Setup {
    /// The pack the variant starts from: a folder of `tests/packs/`.
    base: String,
    /// Paths inside the base, files or folders, removed before the changes are laid over it.
    #[serde(default)]
    remove: Vec<String>,
}

/// What is wrong with how the variant at `variant` makes its pack: it needs one of `pack/`,
/// `setup.toml` (with `changes/`) or a bash `setup`; `setup.toml` beside `pack/` would lay the
/// good pack over a pack of its own, and `changes/` without `setup.toml` is laid over nothing.
pub(crate) fn layout_problem(variant: &Path) -> Option<&'static str> {
    let has = |f: &str| variant.join(f).exists();
    if has(FILE) && has("pack") {
        Some("both setup.toml and pack/: setup.toml builds the pack")
    } else if has(CHANGES) && !has(FILE) {
        Some("changes/ without setup.toml: nothing lays it over the good pack")
    } else if !has(FILE) && !has("pack") && !has("setup") {
        Some("no pack/, setup.toml or setup: nothing makes its pack")
    } else {
        None
    }
}

/// Whether `rel` is a plain relative path: no root, no `..`, not empty.
fn is_plain(rel: &str) -> bool {
    let p = Path::new(rel);
    !rel.is_empty() && p.components().all(|c| matches!(c, Component::Normal(_)))
}

/// Builds `<into>/pack` from the variant at `variant`: a copy of `<packs>/<base>`, without the
/// removed paths, with `changes/` laid over it. `Err` says what is wrong with the setup.
pub(crate) fn build(variant: &Path, packs: &Path, into: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(variant.join(FILE)).map_err(|e| format!("{FILE}: {e}"))?;
    let setup: Setup = toml::from_str(&text).map_err(|e| format!("{FILE}: {e}"))?;
    let base = packs.join(&setup.base);
    if !is_plain(&setup.base) || setup.base.contains('/') || !base.is_dir() {
        return Err(format!(
            "{FILE}: base {:?} is no folder of tests/packs",
            setup.base
        ));
    }
    let pack = into.join("pack");
    crate::common::copy_tree(&base, &pack);
    for rel in &setup.remove {
        let at = pack.join(rel);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if is_plain(rel) && m.is_dir() => std::fs::remove_dir_all(&at),
            Ok(_) if is_plain(rel) => std::fs::remove_file(&at),
            _ => {
                return Err(format!(
                    "{FILE}: removes {rel:?}, which {} does not hold",
                    setup.base
                ));
            }
        }
        .map_err(|e| format!("{FILE}: removing {rel}: {e}"))?;
    }
    let changed = lay_changes(&variant.join(CHANGES), &base, &pack)?;
    if setup.remove.is_empty() && changed == 0 {
        return Err(format!(
            "{FILE}: removes nothing and {CHANGES}/ holds no file: it changes nothing"
        ));
    }
    Ok(())
}

/// Copies every file under `changes` into `pack` at its relative path; `Err` for a file the
/// base already holds byte for byte, or one where the base has a folder. The number of files.
fn lay_changes(changes: &Path, base: &Path, pack: &Path) -> Result<usize, String> {
    if !changes.exists() {
        return Ok(0);
    }
    let mut count = 0;
    for e in walkdir::WalkDir::new(changes).sort_by_file_name() {
        let e = e.map_err(|e| format!("{CHANGES}/: {e}"))?;
        if e.file_type().is_dir() {
            continue;
        }
        let rel = e.path().strip_prefix(changes).map_err(|e| e.to_string())?;
        let shown = format!("{CHANGES}/{}", rel.display());
        let new = std::fs::read(e.path()).map_err(|e| format!("{shown}: {e}"))?;
        let was = base.join(rel);
        if was.is_dir() {
            return Err(format!("{shown}: the base holds a folder there"));
        }
        if std::fs::read(&was).is_ok_and(|old| old == new) {
            return Err(format!(
                "{shown}: the same bytes as the base's file, it changes nothing"
            ));
        }
        let to = pack.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{shown}: {e}"))?;
        }
        std::fs::write(&to, new).map_err(|e| format!("{shown}: {e}"))?;
        count += 1;
    }
    Ok(count)
}

/// Control: a setup whose base or removed path does not exist, whose change is the base's own
/// file, or that changes nothing fails; a variant with no way to make its pack, or two, is
/// caught; a setup that removes a folder and replaces a file builds the pack with exactly those
/// changes.
pub(crate) fn control_a_setup_naming_nothing_or_changing_nothing_fails() {
    let packs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs");
    let good = packs.join("decision-log");
    let try_setup = |toml: &str, changes: &[(&str, &[u8])]| {
        let variant = tempfile::tempdir().unwrap();
        std::fs::write(variant.path().join(FILE), toml).unwrap();
        for (rel, bytes) in changes {
            let at = variant.path().join(CHANGES).join(rel);
            std::fs::create_dir_all(at.parent().unwrap()).unwrap();
            std::fs::write(at, bytes).unwrap();
        }
        let into = tempfile::tempdir().unwrap();
        let built = build(variant.path(), &packs, into.path());
        (built, into)
    };
    let readme = std::fs::read(good.join("README.md")).unwrap();
    let fails = [
        try_setup("base = \"no-such-pack\"\nremove = [\"tests\"]\n", &[]),
        try_setup("base = \"../packs\"\nremove = [\"tests\"]\n", &[]),
        try_setup(
            "base = \"decision-log\"\nremove = [\"no-such-file.md\"]\n",
            &[],
        ),
        try_setup(
            "base = \"decision-log\"\nremove = [\"../decision-log\"]\n",
            &[],
        ),
        try_setup("base = \"decision-log\"\n", &[]),
        try_setup("base = \"decision-log\"\n", &[("README.md", &readme)]),
        try_setup("base = \"decision-log\"\n", &[("tests", b"x")]),
        try_setup("base = \"decision-log\"\nremoves = [\"tests\"]\n", &[]),
    ];
    for (i, (built, _)) in fails.iter().enumerate() {
        assert!(built.is_err(), "broken setup {i} built a pack");
    }
    let (built, into) = try_setup(
        "base = \"decision-log\"\nremove = [\"templates\"]\n",
        &[("README.md", b"# x\n"), ("prompts/extra.md", b"# y\n")],
    );
    assert_eq!(built, Ok(()));
    let pack = into.path().join("pack");
    assert!(!pack.join("templates").exists());
    assert_eq!(std::fs::read(pack.join("README.md")).unwrap(), b"# x\n");
    assert_eq!(
        std::fs::read(pack.join("prompts/extra.md")).unwrap(),
        b"# y\n"
    );
    // A variant needs one way to make its pack, and setup.toml replaces pack/.
    let variant = tempfile::tempdir().unwrap();
    assert!(layout_problem(variant.path()).is_some(), "an empty variant");
    std::fs::create_dir(variant.path().join(CHANGES)).unwrap();
    assert!(layout_problem(variant.path()).is_some(), "changes/ alone");
    std::fs::write(variant.path().join(FILE), "base = \"decision-log\"\n").unwrap();
    assert_eq!(layout_problem(variant.path()), None);
    std::fs::create_dir(variant.path().join("pack")).unwrap();
    assert!(
        layout_problem(variant.path()).is_some(),
        "setup.toml beside pack/"
    );
    let kept = "tests/cache-store/case.toml";
    assert_eq!(
        std::fs::read(pack.join(kept)).unwrap(),
        std::fs::read(good.join(kept)).unwrap()
    );
}
