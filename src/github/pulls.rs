//! The files a pull request changes, and the packs they fall in.
//!
//! octocrab's typed `pulls().list_files(n)` asks for GitHub's default page of 30 files and
//! takes no `per_page`, and its pages follow any `Link`; a registry pull request can touch
//! hundreds of files, so this asks for pages of 100 through [`Http::request`] (rate limits
//! waited out) and follows `rel="next"` only to the API's own origin, reading only the three
//! fields used, so a field GitHub Enterprise Server omits cannot fail the listing.

use super::client::{Failure, Http};

/// GitHub lists at most 3,000 files of a pull request: 30 pages of 100.
pub(crate) const MAX_PAGES: usize = 30;

#[derive(Debug, Clone, serde::Deserialize)]
pub(crate) struct ChangedFile {
    pub(crate) filename: String,
    #[serde(default)]
    pub(crate) previous_filename: Option<String>,
    /// `added`, `removed`, `modified`, `renamed`, …; absent counts as present in the head.
    #[serde(default)]
    pub(crate) status: Option<String>,
}

impl ChangedFile {
    /// Whether the file is in the pull request's head (every file but a removed one).
    fn in_head(&self) -> bool {
        self.status.as_deref() != Some("removed")
    }
}

/// The files GitHub lists for a pull request, each once (a rename is one file with two paths).
#[derive(Default)]
pub(crate) struct Listed {
    /// How many files were listed: what `changed_files` counts.
    pub(crate) files: usize,
    /// Every path they touch (a rename's old path too).
    pub(crate) paths: Vec<String>,
    /// The paths the head holds: every file's name but a removed file's (a rename's old name
    /// is not among them).
    pub(crate) in_head: Vec<String>,
}

impl Listed {
    fn add(&mut self, f: ChangedFile) {
        self.files += 1;
        if f.in_head() {
            self.in_head.push(f.filename.clone());
        }
        self.paths.push(f.filename);
        self.paths.extend(f.previous_filename);
    }
}

/// The files the pull request changes, as far as GitHub lists them.
pub(crate) async fn changed_files(
    http: &Http,
    owner: &str,
    repo: &str,
    number: u64,
    mut on_retry: impl FnMut(&Failure),
) -> Result<Listed, Failure> {
    let mut uri = format!("/repos/{owner}/{repo}/pulls/{number}/files?per_page=100");
    let mut listed = Listed::default();
    for _ in 0..MAX_PAGES {
        let answer = http.request(None, &uri, &mut on_retry).await?;
        for f in answer.json::<Vec<ChangedFile>>()? {
            listed.add(f);
        }
        match answer.next_page()? {
            Some(next) => uri = next,
            None => break,
        }
    }
    Ok(listed)
}

/// The compare API lists at most this many files of a comparison.
pub(crate) const MAX_COMPARED: usize = 300;

/// The files changed between two commits (`GET /repos/{owner}/{repo}/compare/{base}...{head}`,
/// at most [`MAX_COMPARED`]).
pub(crate) async fn compared_files(
    http: &Http,
    owner: &str,
    repo: &str,
    (base, head): (&str, &str),
    on_retry: impl FnMut(&Failure),
) -> Result<Listed, Failure> {
    #[derive(serde::Deserialize)]
    struct Comparison {
        #[serde(default)]
        files: Vec<ChangedFile>,
    }
    let uri = format!("/repos/{owner}/{repo}/compare/{base}...{head}");
    let c: Comparison = http.request(None, &uri, on_retry).await?.json()?;
    let mut listed = Listed::default();
    c.files.into_iter().for_each(|f| listed.add(f));
    Ok(listed)
}

/// `changed_files` of the pull request itself (`GET /repos/{owner}/{repo}/pulls/{n}`), for an
/// event whose payload lacks it.
pub(crate) async fn changed_count(
    http: &Http,
    owner: &str,
    repo: &str,
    number: u64,
    on_retry: impl FnMut(&Failure),
) -> Result<Option<u64>, Failure> {
    let uri = format!("/repos/{owner}/{repo}/pulls/{number}");
    let pr: serde_json::Value = http.request(None, &uri, on_retry).await?.json()?;
    Ok(pr.get("changed_files").and_then(serde_json::Value::as_u64))
}

/// Whether each pack (its path relative to the repository root, `/`-separated, empty for the
/// root) holds one of the changed files, is one, or lies under one: a symbolic link discovery
/// reports in place of a pack is a changed file at that very path, and a submodule's new
/// commit is one changed entry at the submodule's path, above every pack in it.
pub(crate) fn touched(pack_paths: &[String], files: &[String]) -> Vec<bool> {
    let under = |a: &str, b: &str| a.strip_prefix(b).is_some_and(|rest| rest.starts_with('/'));
    pack_paths
        .iter()
        .map(|p| {
            let p = p.trim_end_matches('/');
            p.is_empty()
                || files
                    .iter()
                    .any(|f| f == p || under(f, p) || under(p, f.trim_end_matches('/')))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_gates_the_pack_it_falls_in() {
        let packs = vec![
            "packs/a".to_string(),
            "packs/ab".to_string(),
            "packs/c".to_string(),
        ];
        let files = vec!["packs/ab/pack.toml".to_string(), "README.md".to_string()];
        assert_eq!(touched(&packs, &files), vec![false, true, false]);
        assert_eq!(
            touched(&["".to_string()], &[]),
            vec![true],
            "a root pack is always gated"
        );
        assert_eq!(
            touched(&packs, &["packs/a".to_string()]),
            vec![true, false, false],
            "an entry at the pack's own path (a symbolic link discovery will not follow, a folder \
             turned into a file) gates it; a sibling sharing its prefix does not"
        );
        assert_eq!(
            touched(&packs, &["packs".to_string()]),
            vec![true, true, true],
            "a submodule's entry gates every pack in it"
        );
        assert_eq!(
            touched(&packs, &["pack".to_string()]),
            vec![false, false, false],
            "control: a name sharing a prefix is not a folder above"
        );
    }
}
