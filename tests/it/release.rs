//! The release machinery, checked without GitHub: scripts/pin-image.sh on a fake digest, the
//! repository address as one setting (Cargo.toml's `repository`), the workflows' pins and the
//! release workflow's promises, and Dependabot's coverage.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn pin(action: &Path, image: &str, tag: &str, digest: &str) -> (i32, String) {
    let out = Command::new("bash")
        .arg(root().join("scripts/pin-image.sh"))
        .args([image, tag, digest])
        .arg(action)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const FAKE: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const IMAGE: &str = "ghcr.io/hippo-packs/hippo-packs";

/// Whether action.yml's `image:` line is one a user can pin: the Dockerfile (the default
/// branch builds from source) or a release's `docker://…:vX.Y.Z@sha256:…` (the tag names the
/// release, the digest decides what is pulled).
fn image_line_ok(action: &str) -> bool {
    let re = regex::Regex::new(
        r"^  image: (Dockerfile|docker://ghcr\.io/[a-z0-9._-]+/hippo-packs:v\d+\.\d+\.\d+@sha256:[0-9a-f]{64})$",
    )
    .unwrap();
    let lines: Vec<&str> = action
        .lines()
        .filter(|l| l.starts_with("  image: "))
        .collect();
    lines.len() == 1 && re.is_match(lines[0])
}

#[test]
fn pin_image_writes_the_tag_and_digest_and_refuses_the_rest() {
    let t = tempfile::tempdir().unwrap();
    let action = t.path().join("action.yml");
    let original = read("action.yml");
    std::fs::write(&action, &original).unwrap();
    assert!(
        original.contains("\n  image: Dockerfile\n"),
        "the default branch builds from source"
    );
    assert!(image_line_ok(&original));

    let (code, err) = pin(&action, IMAGE, "v1.2.3", FAKE);
    assert_eq!(code, 0, "{err}");
    let pinned = std::fs::read_to_string(&action).unwrap();
    let want = format!("\n  image: docker://{IMAGE}:v1.2.3@{FAKE}\n");
    assert!(pinned.contains(&want), "{pinned}");
    assert!(image_line_ok(&pinned), "{pinned}");
    let changed: Vec<(&str, &str)> = original
        .lines()
        .zip(pinned.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(pinned.lines().count(), original.lines().count());
    assert_eq!(changed.len(), 1, "one line changed: {changed:?}");

    // Idempotent: the same pin again leaves the file byte for byte.
    let (code, err) = pin(&action, IMAGE, "v1.2.3", FAKE);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&action).unwrap(), pinned);

    // Refused, the file left as it was: a malformed digest, a tag that is not vX.Y.Z, an image
    // with a tag or capitals, an action.yml without its one image line.
    let short = "sha256:abc";
    let upper = FAKE.to_uppercase().replace("SHA256", "sha256");
    let sha512 = FAKE.replace("sha256", "sha512");
    for (image, tag, digest) in [
        (IMAGE, "v1.2.3", short),
        (IMAGE, "v1.2.3", upper.as_str()),
        (IMAGE, "v1.2.3", sha512.as_str()),
        (IMAGE, "v1.2.3", "v1.2.3"),
        (IMAGE, "1.2.3", FAKE),
        (IMAGE, "v1.2", FAKE),
        (IMAGE, "v1.2.3@x", FAKE),
        ("ghcr.io/hippo-packs/hippo-packs:v1", "v1.2.3", FAKE),
        ("ghcr.io/Hippo-Packs/hippo-packs", "v1.2.3", FAKE),
    ] {
        let (code, err) = pin(&action, image, tag, digest);
        assert_eq!(code, 2, "{image} {tag} {digest}: {err}");
        assert_eq!(std::fs::read_to_string(&action).unwrap(), pinned);
    }
    let two = t.path().join("two.yml");
    std::fs::write(&two, format!("{pinned}  image: Dockerfile\n")).unwrap();
    assert_eq!(pin(&two, IMAGE, "v1.2.3", FAKE).0, 2, "two image lines");

    // Control: a wrong pin is caught: the digest alone (no release named), the tag alone (a
    // tag can be moved), a short digest, another image.
    for wrong in [
        format!("  image: docker://{IMAGE}@{FAKE}"),
        format!("  image: docker://{IMAGE}:v1.2.3"),
        format!("  image: docker://{IMAGE}:v1.2.3@sha256:abc"),
        format!("  image: docker://ghcr.io/x/other:v1.2.3@{FAKE}"),
    ] {
        assert!(!image_line_ok(&format!("runs:\n{wrong}\n")), "{wrong}");
    }
}

