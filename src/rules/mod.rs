//! The rule catalogue and the rule engine.
//!
//! Each family is one module, `src/rules/<family>.rs`: one `declare_rules!` block declares its
//! rules (id, severity, precision; the doc comment is the rule's documentation; the family is
//! the module's name) beside the logic that reports them, and defines the module's `RULES`.
//! Each rule's declaration gives its rank, which orders the findings and the catalogue:
//! [`catalogue`] lists the families once and sorts their rules by rank, in the order of checks of
//! hippo's page "Writing a pack" (docs/ordering.md); `hippo-packs rules`, the SARIF rule table
//! and docs/rules.md all read it.

use crate::core::{Diagnostic, LineIndex, fingerprint};
use crate::model::Documents;
use crate::pack::{Pack, PackKind};

pub(crate) mod case;
pub(crate) mod configuration;
pub(crate) mod content;
pub(crate) mod declare;
pub(crate) mod file_scan;
pub(crate) mod keys;
pub mod layout;
pub(crate) mod manifest;
pub(crate) mod pass;
pub(crate) mod paths;
pub(crate) mod persona;
pub(crate) mod prompt;
pub mod redaction;
pub(crate) mod registry;
pub(crate) mod rendered;
pub(crate) mod sizes;
pub mod test;
pub mod text;
pub(crate) mod theme;
pub(crate) mod transcript;
pub(crate) mod unreferenced;
pub(crate) mod yaml;

pub(crate) use crate::core::Rule;

/// Every rule, in rank order (docs/ordering.md): each rule declares its rank with its
/// declaration (`rank = N` in `declare_rules!`), and the ranks follow the page's order of checks
/// (layout, paths, text, sizes, manifest, pass files, prompts, personas, cases, front matter,
/// transcripts, theme), then the warnings in the page's table order (not referenced, closing
/// instruction, persona sections, reply contract, unrendered text, padding, ignorable character,
/// unusual space, injection, URL, URL placeholder, shell, encoded run, redaction), then the
/// fixture runner's rule, the configuration's, and the registry's (`ci` only). The families are
/// listed once here; their order does not matter.
pub fn catalogue() -> &'static [&'static Rule] {
    static ALL: std::sync::OnceLock<Vec<&'static Rule>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let families: &[&[&'static Rule]] = &[
            layout::RULES,
            paths::RULES,
            text::RULES,
            sizes::RULES,
            manifest::RULES,
            pass::RULES,
            unreferenced::RULES,
            prompt::RULES,
            persona::RULES,
            case::RULES,
            yaml::RULES,
            transcript::RULES,
            theme::RULES,
            rendered::RULES,
            content::RULES,
            redaction::RULES,
            test::RULES,
            configuration::RULES,
            registry::RULES,
        ];
        let mut all: Vec<&'static Rule> = families.iter().flat_map(|f| f.iter().copied()).collect();
        all.sort_by_key(|r| r.rank());
        all
    })
}

/// Position of a rule in the catalogue: SARIF's `ruleIndex` (unknown rules sort last).
pub(crate) fn index(rule: &Rule) -> usize {
    catalogue()
        .iter()
        .position(|r| r.id == rule.id)
        .unwrap_or(usize::MAX)
}

/// The rule with the id `id`.
pub fn find(id: &str) -> Option<&'static Rule> {
    catalogue().iter().copied().find(|r| r.id == id)
}

/// What a check yields: its findings.
#[derive(Debug, Default)]
pub struct Checked {
    /// The findings, in output order.
    pub diagnostics: Vec<Diagnostic>,
}

/// The pack's documents read ([`Documents::read`], in the model), then every rule over them
/// ([`judge`]): for the callers that hold a pack alone (the benchmarks, the fuzz targets, the
/// property tests). `check` reads the documents itself, to hand them to `test`.
pub fn run(pack: &Pack) -> Checked {
    Checked {
        diagnostics: judge(pack, &Documents::read(pack)),
    }
}

