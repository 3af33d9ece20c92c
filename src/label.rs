//! A pull request's review labels a touched pack's findings against the same pack at the base
//! (docs/action.md, "The review"): each finding, and each occurrence of a finding reported once
//! per file (every secret, URL and hidden text), is new or existing, and what the base had that
//! the head lost is fixed.
//!
//! A finding is keyed by its rule, its pack-relative path and its text (the message; an
//! occurrence's own text; a related place's kind and identity, a secret's digest), never by its line: a finding that only
//! moves stays existing, and a second key added to a file that had one is new. Keys are counted:
//! when the head has a key more often than the base, the later ones in report order are new.

use std::collections::HashMap;

use crate::core::Diagnostic;
use crate::core::baseline::{Baseline, Fixed};
use crate::outcome::PackReport;

/// What keys a finding or one of its occurrences.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Text {
    /// A finding without occurrences: its message.
    Message(String),
    /// A related place that is a finding of its own (a secret): its kind and its identity.
    Related(&'static str, u64),
    /// An occurrence: its text.
    Occurrence(String),
}

type Key = (&'static str, Option<String>, Text);

/// The keys of one finding: one per related place that is a finding of its own (a secret) or
/// per occurrence, else its own; each with what a fixed entry says of it.
fn keys(where_: Option<&str>, d: &Diagnostic) -> Vec<(Key, String)> {
    let path = d.file.clone().or_else(|| where_.map(str::to_string));
    let key = |text: Text| (d.rule.id, path.clone(), text);
    if d.related_are_findings() {
        return d
            .related
            .iter()
            .map(|r| {
                let said = format!("{}: {}", d.message, r.label);
                (key(Text::Related(r.kind, r.identity)), said)
            })
            .collect();
    }
    if !d.occurrences.is_empty() {
        return d
            .occurrences
            .iter()
            .map(|o| {
                let said = format!("{}: {}", d.message, o.text);
                (key(Text::Occurrence(o.text.clone())), said)
            })
            .collect();
    }
    vec![(key(Text::Message(d.message.clone())), d.message.clone())]
}

/// Every finding of a report with where it stands when it has no file: a failed expectation
/// under its case's folder.
fn findings(r: &PackReport) -> impl Iterator<Item = (Option<String>, &Diagnostic)> {
    let cases = r.cases.iter().flat_map(|c| {
        let folder = format!("tests/{}", c.name);
        c.failures.iter().map(move |d| (Some(folder.clone()), d))
    });
    r.diagnostics.iter().map(|d| (None, d)).chain(cases)
}

/// Labels `head`'s findings against `base`, the same pack at the pull request's base (`None`: the
/// pack is new, or the base could not be read: every finding is new), and sets `head.fixed`.
pub(crate) fn against(head: &mut PackReport, base: Option<&PackReport>) {
    let mut left: HashMap<Key, usize> = HashMap::new();
    let mut order: Vec<(Key, String)> = Vec::new();
    for (where_, d) in base.into_iter().flat_map(findings) {
        for (k, said) in keys(where_.as_deref(), d) {
            *left.entry(k.clone()).or_default() += 1;
            order.push((k, said));
        }
    }
    let mut take = |k: Key| match left.get_mut(&k) {
        Some(n) if *n > 0 => {
            *n -= 1;
            Baseline::Existing
        }
        _ => Baseline::New,
    };
    // A warning an allowance took out of the head's verdict is not fixed: its keys are the
    // head's too, though it is not labelled.
    for a in &head.allowed {
        for (k, _) in keys(None, &a.diagnostic) {
            take(k);
        }
    }
    for d in head.diagnostics.iter_mut() {
        label(None, d, &mut take);
    }
    for c in head.cases.iter_mut() {
        let folder = format!("tests/{}", c.name);
        for d in c.failures.iter_mut() {
            label(Some(&folder), d, &mut take);
        }
    }
    let mut fixed = Vec::new();
    for ((rule, path, text), said) in order {
        let k = (rule, path, text);
        if let Some(n) = left.get_mut(&k).filter(|n| **n > 0) {
            *n -= 1;
            let (rule, path, _) = k;
            fixed.push(Fixed {
                rule,
                path,
                message: said,
            });
        }
    }
    head.fixed = Some(fixed);
}

/// Labels one finding and its occurrences: the finding is new when any of them is.
fn label(where_: Option<&str>, d: &mut Diagnostic, take: &mut impl FnMut(Key) -> Baseline) {
    let labels: Vec<Baseline> = keys(where_, d).into_iter().map(|(k, _)| take(k)).collect();
    if d.related_are_findings() {
        for (r, l) in d.related.iter_mut().zip(&labels) {
            r.baseline = Some(*l);
        }
    } else {
        for (o, l) in d.occurrences.iter_mut().zip(&labels) {
            o.baseline = Some(*l);
        }
    }
    d.baseline = Some(if labels.contains(&Baseline::New) {
        Baseline::New
    } else {
        Baseline::Existing
    });
}

/// Whether a finding counts as new: labelled new, or not labelled at all (no review made, or a
/// pack outside it), so that a gate on new findings fails closed.
pub(crate) fn is_new(d: &Diagnostic) -> bool {
    d.baseline != Some(Baseline::Existing)
}

#[cfg(test)]
mod tests;
