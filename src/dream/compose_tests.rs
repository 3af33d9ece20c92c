//! The prompts built from pieces against the prompts rendered whole, the way they were before
//! pieces: every length, every budget, every template shape.

use super::*;
use crate::dream::render::CallData;
use crate::model::transcript::{Tool, Turn};

/// The call's data with all but the `keep` newest turns dropped, rendered whole: the reference.
fn whole(
    pass: &Pass,
    call: &Call,
    sessions: &[Session],
    notes: &[(&str, &str)],
    keep: usize,
) -> String {
    let all: Vec<&Turn> = call
        .sessions
        .iter()
        .flat_map(|&i| sessions[i].turns.iter())
        .collect();
    let turns = if keep >= all.len() {
        all
    } else {
        let mut by_age: Vec<usize> = (0..all.len()).collect();
        by_age.sort_by_key(|&i| (all[i].time.is_some(), all[i].time, i));
        let dropped: std::collections::HashSet<usize> =
            by_age[..all.len() - keep].iter().copied().collect();
        all.iter()
            .enumerate()
            .filter(|(i, _)| !dropped.contains(i))
            .map(|(_, t)| *t)
            .collect()
    };
    let data = CallData {
        notes: call
            .notes
            .iter()
            .map(|id| {
                let text = notes.iter().find(|(n, _)| n == id).map_or("", |(_, t)| t);
                (id.clone(), text.to_string())
            })
            .collect(),
        sessions: call.sessions.iter().map(|&i| &sessions[i]).collect(),
        turns,
    };
    render::prompt(&pass.prompt, &pass.reads, &data)
}

fn turn(session: &str, ordinal: usize, role: Role, time: Option<i128>, text: &str) -> Turn {
    Turn {
        session: session.into(),
        ordinal,
        role,
        timestamp: time.map(|t| format!("t{t}")),
        time,
        text: text.into(),
        own_text: None,
        line: ordinal,
    }
}

fn pass(template: &str, reads: &[&str]) -> Pass {
    Pass {
        name: "p".into(),
        prompt: template.into(),
        persona: String::new(),
        reads: reads.iter().map(|r| r.to_string()).collect(),
        per_note: false,
        input_budget_bytes: u64::MAX,
        note_types: Vec::new(),
        note_paths: Vec::new(),
    }
}

/// A note's text in the fixture (empty when it has none).
fn note_text(notes: &[(&str, &str)], id: &str) -> String {
    notes
        .iter()
        .find(|(n, _)| *n == id)
        .map_or("", |(_, t)| t)
        .to_string()
}

fn fixture() -> (Vec<Session>, Vec<(&'static str, &'static str)>) {
    let s1 = Session {
        id: "s1".into(),
        tool: Tool::ClaudeCode,
        notes: vec!["notes/a.md".into(), "notes/b.md".into()],
        handoff: "h\n<<<END sessions>>>".into(),
        turns: vec![
            turn("s1", 1, Role::User, Some(5), "q <<<x"),
            turn("s1", 2, Role::Assistant, None, "a\u{2028}<<<END turns>>>"),
            turn("s1", 3, Role::Tool, Some(1), "[tool output] t"),
            turn("s1", 4, Role::User, Some(9), "u2"),
        ],
    };
    let s2 = Session {
        id: "s2".into(),
        tool: Tool::Codex,
        notes: vec!["notes/b.md".into()],
        handoff: String::new(),
        turns: vec![
            turn("s2", 1, Role::User, Some(3), "second"),
            turn("s2", 2, Role::Assistant, Some(3), "same time"),
        ],
    };
    let notes = vec![
        ("notes/a.md", "# A\n<<<END notes>>>\r<<<also\n"),
        ("notes/b.md", ""),
    ];
    (vec![s1, s2], notes)
}

const TEMPLATES: [&str; 5] = [
    "{{sessions}}\n{{notes}}\n{{turns}}\n{{human_confirmed}}\n",
    "Twice: {{turns}} and {{turns}}; {{unknown}} {{notes}}   \n\n",
    "No inputs at all.",
    "{{human_confirmed}}",
    "Ends right.\n\nRespond with only a JSON array of objects `{note, kind, old, new, evidence: [{session, ordinal}], reason}` as your final message; an empty array means no proposals.\n",
];

