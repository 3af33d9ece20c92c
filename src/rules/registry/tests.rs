use super::*;

fn named<'a>(path: &'a str, name: &'a str, touched: bool) -> Named<'a> {
    Named {
        path,
        file: "pack.toml",
        name,
        span: Span::new(8, 8 + name.len()),
        touched,
    }
}

/// Each finding as `<pack path>: <rule> <message>`.
fn lines(packs: &[Named<'_>]) -> Vec<String> {
    judge(packs)
        .into_iter()
        .map(|(i, d)| format!("{}: {} {}", packs[i].path, d.rule.id, d.message))
        .collect()
}

#[test]
fn a_second_pack_with_a_name_is_an_error_on_the_later_one() {
    let packs = [
        named("packs/a", "decision-log", true),
        named("packs/b", "decision-log", true),
        named("packs/c", "meeting-notes", true),
    ];
    assert_eq!(
        lines(&packs),
        ["packs/b: duplicate-name name decision-log is packs/a's too"]
    );
    let d = &judge(&packs)[0].1;
    assert_eq!(
        (d.file.as_deref(), d.span),
        (Some("pack.toml"), Some(Span::new(8, 20)))
    );
}

#[test]
fn the_untouched_holder_keeps_its_name() {
    let packs = [
        named("packs/a", "decision-log", true),
        named("packs/b", "decision-log", false),
        named("", "decision-log", false),
    ];
    // The root sorts first in byte order; here it is listed last to show the keeper is the
    // first untouched holder in the order given.
    assert_eq!(
        lines(&packs),
        [
            "packs/a: duplicate-name name decision-log is packs/b's too",
            ": duplicate-name name decision-log is packs/b's too"
        ]
    );
}

#[test]
fn a_touched_lookalike_is_a_warning_naming_the_other_pack() {
    let packs = [
        named("packs/a", "decision-log", false),
        named("packs/b", "decisi0n-log", true),
        named("packs/c", "decision-log-x7k2", true),
        named("packs/d", "decision-logs", true),
    ];
    assert_eq!(
        lines(&packs),
        [
            "packs/b: lookalike-name name decisi0n-log looks like decision-log, the name of packs/a: the same name with look-alike characters",
            "packs/c: lookalike-name name decision-log-x7k2 looks like decision-log, the name of packs/a: the same name with the random-looking tail -x7k2",
            "packs/c: lookalike-name name decision-log-x7k2 looks like decisi0n-log, the name of packs/b: the same name with the random-looking tail -x7k2",
        ]
    );
}

#[test]
fn a_pair_of_touched_lookalikes_is_reported_once_on_the_later() {
    let packs = [
        named("packs/a", "decision-log", true),
        named("packs/b", "decision-lgo", true),
    ];
    assert_eq!(
        lines(&packs),
        [
            "packs/b: lookalike-name name decision-lgo looks like decision-log, the name of packs/a: the same name with two letters swapped"
        ]
    );
}

#[test]
fn control_untouched_lookalikes_and_distinct_names_draw_nothing() {
    let packs = [
        named("packs/a", "decision-log", false),
        named("packs/b", "decisi0n-log", false),
        named("packs/c", "bug-log", true),
        named("packs/d", "bug-logs", true),
    ];
    assert_eq!(lines(&packs), Vec::<String>::new());
}

fn versioned<'a>(head: &'a str, base: &'a str, changed: Option<&[&str]>) -> Versioned<'a> {
    Versioned {
        file: "pack.toml",
        head,
        span: Span::new(30, 30 + head.len()),
        base,
        changed: changed.map(|c| c.iter().map(|s| s.to_string()).collect()),
    }
}

fn said(v: &Versioned<'_>) -> Option<String> {
    version(v).map(|d| format!("{} {}", d.rule.id, d.message))
}

#[test]
fn a_lower_version_is_an_error_and_an_unchanged_one_a_warning() {
    assert_eq!(
        said(&versioned("1.2.0", "1.10.0", None)).as_deref(),
        Some("version-lowered version 1.2.0 is lower than the base's 1.10.0"),
        "numbers, not text"
    );
    let changed = ["prompts/decision-log.md", "passes/decision-log.toml"];
    assert_eq!(
        said(&versioned("1.0.0", "1.0.0", Some(&changed))).as_deref(),
        Some(
            "version-unchanged version 1.0.0 is the base's, but prompts/decision-log.md and 1 more changed"
        )
    );
}

#[test]
fn control_a_raised_version_tests_alone_or_unknown_changes_draw_nothing() {
    let changed = ["prompts/decision-log.md"];
    assert_eq!(said(&versioned("1.0.1", "1.0.0", Some(&changed))), None);
    assert_eq!(said(&versioned("1.0.0", "1.0.0", Some(&[]))), None);
    assert_eq!(said(&versioned("1.0.0", "1.0.0", None)), None);
    assert_eq!(
        said(&versioned("1.0", "2.0.0", None)),
        None,
        "a version of another shape"
    );
}
