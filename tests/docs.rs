//! docs/rules.md is generated from the catalogue: this test fails when the file is stale, and
//! `UPDATE_DOCS=1 cargo test --test docs` rewrites it.

use hippo_packs::report::rules::markdown;

fn path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md")
}

/// The lines where `file` differs from the generator's output (empty: current).
fn stale_lines(file: &str, generated: &str) -> Vec<usize> {
    let (a, b): (Vec<_>, Vec<_>) = (file.lines().collect(), generated.lines().collect());
    let mut out: Vec<usize> = (0..a.len().max(b.len()))
        .filter(|&i| a.get(i) != b.get(i))
        .map(|i| i + 1)
        .collect();
    if out.is_empty() && file != generated {
        out.push(a.len()); // line endings or the final newline
    }
    out
}

#[test]
fn rules_md_is_current() {
    let generated = markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path(), &generated).unwrap();
    }
    let file = std::fs::read_to_string(path()).unwrap_or_default();
    let stale = stale_lines(&file, &generated);
    assert!(
        stale.is_empty(),
        "docs/rules.md is stale (first differing lines {:?}); run `UPDATE_DOCS=1 cargo test --test docs`",
        &stale[..stale.len().min(5)]
    );
}

#[test]
fn control_a_stale_file_is_caught() {
    let generated = markdown();
    let edited = generated.replacen("## ", "## x", 1);
    assert!(!stale_lines(&edited, &generated).is_empty());
    assert!(!stale_lines(generated.trim_end(), &generated).is_empty());
    assert!(stale_lines(&generated, &generated).is_empty());
}
