//! The dreaming pass engine: one pass of a pack over one window of sessions (docs/testing-packs.md,
//! "The dreaming pass").
//!
//! [`run`] takes the pass (its prompt and persona as text), the window's sessions with their
//! turns, the notes, and two [`model::Model`]s (the pass's model and the reviewer), and returns
//! what happened: the counts a case's `[expect]` names, the prompts sent, and a log. It knows
//! nothing of fixture tests; `crate::fixture` builds its inputs from a case.

mod event;
pub mod model;
pub mod notes;
pub mod render;
pub mod stub;
pub mod validate;

pub use event::Event;

use crate::model::transcript;
use notes::Notes;
use render::CallData;
use transcript::{Tool, Turn};

/// The counts of one dreaming pass, as a fixture case's `[expect]` names them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub calls: u64,
    pub proposals: u64,
    pub validation_failures: u64,
    pub confirmed: u64,
    pub rejected: u64,
    pub applied: u64,
    /// Calls not made because the prompt could not fit the input budget.
    pub skipped_calls: u64,
}

/// What the engine needs of a pass.
#[derive(Debug, Clone)]
pub struct Pass {
    pub name: String,
    /// The prompt file's text.
    pub prompt: String,
    /// The persona file's text.
    pub persona: String,
    pub reads: Vec<String>,
    pub per_note: bool,
    pub input_budget_bytes: u64,
    pub note_types: Vec<String>,
    pub note_paths: Vec<String>,
}

/// A declared session and its turns (ordinals numbered).
#[derive(Debug, Clone)]
pub struct Session {
    pub id: String,
    pub tool: Tool,
    /// `notes/...` ids, as declared.
    pub notes: Vec<String>,
    pub handoff: String,
    pub turns: Vec<Turn>,
}

impl Session {
    /// The earliest timestamp of its turns.
    pub fn first_time(&self) -> Option<i128> {
        self.turns.iter().filter_map(|t| t.time).min()
    }
}

/// One prompt sent to the reviewer: the pass call it reviews and the proposal's number among
/// that call's valid proposals (1-based).
#[derive(Debug, Clone, Default)]
pub struct ReviewPrompt {
    pub call: usize,
    pub proposal: usize,
    pub text: String,
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub counts: Counts,
    /// The pass's prompts, in call order.
    pub prompts: Vec<String>,
    /// The reviewer's prompts, in order.
    pub review_prompts: Vec<ReviewPrompt>,
    pub events: Vec<Event>,
}

impl Outcome {
    /// What went wrong beside the expectations: `call 1: the model failed: ...`.
    pub fn errors(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Error { call, error } => Some(format!("call {call}: {error}")),
                _ => None,
            })
            .collect()
    }
}

/// One call to make: its notes and sessions (indexes into the window's sessions, in order).
#[derive(Debug, Clone)]
struct Call {
    notes: Vec<String>,
    sessions: Vec<usize>,
}

/// The window's sessions in order of first timestamp (sessions without one last), then as
/// declared.
fn ordered(sessions: &[Session]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..sessions.len()).collect();
    idx.sort_by_key(|&i| {
        (
            sessions[i].first_time().is_none(),
            sessions[i].first_time(),
            i,
        )
    });
    idx
}

/// The candidate notes (docs/testing-packs.md): the notes the sessions declare, that exist, kept when they
/// match one of `note_paths` (if set) and `note_types` (if set), in path order. A note
/// `note_paths` leaves out is not opened; `note_types` needs the front matter, so a note it
/// leaves out is opened for its type alone and never sent.
pub fn candidates(pass: &Pass, sessions: &[Session], notes: &mut dyn Notes) -> Vec<String> {
    candidates_why(pass, sessions, notes, &mut Vec::new())
}