/// Runs every rule over a loaded pack and its documents, parsed once before (`docs`), and
/// returns its findings, resolved and sorted. The rules judge: none parses or builds a document.
pub(crate) fn judge(pack: &Pack, docs: &Documents<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let d = &mut out;
    layout::walk_problems(pack, d);
    layout::check(pack, d);
    paths::check(pack, d);
    // The text, content and redaction rules: one reading of each file (rules/file_scan.rs).
    file_scan::check(pack, docs, d);
    sizes::check(pack, d);
    manifest::check(docs, d);
    match pack.kind {
        PackKind::Theme => theme::check(docs, d),
        PackKind::Pass => {
            pass::check(pack, docs, d);
            prompt::check(pack, &docs.passes, d);
            case::check(pack, docs, d);
            yaml::check(docs, d);
            transcript::check(pack, docs, d);
            if docs.passes_parsed {
                unreferenced::check(pack, &docs.passes, d);
            }
        }
    }
    layout::lfs_pointers(pack, &mut out);
    finish(pack, &mut out);
    out
}

/// The edge: every diagnostic gets a file to point at, its span resolved and its fingerprint
/// ([`resolve`]), and the list its order.
pub(crate) fn finish(pack: &Pack, diags: &mut [Diagnostic]) {
    resolve(pack, diags);
    sort(diags);
}

/// Every diagnostic gets a file to point at (pack-wide ones at `pack.toml`, or the pack's first
/// file), its span resolved into lines and columns, and the GitHub line hash of its first line
/// (SARIF's `primaryLocationLineHash`). The order is kept: `test` calls this for its failures.
pub fn resolve(pack: &Pack, diags: &mut [Diagnostic]) {
    let fallback = pack.anchor_file();
    let mut indexes: std::collections::HashMap<String, LineIndex<'_>> = Default::default();
    let mut hashes: std::collections::HashMap<String, Vec<String>> = Default::default();
    for d in diags.iter_mut() {
        if d.file.is_none() {
            d.file = fallback.clone();
            d.span = None;
        }
    }
    // By file and offset, so each file's line index walks a long line once.
    let mut order: Vec<usize> = (0..diags.len()).collect();
    order.sort_by(|&a, &b| {
        (&diags[a].file, diags[a].span.map(|s| s.start))
            .cmp(&(&diags[b].file, diags[b].span.map(|s| s.start)))
    });
    for i in order {
        let d = &mut diags[i];
        let Some(file) = &d.file else { continue };
        let Some(f) = pack.file(file) else { continue };
        if let Some(span) = d.span {
            let idx = indexes
                .entry(file.clone())
                .or_insert_with(|| LineIndex::new(&f.bytes));
            d.region = idx.region(span);
            for r in &mut d.related {
                r.region = idx.region(r.span);
            }
            for o in &mut d.occurrences {
                o.region = idx.region(o.span);
            }
        }
        let lines = hashes.entry(file.clone()).or_insert_with(|| {
            if f.complete {
                fingerprint::line_hashes(&f.bytes)
            } else {
                fingerprint::known_line_hashes(&f.bytes)
            }
        });
        let hash = |line: usize| line.checked_sub(1).and_then(|i| lines.get(i)).cloned();
        d.fingerprint = hash(d.region.line);
        for r in &mut d.related {
            r.fingerprint = hash(r.region.line);
        }
    }
}

