//! A misnamed entry: an unexpected file or folder whose name is near one the layout expects at
//! its place (equal but for case, a singular for a plural, one or two letters off, the wrong
//! extension) is named with the rename that fixes it, never a deletion: deleting `prompt/`
//! after `mv prompts prompt` deletes the prompts.

use crate::core::suggest;
use crate::pack::{Pack, PackKind};

/// The names the layout expects in the folder `parent` (`""`: the pack's root), each with
/// whether it is a folder.
fn expected(kind: PackKind, parent: &[&str]) -> &'static [(&'static str, bool)] {
    match (kind, parent) {
        (PackKind::Pass, []) => &[
            ("pack.toml", false),
            ("README.md", false),
            ("LICENSE", false),
            ("LICENSE.md", false),
            ("passes", true),
            ("prompts", true),
            ("personas", true),
            ("templates", true),
            ("tests", true),
        ],
        (PackKind::Theme, []) => &[
            ("pack.toml", false),
            ("README.md", false),
            ("LICENSE", false),
            ("LICENSE.md", false),
            ("theme.css", false),
            ("theme.json", false),
        ],
        (PackKind::Pass, ["tests", _]) => {
            &[("case.toml", false), ("notes", true), ("transcripts", true)]
        }
        _ => &[],
    }
}

/// The extension a file needs in the folder `parent`, where the layout names files by extension.
fn extension(kind: PackKind, parent: &[&str]) -> Option<&'static str> {
    match (kind, parent) {
        (PackKind::Pass, ["passes"]) => Some(".toml"),
        (PackKind::Pass, ["prompts" | "personas"]) => Some(".md"),
        (PackKind::Pass, ["tests", _, "transcripts"]) => Some(".jsonl"),
        _ => None,
    }
}

/// `rename <path> to <new path>` for an unexpected entry, and the missing-file error the rename
/// explains, when there is one; `None` when nothing expected is near, or the near name exists.
pub(crate) fn help(pack: &Pack, path: &str, folder: bool) -> Option<String> {
    let parts: Vec<&str> = path.split('/').collect();
    let (name, parent) = parts.split_last()?;
    let slash = if folder { "/" } else { "" };
    let at = |new: &str| match parent {
        [] => new.to_string(),
        _ => format!("{}/{new}", parent.join("/")),
    };
    let taken = |p: &str| pack.entries.iter().any(|e| e.path == p);
    let fixed = expected(pack.kind, parent)
        .iter()
        .filter(|(want, dir)| *dir == folder && suggest::close(name, want) && !taken(&at(want)))
        .map(|(want, _)| at(want))
        .next()
        .or_else(|| {
            let ext = extension(pack.kind, parent).filter(|_| !folder)?;
            let stem = name.rsplit_once('.').map_or(*name, |(s, _)| s);
            let new = at(&format!("{stem}{ext}"));
            (!stem.is_empty() && new != path && !taken(&new)).then_some(new)
        })?;
    let mut out = format!("rename {path}{slash} to {fixed}{slash}");
    if let Some(missing) = explains(pack, &fixed, folder) {
        out.push_str(&format!(", the missing file {missing}"));
    }
    Some(out)
}

/// The `missing file` finding a rename to `fixed` would answer, if the layout reports one.
fn explains(pack: &Pack, fixed: &str, folder: bool) -> Option<String> {
    let required = |p: &str| match pack.kind {
        PackKind::Theme => ["pack.toml", "README.md", "theme.css", "theme.json"].contains(&p),
        PackKind::Pass => {
            ["pack.toml", "README.md"].contains(&p)
                || matches!(
                    p.split('/').collect::<Vec<_>>().as_slice(),
                    ["tests", _, "case.toml"]
                )
        }
    };
    if !folder && required(fixed) && pack.file(fixed).is_none() {
        return Some(fixed.to_string());
    }
    let no_pass = !pack.files().iter().any(|f| f.path.starts_with("passes/"));
    (folder && fixed == "passes" && pack.kind == PackKind::Pass && no_pass)
        .then(|| "passes/<name>.toml".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::testing::paths_pack;

    #[test]
    fn near_names_are_renames_and_far_ones_nothing() {
        let p = paths_pack(&["Pack.toml", "README.md", "passes/a.toml", "prompt/a.md"]);
        assert_eq!(
            help(&p, "Pack.toml", false).as_deref(),
            Some("rename Pack.toml to pack.toml, the missing file pack.toml")
        );
        assert_eq!(
            help(&p, "prompt", true).as_deref(),
            Some("rename prompt/ to prompts/")
        );
        assert_eq!(
            help(&p, "pas", true).as_deref(),
            None,
            "one letter short of three is far"
        );
        assert_eq!(
            help(&p, "pass", true).as_deref(),
            None,
            "passes/ exists: no rename onto it"
        );
        assert_eq!(help(&p, "assets", true), None, "control: nothing near");
        assert_eq!(help(&p, "extra.txt", false), None, "control: nothing near");
        assert_eq!(
            help(&p, "passes/b.tml", false).as_deref(),
            Some("rename passes/b.tml to passes/b.toml")
        );
    }

    #[test]
    fn a_case_file_and_the_passes_folder_name_their_missing_file() {
        let p = paths_pack(&["pack.toml", "README.md", "pass/a.toml", "tests/c/Case.toml"]);
        assert_eq!(
            help(&p, "pass", true).as_deref(),
            Some("rename pass/ to passes/, the missing file passes/<name>.toml")
        );
        assert_eq!(
            help(&p, "tests/c/Case.toml", false).as_deref(),
            Some(
                "rename tests/c/Case.toml to tests/c/case.toml, the missing file tests/c/case.toml"
            )
        );
    }
}
