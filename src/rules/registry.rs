//! The registry's rules: what no pack shows alone, only the packs of a repository side by side.
//! `ci` reads the name of every pack under its path (`ci::registry`, every pack even under a
//! `shard`) and hands them here; `check` knows one pack at a time and never reports these.

use std::collections::BTreeMap;

use super::declare::declare_rules;
use crate::core::{Diagnostic, Span};

mod lookalike;

declare_rules! {
    /// Two packs of one repository with one name
    ///
    /// hippo installs, updates and lists a pack by its name, so two packs of one registry under
    /// one name are one pack to a user: whichever is installed last replaces the other. hippo-packs ci
    /// reads the name of every pack under its path (with a shard too) and reports the later
    /// of the two by path; when the run's changes touch one of them and not the other (a pull
    /// request adding a pack), the touched one, since the name was the other's first.
    ///
    /// How to fix: Give the pack a name of its own in pack.toml.
    pub(crate) static DUPLICATE_NAME = "duplicate-name", Error, VeryHigh, rank = 660;

    /// A pack name that looks like another pack's
    ///
    /// A name that reads like another pack's is how a look-alike package is slipped into a
    /// registry: the same name with a character swapped for a look-alike (0 for o, 1 for l, a
    /// Cyrillic letter for a Latin one), with two neighbouring letters swapped, or with a dash
    /// and a random-looking tail (decision-log-x7k2). Only a pack the run's changes touch is
    /// judged (every pack, when the changes are not known), only when both names have at least
    /// 8 characters; a plural s, a language (decision-log-pt-br) or a version suffix
    /// (decision-log-v2) is a name of its own.
    ///
    /// How to fix: Choose a name no one can take for the other pack's; when the likeness is
    /// intended, allow the warning in .hippo-packs.toml with the reason.
    pub(crate) static LOOKALIKE_NAME = "lookalike-name", Warning, Medium, rank = 670;

    /// A changed pack whose version did not change
    ///
    /// A user who has a version of a pack keeps it until the version changes: a pack whose
    /// prompts, personas or passes change under the version already published ships new
    /// behaviour that no update brings. On a pull request or a merge group with a base (the
    /// review's), a touched pack whose files outside tests/ changed while its version stayed the
    /// base's is reported; a pack the base lacks, and changes under tests/ alone, draw nothing.
    /// Judged when the changes are listed (scope changed).
    ///
    /// How to fix: Raise the version in pack.toml (the patch number for a fix, the minor for
    /// a new ability, the major for a change users must act on).
    pub(crate) static VERSION_UNCHANGED = "version-unchanged", Warning, High, rank = 680, cases = "tests/it/ci_registry.rs";

    /// A pack version lower than the base's
    ///
    /// Versions only go up: a version lower than the one the base holds makes an installed copy
    /// look newer than the update, so the update is never taken. On a pull request or a merge
    /// group with a base (the review's), each touched pack's version is compared with the
    /// base's, number by number.
    ///
    /// How to fix: Give the pack a version above the base's.
    pub(crate) static VERSION_LOWERED = "version-lowered", Error, VeryHigh, rank = 690, cases = "tests/it/ci_registry.rs";
}

/// A touched pack's version beside the base's, as the version rules read them.
#[derive(Debug, Clone)]
pub(crate) struct Versioned<'a> {
    /// The manifest's file name as the pack spells it (`pack.toml`).
    pub(crate) file: &'a str,
    pub(crate) head: &'a str,
    /// Where the head's version value stands in the manifest.
    pub(crate) span: Span,
    pub(crate) base: &'a str,
    /// The pack's changed files outside `tests/` (pack-relative), when the changes are known.
    pub(crate) changed: Option<Vec<String>>,
}

/// `MAJOR.MINOR.PATCH` as numbers; `None` for any other shape (the manifest's rules say why).
fn numbers(v: &str) -> Option<(u64, u64, u64)> {
    let mut parts = v.split('.').map(|p| p.parse::<u64>().ok());
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(Some(a)), Some(Some(b)), Some(Some(c)), None) => Some((a, b, c)),
        _ => None,
    }
}

