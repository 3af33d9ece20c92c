//! The image's build context: Docker has no engine on the development machines, so this checks
//! statically what `docker build` would need. Cargo refuses a manifest whose declared target
//! files are missing, so every file the manifest's targets name must be both sent by
//! `.dockerignore` and copied by the Dockerfile's build stage.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files cargo needs: the manifest, the lock file, the library and binary roots, and every
/// declared `[[bench]]`/`[[test]]`/`[[example]]`/`[[bin]]` file.
fn needed_files() -> Vec<String> {
    let manifest: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let mut files = vec![
        "Cargo.toml".to_string(),
        "Cargo.lock".into(),
        "src/main.rs".into(),
        "src/lib.rs".into(),
    ];
    for (kind, dir) in [
        ("bench", "benches"),
        ("test", "tests"),
        ("example", "examples"),
        ("bin", "src/bin"),
    ] {
        for t in manifest
            .get(kind)
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            let path = t
                .get("path")
                .and_then(|p| p.as_str())
                .map(str::to_string)
                .unwrap_or_else(|| format!("{dir}/{}.rs", t["name"].as_str().unwrap()));
            files.push(path);
        }
    }
    files
}

/// Whether `.dockerignore` (a `*` then `!` re-inclusions) sends the file.
fn sent(ignore: &str, file: &str) -> bool {
    let mut included = true;
    for line in ignore
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (negate, pat) = match line.strip_prefix('!') {
            Some(p) => (true, p),
            None => (false, line),
        };
        let pat = pat.trim_end_matches('/');
        let hit = pat == "*" || file == pat || file.starts_with(&format!("{pat}/"));
        if hit {
            included = negate;
        }
    }
    included
}

/// Whether the build stage's `COPY` lines (not `--from`) copy the file.
fn copied(dockerfile: &str, file: &str) -> bool {
    dockerfile
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("COPY ") && !l.contains("--from"))
        .any(|l| {
            let parts: Vec<&str> = l.split_whitespace().skip(1).collect();
            parts[..parts.len() - 1].iter().any(|src| {
                file == *src || file.starts_with(&format!("{}/", src.trim_end_matches('/')))
            })
        })
}

#[test]
fn the_build_context_holds_every_file_cargo_needs() {
    let ignore = std::fs::read_to_string(root().join(".dockerignore")).unwrap();
    let dockerfile = std::fs::read_to_string(root().join("Dockerfile")).unwrap();
    let needed = needed_files();
    assert!(
        needed.iter().any(|f| f.starts_with("benches/")),
        "the manifest declares its bench"
    );
    for f in &needed {
        assert!(
            root().join(f).is_file(),
            "{f} is named by the manifest but missing"
        );
        assert!(sent(&ignore, f), ".dockerignore leaves out {f}");
        assert!(
            copied(&dockerfile, f),
            "the Dockerfile's build stage does not copy {f}"
        );
    }
}

#[test]
fn control_a_missing_copy_or_ignore_line_is_caught() {
    let ignore = "*\n!Cargo.toml\n!src/\n";
    assert!(sent(ignore, "src/main.rs"));
    assert!(
        !sent(ignore, "benches/redaction.rs"),
        "benches/ is not sent"
    );
    let dockerfile = "FROM x AS build\nCOPY Cargo.toml Cargo.lock ./\nCOPY src ./src\nFROM scratch\nCOPY --from=build /out/benches /benches\n";
    assert!(copied(dockerfile, "Cargo.lock"));
    assert!(copied(dockerfile, "src/lib.rs"));
    assert!(
        !copied(dockerfile, "benches/redaction.rs"),
        "a --from copy is not the build stage's"
    );
}
