//! The dreaming pass engine: one pass of a pack over one window of sessions (docs/testing-packs.md,
//! "The dreaming pass").
//!
//! [`run`] takes the pass (its prompt and persona as text), the window's sessions with their
//! turns, the notes, and two [`responder::Model`]s (the pass's model and the reviewer), and returns
//! what happened: the counts a case's `[expect]` names, the prompts sent, and a log. It knows
//! nothing of fixture tests; `crate::case_runner` builds its inputs from a case.

mod compose;
mod event;
pub mod notes;
pub(crate) mod render;
pub mod responder;
mod session;
pub(crate) mod stub;
pub(crate) mod validate;

pub(crate) use event::Event;
use session::Call;
pub use session::{Pass, Session};

use compose::{Draft, Growing, Template, TurnLines};
use notes::Notes;

/// The counts of one dreaming pass, as a fixture case's `[expect]` names them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Calls made to the model.
    pub calls: u64,
    /// Notes the model proposed.
    pub proposals: u64,
    /// Replies or proposals that did not validate.
    pub validation_failures: u64,
    /// Proposals the reviewer confirmed.
    pub confirmed: u64,
    /// Proposals the reviewer rejected.
    pub rejected: u64,
    /// Proposals written to the notes.
    pub applied: u64,
    /// Calls not made because the prompt could not fit the input budget.
    pub skipped_calls: u64,
}

/// One prompt sent to the reviewer: the pass call it reviews and the proposal's number among
/// that call's valid proposals (1-based).
#[derive(Debug, Clone, Default)]
pub struct ReviewPrompt {
    pub(crate) call: usize,
    pub(crate) proposal: usize,
    pub(crate) text: String,
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct PassResult {
    pub(crate) counts: Counts,
    /// The pass's prompts, in call order (when the [`Watch`] keeps them).
    pub(crate) prompts: Vec<String>,
    /// The reviewer's prompts, in order (when the [`Watch`] keeps them).
    pub(crate) review_prompts: Vec<ReviewPrompt>,
    pub(crate) events: Vec<Event>,
}

impl PassResult {
    /// What went wrong beside the expectations: `call 1: the model failed: ...`.
    pub(crate) fn errors(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Error { call, error } => Some(format!("call {call}: {error}")),
                _ => None,
            })
            .collect()
    }
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
/// leaves out is opened for its type alone and never sent. Each declared note left out, and
/// why, is recorded in `dropped`.
fn candidates(
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

/// What a run does with each prompt of the pass as it is sent: `prompt` sees it, and it is
/// kept in the [`PassResult`] (with the reviewer's prompts) only when `keep` says so. Without
/// `keep` a run holds one prompt at a time, however many calls it makes.
pub(crate) struct Watch<'a> {
    pub(crate) prompt: &'a mut dyn FnMut(&str),
    pub(crate) keep: bool,
}

/// Runs one pass over the window's sessions (docs/testing-packs.md: calls, rendering, validation, review),
/// keeping every prompt in the [`PassResult`].
pub fn run(
    pass: &Pass,
    sessions: &[Session],
    notes: &mut dyn Notes,
    model: &dyn responder::Model,
    reviewer: &dyn responder::Model,
) -> PassResult {
    let watch = Watch {
        prompt: &mut |_| {},
        keep: true,
    };
    run_watched(pass, sessions, notes, (model, reviewer), watch)
}

/// [`run`], each prompt handed to `watch` as it is sent and kept only when it asks.
pub(crate) fn run_watched(
    pass: &Pass,
    sessions: &[Session],
    notes: &mut dyn Notes,
    (model, reviewer): (&dyn responder::Model, &dyn responder::Model),
    watch: Watch<'_>,
) -> PassResult {
    let mut out = PassResult::default();
    let cands = candidates(pass, sessions, notes, &mut out.events);
    let order = ordered(sessions);
    let tpl = Template::new(pass);
    let lines = TurnLines::new(sessions);
    let mut calls = Calls {
        pass,
        sessions,
        notes,
        model,
        reviewer,
        tpl: &tpl,
        lines: &lines,
        proposed: Vec::new(),
        watch,
        out,
    };
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
            calls.make(&call);
        }
    } else {
        let mut start = 0;
        while start < order.len() {
            // The longest run of sessions whose whole prompt fits, grown one session at a time
            // (lengths added, nothing rendered).
            let mut grow = Growing::new(&tpl, &cands);
            let notes = &mut *calls.notes;
            let mut text = |id: &str| notes.read(id).unwrap_or_default();
            grow.add(sessions, &lines, order[start], &mut text);
            let mut end = start + 1;
            while end < order.len() {
                let len = grow.add(sessions, &lines, order[end], &mut text);
                if len as u64 > pass.input_budget_bytes {
                    break;
                }
                end += 1;
            }
            calls.make(&chunk(&order[start..end], sessions, &cands));
            start = end;
        }
    }
    calls.out
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

