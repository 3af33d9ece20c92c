use super::*;
use crate::core::baseline::Occurrence;
use crate::core::{Region, Span};
use crate::rules::content::{INJECTION_PHRASE, URL_OUTSIDE_README};
use crate::rules::redaction::{REDACTION, secret};

fn report(diags: Vec<Diagnostic>) -> PackReport {
    PackReport {
        dir: "packs/a".into(),
        diagnostics: diags,
        ..PackReport::default()
    }
}

fn phrase(path: &str, at: usize, quoted: &str) -> Diagnostic {
    let message = format!("injection-shaped phrase \"{quoted}\"");
    Diagnostic::key(&INJECTION_PHRASE, path, Span::new(at, at + 5), message)
}

fn keys_file(path: &str, keys: &[(usize, &str)]) -> Diagnostic {
    let secrets = keys
        .iter()
        .map(|(at, k)| secret("github-pat", Span::new(*at, at + k.len()), k))
        .collect();
    Diagnostic::key(
        &REDACTION,
        path,
        Span::new(keys[0].0, keys[0].0 + 4),
        "a secret",
    )
    .with_related(secrets)
}

fn urls(path: &str, found: &[(usize, &str)]) -> Diagnostic {
    let mut d = Diagnostic::key(
        &URL_OUTSIDE_README,
        path,
        Span::new(found[0].0, found[0].0 + 8),
        "a URL outside README.md",
    );
    d.occurrences = found
        .iter()
        .map(|(at, u)| Occurrence {
            span: Span::new(*at, at + u.len()),
            region: Region::default(),
            text: u.to_string(),
            baseline: None,
        })
        .collect();
    d
}

fn labels(r: &PackReport) -> Vec<Option<Baseline>> {
    r.diagnostics.iter().map(|d| d.baseline).collect()
}

const PAT_A: &str = "ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const PAT_B: &str = "ghp_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

#[test]
fn a_fixed_warning_is_fixed_and_the_old_ones_existing() {
    let base = report(vec![
        phrase("prompts/a.md", 10, "you are now"),
        phrase("prompts/a.md", 40, "never reject"),
    ]);
    let mut head = report(vec![phrase("prompts/a.md", 10, "you are now")]);
    against(&mut head, Some(&base));
    assert_eq!(labels(&head), [Some(Baseline::Existing)]);
    let fixed = head.fixed.as_deref().unwrap();
    assert_eq!(fixed.len(), 1, "{fixed:?}");
    assert_eq!(fixed[0].rule, "injection-phrase");
    assert_eq!(fixed[0].path.as_deref(), Some("prompts/a.md"));
    assert!(fixed[0].message.contains("never reject"), "{fixed:?}");
    // Control: the same report against itself fixes nothing, and adding a phrase is new.
    let mut same = report(vec![phrase("prompts/a.md", 10, "you are now")]);
    against(&mut same, Some(&head));
    assert_eq!(same.fixed.as_deref().map(<[Fixed]>::len), Some(0));
    let mut added = report(vec![
        phrase("prompts/a.md", 10, "you are now"),
        phrase("prompts/a.md", 90, "always confirm"),
    ]);
    against(&mut added, Some(&same));
    assert_eq!(
        labels(&added),
        [Some(Baseline::Existing), Some(Baseline::New)]
    );
}

#[test]
fn a_finding_that_only_moves_is_not_new() {
    let base = report(vec![phrase("prompts/a.md", 10, "you are now")]);
    let mut moved = report(vec![phrase("prompts/a.md", 900, "you are now")]);
    moved.diagnostics[0].region.line = 40;
    against(&mut moved, Some(&base));
    assert_eq!(labels(&moved), [Some(Baseline::Existing)]);
    // Control: the same text in another file is another finding.
    let mut elsewhere = report(vec![phrase("prompts/b.md", 10, "you are now")]);
    against(&mut elsewhere, Some(&base));
    assert_eq!(labels(&elsewhere), [Some(Baseline::New)]);
    assert_eq!(elsewhere.fixed.as_ref().map(Vec::len), Some(1));
}

