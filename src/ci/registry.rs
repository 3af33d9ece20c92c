//! The registry as a whole (docs/action.md, "The registry as a whole"): the name of every pack
//! `ci` discovered, read from its manifest before a `shard` partition (so a shard still sees
//! every name), judged together by the registry's rules (`rules::registry`), and each finding
//! added to its pack's report before the allowances apply (a `lookalike-name` warning can be
//! allowed). A pack whose manifest cannot be read or names nothing is left out: its own check
//! reports why.

use std::io::Read;
use std::path::Path;

use crate::core::{Diagnostic, LineIndex, fingerprint};
use crate::model::toml_spans;
use crate::outcome::PackReport;
use crate::rules::registry::{Named, judge};

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
    name: String,
    span: crate::core::Span,
}

/// The registry's findings over `packs` (each pack's folder and its path relative to the
/// repository root, in byte order of the paths, every pack discovered), each with the path of
/// the pack it belongs to. `touched`: whether the run's changes touch each pack.
pub(crate) fn findings(packs: &[(&str, &str)], touched: &[bool]) -> Vec<(String, Diagnostic)> {
    let read: Vec<(Manifest, bool)> = packs
        .iter()
        .zip(touched)
        .filter_map(|(&(dir, base), &t)| Some((manifest(Path::new(dir), base)?, t)))
        .collect();
    let named: Vec<Named<'_>> = read
        .iter()
        .map(|(m, t)| Named {
            path: &m.base,
            file: &m.file,
            name: &m.name,
            span: m.span,
            touched: *t,
        })
        .collect();
    judge(&named)
        .into_iter()
        .map(|(i, d)| {
            let m = &read[i].0;
            (m.base.clone(), located(d, &m.bytes))
        })
        .collect()
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
    let (_, value) = toml_spans::get(table.get_ref(), "name")?;
    let name = value.get_ref().as_str()?.to_string();
    let span = toml_spans::span_of(value);
    Some(Manifest {
        base: base.to_string(),
        file,
        bytes,
        name,
        span,
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
        let found = findings(&packs, &[true, true, true]);
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
        assert!(findings(&packs, &[true, true]).is_empty());
    }
}
