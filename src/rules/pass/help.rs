//! What to write instead of a pass file's path or pattern that breaks its rule: the nearest
//! file of the pack (`did you mean `prompts/decision-log.md`?`), else the files there are; a
//! pattern's fix. `--format full` shows it as the finding's help.

use crate::core::suggest;
use crate::pack::{EntryKind, Pack};

/// How many files a help names before it counts the rest.
const NAMED: usize = 8;

/// A `prompt` or `reviewer` naming no file of `folder`: the file of `folder` with the nearest
/// name (the same name first, whatever folder or extension was written), else the files of
/// `folder`; with none, a file elsewhere in the pack that has the name (`prompt/a.md`, moved).
pub(crate) fn file(pack: &Pack, folder: &str, value: &str) -> String {
    let prefix = format!("{folder}/");
    let files: Vec<&str> = (pack.files_under(&prefix).map(|f| f.path.as_str()))
        .filter(|p| !p[prefix.len()..].contains('/') && p.ends_with(".md"))
        .collect();
    let stem = |p: &str| {
        let name = p.rsplit('/').next().unwrap_or(p);
        name.split_once('.').map_or(name, |(s, _)| s).to_string()
    };
    let want = stem(value);
    let stems: Vec<String> = files.iter().map(|p| stem(p)).collect();
    let near = (stems.iter().position(|s| *s == want))
        .or_else(|| {
            let n = suggest::nearest(&want, &stems)?;
            stems.iter().position(|s| s == n)
        })
        .map(|i| files[i]);
    let what = match folder {
        "prompts" => "the prompts of this pack",
        _ => "the personas of this pack",
    };
    if !files.is_empty() {
        return suggest::choose_near(near, &files, what, NAMED);
    }
    let file_name = format!("{want}.md");
    let elsewhere = (pack.files().iter().map(|f| f.path.as_str()))
        .find(|p| !p.starts_with("tests/") && p.rsplit('/').next() == Some(file_name.as_str()));
    // A folder named nearly so at the top (`prompt/` after `mv prompts prompt`) is not walked.
    let misnamed = (pack.entries.iter())
        .find(|e| matches!(e.kind, EntryKind::Dir { .. }) && suggest::close(&e.path, folder));
    match (elsewhere, misnamed) {
        (Some(p), _) => format!("{p} has this name: move it into {prefix}"),
        (None, Some(e)) => format!("rename {}/ to {prefix}, the folder the path names", e.path),
        (None, None) => format!("this pack has no {prefix}<name>.md: write {prefix}{file_name}"),
    }
}

/// A `note_paths` pattern that breaks its rule.
pub(crate) fn pattern(pattern: &str) -> String {
    if pattern.is_empty() {
        "write a glob pattern such as `**/Decision log*.md`".into()
    } else if pattern.len() > 200 {
        format!(
            "shorten it by {} bytes, to 200 at most",
            pattern.len() - 200
        )
    } else if let Some(relative) = pattern.strip_prefix('/') {
        format!(
            "did you mean `{}`? a pattern matches a note's path in the workspace, such as `notes/Decision log.md`",
            relative.trim_start_matches('/')
        )
    } else if pattern.split('/').any(|c| c == "..") {
        "a pattern matches paths inside the workspace: drop the .. component".into()
    } else {
        "the glob syntax: `**` any folders, `*` any characters but /, `?` one, `[...]` one of a set, `{a,b}` either".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::testing::paths_pack;

    #[test]
    fn a_path_names_the_nearest_file_or_the_files_there_are() {
        let p = paths_pack(&[
            "prompts/consolidation.md",
            "prompts/digest.md",
            "personas/r.md",
        ]);
        assert_eq!(
            file(&p, "prompts", "prompts/consolidate.md"),
            "did you mean `prompts/consolidation.md`? the prompts of this pack: \
             `prompts/consolidation.md`, `prompts/digest.md`"
        );
        assert!(file(&p, "prompts", "digest.md").starts_with("did you mean `prompts/digest.md`?"));
        assert_eq!(
            file(&p, "personas", "personas/zzz.md"),
            "the personas of this pack: `personas/r.md`",
            "control: nothing near"
        );
        let moved = paths_pack(&["prompt/a.md", "personas/r.md"]);
        assert_eq!(
            file(&moved, "prompts", "prompts/a.md"),
            "prompt/a.md has this name: move it into prompts/"
        );
        assert_eq!(
            file(&paths_pack(&["personas/r.md"]), "prompts", "prompts/b.md"),
            "this pack has no prompts/<name>.md: write prompts/b.md"
        );
    }

    #[test]
    fn a_pattern_says_its_fix() {
        assert!(pattern("/notes/*.md").starts_with("did you mean `notes/*.md`?"));
        assert!(pattern("../x").contains("drop the .. component"));
        assert!(pattern("[x").starts_with("the glob syntax"));
    }
}
