use super::*;
use crate::outcome::CaseResult;

fn pack(prompts: &[(&str, &str)]) -> PackReport {
    PackReport {
        dir: "packs/a".into(),
        uri_base: "packs/a".into(),
        cases: prompts
            .iter()
            .map(|(case, text)| CaseResult {
                name: case.to_string(),
                pass: "decision-log".into(),
                prompts: vec![text.to_string()],
                ..CaseResult::default()
            })
            .collect(),
        case_names: prompts.iter().map(|(c, _)| c.to_string()).collect(),
        ..PackReport::default()
    }
}

const BASE: &str = "{{notes}}\nYou keep a decision log.\nReply in JSON.\nOne line.\n";
const MOVED: &str = "You keep a decision log.\nReply in JSON.\nOne line.\n{{notes}}\n";

#[test]
fn a_moved_placeholder_and_a_hidden_space_show_in_the_diff() {
    let (base, head) = (pack(&[("c1", BASE)]), pack(&[("c1", MOVED)]));
    let s = render(
        &[Pair {
            folder: "packs/a",
            base: Some(&base),
            head: &head,
        }],
        RUN_CAP,
    );
    assert!(s.contains("-{{notes}}") && s.contains("+{{notes}}"), "{s}");
    assert!(
        s.contains("1 of 1 prompts changed, base against head"),
        "{s}"
    );
    assert!(s.contains("<details>") && s.contains("</details>"), "{s}");
    let hidden = pack(&[("c1", &BASE.replace("decision log", "decision\u{200B} log"))]);
    let s = render(
        &[Pair {
            folder: "packs/a",
            base: Some(&base),
            head: &hidden,
        }],
        RUN_CAP,
    );
    assert!(s.contains("+You keep a decisionU+200B log."), "{s}");
    assert!(!s.contains('\u{200B}'), "never raw: {s}");
    // Control: the same prompts at both ends show no diff.
    let s = render(
        &[Pair {
            folder: "packs/a",
            base: Some(&base),
            head: &base,
        }],
        RUN_CAP,
    );
    assert!(
        s.contains("none of its 1 prompts changed") && !s.contains("```diff"),
        "{s}"
    );
}

#[test]
fn secrets_are_masked_and_the_fence_is_never_closed_by_the_prompt() {
    let key = "ghp_R8x2Kq7LmN4pW9sT3vY6bC1dF5gH0jZ8aE2u";
    let head = pack(&[("c1", &format!("```\n{key}\n````\nend\n"))]);
    let s = render(
        &[Pair {
            folder: "packs/a",
            base: None,
            head: &head,
        }],
        RUN_CAP,
    );
    assert!(!s.contains(key), "{s}");
    assert!(s.contains("ghp_\u{2026}[github-pat]"), "{s}");
    assert!(
        s.contains("`````diff"),
        "a fence longer than the prompt's: {s}"
    );
    assert!(s.contains("against no base"), "{s}");
}

#[test]
fn a_pack_without_a_case_says_so_and_the_caps_count_the_rest() {
    let none = PackReport {
        dir: "packs/b".into(),
        ..PackReport::default()
    };
    let s = render(
        &[Pair {
            folder: "packs/b",
            base: None,
            head: &none,
        }],
        RUN_CAP,
    );
    assert!(
        s.contains("<code>packs/b</code> has no fixture case"),
        "{s}"
    );
    let big = |c: char| -> Vec<(String, String)> {
        (0..30)
            .map(|i| {
                (
                    format!("c{i:02}"),
                    format!("{}\n", c.to_string().repeat(3000)),
                )
            })
            .collect()
    };
    let (b, h) = (big('a'), big('b'));
    let as_refs = |v: &[(String, String)]| -> PackReport {
        let refs: Vec<(&str, &str)> = v.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        pack(&refs)
    };
    let (base, head) = (as_refs(&b), as_refs(&h));
    let pair = Pair {
        folder: "packs/a",
        base: Some(&base),
        head: &head,
    };
    let s = render(std::slice::from_ref(&pair), RUN_CAP);
    assert!(s.len() < PACK_CAP + 2048, "{}", s.len());
    let shown = s.matches("```diff").count();
    assert!(shown > 0 && shown < 30, "{shown}");
    assert!(
        s.contains(&format!("{} more changed prompts not shown", 30 - shown)),
        "{s}"
    );
    // The run's room: a second pack that does not fit is counted.
    let second = Pair {
        folder: "packs/c",
        base: Some(&base),
        head: &head,
    };
    let s = render(&[pair, second], s.len() + 50);
    assert!(
        s.contains("1 more pack not shown"),
        "{}",
        &s[s.len() - 200..]
    );
}
