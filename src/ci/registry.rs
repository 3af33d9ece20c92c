//! The registry as a whole (docs/action.md, "The registry as a whole"): the name of every pack
//! `ci` discovered, read from its manifest before a `shard` partition (so a shard still sees
//! every name), judged together by the registry's rules (`rules::registry`), and each finding
//! added to its pack's report before the allowances apply (a `lookalike-name` warning can be
//! allowed). On a review with a base, each touched pack's version is compared with the base's
//! manifest. A pack whose manifest cannot be read or names nothing is left out: its own check
//! reports why.

use std::io::Read;
use std::path::Path;

use super::base;
use crate::core::Span;
use crate::core::{Diagnostic, LineIndex, fingerprint};
use crate::model::toml_spans;
use crate::outcome::PackReport;
use crate::rules::registry::{Named, Versioned, judge, version};

/// A manifest larger than this is not read: the pack's own `file-size` error covers it.
const LARGEST: u64 = 65_536;

/// One pack's manifest, as far as the registry reads it.
struct Manifest {
    /// The pack's folder relative to the repository root.
    base: String,
    /// The manifest's file name as written (`pack.toml`, or `Pack.toml` on a disk that does not
    /// tell case apart).
    file: String,
    bytes: Vec<u8>,
    name: Option<(String, Span)>,
    version: Option<(String, Span)>,
}

/// What the version rules read of a review (a pull request or a merge group with a base).
pub(crate) struct Review<'a> {
    /// The changed files, relative to the repository root, when the gate listed them.
    pub(crate) files: Option<&'a [String]>,
    /// A file as the base holds it (relative to the repository root).
    pub(crate) read: &'a dyn Fn(&str) -> Option<Vec<u8>>,
}

/// Every pack discovered: its folder, its path relative to the repository root (in byte order)
/// and whether the run touches it; and the changed files, when the gate listed them.
pub(crate) struct Packs {
    pub(crate) packs: Vec<(String, String, bool)>,
    pub(crate) files: Option<Vec<String>>,
}

impl Packs {
    /// The registry's findings, with the version rules when the run reviews against a base.
    pub(crate) fn findings(&self, review: &base::Review) -> Vec<(String, Diagnostic)> {
        let list: Vec<(&str, &str)> = self
            .packs
            .iter()
            .map(|(d, b, _)| (d.as_str(), b.as_str()))
            .collect();
        let touched: Vec<bool> = self.packs.iter().map(|p| p.2).collect();
        let base::Review::Base(base) = review else {
            return findings(&list, &touched, None);
        };
        let read = |rel: &str| base.read(rel);
        let review = Review {
            files: self.files.as_deref(),
            read: &read,
        };
        findings(&list, &touched, Some(&review))
    }
}

/// The registry's findings over `packs` (each pack's folder and its path relative to the
/// repository root, in byte order of the paths, every pack discovered), each with the path of
/// the pack it belongs to. `touched`: whether the run's changes touch each pack.
/// With a `review`, each touched pack's version is judged against the base's too.
pub(crate) fn findings(
    packs: &[(&str, &str)],
    touched: &[bool],
    review: Option<&Review<'_>>,
) -> Vec<(String, Diagnostic)> {
    let read: Vec<(Manifest, bool)> = packs
        .iter()
        .zip(touched)
        .filter_map(|(&(dir, base), &t)| Some((manifest(Path::new(dir), base)?, t)))
        .collect();
    let with_name: Vec<&(Manifest, bool)> = read.iter().filter(|(m, _)| m.name.is_some()).collect();
    let named: Vec<Named<'_>> = with_name
        .iter()
        .filter_map(|(m, t)| {
            let (name, span) = m.name.as_ref()?;
            Some(Named {
                path: &m.base,
                file: &m.file,
                name,
                span: *span,
                touched: *t,
            })
        })
        .collect();
    let mut out: Vec<(String, Diagnostic)> = judge(&named)
        .into_iter()
        .map(|(i, d)| {
            let m = &with_name[i].0;
            (m.base.clone(), located(d, &m.bytes))
        })
        .collect();
    if let Some(review) = review {
        for (m, _) in read.iter().filter(|(_, t)| *t) {
            if let Some(d) = versions(m, review) {
                out.push((m.base.clone(), located(d, &m.bytes)));
            }
        }
    }
    out
}

/// The version rules' finding for a touched pack: its version beside the base's manifest (none
/// when the base holds no manifest there: a new pack).
fn versions(m: &Manifest, review: &Review<'_>) -> Option<Diagnostic> {
    let (head, span) = m.version.as_ref()?;
    let at = |rel: &str| match m.base.is_empty() {
        true => rel.to_string(),
        false => format!("{}/{rel}", m.base),
    };
    let bytes = (review.read)(&at(&m.file)).or_else(|| (review.read)(&at("pack.toml")))?;
    let text = String::from_utf8(bytes).ok()?;
    let table = toml_spans::parse(&text).ok()?;
    let (_, value) = toml_spans::get(table.get_ref(), "version")?;
    let base = value.get_ref().as_str()?;
    let changed = review.files.map(|files| {
        files
            .iter()
            .filter_map(|f| match m.base.is_empty() {
                true => Some(f.as_str()),
                false => f.strip_prefix(&format!("{}/", m.base)),
            })
            .filter(|rel| !rel.starts_with("tests/"))
            .map(str::to_string)
            .collect()
    });
    version(&Versioned {
        file: &m.file,
        head,
        span: *span,
        base,
        changed,
    })
}