/// [`candidates`], recording each declared note left out, and why, in `dropped`.
fn candidates_why(
    pass: &Pass,
    sessions: &[Session],
    notes: &mut dyn Notes,
    dropped: &mut Vec<Event>,
) -> Vec<String> {
    let globs = if pass.note_paths.is_empty() {
        None
    } else {
        // A pack that reaches `test` has valid globs; an invalid set keeps nothing.
        Some(crate::model::pass::note_glob(&pass.note_paths).ok())
    };
    let mut ids: Vec<String> = sessions.iter().flat_map(|s| s.notes.clone()).collect();
    ids.sort();
    ids.dedup();
    let mut kept = Vec::new();
    for id in ids {
        let path_ok = match &globs {
            None => true,
            Some(Some(g)) => g.is_match(id.as_str()),
            Some(None) => false,
        };
        let mut drop = |why: String| {
            dropped.push(Event::Dropped {
                note: id.clone(),
                why,
            })
        };
        if !path_ok {
            drop("left out by note_paths".to_string());
            continue;
        }
        if !notes.exists(&id) {
            drop("not in the case's notes/".to_string());
            continue;
        }
        let found = notes.read(&id).and_then(|t| notes::note_type(&t));
        if pass.note_types.is_empty() || found.as_ref().is_some_and(|t| pass.note_types.contains(t))
        {
            kept.push(id);
        } else {
            drop(match found {
                Some(t) => format!("left out by note_types: its type is {t}"),
                None => "left out by note_types: it has no type".to_string(),
            });
        }
    }
    kept
}

/// Runs one pass over the window's sessions (docs/testing-packs.md: calls, rendering, validation, review).
pub fn run(
    pass: &Pass,
    sessions: &[Session],
    notes: &mut dyn Notes,
    model: &dyn model::Model,
    reviewer: &dyn model::Model,
) -> Outcome {
    let mut out = Outcome::default();
    let cands = candidates_why(pass, sessions, notes, &mut out.events);
    let order = ordered(sessions);
    let mut proposed: Vec<String> = Vec::new();
    if pass.per_note {
        for note in &cands {
            let call = Call {
                notes: vec![note.clone()],
                sessions: order
                    .iter()
                    .copied()
                    .filter(|&i| sessions[i].notes.contains(note))
                    .collect(),
            };
            make_call(
                pass,
                sessions,
                &call,
                notes,
                model,
                reviewer,
                &mut proposed,
                &mut out,
            );
        }
    } else {
        let mut start = 0;
        while start < order.len() {
            // The longest run of sessions whose whole prompt fits.
            let mut end = start + 1;
            while end < order.len() {
                let call = chunk(&order[start..=end], sessions, &cands);
                let data = call_data(&call, sessions, notes, usize::MAX);
                if render::prompt(&pass.prompt, &pass.reads, &data).len() as u64
                    > pass.input_budget_bytes
                {
                    break;
                }
                end += 1;
            }
            let call = chunk(&order[start..end], sessions, &cands);
            make_call(
                pass,
                sessions,
                &call,
                notes,
                model,
                reviewer,
                &mut proposed,
                &mut out,
            );
            start = end;
        }
    }
    out
}

/// A chunk's call: its sessions and their candidate notes, in path order.
fn chunk(run: &[usize], sessions: &[Session], cands: &[String]) -> Call {
    Call {
        notes: cands
            .iter()
            .filter(|n| run.iter().any(|&i| sessions[i].notes.contains(n)))
            .cloned()
            .collect(),
        sessions: run.to_vec(),
    }
}

/// The call's data with all but the `keep` newest turns dropped. Turns are listed session by
/// session (in window order), each in ordinal order; "oldest" is by timestamp, then by place
/// in that list.
fn call_data<'a>(
    call: &Call,
    sessions: &'a [Session],
    notes: &mut dyn Notes,
    keep: usize,
) -> CallData<'a> {
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
    CallData {
        notes: call
            .notes
            .iter()
            .map(|id| (id.clone(), notes.read(id).unwrap_or_default()))
            .collect(),
        sessions: call.sessions.iter().map(|&i| &sessions[i]).collect(),
        turns,
    }
}