/// The version rules' finding for one touched pack, if any: lower than the base's is an error;
/// the base's own with files outside `tests/` changed, a warning.
pub(crate) fn version(v: &Versioned<'_>) -> Option<Diagnostic> {
    let (head, base) = (numbers(v.head)?, numbers(v.base)?);
    if head < base {
        let msg = format!("version {} is lower than the base's {}", v.head, v.base);
        return Some(Diagnostic::key(&VERSION_LOWERED, v.file, v.span, msg));
    }
    let changed = v.changed.as_deref().filter(|c| !c.is_empty())?;
    (head == base).then(|| {
        let more = match changed.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        let msg = format!(
            "version {} is the base's, but {}{more} changed",
            v.head, changed[0]
        );
        Diagnostic::key(&VERSION_UNCHANGED, v.file, v.span, msg)
    })
}

/// A pack's name as the registry's rules read it.
#[derive(Debug, Clone)]
pub(crate) struct Named<'a> {
    /// The pack's folder relative to the repository root, `/`-separated (empty: the root).
    pub(crate) path: &'a str,
    /// The manifest's file name as the pack spells it (`pack.toml`).
    pub(crate) file: &'a str,
    pub(crate) name: &'a str,
    /// Where the name's value stands in the manifest.
    pub(crate) span: Span,
    /// Whether the run's changes touch the pack (every pack, when the changes are not known).
    pub(crate) touched: bool,
}

/// How a message names a pack: its folder, `.` for the repository root.
fn shown(path: &str) -> &str {
    if path.is_empty() { "." } else { path }
}

/// The registry's findings, each with the index in `packs` of the pack it belongs to. `packs`
/// are in byte order of their paths.
pub(crate) fn judge(packs: &[Named<'_>]) -> Vec<(usize, Diagnostic)> {
    let mut out = duplicates(packs);
    out.extend(lookalikes(packs));
    out
}

/// Each pack whose name an earlier pack has: the first untouched holder keeps the name (the
/// first by path, when all are touched or none), every other holder is reported.
fn duplicates(packs: &[Named<'_>]) -> Vec<(usize, Diagnostic)> {
    let mut by_name: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, p) in packs.iter().enumerate() {
        by_name.entry(p.name).or_default().push(i);
    }
    let mut out = Vec::new();
    for (name, holders) in by_name.into_iter().filter(|(_, h)| h.len() > 1) {
        let keeper = holders
            .iter()
            .copied()
            .find(|&i| !packs[i].touched)
            .unwrap_or(holders[0]);
        for &i in holders.iter().filter(|&&i| i != keeper) {
            let p = &packs[i];
            let msg = format!("name {name} is {}'s too", shown(packs[keeper].path));
            out.push((i, Diagnostic::key(&DUPLICATE_NAME, p.file, p.span, msg)));
        }
    }
    out
}

/// Each touched pack whose name looks like another pack's. A likeness both ways (look-alike
/// characters, a transposition) between two touched packs is reported once, on the later.
fn lookalikes(packs: &[Named<'_>]) -> Vec<(usize, Diagnostic)> {
    let skeletons: Vec<String> = packs.iter().map(|p| lookalike::skeleton(p.name)).collect();
    let mut out = Vec::new();
    for (i, p) in packs.iter().enumerate().filter(|(_, p)| p.touched) {
        // One warning per name it looks like: a second holder of that name is `duplicate-name`'s.
        let mut named = std::collections::BTreeSet::new();
        for (j, other) in packs.iter().enumerate() {
            if !named.insert(other.name) {
                continue;
            }
            let Some(like) = lookalike::likeness(p.name, &skeletons[i], other.name, &skeletons[j])
            else {
                continue;
            };
            let both_ways = !matches!(like, lookalike::Likeness::Tail(_));
            if both_ways && other.touched && j > i {
                continue;
            }
            let msg = format!(
                "name {} looks like {}, the name of {}: {}",
                p.name,
                other.name,
                shown(other.path),
                like.describe()
            );
            out.push((i, Diagnostic::key(&LOOKALIKE_NAME, p.file, p.span, msg)));
        }
    }
    out
}

#[cfg(test)]
mod tests;