#[test]
fn a_second_key_in_a_file_that_had_one_is_new() {
    let base = report(vec![keys_file("personas/p.md", &[(5, PAT_A)])]);
    let mut head = report(vec![keys_file(
        "personas/p.md",
        &[(80, PAT_A), (200, PAT_B)],
    )]);
    against(&mut head, Some(&base));
    let d = &head.diagnostics[0];
    let each: Vec<_> = d.related.iter().map(|s| s.baseline).collect();
    assert_eq!(each, [Some(Baseline::Existing), Some(Baseline::New)]);
    assert_eq!(
        d.baseline,
        Some(Baseline::New),
        "the finding is new with it"
    );
    // The same key pasted twice: the second is new too.
    let mut twice = report(vec![keys_file("personas/p.md", &[(5, PAT_A), (90, PAT_A)])]);
    against(&mut twice, Some(&base));
    let each: Vec<_> = twice.diagnostics[0]
        .related
        .iter()
        .map(|s| s.baseline)
        .collect();
    assert_eq!(each, [Some(Baseline::Existing), Some(Baseline::New)]);
    // Control: a key replaced by another of its kind is new, and the old one fixed (masked).
    let mut swapped = report(vec![keys_file("personas/p.md", &[(5, PAT_B)])]);
    against(&mut swapped, Some(&base));
    assert_eq!(labels(&swapped), [Some(Baseline::New)]);
    let fixed = swapped.fixed.unwrap();
    assert_eq!(fixed.len(), 1);
    assert!(
        fixed[0].message.ends_with("ghp_\u{2026}[github-pat]"),
        "{fixed:?}"
    );
    assert!(!fixed[0].message.contains(PAT_A), "never the key itself");
}

#[test]
fn a_second_url_in_a_file_that_had_one_is_new() {
    let base = report(vec![urls("passes/p.toml", &[(3, "https://a.example/x")])]);
    let mut head = report(vec![urls(
        "passes/p.toml",
        &[(3, "https://b.example/y"), (60, "https://a.example/x")],
    )]);
    against(&mut head, Some(&base));
    let each: Vec<_> = head.diagnostics[0]
        .occurrences
        .iter()
        .map(|o| o.baseline)
        .collect();
    assert_eq!(each, [Some(Baseline::New), Some(Baseline::Existing)]);
    assert_eq!(labels(&head), [Some(Baseline::New)]);
    // Control: the URL alone, moved, is existing.
    let mut moved = report(vec![urls("passes/p.toml", &[(70, "https://a.example/x")])]);
    against(&mut moved, Some(&base));
    assert_eq!(labels(&moved), [Some(Baseline::Existing)]);
}

#[test]
fn without_a_base_every_finding_is_new() {
    let mut head = report(vec![
        phrase("prompts/a.md", 10, "you are now"),
        keys_file("personas/p.md", &[(5, PAT_A)]),
    ]);
    against(&mut head, None);
    assert_eq!(labels(&head), [Some(Baseline::New), Some(Baseline::New)]);
    assert!(head.diagnostics.iter().all(is_new));
    assert_eq!(head.fixed.as_ref().map(Vec::len), Some(0));
    // Control: an unlabelled finding counts as new; an existing one does not.
    let mut d = phrase("prompts/a.md", 10, "you are now");
    assert!(is_new(&d));
    d.baseline = Some(Baseline::Existing);
    assert!(!is_new(&d));
}

#[test]
fn an_allowed_warning_is_not_fixed() {
    let base = report(vec![phrase("prompts/a.md", 10, "you are now")]);
    let mut head = report(vec![]);
    head.allowed.push(crate::outcome::Allowed {
        diagnostic: phrase("prompts/a.md", 10, "you are now"),
        reason: "quoted".into(),
    });
    against(&mut head, Some(&base));
    assert_eq!(head.fixed.as_ref().map(Vec::len), Some(0));
    // Control: without the allowance the warning is gone, so fixed.
    let mut gone = report(vec![]);
    against(&mut gone, Some(&base));
    assert_eq!(gone.fixed.as_ref().map(Vec::len), Some(1));
}