/// The calls of one pass: what every call reads, and what the pass has produced so far.
struct Calls<'a, 'w> {
    pass: &'a Pass,
    sessions: &'a [Session],
    notes: &'a mut dyn Notes,
    model: &'a dyn responder::Model,
    reviewer: &'a dyn responder::Model,
    tpl: &'a Template<'a>,
    lines: &'a TurnLines,
    /// The new lines proposed by earlier calls (a later call may not propose one again).
    proposed: Vec<String>,
    watch: Watch<'w>,
    out: PassResult,
}

impl Calls<'_, '_> {
    /// One call: render within the budget, ask the model, validate its reply, review and apply
    /// each valid proposal.
    fn make(&mut self, call: &Call) {
        // A call with no candidate note is not made.
        if call.notes.is_empty() || call.sessions.is_empty() {
            return;
        }
        let Some(prompt) = self.prompt_within_budget(call) else {
            self.out.counts.skipped_calls += 1;
            self.out.events.push(Event::Skipped {
                notes: call.notes.clone(),
            });
            return;
        };
        self.out.counts.calls += 1;
        let call_no = self.out.counts.calls as usize;
        (self.watch.prompt)(&prompt);
        let reply = self.model.complete(&prompt);
        if self.watch.keep {
            self.out.prompts.push(prompt);
        }
        let reply = match reply {
            Ok(r) => r,
            Err(error) => {
                let error = format!("the model failed: {error}");
                self.out.events.push(Event::Error {
                    call: call_no,
                    error,
                });
                return;
            }
        };
        let call_sessions: Vec<&Session> =
            call.sessions.iter().map(|&i| &self.sessions[i]).collect();
        let valid = self.proposals(call, &call_sessions, call_no, &reply);
        for (n, p) in valid.into_iter().enumerate() {
            self.review(&call_sessions, call_no, n + 1, p);
        }
    }

    /// The prompt with every turn, or, over budget, with the oldest turns dropped (a binary
    /// search on how many to keep, over lengths); `None` when even no turn fits. Rendered once.
    fn prompt_within_budget(&mut self, call: &Call) -> Option<String> {
        let notes = &mut *self.notes;
        let mut text = |id: &str| notes.read(id).unwrap_or_default();
        let draft = Draft::new(call, self.sessions, self.lines, &mut text);
        let keep = draft.keep_within(self.tpl, self.pass.input_budget_bytes)?;
        Some(draft.render(self.pass, self.tpl, keep))
    }

    /// The reply's valid proposals; each invalid element (or a reply that is not a list) is a
    /// validation failure.
    fn proposals(
        &mut self,
        call: &Call,
        call_sessions: &[&Session],
        call_no: usize,
        reply: &str,
    ) -> Vec<validate::Proposal> {
        let out = &mut self.out;
        let items = match validate::parse_reply(reply) {
            Ok(items) => items,
            Err(why) => {
                out.counts.validation_failures += 1;
                out.events.push(Event::Invalid {
                    call: call_no,
                    element: None,
                    why,
                });
                return Vec::new();
            }
        };
        let scope = validate::CallScope {
            notes: &call.notes,
            sessions: call_sessions,
        };
        let mut valid = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let notes = &mut *self.notes;
            let mut text = |id: &str| notes.read(id).unwrap_or_default();
            match validate::validate(item, &scope, &mut text, &self.proposed) {
                Ok(p) => {
                    out.counts.proposals += 1;
                    self.proposed.push(p.new.clone());
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
        valid
    }

    /// The reviewer's verdict on one proposal (number `n` of the call), and the change applied
    /// when it confirms.
    fn review(
        &mut self,
        call_sessions: &[&Session],
        call_no: usize,
        n: usize,
        p: validate::Proposal,
    ) {
        let note_text = self.notes.read(&p.note).unwrap_or_default();
        let rp = render::proposal_review(&self.pass.persona, call_sessions, &p, &note_text);
        let answer = self.reviewer.complete(&rp);
        if self.watch.keep {
            self.out.review_prompts.push(ReviewPrompt {
                call: call_no,
                proposal: n,
                text: rp,
            });
        }
        let (confirmed, reviewer_note) = match answer {
            Ok(answer) => (
                validate::confirms(&answer),
                validate::reviewer_note(&answer),
            ),
            Err(error) => {
                let error = format!("the reviewer failed: {error}");
                self.out.events.push(Event::Error {
                    call: call_no,
                    error,
                });
                (false, None)
            }
        };
        self.out.events.push(Event::Reviewed {
            call: call_no,
            proposal: n,
            note: p.note.clone(),
            confirmed,
            reviewer_note,
        });
        if !confirmed {
            self.out.counts.rejected += 1;
            return;
        }
        self.out.counts.confirmed += 1;
        match self
            .notes
            .write(&p.note, &notes::append(&note_text, &p.new))
        {
            Ok(()) => self.out.counts.applied += 1,
            Err(error) => self.out.events.push(Event::Error {
                call: call_no,
                error: format!("cannot apply the change: {error}"),
            }),
        }
    }
}

#[cfg(test)]
mod tests;