/// The order of docs/ordering.md: errors, then warnings; each by subject (pack-wide first, then
/// paths in byte order), then the rule's rank at the finding's severity, then position.
pub(crate) fn sort(diags: &mut [Diagnostic]) {
    let rank = |d: &Diagnostic| d.rule.rank_as(d.severity);
    diags.sort_by(|a, b| {
        a.severity
            .cmp(&b.severity)
            .then_with(|| a.subject.cmp(&b.subject))
            .then_with(|| rank(a).cmp(&rank(b)))
            .then_with(|| a.span.map(|s| s.start).cmp(&b.span.map(|s| s.start)))
            .then_with(|| a.message.cmp(&b.message))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Severity;

    #[test]
    fn rule_ids_are_unique_kebab_case_and_documented() {
        let mut seen = std::collections::HashSet::new();
        for r in catalogue() {
            assert!(seen.insert(r.id), "duplicate rule id {}", r.id);
            assert!(
                r.id.split('-').all(|p| !p.is_empty()
                    && p.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())),
                "rule id {} is not kebab-case",
                r.id
            );
            assert!(!r.summary().is_empty(), "{} has no summary", r.id);
            assert!(!r.description().is_empty(), "{} has no description", r.id);
            assert!(!r.help().is_empty(), "{} has no help", r.id);
        }
        assert!(seen.len() > 10, "the catalogue lost its families");
    }

    /// The ranks two rules share, or a rule and another's error rank (`rank = 10` twice).
    fn shared_ranks(all: &[&Rule]) -> Vec<(u16, &'static str)> {
        let mut seen = std::collections::HashMap::new();
        let mut shared = Vec::new();
        for r in all {
            let error = r.rank_as(Severity::Error);
            let ranks = [Some(r.rank()), (error != r.rank()).then_some(error)];
            for rank in ranks.into_iter().flatten() {
                if let Some(other) = seen.insert(rank, r.id) {
                    shared.push((rank, other));
                }
            }
        }
        shared
    }

    #[test]
    fn no_two_rules_share_a_rank_and_the_catalogue_is_in_rank_order() {
        assert_eq!(shared_ranks(catalogue()), []);
        assert!(catalogue().windows(2).all(|w| w[0].rank() < w[1].rank()));
        // Control: the catalogue with one rule twice is caught.
        let mut twice = catalogue().to_vec();
        twice.push(catalogue()[3]);
        assert_eq!(
            shared_ranks(&twice),
            [(catalogue()[3].rank(), catalogue()[3].id)]
        );
    }

    #[test]
    fn redaction_sorts_with_the_sizes_as_an_error_and_last_of_the_warnings_as_a_warning() {
        let error = redaction::REDACTION.rank_as(Severity::Error);
        assert!(sizes::PACK_SIZE.rank() < error && error < sizes::FILE_COUNT.rank());
        let warning = redaction::REDACTION.rank_as(Severity::Warning);
        assert!(content::ENCODED_RUN.rank() < warning && warning < test::TEST_EXPECTATION.rank());
    }

    /// The family modules (`src/rules/<family>.rs`) whose rules are missing from `catalogue`
    /// (`mod`, `declare`, `file_scan`, which runs three families' byte scans together, and `keys`,
    /// which reports three families' TOML keys, declare no rule).
    fn families_left_out(dir: &std::path::Path, all: &[&Rule]) -> Vec<String> {
        let mut out: Vec<String> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .filter_map(|n| n.strip_suffix(".rs").map(str::to_string))
                    .filter(|n| !["mod", "declare", "file_scan", "keys"].contains(&n.as_str()))
                    .filter(|n| !all.iter().any(|r| r.family() == n))
                    .collect()
            })
            .unwrap_or_else(|e| vec![format!("{}: {e}", dir.display())]);
        out.sort();
        out
    }

    #[test]
    fn every_family_module_is_in_the_catalogue_under_its_own_name() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
        assert_eq!(families_left_out(&dir, catalogue()), Vec::<String>::new());
        for r in catalogue() {
            assert_eq!(
                r.source_file(),
                format!("src/rules/{}.rs", r.family()),
                "{}",
                r.id
            );
        }
        // Control: a catalogue without the layout family is caught.
        let partial: Vec<&Rule> = catalogue()
            .iter()
            .copied()
            .filter(|r| r.family() != "layout")
            .collect();
        assert_eq!(families_left_out(&dir, &partial), ["layout"]);
    }
}
