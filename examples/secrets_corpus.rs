//! Writes the redaction corpus (tests/data/secrets/corpus.toml, its templates expanded: the
//! repository holds no secret-shaped string) into a folder: one file a case and `manifest.json` (family, kind,
//! secret). scripts/secrets_diff.py runs it and scans the files with hippo-packs, gitleaks and
//! Kingfisher.
//!
//! ```text
//! cargo run --locked --features secrets-corpus --example secrets_corpus -- DIR
//! ```

#[cfg(feature = "secrets-corpus")]
fn main() -> std::process::ExitCode {
    let mut args = std::env::args_os().skip(1);
    let (Some(dir), None) = (args.next(), args.next()) else {
        eprintln!("usage: secrets_corpus DIR");
        return std::process::ExitCode::from(2);
    };
    let dir = std::path::Path::new(&dir);
    match std::fs::create_dir_all(dir).and_then(|()| hippo_packs::secrets::export_corpus(dir)) {
        Ok(n) => {
            println!("{n} cases in {}", dir.display());
            std::process::ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error {}: {err}", dir.display());
            std::process::ExitCode::from(3)
        }
    }
}

#[cfg(not(feature = "secrets-corpus"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "the corpus is in the library with the feature secrets-corpus: cargo run --features secrets-corpus --example secrets_corpus -- DIR"
    );
    std::process::ExitCode::from(2)
}
