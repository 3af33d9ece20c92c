#![no_main]
//! A model reply, whatever its bytes, through one dreaming pass: parsed, validated by the seven
//! rules, reviewed and applied, never a crash.

use hippo_packs::dream::{self, Pass, Session, responder::StandIn, notes::MemoryNotes};
use hippo_packs::model::transcript;


libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let tr = transcript::parse(
        "decision-1.jsonl",
        include_str!(concat!("../../tests/packs/decision-log/", "tests/cache-store/transcripts/decision-1.jsonl")),
    );
    let turns = transcript::number_turns(&[tr]);
    let session = Session {
        id: "decision-1".into(),
        tool: transcript::Tool::ClaudeCode,
        notes: vec!["notes/Decision log.md".into()],
        handoff: "see [[Decision log]]".into(),
        turns,
    };
    let pass = Pass {
        name: "decision-log".into(),
        prompt: include_str!("../../tests/packs/decision-log/prompts/decision-log.md").into(),
        persona: include_str!("../../tests/packs/decision-log/personas/decision-log-reviewer.md").into(),
        reads: vec!["sessions".into(), "notes".into(), "turns".into(), "human_confirmed".into()],
        per_note: data.first().is_some_and(|b| b & 1 == 0),
        input_budget_bytes: 200_000,
        note_types: vec![],
        note_paths: vec![],
    };
    let mut notes = MemoryNotes::new([(
        "notes/Decision log.md",
        include_str!("../../tests/packs/decision-log/tests/cache-store/notes/Decision log.md"),
    )]);
    let model = StandIn { answer: String::from_utf8_lossy(data).into_owned() };
    let reviewer = StandIn::reviewer("confirm");
    let _ = dream::run(&pass, &[session], &mut notes, &model, &reviewer);
});