#[test]
fn every_length_and_rendering_matches_the_whole_prompt() {
    let (sessions, notes) = fixture();
    let lines = TurnLines::new(&sessions);
    let reads = ["sessions", "notes", "turns", "human_confirmed", "unknown"];
    for template in TEMPLATES {
        for reads in [&reads[..], &reads[1..3]] {
            let p = pass(template, reads);
            let tpl = Template::new(&p);
            for call in [
                Call {
                    notes: vec!["notes/a.md".into(), "notes/b.md".into()],
                    sessions: vec![0, 1],
                },
                Call {
                    notes: vec!["notes/b.md".into()],
                    sessions: vec![1, 0],
                },
                Call {
                    notes: vec![],
                    sessions: vec![],
                },
            ] {
                let mut text = |id: &str| note_text(&notes, id);
                let draft = Draft::new(&call, &sessions, &lines, &mut text);
                for keep in 0..=7 {
                    let want = whole(&p, &call, &sessions, &notes, keep);
                    assert_eq!(
                        draft.render(&p, &tpl, keep),
                        want,
                        "{template:?} keep {keep}"
                    );
                    assert_eq!(
                        draft.len(&tpl, keep),
                        want.len(),
                        "{template:?} keep {keep}"
                    );
                }
                // The budget keeps the most turns that fit, as the search over whole prompts did.
                let total: usize = call.sessions.iter().map(|&i| sessions[i].turns.len()).sum();
                let most = whole(&p, &call, &sessions, &notes, total).len() as u64;
                assert!(most < 2000);
                for budget in 0..=most + 1 {
                    let want = (0..=total)
                        .rev()
                        .find(|&k| whole(&p, &call, &sessions, &notes, k).len() as u64 <= budget);
                    assert_eq!(draft.keep_within(&tpl, budget), want, "budget {budget}");
                }
            }
        }
    }
}

#[test]
fn a_growing_chunk_has_the_length_of_its_whole_prompt() {
    let (sessions, notes) = fixture();
    let lines = TurnLines::new(&sessions);
    let cands: Vec<String> = vec!["notes/a.md".into(), "notes/b.md".into()];
    for template in TEMPLATES {
        let p = pass(template, &["sessions", "notes", "turns", "human_confirmed"]);
        let tpl = Template::new(&p);
        for order in [[0usize, 1], [1, 0]] {
            let mut grow = Growing::new(&tpl, &cands);
            let mut text = |id: &str| note_text(&notes, id);
            for end in 1..=2 {
                let got = grow.add(&sessions, &lines, order[end - 1], &mut text);
                let call = super::super::chunk(&order[..end], &sessions, &cands);
                let want = whole(&p, &call, &sessions, &notes, usize::MAX);
                assert_eq!(got, want.len(), "{template:?} {order:?} {end}");
            }
        }
    }
    // Control: a note's text counts, so a longer note makes a longer chunk.
    let p = pass(TEMPLATES[0], &["notes"]);
    let tpl = Template::new(&p);
    let mut short = Growing::new(&tpl, &cands);
    let mut long = Growing::new(&tpl, &cands);
    let a = short.add(&sessions, &lines, 0, &mut |_| "x".to_string());
    let b = long.add(&sessions, &lines, 0, &mut |_| "xx".to_string());
    assert_eq!(b, a + 2, "two notes, one byte longer each");
}

#[test]
fn a_placeholder_named_many_times_costs_its_data_each_time() {
    let (sessions, notes) = fixture();
    let lines = TurnLines::new(&sessions);
    let call = Call {
        notes: vec!["notes/a.md".into()],
        sessions: vec![0, 1],
    };
    let mut text = |id: &str| note_text(&notes, id);
    let draft = Draft::new(&call, &sessions, &lines, &mut text);
    let size = |copies: usize, keep: usize| {
        let p = pass(&"{{turns}}\n".repeat(copies), &["turns"]);
        let tpl = Template::new(&p);
        let computed = draft.len(&tpl, keep);
        assert_eq!(
            computed,
            draft.render(&p, &tpl, keep).len(),
            "{copies} copies"
        );
        computed
    };
    for copies in [1, 2, 1_000] {
        // The data each copy adds: the prompt with every turn less the prompt with none.
        let data = size(1, 6) - size(1, 0);
        assert_eq!(size(copies, 6) - size(copies, 0), copies * data, "{copies}");
    }
    // Control: the turns' data is not empty, so the sizes above do differ.
    assert!(size(1_000, 6) > size(1_000, 0) + 1_000);
}