/// Every `<owner>/hippo-packs` named as a GitHub repository, an image or an action in `text`.
fn owners(text: &str) -> Vec<String> {
    let re = regex::Regex::new(
        r"(?:github\.com/|ghcr\.io/|uses:\s+)([A-Za-z0-9_.-]+)/hippo-packs(?:[@/\s#:]|$)",
    )
    .unwrap();
    re.captures_iter(text).map(|c| c[1].to_string()).collect()
}

fn files_under(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(root().join(dir)) {
        for e in entries.flatten() {
            if e.path().extension().is_some_and(|x| x == ext) {
                out.push(e.path());
            }
        }
    }
    out
}

#[test]
fn the_repository_address_is_one_setting() {
    let manifest: toml::Table = read("Cargo.toml").parse().unwrap();
    let repo = manifest["package"]["repository"].as_str().unwrap();
    let owner = repo
        .strip_prefix("https://github.com/")
        .and_then(|r| r.strip_suffix("/hippo-packs"))
        .expect("repository = https://github.com/<owner>/hippo-packs");
    let mut files = vec![root().join("README.md"), root().join("action.yml")];
    files.extend(files_under("docs", "md"));
    files.extend(files_under("examples/workflows", "yml"));
    files.extend(files_under(".github/workflows", "yml"));
    let mut seen = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for o in owners(&text) {
            assert_eq!(
                o,
                owner,
                "{} names {o}/hippo-packs, Cargo.toml {owner}",
                f.display()
            );
            seen += 1;
        }
    }
    assert!(seen > 3, "the docs name the repository ({seen})");
    // The workflows derive it: none names an owner.
    for f in files_under(".github/workflows", "yml") {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(owners(&text).is_empty(), "{} names an owner", f.display());
    }
    // Control: another owner is seen.
    assert_eq!(owners("uses: someone/hippo-packs@v1\n"), vec!["someone"]);
    assert_eq!(
        hippo_packs::report::sarif::HOME,
        repo,
        "SARIF's informationUri is the setting"
    );
}