/// Adds each finding to the report of its pack (the packs outside this job's shard have none
/// here: their own shard reports them), in the order docs/ordering.md gives.
pub(crate) fn attach(found: Vec<(String, Diagnostic)>, reports: &mut [PackReport]) {
    for (base, d) in found {
        if let Some(r) = reports.iter_mut().find(|r| r.uri_base == base) {
            r.diagnostics.push(d);
            crate::rules::sort(&mut r.diagnostics);
        }
    }
}

/// The finding's line and column and its line's fingerprint, from the manifest's bytes.
fn located(mut d: Diagnostic, bytes: &[u8]) -> Diagnostic {
    if let Some(span) = d.span {
        d.region = LineIndex::new(bytes).region(span);
    }
    let hashes = fingerprint::line_hashes(bytes);
    d.fingerprint = d
        .region
        .line
        .checked_sub(1)
        .and_then(|i| hashes.get(i))
        .cloned();
    d
}

/// The manifest of the pack at `dir`: its file (`pack.toml` in any case, a regular file), its
/// bytes and its `name`, when it holds a string.
fn manifest(dir: &Path, base: &str) -> Option<Manifest> {
    let entry = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .find(|e| e.file_name().eq_ignore_ascii_case("pack.toml"))?;
    let file = entry.file_name().into_string().ok()?;
    // The entry itself, never a link's target: a linked manifest is the pack's own error.
    let meta = std::fs::symlink_metadata(entry.path()).ok()?;
    if !meta.is_file() || meta.len() > LARGEST {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::open(entry.path())
        .ok()?
        .take(LARGEST)
        .read_to_end(&mut bytes)
        .ok()?;
    let text = std::str::from_utf8(&bytes).ok()?;
    let table = toml_spans::parse(text).ok()?;
    let string = |key: &str| {
        let (_, value) = toml_spans::get(table.get_ref(), key)?;
        Some((
            value.get_ref().as_str()?.to_string(),
            toml_spans::span_of(value),
        ))
    };
    let (name, version) = (string("name"), string("version"));
    Some(Manifest {
        base: base.to_string(),
        file,
        name,
        version,
        bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(root: &Path, dir: &str, manifest: &str) -> String {
        let d = root.join(dir);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("pack.toml"), manifest).unwrap();
        d.to_string_lossy().into_owned()
    }

    #[test]
    fn every_name_is_read_and_a_finding_lands_at_the_name() {
        let tmp = tempfile::tempdir().unwrap();
        let a = pack(tmp.path(), "packs/a", "name = \"decision-log\"\n");
        let b = pack(tmp.path(), "packs/b", "# b\nname = \"decision-log\"\n");
        let c = pack(tmp.path(), "packs/c", "name = [\"not a string\"]\n");
        let packs = [
            (a.as_str(), "packs/a"),
            (b.as_str(), "packs/b"),
            (c.as_str(), "packs/c"),
        ];
        let found = findings(&packs, &[true, true, true], None);
        assert_eq!(found.len(), 1, "{found:?}");
        let (base, d) = &found[0];
        assert_eq!(base, "packs/b");
        assert_eq!(d.text(""), "pack.toml: name decision-log is packs/a's too");
        assert_eq!((d.region.line, d.region.col), (2, 8));
        assert!(d.fingerprint.is_some());
        let mut reports = vec![PackReport {
            uri_base: "packs/b".into(),
            ..PackReport::default()
        }];
        attach(found, &mut reports);
        assert_eq!(reports[0].errors(), 1);
    }

    #[test]
    fn control_distinct_names_draw_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let a = pack(tmp.path(), "a", "name = \"decision-log\"\n");
        let b = pack(tmp.path(), "b", "name = \"meeting-notes\"\n");
        let packs = [(a.as_str(), "a"), (b.as_str(), "b")];
        assert!(findings(&packs, &[true, true], None).is_empty());
    }

    #[test]
    fn a_touched_packs_version_is_compared_with_the_bases() {
        let tmp = tempfile::tempdir().unwrap();
        let m = "name = \"decision-log\"\nversion = \"1.0.0\"\n";
        let a = pack(tmp.path(), "packs/a", m);
        let b = pack(
            tmp.path(),
            "packs/b",
            &m.replace("decision-log", "meeting-notes"),
        );
        let packs = [(a.as_str(), "packs/a"), (b.as_str(), "packs/b")];
        let files = vec![
            "packs/a/prompts/p.md".to_string(),
            "packs/b/tests/c/case.toml".to_string(),
        ];
        let base = |rel: &str| match rel {
            "packs/a/pack.toml" | "packs/b/pack.toml" => Some(b"version = \"1.0.0\"\n".to_vec()),
            _ => None,
        };
        let review = Review {
            files: Some(&files),
            read: &base,
        };
        let found = findings(&packs, &[true, true], Some(&review));
        let said: Vec<String> = found
            .iter()
            .map(|(p, d)| format!("{p}: {}", d.text("")))
            .collect();
        assert_eq!(
            said,
            ["packs/a: pack.toml: version 1.0.0 is the base's, but prompts/p.md changed"],
            "packs/b changed only under tests/"
        );
        assert_eq!(found[0].1.region.line, 2);
        assert!(
            findings(&packs, &[false, true], Some(&review)).is_empty(),
            "control: an untouched pack is not judged"
        );
    }
}
