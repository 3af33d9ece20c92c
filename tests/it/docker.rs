//! The images' build contexts and bases: Docker has no engine on the development machines and
//! no test can pull a base image, so this checks statically what a build would need. Cargo
//! refuses a manifest whose declared target files are missing, so every file the manifest's
//! targets name must be both sent by `.dockerignore` and copied by the Dockerfile's build
//! stage; every `COPY`/`ADD` of every stage of each Dockerfile must find its source in that
//! Dockerfile's context (Docker's legacy builder builds every stage); every base is pinned by
//! digest, and no Dockerfile names a frontend (`# syntax=`).

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

/// A Dockerfile's instructions, continuation lines joined, comments and blank lines dropped.
fn instructions(dockerfile: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    for l in dockerfile.lines() {
        let t = l.trim();
        if line.is_empty() && (t.is_empty() || t.starts_with('#')) {
            continue;
        }
        match t.strip_suffix('\\') {
            Some(head) => {
                line.push_str(head);
                line.push(' ');
            }
            None => {
                line.push_str(t);
                out.push(std::mem::take(&mut line));
            }
        }
    }
    out
}

/// The sources of each `COPY`/`ADD` that reads the build context (not `--from`), in every
/// stage, with `${TARGETARCH}` given each of `arches`.
fn context_sources(dockerfile: &str, arches: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for ins in instructions(dockerfile) {
        let mut words = ins.split_whitespace();
        let op = words.next().unwrap_or("").to_ascii_uppercase();
        if op != "COPY" && op != "ADD" {
            continue;
        }
        let args: Vec<&str> = words.collect();
        if args.iter().any(|a| a.starts_with("--from")) {
            continue;
        }
        let paths: Vec<&str> = args.into_iter().filter(|a| !a.starts_with("--")).collect();
        for src in &paths[..paths.len().saturating_sub(1)] {
            for arch in arches {
                out.push(
                    src.replace("${TARGETARCH}", arch)
                        .replace("$TARGETARCH", arch),
                );
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether `src` (a COPY source, relative to its context) names something in `files` (the
/// context's files, `/`-separated): the file itself or a folder holding one.
fn in_context(files: &[String], src: &str) -> bool {
    let src = src.trim_start_matches("./").trim_end_matches('/');
    src.is_empty()
        || files
            .iter()
            .any(|f| f == src || f.starts_with(&format!("{src}/")))
}

/// The repository's tracked files: a fresh checkout. `None` when git cannot tell (no git, or
/// not a clone).
fn tracked_files() -> Option<Vec<String>> {
    let out = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root())
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let files: Vec<String> = String::from_utf8(out.stdout)
        .ok()?
        .split('\0')
        .filter(|f| !f.is_empty())
        .map(str::to_string)
        .collect();
    (!files.is_empty()).then_some(files)
}

/// What the release workflow stages in `dist/`, release.Dockerfile's context: the static
/// binary and an empty `tmp/` per architecture.
const STAGED: [&str; 4] = [
    "amd64/hippo-packs",
    "amd64/tmp/",
    "arm64/hippo-packs",
    "arm64/tmp/",
];

/// The release workflow and the container test stage `dist/` as release.Dockerfile expects
/// ([`STAGED`]) and build it with `dist/` as the context.
fn staged_as_release_dockerfile_expects() {
    let workflow = std::fs::read_to_string(root().join(".github/workflows/release.yml")).unwrap();
    let script = std::fs::read_to_string(root().join("scripts/container-test.sh")).unwrap();
    for (what, text, stages) in [
        (
            "release.yml",
            &workflow,
            &[
                "for arch in amd64 arm64; do",
                "mkdir -p \"dist/$arch/tmp\"",
                "\"dist/$arch/hippo-packs\"",
                "--file release.Dockerfile",
                "--metadata-file build.json dist\n",
            ][..],
        ),
        (
            "container-test.sh",
            &script,
            &[
                "mkdir -p dist/amd64/tmp",
                "dist/amd64/hippo-packs",
                "--file release.Dockerfile",
                "-t \"$image\" dist ",
            ][..],
        ),
    ] {
        for s in stages {
            assert!(text.contains(s), "{what} lacks {s:?}");
        }
    }
}

#[test]
fn every_copy_of_every_stage_finds_its_source_in_its_context() {
    let Some(tracked) = tracked_files() else {
        println!(
            "SKIPPED the fresh-checkout check: `git ls-files` gives nothing here (no git, or not a clone)"
        );
        return;
    };
    let dockerfiles: Vec<&String> = tracked
        .iter()
        .filter(|f| {
            let name = f.rsplit('/').next().unwrap_or(f);
            name == "Dockerfile" || name.ends_with(".Dockerfile")
        })
        .collect();
    assert_eq!(
        dockerfiles,
        ["Dockerfile", "release.Dockerfile"],
        "each Dockerfile's context is known to this test"
    );
    // Dockerfile: a fresh checkout less .dockerignore, for every stage (the legacy builder
    // builds them all).
    let ignore = std::fs::read_to_string(root().join(".dockerignore")).unwrap();
    let sent_files: Vec<String> = tracked
        .iter()
        .filter(|f| sent(&ignore, f))
        .cloned()
        .collect();
    let source = std::fs::read_to_string(root().join("Dockerfile")).unwrap();
    let sources = context_sources(&source, &["amd64", "arm64"]);
    assert!(sources.iter().any(|s| s == "src"), "{sources:?}");
    for src in &sources {
        assert!(
            in_context(&sent_files, src),
            "Dockerfile copies {src}, which a fresh checkout less .dockerignore lacks"
        );
    }
    // release.Dockerfile: dist/ as the release workflow and the container test stage it.
    let staged: Vec<String> = STAGED.iter().map(|s| s.to_string()).collect();
    let release = std::fs::read_to_string(root().join("release.Dockerfile")).unwrap();
    for src in context_sources(&release, &["amd64", "arm64"]) {
        assert!(in_context(&staged, &src), "release.Dockerfile copies {src}");
    }
    staged_as_release_dockerfile_expects();
    // Control: a stage copying from dist/ (which a checkout lacks) is caught, and so is a file
    // .dockerignore leaves out.
    let old = "FROM scratch AS prebuilt\nARG TARGETARCH\nCOPY dist/${TARGETARCH}/ /\n";
    let missing = context_sources(old, &["amd64"]);
    assert_eq!(missing, ["dist/amd64/"]);
    assert!(!in_context(&sent_files, &missing[0]));
    assert!(
        !in_context(&sent_files, "README.md"),
        "README.md is not sent"
    );
    assert!(in_context(&sent_files, "./benches/"));
}

/// Whether a Dockerfile opens with a `syntax` parser directive.
fn has_syntax_directive(dockerfile: &str) -> bool {
    dockerfile
        .lines()
        .map(str::trim)
        .take_while(|l| l.starts_with('#'))
        .any(|l| {
            let d = l.trim_start_matches('#').trim_start().to_ascii_lowercase();
            d.strip_prefix("syntax")
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
}

/// The `FROM` images that are neither `scratch`, an earlier stage, nor pinned by digest.
fn unpinned_bases(dockerfile: &str) -> Vec<String> {
    let digest = regex::Regex::new(r"^[\w.:/-]+@sha256:[0-9a-f]{64}$").unwrap();
    let mut stages: Vec<String> = Vec::new();
    let mut wrong = Vec::new();
    for ins in instructions(dockerfile) {
        let words: Vec<&str> = ins.split_whitespace().collect();
        if !words
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("FROM"))
        {
            continue;
        }
        let image = words
            .iter()
            .skip(1)
            .find(|w| !w.starts_with("--"))
            .copied()
            .unwrap_or("");
        if image != "scratch" && !stages.iter().any(|s| s == image) && !digest.is_match(image) {
            wrong.push(image.to_string());
        }
        if let Some(i) = words.iter().position(|w| w.eq_ignore_ascii_case("AS")) {
            stages.push(words.get(i + 1).unwrap_or(&"").to_string());
        }
    }
    wrong
}

#[test]
fn no_dockerfile_names_a_frontend_and_every_base_is_pinned_by_digest() {
    for name in ["Dockerfile", "release.Dockerfile"] {
        let text = std::fs::read_to_string(root().join(name)).unwrap();
        assert!(!has_syntax_directive(&text), "{name} has a # syntax= line");
        assert_eq!(unpinned_bases(&text), Vec::<String>::new(), "{name}");
    }
    let source = std::fs::read_to_string(root().join("Dockerfile")).unwrap();
    assert!(
        source.contains("FROM rust:1.95.0-alpine3.23@sha256:606fd313a0f49743ee2a7bd49a0914bab7deedb12791f3a846a34a4711db7ed2 AS build"),
        "the base is pinned by the index digest of its tag"
    );
    let dependabot = std::fs::read_to_string(root().join(".github/dependabot.yml")).unwrap();
    assert!(
        dependabot.contains("package-ecosystem: docker\n    directory: /\n"),
        "Dependabot moves the base"
    );
    // Controls.
    assert!(has_syntax_directive(
        "# syntax=docker/dockerfile:1\nFROM scratch\n"
    ));
    assert!(has_syntax_directive(
        "#  Syntax = docker/dockerfile:1.7\nFROM scratch\n"
    ));
    assert!(!has_syntax_directive(
        "# the syntax of this file\nFROM scratch\n"
    ));
    assert_eq!(
        unpinned_bases("FROM rust:1.95.0-alpine3.23 AS build\nFROM build\nFROM scratch\n"),
        ["rust:1.95.0-alpine3.23"]
    );
}