#[allow(clippy::too_many_arguments)]
fn make_call(
    pass: &Pass,
    sessions: &[Session],
    call: &Call,
    notes: &mut dyn Notes,
    model: &dyn model::Model,
    reviewer: &dyn model::Model,
    proposed: &mut Vec<String>,
    out: &mut Outcome,
) {
    // A call with no candidate note is not made.
    if call.notes.is_empty() || call.sessions.is_empty() {
        return;
    }
    // Render; over budget, drop the oldest turns (binary search on how many to keep).
    let budget = pass.input_budget_bytes;
    let total: usize = call.sessions.iter().map(|&i| sessions[i].turns.len()).sum();
    let fits = |keep: usize, notes: &mut dyn Notes| {
        let p = render::prompt(
            &pass.prompt,
            &pass.reads,
            &call_data(call, sessions, notes, keep),
        );
        (p.len() as u64 <= budget).then_some(p)
    };
    let prompt = match fits(total, notes) {
        Some(p) => p,
        None => {
            let (mut lo, mut hi) = (0usize, total); // fits(lo)? unknown; fits(hi) is false
            if fits(0, notes).is_none() {
                out.counts.skipped_calls += 1;
                out.events.push(Event::Skipped {
                    notes: call.notes.clone(),
                });
                return;
            }
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if fits(mid, notes).is_some() {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            fits(lo, notes).unwrap_or_default()
        }
    };
    out.counts.calls += 1;
    let call_no = out.counts.calls as usize;
    out.prompts.push(prompt.clone());
    let reply = match model.complete(&prompt) {
        Ok(r) => r,
        Err(error) => {
            out.events.push(Event::Error {
                call: call_no,
                error: format!("the model failed: {error}"),
            });
            return;
        }
    };
    let items = match validate::parse_reply(&reply) {
        Ok(items) => items,
        Err(why) => {
            out.counts.validation_failures += 1;
            out.events.push(Event::Invalid {
                call: call_no,
                element: None,
                why,
            });
            return;
        }
    };
    let call_sessions: Vec<&Session> = call.sessions.iter().map(|&i| &sessions[i]).collect();
    let scope = validate::CallScope {
        notes: &call.notes,
        sessions: &call_sessions,
    };
    let mut valid = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let mut text = |id: &str| notes.read(id).unwrap_or_default();
        match validate::validate(item, &scope, &mut text, proposed) {
            Ok(p) => {
                out.counts.proposals += 1;
                proposed.push(p.new.clone());
                valid.push(p);
            }
            Err(why) => {
                out.counts.validation_failures += 1;
                out.events.push(Event::Invalid {
                    call: call_no,
                    element: Some(i + 1),
                    why,
                });
            }
        }
    }
    for (n, p) in valid.into_iter().enumerate() {
        let note_text = notes.read(&p.note).unwrap_or_default();
        // Each distinct cited turn once, in the order of first citation, however often the
        // evidence repeats it (docs/testing-packs.md): the prompt grows with the turns cited,
        // not with the length of the evidence list.
        let mut seen = std::collections::HashSet::new();
        let cited: Vec<&Turn> = p
            .evidence
            .iter()
            .filter(|e| seen.insert(*e))
            .filter_map(|(s, o)| {
                call_sessions
                    .iter()
                    .find(|x| x.id == *s)
                    .and_then(|x| x.turns.iter().find(|t| t.ordinal == *o))
            })
            .collect();
        let evidence = serde_json::Value::Array(
            p.evidence
                .iter()
                .map(|(s, o)| serde_json::json!({"session": s, "ordinal": o}))
                .collect(),
        )
        .to_string();
        let rp = render::review_prompt(
            &pass.persona,
            &(p.note.clone(), note_text.clone()),
            &p.change,
            &evidence,
            &cited,
        );
        out.review_prompts.push(ReviewPrompt {
            call: call_no,
            proposal: n + 1,
            text: rp.clone(),
        });
        let (confirmed, reviewer_note) = match reviewer.complete(&rp) {
            Ok(answer) => (
                validate::confirms(&answer),
                validate::reviewer_note(&answer),
            ),
            Err(error) => {
                out.events.push(Event::Error {
                    call: call_no,
                    error: format!("the reviewer failed: {error}"),
                });
                (false, None)
            }
        };
        out.events.push(Event::Reviewed {
            call: call_no,
            proposal: n + 1,
            note: p.note.clone(),
            confirmed,
            reviewer_note,
        });
        if !confirmed {
            out.counts.rejected += 1;
            continue;
        }
        out.counts.confirmed += 1;
        match notes.write(&p.note, &notes::append(&note_text, &p.new)) {
            Ok(()) => out.counts.applied += 1,
            Err(error) => out.events.push(Event::Error {
                call: call_no,
                error: format!("cannot apply the change: {error}"),
            }),
        }
    }
}

#[cfg(test)]
mod tests;
