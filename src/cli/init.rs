//! `hippo-packs init <dir>`: a new pack that passes `check` and `test` as written. A pass pack
//! holds a manifest, one pass, a prompt in the first-party shape (the page's four parts, ending
//! with the closing instruction), a persona with its four sections and the reply contract, and
//! one fixture case with a synthetic transcript; `--theme` writes a theme pack. The folder must
//! be missing or hold only dot-files (`.git` of a fresh `git init`, `.gitignore`): no pack file
//! starts with a dot and `check` skips dot-files, so nothing is ever overwritten.

use std::path::Path;

use super::args::InitArgs;
use super::exit::{EXIT_OK, EXIT_USAGE};
use crate::core::escape;

/// The pass pack's files: path (with `{name}`), template.
const PASS_PACK: &[(&str, &str)] = &[
    ("pack.toml", include_str!("init/pack.toml")),
    ("README.md", include_str!("init/README.md")),
    ("passes/{name}.toml", include_str!("init/pass.toml")),
    ("prompts/{name}.md", include_str!("init/prompt.md")),
    (
        "personas/{name}-reviewer.md",
        include_str!("init/persona.md"),
    ),
    (
        "tests/appends-an-entry/case.toml",
        include_str!("init/case.toml"),
    ),
    (
        "tests/appends-an-entry/transcripts/session-1.jsonl",
        include_str!("init/transcript.jsonl"),
    ),
    (
        "tests/appends-an-entry/notes/Log.md",
        include_str!("init/note.md"),
    ),
];

const THEME_PACK: &[(&str, &str)] = &[
    ("pack.toml", include_str!("init/theme.toml")),
    ("README.md", include_str!("init/theme-readme.md")),
    ("theme.json", include_str!("init/theme.json")),
    ("theme.css", include_str!("init/theme.css")),
];

pub(crate) fn run(a: &InitArgs) -> anyhow::Result<i32> {
    let shown = escape::line(&a.dir.display().to_string()).into_owned();
    let name = match &a.name {
        Some(n) => n.clone(),
        None => folder_name(&a.dir),
    };
    if let Err(why) = valid_name(&name) {
        eprintln!("hippo-packs: init {shown}: the pack name {why}; give one with --name NAME");
        return Ok(EXIT_USAGE);
    }
    if let Err(why) = empty_or_missing(&a.dir) {
        eprintln!("hippo-packs: init {shown}: {why}");
        return Ok(EXIT_USAGE);
    }
    let files = if a.theme { THEME_PACK } else { PASS_PACK };
    for (path, template) in files {
        let rel = path.replace("{name}", &name);
        let target = a.dir.join(&rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        // `{name}` is the only placeholder; the prompt's `{{notes}}` are the page's own.
        std::fs::write(&target, fill(template, &name))?;
    }
    let what = if a.theme { "theme pack" } else { "pass pack" };
    eprintln!(
        "hippo-packs: wrote a {what} `{name}` in {shown}; next: hippo-packs check {shown}{}",
        if a.theme {
            String::new()
        } else {
            format!(" && hippo-packs test {shown}")
        }
    );
    Ok(EXIT_OK)
}

/// A template with `{name}` filled in (and no other brace touched).
fn fill(template: &str, name: &str) -> String {
    template.replace("{name}", name)
}

fn folder_name(dir: &Path) -> String {
    let abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    abs.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The page's name rule for a pack: `[a-z][a-z0-9]*(-[a-z0-9]+)*`, not a reserved name, 2 to
/// 40 bytes: the rule `check` holds pack.toml's name to, so a pack `init` writes passes.
fn valid_name(name: &str) -> Result<(), String> {
    let ok = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
    if !ok {
        return Err(format!(
            "`{}` is not lowercase letters and digits in words joined by -",
            escape::line(name)
        ));
    }
    use crate::rules::manifest::values::{RESERVED, name_problem};
    if RESERVED.contains(&name) {
        return Err(format!(
            "`{name}` is reserved: hippo keeps {} for itself, and `check` refuses a pack named so",
            RESERVED.join(", ")
        ));
    }
    match name_problem(name) {
        Some(why) => Err(format!("`{name}`: {why}")),
        None => Ok(()),
    }
}

/// `Ok` for a missing folder or one holding only dot-files.
fn empty_or_missing(dir: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("cannot read it: {e}")),
        Ok(m) if !m.is_dir() => Err("exists and is not a folder".into()),
        Ok(_) => match std::fs::read_dir(dir) {
            Ok(entries) => {
                for entry in entries {
                    let entry = entry.map_err(|e| format!("cannot read it: {e}"))?;
                    if !entry.file_name().as_encoded_bytes().starts_with(b".") {
                        return Err(
                            "the folder is not empty; init writes only into a new folder \
                             or one holding only dot-files (.git)"
                                .into(),
                        );
                    }
                }
                Ok(())
            }
            Err(e) => Err(format!("cannot read it: {e}")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_page() {
        assert!(valid_name("my-pack2").is_ok());
        assert!(valid_name("My_Pack").is_err(), "control");
        assert!(valid_name("2pack").is_err());
        assert!(valid_name("a--b").is_err());
        assert!(valid_name("core").is_err());
    }

    #[test]
    fn only_the_name_placeholder_is_filled() {
        assert_eq!(fill("{name}: {{notes}}", "x"), "x: {{notes}}");
    }

    #[test]
    fn a_folder_with_anything_but_dot_files_in_it_is_refused() {
        let t = tempfile::tempdir().unwrap();
        assert!(empty_or_missing(t.path()).is_ok());
        assert!(empty_or_missing(&t.path().join("new")).is_ok());
        std::fs::create_dir(t.path().join(".git")).unwrap();
        std::fs::write(t.path().join(".gitignore"), "").unwrap();
        assert!(empty_or_missing(t.path()).is_ok(), "dot-files only");
        std::fs::write(t.path().join("notes.txt"), "").unwrap();
        assert!(
            empty_or_missing(t.path()).is_err(),
            "control: any other file counts"
        );
    }
}