#[test]
fn workflows_pin_every_action_by_commit_and_the_release_keeps_its_promises() {
    let pinned = regex::Regex::new(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*$").unwrap();
    let mut uses = 0;
    for f in files_under(".github/workflows", "yml") {
        let text = std::fs::read_to_string(&f).unwrap();
        for l in text.lines() {
            let Some(u) = l.trim().trim_start_matches("- ").strip_prefix("uses: ") else {
                continue;
            };
            uses += 1;
            assert!(
                u == "./" || u.starts_with("./ #") || pinned.is_match(u),
                "{}: `{u}` is not pinned by commit with its version",
                f.display()
            );
        }
    }
    assert!(uses >= 5, "{uses}");
    assert!(
        !pinned.is_match("actions/checkout@v4"),
        "control: a tag is no pin"
    );

    let release = read(".github/workflows/release.yml");
    for promise in [
        "workflow_dispatch:",
        "--platform linux/amd64,linux/arm64",
        "--provenance=mode=max --sbom=true",
        "--file release.Dockerfile",
        "environment: release",
        "DOCKER_CONFIG=$(mktemp -d)",
        "make the package public",
        "scripts/pin-image.sh \"$IMAGE\" \"$TAG\" \"$DIGEST\" action.yml",
        "push origin HEAD:refs/heads/main",
        "-f \"ref=refs/tags/$TAG\" -f \"sha=$release\"",
        "-F force=false",
        "push-to-registry: true",
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "gh release create",
    ] {
        assert!(release.contains(promise), "release.yml lacks {promise:?}");
    }
    // The pin lands on main before the tag is made, and no tag or branch is ever forced.
    let pinned = release.find("scripts/pin-image.sh").unwrap();
    let pushed = release.find("push origin HEAD:refs/heads/main").unwrap();
    let tagged = release.find("ref=refs/tags/$TAG").unwrap();
    assert!(
        pinned < pushed && pushed < tagged,
        "pin, push to main, then tag"
    );
    for forced in ["--force", "tag -f", "push -f", "force=true", "+refs/"] {
        assert!(!release.contains(forced), "release.yml forces: {forced:?}");
    }
    let dockerfile = read("Dockerfile");
    assert!(
        !dockerfile.contains("dist/"),
        "the source build copies nothing a checkout lacks"
    );
    assert!(read("release.Dockerfile").contains("FROM scratch\n"));
    let last = dockerfile.rfind("FROM ").unwrap();
    assert!(
        dockerfile[last..].starts_with("FROM scratch AS from-source"),
        "`image: Dockerfile` builds the last stage: from source"
    );

    let dependabot = read(".github/dependabot.yml");
    for eco in ["github-actions", "docker", "cargo"] {
        assert!(
            dependabot.contains(&format!("package-ecosystem: {eco}")),
            "dependabot lacks {eco}"
        );
    }
}

/// Whether a workflow's `release` job, in the protected environment, pulls the image without
/// credentials before it pins and tags anything.
fn pulls_anonymously_first(workflow: &str) -> bool {
    let Some((_, job)) = jobs(workflow).into_iter().find(|(n, _)| n == "release") else {
        return false;
    };
    let (Some(pulled), Some(pinned)) = (job.find("docker pull"), job.find("scripts/pin-image.sh"))
    else {
        return false;
    };
    job.contains("    environment: release\n")
        && job.contains("DOCKER_CONFIG=$(mktemp -d)")
        && job.contains("make the package public")
        && !job.contains("docker login")
        && pulled < pinned
}

#[test]
fn the_release_job_pulls_the_image_as_anyone_would_before_it_tags() {
    let release = read(".github/workflows/release.yml");
    assert!(pulls_anonymously_first(&release));
    // Control: a release job without the environment and the pull is caught.
    let old = release
        .replace("    environment: release\n", "")
        .replace("docker pull", "true");
    assert!(!pulls_anonymously_first(&old));
}

/// The jobs of a workflow as (name, text): split at the two-space-indented keys under `jobs:`.
fn jobs(text: &str) -> Vec<(String, String)> {
    let body = &text[text.find("\njobs:\n").expect("a jobs: section") + 7..];
    let mut out: Vec<(String, String)> = Vec::new();
    for l in body.lines() {
        let key = l
            .strip_prefix("  ")
            .filter(|k| !k.starts_with([' ', '#']) && k.ends_with(':'));
        match (key, out.last_mut()) {
            (Some(k), _) => out.push((k.trim_end_matches(':').to_string(), String::new())),
            (None, Some((_, t))) => {
                t.push_str(l);
                t.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

/// The jobs that may sign (`id-token: write`) or store attestations (`attestations: write`)
/// without attesting, or attest without them.
fn signing_mismatches(workflow: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    for (name, job) in jobs(workflow) {
        let attests = job.contains("uses: actions/attest-build-provenance@");
        for grant in ["id-token: write", "attestations: write"] {
            if job.contains(grant) != attests {
                wrong.push(format!("{name}: {grant}"));
            }
        }
    }
    wrong
}

#[test]
fn only_the_jobs_that_attest_may_sign() {
    let release = read(".github/workflows/release.yml");
    assert_eq!(signing_mismatches(&release), Vec::<String>::new());
    let attesting: Vec<String> = jobs(&release)
        .into_iter()
        .filter(|(_, j)| j.contains("attest-build-provenance@"))
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        attesting,
        ["binaries", "image"],
        "the binaries and the image"
    );
    assert!(
        release.contains("subject-path: dist/${{ matrix.arch }}/hippo-packs"),
        "each binary is attested"
    );
    // Control: a job granting id-token without attesting is caught.
    let wrong = "on: push\njobs:\n  a:\n    permissions:\n      id-token: write\n    steps: []\n  b:\n    steps: []\n";
    assert_eq!(signing_mismatches(wrong), ["a: id-token: write"]);
}

/// The Rust version a text names: the Dockerfile's `FROM rust:<v>-…`, or a workflow's
/// `RUST_VERSION: "<v>"`.
fn rust_version(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let l = l.trim();
        let v = l
            .strip_prefix("FROM rust:")
            .map(|r| r.split(['-', ' ', '@']).next().unwrap_or(""))
            .or_else(|| {
                l.strip_prefix("RUST_VERSION:")
                    .map(|r| r.trim().trim_matches('"'))
            })?;
        Some(v.to_string())
    })
}

#[test]
fn the_dockerfile_and_the_release_build_with_one_rust_version() {
    let docker = rust_version(&read("Dockerfile")).expect("FROM rust:<version> in the Dockerfile");
    let release = read(".github/workflows/release.yml");
    let workflow = rust_version(&release).expect("RUST_VERSION in release.yml");
    assert_eq!(
        docker, workflow,
        "the Dockerfile and release.yml name one Rust"
    );
    assert!(
        docker.split('.').count() == 3 && docker.split('.').all(|p| p.parse::<u32>().is_ok()),
        "a full version, not a channel: {docker}"
    );
    assert!(
        release.contains("rustup toolchain install \"$RUST_VERSION\""),
        "the release installs the version it names"
    );
    assert!(
        !root().join("rust-toolchain.toml").exists() && !root().join("rust-toolchain").exists(),
        "no toolchain file: rustup would download on every machine"
    );
    // Control: a differing pair is told apart.
    assert_ne!(
        rust_version("FROM rust:1.94.0-alpine3.23 AS build"),
        rust_version("  RUST_VERSION: \"1.95.0\"")
    );
}

/// The lines of a workflow that grant a permission or pin an action.
fn grants_and_pins(text: &str) -> (Vec<String>, Vec<String>) {
    let mut grants = Vec::new();
    let mut pins = Vec::new();
    for l in text.lines().map(str::trim) {
        let l = l.trim_start_matches("- ");
        let bare = l.split(" #").next().unwrap_or("").trim().to_string();
        if let Some(uses) = bare.strip_prefix("uses: ") {
            pins.push(uses.to_string());
        } else if bare.ends_with(": read") || bare.ends_with(": write") {
            grants.push(bare);
        }
    }
    (grants, pins)
}

#[test]
fn every_example_grants_what_ci_uses_and_pins_alike() {
    let wanted = [
        "contents: read",
        "pull-requests: read",
        "security-events: write",
        "checks: write",
    ];
    let mut pins_of_ours = Vec::new();
    for path in files_under("examples/workflows", "yml") {
        let (grants, pins) = grants_and_pins(&std::fs::read_to_string(&path).unwrap());
        for w in wanted {
            assert!(
                grants.iter().any(|g| g == w),
                "{}: no `{w}`",
                path.display()
            );
        }
        pins_of_ours.extend(pins.into_iter().filter(|p| p.contains("/hippo-packs@")));
    }
    pins_of_ours.sort();
    pins_of_ours.dedup();
    // Every action the examples share is pinned alike (one actions/checkout commit).
    assert_eq!(
        differing_pins(&files_under("examples/workflows", "yml")),
        Vec::<String>::new()
    );
    assert_eq!(
        pins_of_ours.len(),
        1,
        "one pin of the action: {pins_of_ours:?}"
    );
    // Controls: a workflow without `checks: write`, and two pins of one action, are told
    // apart.
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a.yml"), t.path().join("b.yml"));
    std::fs::write(
        &a,
        "      - uses: actions/checkout@1111111111111111111111111111111111111111 # v4\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "      - uses: actions/checkout@2222222222222222222222222222222222222222 # v5\n",
    )
    .unwrap();
    assert_eq!(differing_pins(&[a, b]), ["actions/checkout"]);
    let (grants, _) = grants_and_pins("    permissions:\n      contents: read\n");
    assert!(!grants.iter().any(|g| g == "checks: write"));
}

/// The actions that `files` pin in more than one way.
fn differing_pins(files: &[PathBuf]) -> Vec<String> {
    let mut refs: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for f in files {
        let (_, pins) = grants_and_pins(&std::fs::read_to_string(f).unwrap());
        for p in pins {
            if let Some((action, at)) = p.split_once('@') {
                refs.entry(action.to_string())
                    .or_default()
                    .insert(at.to_string());
            }
        }
    }
    refs.into_iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(action, _)| action)
        .collect()
}
